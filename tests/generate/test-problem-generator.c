/* test-problem-generator.c: drafting problems against the scripted server
 * and the real worker, the checks and retries, and keeping drafts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "viva-core.h"
#include "viva-draft-store.h"
#include "viva-openai-model.h"
#include "viva-problem-generator.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

#define GOOD_PROBLEM \
  "{\"id\": \"double-it\", \"title\": \"Double it\", \"type\": \"implement\"," \
  " \"description\": \"Write `double(x)` that returns twice `x`.\"," \
  " \"starter_code\": \"def double(x):\\n    raise NotImplementedError\\n\"," \
  " \"reference_solution\": \"def double(x):\\n    return x * 2\\n\"," \
  " \"tests\": [{\"name\": \"ints\", \"code\": \"assert double(2) == 4, 'double(2)'\"}," \
  "             {\"name\": \"zero\", \"code\": \"assert double(0) == 0, 'double(0)'\"}]," \
  " \"questions\": [{\"question\": \"Why does it work for floats?\", \"points\": [\"* works on any number\"]}]," \
  " \"hint\": \"Multiplication is enough.\", \"rubric\": \"Correct and explained.\"}"

/* The same problem without its hint. */
#define MISSING_HINT \
  "{\"id\": \"double-it\", \"title\": \"Double it\", \"type\": \"implement\"," \
  " \"description\": \"Write `double(x)`.\"," \
  " \"starter_code\": \"def double(x):\\n    raise NotImplementedError\\n\"," \
  " \"reference_solution\": \"def double(x):\\n    return x * 2\\n\"," \
  " \"tests\": [{\"name\": \"ints\", \"code\": \"assert double(2) == 4\"}]," \
  " \"questions\": [{\"question\": \"Why?\", \"points\": [\"because\"]}]," \
  " \"rubric\": \"Correct.\"}"

/* A reference that fails its own test. */
#define WRONG_REFERENCE \
  "{\"id\": \"double-it\", \"title\": \"Double it\", \"type\": \"implement\"," \
  " \"description\": \"Write `double(x)`.\"," \
  " \"starter_code\": \"def double(x):\\n    raise NotImplementedError\\n\"," \
  " \"reference_solution\": \"def double(x):\\n    return x + 2\\n\"," \
  " \"tests\": [{\"name\": \"three\", \"code\": \"assert double(3) == 6, 'double(3) should be 6'\"}]," \
  " \"questions\": [{\"question\": \"Why?\", \"points\": [\"because\"]}]," \
  " \"hint\": \"Think of multiplication.\", \"rubric\": \"Correct.\"}"

typedef struct
{
  VivaTestServer       *server;
  VivaSecrets          *secrets;
  VivaOpenAIModel      *model;
  VivaProblemGenerator *generator;
  GString              *stages;
  char                 *tmpdir;
} Fixture;

static void
on_progress (VivaProblemGenerator *generator,
             int                   stage,
             guint                 attempt,
             const char           *message,
             Fixture              *fixture)
{
  g_assert_nonnull (message);
  g_assert_cmpstr (message, !=, "");
  g_string_append_printf (fixture->stages, "%s%u ", viva_generator_stage_to_string (stage), attempt);
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *base = data;
  g_autofree char *base_url = base ? g_strdup (base) : NULL;

  viva_core_init ();
  fixture->server = viva_test_server_new ();
  if (base_url == NULL)
    base_url = viva_test_server_get_base_url (fixture->server);
  fixture->secrets = viva_secrets_new_in_memory ();
  fixture->model = g_object_new (VIVA_TYPE_OPENAI_MODEL,
                                 "secrets", fixture->secrets,
                                 "base-url", base_url,
                                 "model", "test-model",
                                 "retry-delay", 10,
                                 "max-attempts", 1,
                                 "first-byte-timeout", 5000,
                                 "idle-timeout", 5000,
                                 NULL);
  fixture->generator = viva_problem_generator_new (VIVA_CHAT_MODEL (fixture->model), NULL);
  fixture->stages = g_string_new (NULL);
  fixture->tmpdir = g_dir_make_tmp ("viva-generate-XXXXXX", NULL);
  g_signal_connect (fixture->generator, "progress", G_CALLBACK (on_progress), fixture);
}


static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  viva_runner_stop (viva_problem_generator_get_runner (fixture->generator));
  g_assert_finalize_object (fixture->generator);
  g_assert_finalize_object (fixture->model);
  g_clear_object (&fixture->secrets);
  g_clear_object (&fixture->server);
  g_string_free (fixture->stages, TRUE);
  viva_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

