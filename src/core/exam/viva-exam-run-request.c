/* viva-exam-run-request.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "viva-exam-run-request.h"
#include "viva-json-member.h"
#include "viva-json-strict.h"
#include "viva-run-result-json.h"
#include "viva-runner.h"

/* A defense's run as plain data (the shapes are in the header): the
 * builders the sender uses, the check a request read back from a database
 * or a network passes before anything runs it, and the readers of what
 * came back. The executor is viva-exam-run-request-execute.c. Both ends
 * read the other's data as hostile: a request is checked member by member
 * (known members, strict kinds, texts within one budget, lists and numbers
 * within range), a result is measured, read strictly and rebuilt only
 * from what the request asked. Thread-safe: no state. */

#define MAX_TEST_NAME      256
#define MAX_ERROR_MESSAGE  1024
#define MAX_GRADE_MESSAGE  4096
#define MAX_RESULT_DEPTH   16

static const char * const run_members[] = { "op", "history", "code", "timeout_ms", NULL };
static const char * const inject_student_members[] = { "op", "side", "history", "code", "probe", "timeout_ms", NULL };
static const char * const inject_reference_members[] = { "op", "side", "probe", "timeout_ms", NULL };
static const char * const grade_student_members[] = { "op", "side", "code", "tests", "pass_threshold", NULL };
static const char * const grade_reference_members[] = { "op", "side", "tests", "pass_threshold", NULL };
static const char * const run_step_members[] = { "op", "code", NULL };
static const char * const inject_step_members[] = { "op", "code", "probe", NULL };
static const char * const test_members[] = { "name", "setup", "call", "check", "compare", "tolerance", NULL };
static const char * const report_members[] = { "passed", "total", "out_of_process", "pass", "threshold", "tests", NULL };
static const char * const report_test_members[] = { "name", "passed", "out_of_process", "status", "message", NULL };
/* What the grader says of a structured test; `evidence` is an old-form
 * test's, and none is in a request. */
static const char * const grade_statuses[] = {
  "passed", "failed", "error", "timeout", "not-plain-data", "crashed", "too-large", NULL
};

static const char *
side_name (VivaExamRunSide side)
{
  return side == VIVA_EXAM_RUN_ON_REFERENCE ? "reference" : "student";
}

static JsonArray *
copy_history (JsonArray *history)
{
  JsonArray *copy = json_array_new ();

  /* Step by step: json-glib copies a list by reference, and the sender's
   * history grows while this request waits. */
  for (guint i = 0; history != NULL && i < json_array_get_length (history); i++)
    {
      JsonObject *step = json_array_get_object_element (history, i);
      JsonObject *mine = json_object_new ();

      json_object_set_string_member (mine, "op", viva_json_member_string (step, "op"));
      json_object_set_string_member (mine, "code", viva_json_member_string (step, "code"));
      if (json_object_has_member (step, "probe"))
        json_object_set_string_member (mine, "probe", viva_json_member_string (step, "probe"));
      json_array_add_object_element (copy, mine);
    }

  return copy;
}

/**
 * viva_exam_run_request_new_run:
 * @history: (nullable): the student's interpreter's steps so far
 *
 * Returns: (transfer full): a run of @code after @history
 */
JsonObject *
viva_exam_run_request_new_run (JsonArray  *history,
                               const char *code,
                               guint       timeout_ms)
{
  JsonObject *request;

  g_return_val_if_fail (code != NULL, NULL);

  request = json_object_new ();
  json_object_set_string_member (request, "op", "run");
  json_object_set_array_member (request, "history", copy_history (history));
  json_object_set_string_member (request, "code", code);
  json_object_set_int_member (request, "timeout_ms", timeout_ms);
  return request;
}

/**
 * viva_exam_run_request_new_inject:
 * @history: (nullable): on the student's side, the interpreter's steps so
 *   far; ignored on the reference's
 * @code: (nullable): the student's code; ignored on the reference's side
 *
 * Returns: (transfer full): @code then @probe (the reference then @probe)
 */
