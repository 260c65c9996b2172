/* viva-grade-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-grade-report.h"
#include "viva-json-member.h"

/* The engine's facts about one grading: what became of each hidden test,
 * how many were judged outside the student's process, and whether the
 * problem's pass threshold was met. Immutable once the grader hands it out;
 * it travels as JSON in checkpoints and reports, and is read back from them
 * as untrusted input (a report is a file in the student's account). */

struct _VivaGradeReport
{
  GObject    parent_instance;
  GPtrArray *tests;           /* VivaGradeTest */
  guint      pass_threshold;  /* 0: every test */
};

G_DEFINE_FINAL_TYPE (VivaGradeReport, viva_grade_report, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (VivaGradeTest, viva_grade_test, viva_grade_test_copy, viva_grade_test_free)

/**
 * viva_grade_test_new:
 *
 * Returns: (transfer full): a test's outcome
 */
VivaGradeTest *
viva_grade_test_new (const char *name,
                     gboolean    passed,
                     gboolean    out_of_process,
                     const char *status,
                     const char *message)
{
  VivaGradeTest *test = g_new0 (VivaGradeTest, 1);

  test->name = g_strdup (name ? name : "");
  test->passed = passed;
  test->out_of_process = out_of_process;
  test->status = g_strdup (status ? status : (passed ? "passed" : "failed"));
  test->message = g_strdup (message ? message : "");
  return test;
}

VivaGradeTest *
viva_grade_test_copy (const VivaGradeTest *test)
{
  g_return_val_if_fail (test != NULL, NULL);

  return viva_grade_test_new (test->name, test->passed, test->out_of_process, test->status, test->message);
}

void
viva_grade_test_free (VivaGradeTest *test)
{
  if (test == NULL)
    return;

  g_free (test->name);
  g_free (test->status);
  g_free (test->message);
  g_free (test);
}

/**
 * viva_grade_report_new:
 * @pass_threshold: how many tests must pass, 0 for all of them
 */
VivaGradeReport *
viva_grade_report_new (guint pass_threshold)
{
  VivaGradeReport *self = g_object_new (VIVA_TYPE_GRADE_REPORT, NULL);

  self->pass_threshold = pass_threshold;
  return self;
}

/**
 * viva_grade_report_add_test:
 * @test: (transfer full): a test's outcome
 *
 * For the grader, while it builds the report.
 */
void
viva_grade_report_add_test (VivaGradeReport *self,
                            VivaGradeTest   *test)
{
  g_return_if_fail (VIVA_IS_GRADE_REPORT (self));
  g_return_if_fail (test != NULL);

  g_ptr_array_add (self->tests, test);
}

guint
viva_grade_report_get_n_tests (VivaGradeReport *self)
{
  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (self), 0);
  return self->tests->len;
}

/**
 * viva_grade_report_get_test:
 *
 * Returns: (transfer none): the @i-th test's outcome, in the pack's order
 */
const VivaGradeTest *
viva_grade_report_get_test (VivaGradeReport *self,
                            guint            i)
{
  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (self), NULL);
  g_return_val_if_fail (i < self->tests->len, NULL);
  return g_ptr_array_index (self->tests, i);
}

guint
viva_grade_report_get_n_passed (VivaGradeReport *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (self), 0);

  /* A test judged inside the student's process is never a pass, even
   * when a report read back says it passed. */
  for (guint i = 0; i < self->tests->len; i++)
    {
      VivaGradeTest *test = g_ptr_array_index (self->tests, i);

      n += test->passed && test->out_of_process ? 1 : 0;
    }
  return n;
}

/**
 * viva_grade_report_get_n_out_of_process:
 *
 * Returns: how many tests were judged in a process where no student code
 *   ran (the others ran inside the student's process, and say so)
 */
guint
viva_grade_report_get_n_out_of_process (VivaGradeReport *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (self), 0);

  for (guint i = 0; i < self->tests->len; i++)
    n += ((VivaGradeTest *) g_ptr_array_index (self->tests, i))->out_of_process ? 1 : 0;
  return n;
}

/**
 * viva_grade_report_get_n_evidence:
 *
 * Returns: how many old-form tests ran to their end inside the student's
 *   process: evidence for the examiner, never a pass (the student's code
 *   can make any such test run to its end)
 */
guint
viva_grade_report_get_n_evidence (VivaGradeReport *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (self), 0);

  for (guint i = 0; i < self->tests->len; i++)
    n += g_strcmp0 (((VivaGradeTest *) g_ptr_array_index (self->tests, i))->status, "evidence") == 0 ? 1 : 0;
  return n;
}

guint
viva_grade_report_get_pass_threshold (VivaGradeReport *self)
{
  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (self), 0);
  return self->pass_threshold;
}