static void
queue_content (Fixture    *fixture,
               const char *content)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream (content, NULL, NULL, NULL);

  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", response);
}

static VivaProblemDraft *
generate (Fixture  *fixture,
          GError  **error)
{
  g_autoptr(VivaProblemDraft) request = viva_problem_draft_new ("doubling numbers", VIVA_PROBLEM_IMPLEMENT,
                                                                "easy", "en");
  g_autoptr(GAsyncResult) result = NULL;
  VivaProblemDraft *draft;

  viva_problem_generator_generate_async (fixture->generator, request, NULL,
                                         store_result, &result);
  g_assert_true (viva_problem_generator_get_busy (fixture->generator));
  viva_test_run_until_result (&result);
  draft = viva_problem_generator_generate_finish (fixture->generator, result, error);
  g_assert_false (viva_problem_generator_get_busy (fixture->generator));
  if (draft != NULL)
    g_assert_true (draft == request);

  return draft;
}

/* The text of the last user message of the @nth chat request. */
static char *
last_user_message (Fixture *fixture,
                   guint    nth)
{
  const VivaTestRequest *request = viva_test_server_find_request (fixture->server, "POST",
                                                                  "/v1/chat/completions", nth);
  g_autoptr(JsonNode) body = NULL;
  JsonArray *messages;

  g_assert_nonnull (request);
  body = viva_test_request_get_json (request);
  messages = json_object_get_array_member (json_node_get_object (body), "messages");
  for (guint i = json_array_get_length (messages); i > 0; i--)
    {
      JsonObject *message = json_array_get_object_element (messages, i - 1);

      if (g_str_equal (json_object_get_string_member (message, "role"), "user"))
        return g_strdup (json_object_get_string_member (message, "content"));
    }

  g_assert_not_reached ();
}

static void
test_retries_until_good (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autofree char *second = NULL;
  g_autofree char *third = NULL;
  g_autofree char *fourth = NULL;
  JsonObject *format;
  VivaProblem *problem;

  queue_content (fixture, "Here is your problem: {\"id\": \"double-it\", \"title\": ");
  queue_content (fixture, MISSING_HINT);
  queue_content (fixture, WRONG_REFERENCE);
  queue_content (fixture, "```json\n" GOOD_PROBLEM "\n```");

  draft = generate (fixture, &error);
  g_assert_no_error (error);

  /* Three retries used, and the last draft passes. */
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 4);
  g_assert_cmpuint (viva_problem_draft_get_attempts (draft), ==, 4);
  g_assert_true (viva_problem_draft_get_passed (draft));
  g_assert_cmpuint (viva_pack_issues_count_errors (viva_problem_draft_get_issues (draft)), ==, 0);
  g_assert_cmpstr (fixture->stages->str, ==,
                   "drafting1 checking1 retrying1 drafting2 checking2 retrying2 "
                   "drafting3 checking3 retrying3 drafting4 checking4 passed4 ");

  problem = viva_problem_draft_get_problem (draft);
  g_assert_nonnull (problem);
  g_assert_cmpstr (viva_problem_get_id (problem), ==, "double-it");
  g_assert_cmpuint (viva_problem_get_n_tests (problem), ==, 2);
  /* Two tests, each run with the reference and with the starter. */
  g_assert_cmpuint (viva_problem_draft_get_checks (draft)->len, ==, 4);

  /* Each retry told the model what failed. */
  second = last_user_message (fixture, 1);
  g_assert_nonnull (strstr (second, "not valid JSON"));
  third = last_user_message (fixture, 2);
  g_assert_nonnull (strstr (third, "hint"));
  fourth = last_user_message (fixture, 3);
  g_assert_nonnull (strstr (fourth, "reference_solution"));
  g_assert_nonnull (strstr (fourth, "three"));

  /* Structured output was asked for. */
  body = viva_test_request_get_json (viva_test_server_find_request (fixture->server, "POST",
                                                                    "/v1/chat/completions", 0));
  format = json_object_get_object_member (json_node_get_object (body), "response_format");
  g_assert_nonnull (format);
  g_assert_cmpstr (json_object_get_string_member (format, "type"), ==, "json_schema");
  g_assert_true (json_object_has_member (json_object_get_object_member (format, "json_schema"), "schema"));
}

