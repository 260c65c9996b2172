/* viva-worker.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* viva-python-worker: runs student code in an embedded CPython, for the app
 * or viva-cli, which start it with a socket on fd 3.
 *
 * The channel carries one JSON object per line each way; student output
 * never touches it directly (sys.stdout and sys.stderr are replaced), so
 * nothing a program prints can be mistaken for a message.
 *
 * Four threads: the main thread owns the interpreter and runs requests one
 * at a time; a reader thread takes requests off the channel, so an
 * "interrupt" is seen while code runs; a watchdog thread ends a run that
 * passes its deadline with SIGINT to the main thread (on CPython 3.11,
 * PyErr_SetInterruptEx() from another thread does not stop a pure-Python
 * loop; a real signal does) and sends buffered output every few
 * milliseconds; the last reads what reaches fds 1 and 2. See DESIGN.md. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "viva-worker-limits.h"
#include "viva-worker-resources.h"

#define CHANNEL_FD        3
#define FLUSH_INTERVAL_US (20 * G_TIME_SPAN_MILLISECOND)
#define KICK_INTERVAL_US  (200 * G_TIME_SPAN_MILLISECOND)
#define FLUSH_SIZE        16384
#define MAX_IMAGES        50
#define CPU_SLACK_S       10

typedef enum
{
  REASON_NONE,
  REASON_TIMEOUT,
  REASON_INTERRUPT,
} Reason;

/* The run in progress, shared with the watchdog and the reader. */
static struct
{
  GMutex    lock;
  GCond     cond;
  pthread_t main_thread;
  gboolean  active;
  gint64    id;
  gint64    deadline;
  gint64    next_kick;
  Reason    reason;
} run;

/* Output waiting to be sent, in the order it was written. */
static struct
{
  GMutex   lock;
  GString *pending;
  int      stream;
  gint64   id;
  guint64  limit;
  guint64  written;
  guint    n_images;
  gboolean truncated;
} output;

static GMutex       write_lock;
static GAsyncQueue *requests;
static PyObject    *boot;

/* fds 1 and 2 are pipes read back here (C libraries, os.write), so their
 * output takes the same capped, ordered path as print(). The real stderr
 * is kept for faulthandler: a crash report must not wait for a thread. */
static struct
{
  GMutex lock;
  int    pipes[2];
  char   carry[2][4];
  gsize  n_carry[2];
  int    real_stderr;
} fds = { .pipes = { -1, -1 }, .real_stderr = -1 };

static void
channel_write (const char *data,
               gsize       length)
{
  g_mutex_lock (&write_lock);
  while (length > 0)
    {
      ssize_t n = send (CHANNEL_FD, data, length, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit (0); /* the app is gone, and nobody is left to tell */
      data += n;
      length -= n;
    }
  g_mutex_unlock (&write_lock);
}

static void
channel_send (JsonBuilder *builder)
{
  g_autoptr(JsonNode) node = json_builder_get_root (builder);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GString) line = NULL;
  gsize length;
  g_autofree char *text = NULL;

  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, &length);
  line = g_string_new_len (text, length);
  g_string_append_c (line, '\n');
  channel_write (line->str, line->len);
}

static JsonBuilder *
event_new (const char *event,
           gint64      id)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "event");
  json_builder_add_string_value (builder, event);
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, id);
  return builder;
}

/* Escapes @length bytes of @data as the inside of a JSON string into
 * @out (at most @out_size bytes, which must be at least 8), and says how
 * many bytes of @data it used. Control bytes and NUL become \u escapes
 * (the app decides how to show them), bytes that are not UTF-8 become
 * U+FFFD. No allocation and no locks: the crash handler uses it too. */
static gsize
escape_json (const char *data,
             gsize       length,
             gsize      *consumed,
             char       *out,
             gsize       out_size)
{
  static const char hex[] = "0123456789abcdef";
  gsize i = 0;
  gsize n = 0;

  while (i < length && n + 7 <= out_size)
    {
      guchar c = data[i];

      if (c == '"' || c == '\\')
        {
          out[n++] = '\\';
          out[n++] = c;
          i++;
        }
      else if (c == '\n')
        {
          out[n++] = '\\';
          out[n++] = 'n';
          i++;
        }
      else if (c < 0x20 || c == 0x7f)
        {
          memcpy (out + n, "\\u00", 4);
          out[n + 4] = hex[c >> 4];
          out[n + 5] = hex[c & 15];
          n += 6;
          i++;
        }
      else if (c < 0x80)
        {
          out[n++] = c;
          i++;
        }
      else
        {
          gsize left = length - i;
          gunichar ch = g_utf8_get_char_validated (data + i, MIN (left, 4));
          gsize width;

          if (ch == (gunichar) -1 || ch == (gunichar) -2)
            {
              memcpy (out + n, "\\ufffd", 6);
              n += 6;
              i++;
              continue;
            }
          width = g_utf8_skip[c];
          memcpy (out + n, data + i, width);
          n += width;
          i += width;
        }
    }

  *consumed = i;
  return n;
}