JsonObject *
viva_exam_run_request_new_inject (VivaExamRunSide  side,
                                  JsonArray       *history,
                                  const char      *code,
                                  const char      *probe,
                                  guint            timeout_ms)
{
  JsonObject *request;

  g_return_val_if_fail (side == VIVA_EXAM_RUN_ON_REFERENCE || code != NULL, NULL);
  g_return_val_if_fail (probe != NULL, NULL);

  request = json_object_new ();
  json_object_set_string_member (request, "op", "inject");
  json_object_set_string_member (request, "side", side_name (side));
  if (side == VIVA_EXAM_RUN_ON_STUDENT)
    {
      json_object_set_array_member (request, "history", copy_history (history));
      json_object_set_string_member (request, "code", code);
    }
  json_object_set_string_member (request, "probe", probe);
  json_object_set_int_member (request, "timeout_ms", timeout_ms);
  return request;
}

/**
 * viva_exam_run_request_new_grade:
 * @code: (nullable): the student's code; ignored on the reference's side
 * @tests: (element-type VivaGraderTest): structured tests only
 *
 * Returns: (transfer full): a grading of @code (of the reference) by @tests
 */
JsonObject *
viva_exam_run_request_new_grade (VivaExamRunSide  side,
                                 const char      *code,
                                 GPtrArray       *tests,
                                 guint            pass_threshold)
{
  JsonObject *request;
  JsonArray *array;

  g_return_val_if_fail (side == VIVA_EXAM_RUN_ON_REFERENCE || code != NULL, NULL);
  g_return_val_if_fail (tests != NULL, NULL);
  for (guint i = 0; i < tests->len; i++)
    g_return_val_if_fail (((VivaGraderTest *)g_ptr_array_index (tests, i))->legacy_code == NULL, NULL);

  request = json_object_new ();
  json_object_set_string_member (request, "op", "grade");
  json_object_set_string_member (request, "side", side_name (side));
  if (side == VIVA_EXAM_RUN_ON_STUDENT)
    json_object_set_string_member (request, "code", code);

  array = json_array_new ();
  for (guint i = 0; i < tests->len; i++)
    {
      const VivaGraderTest *test = g_ptr_array_index (tests, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "name", test->name ? test->name : "");
      json_object_set_string_member (object, "setup", test->setup ? test->setup : "");
      json_object_set_string_member (object, "call", test->call ? test->call : "");
      json_object_set_string_member (object, "check", test->check ? test->check : "");
      json_object_set_boolean_member (object, "compare", test->compare);
      json_object_set_double_member (object, "tolerance", test->tolerance);
      json_array_add_object_element (array, object);
    }
  json_object_set_array_member (request, "tests", array);
  json_object_set_int_member (request, "pass_threshold", pass_threshold);
  return request;
}

/* Checking a request */

typedef struct
{
  gsize    budget;  /* bytes of text still allowed */
  GError **error;
} Check;

static gboolean
refuse (Check      *check,
        const char *path)
{
  /* Translators: %s is where in the request, such as “history[2].code” */
  g_set_error (check->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("The run request is not in the form Viva writes (at %s); the code was not run."),
               path);
  return FALSE;
}

static gboolean
refuse_many (Check      *check,
             const char *path,
             guint       limit)
{
  /* Translators: %s is a part of the request, %u how many it may hold */
  g_set_error (check->error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               _("The run request holds more %s than a run takes (%u at most); the code was not run."),
               path, limit);
  return FALSE;
}

static gboolean
check_members (Check               *check,
               JsonObject          *object,
               const char * const  *known,
               const char          *path)
{
  g_autoptr(GList) names = json_object_get_members (object);

  /* Unknown members are refused, not named: a name is the sender's text. */
  for (const GList *l = names; l != NULL; l = l->next)
    if (!g_strv_contains (known, l->data))
      return refuse (check, path[0] ? path : "request");

  for (guint i = 0; known[i] != NULL; i++)
    if (!json_object_has_member (object, known[i]))
      {
        g_autofree char *where = viva_json_check_path (path, known[i]);
        return refuse (check, where);
      }

  return TRUE;
}

static gboolean
check_text (Check       *check,
            JsonObject  *object,
            const char  *path,
            const char  *member,
            gsize        min_bytes,
            gsize        max_bytes)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autofree char *where = viva_json_check_path (path, member);
  gsize length;

  if (node == NULL || !viva_json_check_is_string (node))
    return refuse (check, where);

  length = strlen (json_node_get_string (node));
  if (length > check->budget)
    {
      g_autofree char *limit = g_format_size (VIVA_EXAM_RUN_REQUEST_MAX_BYTES);

      /* Translators: %s is a size such as “4.2 MB” */
      g_set_error (check->error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("The run request is larger than a run takes (%s of code at most); run shorter code."),
                   limit);
      return FALSE;
    }
  if (length < min_bytes || length > max_bytes)
    return refuse (check, where);

  check->budget -= length;
  return TRUE;
}

