/* test-explainer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Explain this error and Explain selection: errors made by the real worker
 * under its sandbox, explained by a VivaOpenAIModel against the scripted
 * server (the request carries the traceback and the failing frame's
 * variables and never the reference; a reply that recites the reference
 * has it withheld), and by the offline table when there is no model or it
 * fails, in English, Simplified Chinese and Vietnamese. */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "exam-test-common.h"
#include "viva-core.h"
#include "viva-error-table.h"
#include "viva-explainer.h"
#include "viva-test-model.h"
#include "viva-test-runner.h"
#include "viva-test-util.h"

#define CHAT "/v1/chat/completions"
#define REFERENCE_LINE "return first_number_given + second_number_given  # the reference's own line"

typedef struct
{
  VivaTestModel  model;
  VivaTestRunner runner;
  VivaProblem   *problem;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  viva_test_model_setup (&fixture->model, data);
  viva_test_runner_setup (&fixture->runner, data);
  fixture->problem = exam_problem_new ();
  viva_problem_set_reference (fixture->problem,
                              "def add(first_number_given, second_number_given):\n    " REFERENCE_LINE "\n");
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->problem);
  viva_test_runner_teardown (&fixture->runner, data);
  viva_test_model_teardown (&fixture->model, data);
}

static VivaRunResult *
run_error (VivaTestRunner *runner,
           const char     *code,
           const char     *type)
{
  VivaRunResult *result = viva_test_runner_run (runner, code, 10000);

  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (result), ==, type);
  return result;
}

static char *
explain_error (VivaExplainer          *explainer,
               const char             *code,
               VivaRunResult          *result,
               VivaExplanationSource  *source,
               GError                **error)
{
  g_autoptr(GAsyncResult) async = NULL;

  viva_explainer_explain_error_async (explainer, code, result, NULL, viva_test_store_result, &async);
  viva_test_run_until_result (&async);
  return viva_explainer_explain_finish (explainer, async, source, error);
}

static char *
request_text (Fixture *fixture,
              guint    nth)
{
  const VivaTestRequest *request = viva_test_server_find_request (fixture->model.server, "POST", CHAT, nth);
  GBytes *body = request->body;

  return g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
}

#define BUGGY \
  "def total(xs):\n" \
  "    count = len(xs)\n" \
  "    return xs[count]\n" \
  "total([4, 5, 6])\n"

static void
test_error_with_model (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = run_error (&fixture->runner, BUGGY, "IndexError");
  g_autoptr(VivaExplainer) explainer = viva_explainer_new (VIVA_CHAT_MODEL (fixture->model.model), fixture->problem, "vi");
  g_autoptr(VivaTestResponse) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) json = NULL;
  VivaExplanationSource source = -1;

  /* The model "explains" by reciting the reference: it is withheld. */
  reply = viva_test_response_new_chat_stream ("Vị trí count nằm ngoài danh sách. Đáp án: " REFERENCE_LINE " — bạn thử xem?",
                                              "thinking about " REFERENCE_LINE, NULL, NULL);
  viva_test_server_queue (fixture->model.server, "POST", CHAT, reply);
  text = explain_error (explainer, BUGGY, result, &source, &error);
  g_assert_no_error (error);
  g_assert_cmpint (source, ==, VIVA_EXPLANATION_MODEL);
  g_assert_nonnull (strstr (text, "Vị trí count nằm ngoài danh sách"));
  g_assert_null (strstr (text, "second_number_given"));
  g_assert_null (strstr (text, "thinking"));
  g_assert_nonnull (strstr (text, "Withheld"));

  /* What the model was given: the traceback, the frame's variables, the
   * code, the language and the rule; never the reference. */
  body = request_text (fixture, 0);
  json = json_from_string (body, NULL);
  g_clear_pointer (&body, g_free);
  body = json_to_string (json, TRUE);
  g_assert_nonnull (strstr (body, "IndexError: list index out of range"));
  g_assert_nonnull (strstr (body, "xs (list) = [4, 5, 6]"));
  g_assert_nonnull (strstr (body, "count (int) = 3"));
  g_assert_nonnull (strstr (body, "return xs[count]"));
  g_assert_nonnull (strstr (body, "Vietnamese"));
  g_assert_nonnull (strstr (body, "never write the fix"));
  g_assert_null (strstr (body, "first_number_given"));
  g_assert_null (strstr (body, "the reference's own line"));
  g_assert_null (strstr (body, "assert result == 5"));
}

