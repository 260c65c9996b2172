/* viva-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>

#include "viva-run-result-private.h"
#include "viva-runner-private.h"

/* The app's side of viva-python-worker.
 *
 * Requests wait in a queue and go to the worker one at a time; the worker
 * answers on a socket (its fd 3) with one JSON object per line: output as it
 * is written, then a result. The runner owns the clock that matters: the
 * worker interrupts a run itself at its deadline, and if the code does not
 * stop (stuck in C) the runner kills the worker GRACE_MS later. A worker
 * that dies is reported on the request it was running and replaced on the
 * next request. Everything here runs on the main thread, asynchronously. */

#define GRACE_MS         1000
#define CHECK_TIMEOUT_MS 5000
#define EXIT_DRAIN_MS    250
#define START_TIMEOUT_S  20
#define PIPE_CHUNK       8192
#define OUTPUT_SLACK     65536

typedef enum
{
  OP_START,
  OP_RUN,
  OP_INJECT,
  OP_CHECK,
  OP_RESET,
  OP_RESTART,
} OpKind;

typedef struct _Worker Worker;

typedef struct
{
  VivaRunner *runner;
  OpKind      kind;
  char       *code;
  char       *probe;
  guint       timeout_ms;
  gint64      id;
  GTask      *task;          /* NULL once the caller has its answer */
  GSource    *cancel_source;
  guint       kill_id;
  GString    *stdout_text;
  GString    *stderr_text;
  GPtrArray  *images;
  gint64      started_us;
  gboolean    cancelled;
  gboolean    truncated;
} Op;

struct _Worker
{
  int                ref_count;
  VivaRunner        *runner;   /* NULL once discarded */
  VivaRunnerSandbox  sandbox;
  GSubprocess       *process;
  GIOStream         *channel;
  GDataInputStream  *events;
  GQueue             outgoing; /* GBytes lines to write */
  GBytes            *in_flight;
  GCancellable      *cancellable;
  GString           *early_stderr;
  guint              drain_id;
  guint              start_id;
  gboolean           writing;
  gboolean           ready;
  gboolean           killed;
  gboolean           exited;
  gboolean           eof;
};

struct _VivaRunner
{
  GObject            parent_instance;
  VivaRunnerLaunch  *launch;
  Worker            *worker;
  GQueue             queue;
  Op                *current;
  gint64             next_id;
  char              *python_version;
  char              *sandbox_message;
  VivaRunnerSandbox  sandbox;
  gboolean           bwrap_failed;
  gboolean           warned;
  gboolean           busy;
  guint64            memory_limit;
  guint              output_limit;
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_PYTHON_VERSION,
  PROP_SANDBOX,
  PROP_SANDBOX_MESSAGE,
  PROP_MEMORY_LIMIT,
  PROP_OUTPUT_LIMIT,
  N_PROPS
};

enum {
  STDOUT,
  STDERR,
  IMAGE,
  N_SIGNALS
};

G_DEFINE_ENUM_TYPE (VivaRunnerSandbox, viva_runner_sandbox,
  G_DEFINE_ENUM_VALUE (VIVA_RUNNER_SANDBOX_NONE, "none"),
  G_DEFINE_ENUM_VALUE (VIVA_RUNNER_SANDBOX_BUBBLEWRAP, "bubblewrap"),
  G_DEFINE_ENUM_VALUE (VIVA_RUNNER_SANDBOX_FLATPAK, "flatpak"))

G_DEFINE_FINAL_TYPE (VivaRunner, viva_runner, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void viva_runner_next        (VivaRunner *self);
static void viva_runner_worker_died (VivaRunner *self,
                                     Worker     *worker);

/* Workers */

static Worker *
worker_ref (Worker *worker)
{
  worker->ref_count++;
  return worker;
}

static void
worker_unref (Worker *worker)
{
  if (--worker->ref_count > 0)
    return;

  g_assert (worker->runner == NULL);
  g_queue_clear_full (&worker->outgoing, (GDestroyNotify) g_bytes_unref);
  g_clear_pointer (&worker->in_flight, g_bytes_unref);
  g_clear_object (&worker->process);
  g_clear_object (&worker->events);
  g_clear_object (&worker->channel);
  g_clear_object (&worker->cancellable);
  g_string_free (worker->early_stderr, TRUE);
  g_free (worker);
}

static gboolean
worker_is_current (Worker *worker)
{
  return worker->runner != NULL && worker->runner->worker == worker;
}

static gboolean
late_kill_cb (gpointer user_data)
{
  g_subprocess_force_exit (user_data);
  return G_SOURCE_REMOVE;
}

/* Lets a worker go: no more events are read from it and it is killed. */
static void
worker_discard (Worker *worker)
{
  g_assert (worker->runner != NULL);

  if (worker->runner->worker == worker)
    worker->runner->worker = NULL;
  worker->runner = NULL;
  g_clear_handle_id (&worker->drain_id, g_source_remove);
  g_clear_handle_id (&worker->start_id, g_source_remove);
  g_cancellable_cancel (worker->cancellable);
  g_io_stream_close (worker->channel, NULL, NULL);

  /* HACK: bubblewrap killed while it sets up its namespaces leaves its
   * pid-1 child waiting forever for a uid map (bubblewrap 0.8). A worker
   * that is not ready yet leaves by itself once it finds the channel
   * closed; the kill is only a late backstop for it. */
  if (worker->ready || worker->sandbox != VIVA_RUNNER_SANDBOX_BUBBLEWRAP)
    g_subprocess_force_exit (worker->process);
  else
    g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, 10, late_kill_cb,
                                g_object_ref (worker->process), g_object_unref);

  worker_unref (worker);
}

