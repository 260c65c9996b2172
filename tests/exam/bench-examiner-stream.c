/* bench-examiner-stream.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <time.h>

#include "viva-chat-reply-private.h"
#include "viva-core.h"
#include "viva-examiner.h"
#include "viva-runner.h"
#include "viva-test-util.h"

/* The examiner's CPU per streamed delta, at replies of 1k, 10k and 100k
 * characters: a model in this process streams one long reply in deltas of
 * four bytes (as a fast server does), and the main thread's CPU time over
 * the deltas is what the examiner (the leak guard, the delta signal) spent
 * on them (the first delta, which makes the guard once a defense, is
 * counted apart). The reply is prose about the code with short quotes of the
 * reference, so the guard's automaton is busy, and one real leak that is
 * withheld. The sizes are run interleaved, round after round, so their
 * ratios are taken side by side. The work per delta must not grow with
 * the reply: the 100k figure within 1.2 times the 1k one. */

#define N_ROUNDS 7
#define DELTA_BYTES 4

static const char *reference =
  "import math\n\n\n"
  "def kmeans(points, k, max_iters=100):\n"
  "    centroids = [tuple(p) for p in points[:k]]\n"
  "    labels = [0] * len(points)\n"
  "    for _ in range(max_iters):\n"
  "        changed = False\n"
  "        for i, p in enumerate(points):\n"
  "            best = min(range(k), key=lambda c: math.dist(p, centroids[c]))\n"
  "            if best != labels[i]:\n"
  "                labels[i] = best\n"
  "                changed = True\n"
  "        for c in range(k):\n"
  "            members = [p for p, l in zip(points, labels) if l == c]\n"
  "            if members:\n"
  "                centroids[c] = tuple(sum(x) / len(members) for x in zip(*members))\n"
  "        if not changed:\n"
  "            break\n"
  "    return centroids, labels\n";

static const char *prose =
  "Your loop recomputes each distance with math.dist and then takes the min over range(k); "
  "why do you keep the labels in a list, and what happens when two centroids tie? If members is "
  "empty, what does your code do with that centroid? ";

#define BENCH_TYPE_MODEL (bench_model_get_type ())
G_DECLARE_FINAL_TYPE (BenchModel, bench_model, BENCH, MODEL, GObject)

struct _BenchModel
{
  GObject parent_instance;
  gsize   size;
  guint   calls;
  double  first_ms;   /* the first delta, which makes the guard */
  double  cpu_ms;     /* over the long reply's other deltas */
  guint   n_deltas;
};

static void bench_model_iface_init (VivaChatModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchModel, bench_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_CHAT_MODEL, bench_model_iface_init))

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static char *
long_reply (gsize size)
{
  GString *out = g_string_sized_new (size + 256);
  gsize leak_at = size / 2;

  while (out->len < size)
    {
      if (leak_at != 0 && out->len >= leak_at)
        {
          /* One real leak, halfway. */
          g_string_append (out, "Compare with: for c in range(k):\n            members = [p for p, l in "
                                "zip(points, labels) if l == c]\n");
          leak_at = 0;
        }
      g_string_append (out, prose);
    }
  g_string_truncate (out, size);

  return g_string_free (out, FALSE);
}

/* The first reply is the long one, with a message; then two replies
 * without a tool call end the defense as incomplete. */
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

  if (self->calls++ == 0)
    {
      g_autofree char *text = long_reply (self->size);
      gsize length = strlen (text);
      double start = thread_cpu_ms ();

      for (gsize at = 0; at < length; at += DELTA_BYTES)
        {
          g_autofree char *piece = g_strndup (text + at, MIN (DELTA_BYTES, length - at));
          VivaChatDelta delta = { VIVA_CHAT_DELTA_CONTENT, piece, 0, NULL, NULL, NULL };

          viva_chat_model_emit_delta (model, request, &delta);
          if (at == 0)
            {
              self->first_ms = thread_cpu_ms () - start;
              start = thread_cpu_ms ();
            }
          else
            self->n_deltas++;
        }
      self->cpu_ms = thread_cpu_ms () - start;

      viva_chat_reply_take_content (reply, g_steal_pointer (&text));
      viva_chat_reply_add_tool_call (reply, viva_tool_call_new ("call_1", "message", "{\"text\": \"Next.\"}"));
      viva_chat_reply_set_finish_reason (reply, "tool_calls");
    }
  else
    {
      viva_chat_reply_take_content (reply, g_strdup ("Nothing more."));
      viva_chat_reply_set_finish_reason (reply, "stop");
    }

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

