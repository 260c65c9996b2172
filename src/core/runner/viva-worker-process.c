/* viva-worker-process.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "viva-worker-frame-private.h"
#include "viva-worker-process-private.h"

/* One viva-python-worker process and its private channel: starting it in its
 * sandbox with a socketpair as fd 3, writing requests in order, reading its
 * frames one line at a time, reading its fds 1 and 2, and noticing when it
 * dies. What the frames mean is the owner's business (the runner's queue);
 * this file only turns bytes into objects and says when the process is gone.
 * Every frame is untrusted (student code shares the worker's process): a
 * line longer than VIVA_WORKER_FRAME_MAX_LENGTH or a frame that is not one
 * of the worker's (viva-worker-frame.c) kills the worker, and its death is
 * reported with the reason. Everything runs on the main thread,
 * asynchronously. */

#define EXIT_DRAIN_MS    250
#define START_TIMEOUT_S  20
#define PIPE_CHUNK       8192
#define READ_CHUNK       65536
#define EARLY_STDERR_MAX 65536

struct _VivaWorkerProcess
{
  int                               ref_count;
  const VivaWorkerProcessCallbacks *callbacks;
  gpointer                          user_data;
  gboolean                          discarded;
  VivaRunnerSandbox                 sandbox;
  GSubprocess                      *process;
  GIOStream                        *channel;
  GByteArray                       *frames;   /* bytes read, not yet a whole line */
  gsize                             scanned;  /* of which have no newline */
  char                             *violation;
  GQueue                            outgoing; /* GBytes lines to write */
  GBytes                           *in_flight;
  GCancellable                     *cancellable;
  GString                          *early_stderr;
  guint                             drain_id;
  guint                             start_id;
  gboolean                          writing;
  gboolean                          ready;
  gboolean                          killed;
  gboolean                          exited;
  gboolean                          eof;
};

VivaWorkerProcess *
_viva_worker_process_ref (VivaWorkerProcess *worker)
{
  worker->ref_count++;
  return worker;
}

void
_viva_worker_process_unref (VivaWorkerProcess *worker)
{
  if (--worker->ref_count > 0)
    return;

  g_assert (worker->discarded);
  g_queue_clear_full (&worker->outgoing, (GDestroyNotify) g_bytes_unref);
  g_clear_pointer (&worker->in_flight, g_bytes_unref);
  g_clear_object (&worker->process);
  g_clear_pointer (&worker->frames, g_byte_array_unref);
  g_clear_pointer (&worker->violation, g_free);
  g_clear_object (&worker->channel);
  g_clear_object (&worker->cancellable);
  g_string_free (worker->early_stderr, TRUE);
  g_free (worker);
}

static gboolean
worker_is_current (VivaWorkerProcess *worker)
{
  return !worker->discarded;
}

static gboolean
late_kill_cb (gpointer user_data)
{
  g_subprocess_force_exit (user_data);
  return G_SOURCE_REMOVE;
}

/**
 * _viva_worker_process_discard:
 *
 * Lets a worker go: no more events are read from it, nothing more is
 * reported, and it is killed. Drops the owner's reference.
 */
void
_viva_worker_process_discard (VivaWorkerProcess *worker)
{
  g_assert (!worker->discarded);

  worker->discarded = TRUE;
  g_clear_handle_id (&worker->drain_id, g_source_remove);
  g_clear_handle_id (&worker->start_id, g_source_remove);
  g_cancellable_cancel (worker->cancellable);
  g_io_stream_close (worker->channel, NULL, NULL);

  /* HACK: bubblewrap killed while it sets up its namespaces leaves its
   * pid-1 child waiting forever for a uid map (bubblewrap 0.8; its death
   * signal is set too late:
   * https://github.com/containers/bubblewrap/issues/633). A worker that is
   * not ready yet leaves by itself once it finds the channel closed; the
   * kill is only a late backstop for it. */
  if (worker->ready || worker->sandbox != VIVA_RUNNER_SANDBOX_BUBBLEWRAP)
    g_subprocess_force_exit (worker->process);
  else
    g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, 10, late_kill_cb,
                                g_object_ref (worker->process), g_object_unref);

  _viva_worker_process_unref (worker);
}