static void
string_append_json (GString    *string,
                    const char *data,
                    gsize       length)
{
  char chunk[4096];

  while (length > 0)
    {
      gsize used;
      gsize n = escape_json (data, length, &used, chunk, sizeof chunk);

      g_string_append_len (string, chunk, n);
      data += used;
      length -= used;
    }
}

/* An output event, built by hand: json-glib strings end at the first NUL. */
static void
send_text (int         stream,
           gint64      id,
           const char *data,
           gsize       length)
{
  g_autoptr(GString) line = g_string_sized_new (length + 64);

  g_string_append_printf (line, "{\"event\":\"%s\",\"id\":%" G_GINT64_FORMAT ",\"text\":\"",
                          stream == 2 ? "stderr" : "stdout", id);
  string_append_json (line, data, length);
  g_string_append (line, "\"}\n");
  channel_write (line->str, line->len);
}

static void
output_flush_locked (void)
{
  if (output.pending->len == 0)
    return;

  send_text (output.stream, output.id, output.pending->str, output.pending->len);
  g_string_truncate (output.pending, 0);
}

static void
output_flush (void)
{
  g_mutex_lock (&output.lock);
  output_flush_locked ();
  g_mutex_unlock (&output.lock);
}

static void
output_truncate_locked (void)
{
  g_autoptr(JsonBuilder) builder = NULL;

  output_flush_locked ();
  output.truncated = TRUE;
  builder = event_new ("truncated", output.id);
  json_builder_end_object (builder);
  channel_send (builder);
}

static void
output_append (int         stream,
               const char *data,
               gsize       length)
{
  gboolean over = FALSE;

  g_mutex_lock (&output.lock);

  if (output.truncated)
    {
      g_mutex_unlock (&output.lock);
      return;
    }

  if (output.written + length > output.limit)
    {
      length = output.limit - output.written;
      /* Never cut a character in two: the channel carries UTF-8. */
      while (length > 0 && ((guchar) data[length] & 0xC0) == 0x80)
        length--;
      over = TRUE;
    }

  if (stream != output.stream)
    output_flush_locked ();
  output.stream = stream;
  g_string_append_len (output.pending, data, length);
  output.written += length;

  if (over)
    output_truncate_locked ();
  else if (output.pending->len >= FLUSH_SIZE)
    output_flush_locked ();

  g_mutex_unlock (&output.lock);
}

static void
output_image (const guint8 *data,
              gsize         length)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autofree char *encoded = NULL;

  g_mutex_lock (&output.lock);

  if (output.truncated)
    ;
  else if (output.n_images >= MAX_IMAGES)
    output_truncate_locked ();
  else
    {
      output_flush_locked ();
      output.n_images++;
      encoded = g_base64_encode (data, length);
      builder = event_new ("image", output.id);
      json_builder_set_member_name (builder, "mime");
      json_builder_add_string_value (builder, "image/png");
      json_builder_set_member_name (builder, "data");
      json_builder_add_string_value (builder, encoded);
      json_builder_end_object (builder);
      channel_send (builder);
    }

  g_mutex_unlock (&output.lock);
}

