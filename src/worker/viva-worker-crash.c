/* viva-worker-crash.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Output printed just before the worker dies still reaches the app: on a
 * fatal signal, a handler sends what waits in the output buffer and in the
 * fd 1 and 2 pipes straight to the channel (async-signal-safe, without
 * waiting on a lock the crashed thread may hold) before faulthandler
 * prints the Python stack; exit() from C flushes in an atexit handler. */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "viva-worker-private.h"

/* Only what is async-signal-safe in practice: trylock, send, read,
 * nanosleep and the escaper; static buffers, because the handler may run on
 * faulthandler's small alternate stack after a stack overflow. */
static void
raw_write (const char *data,
           gsize       length)
{
  while (length > 0)
    {
      ssize_t n = send (CHANNEL_FD, data, length, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return;
      data += n;
      length -= n;
    }
}

static void
raw_send_text (int         stream,
               gint64      id,
               const char *data,
               gsize       length)
{
  static char chunk[4096];
  static char head[64];
  char digits[24];
  gsize n = 0;
  gsize d = 0;
  guint64 value = id > 0 ? id : 0;
  const char *name = stream == 2 ? "{\"event\":\"stderr\",\"id\":" : "{\"event\":\"stdout\",\"id\":";

  do
    digits[d++] = '0' + value % 10;
  while ((value /= 10) > 0);
  n = strlen (name);
  memcpy (head, name, n);
  while (d > 0)
    head[n++] = digits[--d];
  memcpy (head + n, ",\"text\":\"", 9);
  raw_write (head, n + 9);

  while (length > 0)
    {
      gsize used;
      gsize written = viva_worker_escape_json (data, length, &used, chunk, sizeof chunk);

      raw_write (chunk, written);
      data += used;
      length -= used;
    }
  raw_write ("\"}\n", 3);
}

static gboolean
lock_for_crash (GMutex *mutex)
{
  /* The holder may be the thread that crashed: wait a little, then go on
   * without the lock rather than never. */
  for (int i = 0; i < 50; i++)
    {
      struct timespec pause = { 0, 2000000 };

      if (g_mutex_trylock (mutex))
        return TRUE;
      nanosleep (&pause, NULL);
    }
  return FALSE;
}

/* Sends what the program printed and the worker has not sent yet, and what
 * waits in the fd 1 and 2 pipes, straight to the channel: the process is
 * about to die, and output from just before a crash is what a student
 * needs to find it. */
static void
crash_flush (void)
{
  static char buffer[8192];
  VivaWorkerOutput *output = &viva_worker_output;
  VivaWorkerFds *fds = &viva_worker_fds;
  /* In viva_worker_fds_drain()'s order: the fds thread may hold bytes it
   * has read but not yet added to the buffer. */
  gboolean have_fds = lock_for_crash (&fds->lock);
  gboolean have_output = lock_for_crash (&output->lock);
  gboolean have_write = lock_for_crash (&viva_worker_write_lock);
  gsize left = output->limit > output->written ? output->limit - output->written : 0;

  if (output->pending != NULL && output->pending->len > 0)
    {
      raw_send_text (output->stream, output->id, output->pending->str, output->pending->len);
      output->pending->len = 0;
    }

  for (int i = 0; i < 2 && !output->truncated; i++)
    {
      ssize_t n;

      while (fds->pipes[i] >= 0 && left > 0 &&
             (n = read (fds->pipes[i], buffer, MIN (sizeof buffer, left))) > 0)
        {
          raw_send_text (i + 1, output->id, buffer, n);
          left -= n;
        }
    }

  if (have_write)
    g_mutex_unlock (&viva_worker_write_lock);
  if (have_output)
    g_mutex_unlock (&output->lock);
  if (have_fds)
    g_mutex_unlock (&fds->lock);
}

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU };
static struct sigaction previous_actions[G_N_ELEMENTS (fatal_signals)];

static void
fatal_signal_handler (int signum)
{
  static volatile sig_atomic_t crashing;
  int saved_errno = errno;

  if (!crashing)
    {
      crashing = 1;
      crash_flush ();
    }

  /* RLIMIT_CPU's warning: as the sandbox's pid 1 the worker would ignore
   * it by default, so it leaves itself, the way the signal would end it. */
  if (signum == SIGXCPU)
    _exit (128 + SIGXCPU);

  /* Hand over to what was there (faulthandler, which prints the Python
   * stack): the signal is blocked until we return, then it comes again or
   * the fault repeats, and ends the process. */
  for (guint i = 0; i < G_N_ELEMENTS (fatal_signals); i++)
    if (fatal_signals[i] == signum)
      sigaction (signum, &previous_actions[i], NULL);
  raise (signum);
  errno = saved_errno;
}

static void
exit_flush (void)
{
  /* exit() called from C (ctypes, a library): what was printed first. */
  if (viva_worker_output.pending == NULL)
    return;
  viva_worker_fds_drain (0);
  viva_worker_fds_drain (1);
  viva_worker_output_flush ();
}

/* After faulthandler (started by the boot module), so it runs second;
 * and the flush at exit() from C. */
void
viva_worker_crash_handlers_install (void)
{
  struct sigaction action = { 0 };

  action.sa_handler = fatal_signal_handler;
  action.sa_flags = SA_ONSTACK;
  sigemptyset (&action.sa_mask);
  for (guint i = 0; i < G_N_ELEMENTS (fatal_signals); i++)
    sigaction (fatal_signals[i], &action, &previous_actions[i]);
  atexit (exit_flush);
}
