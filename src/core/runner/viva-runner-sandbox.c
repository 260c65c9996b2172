/* viva-runner-sandbox.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "viva-runner-private.h"

/* Where and how the worker process starts.
 *
 * Outside Flatpak the worker runs under bubblewrap: every namespace
 * unshared (no network), /usr and the few files of /etc that Python,
 * fontconfig and BLAS read mounted read-only, a private tmpfs on /tmp as
 * its home and working directory, nothing of the user's home. Root keeps
 * no identity or capability inside. Inside Flatpak, bubblewrap is blocked
 * by Flatpak's seccomp filter, so the worker is a sub-sandbox through
 * `flatpak-spawn --sandbox --no-network`. Either way the worker sets its own
 * resource limits and forbids new processes (flatpak-spawn does not pass
 * rlimits on). */

#define SANDBOX_HOME "/tmp"
#define SANDBOX_CACHE "/var/cache/viva"

static const char * const etc_files[] = {
  "/etc/alternatives",   /* Debian's libblas.so.3 is a link through here */
  "/etc/ld.so.cache",
  "/etc/fonts",
  "/etc/matplotlibrc",
  "/etc/localtime",
  "/etc/mime.types",
};

/* The student's scratch folder: a few small files at most, and ours. */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK) && (dir = g_dir_open (path, 0, NULL)))
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *child = g_build_filename (path, name, NULL);
        remove_tree (child);
      }

  g_remove (path);
}

/* Tests point VIVA_FLATPAK_INFO at a file of their own. */
static const char *
flatpak_info_path (void)
{
  const char *path = g_getenv ("VIVA_FLATPAK_INFO");

  return path && path[0] ? path : "/.flatpak-info";
}

/**
 * _viva_runner_flatpak_is_build:
 * @info_path: a Flatpak instance's `.flatpak-info`
 *
 * Whether the app runs from a build directory (`flatpak-builder --run`,
 * `flatpak build`) rather than installed. The portal starts sub-sandboxes
 * only from an installed app's files, so a build has none to offer.
 */
gboolean
_viva_runner_flatpak_is_build (const char *info_path)
{
  g_autoptr(GKeyFile) info = g_key_file_new ();

  return g_key_file_load_from_file (info, info_path, G_KEY_FILE_NONE, NULL) &&
         g_key_file_get_boolean (info, "Instance", "build", NULL);
}

VivaRunnerLaunch *
_viva_runner_launch_new (GError **error)
{
  g_autoptr(VivaRunnerLaunch) launch = g_new0 (VivaRunnerLaunch, 1);
  const char *worker = g_getenv ("VIVA_WORKER");
  const char *sandbox = g_getenv ("VIVA_SANDBOX");

  /* Absolute, because the sandbox binds the worker by its path. */
  if (worker != NULL && worker[0] != '\0')
    launch->worker = g_canonicalize_filename (worker, NULL);
  else
    launch->worker = g_build_filename (LIBEXECDIR, "viva-python-worker", NULL);

  if (!g_file_test (launch->worker, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The Python worker “%s” is missing, so code cannot run. Reinstall Viva."),
                   launch->worker);
      return NULL;
    }

  launch->cache_dir = g_build_filename (g_get_user_cache_dir (), "viva", "python", NULL);
  g_mkdir_with_parents (launch->cache_dir, 0700);

  if (g_strcmp0 (sandbox, "none") == 0)
    launch->sandbox = VIVA_RUNNER_SANDBOX_NONE;
  else if (g_file_test (flatpak_info_path (), G_FILE_TEST_EXISTS))
    launch->sandbox = _viva_runner_flatpak_is_build (flatpak_info_path ())
                    ? VIVA_RUNNER_SANDBOX_NONE : VIVA_RUNNER_SANDBOX_FLATPAK;
  else
    {
      const char *bwrap = g_getenv ("VIVA_BWRAP");

      launch->bwrap = bwrap && bwrap[0] ? g_strdup (bwrap) : g_find_program_in_path ("bwrap");
      launch->sandbox = launch->bwrap ? VIVA_RUNNER_SANDBOX_BUBBLEWRAP : VIVA_RUNNER_SANDBOX_NONE;
    }

  return g_steal_pointer (&launch);
}

void
_viva_runner_launch_free (VivaRunnerLaunch *launch)
{
  if (launch == NULL)
    return;

  if (launch->work_dir != NULL)
    remove_tree (launch->work_dir);

  g_free (launch->bwrap);
  g_free (launch->worker);
  g_free (launch->cache_dir);
  g_free (launch->work_dir);
  g_free (launch);
}

/**
 * _viva_runner_launch_why_unsandboxed:
 *
 * Returns: (transfer full): why no sandbox was found, as a sentence
 */
char *
_viva_runner_launch_why_unsandboxed (VivaRunnerLaunch *launch)
{
  if (g_strcmp0 (g_getenv ("VIVA_SANDBOX"), "none") == 0)
    return g_strdup (_("The sandbox is turned off (VIVA_SANDBOX=none): code can read and change your files and use the network."));

  if (g_file_test (flatpak_info_path (), G_FILE_TEST_EXISTS))
    return g_strdup (_("Viva runs from a Flatpak build folder, not installed, so code gets no sandbox of its own: it can use the network and this build’s files. Install the Flatpak to run code in a sandbox."));

  return g_strdup (_("Bubblewrap is not installed, so code runs without a sandbox: it can read and change your files and use the network. Install the “bubblewrap” package to protect them."));
}