/* After a crash */

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
      gsize written = escape_json (data, length, &used, chunk, sizeof chunk);

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
  /* In fds_drain()'s order: the fds thread may hold bytes it has read
   * but not yet added to the buffer. */
  gboolean have_fds = lock_for_crash (&fds.lock);
  gboolean have_output = lock_for_crash (&output.lock);
  gboolean have_write = lock_for_crash (&write_lock);
  gsize left = output.limit > output.written ? output.limit - output.written : 0;

  if (output.pending != NULL && output.pending->len > 0)
    {
      raw_send_text (output.stream, output.id, output.pending->str, output.pending->len);
      output.pending->len = 0;
    }

  for (int i = 0; i < 2 && !output.truncated; i++)
    {
      ssize_t n;

      while (fds.pipes[i] >= 0 && left > 0 &&
             (n = read (fds.pipes[i], buffer, MIN (sizeof buffer, left))) > 0)
        {
          raw_send_text (i + 1, output.id, buffer, n);
          left -= n;
        }
    }

  if (have_write)
    g_mutex_unlock (&write_lock);
  if (have_output)
    g_mutex_unlock (&output.lock);
  if (have_fds)
    g_mutex_unlock (&fds.lock);
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
crash_handlers_install (void)
{
  struct sigaction action = { 0 };

  action.sa_handler = fatal_signal_handler;
  action.sa_flags = SA_ONSTACK;
  sigemptyset (&action.sa_mask);
  for (guint i = 0; i < G_N_ELEMENTS (fatal_signals); i++)
    sigaction (fatal_signals[i], &action, &previous_actions[i]);
}

/* Reads what is waiting on fd 1 or 2 (index 0 or 1) without blocking. A
 * character cut at the end of a read is kept for the next one. */
static void
fds_drain (int index)
{
  char buffer[8192 + 4];

  g_mutex_lock (&fds.lock);

  for (;;)
    {
      gsize carried = fds.n_carry[index];
      ssize_t n;
      const char *end;
      gsize length;

      memcpy (buffer, fds.carry[index], carried);
      n = read (fds.pipes[index], buffer + carried, sizeof buffer - 4);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;

      length = carried + n;
      fds.n_carry[index] = 0;
      if (!g_utf8_validate (buffer, length, &end) &&
          length - (end - buffer) < 4 &&
          g_utf8_get_char_validated (end, length - (end - buffer)) == (gunichar) -2)
        {
          fds.n_carry[index] = length - (end - buffer);
          memcpy (fds.carry[index], end, fds.n_carry[index]);
          length = end - buffer;
        }

      output_append (index + 1, buffer, length);
    }

  g_mutex_unlock (&fds.lock);
}

static gpointer
fds_thread (gpointer data)
{
  struct pollfd polls[2] = {
    { .fd = fds.pipes[0], .events = POLLIN },
    { .fd = fds.pipes[1], .events = POLLIN },
  };

  for (;;)
    {
      if (poll (polls, 2, -1) < 0)
        continue;
      for (int i = 0; i < 2; i++)
        if (polls[i].revents & (POLLIN | POLLHUP))
          fds_drain (i);
    }

  return NULL;
}

static gboolean
fds_redirect (GError **error)
{
  for (int i = 0; i < 2; i++)
    {
      int pipe_fds[2];

      if (pipe2 (pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0 ||
          dup2 (pipe_fds[1], i + 1) < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "cannot capture fd %d: %s", i + 1, g_strerror (saved_errno));
          return FALSE;
        }

      /* Writers block when the pipe is full; only our end is non-blocking. */
      fcntl (i + 1, F_SETFL, fcntl (i + 1, F_GETFL) & ~O_NONBLOCK);
      close (pipe_fds[1]);
      fds.pipes[i] = pipe_fds[0];
    }

  return TRUE;
}

/* _viva.write(stream, text): sys.stdout and sys.stderr end here. */
static PyObject *
viva_py_write (PyObject *module,
               PyObject *args)
{
  PyObject *text;
  PyObject *bytes;
  int stream;

  if (!PyArg_ParseTuple (args, "iU", &stream, &text))
    return NULL;

  if (!(bytes = PyUnicode_AsEncodedString (text, "utf-8", "replace")))
    return NULL;

  Py_BEGIN_ALLOW_THREADS
  output_append (stream, PyBytes_AS_STRING (bytes), PyBytes_GET_SIZE (bytes));
  Py_END_ALLOW_THREADS

  Py_DECREF (bytes);
  Py_RETURN_NONE;
}

/* _viva.image(png): a matplotlib figure for the console. */
static PyObject *
viva_py_image (PyObject *module,
               PyObject *args)
{
  Py_buffer buffer;

  if (!PyArg_ParseTuple (args, "y*", &buffer))
    return NULL;

  Py_BEGIN_ALLOW_THREADS
  output_image (buffer.buf, buffer.len);
  Py_END_ALLOW_THREADS

  PyBuffer_Release (&buffer);
  Py_RETURN_NONE;
}