static void
test_never_succeeds (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream (WRONG_REFERENCE, NULL, NULL, NULL);
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *errors = NULL;
  GPtrArray *issues;
  gboolean found = FALSE;

  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);

  draft = generate (fixture, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 4);
  g_assert_false (viva_problem_draft_get_passed (draft));
  g_assert_cmpuint (viva_problem_draft_get_attempts (draft), ==, 4);
  g_assert_nonnull (strstr (fixture->stages->str, "failed4"));

  /* The last errors come with it, and the problem, to edit. */
  issues = viva_problem_draft_get_issues (draft);
  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);

      found |= issue->code == VIVA_PACK_ERROR_REFERENCE_FAILS && g_str_equal (issue->path, "reference_solution");
    }
  g_assert_true (found);
  g_assert_nonnull (viva_problem_draft_get_problem (draft));
  errors = viva_problem_draft_describe_issues (draft);
  g_assert_nonnull (strstr (errors, "reference_solution: "));
  g_assert_nonnull (strstr (errors, "double(3) should be 6"));
}

static void
test_unreachable (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(GError) error = NULL;

  draft = generate (fixture, &error);
  g_assert_null (draft);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING);
  g_assert_cmpuint (strlen (error->message), >, 20);
  g_assert_nonnull (strstr (fixture->stages->str, "drafting1"));
  g_assert_null (strstr (fixture->stages->str, "retrying"));
}

static void
test_schema_refused (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaTestResponse) refusal =
    viva_test_response_new_json (400, "{\"error\": {\"message\": \"response_format json_schema is not supported\"}}");
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) second = NULL;

  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", refusal);
  queue_content (fixture, GOOD_PROBLEM);

  draft = generate (fixture, &error);
  g_assert_no_error (error);
  g_assert_true (viva_problem_draft_get_passed (draft));
  g_assert_cmpuint (viva_problem_draft_get_attempts (draft), ==, 1);

  first = viva_test_request_get_json (viva_test_server_find_request (fixture->server, "POST", "/v1/chat/completions", 0));
  second = viva_test_request_get_json (viva_test_server_find_request (fixture->server, "POST", "/v1/chat/completions", 1));
  g_assert_true (json_object_has_member (json_node_get_object (first), "response_format"));
  g_assert_false (json_object_has_member (json_node_get_object (second), "response_format"));
}

static void
test_compile_errors (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (GOOD_PROBLEM);
  g_autoptr(VivaTestResponse) response = NULL;
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *broken = NULL;
  g_autofree char *errors = NULL;

  /* "return x * 2" becomes "return x * * 2". */
  g_string_replace (text, "return x * 2", "return x * * 2", 1);
  broken = g_strdup (text->str);
  response = viva_test_response_new_chat_stream (broken, NULL, NULL, NULL);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  viva_problem_generator_set_max_retries (fixture->generator, 1);

  draft = generate (fixture, &error);
  g_assert_no_error (error);
  g_assert_false (viva_problem_draft_get_passed (draft));
  g_assert_cmpuint (viva_problem_draft_get_attempts (draft), ==, 2);
  errors = viva_problem_draft_describe_issues (draft);
  g_assert_nonnull (strstr (errors, "reference_solution: does not compile: SyntaxError"));
  g_assert_nonnull (strstr (errors, "line 2"));
  /* Code that does not compile is not run. */
  g_assert_cmpuint (viva_problem_draft_get_checks (draft)->len, ==, 0);
}

static void
test_wrong_type_and_leaky_hint (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (GOOD_PROBLEM);
  g_autoptr(VivaTestResponse) response = NULL;
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *errors = NULL;

  g_string_replace (text, "\"type\": \"implement\"", "\"type\": \"debug\"", 1);
  g_string_replace (text, "Multiplication is enough.", "Write: return x * 2", 1);
  response = viva_test_response_new_chat_stream (text->str, NULL, NULL, NULL);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  viva_problem_generator_set_max_retries (fixture->generator, 0);

  draft = generate (fixture, &error);
  g_assert_no_error (error);
  g_assert_false (viva_problem_draft_get_passed (draft));
  g_assert_cmpuint (viva_problem_draft_get_attempts (draft), ==, 1);
  errors = viva_problem_draft_describe_issues (draft);
  g_assert_nonnull (strstr (errors, "type: is “debug” but the teacher asked for a “implement” problem"));
  g_assert_nonnull (strstr (errors, "hint: contains the line “return x * 2”"));
}

