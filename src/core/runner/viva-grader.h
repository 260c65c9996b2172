/* viva-grader.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-grade-report.h"

G_BEGIN_DECLS

/**
 * VivaGraderTest:
 * @name: what the student sees
 * @setup: trusted code that builds inputs; run in the student's process and
 *   in the grader's
 * @call: an expression evaluated in the student's process; its value is the
 *   result
 * @check: trusted assertions run in the grader with `result` bound (and
 *   setup's names, and `expected` when comparing)
 * @compare: also compare the result with the reference's value
 * @tolerance: for @compare, the absolute tolerance for numbers
 * @legacy_code: an old unstructured test (run in the student's process);
 *   %NULL for a structured one
 *
 * One hidden test, as the pack gives it.
 */
typedef struct
{
  char     *name;
  char     *setup;
  char     *call;
  char     *check;
  gboolean  compare;
  double    tolerance;
  char     *legacy_code;
} VivaGraderTest;

#define VIVA_TYPE_GRADER_TEST (viva_grader_test_get_type ())
GType           viva_grader_test_get_type      (void) G_GNUC_CONST;
VivaGraderTest *viva_grader_test_new_structured (const char           *name,
                                                const char           *setup,
                                                const char           *call,
                                                const char           *check,
                                                gboolean              compare,
                                                double                tolerance);
VivaGraderTest *viva_grader_test_new_legacy     (const char           *name,
                                                const char           *code);
VivaGraderTest *viva_grader_test_copy           (const VivaGraderTest *test);
void            viva_grader_test_free           (VivaGraderTest       *test);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaGraderTest, viva_grader_test_free)

/* One test's run, and one whole grading's (every test, the reference and
 * the checks): past it the tests not decided yet fail. */
#define VIVA_GRADER_TIMEOUT_MS  5000
#define VIVA_GRADER_DEADLINE_MS 30000

#define VIVA_TYPE_GRADER (viva_grader_get_type ())

G_DECLARE_FINAL_TYPE (VivaGrader, viva_grader, VIVA, GRADER, GObject)

VivaGrader      *viva_grader_new          (void);
void             viva_grader_grade_async  (VivaGrader          *self,
                                           const char          *student_code,
                                           const char          *reference_code,
                                           GPtrArray           *tests,
                                           guint                pass_threshold,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
VivaGradeReport *viva_grader_grade_finish (VivaGrader          *self,
                                           GAsyncResult        *result,
                                           GError             **error);
void             viva_grader_set_deadline (VivaGrader          *self,
                                           guint                deadline_ms);
guint            viva_grader_get_deadline (VivaGrader          *self);

G_END_DECLS