/**
 * _viva_worker_process_kill:
 *
 * Kills a worker that did not stop; its death is reported as killed.
 */
void
_viva_worker_process_kill (VivaWorkerProcess *worker)
{
  worker->killed = TRUE;
  g_subprocess_force_exit (worker->process);
}

static void worker_write_next (VivaWorkerProcess *worker);

static void
worker_write_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  VivaWorkerProcess *worker = user_data;

  worker->writing = FALSE;
  /* A failed write means a dead worker, which the exit watch reports. */
  if (g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, NULL))
    worker_write_next (worker);
  _viva_worker_process_unref (worker);
}

static void
worker_write_next (VivaWorkerProcess *worker)
{
  g_autoptr(GBytes) line = NULL;

  if (worker->writing || !worker_is_current (worker) ||
      !(line = g_queue_pop_head (&worker->outgoing)))
    return;

  worker->writing = TRUE;
  g_output_stream_write_all_async (g_io_stream_get_output_stream (worker->channel),
                                   g_bytes_get_data (line, NULL), g_bytes_get_size (line),
                                   G_PRIORITY_DEFAULT, worker->cancellable,
                                   worker_write_cb, _viva_worker_process_ref (worker));
  /* The stream reads from the buffer until the write is done. */
  g_clear_pointer (&worker->in_flight, g_bytes_unref);
  worker->in_flight = g_steal_pointer (&line);
}

/**
 * _viva_worker_process_send:
 *
 * Queues @request as one line on the channel; lines go out in order.
 */
void
_viva_worker_process_send (VivaWorkerProcess *worker,
                           JsonObject        *request)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;
  GString *line;

  json_node_set_object (node, request);
  text = json_to_string (node, FALSE);
  line = g_string_new (text);
  g_string_append_c (line, '\n');
  g_queue_push_tail (&worker->outgoing, g_string_free_to_bytes (line));
  worker_write_next (worker);
}

/* Frames from the worker */

static void worker_check_dead (VivaWorkerProcess *worker);

/* The channel carried what no worker of ours sends: stop reading, kill the
 * process, and let its death say why. */
static void
worker_violation (VivaWorkerProcess *worker,
                  char              *reason)
{
  g_autofree char *owned = reason;

  if (worker->violation != NULL)
    return;

  g_debug ("runner: killing a worker: %s", reason);
  worker->violation = g_steal_pointer (&owned);
  worker->eof = TRUE;
  g_subprocess_force_exit (worker->process);
  worker_check_dead (worker);
}

/**
 * _viva_worker_process_reject:
 * @reason: why, as a sentence for the student
 *
 * The owner found a frame out of its place (a second result, a result for
 * a request that is not running): the worker is killed, as for a frame
 * that is not the worker's, and its death says @reason.
 */
void
_viva_worker_process_reject (VivaWorkerProcess *worker,
                             const char        *reason)
{
  worker_violation (worker, g_strdup (reason));
}

static void
worker_handle_line (VivaWorkerProcess *worker,
                    const char        *line,
                    gsize              length)
{
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(GError) error = NULL;

  if (!(event = _viva_worker_frame_parse (line, length, &error)))
    {
      g_debug ("runner: a bad frame: %s", error->message);
      worker_violation (worker, g_strdup (_("The program wrote to Viva’s private channel, so Python was stopped and restarted. Variables from earlier runs are gone.")));
      return;
    }

  if (g_str_equal (json_object_get_string_member (event, "event"), "ready"))
    {
      worker->ready = TRUE;
      g_clear_handle_id (&worker->start_id, g_source_remove);
      g_string_truncate (worker->early_stderr, 0);
    }

  worker->callbacks->event (worker, event, worker->user_data);
}

static void worker_read_next (VivaWorkerProcess *worker);

static void
worker_died (VivaWorkerProcess *worker)
{
  worker->callbacks->died (worker, worker->user_data);
}

static gboolean
worker_drain_cb (gpointer user_data)
{
  VivaWorkerProcess *worker = user_data;

  worker->drain_id = 0;
  worker->eof = TRUE;
  worker_died (worker);
  return G_SOURCE_REMOVE;
}