static void
test_error_model_fails (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = run_error (&fixture->runner, "print(mni([3, 1]))\n", "NameError");
  g_autoptr(VivaExplainer) explainer = viva_explainer_new (VIVA_CHAT_MODEL (fixture->model.model), fixture->problem, "en");
  g_autoptr(VivaTestResponse) down = viva_test_response_new_text (500, "text/plain", "the server is down");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  VivaExplanationSource source = -1;

  viva_test_server_set_default (fixture->model.server, "POST", CHAT, down);
  text = explain_error (explainer, "print(mni([3, 1]))\n", result, &source, &error);
  g_assert_no_error (error);
  g_assert_cmpint (source, ==, VIVA_EXPLANATION_TABLE_FALLBACK);
  g_assert_nonnull (strstr (text, "Did you mean “min”?"));
}

static void
test_selection (Fixture       *fixture,
                gconstpointer  data)
{
  const char *code = "def add(a, b):\n    s = a\n    s = s + b\n    return s\n\nprint(add(1, 2))\n";
  g_autoptr(VivaExplainer) explainer = viva_explainer_new (VIVA_CHAT_MODEL (fixture->model.model), fixture->problem, "zh_CN");
  g_autoptr(VivaExplainer) offline = viva_explainer_new (NULL, fixture->problem, "zh_CN");
  g_autoptr(VivaTestResponse) reply = viva_test_response_new_chat_stream ("这两行把 a 和 b 相加。", NULL, NULL, NULL);
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) json = NULL;

  viva_test_server_queue (fixture->model.server, "POST", CHAT, reply);
  viva_explainer_explain_selection_async (explainer, code, 2, 3, NULL, viva_test_store_result, &async);
  viva_test_run_until_result (&async);
  text = viva_explainer_explain_finish (explainer, async, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "这两行把 a 和 b 相加。");

  body = request_text (fixture, 0);
  json = json_from_string (body, NULL);
  g_clear_pointer (&body, g_free);
  body = json_to_string (json, TRUE);
  g_assert_nonnull (strstr (body, "The lines I selected (2–3)"));
  g_assert_nonnull (strstr (body, "    s = s + b\\n```"));
  g_assert_nonnull (strstr (body, "Simplified Chinese"));
  g_assert_nonnull (strstr (body, "how to finish the exercise"));
  g_assert_null (strstr (body, "first_number_given"));

  /* Without a model: said plainly. */
  g_clear_object (&async);
  g_clear_pointer (&text, g_free);
  viva_explainer_explain_selection_async (offline, code, 2, 3, NULL, viva_test_store_result, &async);
  viva_test_run_until_result (&async);
  text = viva_explainer_explain_finish (offline, async, NULL, &error);
  g_assert_null (text);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED);
  g_assert_nonnull (strstr (error->message, "needs a model"));
}

/* The offline table, on errors the real worker raised. */
static const struct
{
  const char *code;
  const char *type;
  const char *says;
} table_cases[] = {
  { "values = [3, 1]\nprint(mni(values))\n", "NameError", "Did you mean “min”?" },
  { "totl = 0\nfor v in [1]:\n    total = totall + v\n", "NameError", "Did you mean “totl”?" },
  { "if True:\nprint(1)\n", "IndentationError", "indented one step more" },
  { "def f():\n    pass\nx = f()\nx.append(1)\n", "AttributeError", "A value is None" },
  { "def f():\n    pass\nprint(f() + 1)\n", "TypeError", "A value is None" },
  { "print('a' + 1)\n", "TypeError", "a type it cannot work with" },
  { "xs = [1, 2]\nprint(xs[2])\n", "IndexError", "positions 0 to n − 1" },
  { "d = {'a': 1}\nprint(d['b'])\n", "KeyError", "no key 'b'" },
  { "n = 0\nprint(3 / n)\n", "ZeroDivisionError", "divided by zero" },
  { "def f(n):\n    return f(n + 1)\nf(0)\n", "RecursionError", "called itself too many times" },
  { "xs = []\nxs.apend(1)\n", "AttributeError", "“apend”" },
  { "a, b = [1, 2, 3]\n", "ValueError", "names on the left of =" },
  { "int('abc')\n", "ValueError", "right type but with content" },
  { "import numpyy\n", "ModuleNotFoundError", "not available here" },
  { "def f(x):\n    print(x)\n    x = 1\n    y = z\nf(2)\n", "NameError", "“z”" },
  { "def f():\n    print(c)\n    c = 1\nf()\n", "UnboundLocalError", "before giving it a value" },
};

