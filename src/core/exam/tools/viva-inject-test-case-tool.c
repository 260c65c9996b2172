/* viva-inject-test-case-tool.c
 *
 * The tool that probes the student's code with a test of the examiner's,
 * judged by a marker, and checks the same probe against the reference.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-private.h"

VIVA_DEFINE_EXAM_TOOL (VivaInjectTestCaseTool, viva_inject_test_case_tool)

static const VivaExamToolFacts facts = {
  .name = "injectTestCase",
  .title = N_("Testing an edge case"),
  .icon_name = "applications-science-symbolic",
  .running_text = N_("Running a test…"),
  .done_text = N_("Tested an edge case"),
  .done_several_text = N_("Tested several edge cases"),
  .step = VIVA_EXAM_PROTOCOL_PROBE,
  .kind = VIVA_EXAM_TOOL_KIND_ORDINARY,
};

typedef struct
{
  VivaExamContext *context;
  char            *probe;
  char            *marker;
  JsonObject      *result;
  GPtrArray       *tests;      /* a structured probe: one VivaGraderTest */
} Inject;

static void
inject_free (Inject *inject)
{
  g_clear_pointer (&inject->tests, g_ptr_array_unref);
  g_clear_object (&inject->context);
  g_clear_pointer (&inject->probe, g_free);
  g_clear_pointer (&inject->marker, g_free);
  g_clear_pointer (&inject->result, json_object_unref);
  g_free (inject);
}

/* A probe passes only if it reached its last line: the runner says "ok" for
 * a run the code ended early with sys.exit(0), and printing "PASSED" proves
 * nothing. So the engine appends a line writing a random marker, and looks
 * for the marker (which it then removes from what the model sees). */
static JsonObject *
judge (VivaRunResult *run,
       const char    *marker,
       gboolean      *passed)
{
  JsonObject *object = _viva_run_result_to_json (run);
  const char *out = viva_run_result_get_stdout (run);
  g_autofree char *needle = g_strdup_printf ("\n%s\n", marker);
  const char *found = out ? strstr (out, needle) : NULL;
  VivaRunStatus status = viva_run_result_get_status (run);

  if (found != NULL)
    {
      g_autoptr(GString) cleaned = g_string_new_len (out, found - out);

      g_string_append (cleaned, found + strlen (needle));
      json_object_set_string_member (object, "stdout", cleaned->str);
    }

  *passed = status == VIVA_RUN_STATUS_OK && found != NULL;

  if (status == VIVA_RUN_STATUS_OK && found == NULL)
    {
      json_object_set_string_member (object, "status", "exited");
      json_object_set_string_member (object, "note",
                                     "The run ended before the probe reached its end "
                                     "(sys.exit(), os._exit() or a replaced sys.stdout), "
                                     "so the probe did not pass.");
    }

  json_object_set_boolean_member (object, "passed", *passed);

  return object;
}

/* The line of the probe where the reference's run failed: the last frame
 * of the probe (`<test>`) in the traceback. */
static guint
probe_line (const char *traceback)
{
  const char *needle = "File \"<test>\", line ";
  const char *found = NULL;
  const char *at = traceback;

  while (at != NULL && (at = strstr (at, needle)) != NULL)
    {
      found = at;
      at += strlen (needle);
    }

  if (found == NULL)
    return 0;

  return (guint)g_ascii_strtoull (found + strlen (needle), NULL, 10);
}