/* Death is known when the process has exited and every event it sent has
 * been read, so a result written just before a crash is not lost. A stray
 * holder of the socket must not delay it long, though. */
static void
worker_check_dead (VivaWorkerProcess *worker)
{
  if (!worker_is_current (worker) || !worker->exited)
    return;

  if (worker->eof)
    worker_died (worker);
  else if (worker->drain_id == 0)
    worker->drain_id = g_timeout_add (EXIT_DRAIN_MS, worker_drain_cb, worker);
}

/* Hands on every whole line read so far; keeps the rest, up to the
 * longest line a worker may send. */
static void
worker_take_lines (VivaWorkerProcess *worker)
{
  GByteArray *frames = worker->frames;
  gsize start = 0;
  const guint8 *newline;

  while (worker_is_current (worker) && worker->violation == NULL &&
         (newline = memchr (frames->data + MAX (start, worker->scanned), '\n',
                            frames->len - MAX (start, worker->scanned))))
    {
      gsize end = newline - frames->data;

      worker_handle_line (worker, (const char *) frames->data + start, end - start);
      start = end + 1;
    }

  if (!worker_is_current (worker) || worker->violation != NULL)
    return;

  g_byte_array_remove_range (frames, 0, start);
  worker->scanned = frames->len;

  if (frames->len > VIVA_WORKER_FRAME_MAX_LENGTH)
    {
      g_autofree char *limit = g_format_size (VIVA_WORKER_FRAME_MAX_LENGTH);

      /* Translators: %s is a size such as “16.8 MB” */
      worker_violation (worker, g_strdup_printf (_("The program produced too much output (more than %s at once on Viva’s private channel), so Python was stopped and restarted. Variables from earlier runs are gone."),
                                                 limit));
    }
}

static void
worker_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  VivaWorkerProcess *worker = user_data;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);

  if (!worker_is_current (worker) || worker->violation != NULL)
    ;
  else if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      worker->eof = TRUE;
      worker_check_dead (worker);
    }
  else
    {
      gsize length;
      const guint8 *data = g_bytes_get_data (bytes, &length);

      g_byte_array_append (worker->frames, data, length);
      worker_take_lines (worker);
      worker_read_next (worker);
    }

  _viva_worker_process_unref (worker);
}

static void
worker_read_next (VivaWorkerProcess *worker)
{
  if (!worker_is_current (worker) || worker->violation != NULL)
    return;

  g_input_stream_read_bytes_async (g_io_stream_get_input_stream (worker->channel), READ_CHUNK,
                                   G_PRIORITY_DEFAULT, worker->cancellable,
                                   worker_read_cb, _viva_worker_process_ref (worker));
}

/* Fds 1 and 2 */

typedef struct
{
  VivaWorkerProcess *worker;
  GInputStream      *stream;
  int                fd;
} PipeReader;

static void pipe_read_next (PipeReader *reader);

static void
pipe_reader_free (PipeReader *reader)
{
  _viva_worker_process_unref (reader->worker);
  g_object_unref (reader->stream);
  g_free (reader);
}

static void
pipe_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  PipeReader *reader = user_data;
  VivaWorkerProcess *worker = reader->worker;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;
  const char *data;
  gsize length;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);
  if (bytes == NULL || g_bytes_get_size (bytes) == 0 || !worker_is_current (worker))
    {
      pipe_reader_free (reader);
      return;
    }

  data = g_bytes_get_data (bytes, &length);
  text = _viva_worker_text_make_visible (data, length);

  /* Before it is ready, what the worker (or bubblewrap) says is why it did
   * not start; afterwards it is the program's, from C code or a crash. */
  if (!worker->ready)
    {
      if (worker->early_stderr->len < EARLY_STDERR_MAX)
        g_string_append (worker->early_stderr, text);
    }
  else
    worker->callbacks->output (worker, reader->fd, text, worker->user_data);

  pipe_read_next (reader);
}

static void
pipe_read_next (PipeReader *reader)
{
  g_input_stream_read_bytes_async (reader->stream, PIPE_CHUNK, G_PRIORITY_DEFAULT,
                                   reader->worker->cancellable, pipe_read_cb, reader);
}