static void
test_table (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(VivaExplainer) offline = viva_explainer_new (NULL, fixture->problem, "en");

  for (guint i = 0; i < G_N_ELEMENTS (table_cases); i++)
    {
      g_autoptr(VivaRunResult) result = run_error (&fixture->runner, table_cases[i].code, table_cases[i].type);
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      VivaExplanationSource source = -1;

      text = explain_error (offline, table_cases[i].code, result, &source, &error);
      g_assert_no_error (error);
      g_assert_cmpint (source, ==, VIVA_EXPLANATION_TABLE);
      if (strstr (text, table_cases[i].says) == NULL)
        g_error ("%s: “%s” not in:\n%s", table_cases[i].type, table_cases[i].says, text);
      g_assert_true (g_str_has_prefix (text, table_cases[i].type));
    }
}

static void
test_table_variables (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = run_error (&fixture->runner, BUGGY, "IndexError");
  g_autofree char *text = viva_error_table_explain (viva_run_result_get_error_type (result),
                                                    viva_run_result_get_error_message (result),
                                                    viva_run_result_get_error_line (result),
                                                    viva_run_result_get_error_frame (result));

  g_assert_nonnull (strstr (text, "IndexError on line 3."));
  g_assert_nonnull (strstr (text, "The variables of total() at that moment:"));
  g_assert_nonnull (strstr (text, "xs = [4, 5, 6]"));
  g_assert_nonnull (strstr (text, "count = 3"));
}

/* The table in the student's language: a child process per language, so
 * gettext reads its catalogue fresh. */
static void
table_in (gconstpointer data)
{
  const char * const *lang = data;
  g_autofree char *localedir = g_build_filename (g_getenv ("VIVA_BUILD_ROOT"), "po", NULL);
  g_autoptr(VivaRunStack) stack = viva_run_stack_parse ("F\t<code>\t2\t<module>\nL\tvalues\tlist\t[3, 1]\n", 2, 1);
  g_autofree char *text = NULL;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  g_setenv ("LANGUAGE", lang[0], TRUE);
  if (setlocale (LC_ALL, lang[1]) == NULL)
    {
      g_test_skip ("locale not installed");
      return;
    }
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  textdomain (GETTEXT_PACKAGE);
  text = viva_error_table_explain ("NameError", "name 'mni' is not defined", 2,
                                   viva_run_stack_get_frame (stack, 0));
  if (strstr (text, lang[2]) == NULL)
    g_error ("%s: not translated:\n%s", lang[0], text);
  g_assert_nonnull (strstr (text, "values = [3, 1]"));
}

int
main (int   argc,
      char *argv[])
{
  static const char *zh[] = { "zh_CN", "zh_CN.UTF-8", "你是不是想写“min”？" };
  static const char *vi[] = { "vi", "vi_VN.UTF-8", "Có phải bạn muốn viết “min”?" };

  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, func) g_test_add ("/viva/explainer/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("error-with-model", test_error_with_model);
  ADD ("error-model-fails", test_error_model_fails);
  ADD ("selection", test_selection);
  ADD ("table", test_table);
  ADD ("table-variables", test_table_variables);
#undef ADD
  g_test_add_data_func ("/viva/explainer/table-translated/zh_CN", zh, table_in);
  g_test_add_data_func ("/viva/explainer/table-translated/vi", vi, table_in);

  return g_test_run ();
}