static void worker_write_next (Worker *worker);

static void
worker_write_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Worker *worker = user_data;

  worker->writing = FALSE;
  /* A failed write means a dead worker, which the exit watch reports. */
  if (g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, NULL))
    worker_write_next (worker);
  worker_unref (worker);
}

static void
worker_write_next (Worker *worker)
{
  g_autoptr(GBytes) line = NULL;

  if (worker->writing || worker->runner == NULL ||
      !(line = g_queue_pop_head (&worker->outgoing)))
    return;

  worker->writing = TRUE;
  g_output_stream_write_all_async (g_io_stream_get_output_stream (worker->channel),
                                   g_bytes_get_data (line, NULL), g_bytes_get_size (line),
                                   G_PRIORITY_DEFAULT, worker->cancellable,
                                   worker_write_cb, worker_ref (worker));
  /* The stream reads from the buffer until the write is done. */
  g_clear_pointer (&worker->in_flight, g_bytes_unref);
  worker->in_flight = g_steal_pointer (&line);
}

static void
worker_send (Worker     *worker,
             JsonObject *request)
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

/* Ops */

static void
op_free (Op *op)
{
  if (op->cancel_source != NULL)
    {
      g_source_destroy (op->cancel_source);
      g_source_unref (op->cancel_source);
    }
  g_clear_handle_id (&op->kill_id, g_source_remove);
  g_clear_object (&op->task);
  g_string_free (op->stdout_text, TRUE);
  g_string_free (op->stderr_text, TRUE);
  g_ptr_array_unref (op->images);
  g_free (op->code);
  g_free (op->probe);
  g_free (op);
}

static gboolean
op_is_code (Op *op)
{
  return op->kind == OP_RUN || op->kind == OP_INJECT || op->kind == OP_CHECK;
}