/* _viva.flush(): before os._exit(), everything printed so far. */
static PyObject *
viva_py_flush (PyObject *module,
               PyObject *args)
{
  Py_BEGIN_ALLOW_THREADS
  fds_drain (0);
  fds_drain (1);
  output_flush ();
  Py_END_ALLOW_THREADS

  Py_RETURN_NONE;
}

static PyMethodDef viva_py_methods[] = {
  { "write", viva_py_write, METH_VARARGS, NULL },
  { "flush", viva_py_flush, METH_NOARGS, NULL },
  { "image", viva_py_image, METH_VARARGS, NULL },
  { NULL, NULL, 0, NULL },
};

static struct PyModuleDef viva_py_module = {
  PyModuleDef_HEAD_INIT, "_viva", NULL, -1, viva_py_methods,
  NULL, NULL, NULL, NULL,
};

static PyObject *
viva_py_init (void)
{
  PyObject *module = PyModule_Create (&viva_py_module);

  /* Where faulthandler writes a crash report: the app reads it. */
  if (module != NULL)
    PyModule_AddIntConstant (module, "crash_fd", fds.real_stderr >= 0 ? fds.real_stderr : STDERR_FILENO);
  return module;
}

static gpointer
watchdog_thread (gpointer data)
{
  g_mutex_lock (&run.lock);

  for (;;)
    {
      gint64 now;
      gint64 wake;

      if (!run.active)
        {
          g_cond_wait (&run.cond, &run.lock);
          continue;
        }

      now = g_get_monotonic_time ();
      if (run.reason == REASON_NONE && now >= run.deadline)
        run.reason = REASON_TIMEOUT;

      /* Again and again: code may catch one KeyboardInterrupt. */
      if (run.reason != REASON_NONE && now >= run.next_kick)
        {
          pthread_kill (run.main_thread, SIGINT);
          run.next_kick = now + KICK_INTERVAL_US;
        }

      wake = now + FLUSH_INTERVAL_US;
      if (run.reason == REASON_NONE)
        wake = MIN (wake, run.deadline);

      g_mutex_unlock (&run.lock);
      output_flush ();
      g_mutex_lock (&run.lock);

      g_cond_wait_until (&run.cond, &run.lock, wake);
    }

  return NULL;
}

static void
run_begin (gint64 id,
           guint  timeout_ms)
{
  g_mutex_lock (&run.lock);
  run.active = TRUE;
  run.id = id;
  run.reason = REASON_NONE;
  run.next_kick = 0;
  run.deadline = g_get_monotonic_time () + (gint64) timeout_ms * G_TIME_SPAN_MILLISECOND;
  g_cond_signal (&run.cond);
  g_mutex_unlock (&run.lock);
}

static Reason
run_end (void)
{
  Reason reason;

  g_mutex_lock (&run.lock);
  run.active = FALSE;
  reason = run.reason;
  g_mutex_unlock (&run.lock);

  return reason;
}

static void
run_interrupt (gint64 id)
{
  g_mutex_lock (&run.lock);
  if (run.active && run.id == id && run.reason == REASON_NONE)
    {
      run.reason = REASON_INTERRUPT;
      run.next_kick = 0;
      g_cond_signal (&run.cond);
    }
  g_mutex_unlock (&run.lock);
}

static gpointer
reader_thread (gpointer data)
{
  g_autoptr(GString) buffer = g_string_new (NULL);
  char chunk[65536];

  for (;;)
    {
      ssize_t n = read (CHANNEL_FD, chunk, sizeof chunk);
      char *newline;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit (0); /* the app closed the channel or died */

      g_string_append_len (buffer, chunk, n);

      while ((newline = memchr (buffer->str, '\n', buffer->len)))
        {
          g_autoptr(JsonParser) parser = json_parser_new_immutable ();
          g_autoptr(JsonObject) request = NULL;
          gsize length = newline - buffer->str;
          JsonNode *root;

          if (json_parser_load_from_data (parser, buffer->str, length, NULL) &&
              (root = json_parser_get_root (parser)) != NULL &&
              JSON_NODE_HOLDS_OBJECT (root))
            request = json_object_ref (json_node_get_object (root));

          /* json-glib counts references without atomics: the parser lets go
           * of the request here, before the main thread can see it. */
          g_clear_object (&parser);

          if (request != NULL)
            {
              const char *op = json_object_get_string_member_with_default (request, "op", "");

              if (g_str_equal (op, "interrupt"))
                run_interrupt (json_object_get_int_member_with_default (request, "id", 0));
              else
                g_async_queue_push (requests, g_steal_pointer (&request));
            }

          g_string_erase (buffer, 0, length + 1);
        }
    }

  return NULL;
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            PyObject    *dict)
{
  PyObject *value = PyDict_GetItemString (dict, name);
  const char *text;

  if (value == NULL || !PyUnicode_Check (value) || !(text = PyUnicode_AsUTF8 (value)))
    {
      PyErr_Clear ();
      return;
    }

  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, text);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         PyObject    *dict)
{
  PyObject *value = PyDict_GetItemString (dict, name);

  if (value == NULL || !PyLong_Check (value))
    return;

  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, PyLong_AsLong (value));
  PyErr_Clear ();
}

