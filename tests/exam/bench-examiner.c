/* bench-examiner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <time.h>

#include "viva-chat-reply-private.h"
#include "viva-core.h"
#include "viva-examiner-private.h"
#include "viva-test-util.h"

/* Engine overhead of a 30-step defense against an instant in-process
 * model, excluding Python (the tools used, message and readStudentCode,
 * never reach the worker; the clock starts at the first model call, after
 * the worker was primed). Then the same with a session, and the checkpoint
 * of that 30-step session: its size and the time to write it. */

#define N_RUNS 15

#define BENCH_TYPE_MODEL (bench_model_get_type ())
G_DECLARE_FINAL_TYPE (BenchModel, bench_model, BENCH, MODEL, GObject)

struct _BenchModel
{
  GObject parent_instance;
  guint   calls;
  gint64  first_call;
};

static void bench_model_iface_init (VivaChatModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchModel, bench_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_CHAT_MODEL, bench_model_iface_init))

static void
bench_model_stream_async (VivaChatModel       *model,
                          VivaChatRequest     *request,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  BenchModel *self = BENCH_MODEL (model);
  g_autoptr(GTask) task = g_task_new (model, cancellable, callback, user_data);
  g_autoptr(VivaChatReply) reply = viva_chat_reply_new ();
  g_autofree char *id = g_strdup_printf ("call_%u", self->calls);
  g_autofree char *arguments = NULL;
  VivaChatDelta delta = { VIVA_CHAT_DELTA_CONTENT, "Next step.", 0, NULL, NULL, NULL };
  const char *name;

  if (self->calls++ == 0)
    self->first_call = g_get_monotonic_time ();

  if (self->calls % 5 == 0)
    {
      name = "readStudentCode";
      arguments = g_strdup ("{}");
    }
  else
    {
      name = "message";
      arguments = g_strdup_printf ("{\"text\": \"Observation %u: the loop over the points recomputes "
                                   "each distance; consider what happens when two centroids tie.\"}",
                                   self->calls);
    }

  viva_chat_model_emit_delta (model, request, &delta);
  viva_chat_reply_take_content (reply, g_strdup ("Next step."));
  viva_chat_reply_add_tool_call (reply, viva_tool_call_new (id, name, arguments));
  viva_chat_reply_set_finish_reason (reply, "tool_calls");
  g_task_return_pointer (task, g_steal_pointer (&reply), (GDestroyNotify)viva_chat_reply_unref);
}

static VivaChatReply *
bench_model_stream_finish (VivaChatModel  *model,
                           GAsyncResult   *result,
                           GError        **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
bench_model_iface_init (VivaChatModelInterface *iface)
{
  iface->stream_async = bench_model_stream_async;
  iface->stream_finish = bench_model_stream_finish;
}

static void
bench_model_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  /* VivaChatModel:busy: an instant model never is. */
  g_value_set_boolean (value, FALSE);
}

static void
bench_model_class_init (BenchModelClass *klass)
{
  G_OBJECT_CLASS (klass)->get_property = bench_model_get_property;
  g_object_class_override_property (G_OBJECT_CLASS (klass), 1, "busy");
}

static void
bench_model_init (BenchModel *self)
{
}


static char *
student_code (void)
{
  g_autoptr(GString) code = g_string_new ("import random\n\n\ndef kmeans(points, k, max_iters=100, seed=0):\n");

  for (guint i = 0; i < 56; i++)
    g_string_append_printf (code, "    step_%02u = [p for p in points if p]  # line %u of the student's work\n", i, i);
  g_string_append (code, "    return [], []\n");

  return g_string_free (g_steal_pointer (&code), FALSE);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len / 2);
}

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static double last_cpu_ms;

/* Returns the engine's milliseconds from the first model call to the end;
 * last_cpu_ms gets the main thread's CPU time over the whole defense. */