/* Busy means code to run or stop: warming a worker up is not. */
static void
viva_runner_update_busy (VivaRunner *self)
{
  gboolean busy = self->current != NULL;

  for (GList *l = self->queue.head; l != NULL && !busy; l = l->next)
    busy = ((Op *) l->data)->kind != OP_START;

  if (self->busy == busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* Gives @op's caller @result (or an error), then forgets @op. */
static void
op_complete (Op            *op,
             VivaRunResult *result,
             GError        *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&op->task);

  op_free (op);

  if (task == NULL)
    {
      g_clear_object (&result);
      g_clear_error (&error);
    }
  else if (error != NULL)
    g_task_return_error (task, error);
  else if (result != NULL)
    g_task_return_pointer (task, result, g_object_unref);
  else
    g_task_return_boolean (task, TRUE);
}

static void
viva_runner_complete_current (VivaRunner    *self,
                              VivaRunResult *result)
{
  Op *op = g_steal_pointer (&self->current);

  g_assert (op != NULL);

  if (result != NULL)
    {
      g_free (result->stdout_text);
      result->stdout_text = g_strdup (op->stdout_text->str);
      g_free (result->stderr_text);
      result->stderr_text = g_strdup (op->stderr_text->str);
      for (guint i = 0; i < op->images->len; i++)
        g_ptr_array_add (result->images, g_bytes_ref (g_ptr_array_index (op->images, i)));
      result->output_truncated |= op->truncated;
    }

  /* The caller may start the next run from its callback: the runner is
   * consistent before it is called. */
  op_complete (op, result, NULL);
  viva_runner_next (self);
}

static void
viva_runner_kill (VivaRunner *self)
{
  if (self->worker == NULL)
    return;

  g_debug ("runner: killing a worker that did not stop");
  self->worker->killed = TRUE;
  g_subprocess_force_exit (self->worker->process);
}

static gboolean
op_kill_cb (gpointer user_data)
{
  Op *op = user_data;

  op->kill_id = 0;
  viva_runner_kill (op->runner);
  return G_SOURCE_REMOVE;
}

static void
op_arm_kill (Op    *op,
             guint  delay_ms)
{
  g_clear_handle_id (&op->kill_id, g_source_remove);
  op->kill_id = g_timeout_add (delay_ms, op_kill_cb, op);
}

/* Cancelling a queued op drops it; cancelling the op that runs answers its
 * caller at once, asks the worker to interrupt, and kills it if it does not
 * answer within GRACE_MS. */
static void
op_cancel (Op *op)
{
  VivaRunner *self = op->runner;
  g_autoptr(GTask) task = g_steal_pointer (&op->task);

  /* Stop, then the cancellable: the first one counts, or the kill would
   * keep moving away. */
  if (op->cancelled)
    return;
  op->cancelled = TRUE;

  if (task != NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The run was stopped."));

  if (op != self->current)
    {
      g_queue_remove (&self->queue, op);
      op_free (op);
      viva_runner_update_busy (self);
      return;
    }

  if (op_is_code (op) && self->worker != NULL)
    {
      g_autoptr(JsonObject) request = json_object_new ();

      json_object_set_string_member (request, "op", "interrupt");
      json_object_set_int_member (request, "id", op->id);
      worker_send (self->worker, request);
      op_arm_kill (op, GRACE_MS);
    }
}

static gboolean
op_cancelled_cb (GCancellable *cancellable,
                 gpointer      user_data)
{
  Op *op = user_data;

  g_clear_pointer (&op->cancel_source, g_source_unref);
  op_cancel (op);
  return G_SOURCE_REMOVE;
}

static void
viva_runner_push (VivaRunner   *self,
                  Op           *op,
                  GCancellable *cancellable)
{
  op->runner = self;
  op->stdout_text = g_string_new (NULL);
  op->stderr_text = g_string_new (NULL);
  op->images = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (g_task_return_error_if_cancelled (op->task))
    {
      op_free (op);
      return;
    }

  if (cancellable != NULL)
    {
      /* A source rather than a handler: the handler could not disconnect
       * itself, and this one also runs on the main thread. */
      op->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (op->cancel_source, G_SOURCE_FUNC (op_cancelled_cb), op, NULL);
      g_source_attach (op->cancel_source, g_main_context_get_thread_default ());
    }

  g_queue_push_tail (&self->queue, op);
  viva_runner_next (self);
  viva_runner_update_busy (self);
}

/* Output */

static void viva_runner_truncated (VivaRunner *self);

static void
viva_runner_take_output (VivaRunner *self,
                         int         stream,
                         const char *text,
                         gsize       length)
{
  Op *op = self->current;

  if (op != NULL)
    {
      /* The worker caps what the program prints; this is the backstop for
       * what would get past it, so the app's memory stays bounded. */
      if (op->truncated)
        return;
      if (op->stdout_text->len + op->stderr_text->len + length > (gsize) self->output_limit + OUTPUT_SLACK)
        {
          viva_runner_truncated (self);
          return;
        }
      g_string_append_len (stream == 1 ? op->stdout_text : op->stderr_text, text, length);
    }

  g_signal_emit (self, signals[stream == 1 ? STDOUT : STDERR], 0, text);
}

static void
viva_runner_truncated (VivaRunner *self)
{
  g_autofree char *size = g_format_size (self->output_limit);
  g_autofree char *notice = NULL;

  if (self->current == NULL || self->current->truncated)
    return;

  notice = g_strdup_printf (_("\n[Output truncated: the program printed more than %s. The rest was dropped; the program went on running.]\n"),
                            size);
  g_string_append (self->current->stderr_text, notice);
  self->current->truncated = TRUE;
  g_signal_emit (self, signals[STDERR], 0, notice);
}

static void
viva_runner_take_image (VivaRunner *self,
                        const char *data)
{
  g_autoptr(GBytes) png = NULL;
  guchar *decoded;
  gsize length;

  decoded = g_base64_decode (data, &length);
  png = g_bytes_new_take (decoded, length);

  if (self->current != NULL)
    g_ptr_array_add (self->current->images, g_bytes_ref (png));

  g_signal_emit (self, signals[IMAGE], 0, png);
}

/* Results */

/* turtle and tkinter need a screen, which code never has here: the
 * Flatpak runtime lacks tkinter, and elsewhere Tk finds no display. */
static gboolean
is_window_error (const char *type,
                 const char *message)
{
  if (message == NULL)
    return FALSE;
  if (g_str_equal (type, "ModuleNotFoundError") || g_str_equal (type, "ImportError"))
    return strstr (message, "tkinter") != NULL || strstr (message, "turtle") != NULL;
  return g_str_equal (type, "TclError") && strstr (message, "display") != NULL;
}

static char *
describe_error (VivaRunResult *result)
{
  const char *message = result->error_message && result->error_message[0] ? result->error_message : NULL;
  const char *type = result->error_type ? result->error_type : "Exception";

  if (is_window_error (type, message))
    {
      const char *why = _("turtle and tkinter are not available: they open windows of their own, and code runs here without a screen. Draw with matplotlib instead; plt.show() puts the figure in the console.");

      if (result->error_line > 0)
        /* Translators: %d is a line number, %s the explanation that follows it */
        return g_strdup_printf (_("Line %d: %s"), result->error_line, why);
      return g_strdup (why);
    }

  if (result->error_line > 0 && message != NULL)
    /* Translators: %d is a line number, then an exception type and message */
    return g_strdup_printf (_("Line %d: %s: %s"), result->error_line, type, message);
  if (result->error_line > 0)
    return g_strdup_printf (_("Line %d: %s"), result->error_line, type);
  if (message != NULL)
    return g_strdup_printf ("%s: %s", type, message);
  return g_strdup (type);
}

static VivaRunResult *
result_from_event (Op         *op,
                   JsonObject *event)
{
  const char *status = json_object_get_string_member_with_default (event, "status", "error");
  VivaRunResult *result;

  if (g_str_equal (status, "ok"))
    result = _viva_run_result_new (VIVA_RUN_STATUS_OK);
  else if (g_str_equal (status, "timeout"))
    result = _viva_run_result_new (VIVA_RUN_STATUS_TIMEOUT);
  else
    result = _viva_run_result_new (VIVA_RUN_STATUS_ERROR);

  result->duration_ms = json_object_get_double_member_with_default (event, "duration_ms", 0);
  result->error_type = g_strdup (json_object_get_string_member_with_default (event, "type", NULL));
  result->error_message = g_strdup (json_object_get_string_member_with_default (event, "message", NULL));
  result->traceback = g_strdup (json_object_get_string_member_with_default (event, "traceback", NULL));
  result->error_line = json_object_get_int_member_with_default (event, "line", 0);
  result->error_column = json_object_get_int_member_with_default (event, "column", 0);

  if (result->status == VIVA_RUN_STATUS_TIMEOUT)
    {
      g_autofree char *limit = g_strdup_printf ("%.1f", op->timeout_ms / 1000.0);

      if (result->error_line > 0)
        /* Translators: %s is a number of seconds, %d a line number */
        result->summary = g_strdup_printf (_("The code ran longer than %s s and was stopped at line %d. Variables are kept; look for a loop that never ends."),
                                           limit, result->error_line);
      else
        result->summary = g_strdup_printf (_("The code ran longer than %s s and was stopped. Variables are kept; look for a loop that never ends."),
                                           limit);
    }
  else if (result->status == VIVA_RUN_STATUS_ERROR)
    result->summary = describe_error (result);

  return result;
}

static VivaRunResult *
result_for_death (Op     *op,
                  Worker *worker)
{
  VivaRunResult *result;
  int signum = 0;

  if (g_subprocess_get_if_signaled (worker->process))
    signum = g_subprocess_get_term_sig (worker->process);
  else if (g_subprocess_get_if_exited (worker->process) &&
           worker->sandbox != VIVA_RUNNER_SANDBOX_NONE &&
           g_subprocess_get_exit_status (worker->process) > 128)
    signum = g_subprocess_get_exit_status (worker->process) - 128; /* the sandbox passes 128 + signal on */

  if (worker->killed)
    {
      result = _viva_run_result_new (VIVA_RUN_STATUS_KILLED);
      result->summary = g_strdup (_("The code did not stop when interrupted (it was probably busy inside a C library such as numpy), so Python was restarted. Variables from earlier runs are gone."));
    }
  else
    {
      result = _viva_run_result_new (VIVA_RUN_STATUS_CRASHED);
      result->signal = signum;
      if (signum > 0)
        /* Translators: %s is the name of a signal, such as “Segmentation fault” */
        result->summary = g_strdup_printf (_("Python crashed (%s), probably in a C library called by the code. It was restarted; variables from earlier runs are gone."),
                                           g_strsignal (signum));
      else
        result->summary = g_strdup (_("Python stopped unexpectedly. It was restarted; variables from earlier runs are gone."));
    }

  result->state_reset = TRUE;
  result->duration_ms = (g_get_monotonic_time () - op->started_us) / 1000.0;
  return result;
}

/* Events from the worker */

static void
viva_runner_handle_event (VivaRunner *self,
                          Worker     *worker,
                          const char *line)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonObject *event;
  JsonNode *root;
  const char *name;
  gint64 id;

  if (!json_parser_load_from_data (parser, line, -1, NULL) ||
      !(root = json_parser_get_root (parser)) || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_debug ("runner: ignoring a line the worker should not have sent");
      return;
    }

  event = json_node_get_object (root);
  name = json_object_get_string_member_with_default (event, "event", "");
  id = json_object_get_int_member_with_default (event, "id", 0);

  if (g_str_equal (name, "ready"))
    {
      const char *version = json_object_get_string_member_with_default (event, "python", NULL);

      worker->ready = TRUE;
      g_clear_handle_id (&worker->start_id, g_source_remove);
      g_string_truncate (worker->early_stderr, 0);
      if (g_strcmp0 (self->python_version, version) != 0)
        {
          g_free (self->python_version);
          self->python_version = g_strdup (version);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PYTHON_VERSION]);
        }
      if (self->sandbox != worker->sandbox)
        {
          self->sandbox = worker->sandbox;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SANDBOX]);
        }
      viva_runner_next (self);
    }
  else if (g_str_equal (name, "stdout") || g_str_equal (name, "stderr"))
    {
      const char *text = json_object_get_string_member_with_default (event, "text", "");

      viva_runner_take_output (self, name[3] == 'o' ? 1 : 2, text, strlen (text));
    }
  else if (g_str_equal (name, "image"))
    viva_runner_take_image (self, json_object_get_string_member_with_default (event, "data", ""));
  else if (g_str_equal (name, "truncated"))
    viva_runner_truncated (self);
  else if (g_str_equal (name, "result") && self->current != NULL && self->current->id == id)
    {
      Op *op = self->current;

      if (op->kind == OP_RESET)
        viva_runner_complete_current (self, NULL);
      else
        viva_runner_complete_current (self, result_from_event (op, event));
    }
}