static PyObject *
fetch_exception (void)
{
  PyObject *type, *value, *traceback;

  PyErr_Fetch (&type, &value, &traceback);
  PyErr_NormalizeException (&type, &value, &traceback);
  if (value != NULL && traceback != NULL)
    PyException_SetTraceback (value, traceback);
  Py_XDECREF (type);
  Py_XDECREF (traceback);

  return value;
}

/* Runs a run, inject or check request and sends its output and result. */
static void
handle_code (JsonObject *request,
             const char *op,
             gint64      id)
{
  g_autoptr(JsonBuilder) builder = NULL;
  const char *code = json_object_get_string_member_with_default (request, "code", "");
  const char *probe = json_object_get_string_member_with_default (request, "probe", "");
  guint timeout_ms = json_object_get_int_member_with_default (request, "timeout_ms", 10000);
  guint64 limit = json_object_get_int_member_with_default (request, "output_limit", 1 << 20);
  PyObject *result;
  PyObject *error;
  PyObject *description = NULL;
  const char *status = "error";
  g_autofree char *request_text = NULL;
  g_autofree char *value_text = NULL;
  gint64 started;
  double duration_ms;
  Reason reason;

  g_mutex_lock (&output.lock);
  output_flush_locked (); /* what threads printed since the last run */
  output.id = id;
  output.limit = limit;
  output.written = 0;
  output.n_images = 0;
  output.truncated = FALSE;
  output.stream = 1;
  g_mutex_unlock (&output.lock);

  viva_worker_set_cpu_budget (timeout_ms / 1000 + CPU_SLACK_S);

  /* An interrupt that came too late for the last run (numpy does not
   * check for signals) must not end this one. */
  if (PyErr_CheckSignals () != 0)
    PyErr_Clear ();

  started = g_get_monotonic_time ();
  run_begin (id, timeout_ms);
  if (g_str_equal (op, "call") || g_str_equal (op, "judge"))
    {
      /* A structured test: its parts go to Python as the request's JSON. */
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, request);
      request_text = json_to_string (node, FALSE);
    }
  result = PyObject_CallMethod (boot, "execute", "ssss", op, code, probe,
                                request_text ? request_text : "{}");
  reason = run_end ();
  duration_ms = (g_get_monotonic_time () - started) / 1000.0;

  /* The interrupt may land after the code but before we return. */
  if (result == NULL)
    error = fetch_exception ();
  else if (result == Py_None)
    error = (Py_DECREF (result), NULL);
  else
    error = result;

  if (PyErr_CheckSignals () != 0)
    PyErr_Clear ();

  /* Everything written to fds 1 and 2 during the run is in the pipes by
   * now: it goes before the result. */
  fds_drain (0);
  fds_drain (1);

  if (g_str_equal (op, "call"))
    {
      PyObject *text = PyObject_CallMethod (boot, "take_value", NULL);

      if (text != NULL && PyUnicode_Check (text))
        value_text = g_strdup (PyUnicode_AsUTF8 (text));
      PyErr_Clear ();
      Py_XDECREF (text);
    }

  if (g_str_equal (op, "call") || g_str_equal (op, "judge"))
    {
      /* Figures of a grading are not shown to anyone. */
      PyObject *ok = PyObject_CallMethod (boot, "drop_figures", NULL);

      if (ok == NULL)
        PyErr_Clear ();
      Py_XDECREF (ok);
    }
  else if (!g_str_equal (op, "check"))
    {
      PyObject *ok = PyObject_CallMethod (boot, "emit_figures", NULL);

      if (ok == NULL)
        PyErr_WriteUnraisable (NULL);
      Py_XDECREF (ok);
    }

  if (!(description = PyObject_CallMethod (boot, "describe", "O", error ? error : Py_None)))
    PyErr_Clear ();
  Py_XDECREF (error);

  if (description != NULL && PyDict_Check (description))
    {
      PyObject *value = PyDict_GetItemString (description, "status");

      if (value != NULL && PyUnicode_Check (value))
        status = PyUnicode_AsUTF8 (value);
    }

  if (g_str_equal (status, "interrupted"))
    status = reason == REASON_TIMEOUT ? "timeout"
           : reason == REASON_INTERRUPT ? "interrupted"
           : "error";

  output_flush ();

  builder = event_new ("result", id);
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, status);
  json_builder_set_member_name (builder, "duration_ms");
  json_builder_add_double_value (builder, duration_ms);
  if (value_text != NULL && g_str_equal (status, "ok"))
    {
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, value_text);
    }
  if (description != NULL && PyDict_Check (description) && !g_str_equal (status, "ok"))
    {
      add_string (builder, "type", description);
      add_string (builder, "message", description);
      add_string (builder, "traceback", description);
      add_string (builder, "where", description);
      add_int (builder, "line", description);
      add_int (builder, "column", description);
    }
  json_builder_end_object (builder);
  Py_XDECREF (description);
  channel_send (builder);
}

