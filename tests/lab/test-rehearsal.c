/* test-rehearsal.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-core.h"
#include "viva-model-error.h"
#include "viva-openai-model.h"
#include "viva-scripted-student.h"
#include "viva-pack.h"
#include "viva-rehearsal.h"
#include "viva-test-examiner.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

/* The rehearsal against the test server playing a lab's model server:
 * vLLM's stream shape, four streams at once and a queue behind them, real
 * workers. What an admin reads is asserted: every defense completed and
 * the figures are there, a server that turns the first requests away still
 * holds the class, an unreachable one is said before any student starts,
 * one that fails half-way gives failures with the server's reason and "did
 * not hold", an interrupted one reports what finished. */

typedef struct
{
  VivaTestServer   *server;
  VivaTestExaminer  examiner;
  char             *base_url;
  GPtrArray        *events;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->server = viva_test_server_new ();
  fixture->base_url = viva_test_server_get_base_url (fixture->server);
  fixture->examiner.first_token_ms = 20;
  fixture->examiner.token_ms = 2;
  viva_test_examiner_serve (&fixture->examiner, fixture->server);
  viva_test_server_set_capacity (fixture->server, 4, 64);
  fixture->events = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_finalize_object (g_steal_pointer (&fixture->server));
  g_clear_pointer (&fixture->base_url, g_free);
  g_clear_pointer (&fixture->events, g_ptr_array_unref);
}

static void
on_defense (VivaRehearsal *rehearsal,
            JsonObject    *event,
            Fixture       *fixture)
{
  g_ptr_array_add (fixture->events, json_object_ref (event));
}


static VivaRehearsal *
rehearsal_new (Fixture    *fixture,
               const char *base_url,
               const char *model,
               guint       n_students)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  VivaRehearsal *rehearsal = viva_rehearsal_new (base_url, model, n_students);

  viva_rehearsal_add_problem (rehearsal, viva_pack_find_problem (pack, "kmeans"));
  viva_rehearsal_add_problem (rehearsal, viva_pack_find_problem (pack, "knn"));
  viva_rehearsal_set_retry_delay (rehearsal, 20);
  g_signal_connect (rehearsal, "defense", G_CALLBACK (on_defense), fixture);
  return rehearsal;
}