static void worker_read_next (Worker *worker);

static gboolean
worker_drain_cb (gpointer user_data)
{
  Worker *worker = user_data;

  worker->drain_id = 0;
  worker->eof = TRUE;
  viva_runner_worker_died (worker->runner, worker);
  return G_SOURCE_REMOVE;
}

/* Death is known when the process has exited and every event it sent has
 * been read, so a result written just before a crash is not lost. A stray
 * holder of the socket must not delay it long, though. */
static void
worker_check_dead (Worker *worker)
{
  if (!worker_is_current (worker) || !worker->exited)
    return;

  if (worker->eof)
    viva_runner_worker_died (worker->runner, worker);
  else if (worker->drain_id == 0)
    worker->drain_id = g_timeout_add (EXIT_DRAIN_MS, worker_drain_cb, worker);
}

static void
worker_line_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Worker *worker = user_data;
  g_autofree char *line = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, NULL);

  if (line == NULL)
    {
      worker->eof = TRUE;
      worker_check_dead (worker);
    }
  else if (worker_is_current (worker))
    {
      viva_runner_handle_event (worker->runner, worker, line);
      worker_read_next (worker);
    }

  worker_unref (worker);
}

static void
worker_read_next (Worker *worker)
{
  if (!worker_is_current (worker))
    return;

  g_data_input_stream_read_line_async (worker->events, G_PRIORITY_DEFAULT, worker->cancellable,
                                       worker_line_cb, worker_ref (worker));
}