static void
test_hint_check (void)
{
  g_autoptr(VivaProblem) problem = viva_problem_new ("p", "P");
  g_autoptr(GPtrArray) clean = NULL;
  g_autoptr(GPtrArray) leaky = NULL;
  g_autoptr(GPtrArray) signature = NULL;

  viva_problem_set_reference (problem, "def mean(xs):\n    total = sum(xs)\n    return total / len(xs)\n");
  viva_problem_set_hint (problem, "Add them up, then divide by how many there are.");
  clean = viva_problem_generator_check_hint (problem);
  g_assert_cmpuint (clean->len, ==, 0);

  viva_problem_set_hint (problem, "Use   return total /  len(xs) at the end.");
  leaky = viva_problem_generator_check_hint (problem);
  g_assert_cmpuint (leaky->len, ==, 1);

  /* Naming the signature gives nothing away. */
  viva_problem_set_hint (problem, "Start from def mean(xs): and think.");
  signature = viva_problem_generator_check_hint (problem);
  g_assert_cmpuint (signature->len, ==, 0);
}

static void
test_prompt (void)
{
  g_autoptr(VivaProblemDraft) draft = viva_problem_draft_new ("binary {{type}} search", VIVA_PROBLEM_DEBUG, NULL, "pt-BR");
  g_autofree char *prompt = NULL;

  viva_core_init ();
  prompt = viva_problem_generator_build_prompt (draft);
  g_assert_nonnull (strstr (prompt, "- Topic: binary {{type}} search"));
  g_assert_nonnull (strstr (prompt, "- Type: debug"));
  g_assert_nonnull (strstr (prompt, "- Language of the text the student reads: pt-BR"));
  g_assert_null (strstr (prompt, "{{difficulty}}"));
  g_assert_null (strstr (prompt, "{{language}}"));
}

static void
test_create_destroy (void)
{
  g_autoptr(VivaSecrets) secrets = viva_secrets_new_in_memory ();
  VivaOpenAIModel *model = g_object_new (VIVA_TYPE_OPENAI_MODEL, "secrets", secrets,
                                         "base-url", "http://127.0.0.1:1/v1", NULL);
  VivaProblemGenerator *generator = viva_problem_generator_new (VIVA_CHAT_MODEL (model), NULL);
  VivaProblemDraft *draft = viva_problem_draft_new ("t", VIVA_PROBLEM_EXPLAIN, NULL, NULL);
  VivaDraftStore *store = viva_draft_store_new ("/nonexistent");
  GValue value = G_VALUE_INIT;

  g_value_init (&value, G_TYPE_UINT);
  g_value_set_uint (&value, 1);
  viva_test_assert_notify (generator, "max-retries", &value);
  g_value_unset (&value);
  g_assert_cmpuint (viva_problem_generator_get_max_retries (generator), ==, 1);
  g_assert_false (viva_problem_draft_get_passed (draft));

  g_assert_finalize_object (generator);
  g_assert_finalize_object (model);
  g_assert_finalize_object (draft);
  g_assert_finalize_object (store);
}

