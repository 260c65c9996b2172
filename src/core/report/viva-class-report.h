/* viva-class-report.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-exam-file.h"
#include "viva-exam-item.h"
#include "viva-teacher-scores.h"

#include "viva-report-signature.h"

G_BEGIN_DECLS

/* Flags a row of the class results can carry; short words, as the CSV's
 * `flags` column writes them. */
#define VIVA_CLASS_FLAG_UNREADABLE          "unreadable"
#define VIVA_CLASS_FLAG_UNKNOWN_PACK        "unknown-pack"
#define VIVA_CLASS_FLAG_REGRADE_MISMATCH    "regrade-mismatch"
#define VIVA_CLASS_FLAG_REGRADE_FAILED      "regrade-failed"
#define VIVA_CLASS_FLAG_VERDICT_CONTRADICTS "verdict-contradicts-tests"
#define VIVA_CLASS_FLAG_TESTS_FAILED        "tests-failed"
#define VIVA_CLASS_FLAG_CODE_EDITED         "code-edited"
#define VIVA_CLASS_FLAG_PASTED              "pasted"
#define VIVA_CLASS_FLAG_LEFT_WINDOW         "left-window"
#define VIVA_CLASS_FLAG_HINTS_EDITED        "hints-edited"
#define VIVA_CLASS_FLAG_HINT_COST_MISMATCH  "hint-cost-mismatch"
#define VIVA_CLASS_FLAG_OUTSIDE_EXAM        "outside-exam"
#define VIVA_CLASS_FLAG_NO_STUDENT          "no-student"
#define VIVA_CLASS_FLAG_DUPLICATE_CLAIM     "duplicate-claim"
/* Collected with the exam server's key: no signature, or a wrong one. */
#define VIVA_CLASS_FLAG_UNSIGNED            "unsigned"
#define VIVA_CLASS_FLAG_BAD_SIGNATURE       "bad-signature"

#define VIVA_TYPE_CLASS_REPORT (viva_class_report_get_type ())

G_DECLARE_FINAL_TYPE (VivaClassReport, viva_class_report, VIVA, CLASS_REPORT, GObject)

VivaClassReport *viva_class_report_new_from_data    (const char       *path,
                                                     const char       *data,
                                                     gssize            length);
VivaClassReport *viva_class_report_new_from_file    (const char       *path);
char            *viva_class_report_render_html      (VivaClassReport  *self,
                                                     GError          **error);
const char      *viva_class_report_get_path         (VivaClassReport  *self);
gboolean         viva_class_report_get_readable     (VivaClassReport  *self);
const char      *viva_class_report_get_student_name (VivaClassReport  *self);
const char      *viva_class_report_get_student_id   (VivaClassReport  *self);
const char      *viva_class_report_get_student_key  (VivaClassReport  *self);
const char      *viva_class_report_get_pack_id      (VivaClassReport  *self);
const char      *viva_class_report_get_problem_id   (VivaClassReport  *self);
const char      *viva_class_report_get_problem_title (VivaClassReport *self);
const char      *viva_class_report_get_session      (VivaClassReport  *self);
const char      *viva_class_report_get_started      (VivaClassReport  *self);
const char      *viva_class_report_get_status       (VivaClassReport  *self);
const char      *viva_class_report_get_verdict      (VivaClassReport  *self);
double           viva_class_report_get_score        (VivaClassReport  *self);
int              viva_class_report_get_hidden_passed (VivaClassReport *self);
int              viva_class_report_get_hidden_total (VivaClassReport  *self);
int              viva_class_report_get_regraded_passed (VivaClassReport *self);
int              viva_class_report_get_regraded_total (VivaClassReport *self);
int              viva_class_report_get_duration     (VivaClassReport  *self);
guint            viva_class_report_get_hints        (VivaClassReport  *self);
double           viva_class_report_get_model_score  (VivaClassReport  *self);
double           viva_class_report_get_item_points  (VivaClassReport  *self);
int              viva_class_report_get_items_review (VivaClassReport  *self);
double           viva_class_report_get_hint_cost    (VivaClassReport  *self);
char            *viva_class_report_describe_score   (VivaClassReport  *self);
void             viva_class_report_set_exam         (VivaClassReport  *self,
                                                     VivaExamFile     *exam);
const char      *viva_class_report_get_flags        (VivaClassReport  *self);
gboolean         viva_class_report_has_flag         (VivaClassReport  *self,
                                                     const char       *flag);
const char      *viva_class_report_get_note         (VivaClassReport  *self);
const char      *viva_class_report_get_code         (VivaClassReport  *self);
JsonArray       *viva_class_report_get_tests        (VivaClassReport  *self);
const char * const *viva_class_report_get_questions (VivaClassReport  *self);
void             viva_class_report_set_regrade      (VivaClassReport  *self,
                                                     JsonNode         *grade);
void             viva_class_report_set_regrade_error (VivaClassReport *self,
                                                     const char       *flag,
                                                     const char       *message);
void             viva_class_report_set_duplicate    (VivaClassReport  *self,
                                                     const char       *note);
void             viva_class_report_set_signature    (VivaClassReport  *self,
                                                     VivaReportSignature status,
                                                     const char       *message);
gboolean         viva_class_report_get_in_gradebook (VivaClassReport  *self);
JsonObject      *viva_class_report_to_json          (VivaClassReport  *self);
char            *viva_class_report_describe_time    (VivaClassReport  *self);

/* viva-class-report-teacher.c */
GPtrArray       *viva_class_report_get_items         (VivaClassReport *self);
guint            viva_class_report_count_needs_review (VivaClassReport *self);
gboolean         viva_class_report_get_provisional   (VivaClassReport *self);
void             viva_class_report_apply_teacher     (VivaClassReport *self,
                                                      VivaTeacherScores *scores);
double           viva_class_report_get_item_teacher_points (VivaClassReport *self,
                                                            const char      *item_id,
                                                            const char     **note);
double           viva_class_report_get_teacher_score (VivaClassReport *self);
VivaCalibrationVerdict viva_class_report_get_teacher_verdict (VivaClassReport *self);
const char      *viva_class_report_get_teacher_note  (VivaClassReport *self);
double           viva_class_report_get_graded_score  (VivaClassReport *self);
VivaCalibrationVerdict viva_class_report_get_viva_verdict (VivaClassReport *self);

G_END_DECLS