typedef struct
{
  Worker       *worker;
  GInputStream *stream;
  int           fd;
} PipeReader;

static void pipe_read_next (PipeReader *reader);

static void
pipe_reader_free (PipeReader *reader)
{
  worker_unref (reader->worker);
  g_object_unref (reader->stream);
  g_free (reader);
}

static void
pipe_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  PipeReader *reader = user_data;
  Worker *worker = reader->worker;
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
  text = g_utf8_make_valid (data, length);

  /* Before it is ready, what the worker (or bubblewrap) says is why it did
   * not start; afterwards it is the program's, from C code or a crash. */
  if (!worker->ready)
    g_string_append (worker->early_stderr, text);
  else
    viva_runner_take_output (worker->runner, reader->fd, text, strlen (text));

  pipe_read_next (reader);
}

static void
pipe_read_next (PipeReader *reader)
{
  g_input_stream_read_bytes_async (reader->stream, PIPE_CHUNK, G_PRIORITY_DEFAULT,
                                   reader->worker->cancellable, pipe_read_cb, reader);
}

static void
pipe_read_start (Worker       *worker,
                 GInputStream *stream,
                 int           fd)
{
  PipeReader *reader = g_new0 (PipeReader, 1);

  reader->worker = worker_ref (worker);
  reader->stream = g_object_ref (stream);
  reader->fd = fd;
  pipe_read_next (reader);
}

static void
worker_wait_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Worker *worker = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  worker->exited = TRUE;
  worker_check_dead (worker);
  worker_unref (worker);
}

static void viva_runner_fail_all (VivaRunner *self,
                                  GError     *error);

static gboolean
worker_start_timeout_cb (gpointer user_data)
{
  Worker *worker = user_data;
  VivaRunner *self = worker->runner;
  g_autoptr(GError) error = NULL;

  worker->start_id = 0;
  error = g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       _("Python did not start within %d s. Close other programs and try again."),
                       START_TIMEOUT_S);
  worker_discard (worker);
  viva_runner_fail_all (self, error);
  return G_SOURCE_REMOVE;
}

static gboolean
viva_runner_spawn (VivaRunner  *self,
                   GError     **error)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSubprocess) process = NULL;
  VivaRunnerSandbox sandbox;
  Worker *worker;
  int fds[2];

  g_assert (self->worker == NULL);

  if (self->launch == NULL && !(self->launch = _viva_runner_launch_new (error)))
    return FALSE;

  sandbox = self->launch->sandbox;
  if (sandbox == VIVA_RUNNER_SANDBOX_BUBBLEWRAP && self->bwrap_failed)
    sandbox = VIVA_RUNNER_SANDBOX_NONE;

  if (sandbox == VIVA_RUNNER_SANDBOX_NONE && self->sandbox_message == NULL)
    {
      self->sandbox_message = _viva_runner_launch_why_unsandboxed (self->launch);
      g_message ("%s", self->sandbox_message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SANDBOX_MESSAGE]);
    }

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not start Python: %s"), g_strerror (saved_errno));
      return FALSE;
    }

  if (!(socket = g_socket_new_from_fd (fds[0], error)))
    {
      close (fds[0]);
      close (fds[1]);
      return FALSE;
    }

  if (!(process = _viva_runner_launch_spawn (self->launch, sandbox, self->memory_limit, fds[1], error)))
    return FALSE;

  worker = g_new0 (Worker, 1);
  worker->ref_count = 1;
  worker->runner = self;
  worker->sandbox = sandbox;
  worker->process = g_steal_pointer (&process);
  worker->channel = G_IO_STREAM (g_socket_connection_factory_create_connection (socket));
  worker->events = g_data_input_stream_new (g_io_stream_get_input_stream (worker->channel));
  worker->cancellable = g_cancellable_new ();
  worker->early_stderr = g_string_new (NULL);
  g_data_input_stream_set_newline_type (worker->events, G_DATA_STREAM_NEWLINE_TYPE_LF);
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (worker->events), FALSE);
  self->worker = worker;

  worker_read_next (worker);
  pipe_read_start (worker, g_subprocess_get_stdout_pipe (worker->process), 1);
  pipe_read_start (worker, g_subprocess_get_stderr_pipe (worker->process), 2);
  g_subprocess_wait_async (worker->process, worker->cancellable, worker_wait_cb, worker_ref (worker));
  worker->start_id = g_timeout_add_seconds (START_TIMEOUT_S, worker_start_timeout_cb, worker);

  return TRUE;
}

