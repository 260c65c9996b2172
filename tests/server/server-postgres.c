/* server-postgres.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <grp.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server-postgres.h"

/* One PostgreSQL cluster per test binary, made with initdb in a temporary
 * folder at the first database a test asks for, its unix socket in that
 * folder and a free TCP port on 127.0.0.1, and removed when the binary
 * exits. PostgreSQL refuses to run as root: run as root (CI's
 * containers), initdb and the server run as `nobody`. The server is the
 * binary's own child and dies with it (PR_SET_PDEATHSIG), so an aborted
 * test leaves no postgres behind. Every test gets a fresh database. The
 * cluster is tuned for tests (fsync off: the data survives the server's
 * death, which the tests cause, though not the machine's). Commits stay
 * synchronous: a database that goes away must not lose what it said it
 * committed, which the tests check. */

#define TEST_USER "viva"

static char        *bin_dir;
static char        *top_dir;
static char        *data_dir;
static guint        port;
static GSubprocess *postmaster;
static guint        n_databases;
static gboolean     as_nobody;
static uid_t        nobody_uid = 65534;
static gid_t        nobody_gid = 65534;

gboolean
server_postgres_wanted (void)
{
  return g_str_has_prefix (g_getenv ("VIVA_TEST_SERVER_DATABASE") ? g_getenv ("VIVA_TEST_SERVER_DATABASE") : "",
                           "postgresql");
}

static char *
find_bin_dir (void)
{
  g_autofree char *initdb = g_find_program_in_path ("initdb");
  g_autoptr(GDir) dir = NULL;
  g_autofree char *best = NULL;
  int best_version = 0;
  const char *name;

  /* Debian keeps the server's programs out of PATH, one folder a version;
   * the newest wins. */
  if ((dir = g_dir_open ("/usr/lib/postgresql", 0, NULL)))
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *candidate = g_build_filename ("/usr/lib/postgresql", name, "bin", NULL);
        g_autofree char *program = g_build_filename (candidate, "postgres", NULL);

        if (g_file_test (program, G_FILE_TEST_IS_EXECUTABLE) && atoi (name) > best_version)
          {
            best_version = atoi (name);
            g_free (best);
            best = g_steal_pointer (&candidate);
          }
      }
  if (best != NULL)
    return g_steal_pointer (&best);

  if (initdb != NULL)
    {
      g_autofree char *resolved = g_file_read_link (initdb, NULL);
      g_autofree char *folder = g_path_get_dirname (resolved ? resolved : initdb);
      g_autofree char *program = g_build_filename (folder, "postgres", NULL);

      if (g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&folder);
    }
  return NULL;
}

/**
 * server_postgres_check:
 * @reason: (out): why the tests cannot run on PostgreSQL
 *
 * Returns: whether initdb and postgres are installed (and, run as root,
 *   whether there is an unprivileged user to run them as)
 */
gboolean
server_postgres_check (char **reason)
{
  if (bin_dir == NULL)
    bin_dir = find_bin_dir ();
  if (bin_dir == NULL)
    {
      *reason = g_strdup ("PostgreSQL is not installed (no initdb and postgres in /usr/lib/postgresql/*/bin or on PATH); tools/setup installs it");
      return FALSE;
    }
  return TRUE;
}

/* Run as root: become nobody, then ask to die with the test (the order
 * matters: changing the user clears the death signal). */
static void
child_setup (gpointer user_data)
{
  if (as_nobody)
    {
      if (setgroups (0, NULL) != 0 || setgid (nobody_gid) != 0 || setuid (nobody_uid) != 0)
        _exit (126);
    }
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static GSubprocess *
spawn (GSubprocessFlags   flags,
       GError           **error,
       const char        *program,
       ...)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, g_build_filename (bin_dir, program, NULL));
  va_start (args, program);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  g_subprocess_launcher_unsetenv (launcher, "PGDATABASE");
  g_subprocess_launcher_unsetenv (launcher, "PGHOST");
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  return g_subprocess_launcher_spawnv (launcher, (const char * const *)argv->pdata, error);
}

static void
run_ok (GSubprocess *process)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;

  g_assert_nonnull (process);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (process))
    g_error ("a PostgreSQL program failed: %s", out ? out : "");
  g_object_unref (process);
}

static guint
free_port (void)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t length = sizeof address;
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  guint found;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (bind (fd, (struct sockaddr *)&address, sizeof address), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *)&address, &length), ==, 0);
  found = ntohs (address.sin_port);
  close (fd);
  return found;
}

static void
wait_ready (void)
{
  g_autofree char *port_text = g_strdup_printf ("%u", port);

  for (guint attempt = 0; attempt < 600; attempt++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GSubprocess) probe = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                            &error, "pg_isready", "-q", "-h", top_dir, "-p", port_text,
                                            "-U", TEST_USER, "-d", "postgres", NULL);

      g_assert_no_error (error);
      if (g_subprocess_wait_check (probe, NULL, NULL))
        return;
      if (postmaster != NULL && g_subprocess_get_identifier (postmaster) == NULL)
        g_error ("postgres exited before it was ready");
      g_usleep (50 * 1000);
    }
  g_error ("postgres was not ready in 30 seconds");
}