static JsonObject *
run (VivaRehearsal  *rehearsal,
     GCancellable   *cancellable,
     GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  viva_rehearsal_run_async (rehearsal, cancellable, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  return viva_rehearsal_run_finish (rehearsal, result, error);
}

static double
p (JsonObject *object,
   const char *member,
   const char *which)
{
  return json_object_get_double_member (json_object_get_object_member (object, member), which);
}

static void
assert_figures (JsonObject *summary)
{
  g_assert_cmpfloat (p (summary, "ttft_ms", "p50"), >, 0);
  g_assert_cmpfloat (p (summary, "ttft_ms", "p95"), >=, p (summary, "ttft_ms", "p50"));
  g_assert_cmpfloat (p (summary, "turn_ms", "p50"), >=, p (summary, "ttft_ms", "p50"));
  g_assert_cmpfloat (p (summary, "defense_s", "p50"), >, 0);
  g_assert_cmpfloat (p (summary, "defense_s", "p95"), >=, p (summary, "defense_s", "p50"));
  g_assert_cmpfloat (json_object_get_double_member (summary, "tokens_per_s"), >, 0);
}

static void
test_sixteen (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(VivaRehearsal) rehearsal = rehearsal_new (fixture, fixture->base_url, "lab-model", 16);
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;
  guint buggy = 0;

  summary = run (rehearsal, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpint (json_object_get_int_member (summary, "students"), ==, 16);
  g_assert_cmpint (json_object_get_int_member (summary, "completed"), ==, 16);
  g_assert_cmpint (json_object_get_int_member (summary, "failed"), ==, 0);
  g_assert_true (json_object_get_boolean_member (summary, "held"));
  g_assert_false (json_object_get_boolean_member (summary, "interrupted"));
  assert_figures (summary);
  /* Six replies a defense (the plan's two questions among them) and three
   * scorings of its conceptual answer; the prompt as the server counted it. */
  g_assert_cmpint (json_object_get_int_member (summary, "turns"), ==, 16 * (6 + 3));
  g_assert_cmpint (json_object_get_int_member (summary, "largest_prompt_tokens"), ==, 2400);
  g_assert_cmpint (json_object_get_int_member (summary, "retries"), ==, 0);
  /* Two problems, two codes each, one reference worker each. */
  g_assert_cmpint (json_object_get_int_member (summary, "workers"), ==, 6);

  /* The server was full: four streams at a time, the rest queued. */
  g_assert_cmpuint (viva_test_server_get_peak_streams (fixture->server), ==, 4);
  g_assert_cmpuint (viva_test_server_get_n_turned_away (fixture->server), ==, 0);

  g_assert_cmpuint (fixture->events->len, ==, 16);
  for (guint i = 0; i < fixture->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (fixture->events, i);

      g_assert_cmpstr (json_object_get_string_member (event, "status"), ==, "completed");
      g_assert_cmpstr (json_object_get_string_member (event, "verdict"), ==, "pass");
      g_assert_cmpint (json_object_get_int_member (event, "turns"), ==, 6 + 3);
      g_assert_cmpfloat (p (event, "ttft_ms", "p50"), >, 0);
      buggy += g_str_equal (json_object_get_string_member (event, "variant"), "buggy");
    }
  /* Every third student of a problem submits a buggy variant. */
  g_assert_cmpuint (buggy, ==, 4);
}

/* Ollama turns the first sixteen requests away with its 503: every
 * client waits (busy) and tries again, and the class is held. */
static void
test_busy_first (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(VivaRehearsal) rehearsal = rehearsal_new (fixture, fixture->base_url, "lab-model", 16);
  g_autoptr(VivaTestResponse) busy = viva_test_response_new_busy (503, 1);
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 16; i++)
    viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", busy);

  summary = run (rehearsal, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (summary, "completed"), ==, 16);
  g_assert_true (json_object_get_boolean_member (summary, "held"));
  g_assert_cmpint (json_object_get_int_member (summary, "retries"), ==, 16);
  /* Retry-After: 1 is in the time to first token. */
  g_assert_cmpfloat (p (summary, "ttft_ms", "p95"), >=, 1000);
  assert_figures (summary);
}

static void
test_unreachable (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *url = viva_test_get_unused_url ();
  g_autoptr(VivaRehearsal) rehearsal = rehearsal_new (fixture, url, "lab-model", 16);
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;

  summary = run (rehearsal, NULL, &error);
  g_assert_null (summary);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING);
  g_assert_nonnull (strstr (error->message, url));
  g_assert_cmpuint (fixture->events->len, ==, 0);
  g_assert_cmpuint (viva_rehearsal_get_n_workers (rehearsal), ==, 0);
}

static void
test_wrong_model (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaRehearsal) rehearsal = rehearsal_new (fixture, fixture->base_url, "qwen3:14b", 16);
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;

  summary = run (rehearsal, NULL, &error);
  g_assert_null (summary);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_MODEL_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "has no model “qwen3:14b” — it has: lab-model"));
  g_assert_cmpuint (fixture->events->len, ==, 0);
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 0);
}

/* The server breaks after 30 replies: failures with the server's reason,
 * the rehearsal still ends with figures, and says the server did not
 * hold the class. */
static void
test_half_failing (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(VivaRehearsal) rehearsal = rehearsal_new (fixture, fixture->base_url, "lab-model", 16);
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *failures;
  JsonObject *failure;

  fixture->examiner.fail_after = 30;
  summary = run (rehearsal, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpint (json_object_get_int_member (summary, "failed"), >, 0);
  g_assert_cmpint (json_object_get_int_member (summary, "completed") + json_object_get_int_member (summary, "failed"),
                   ==, 16);
  g_assert_false (json_object_get_boolean_member (summary, "held"));
  failures = json_object_get_array_member (summary, "failures");
  g_assert_cmpuint (json_array_get_length (failures), ==, 1);
  failure = json_array_get_object_element (failures, 0);
  g_assert_nonnull (strstr (json_object_get_string_member (failure, "reason"), "CUDA error: out of memory"));
  g_assert_cmpstr (json_object_get_string_member (failure, "kind"), ==, "server");
  g_assert_cmpint (json_object_get_int_member (failure, "count"), ==, json_object_get_int_member (summary, "failed"));
  g_assert_cmpfloat (p (summary, "ttft_ms", "p50"), >, 0);
  g_assert_cmpuint (fixture->events->len, ==, 16);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
on_first_defense_cancel (VivaRehearsal *rehearsal,
                         JsonObject    *event,
                         GCancellable  *cancellable)
{
  g_idle_add_full (G_PRIORITY_HIGH, cancel_cb, g_object_ref (cancellable), g_object_unref);
  g_signal_handlers_disconnect_by_func (rehearsal, on_first_defense_cancel, cancellable);
}

/* Interrupted once the first defense finished: the rest stop, and the
 * report has what finished. */
static void
test_interrupted (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaRehearsal) rehearsal = rehearsal_new (fixture, fixture->base_url, "lab-model", 16);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;

  fixture->examiner.token_ms = 20;
  g_signal_connect (rehearsal, "defense", G_CALLBACK (on_first_defense_cancel), cancellable);
  summary = run (rehearsal, cancellable, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (summary, "interrupted"));
  g_assert_false (json_object_get_boolean_member (summary, "held"));
  g_assert_cmpint (json_object_get_int_member (summary, "completed"), >=, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "cancelled"), >, 0);
  g_assert_cmpint (json_object_get_int_member (summary, "completed") +
                   json_object_get_int_member (summary, "cancelled") +
                   json_object_get_int_member (summary, "failed"), ==, 16);
}