static void
viva_runner_fail_all (VivaRunner *self,
                      GError     *error)
{
  Op *op;

  while ((op = g_queue_pop_head (&self->queue)))
    op_complete (op, NULL, g_error_copy (error));
  viva_runner_update_busy (self);
}

static void
viva_runner_worker_died (VivaRunner *self,
                         Worker     *worker)
{
  gboolean never_ready = !worker->ready;
  gboolean bwrap = worker->sandbox == VIVA_RUNNER_SANDBOX_BUBBLEWRAP;
  gboolean setup_failed = g_subprocess_get_if_exited (worker->process) &&
                          g_subprocess_get_exit_status (worker->process) == 1;
  g_autofree char *why = g_strstrip (g_strdup (worker->early_stderr->str));

  worker_ref (worker);
  worker_discard (worker);

  if (never_ready && bwrap && setup_failed && !worker->killed)
    {
      /* Bubblewrap could not set up its namespaces (Ubuntu's AppArmor
       * forbids them, for one): run without it, and say so. */
      g_autofree char *first = g_strdup (why);
      char *newline = strchr (first, '\n');

      if (newline != NULL)
        *newline = '\0';
      self->bwrap_failed = TRUE;
      g_free (self->sandbox_message);
      self->sandbox_message = g_strdup_printf (_("The sandbox could not start (%s), so code runs without it: it can read and change your files and use the network."),
                                               first[0] ? first : _("bubblewrap failed"));
      g_message ("%s", self->sandbox_message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SANDBOX_MESSAGE]);
      worker_unref (worker);
      viva_runner_next (self);
      return;
    }

  if (never_ready)
    {
      g_autoptr(GError) error = NULL;

      error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Python could not start: %s"),
                           why[0] ? why : _("the worker ended without a word"));
      viva_runner_fail_all (self, error);
      worker_unref (worker);
      return;
    }

  g_debug ("runner: worker died%s", worker->killed ? " (killed)" : "");

  if (self->current != NULL)
    {
      if (self->current->kind == OP_RESET)
        viva_runner_complete_current (self, NULL);
      else
        viva_runner_complete_current (self, result_for_death (self->current, worker));
    }

  worker_unref (worker);
  viva_runner_next (self);
}

/* Sends the next request when the worker is free, starting one if needed. */
static void
viva_runner_next (VivaRunner *self)
{
  while (self->current == NULL && !g_queue_is_empty (&self->queue))
    {
      g_autoptr(JsonObject) request = NULL;
      Op *op;

      if (self->worker == NULL)
        {
          g_autoptr(GError) error = NULL;

          if (!viva_runner_spawn (self, &error))
            {
              viva_runner_fail_all (self, error);
              return;
            }
        }

      if (!self->worker->ready)
        break;

      op = g_queue_pop_head (&self->queue);

      if (op->kind == OP_START)
        {
          op_complete (op, NULL, NULL);
          continue;
        }

      if (op->kind == OP_RESTART)
        {
          /* A new process, and the caller hears back once it is ready. */
          worker_discard (self->worker);
          op->kind = OP_START;
          g_queue_push_head (&self->queue, op);
          continue;
        }

      if (self->sandbox_message != NULL && !self->warned && op_is_code (op))
        {
          g_autofree char *notice = g_strdup_printf ("%s\n", self->sandbox_message);

          self->warned = TRUE;
          g_signal_emit (self, signals[STDERR], 0, notice);
        }

      self->current = op;
      op->id = ++self->next_id;
      op->started_us = g_get_monotonic_time ();

      request = json_object_new ();
      json_object_set_int_member (request, "id", op->id);

      switch (op->kind)
        {
        case OP_RUN:
        case OP_INJECT:
        case OP_CHECK:
          json_object_set_string_member (request, "op",
                                         op->kind == OP_RUN ? "run" : op->kind == OP_INJECT ? "inject" : "check");
          json_object_set_string_member (request, "code", op->code);
          if (op->probe != NULL)
            json_object_set_string_member (request, "probe", op->probe);
          json_object_set_int_member (request, "timeout_ms", op->timeout_ms);
          json_object_set_int_member (request, "output_limit", self->output_limit);
          op_arm_kill (op, op->timeout_ms + GRACE_MS);
          break;

        case OP_RESET:
          json_object_set_string_member (request, "op", "reset");
          op_arm_kill (op, GRACE_MS);
          break;

        case OP_START:
        case OP_RESTART:
        default:
          g_assert_not_reached ();
        }

      worker_send (self->worker, request);
    }

  viva_runner_update_busy (self);
}

/* Public API */

/**
 * viva_runner_new:
 *
 * Creates a runner. The worker starts with the first request (or
 * viva_runner_start_async()) and keeps its variables between runs.
 *
 * Returns: (transfer full): a new #VivaRunner
 */
VivaRunner *
viva_runner_new (void)
{
  return g_object_new (VIVA_TYPE_RUNNER, NULL);
}