static void
count_shown (VivaExaminer        *examiner,
             const VivaChatDelta *delta,
             gsize               *shown)
{
  if (delta->kind == VIVA_CHAT_DELTA_CONTENT && delta->text != NULL)
    *shown += strlen (delta->text);
}

static double first_us;

/* Returns: the examiner's microseconds of CPU per delta of one reply of
 * @size characters, after the first (first_us gets that one). */
static double
one_reply (VivaRunner *runner,
           gsize       size)
{
  g_autoptr(VivaProblem) problem = viva_problem_new ("kmeans", "K-Means");
  g_autoptr(VivaTextCodeSource) source = viva_text_code_source_new ("def kmeans(points, k):\n    return [], []\n");
  g_autoptr(BenchModel) model = g_object_new (BENCH_TYPE_MODEL, NULL);
  g_autoptr(VivaExaminer) examiner = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  gsize shown = 0;

  model->size = size;
  viva_problem_set_description (problem, "Implement k-means clustering from scratch.");
  viva_problem_set_reference (problem, reference);
  viva_problem_add_structured_test (problem, "two clusters", "points = [(0, 0), (0, 1), (9, 9), (9, 8)]\n",
                                    "kmeans(points, 2)", "assert sorted(set(result[1])) == [0, 1], 'two clusters'",
                                    FALSE, 0);
  examiner = viva_examiner_new (VIVA_CHAT_MODEL (model), problem, VIVA_CODE_SOURCE (source));
  viva_examiner_set_runner (examiner, runner);
  g_signal_connect (examiner, "delta", G_CALLBACK (count_shown), &shown);

  viva_examiner_run_async (examiner, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  verdict = viva_examiner_run_finish (examiner, result, &error);
  g_assert_no_error (error);
  /* The leak was withheld, and the rest shown. */
  g_assert_cmpuint (viva_examiner_get_n_withheld (examiner), ==, 1);
  g_assert_cmpuint (shown, >, size / 2);

  first_us = model->first_ms * 1000.0;
  return model->cpu_ms * 1000.0 / model->n_deltas;
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

int
main (int   argc,
      char *argv[])
{
  const gsize sizes[] = { 1000, 10000, 100000 };
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  GArray *per_delta[G_N_ELEMENTS (sizes)];
  g_autoptr(GArray) firsts = g_array_new (FALSE, FALSE, sizeof (double));
  double medians[G_N_ELEMENTS (sizes)];

  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    per_delta[s] = g_array_new (FALSE, FALSE, sizeof (double));

  /* A warm-up round, not counted. */
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    one_reply (runner, sizes[s]);

  for (guint round = 0; round < N_ROUNDS; round++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        double us = one_reply (runner, sizes[s]);

        g_array_append_val (per_delta[s], us);
        g_array_append_val (firsts, first_us);
      }

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      medians[s] = median (per_delta[s]);
      g_print ("examiner stream: reply of %" G_GSIZE_FORMAT " characters in %u-byte deltas: "
               "median %.2f us of CPU per delta (min %.2f, max %.2f, %u rounds)\n",
               sizes[s], DELTA_BYTES, medians[s], g_array_index (per_delta[s], double, 0),
               g_array_index (per_delta[s], double, per_delta[s]->len - 1), N_ROUNDS);
    }
  g_print ("examiner stream: per delta, 10k / 1k = %.2f, 100k / 1k = %.2f (goal: at most 1.2)\n",
           medians[1] / medians[0], medians[2] / medians[0]);
  g_print ("examiner stream: the first delta of a defense, which makes the leak guard: median %.0f us\n",
           median (firsts));

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    g_array_unref (per_delta[s]);
  viva_runner_stop (runner);

  return 0;
}
