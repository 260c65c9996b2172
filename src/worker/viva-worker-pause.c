/* viva-worker-pause.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Pause: the pauser thread freezes the run and says where it stands.
 *
 * On a "pause" request the pauser takes the GIL (PyGILState_Ensure): the
 * main thread lets go of it within the switch interval in a pure-Python
 * loop, at once in a C call that released it (time.sleep), so every Python
 * thread of the program stops where it is. Holding it, the pauser reads the
 * main thread's frames through its PyThreadState -- no signal, no
 * sys._current_frames(), nothing the program can replace -- and describes
 * each as plain text (frame_describe), then keeps the GIL until Resume, an
 * interrupt (Stop) or the end of the process. Describing a value never runs
 * the program's code: only exact builtin types are shown by value, the rest
 * by type name, and the collector is off meanwhile so no finalizer runs on
 * this thread.
 *
 * The text is lines of tab-separated fields, flat, so the runner reads it
 * without recursion: "F file line function" for a frame, then one
 * "L name type repr" per local variable. The frame goes out as a `paused`
 * event with the request's token, which only the runner and this thread
 * know; a forged one cannot carry it. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "config.h"

#include "viva-worker-private.h"

#define MAX_FRAMES      24      /* innermost ones, of the student's files */
#define MAX_LOCALS      40
#define MAX_REPR        120     /* characters of one value */
#define MAX_ITEMS       8       /* of a list, tuple or dict shown by value */
#define MAX_DEPTH       2
#define SWITCH_INTERVAL_US 5000 /* CPython's default */

static PyThreadState *main_tstate;

static struct
{
  GMutex   lock;
  GCond    cond;
  gboolean requested;
  gint64   id;
  gint64   token;
} pausing;