/**
 * viva_grade_report_get_passed:
 *
 * Returns: whether the problem's threshold was met: every test, or as many
 *   as the pack asks for. An old-form test that ran to its end inside the
 *   student's process (`evidence`) counts neither way; one that failed
 *   there counts as failed. A problem with no other test never passes.
 */
gboolean
viva_grade_report_get_passed (VivaGradeReport *self)
{
  guint judged;
  guint needed;

  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (self), FALSE);

  if ((judged = self->tests->len - viva_grade_report_get_n_evidence (self)) == 0)
    return FALSE;
  needed = self->pass_threshold == 0 ? judged : MIN (self->pass_threshold, judged);
  return viva_grade_report_get_n_passed (self) >= needed;
}

/**
 * viva_grade_report_to_json:
 *
 * Returns: (transfer full): `{"passed", "total", "out_of_process", "pass",
 *   "tests": [{"name", "passed", "out_of_process", "status", "message"}]}`,
 *   and `"threshold"` when the pack set one
 */
JsonNode *
viva_grade_report_to_json (VivaGradeReport *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "passed");
  json_builder_add_int_value (builder, viva_grade_report_get_n_passed (self));
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, self->tests->len);
  json_builder_set_member_name (builder, "out_of_process");
  json_builder_add_int_value (builder, viva_grade_report_get_n_out_of_process (self));
  json_builder_set_member_name (builder, "pass");
  json_builder_add_boolean_value (builder, viva_grade_report_get_passed (self));
  if (self->pass_threshold > 0)
    {
      json_builder_set_member_name (builder, "threshold");
      json_builder_add_int_value (builder, self->pass_threshold);
    }
  json_builder_set_member_name (builder, "tests");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->tests->len; i++)
    {
      VivaGradeTest *test = g_ptr_array_index (self->tests, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, test->name);
      json_builder_set_member_name (builder, "passed");
      json_builder_add_boolean_value (builder, test->passed);
      json_builder_set_member_name (builder, "out_of_process");
      json_builder_add_boolean_value (builder, test->out_of_process);
      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, test->status);
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, test->message);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * viva_grade_report_new_from_json:
 * @node: what viva_grade_report_to_json() wrote, from a file
 *
 * Reads a report back. The counts and the pass are recomputed from the
 * tests, so an edited file cannot claim more than its tests say.
 *
 * Returns: (transfer full): the report, or %NULL with @error
 */
VivaGradeReport *
viva_grade_report_new_from_json (JsonNode  *node,
                                 GError   **error)
{
  g_autoptr(VivaGradeReport) self = NULL;
  JsonObject *object;
  JsonNode *tests;
  JsonNode *threshold;
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      !(tests = json_object_get_member (object = json_node_get_object (node), "tests")) ||
      !JSON_NODE_HOLDS_ARRAY (tests))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The grade is not in the form Viva writes; grade the code again."));
      return NULL;
    }

  threshold = json_object_get_member (object, "threshold");
  self = viva_grade_report_new (threshold != NULL && JSON_NODE_HOLDS_VALUE (threshold) &&
                                json_node_get_value_type (threshold) == G_TYPE_INT64 &&
                                json_node_get_int (threshold) > 0 && json_node_get_int (threshold) < G_MAXUINT
                                ? (guint) json_node_get_int (threshold) : 0);

  array = json_node_get_array (tests);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *test;
      const char *name;
      const char *status;
      const char *message;
      gboolean passed;
      gboolean out_of_process;

      if (!JSON_NODE_HOLDS_OBJECT (element) ||
          !(name = viva_json_member_string (test = json_node_get_object (element), "name")) ||
          !(status = viva_json_member_string (test, "status")) ||
          !(message = viva_json_member_string (test, "message")) ||
          !viva_json_member_boolean (test, "passed", &passed) ||
          !viva_json_member_boolean (test, "out_of_process", &out_of_process) ||
          passed != g_str_equal (status, "passed"))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Test %u of the grade is not in the form Viva writes; grade the code again."), i + 1);
          return NULL;
        }

      viva_grade_report_add_test (self, viva_grade_test_new (name, passed, out_of_process, status, message));
    }

  return g_steal_pointer (&self);
}

static void
viva_grade_report_finalize (GObject *object)
{
  VivaGradeReport *self = (VivaGradeReport *)object;

  g_clear_pointer (&self->tests, g_ptr_array_unref);

  G_OBJECT_CLASS (viva_grade_report_parent_class)->finalize (object);
}

static void
viva_grade_report_class_init (VivaGradeReportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_grade_report_finalize;
}

static void
viva_grade_report_init (VivaGradeReport *self)
{
  self->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grade_test_free);
}
