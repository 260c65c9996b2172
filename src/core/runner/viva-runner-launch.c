/* viva-runner-launch.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "viva-runner-launch.h"

/* Where and how the worker process starts.
 *
 * Outside Flatpak the worker runs under bubblewrap: every namespace
 * unshared (no network), the worker itself as pid 1 (no init of
 * bubblewrap's to ptrace), read-only only what Python needs: its standard
 * library and site-packages, the shared libraries, matplotlib's data and
 * fonts, and the few files of /etc that Python, fontconfig and BLAS read;
 * not /usr/bin, /usr/libexec or /usr/share, so neither the app's programs
 * nor its data (the bundled pack is in them). A private tmpfs of
 * TMPFS_SIZE on /tmp is its home and working directory; nothing of the
 * host is writable and no host path shows inside (the worker is bound at
 * a fixed path, the environment is ours). Root keeps no identity or
 * capability inside. Inside Flatpak, bubblewrap is blocked by Flatpak's
 * seccomp filter, so the worker is a sub-sandbox through `flatpak-spawn
 * --sandbox --no-network`. Either way the worker sets its own resource
 * limits and seccomp filter (flatpak-spawn does not pass rlimits on). */

#define SANDBOX_HOME "/tmp"
#define SANDBOX_CACHE "/var/cache/viva"
#define SANDBOX_WORKER "/usr/libexec/viva-python-worker"
#define SANDBOX_MPLCONFIG "/tmp/.matplotlib"
#define FONT_CACHE_FD 4
#define WORKER_FD 5
#define TMPFS_SIZE "134217728" /* 128 MiB: scratch files, two of RLIMIT_FSIZE */

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

/* A program started from the build tree (`build/src/cli/viva-cli`) runs
 * the worker built beside it; an installed one the worker in libexecdir. */
static char *
default_worker (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *build_root = realpath (VIVA_BUILD_ROOT, NULL);

  if (exe != NULL && build_root != NULL &&
      g_str_has_prefix (exe, build_root) && exe[strlen (build_root)] == G_DIR_SEPARATOR &&
      g_file_test (VIVA_BUILD_WORKER, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (VIVA_BUILD_WORKER);

  return g_build_filename (LIBEXECDIR, "viva-python-worker", NULL);
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
    launch->worker = default_worker ();

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
      launch->bwrap_missing = launch->bwrap == NULL;
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

/* /usr/lib and /usr/lib64 entries the worker reads: Python's standard
 * library and site-packages (python3*), the shared libraries (the
 * multiarch folder, or all of lib64 where that is the library folder),
 * locales. The rest (the app's own folders among them) stays out. */
static gboolean
is_python_lib_entry (const char *dir,
                     const char *name)
{
  if (g_str_has_prefix (name, "python3") || g_str_equal (name, "locale"))
    return TRUE;
  /* Debian's multiarch folder, such as x86_64-linux-gnu. */
  if (g_str_equal (dir, "/usr/lib") && strstr (name, "-linux-") != NULL)
    return TRUE;
  return FALSE;
}

static void
add_usr_binds (GPtrArray *argv)
{
  static const char * const share[] = {
    "/usr/share/matplotlib",  /* Debian puts matplotlib's data here */
    "/usr/share/fonts",       /* matplotlib finds the system's fonts */
    "/usr/share/zoneinfo",
    "/usr/share/locale/locale.alias",
  };
  static const char * const lib_dirs[] = { "/usr/lib", "/usr/local/lib" };
  g_autofree char *lib64 = g_file_read_link ("/usr/lib64", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (lib_dirs); i++)
    {
      g_autoptr(GDir) dir = g_dir_open (lib_dirs[i], 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)))
        if (is_python_lib_entry (lib_dirs[i], name))
          {
            g_autofree char *path = g_build_filename (lib_dirs[i], name, NULL);
            add (argv, "--ro-bind", path, path, NULL);
          }
    }

  /* Fedora keeps every library in /usr/lib64; on Debian it holds only the
   * dynamic loader's link. */
  if (lib64 != NULL)
    add (argv, "--symlink", lib64, "/usr/lib64", NULL);
  else if (g_file_test ("/usr/lib64", G_FILE_TEST_IS_DIR))
    add (argv, "--ro-bind", "/usr/lib64", "/usr/lib64", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (share); i++)
    add (argv, "--ro-bind-try", share[i], share[i], NULL);
}

/* The font list the prepare step wrote, or %NULL. */
static char *
find_font_cache (const char *mplconfig)
{
  g_autoptr(GDir) dir = g_dir_open (mplconfig, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)))
    if (g_str_has_prefix (name, "fontlist-") && g_str_has_suffix (name, ".json"))
      return g_strdup (name);
  return NULL;
}

/* Gives the sandbox a copy of @path at @dest (in its tmpfs) through a file
 * descriptor: a bind mount would show @path in /proc/self/mountinfo. */
static gboolean
add_file_copy (GSubprocessLauncher *launcher,
               GPtrArray           *argv,
               int                  target_fd,
               const char          *path,
               const char          *perms,
               const char          *dest)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  g_autofree char *fd_arg = g_strdup_printf ("%d", target_fd);

  if (fd < 0)
    return FALSE;
  g_subprocess_launcher_take_fd (launcher, fd, target_fd);
  add (argv, "--perms", perms, "--file", fd_arg, dest, NULL);
  return TRUE;
}

