/* viva-grade-report.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * VivaGradeTest:
 * @name: the test's name
 * @passed: whether it passed
 * @out_of_process: judged where no student code ran
 * @status: `passed`, `failed`, `error`, `timeout`, `not-plain-data`,
 *   `crashed`, `too-large`, or `evidence` (an old-form test that ran to its
 *   end inside the student's process: never a pass)
 * @message: one sentence a student understands; never the reference's or
 *   the check's source
 *
 * What became of one hidden test.
 */
typedef struct
{
  char     *name;
  gboolean  passed;
  gboolean  out_of_process;
  char     *status;
  char     *message;
} VivaGradeTest;

#define VIVA_TYPE_GRADE_TEST (viva_grade_test_get_type ())
GType          viva_grade_test_get_type (void) G_GNUC_CONST;
VivaGradeTest *viva_grade_test_new      (const char          *name,
                                         gboolean             passed,
                                         gboolean             out_of_process,
                                         const char          *status,
                                         const char          *message);
VivaGradeTest *viva_grade_test_copy     (const VivaGradeTest *test);
void           viva_grade_test_free     (VivaGradeTest       *test);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaGradeTest, viva_grade_test_free)

#define VIVA_TYPE_GRADE_REPORT (viva_grade_report_get_type ())

G_DECLARE_FINAL_TYPE (VivaGradeReport, viva_grade_report, VIVA, GRADE_REPORT, GObject)

VivaGradeReport     *viva_grade_report_new                  (guint            pass_threshold);
void                 viva_grade_report_add_test             (VivaGradeReport *self,
                                                             VivaGradeTest   *test);
guint                viva_grade_report_get_n_tests          (VivaGradeReport *self);
const VivaGradeTest *viva_grade_report_get_test             (VivaGradeReport *self,
                                                             guint            i);
guint                viva_grade_report_get_n_passed         (VivaGradeReport *self);
guint                viva_grade_report_get_n_out_of_process (VivaGradeReport *self);
guint                viva_grade_report_get_n_evidence       (VivaGradeReport *self);
guint                viva_grade_report_get_pass_threshold   (VivaGradeReport *self);
gboolean             viva_grade_report_get_passed           (VivaGradeReport *self);
JsonNode            *viva_grade_report_to_json              (VivaGradeReport *self);
VivaGradeReport     *viva_grade_report_new_from_json        (JsonNode        *node,
                                                             GError         **error);

G_END_DECLS