static gboolean
check_int (Check       *check,
           JsonObject  *object,
           const char  *member,
           gint64       max)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0 || json_node_get_int (node) > max)
    return refuse (check, member);

  return TRUE;
}

static gboolean
check_side (Check                *check,
            JsonObject           *request,
            VivaExamRunSide      *side)
{
  const char *text = viva_json_member_string (request, "side");

  if (g_strcmp0 (text, "student") == 0)
    *side = VIVA_EXAM_RUN_ON_STUDENT;
  else if (g_strcmp0 (text, "reference") == 0)
    *side = VIVA_EXAM_RUN_ON_REFERENCE;
  else
    return refuse (check, "side");

  return TRUE;
}

static gboolean
check_history (Check      *check,
               JsonObject *request)
{
  JsonArray *history = viva_json_member_array (request, "history");

  if (history == NULL)
    return refuse (check, "history");
  if (json_array_get_length (history) > VIVA_EXAM_RUN_REQUEST_MAX_HISTORY)
    return refuse_many (check, "history", VIVA_EXAM_RUN_REQUEST_MAX_HISTORY);

  for (guint i = 0; i < json_array_get_length (history); i++)
    {
      JsonNode *node = json_array_get_element (history, i);
      g_autofree char *path = viva_json_check_path_index ("history", i);
      JsonObject *step;
      const char *op;

      if (!viva_json_check_is_object (node))
        return refuse (check, path);

      step = json_node_get_object (node);
      op = viva_json_member_string (step, "op");
      if (g_strcmp0 (op, "run") == 0)
        {
          if (!check_members (check, step, run_step_members, path) ||
              !check_text (check, step, path, "code", 0, G_MAXSIZE))
            return FALSE;
        }
      else if (g_strcmp0 (op, "inject") == 0)
        {
          if (!check_members (check, step, inject_step_members, path) ||
              !check_text (check, step, path, "code", 0, G_MAXSIZE) ||
              !check_text (check, step, path, "probe", 0, G_MAXSIZE))
            return FALSE;
        }
      else
        {
          g_autofree char *where = viva_json_check_path (path, "op");
          return refuse (check, where);
        }
    }

  return TRUE;
}

static gboolean
check_tests (Check      *check,
             JsonObject *request)
{
  JsonArray *tests = viva_json_member_array (request, "tests");

  if (tests == NULL || json_array_get_length (tests) == 0)
    return refuse (check, "tests");
  if (json_array_get_length (tests) > VIVA_EXAM_RUN_REQUEST_MAX_TESTS)
    return refuse_many (check, "tests", VIVA_EXAM_RUN_REQUEST_MAX_TESTS);

  for (guint i = 0; i < json_array_get_length (tests); i++)
    {
      JsonNode *node = json_array_get_element (tests, i);
      g_autofree char *path = viva_json_check_path_index ("tests", i);
      JsonObject *test;
      double tolerance;

      if (!viva_json_check_is_object (node))
        return refuse (check, path);
      if (!check_members (check, test = json_node_get_object (node), test_members, path) ||
          !check_text (check, test, path, "name", 1, MAX_TEST_NAME) ||
          !check_text (check, test, path, "setup", 0, G_MAXSIZE) ||
          !check_text (check, test, path, "call", 1, G_MAXSIZE) ||
          !check_text (check, test, path, "check", 0, G_MAXSIZE))
        return FALSE;

      if (!viva_json_check_is_boolean (json_object_get_member (test, "compare")))
        {
          g_autofree char *where = viva_json_check_path (path, "compare");
          return refuse (check, where);
        }
      if (!viva_json_member_number (test, "tolerance", &tolerance) || !isfinite (tolerance) || tolerance < 0)
        {
          g_autofree char *where = viva_json_check_path (path, "tolerance");
          return refuse (check, where);
        }
    }

  return check_int (check, request, "pass_threshold", json_array_get_length (tests));
}

/**
 * viva_exam_run_request_check:
 * @request: a request from a database or a network
 *
 * Checks @request as hostile input before anything runs it: a known op and
 * side, exactly the members of its shape, strict kinds, all its text
 * within VIVA_EXAM_RUN_REQUEST_MAX_BYTES, at most
 * VIVA_EXAM_RUN_REQUEST_MAX_HISTORY steps and
 * VIVA_EXAM_RUN_REQUEST_MAX_TESTS tests, numbers in range.
 *
 * Returns: whether @request may run, else %FALSE with @error
 */