static void
add_bwrap_args (VivaRunnerLaunch    *launch,
                GSubprocessLauncher *launcher,
                GPtrArray           *argv,
                gboolean             prepare)
{
  g_autofree char *mplconfig = g_build_filename (launch->cache_dir, "matplotlib", NULL);
  static const char * const top[] = { "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32" };
  g_autoptr(GDir) etc = NULL;
  const char *name;

  /* --as-pid-1: the worker is the namespace's init, so there is no
   * bubblewrap process inside to ptrace (it has neither the worker's
   * seccomp filter nor its limits). The font cache is built to the end
   * even when a short viva-cli run has left. */
  add (argv, launch->bwrap,
       "--unshare-all", "--as-pid-1", "--new-session", "--cap-drop", "ALL",
       NULL);
  if (!prepare)
    add (argv, "--die-with-parent", NULL);

  /* Root would be root inside too: become nobody instead. */
  if (getuid () == 0)
    add (argv, "--unshare-user", "--uid", "65534", "--gid", "65534", NULL);

  add_usr_binds (argv);
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
       "--size", TMPFS_SIZE, "--tmpfs", "/tmp",
       "--chdir", SANDBOX_HOME,
       NULL);

  /* The font cache is written only by a worker that runs no student code
   * (see launch_prepare_font_cache()); the others get a copy of it. */
  if (prepare)
    add (argv, "--dir", "/var/cache", "--bind", mplconfig, SANDBOX_CACHE, NULL);
  else
    {
      g_autofree char *font_cache = find_font_cache (mplconfig);

      add (argv, "--dir", SANDBOX_MPLCONFIG, NULL);
      if (font_cache != NULL)
        {
          g_autofree char *source = g_build_filename (mplconfig, font_cache, NULL);
          g_autofree char *dest = g_build_filename (SANDBOX_MPLCONFIG, font_cache, NULL);

          add_file_copy (launcher, argv, FONT_CACHE_FD, source, "0644", dest);
        }
    }

  /* At a fixed path, so that /proc/1/cmdline shows no host folder; copied
   * rather than bound when it lives in the home folder (a developer's
   * build), whose path mountinfo would show. */
  if (!g_str_has_prefix (launch->worker, g_get_home_dir ()) ||
      !add_file_copy (launcher, argv, WORKER_FD, launch->worker, "0555", SANDBOX_WORKER))
    add (argv, "--ro-bind", launch->worker, SANDBOX_WORKER, NULL);

  /* bubblewrap's root and /dev are tmpfs without a size: read-only, or
   * they would hold what the sized /tmp refuses. Device nodes stay
   * writable on a read-only /dev. */
  add (argv, "--remount-ro", "/dev", "--remount-ro", "/", NULL);
}

static void
set_environ (GSubprocessLauncher *launcher,
             GPtrArray           *argv,
             const char          *home,
             const char          *mplconfig,
             gboolean             as_arguments)
{
  const char *vars[][2] = {
    { "PATH", "/usr/bin:/bin" },
    { "HOME", home },
    { "TMPDIR", home },
    { "LANG", "C.UTF-8" },
    { "MPLCONFIGDIR", mplconfig },
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
prepare_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GSubprocess) process = G_SUBPROCESS (object);

  g_subprocess_wait_finish (process, result, NULL);
}

/* Builds matplotlib's font cache in the host's cache folder, once, with a
 * worker that reads no request and so runs no student code: the only
 * writable host folder a worker ever gets. Workers that run code get a
 * copy. Nothing waits for it: until it is there, a worker that
 * imports matplotlib builds a list of its own in its tmpfs. */
static void
launch_prepare_font_cache (VivaRunnerLaunch *launch)
{
  static gboolean started;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *mplconfig = g_build_filename (launch->cache_dir, "matplotlib", NULL);
  g_autofree char *existing = find_font_cache (mplconfig);
  GSubprocess *process;

  if (started || existing != NULL)
    return;
  started = TRUE;

  g_mkdir_with_parents (mplconfig, 0700);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  add_bwrap_args (launch, launcher, argv, TRUE);
  set_environ (launcher, argv, SANDBOX_HOME, SANDBOX_CACHE, FALSE);
  add (argv, SANDBOX_WORKER, "--prepare-font-cache", NULL);
  g_ptr_array_add (argv, NULL);

  if ((process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, NULL)))
    g_subprocess_wait_async (process, NULL, prepare_done_cb, NULL);
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
      launch_prepare_font_cache (launch);
      add_bwrap_args (launch, launcher, argv, FALSE);
      set_environ (launcher, argv, SANDBOX_HOME, SANDBOX_MPLCONFIG, FALSE);
      add (argv, SANDBOX_WORKER, NULL);
      break;

    case VIVA_RUNNER_SANDBOX_FLATPAK:
      /* The sub-sandbox sees /app, the runtime and its own /tmp, not the
       * app's data or cache folders: everything lives in /tmp. */
      add (argv, "flatpak-spawn", "--sandbox", "--no-network", "--watch-bus",
           "--forward-fd=3", "--directory=/tmp", NULL);
      set_environ (launcher, argv, "/tmp", "/tmp/.matplotlib", TRUE);
      add (argv, launch->worker, NULL);
      break;

    case VIVA_RUNNER_SANDBOX_NONE:
    default:
      if (launch->work_dir == NULL &&
          !(launch->work_dir = g_dir_make_tmp ("viva-run-XXXXXX", error)))
        return NULL;
      g_subprocess_launcher_set_cwd (launcher, launch->work_dir);
      g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
      {
        g_autofree char *mplconfig = g_build_filename (launch->cache_dir, "matplotlib", NULL);

        set_environ (launcher, argv, launch->work_dir, mplconfig, FALSE);
      }
      add (argv, launch->worker, NULL);
      break;
    }

  g_ptr_array_add (argv, g_strdup_printf ("--memory-limit=%" G_GUINT64_FORMAT, memory_limit));
  g_ptr_array_add (argv, NULL);

  return g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, error);
}