static void
add (GPtrArray  *argv,
     const char *first,
     ...)
{
  va_list args;

  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
}

static void
add_bwrap_args (VivaRunnerLaunch *launch,
                GPtrArray        *argv)
{
  static const char * const top[] = { "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32" };
  g_autoptr(GDir) etc = NULL;
  const char *name;

  add (argv, launch->bwrap,
       "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
       NULL);

  /* Root would be root inside too: become nobody instead. */
  if (getuid () == 0)
    add (argv, "--unshare-user", "--uid", "65534", "--gid", "65534", NULL);

  add (argv, "--ro-bind", "/usr", "/usr", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (top); i++)
    {
      g_autofree char *target = g_file_read_link (top[i], NULL);

      if (target != NULL)
        add (argv, "--symlink", target, top[i], NULL);
      else if (g_file_test (top[i], G_FILE_TEST_IS_DIR))
        add (argv, "--ro-bind", top[i], top[i], NULL);
    }

  for (guint i = 0; i < G_N_ELEMENTS (etc_files); i++)
    add (argv, "--ro-bind-try", etc_files[i], etc_files[i], NULL);

  /* Debian's sitecustomize and site configuration live in /etc/python3*. */
  if ((etc = g_dir_open ("/etc", 0, NULL)))
    while ((name = g_dir_read_name (etc)))
      if (g_str_has_prefix (name, "python3"))
        {
          g_autofree char *path = g_build_filename ("/etc", name, NULL);
          add (argv, "--ro-bind", path, path, NULL);
        }

  add (argv,
       "--proc", "/proc",
       "--dev", "/dev",
       "--tmpfs", "/tmp",
       "--bind", launch->cache_dir, SANDBOX_CACHE,
       "--chdir", SANDBOX_HOME,
       NULL);

  /* After the private /tmp, so a worker built under /tmp (a CI checkout)
   * is not hidden by it. */
  if (!g_str_has_prefix (launch->worker, "/usr/"))
    add (argv, "--ro-bind", launch->worker, launch->worker, NULL);
}

static void
set_environ (GSubprocessLauncher *launcher,
             GPtrArray           *argv,
             const char          *home,
             const char          *cache,
             gboolean             as_arguments)
{
  g_autofree char *mpl = g_build_filename (cache, "matplotlib", NULL);
  const char *vars[][2] = {
    { "PATH", "/usr/bin:/bin" },
    { "HOME", home },
    { "TMPDIR", home },
    { "LANG", "C.UTF-8" },
    { "MPLCONFIGDIR", mpl },
    { "OPENBLAS_NUM_THREADS", "1" },
    { "OMP_NUM_THREADS", "1" },
  };
  const char *empty[] = { NULL };

  /* flatpak-spawn itself needs the session bus from our environment. */
  if (!as_arguments)
    g_subprocess_launcher_set_environ (launcher, (char **) empty);
  for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
    {
      if (as_arguments)
        g_ptr_array_add (argv, g_strdup_printf ("--env=%s=%s", vars[i][0], vars[i][1]));
      else
        g_subprocess_launcher_setenv (launcher, vars[i][0], vars[i][1], TRUE);
    }
}

static void
child_setup (gpointer data)
{
  /* Out of the terminal's process group: Ctrl+C in viva-cli must reach
   * viva-cli, which stops the run itself. */
  setsid ();
}

/**
 * _viva_runner_launch_spawn:
 * @channel_fd: the worker's end of the channel; it becomes the worker's
 *   fd 3 and is closed here
 *
 * Starts the worker under @sandbox with stdout and stderr piped.
 */
GSubprocess *
_viva_runner_launch_spawn (VivaRunnerLaunch   *launch,
                           VivaRunnerSandbox   sandbox,
                           guint64             memory_limit,
                           int                 channel_fd,
                           GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_take_fd (launcher, channel_fd, 3);

  switch (sandbox)
    {
    case VIVA_RUNNER_SANDBOX_BUBBLEWRAP:
      add_bwrap_args (launch, argv);
      set_environ (launcher, argv, SANDBOX_HOME, SANDBOX_CACHE, FALSE);
      break;

    case VIVA_RUNNER_SANDBOX_FLATPAK:
      /* The sub-sandbox sees /app, the runtime and its own /tmp, not the
       * app's data or cache folders: everything lives in /tmp. */
      add (argv, "flatpak-spawn", "--sandbox", "--no-network", "--watch-bus",
           "--forward-fd=3", "--directory=/tmp", NULL);
      set_environ (launcher, argv, "/tmp", "/tmp", TRUE);
      break;

    case VIVA_RUNNER_SANDBOX_NONE:
    default:
      if (launch->work_dir == NULL &&
          !(launch->work_dir = g_dir_make_tmp ("viva-run-XXXXXX", error)))
        return NULL;
      g_subprocess_launcher_set_cwd (launcher, launch->work_dir);
      g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
      set_environ (launcher, argv, launch->work_dir, launch->cache_dir, FALSE);
      break;
    }

  add (argv, launch->worker, NULL);
  g_ptr_array_add (argv, g_strdup_printf ("--memory-limit=%" G_GUINT64_FORMAT, memory_limit));
  g_ptr_array_add (argv, NULL);

  return g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, error);
}