static void
handle_reset (gint64 id)
{
  g_autoptr(JsonBuilder) builder = NULL;
  PyObject *ok = PyObject_CallMethod (boot, "reset", NULL);

  if (ok == NULL)
    PyErr_WriteUnraisable (NULL);
  Py_XDECREF (ok);

  builder = event_new ("result", id);
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, ok ? "ok" : "error");
  json_builder_end_object (builder);
  channel_send (builder);
}

static gboolean
start_interpreter (GError **error)
{
  PyConfig config;
  PyStatus status;

  /* Isolated: no user site, no PYTHON* variables, no current directory on
   * sys.path. The system's site-packages stay, for numpy and matplotlib. */
  PyConfig_InitIsolatedConfig (&config);
  config.install_signal_handlers = 1;
  config.write_bytecode = 0;
  config.site_import = 1;
  status = PyConfig_SetBytesString (&config, &config.program_name, "viva-python-worker");
  if (!PyStatus_Exception (status))
    status = Py_InitializeFromConfig (&config);
  PyConfig_Clear (&config);
  if (PyStatus_Exception (status))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Python did not start: %s",
                   status.err_msg ? status.err_msg : "unknown error");
      return FALSE;
    }

  return TRUE;
}

static gboolean
start_python (GError **error)
{
  g_autoptr(GBytes) source = NULL;
  PyObject *code;
  PyObject *ok;

  if (PyImport_AppendInittab ("_viva", viva_py_init) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot register _viva");
      return FALSE;
    }

  if (!start_interpreter (error))
    return FALSE;

  source = g_resources_lookup_data ("/io/github/vivaexam/Viva/worker/viva-worker-boot.py",
                                    G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (source == NULL)
    return FALSE;

  code = Py_CompileString (g_bytes_get_data (source, NULL), "viva-worker-boot.py", Py_file_input);
  if (code != NULL)
    {
      boot = PyImport_ExecCodeModule ("_viva_boot", code);
      Py_DECREF (code);
    }
  ok = boot ? PyObject_CallMethod (boot, "setup", NULL) : NULL;
  if (ok == NULL)
    {
      PyErr_Print ();
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the worker's Python part did not load");
      return FALSE;
    }
  Py_DECREF (ok);

  return TRUE;
}

static void
send_ready (void)
{
  g_autoptr(JsonBuilder) builder = event_new ("ready", 0);

  json_builder_set_member_name (builder, "python");
  json_builder_add_string_value (builder, PY_VERSION);
  json_builder_set_member_name (builder, "pid");
  json_builder_add_int_value (builder, getpid ());
  json_builder_end_object (builder);
  channel_send (builder);
}

/* --prepare-font-cache: builds matplotlib's font list in MPLCONFIGDIR and
 * leaves. The runner starts this with the one writable host folder a
 * worker gets; it never reads a request, so no student code runs here. */
static int
prepare_font_cache (void)
{
  g_autoptr(GError) error = NULL;

  if (!viva_worker_forbid_processes (&error) || !start_interpreter (&error))
    {
      fprintf (stderr, "viva-python-worker: %s\n", error->message);
      return 3;
    }
  PyRun_SimpleString ("try:\n"
                      "    import matplotlib.font_manager\n"
                      "except ImportError:\n"
                      "    pass\n");
  return Py_FinalizeEx () < 0 ? 3 : 0;
}

static void
exit_flush (void)
{
  /* exit() called from C (ctypes, a library): what was printed first. */
  if (output.pending == NULL)
    return;
  fds_drain (0);
  fds_drain (1);
  output_flush ();
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  guint64 memory_limit = 0;
  gboolean prepare = FALSE;
  sigset_t mask;

  /* Dies with its parent (the app, or bubblewrap around it). */
  prctl (PR_SET_PDEATHSIG, SIGKILL);

  for (int i = 1; i < argc; i++)
    {
      if (g_str_has_prefix (argv[i], "--memory-limit="))
        memory_limit = g_ascii_strtoull (argv[i] + strlen ("--memory-limit="), NULL, 10);
      else if (g_str_equal (argv[i], "--prepare-font-cache"))
        prepare = TRUE;
      else if (g_str_equal (argv[i], "--version"))
        {
          printf ("viva-python-worker %s (Python %s)\n", PACKAGE_VERSION, PY_VERSION);
          return 0;
        }
    }

  if (prepare)
    {
      viva_worker_set_limits (memory_limit);
      return prepare_font_cache ();
    }

  if (fcntl (CHANNEL_FD, F_SETFD, FD_CLOEXEC) != 0)
    {
      fprintf (stderr, "viva-python-worker: this is a helper of Viva; it expects its channel on fd %d\n",
               CHANNEL_FD);
      return 2;
    }

  viva_worker_set_limits (memory_limit);

  output.pending = g_string_sized_new (FLUSH_SIZE);
  output.limit = 1 << 20;
  requests = g_async_queue_new_full ((GDestroyNotify) json_object_unref);
  run.main_thread = pthread_self ();

  fds.real_stderr = fcntl (STDERR_FILENO, F_DUPFD_CLOEXEC, CHANNEL_FD + 1);

  if (!start_python (&error))
    {
      fprintf (stderr, "viva-python-worker: %s\n", error->message);
      return 3;
    }

  /* Python's own sys.__stdout__ and sys.__stderr__ keep fds 1 and 2, and
   * so write into the pipes from now on. */
  if (!fds_redirect (&error))
    {
      fprintf (stderr, "viva-python-worker: %s\n", error->message);
      return 3;
    }

  /* Only the main thread takes SIGINT: that is where Python raises
   * KeyboardInterrupt. The helper threads inherit a mask without it. */
  sigemptyset (&mask);
  sigaddset (&mask, SIGINT);
  pthread_sigmask (SIG_BLOCK, &mask, NULL);
  g_thread_unref (g_thread_new ("watchdog", watchdog_thread, NULL));
  g_thread_unref (g_thread_new ("reader", reader_thread, NULL));
  g_thread_unref (g_thread_new ("fds", fds_thread, NULL));
  pthread_sigmask (SIG_UNBLOCK, &mask, NULL);

  /* After faulthandler (started by the boot module), so it runs second. */
  crash_handlers_install ();
  atexit (exit_flush);

  if (!viva_worker_forbid_processes (&error))
    dprintf (fds.real_stderr, "viva-python-worker: new processes stay allowed: %s\n", error->message);
  g_clear_error (&error);

  send_ready ();

  for (;;)
    {
      g_autoptr(JsonObject) request = NULL;
      const char *op;
      gint64 id;

      Py_BEGIN_ALLOW_THREADS
      request = g_async_queue_pop (requests);
      Py_END_ALLOW_THREADS

      op = json_object_get_string_member_with_default (request, "op", "");
      id = json_object_get_int_member_with_default (request, "id", 0);

      if (g_str_equal (op, "run") || g_str_equal (op, "inject") || g_str_equal (op, "check") ||
          g_str_equal (op, "call") || g_str_equal (op, "judge"))
        handle_code (request, op, id);
      else if (g_str_equal (op, "reset"))
        handle_reset (id);
    }

  return 0;
}