static void
test_store (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(VivaDraftStore) store = viva_draft_store_new (fixture->tmpdir);
  g_autoptr(VivaDraftStore) reopened = viva_draft_store_new (fixture->tmpdir);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *junk = g_build_filename (fixture->tmpdir, "junk.json", NULL);
  g_autofree char *path = NULL;
  VivaProblemDraft *loaded;

  queue_content (fixture, GOOD_PROBLEM);
  draft = generate (fixture, &error);
  g_assert_no_error (error);
  viva_problem_draft_set_pack_id (draft, "my-pack");

  viva_draft_store_save_async (store, draft, NULL, store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_draft_store_save_finish (store, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpuint (g_list_model_get_n_items (viva_draft_store_get_drafts (store)), ==, 1);
  g_file_set_contents (junk, "{\"format\": \"something-else\"}", -1, NULL);

  /* A restart: a new store reads what the old one wrote. */
  viva_draft_store_load_async (reopened, NULL, store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_draft_store_load_finish (reopened, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpuint (g_list_model_get_n_items (viva_draft_store_get_drafts (reopened)), ==, 1);
  loaded = viva_draft_store_find (reopened, viva_problem_draft_get_id (draft));
  g_assert_nonnull (loaded);
  g_assert_true (viva_problem_draft_get_passed (loaded));
  g_assert_cmpstr (viva_problem_draft_get_pack_id (loaded), ==, "my-pack");
  g_assert_cmpstr (viva_problem_draft_get_topic (loaded), ==, "doubling numbers");
  g_assert_cmpstr (viva_problem_draft_get_difficulty (loaded), ==, "easy");
  g_assert_cmpuint (viva_problem_draft_get_checks (loaded)->len, ==, 4);
  g_assert_cmpstr (viva_problem_get_reference (viva_problem_draft_get_problem (loaded)), ==,
                   "def double(x):\n    return x * 2\n");

  viva_draft_store_remove_async (reopened, loaded, NULL, store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_draft_store_remove_finish (reopened, result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (viva_draft_store_get_drafts (reopened)), ==, 0);
  path = g_strdup_printf ("%s/%s.json", fixture->tmpdir, viva_problem_draft_get_id (draft));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  /* Files that are not drafts are left alone. */
  g_assert_true (g_file_test (junk, G_FILE_TEST_EXISTS));
}

static void
test_draft_failing_roundtrip (void)
{
  g_autoptr(VivaProblemDraft) draft = viva_problem_draft_new ("x", VIVA_PROBLEM_IMPLEMENT, NULL, NULL);
  g_autoptr(VivaProblemDraft) copy = NULL;
  g_autoptr(GPtrArray) issues = viva_pack_issues_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) bad = json_from_string ("{\"format\": \"viva-draft/1\", \"id\": \"../x\", \"topic\": \"t\"}", NULL);
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (issues, viva_pack_issue_new (VIVA_PACK_ERROR_SYNTAX, VIVA_PACK_ISSUE_ERROR, "", "not JSON"));
  _viva_problem_draft_set_result (draft, NULL, "{oops", 4, issues, NULL);
  node = viva_problem_draft_to_json (draft);
  copy = viva_problem_draft_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_false (viva_problem_draft_get_passed (copy));
  g_assert_null (viva_problem_draft_get_problem (copy));
  g_assert_cmpstr (viva_problem_draft_get_raw_reply (copy), ==, "{oops");
  g_assert_cmpuint (viva_problem_draft_get_issues (copy)->len, ==, 1);

  g_assert_null (viva_problem_draft_new_from_json (bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

/* A server that answers the schema with a tool call, and a thinking
 * model that answers only in its reasoning: the draft reads the first,
 * and the teacher sees the second as the model's last reply, never an
 * empty one. */
static void
test_reply_not_in_content (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(VivaTestResponse) as_tool = viva_test_response_new_chat_stream (NULL, NULL, "problem", GOOD_PROBLEM);
  g_autoptr(VivaTestResponse) thinking = viva_test_response_new_chat_stream (NULL, "I would make a problem about doubling.", NULL, NULL);
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(VivaProblemDraft) again = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", as_tool);
  draft = generate (fixture, &error);
  g_assert_no_error (error);
  g_assert_true (viva_problem_draft_get_passed (draft));
  g_assert_nonnull (viva_problem_draft_get_problem (draft));

  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", thinking);
  again = generate (fixture, &error);
  g_assert_no_error (error);
  g_assert_false (viva_problem_draft_get_passed (again));
  g_assert_null (viva_problem_draft_get_problem (again));
  g_assert_cmpstr (viva_problem_draft_get_raw_reply (again), ==, "I would make a problem about doubling.");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *unused = NULL;

  g_test_init (&argc, &argv, NULL);
  unused = viva_test_get_unused_url ();

  g_test_add_func ("/viva/generate/create-destroy", test_create_destroy);
  g_test_add_func ("/viva/generate/prompt", test_prompt);
  g_test_add_func ("/viva/generate/hint-check", test_hint_check);
  g_test_add_func ("/viva/generate/draft-failing-roundtrip", test_draft_failing_roundtrip);
  g_test_add ("/viva/generate/retries-until-good", Fixture, NULL,
              fixture_setup, test_retries_until_good, fixture_teardown);
  g_test_add ("/viva/generate/never-succeeds", Fixture, NULL,
              fixture_setup, test_never_succeeds, fixture_teardown);
  g_test_add ("/viva/generate/unreachable", Fixture, unused,
              fixture_setup, test_unreachable, fixture_teardown);
  g_test_add ("/viva/generate/schema-refused", Fixture, NULL,
              fixture_setup, test_schema_refused, fixture_teardown);
  g_test_add ("/viva/generate/compile-errors", Fixture, NULL,
              fixture_setup, test_compile_errors, fixture_teardown);
  g_test_add ("/viva/generate/wrong-type-and-leaky-hint", Fixture, NULL,
              fixture_setup, test_wrong_type_and_leaky_hint, fixture_teardown);
  g_test_add ("/viva/generate/reply-not-in-content", Fixture, NULL,
              fixture_setup, test_reply_not_in_content, fixture_teardown);
  g_test_add ("/viva/generate/store", Fixture, NULL,
              fixture_setup, test_store, fixture_teardown);

  return g_test_run ();
}