gboolean
viva_exam_run_request_check (JsonObject  *request,
                             GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  Check check = { VIVA_EXAM_RUN_REQUEST_MAX_BYTES, &local_error };
  const char *op = viva_json_member_string (request, "op");
  VivaExamRunSide side = VIVA_EXAM_RUN_ON_STUDENT;
  gboolean ok;

  if (request == NULL)
    ok = refuse (&check, "request");
  else if (g_strcmp0 (op, "run") == 0)
    ok = check_members (&check, request, run_members, "") &&
         check_history (&check, request) &&
         check_text (&check, request, "", "code", 0, G_MAXSIZE) &&
         check_int (&check, request, "timeout_ms", VIVA_EXAM_RUN_REQUEST_MAX_TIMEOUT_MS);
  else if (g_strcmp0 (op, "inject") == 0)
    ok = check_side (&check, request, &side) &&
         (side == VIVA_EXAM_RUN_ON_REFERENCE
          ? check_members (&check, request, inject_reference_members, "")
          : check_members (&check, request, inject_student_members, "") &&
            check_history (&check, request) &&
            check_text (&check, request, "", "code", 0, G_MAXSIZE)) &&
         check_text (&check, request, "", "probe", 0, G_MAXSIZE) &&
         check_int (&check, request, "timeout_ms", VIVA_EXAM_RUN_REQUEST_MAX_TIMEOUT_MS);
  else if (g_strcmp0 (op, "grade") == 0)
    ok = check_side (&check, request, &side) &&
         (side == VIVA_EXAM_RUN_ON_REFERENCE
          ? check_members (&check, request, grade_reference_members, "")
          : check_members (&check, request, grade_student_members, "") &&
            check_text (&check, request, "", "code", 0, G_MAXSIZE)) &&
         check_tests (&check, request);
  else
    ok = refuse (&check, "op");

  if (!ok)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return ok;
}

/* Reading a result */

/* What @node weighs as JSON text, roughly, and whether it nests within
 * MAX_RESULT_DEPTH: a result is measured whole before any of it is read. */
static gboolean
measure (JsonNode *node,
         guint     depth,
         gsize    *size)
{
  if (depth > MAX_RESULT_DEPTH)
    return FALSE;

  *size += 8;
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member))
        {
          *size += strlen (name);
          if (!measure (member, depth + 1, size))
            return FALSE;
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (!measure (json_array_get_element (array, i), depth + 1, size))
          return FALSE;
    }
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    *size += strlen (json_node_get_string (node));

  return TRUE;
}

static gpointer
fail_result (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The result of the run that came back is not in the form Viva writes; run the code again."));
  return NULL;
}

/* The one member of @result, @kind or "error", as a node; an "error" is
 * the error, bounded and made visible. */
static JsonNode *
result_member (JsonObject  *result,
               const char  *kind,
               GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  JsonNode *node;
  gsize size = 0;

  if (result == NULL)
    return fail_result (error);

  root = json_node_init_object (json_node_alloc (), result);
  if (!measure (root, 0, &size) || size > VIVA_EXAM_RUN_RESULT_MAX_BYTES)
    {
      g_autofree char *limit = g_format_size (VIVA_EXAM_RUN_RESULT_MAX_BYTES);

      /* Translators: %s is a size such as “4.2 MB” */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("The result of the run that came back is larger than Viva reads (%s at most); run the code again."),
                   limit);
      return NULL;
    }

  if (json_object_get_size (result) != 1)
    return fail_result (error);

  if ((node = json_object_get_member (result, "error")) != NULL)
    {
      g_autofree char *message = NULL;

      if (!viva_json_check_is_string (node))
        return fail_result (error);

      message = viva_run_text_make_visible (json_node_get_string (node), MAX_ERROR_MESSAGE);
      /* Translators: %s is the reason, in the words of the machine that was to run it */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("The grading pool could not run the code: %s"), message);
      return NULL;
    }

  if ((node = json_object_get_member (result, kind)) == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail_result (error);

  return node;
}

/**
 * viva_exam_run_request_read_run:
 * @request: the run or inject request sent
 * @result: what came back for it
 *
 * Reads a run's result as hostile (viva_run_result_new_from_json()): at
 * most VIVA_EXAM_RUN_RESULT_MAX_BYTES, `{"run"}` or `{"error"}` only.
 *
 * Returns: (transfer full): the run, or %NULL with @error (the executor's
 *   own error too)
 */