static void
pipe_read_start (VivaWorkerProcess *worker,
                 GInputStream      *stream,
                 int                fd)
{
  PipeReader *reader = g_new0 (PipeReader, 1);

  reader->worker = _viva_worker_process_ref (worker);
  reader->stream = g_object_ref (stream);
  reader->fd = fd;
  pipe_read_next (reader);
}

/* The process */

static void
worker_wait_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  VivaWorkerProcess *worker = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  worker->exited = TRUE;
  worker_check_dead (worker);
  _viva_worker_process_unref (worker);
}

static gboolean
worker_start_timeout_cb (gpointer user_data)
{
  VivaWorkerProcess *worker = user_data;
  const VivaWorkerProcessCallbacks *callbacks = worker->callbacks;
  gpointer data = worker->user_data;
  g_autoptr(GError) error = NULL;

  worker->start_id = 0;
  error = g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       _("Python did not start within %d s. Close other programs and try again."),
                       START_TIMEOUT_S);
  _viva_worker_process_ref (worker);
  _viva_worker_process_discard (worker);
  callbacks->start_failed (worker, error, data);
  _viva_worker_process_unref (worker);
  return G_SOURCE_REMOVE;
}

/**
 * _viva_worker_process_spawn:
 * @callbacks: (not nullable): must outlive the worker (a static table)
 *
 * Starts a worker in @sandbox with a private channel. It reports through
 * @callbacks until the owner discards it.
 *
 * Returns: (transfer full): the worker, owned by the caller until
 *   _viva_worker_process_discard()
 */
VivaWorkerProcess *
_viva_worker_process_spawn (VivaRunnerLaunch                 *launch,
                            VivaRunnerSandbox                 sandbox,
                            guint64                           memory_limit,
                            const VivaWorkerProcessCallbacks *callbacks,
                            gpointer                          user_data,
                            GError                          **error)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSubprocess) process = NULL;
  VivaWorkerProcess *worker;
  int fds[2];

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not start Python: %s"), g_strerror (saved_errno));
      return NULL;
    }

  if (!(socket = g_socket_new_from_fd (fds[0], error)))
    {
      close (fds[0]);
      close (fds[1]);
      return NULL;
    }

  if (!(process = _viva_runner_launch_spawn (launch, sandbox, memory_limit, fds[1], error)))
    return NULL;

  worker = g_new0 (VivaWorkerProcess, 1);
  worker->ref_count = 1;
  worker->callbacks = callbacks;
  worker->user_data = user_data;
  worker->sandbox = sandbox;
  worker->process = g_steal_pointer (&process);
  worker->channel = G_IO_STREAM (g_socket_connection_factory_create_connection (socket));
  worker->frames = g_byte_array_sized_new (READ_CHUNK);
  worker->cancellable = g_cancellable_new ();
  worker->early_stderr = g_string_new (NULL);

  worker_read_next (worker);
  pipe_read_start (worker, g_subprocess_get_stdout_pipe (worker->process), 1);
  pipe_read_start (worker, g_subprocess_get_stderr_pipe (worker->process), 2);
  g_subprocess_wait_async (worker->process, worker->cancellable, worker_wait_cb,
                           _viva_worker_process_ref (worker));
  worker->start_id = g_timeout_add_seconds (START_TIMEOUT_S, worker_start_timeout_cb, worker);

  return worker;
}

gboolean
_viva_worker_process_get_ready (VivaWorkerProcess *worker)
{
  return worker->ready;
}

gboolean
_viva_worker_process_get_killed (VivaWorkerProcess *worker)
{
  return worker->killed;
}

VivaRunnerSandbox
_viva_worker_process_get_sandbox (VivaWorkerProcess *worker)
{
  return worker->sandbox;
}

GSubprocess *
_viva_worker_process_get_subprocess (VivaWorkerProcess *worker)
{
  return worker->process;
}

const char *
_viva_worker_process_get_early_stderr (VivaWorkerProcess *worker)
{
  return worker->early_stderr->str;
}

/**
 * _viva_worker_process_get_violation:
 *
 * Returns: (nullable): when the worker was killed for what it sent on its
 *   channel, why, as a sentence for the student
 */
const char *
_viva_worker_process_get_violation (VivaWorkerProcess *worker)
{
  return worker->violation;
}
