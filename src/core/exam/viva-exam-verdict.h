/* viva-exam-verdict.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-exam-item.h"
#include "viva-grade-report.h"

G_BEGIN_DECLS

/**
 * VivaExamStatus:
 * @VIVA_EXAM_STATUS_FINISHED: the examiner gave a verdict through finishDefense
 * @VIVA_EXAM_STATUS_INCOMPLETE: a guardrail ended the defense without a verdict
 * @VIVA_EXAM_STATUS_FAILED: the model failed; the transcript is kept
 */
typedef enum
{
  VIVA_EXAM_STATUS_FINISHED,
  VIVA_EXAM_STATUS_INCOMPLETE,
  VIVA_EXAM_STATUS_FAILED,
} VivaExamStatus;

#define VIVA_TYPE_EXAM_STATUS (viva_exam_status_get_type ())
GType       viva_exam_status_get_type  (void) G_GNUC_CONST;
const char *viva_exam_status_to_string (VivaExamStatus status);

/**
 * VivaExamProbe:
 * @step_id: the step that ran it (`S4`)
 * @code: the probe as the examiner wrote it
 * @passed: the worker reported that it ran to its end without an exception
 * @valid: %FALSE when it also failed against the reference solution, so it
 *   does not count against the student
 * @status: the run's status (`ok`, `error`, `timeout`, …) or `exited` when
 *   the code ended the run before the probe did
 * @error_type: (nullable): the exception's type
 * @error_message: (nullable): the exception's message
 *
 * What the engine itself recorded of one injected probe, from the runner's
 * structured result — never from what the model says.
 */
typedef struct
{
  char     *step_id;
  char     *code;
  gboolean  passed;
  gboolean  valid;
  char     *status;
  char     *error_type;
  char     *error_message;
  char     *name;          /* what the probe tests, in the examiner's words; may be NULL */
} VivaExamProbe;

#define VIVA_TYPE_EXAM_PROBE (viva_exam_probe_get_type ())
GType          viva_exam_probe_get_type (void) G_GNUC_CONST;
VivaExamProbe *viva_exam_probe_copy     (const VivaExamProbe *self);
void           viva_exam_probe_free     (VivaExamProbe       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaExamProbe, viva_exam_probe_free)

#define VIVA_TYPE_EXAM_VERDICT (viva_exam_verdict_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamVerdict, viva_exam_verdict, VIVA, EXAM_VERDICT, GObject)

VivaExamStatus  viva_exam_verdict_get_status        (VivaExamVerdict *self);
gboolean        viva_exam_verdict_get_passed        (VivaExamVerdict *self);
int             viva_exam_verdict_get_score         (VivaExamVerdict *self);
const char     *viva_exam_verdict_get_comment       (VivaExamVerdict *self);
const char     *viva_exam_verdict_get_reason        (VivaExamVerdict *self);
const char * const *viva_exam_verdict_get_steps     (VivaExamVerdict *self);
const char * const *viva_exam_verdict_get_evidence  (VivaExamVerdict *self);
GPtrArray      *viva_exam_verdict_get_probes        (VivaExamVerdict *self);
guint           viva_exam_verdict_get_n_passed      (VivaExamVerdict *self);
guint           viva_exam_verdict_get_n_failed      (VivaExamVerdict *self);
guint           viva_exam_verdict_get_n_invalid     (VivaExamVerdict *self);
gboolean        viva_exam_verdict_get_consistent    (VivaExamVerdict *self);
gboolean        viva_exam_verdict_get_model_passed  (VivaExamVerdict *self);
gboolean        viva_exam_verdict_get_engine_pass   (VivaExamVerdict *self);
VivaGradeReport *viva_exam_verdict_get_grade        (VivaExamVerdict *self);
const char     *viva_exam_verdict_get_explanation   (VivaExamVerdict *self);
guint           viva_exam_verdict_get_n_withheld    (VivaExamVerdict *self);
GPtrArray      *viva_exam_verdict_get_items         (VivaExamVerdict *self);
double          viva_exam_verdict_get_points        (VivaExamVerdict *self);
double          viva_exam_verdict_get_max_points    (VivaExamVerdict *self);
gboolean        viva_exam_verdict_get_provisional   (VivaExamVerdict *self);
JsonNode       *viva_exam_verdict_to_json           (VivaExamVerdict *self);
VivaExamVerdict *viva_exam_verdict_new_from_json    (JsonNode        *node,
                                                     GError         **error);

G_END_DECLS