gboolean
viva_runner_get_busy (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), FALSE);
  return self->busy;
}

/**
 * viva_runner_get_python_version:
 *
 * Returns: (nullable): the worker's Python version, such as `3.11.2`, once a
 *   worker has started
 */
const char *
viva_runner_get_python_version (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), NULL);
  return self->python_version;
}

/**
 * viva_runner_get_sandbox:
 *
 * Returns: the sandbox the last started worker runs in
 */
VivaRunnerSandbox
viva_runner_get_sandbox (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), VIVA_RUNNER_SANDBOX_NONE);
  return self->sandbox;
}

/**
 * viva_runner_get_sandbox_message:
 *
 * Returns: (nullable): when code runs without a sandbox, a sentence saying
 *   why and what to do; %NULL while it is sandboxed
 */
const char *
viva_runner_get_sandbox_message (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), NULL);
  return self->sandbox_message;
}

guint64
viva_runner_get_memory_limit (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), 0);
  return self->memory_limit;
}

/**
 * viva_runner_set_memory_limit:
 * @bytes: address space for the worker, 0 for no limit
 *
 * Takes effect when the next worker starts.
 */
void
viva_runner_set_memory_limit (VivaRunner *self,
                              guint64     bytes)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));

  if (self->memory_limit == bytes)
    return;

  self->memory_limit = bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEMORY_LIMIT]);
}

guint
viva_runner_get_output_limit (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), 0);
  return self->output_limit;
}

/**
 * viva_runner_set_output_limit:
 * @bytes: how much one run may print before the rest is dropped
 */
void
viva_runner_set_output_limit (VivaRunner *self,
                              guint       bytes)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (bytes > 0);

  if (self->output_limit == bytes)
    return;

  self->output_limit = bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OUTPUT_LIMIT]);
}

static Op *
op_new (VivaRunner          *self,
        OpKind               kind,
        gpointer             source_tag,
        GCancellable        *cancellable,
        GAsyncReadyCallback  callback,
        gpointer             user_data)
{
  Op *op = g_new0 (Op, 1);

  op->kind = kind;
  op->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (op->task, source_tag);
  return op;
}

/**
 * viva_runner_start_async:
 *
 * Starts the worker ahead of the first run, so that run does not wait for
 * Python to start. Completes when the worker is ready.
 */
void
viva_runner_start_async (VivaRunner          *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  viva_runner_push (self, op_new (self, OP_START, viva_runner_start_async, cancellable, callback, user_data),
                    cancellable);
}

gboolean
viva_runner_start_finish (VivaRunner    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * viva_runner_run_async:
 * @code: Python source
 * @timeout_ms: wall-clock time allowed, or 0 for %VIVA_RUNNER_DEFAULT_TIMEOUT_MS
 * @cancellable: (nullable): cancelling it stops the run
 *
 * Runs @code in the worker's persistent namespace (what it defines stays for
 * the next run). Output arrives on #VivaRunner::stdout, #VivaRunner::stderr
 * and #VivaRunner::image while it runs; requests run one at a time in the
 * order they were made. Main thread only.
 */
