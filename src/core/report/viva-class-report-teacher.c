/* viva-class-report-teacher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-class-report-private.h"

/* The teacher's score of a row stands beside the examiner's and never
 * replaces it in the row: the report keeps what Viva said, the teacher's
 * score comes from the teacher's own data (VivaTeacherScores), and only
 * the exports' grade (viva_class_report_get_graded_score()) prefers it. */

/**
 * viva_class_report_set_teacher_score:
 * @score: (nullable): the teacher's score of this defense, or %NULL for none
 *
 * Copies @score's figures into the row. Main thread.
 */
void
viva_class_report_set_teacher_score (VivaClassReport        *self,
                                     const VivaTeacherScore *score)
{
  double value = score != NULL ? score->score : -1;
  int verdict = score != NULL ? score->verdict : VIVA_CALIBRATION_UNKNOWN;
  const char *note = score != NULL ? score->note : NULL;

  g_return_if_fail (VIVA_IS_CLASS_REPORT (self));

  if (value == self->teacher_score && verdict == self->teacher_verdict && g_strcmp0 (note, self->teacher_note) == 0)
    return;

  self->teacher_score = value;
  self->teacher_verdict = verdict;
  g_free (self->teacher_note);
  self->teacher_note = g_strdup (note);
  _viva_class_report_notify_score (self);
}

/**
 * viva_class_report_get_teacher_score:
 *
 * Returns: the teacher's score, 0–100, or -1 when the teacher gave none
 */
double
viva_class_report_get_teacher_score (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1);
  return self->teacher_score;
}

VivaCalibrationVerdict
viva_class_report_get_teacher_verdict (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), VIVA_CALIBRATION_UNKNOWN);
  return self->teacher_score >= 0 ? self->teacher_verdict : VIVA_CALIBRATION_UNKNOWN;
}

/**
 * viva_class_report_get_teacher_note:
 *
 * Returns: (nullable): the teacher's note on their score
 */
const char *
viva_class_report_get_teacher_note (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);
  return self->teacher_score >= 0 ? self->teacher_note : NULL;
}

/**
 * viva_class_report_get_graded_score:
 *
 * Returns: the score the exports grade by: the teacher's where there is
 *   one, else the final score (the examiner's less the hints' cost)
 */
double
viva_class_report_get_graded_score (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1);
  return self->teacher_score >= 0 ? self->teacher_score : self->score;
}

/**
 * viva_class_report_get_viva_verdict:
 *
 * Returns: the report's verdict as calibration compares it
 */
VivaCalibrationVerdict
viva_class_report_get_viva_verdict (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), VIVA_CALIBRATION_UNKNOWN);

  if (g_strcmp0 (self->verdict, "pass") == 0)
    return VIVA_CALIBRATION_PASS;
  if (g_strcmp0 (self->verdict, "fail") == 0)
    return VIVA_CALIBRATION_FAIL;

  return VIVA_CALIBRATION_UNKNOWN;
}