static double
one_defense (VivaRunner      *runner,
             VivaExamSession *session,
             VivaExaminer   **out)
{
  double cpu_start;
  g_autoptr(VivaProblem) problem = viva_problem_new ("kmeans", "K-Means");
  g_autofree char *code = student_code ();
  g_autoptr(VivaTextCodeSource) source = viva_text_code_source_new (code);
  g_autoptr(BenchModel) model = g_object_new (BENCH_TYPE_MODEL, NULL);
  g_autoptr(VivaExaminer) examiner = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  gint64 end;

  viva_problem_set_description (problem, "Implement k-means clustering from scratch.");
  examiner = viva_examiner_new (VIVA_CHAT_MODEL (model), problem, VIVA_CODE_SOURCE (source));
  viva_examiner_set_runner (examiner, runner);
  if (session != NULL)
    viva_examiner_set_session (examiner, session);

  cpu_start = thread_cpu_ms ();
  viva_examiner_run_async (examiner, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  end = g_get_monotonic_time ();
  last_cpu_ms = thread_cpu_ms () - cpu_start;
  verdict = viva_examiner_run_finish (examiner, result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_INCOMPLETE);
  g_assert_cmpuint (viva_examiner_get_n_steps (examiner), ==, 30);

  if (out != NULL)
    *out = g_steal_pointer (&examiner);

  return (end - model->first_call) / 1000.0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_autoptr(GArray) bare = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) with_session = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) session_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) serialise = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) write = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(VivaExaminer) examiner = NULL;
  g_autoptr(VivaExamSession) session = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *dir = g_dir_make_tmp ("viva-bench-exam-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *scratch = NULL;
  gsize size;

  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  for (guint i = 0; i < N_RUNS; i++)
    {
      double ms = one_defense (runner, NULL, NULL);
      g_array_append_val (bare, ms);
    }

  for (guint i = 0; i < N_RUNS; i++)
    {
      g_autoptr(VivaExamSession) each = viva_exam_session_new (dir);
      double ms = one_defense (runner, each, NULL);

      g_array_append_val (with_session, ms);
      g_array_append_val (session_cpu, last_cpu_ms);
    }

  session = viva_exam_session_new (dir);
  one_defense (runner, session, &examiner);
  viva_exam_session_flush_async (session, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_exam_session_flush_finish (session, result, NULL));

  path = g_build_filename (viva_exam_session_get_dir (session), "checkpoint.json", NULL);
  g_assert_true (g_file_get_contents (path, &text, &size, NULL));
  scratch = g_build_filename (dir, "scratch.json", NULL);

  /* The main thread's share: building and serialising the checkpoint. */
  for (guint i = 0; i < 50; i++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(JsonNode) node = _viva_examiner_to_checkpoint (examiner);
      g_autofree char *serialised = json_to_string (node, TRUE);
      double ms = (g_get_monotonic_time () - start) / 1000.0;

      g_array_append_val (serialise, ms);
    }

  /* The writer thread's share: temp file, fsync, rename. */
  for (guint i = 0; i < 30; i++)
    {
      gint64 start = g_get_monotonic_time ();
      double ms;

      g_assert_true (g_file_set_contents_full (scratch, text, size,
                                               G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                               0600, NULL));
      ms = (g_get_monotonic_time () - start) / 1000.0;
      g_array_append_val (write, ms);
    }

  g_print ("examiner: 30-step defense, instant model, engine only: median %.2f ms (goal < 20 ms)\n", median (bare));
  g_print ("examiner: same with a session (checkpoint + trace per step): median %.2f ms wall, "
           "%.2f ms of main-thread CPU (priming included); writes on the writer thread\n",
           median (with_session), median (session_cpu));
  g_print ("examiner: checkpoint of the 30-step session: %" G_GSIZE_FORMAT " bytes; build+serialise %.2f ms "
           "(main thread), write+fsync+rename %.2f ms (writer thread), medians\n",
           size, median (serialise), median (write));

  viva_runner_stop (runner);
  g_unlink (scratch);
  return 0;
}
