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
 * at a time (this file: the _viva module, the requests, start-up); a reader
 * thread takes requests off the channel, so an "interrupt" is seen while
 * code runs, and a watchdog thread ends a run that passes its deadline and
 * sends buffered output every few milliseconds (viva-worker-run.c); the
 * last reads what reaches fds 1 and 2 (viva-worker-channel.c, which also
 * writes the channel). What is left at a crash is viva-worker-crash.c's,
 * the limits and the seccomp filter viva-worker-limits.c's. See DESIGN.md. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "config.h"

#include <fcntl.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "viva-worker-limits.h"
#include "viva-worker-private.h"
#include "viva-worker-resources.h"

#define CPU_SLACK_S       10

static GAsyncQueue *requests;
static PyObject    *boot;

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
  viva_worker_output_append (stream, PyBytes_AS_STRING (bytes), PyBytes_GET_SIZE (bytes));
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
  viva_worker_output_image (buffer.buf, buffer.len);
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
  viva_worker_fds_drain (0);
  viva_worker_fds_drain (1);
  viva_worker_output_flush ();
  Py_END_ALLOW_THREADS

  Py_RETURN_NONE;
}

/* viva-worker-pause.c */
G_GNUC_INTERNAL PyObject *viva_worker_py_frame_text (PyObject *module,
                                                     PyObject *args);

static PyMethodDef viva_py_methods[] = {
  { "write", viva_py_write, METH_VARARGS, NULL },
  { "frame_text", viva_worker_py_frame_text, METH_VARARGS, NULL },
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
    PyModule_AddIntConstant (module, "crash_fd",
                             viva_worker_fds.real_stderr >= 0 ? viva_worker_fds.real_stderr : STDERR_FILENO);
  return module;
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

  viva_worker_output_begin (id, limit);

  viva_worker_set_cpu_budget (timeout_ms / 1000 + CPU_SLACK_S);

  /* An interrupt that came too late for the last run (numpy does not
   * check for signals) must not end this one. */
  if (PyErr_CheckSignals () != 0)
    PyErr_Clear ();

  started = g_get_monotonic_time ();
  viva_worker_run_begin (id, timeout_ms);
  if (g_str_equal (op, "call") || g_str_equal (op, "judge"))
    {
      /* A structured test: its parts go to Python as the request's JSON. */
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, request);
      request_text = json_to_string (node, FALSE);
    }
  result = PyObject_CallMethod (boot, "execute", "ssss", op, code, probe,
                                request_text ? request_text : "{}");
  reason = viva_worker_run_end ();
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
  viva_worker_fds_drain (0);
  viva_worker_fds_drain (1);

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

  viva_worker_output_flush ();

  builder = viva_worker_event_new ("result", id);
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
      add_string (builder, "frame", description);
      add_int (builder, "line", description);
      add_int (builder, "column", description);
    }
  json_builder_end_object (builder);
  Py_XDECREF (description);
  viva_worker_channel_send (builder);
}

static void
handle_reset (gint64 id)
{
  g_autoptr(JsonBuilder) builder = NULL;
  PyObject *ok = PyObject_CallMethod (boot, "reset", NULL);

  if (ok == NULL)
    PyErr_WriteUnraisable (NULL);
  Py_XDECREF (ok);

  builder = viva_worker_event_new ("result", id);
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, ok ? "ok" : "error");
  json_builder_end_object (builder);
  viva_worker_channel_send (builder);
}

/* The barrier behind a result: the main thread answers it only once the
 * request before it has ended, so nothing the code wrote while it ran can
 * come after it (see viva-runner-worker.c). */
static void
handle_sync (gint64 id)
{
  g_autoptr(JsonBuilder) builder = viva_worker_event_new ("synced", id);

  json_builder_end_object (builder);
  viva_worker_channel_send (builder);
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
  g_autoptr(JsonBuilder) builder = viva_worker_event_new ("ready", 0);

  json_builder_set_member_name (builder, "python");
  json_builder_add_string_value (builder, PY_VERSION);
  json_builder_set_member_name (builder, "pid");
  json_builder_add_int_value (builder, getpid ());
  json_builder_end_object (builder);
  viva_worker_channel_send (builder);
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

  viva_worker_output_init ();
  requests = g_async_queue_new_full ((GDestroyNotify) json_object_unref);
  viva_worker_run_init ();

  viva_worker_fds.real_stderr = fcntl (STDERR_FILENO, F_DUPFD_CLOEXEC, CHANNEL_FD + 1);

  if (!start_python (&error))
    {
      fprintf (stderr, "viva-python-worker: %s\n", error->message);
      return 3;
    }

  /* Python's own sys.__stdout__ and sys.__stderr__ keep fds 1 and 2, and
   * so write into the pipes from now on. */
  if (!viva_worker_fds_redirect (&error))
    {
      fprintf (stderr, "viva-python-worker: %s\n", error->message);
      return 3;
    }

  /* Only the main thread takes SIGINT: that is where Python raises
   * KeyboardInterrupt. The helper threads inherit a mask without it. */
  sigemptyset (&mask);
  sigaddset (&mask, SIGINT);
  pthread_sigmask (SIG_BLOCK, &mask, NULL);
  g_thread_unref (g_thread_new ("watchdog", viva_worker_watchdog_thread, NULL));
  g_thread_unref (g_thread_new ("reader", viva_worker_reader_thread, requests));
  g_thread_unref (g_thread_new ("fds", viva_worker_fds_thread, NULL));
  viva_worker_pause_init ();
  g_thread_unref (g_thread_new ("pauser", viva_worker_pauser_thread, NULL));
  pthread_sigmask (SIG_UNBLOCK, &mask, NULL);

  /* After faulthandler (started by the boot module), so it runs second. */
  viva_worker_crash_handlers_install ();

  if (!viva_worker_forbid_processes (&error))
    dprintf (viva_worker_fds.real_stderr, "viva-python-worker: new processes stay allowed: %s\n", error->message);
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
      else if (g_str_equal (op, "sync"))
        handle_sync (id);
    }

  return 0;
}