/* Starts (or starts again) the server on the cluster's data. */
void
server_postgres_start_cluster (void)
{
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  g_autoptr(GError) error = NULL;

  g_assert_null (postmaster);
  postmaster = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                      "postgres", "-D", data_dir, "-k", top_dir, "-p", port_text,
                      "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                      "-c", "full_page_writes=off", "-c", "max_connections=60", NULL);
  g_assert_no_error (error);
  wait_ready ();
}

/* Stops the server at once, as a database that goes away does. */
void
server_postgres_stop_cluster (void)
{
  g_assert_nonnull (postmaster);
  /* SIGQUIT: immediate shutdown, every connection cut. */
  g_subprocess_send_signal (postmaster, SIGQUIT);
  g_subprocess_wait (postmaster, NULL, NULL);
  g_clear_object (&postmaster);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
server_postgres_teardown (void)
{
  if (postmaster != NULL)
    server_postgres_stop_cluster ();
  if (top_dir != NULL)
    remove_tree (top_dir);
  g_clear_pointer (&top_dir, g_free);
  g_clear_pointer (&data_dir, g_free);
}

/* A test that aborted (a failed assertion) leaves its cluster's folder:
 * its postgres died with it, the folder stays. Those older than half an
 * hour whose postmaster is gone are removed here; a cluster being made or
 * running is never touched. */
static void
sweep_stale (const char *tmp)
{
  g_autoptr(GDir) dir = g_dir_open (tmp, 0, NULL);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)))
    {
      g_autofree char *path = NULL;
      g_autofree char *pid_path = NULL;
      g_autofree char *pid_text = NULL;
      struct stat st;

      if (!g_str_has_prefix (name, "viva-pg-"))
        continue;
      path = g_build_filename (tmp, name, NULL);
      if (g_lstat (path, &st) != 0 || !S_ISDIR (st.st_mode) || now - st.st_mtime < 30 * 60)
        continue;
      pid_path = g_build_filename (path, "data", "postmaster.pid", NULL);
      if (g_file_get_contents (pid_path, &pid_text, NULL, NULL) && atoi (pid_text) > 0 &&
          kill (atoi (pid_text), 0) == 0)
        continue;
      remove_tree (path);
    }
}

static void
make_cluster (void)
{
  g_autoptr(GError) error = NULL;
  const char *tmp = g_get_tmp_dir ();
  g_autofree char *template = NULL;
  struct stat st;

  g_assert_true (server_postgres_check (&(char *){ NULL }));

  /* nobody must reach the folder: a private TMPDIR would not do. */
  as_nobody = geteuid () == 0;
  if (as_nobody && (g_stat (tmp, &st) != 0 || !(st.st_mode & S_IXOTH)))
    tmp = "/tmp";
  sweep_stale (tmp);
  template = g_build_filename (tmp, "viva-pg-XXXXXX", NULL);
  top_dir = g_mkdtemp (template) ? g_steal_pointer (&template) : NULL;
  g_assert_nonnull (top_dir);
  data_dir = g_build_filename (top_dir, "data", NULL);
  if (as_nobody)
    g_assert_cmpint (chown (top_dir, nobody_uid, nobody_gid), ==, 0);

  run_ok (spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE, &error,
                 "initdb", "-D", data_dir, "-U", TEST_USER, "--auth=trust", "-E", "UTF8", "--locale=C",
                 "--no-sync", NULL));
  g_assert_no_error (error);

  port = free_port ();
  server_postgres_start_cluster ();
  atexit (server_postgres_teardown);
}

/**
 * server_postgres_new_database:
 * @tcp: reach it over 127.0.0.1 rather than the unix socket
 *
 * Returns: (transfer full): a link to a new, empty database
 */
char *
server_postgres_new_database (gboolean tcp)
{
  g_autofree char *name = g_strdup_printf ("viva_test_%u", ++n_databases);
  g_autofree char *port_text = NULL;
  g_autoptr(GError) error = NULL;

  if (top_dir == NULL)
    make_cluster ();
  port_text = g_strdup_printf ("%u", port);

  run_ok (spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE, &error,
                 "createdb", "-h", top_dir, "-p", port_text, "-U", TEST_USER, name, NULL));
  g_assert_no_error (error);

  if (tcp)
    return g_strdup_printf ("postgresql://%s@127.0.0.1:%u/%s", TEST_USER, port, name);
  return g_strdup_printf ("postgresql:///%s?host=%s&port=%u&user=%s", name, top_dir, port, TEST_USER);
}