typedef struct
{
  VivaExamSession *session;
  gboolean         checked;
} BusyCheck;

/* While the client waits, the checkpoint on disk is the one written before
 * the request: a crash or a restart then resumes the defense there. */
static void
on_busy_check_checkpoint (VivaOpenAIModel *model,
                          GParamSpec      *pspec,
                          BusyCheck       *check)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *checkpoint;

  if (!viva_openai_model_get_busy (model) || check->checked)
    return;

  /* The writer thread may still hold it: wait for what was queued. */
  {
    g_autoptr(GAsyncResult) flushed = NULL;

    viva_exam_session_flush_async (check->session, NULL, viva_test_store_result, &flushed);
    viva_test_run_until_result (&flushed);
    g_assert_true (viva_exam_session_flush_finish (check->session, flushed, &error));
  }

  path = g_build_filename (viva_exam_session_get_dir (check->session), "checkpoint.json", NULL);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  node = json_from_string (text, &error);
  g_assert_no_error (error);
  checkpoint = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (checkpoint, "phase"), ==, "model");
  g_assert_cmpstr (json_object_get_string_member (checkpoint, "state"), ==, "thinking");
  check->checked = TRUE;
}

static void
test_busy_keeps_checkpoint (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  VivaProblem *problem = viva_pack_find_problem (pack, "kmeans");
  g_autoptr(VivaScriptedStudent) student = viva_scripted_student_new (problem, VIVA_STUDENT_VARIANT_REFERENCE);
  g_autoptr(VivaOpenAIModel) model = viva_openai_model_new (fixture->base_url);
  g_autoptr(VivaExaminer) examiner = NULL;
  g_autoptr(VivaTestResponse) busy = viva_test_response_new_busy (503, 1);
  g_autofree char *dir = g_dir_make_tmp ("viva-lab-XXXXXX", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  BusyCheck check = { 0 };

  viva_openai_model_set_model (model, "lab-model");
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", busy);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", busy);
  check.session = viva_exam_session_new (dir);
  g_signal_connect (model, "notify::busy", G_CALLBACK (on_busy_check_checkpoint), &check);

  examiner = viva_scripted_student_new_examiner (student, VIVA_CHAT_MODEL (model));
  viva_examiner_set_session (examiner, check.session);
  viva_scripted_student_defend_async (student, examiner, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  verdict = viva_scripted_student_defend_finish (student, result, &error);
  g_assert_no_error (error);

  g_assert_true (check.checked);
  g_assert_true (viva_exam_verdict_get_passed (verdict));
  g_assert_cmpuint (viva_openai_model_get_n_retries (model), ==, 2);
  g_assert_false (viva_openai_model_get_busy (model));

  g_clear_object (&examiner);
  g_clear_object (&check.session);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, func) \
  g_test_add ("/viva/lab/rehearsal/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("sixteen", test_sixteen);
  ADD ("busy-first", test_busy_first);
  ADD ("unreachable", test_unreachable);
  ADD ("wrong-model", test_wrong_model);
  ADD ("half-failing", test_half_failing);
  ADD ("interrupted", test_interrupted);
  ADD ("busy-keeps-checkpoint", test_busy_keeps_checkpoint);

  return g_test_run ();
}