static void
append_field (GString    *out,
              const char *text,
              gssize      max_chars)
{
  const char *p = text;
  gssize n = 0;

  /* Tabs and newlines would end the field: the runner splits on them. */
  for (; *p != '\0' && (max_chars < 0 || n < max_chars); p = g_utf8_next_char (p), n++)
    {
      if (*p == '\t' || *p == '\n' || *p == '\r')
        g_string_append_c (out, ' ');
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  if (*p != '\0')
    g_string_append (out, "…");
}

static void describe_value (GString *out, PyObject *value, int depth);

static void
describe_repr (GString  *out,
               PyObject *value)
{
  PyObject *repr = PyObject_Repr (value);
  const char *text;

  if (repr != NULL && (text = PyUnicode_AsUTF8 (repr)) != NULL)
    g_string_append (out, text);
  else
    g_string_append (out, "?");
  PyErr_Clear ();
  Py_XDECREF (repr);
}

static void
describe_items (GString    *out,
                PyObject  **items,
                Py_ssize_t  n,
                const char *open,
                const char *close,
                int         depth)
{
  g_string_append (out, open);
  for (Py_ssize_t i = 0; i < n && i < MAX_ITEMS; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      describe_value (out, items[i], depth + 1);
    }
  if (n > MAX_ITEMS)
    g_string_append_printf (out, ", … %zd more", n - MAX_ITEMS);
  else if (n == 1 && g_str_equal (open, "("))
    g_string_append_c (out, ',');
  g_string_append (out, close);
}

/* @value as a short text, without calling anything the program defined:
 * repr() only for exact builtin types whose repr is CPython's own. */
static void
describe_value (GString  *out,
                PyObject *value,
                int       depth)
{
  if (value == Py_None || PyBool_Check (value) || PyFloat_CheckExact (value) ||
      PyComplex_CheckExact (value))
    describe_repr (out, value);
  else if (PyLong_CheckExact (value))
    {
      int overflow;

      /* A huge int has more digits than a line, or than str() allows. */
      PyLong_AsLongLongAndOverflow (value, &overflow);
      if (overflow == 0)
        describe_repr (out, value);
      else
        g_string_append_printf (out, "<int of %zu bits>", (size_t) _PyLong_NumBits (value));
      PyErr_Clear ();
    }
  else if (PyUnicode_CheckExact (value) || PyBytes_CheckExact (value))
    {
      Py_ssize_t n = PyUnicode_CheckExact (value) ? PyUnicode_GetLength (value) : PyBytes_GET_SIZE (value);
      PyObject *head = PyUnicode_CheckExact (value) ? PyUnicode_Substring (value, 0, MIN (n, MAX_REPR))
                                                    : PyBytes_FromStringAndSize (PyBytes_AS_STRING (value), MIN (n, MAX_REPR));

      if (head != NULL)
        describe_repr (out, head);
      if (n > MAX_REPR)
        g_string_append (out, "…");
      PyErr_Clear ();
      Py_XDECREF (head);
    }
  else if (depth < MAX_DEPTH && PyList_CheckExact (value))
    describe_items (out, PySequence_Fast_ITEMS (value), PyList_GET_SIZE (value), "[", "]", depth);
  else if (depth < MAX_DEPTH && PyTuple_CheckExact (value))
    describe_items (out, PySequence_Fast_ITEMS (value), PyTuple_GET_SIZE (value), "(", ")", depth);
  else if (depth < MAX_DEPTH && PyDict_CheckExact (value))
    {
      Py_ssize_t pos = 0, i = 0;
      PyObject *key, *item;

      g_string_append_c (out, '{');
      while (PyDict_Next (value, &pos, &key, &item) && i < MAX_ITEMS)
        {
          if (i++ > 0)
            g_string_append (out, ", ");
          describe_value (out, key, depth + 1);
          g_string_append (out, ": ");
          describe_value (out, item, depth + 1);
        }
      if (PyDict_GET_SIZE (value) > MAX_ITEMS)
        g_string_append_printf (out, ", … %zd more", PyDict_GET_SIZE (value) - MAX_ITEMS);
      g_string_append_c (out, '}');
    }
  else if (PyList_CheckExact (value) || PyTuple_CheckExact (value) || PyDict_CheckExact (value) ||
           PyAnySet_CheckExact (value))
    g_string_append_printf (out, "<%s of %zd items>", Py_TYPE (value)->tp_name, PyObject_Length (value));
  else if (PyFunction_Check (value))
    {
      PyCodeObject *code = (PyCodeObject *) PyFunction_GET_CODE (value);
      const char *name = PyUnicode_Check (code->co_name) ? PyUnicode_AsUTF8 (code->co_name) : NULL;

      g_string_append_printf (out, "<function %s>", name ? name : "?");
      PyErr_Clear ();
    }
  else if (PyModule_CheckExact (value))
    {
      const char *name = PyModule_GetName (value);

      g_string_append_printf (out, "<module %s>", name ? name : "?");
      PyErr_Clear ();
    }
  else if (PyType_Check (value))
    g_string_append_printf (out, "<class %s>", ((PyTypeObject *) value)->tp_name);
  else
    g_string_append_printf (out, "<%s object>", Py_TYPE (value)->tp_name);
}

static gboolean
is_student_file (PyCodeObject *code)
{
  const char *file = PyUnicode_Check (code->co_filename) ? PyUnicode_AsUTF8 (code->co_filename) : NULL;

  PyErr_Clear ();
  return file != NULL && (g_str_equal (file, "<code>") || g_str_equal (file, "<test>"));
}

/* One frame and its local variables, as the lines described above. */
static void
frame_describe (GString       *out,
                PyFrameObject *frame)
{
  PyCodeObject *code = PyFrame_GetCode (frame);
  const char *file = PyUnicode_AsUTF8 (code->co_filename);
  const char *name = PyUnicode_AsUTF8 (code->co_name);
  PyObject *locals;
  guint n = 0;

  PyErr_Clear ();
  g_string_append (out, "F\t");
  append_field (out, file ? file : "?", 200);
  g_string_append_printf (out, "\t%d\t", PyFrame_GetLineNumber (frame));
  append_field (out, name ? name : "?", 200);
  g_string_append_c (out, '\n');
  Py_DECREF (code);

  locals = PyFrame_GetLocals (frame);
  /* A mapping of the program's own would run its code: only a dict is read,
   * through its storage. */
  if (locals != NULL && PyDict_Check (locals))
    {
      Py_ssize_t pos = 0;
      PyObject *key, *value;

      while (PyDict_Next (locals, &pos, &key, &value) && n < MAX_LOCALS)
        {
          g_autoptr(GString) repr = g_string_new (NULL);
          const char *key_text;

          if (!PyUnicode_CheckExact (key) || !(key_text = PyUnicode_AsUTF8 (key)))
            {
              PyErr_Clear ();
              continue;
            }
          /* A module's own names (__name__, __builtins__) say nothing. */
          if (g_str_has_prefix (key_text, "__") && g_str_has_suffix (key_text, "__"))
            continue;
          describe_value (repr, value, 0);
          g_string_append (out, "L\t");
          append_field (out, key_text, 100);
          g_string_append_c (out, '\t');
          append_field (out, Py_TYPE (value)->tp_name, 100);
          g_string_append_c (out, '\t');
          append_field (out, repr->str, MAX_REPR);
          g_string_append_c (out, '\n');
          n++;
        }
    }
  PyErr_Clear ();
  Py_XDECREF (locals);
}

G_GNUC_INTERNAL PyObject *viva_worker_py_frame_text (PyObject *module,
                                                     PyObject *args);

/* _viva.frame_text(frame): the frame where an exception happened, for
 * Explain this error. The program may replace this; what it says is then
 * only the program's own account, like any run's output. */
PyObject *
viva_worker_py_frame_text (PyObject *module,
                           PyObject *args)
{
  g_autoptr(GString) out = g_string_new (NULL);
  PyObject *frame;
  int was_enabled;

  if (!PyArg_ParseTuple (args, "O!", &PyFrame_Type, &frame))
    return NULL;

  was_enabled = PyGC_Disable ();
  frame_describe (out, (PyFrameObject *) frame);
  if (was_enabled)
    PyGC_Enable ();

  return PyUnicode_FromStringAndSize (out->str, out->len);
}

/* The main thread's stack, innermost first, student frames only. */
static void
send_paused (gint64 id,
             gint64 token)
{
  g_autoptr(JsonBuilder) builder = viva_worker_event_new ("paused", id);
  g_autoptr(GString) stack = g_string_new (NULL);
  PyFrameObject *frame = PyThreadState_GetFrame (main_tstate);
  guint shown = 0, depth = 0;
  int line = 0;
  int was_enabled = PyGC_Disable ();

  while (frame != NULL)
    {
      PyCodeObject *code = PyFrame_GetCode (frame);
      PyFrameObject *back;

      if (is_student_file (code))
        {
          if (shown < MAX_FRAMES)
            {
              if (shown == 0)
                line = PyFrame_GetLineNumber (frame);
              frame_describe (stack, frame);
              shown++;
            }
          depth++;
        }
      Py_DECREF (code);
      back = PyFrame_GetBack (frame);
      Py_DECREF (frame);
      frame = back;
    }
  if (was_enabled)
    PyGC_Enable ();

  json_builder_set_member_name (builder, "token");
  json_builder_add_int_value (builder, token);
  json_builder_set_member_name (builder, "line");
  json_builder_add_int_value (builder, line);
  json_builder_set_member_name (builder, "depth");
  json_builder_add_int_value (builder, depth);
  json_builder_set_member_name (builder, "stack");
  json_builder_add_string_value (builder, stack->str);
  json_builder_end_object (builder);
  viva_worker_channel_send (builder);
}

gpointer
viva_worker_pauser_thread (gpointer data)
{
  g_mutex_lock (&pausing.lock);

  for (;;)
    {
      PyGILState_STATE gil;
      gint64 id, token;
      unsigned long interval G_GNUC_UNUSED = 0;

      while (!pausing.requested)
        g_cond_wait (&pausing.cond, &pausing.lock);
      id = pausing.id;
      token = pausing.token;
      g_mutex_unlock (&pausing.lock);

#if PY_VERSION_HEX < 0x030C0000
      /* The program may have set a switch interval of minutes
       * (sys.setswitchinterval), and a waiter asks for the GIL only after
       * one: the pause asks after CPython's default, and the program's own
       * comes back with the resume. In 3.11 the interval is the runtime's,
       * set without a thread state; 3.12 keeps it per interpreter. */
      interval = _PyEval_GetSwitchInterval ();
      _PyEval_SetSwitchInterval (MIN (interval, SWITCH_INTERVAL_US));
#endif
      gil = PyGILState_Ensure ();
#if PY_VERSION_HEX < 0x030C0000
      _PyEval_SetSwitchInterval (interval);
#endif

      /* The run may have ended, or been resumed or stopped, while the GIL
       * was on its way: the main thread sets the run inactive only while it
       * holds the GIL, so what is seen now stays true until it is released. */
      g_mutex_lock (&pausing.lock);
      if (pausing.requested && pausing.token == token && viva_worker_run_pause_begin (id))
        {
          g_mutex_unlock (&pausing.lock);
          send_paused (id, token);
          g_mutex_lock (&pausing.lock);
          /* Until this pause is released: a new one has a token of its own. */
          while (pausing.requested && pausing.token == token)
            g_cond_wait (&pausing.cond, &pausing.lock);
          viva_worker_run_pause_end ();
        }
      if (pausing.token == token)
        pausing.requested = FALSE;
      g_mutex_unlock (&pausing.lock);

      PyGILState_Release (gil);
      g_mutex_lock (&pausing.lock);
    }

  return NULL;
}

/* Reader thread: a "pause" request for run @id. */
void
viva_worker_pause_request (gint64 id,
                           gint64 token)
{
  g_mutex_lock (&pausing.lock);
  if (!pausing.requested)
    {
      pausing.requested = TRUE;
      pausing.id = id;
      pausing.token = token;
      g_cond_broadcast (&pausing.cond);
    }
  g_mutex_unlock (&pausing.lock);
}

/* Reader thread: "resume", or an interrupt (Stop), for run @id. */
void
viva_worker_pause_release (gint64 id)
{
  g_mutex_lock (&pausing.lock);
  if (pausing.requested && pausing.id == id)
    {
      pausing.requested = FALSE;
      g_cond_broadcast (&pausing.cond);
    }
  g_mutex_unlock (&pausing.lock);
}

/* Main thread, holding the GIL, before any student code runs. */
void
viva_worker_pause_init (void)
{
  main_tstate = PyThreadState_Get ();
}