VivaRunResult *
viva_exam_run_request_read_run (JsonObject  *request,
                                JsonObject  *result,
                                GError     **error)
{
  const char *op = viva_json_member_string (request, "op");
  gint64 timeout_ms = viva_json_member_int (request, "timeout_ms");
  JsonNode *node;

  g_return_val_if_fail (g_strcmp0 (op, "run") == 0 || g_strcmp0 (op, "inject") == 0, NULL);

  if (!(node = result_member (result, "run", error)))
    return NULL;

  if (timeout_ms <= 0 || timeout_ms > VIVA_EXAM_RUN_REQUEST_MAX_TIMEOUT_MS)
    timeout_ms = VIVA_RUNNER_DEFAULT_TIMEOUT_MS;
  return viva_run_result_new_from_json (json_node_get_object (node), (guint)timeout_ms, error);
}

/* Test @i of a report, only as the request asked it. */
static VivaGradeTest *
read_test (JsonNode    *node,
           const char  *asked,
           GError     **error)
{
  JsonObject *test;
  g_autoptr(GList) names = NULL;
  const char *name;
  const char *status;
  const char *message;
  gboolean passed;
  gboolean out_of_process;
  g_autofree char *visible = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail_result (error);

  test = json_node_get_object (node);
  names = json_object_get_members (test);
  for (const GList *l = names; l != NULL; l = l->next)
    if (!g_strv_contains (report_test_members, l->data))
      return fail_result (error);

  if (!(name = viva_json_member_string (test, "name")) || !g_str_equal (name, asked))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The grade that came back names a test that was not asked, or not in its place; grade the code again."));
      return NULL;
    }

  if (!(status = viva_json_member_string (test, "status")) || !g_strv_contains (grade_statuses, status) ||
      !(message = viva_json_member_string (test, "message")) ||
      !viva_json_member_boolean (test, "passed", &passed) ||
      !viva_json_member_boolean (test, "out_of_process", &out_of_process) ||
      passed != g_str_equal (status, "passed"))
    return fail_result (error);

  visible = viva_run_text_make_visible (message, MAX_GRADE_MESSAGE);
  return viva_grade_test_new (asked, passed, out_of_process, status, visible);
}

/**
 * viva_exam_run_request_read_grade:
 * @request: the grade request sent
 * @result: what came back for it
 *
 * Reads a grading as hostile: at most VIVA_EXAM_RUN_RESULT_MAX_BYTES,
 * `{"report"}` or `{"error"}` only, and a report is rebuilt test by test
 * for exactly the tests @request asked, in its order, with its threshold;
 * a report of other tests, or of more or fewer, is refused. Its counts
 * and its pass are this machine's, from the tests.
 *
 * Returns: (transfer full): the report, or %NULL with @error
 */
VivaGradeReport *
viva_exam_run_request_read_grade (JsonObject  *request,
                                  JsonObject  *result,
                                  GError     **error)
{
  JsonArray *asked = viva_json_member_array (request, "tests");
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GList) names = NULL;
  JsonObject *object;
  JsonArray *tests;
  JsonNode *node;

  g_return_val_if_fail (g_strcmp0 (viva_json_member_string (request, "op"), "grade") == 0, NULL);
  g_return_val_if_fail (asked != NULL, NULL);

  if (!(node = result_member (result, "report", error)))
    return NULL;

  object = json_node_get_object (node);
  names = json_object_get_members (object);
  for (const GList *l = names; l != NULL; l = l->next)
    if (!g_strv_contains (report_members, l->data))
      return fail_result (error);
  if (!(tests = viva_json_member_array (object, "tests")))
    return fail_result (error);

  if (json_array_get_length (tests) != json_array_get_length (asked))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: how many tests were asked, then how many came back */
                   _("The grade that came back does not match the tests asked (%u asked, %u graded); grade the code again."),
                   json_array_get_length (asked), json_array_get_length (tests));
      return NULL;
    }

  report = viva_grade_report_new ((guint)viva_json_member_int (request, "pass_threshold"));
  for (guint i = 0; i < json_array_get_length (tests); i++)
    {
      const char *name = viva_json_member_string (json_array_get_object_element (asked, i), "name");
      VivaGradeTest *test;

      if (!(test = read_test (json_array_get_element (tests, i), name ? name : "", error)))
        return NULL;
      viva_grade_report_add_test (report, test);
    }

  return g_steal_pointer (&report);
}