void
viva_runner_run_async (VivaRunner          *self,
                       const char          *code,
                       guint                timeout_ms,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  Op *op;

  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (code != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  op = op_new (self, OP_RUN, viva_runner_run_async, cancellable, callback, user_data);
  op->code = g_strdup (code);
  op->timeout_ms = timeout_ms ? timeout_ms : VIVA_RUNNER_DEFAULT_TIMEOUT_MS;
  viva_runner_push (self, op, cancellable);
}

/**
 * viva_runner_run_finish:
 *
 * Returns: (transfer full): the result, whatever the code did; %NULL with
 *   @error only when the run could not happen (cancelled, no worker)
 */
VivaRunResult *
viva_runner_run_finish (VivaRunner    *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_runner_inject_async:
 * @code: the student's code
 * @probe: a test to run right after it, in the same namespace
 *
 * Runs @code then @probe as one request (what `injectTestCase` needs). The
 * result's line is in @code; frames of @probe show as `<test>`.
 */
void
viva_runner_inject_async (VivaRunner          *self,
                          const char          *code,
                          const char          *probe,
                          guint                timeout_ms,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  Op *op;

  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (code != NULL);
  g_return_if_fail (probe != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  op = op_new (self, OP_INJECT, viva_runner_inject_async, cancellable, callback, user_data);
  op->code = g_strdup (code);
  op->probe = g_strdup (probe);
  op->timeout_ms = timeout_ms ? timeout_ms : VIVA_RUNNER_DEFAULT_TIMEOUT_MS;
  viva_runner_push (self, op, cancellable);
}

/**
 * viva_runner_inject_finish:
 *
 * Returns: (transfer full): the result of code and probe together
 */
VivaRunResult *
viva_runner_inject_finish (VivaRunner    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_runner_check_async:
 *
 * Compiles @code without running it.
 */
void
viva_runner_check_async (VivaRunner          *self,
                         const char          *code,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  Op *op;

  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (code != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  op = op_new (self, OP_CHECK, viva_runner_check_async, cancellable, callback, user_data);
  op->code = g_strdup (code);
  op->timeout_ms = CHECK_TIMEOUT_MS;
  viva_runner_push (self, op, cancellable);
}

/**
 * viva_runner_check_finish:
 *
 * Returns: (transfer full): %VIVA_RUN_STATUS_OK, or %VIVA_RUN_STATUS_ERROR
 *   with the syntax error's line and column
 */
VivaRunResult *
viva_runner_check_finish (VivaRunner    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_runner_reset_async:
 * @new_process: %TRUE for a new Python process (modules such as numpy
 *   cannot be reloaded in one), %FALSE for a fresh namespace only
 *
 * Forgets everything earlier runs defined.
 */
void
viva_runner_reset_async (VivaRunner          *self,
                         gboolean             new_process,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  viva_runner_push (self,
                    op_new (self, new_process ? OP_RESTART : OP_RESET, viva_runner_reset_async,
                            cancellable, callback, user_data),
                    cancellable);
}

gboolean
viva_runner_reset_finish (VivaRunner    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * viva_runner_stop:
 *
 * Stops the running request and drops the waiting ones, as if each had been
 * cancelled: their callers get %G_IO_ERROR_CANCELLED. The Stop button.
 */
void
viva_runner_stop (VivaRunner *self)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));

  while (!g_queue_is_empty (&self->queue))
    op_cancel (g_queue_peek_tail (&self->queue));
  if (self->current != NULL)
    op_cancel (self->current);
}

/* Class */

static void
viva_runner_dispose (GObject *object)
{
  VivaRunner *self = (VivaRunner *)object;
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CLOSED, _("The runner was closed."));

  if (self->worker != NULL)
    worker_discard (self->worker);
  if (self->current != NULL)
    op_complete (g_steal_pointer (&self->current), NULL, g_error_copy (error));
  viva_runner_fail_all (self, error);

  G_OBJECT_CLASS (viva_runner_parent_class)->dispose (object);
}

static void
viva_runner_finalize (GObject *object)
{
  VivaRunner *self = (VivaRunner *)object;

  g_clear_pointer (&self->launch, _viva_runner_launch_free);
  g_clear_pointer (&self->python_version, g_free);
  g_clear_pointer (&self->sandbox_message, g_free);

  G_OBJECT_CLASS (viva_runner_parent_class)->finalize (object);
}

static void
viva_runner_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  VivaRunner *self = VIVA_RUNNER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, viva_runner_get_busy (self));
      break;

    case PROP_PYTHON_VERSION:
      g_value_set_string (value, viva_runner_get_python_version (self));
      break;

    case PROP_SANDBOX:
      g_value_set_enum (value, viva_runner_get_sandbox (self));
      break;

    case PROP_SANDBOX_MESSAGE:
      g_value_set_string (value, viva_runner_get_sandbox_message (self));
      break;

    case PROP_MEMORY_LIMIT:
      g_value_set_uint64 (value, viva_runner_get_memory_limit (self));
      break;

    case PROP_OUTPUT_LIMIT:
      g_value_set_uint (value, viva_runner_get_output_limit (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_runner_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  VivaRunner *self = VIVA_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MEMORY_LIMIT:
      viva_runner_set_memory_limit (self, g_value_get_uint64 (value));
      break;

    case PROP_OUTPUT_LIMIT:
      viva_runner_set_output_limit (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_runner_class_init (VivaRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_runner_dispose;
  object_class->finalize = viva_runner_finalize;
  object_class->get_property = viva_runner_get_property;
  object_class->set_property = viva_runner_set_property;

  /**
   * VivaRunner:busy:
   *
   * Whether a request (run, inject, check, reset) is running or waiting:
   * the Run button shows Stop. Starting the worker alone is not busy.
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_PYTHON_VERSION] =
    g_param_spec_string ("python-version", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_SANDBOX] =
    g_param_spec_enum ("sandbox", NULL, NULL,
                       VIVA_TYPE_RUNNER_SANDBOX, VIVA_RUNNER_SANDBOX_NONE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * VivaRunner:sandbox-message:
   *
   * Set when code runs without a sandbox, saying why: bind it to a banner.
   */
  properties[PROP_SANDBOX_MESSAGE] =
    g_param_spec_string ("sandbox-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_MEMORY_LIMIT] =
    g_param_spec_uint64 ("memory-limit", NULL, NULL,
                         0, G_MAXUINT64, VIVA_RUNNER_DEFAULT_MEMORY_LIMIT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_OUTPUT_LIMIT] =
    g_param_spec_uint ("output-limit", NULL, NULL,
                       1, G_MAXUINT, VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaRunner::stdout:
   * @text: a chunk of what the code printed, valid UTF-8
   *
   * Emitted as the code writes to standard output, a few times a second at
   * most per flood.
   */
  signals[STDOUT] =
    g_signal_new ("stdout", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaRunner::stderr:
   * @text: a chunk of standard error, or a notice from the runner (output
   *   truncated, no sandbox)
   */
  signals[STDERR] =
    g_signal_new ("stderr", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaRunner::image:
   * @png: a matplotlib figure as PNG data
   */
  signals[IMAGE] =
    g_signal_new ("image", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BYTES);
}

static void
viva_runner_init (VivaRunner *self)
{
  g_queue_init (&self->queue);
  self->memory_limit = VIVA_RUNNER_DEFAULT_MEMORY_LIMIT;
  self->output_limit = VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT;
}