static void
reference_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Inject *inject = g_task_get_task_data (task);
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reference = NULL;
  gboolean passed;

  if (!(run = viva_exam_runs_inject_finish (VIVA_EXAM_RUNS (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  reference = judge (run, inject->marker, &passed);

  json_object_set_boolean_member (inject->result, "valid", passed);
  if (!passed)
    {
      /* Only that the probe is invalid, the exception's type and the
       * probe's own line: never the reference's message, output or
       * traceback, which can quote its source. */
      g_autoptr(JsonObject) summary = json_object_new ();
      const char *type = viva_run_result_get_error_type (run);
      guint line = probe_line (viva_run_result_get_traceback (run));
      g_autoptr(GString) note = g_string_new ("This probe also fails against the reference solution");

      json_object_set_boolean_member (summary, "passed", FALSE);
      json_object_set_member (summary, "status", json_object_dup_member (reference, "status"));
      if (type != NULL)
        json_object_set_string_member (summary, "error_type", type);
      if (line > 0)
        json_object_set_int_member (summary, "probe_line", line);
      json_object_set_object_member (inject->result, "reference", g_steal_pointer (&summary));

      if (type != NULL && line > 0)
        g_string_append_printf (note, " (%s at line %u of the probe)", type, line);
      else if (type != NULL)
        g_string_append_printf (note, " (%s)", type);
      g_string_append (note, ": it is an invalid test and does not count against the student. "
                             "Check the probe's expectations.");
      json_object_set_string_member (inject->result, "note", note->str);
    }

  viva_exam_tool_return (task, g_steal_pointer (&inject->result));
}

static void
student_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Inject *inject = g_task_get_task_data (task);
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  const char *reference = viva_problem_get_reference (viva_exam_context_get_problem (inject->context));
  gboolean passed;

  if (!(run = viva_exam_runs_inject_finish (VIVA_EXAM_RUNS (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  inject->result = judge (run, inject->marker, &passed);
  (void)passed;
  json_object_set_boolean_member (inject->result, "valid", TRUE);

  /* Every probe is checked against the reference, even one the student
   * passes: a probe the reference fails tests the wrong thing either way. */
  if (reference == NULL || *reference == '\0')
    return viva_exam_tool_return (task, g_steal_pointer (&inject->result));

  /* In a fresh namespace that ran only the reference, so nothing of an
   * earlier probe leaks into this one. */
  viva_exam_runs_inject_async (VIVA_EXAM_RUNS (object), VIVA_EXAM_RUN_ON_REFERENCE, NULL, inject->probe,
                               viva_exam_context_get_run_timeout (inject->context),
                               g_task_get_cancellable (task), reference_cb, g_object_ref (task));
}

/* A structured probe is judged as a hidden test is (VivaGrader): the
 * student's code runs the setup and the call in a fresh worker of its own,
 * the value crosses as plain data, and the check runs in the judge, where
 * no student code ran; `expected`, with compare, comes from a worker that
 * ran only the reference. Nothing of the check enters the student's
 * sandbox, and nothing the student's code prints decides the pass. */
static void
structured_reference_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Inject *inject = g_task_get_task_data (task);
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  const VivaGradeTest *test;

  if (!(report = viva_exam_runs_grade_finish (VIVA_EXAM_RUNS (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  test = viva_grade_report_get_test (report, 0);
  json_object_set_boolean_member (inject->result, "valid", test->passed);
  if (!test->passed)
    {
      /* The status only: the reference's message can quote its source. */
      g_autoptr(JsonObject) summary = json_object_new ();

      json_object_set_boolean_member (summary, "passed", FALSE);
      json_object_set_string_member (summary, "status", test->status);
      json_object_set_object_member (inject->result, "reference", g_steal_pointer (&summary));
      json_object_set_string_member (inject->result, "note",
                                     "This probe also fails against the reference solution: it is an "
                                     "invalid test and does not count against the student. Check the "
                                     "probe's expectations.");
    }

  viva_exam_tool_return (task, g_steal_pointer (&inject->result));
}

static void
structured_student_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Inject *inject = g_task_get_task_data (task);
  const char *reference = viva_problem_get_reference (viva_exam_context_get_problem (inject->context));
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  const VivaGradeTest *test;

  if (!(report = viva_exam_runs_grade_finish (VIVA_EXAM_RUNS (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  test = viva_grade_report_get_test (report, 0);
  inject->result = json_object_new ();
  json_object_set_string_member (inject->result, "name", test->name);
  json_object_set_boolean_member (inject->result, "passed", test->passed);
  /* "ok" as for any probe that ran to its end; otherwise the grader's word. */
  json_object_set_string_member (inject->result, "status", test->passed ? "ok" : test->status);
  json_object_set_string_member (inject->result, "judged", "outside the student's process");
  if (!test->passed && test->message != NULL && *test->message != '\0')
    {
      g_autoptr(JsonObject) failure = json_object_new ();

      json_object_set_string_member (inject->result, "message", test->message);
      json_object_set_string_member (failure, "message", test->message);
      json_object_set_object_member (inject->result, "error", g_steal_pointer (&failure));
    }
  json_object_set_boolean_member (inject->result, "valid", TRUE);

  if (reference == NULL || *reference == '\0')
    return viva_exam_tool_return (task, g_steal_pointer (&inject->result));

  /* The same probe on the reference, in workers of its own: a probe the
   * reference fails tests the wrong thing. */
  viva_exam_runs_grade_async (VIVA_EXAM_RUNS (object), VIVA_EXAM_RUN_ON_REFERENCE, NULL, inject->tests, 0,
                              g_task_get_cancellable (task), structured_reference_cb, g_object_ref (task));
}

static void
invoke_structured (VivaExamContext *context,
                   JsonObject      *arguments,
                   GTask           *task)
{
  Inject *inject = g_task_get_task_data (task);
  g_autofree char *code = viva_exam_context_dup_code (context);
  const char *name = json_object_get_string_member_with_default (arguments, "name", NULL);

  inject->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_ptr_array_add (inject->tests,
                   viva_grader_test_new_structured (name && *name ? name : "probe",
                                                    json_object_get_string_member_with_default (arguments, "setup", ""),
                                                    json_object_get_string_member (arguments, "call"),
                                                    json_object_get_string_member_with_default (arguments, "check", ""),
                                                    json_object_get_boolean_member_with_default (arguments, "compare", FALSE),
                                                    json_object_get_double_member_with_default (arguments, "tolerance", 0)));
  viva_exam_runs_grade_async (viva_exam_context_get_runs (context), VIVA_EXAM_RUN_ON_STUDENT, code,
                              inject->tests, 0, g_task_get_cancellable (task),
                              structured_student_cb, g_object_ref (task));
}

static void
viva_inject_test_case_tool_invoke (VivaExamTool    *tool,
                                   VivaExamContext *context,
                                   JsonObject      *arguments,
                                   GTask           *task)
{
  g_autofree char *code = viva_exam_context_dup_code (context);
  g_autofree char *uuid = g_uuid_string_random ();
  Inject *inject = g_new0 (Inject, 1);
  g_task_set_task_data (task, inject, (GDestroyNotify)inject_free);

  inject->context = g_object_ref (context);
  if (json_object_has_member (arguments, "call"))
    {
      invoke_structured (context, arguments, task);
      return;
    }
  g_strdelimit (uuid, "-", '_');
  inject->marker = g_strconcat ("viva_probe_end_", uuid, NULL);
  inject->probe = g_strdup_printf ("%s\n__import__('sys').stdout.write('\\n%s\\n')\n",
                                   json_object_get_string_member (arguments, "code"),
                                   inject->marker);

  viva_exam_runs_inject_async (viva_exam_context_get_runs (context),
                               VIVA_EXAM_RUN_ON_STUDENT,
                               code,
                               inject->probe,
                               viva_exam_context_get_run_timeout (context),
                               g_task_get_cancellable (task),
                               student_cb,
                               g_object_ref (task));
}

static void
viva_inject_test_case_tool_class_init (VivaInjectTestCaseToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &facts;
  tool_class->description =
    "Probes the student's code as a hidden test does: `setup` builds the inputs, `call` is the "
    "expression whose value is checked, `check` is assert statements on `result` (with "
    "`compare`, also `expected`, the reference solution's value for the same call). The call runs "
    "in a fresh sandbox with the student's code; its value crosses as plain data and the check "
    "runs where no student code ran. `name` says in a few words what the probe tests; the "
    "student sees it. Returns passed, the status and the check's message. A probe that also "
    "fails on the reference solution is reported as invalid. (The old form, `code` appended to "
    "the student's code and run in its process, is still accepted.)";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {\"name\": {\"type\": \"string\", \"minLength\": 1,"
    "                             \"description\": \"what the probe tests, shown to the student\"},"
    "                \"setup\": {\"type\": \"string\", \"description\": \"Python that builds the inputs\"},"
    "                \"call\": {\"type\": \"string\", \"minLength\": 1,"
    "                          \"description\": \"the expression whose value is checked, e.g. knn_predict(X, y, q, 3)\"},"
    "                \"check\": {\"type\": \"string\", \"description\": \"assert statements on result (and expected)\"},"
    "                \"compare\": {\"type\": \"boolean\","
    "                             \"description\": \"also bind expected, the reference's value, and require result == expected\"},"
    "                \"tolerance\": {\"type\": \"number\", \"minimum\": 0,"
    "                               \"description\": \"with compare, how far numbers may differ\"},"
    "                \"code\": {\"type\": \"string\", \"minLength\": 1,"
    "                          \"description\": \"old form: a probe run after the student's code, in its process\"}},"
    " \"anyOf\": [{\"required\": [\"call\"]}, {\"required\": [\"code\"]}]}";
  tool_class->invoke = viva_inject_test_case_tool_invoke;
}
