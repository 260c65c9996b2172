/* viva-class-report-marks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-report-private.h"
#include "viva-json-member.h"

/* What collecting a class adds to a row after it was read: the re-grade
 * on the teacher's machine (or why there is none), the signature check
 * against the exam server's key, and a duplicate claim of the same
 * student and problem. Each is a flag with its sentence; the row's
 * notifications are viva-class-report.c's. */

/**
 * viva_class_report_set_regrade:
 * @grade: a grade report's JSON (`passed`, `total`, `tests`), from the
 *   grader run on the teacher's machine
 *
 * Records the re-grade and flags a report whose recorded facts differ from
 * it, or whose verdict passes what it fails. Main thread.
 */
void
viva_class_report_set_regrade (VivaClassReport *self,
                               JsonNode        *grade)
{
  JsonObject *object;

  g_return_if_fail (VIVA_IS_CLASS_REPORT (self));
  g_return_if_fail (grade != NULL && JSON_NODE_HOLDS_OBJECT (grade));

  object = json_node_get_object (grade);
  self->server_regrade = FALSE;
  self->regraded_passed = _viva_class_report_get_count (object, "passed");
  self->regraded_total = _viva_class_report_get_count (object, "total");
  g_clear_pointer (&self->regraded_tests, json_array_unref);
  if (viva_json_member_array (object, "tests") != NULL)
    self->regraded_tests = json_array_ref (viva_json_member_array (object, "tests"));

  _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_REGRADE_MISMATCH);
  if (self->hidden_total >= 0 &&
      (self->hidden_passed != self->regraded_passed || self->hidden_total != self->regraded_total))
    {
      g_autofree char *note = g_strdup_printf (_("Recorded %d/%d, re-graded %d/%d."),
                                               self->hidden_passed, self->hidden_total,
                                               self->regraded_passed, self->regraded_total);
      _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_REGRADE_MISMATCH, note);
    }

  _viva_class_report_update_contradiction (self);
  _viva_class_report_notify_regrade (self);
}

/**
 * viva_class_report_set_regrade_error:
 * @flag: %VIVA_CLASS_FLAG_UNKNOWN_PACK or %VIVA_CLASS_FLAG_REGRADE_FAILED
 * @message: a sentence saying what went wrong and what to do
 *
 * Records that the report could not be re-graded. Main thread.
 */
void
viva_class_report_set_regrade_error (VivaClassReport *self,
                                     const char      *flag,
                                     const char      *message)
{
  g_return_if_fail (VIVA_IS_CLASS_REPORT (self));
  g_return_if_fail (flag != NULL);

  _viva_class_report_add_flag (self, flag, message);
  _viva_class_report_notify_regrade (self);
}

/**
 * viva_class_report_set_signature:
 * @message: the sentence of what the check found
 *
 * Flags the report `unsigned` or `bad-signature` after its check against
 * the exam server's key (viva-report-signature.c). On the collecting
 * thread, before the row is shown.
 */
void
viva_class_report_set_signature (VivaClassReport     *self,
                                 VivaReportSignature  status,
                                 const char          *message)
{
  g_return_if_fail (VIVA_IS_CLASS_REPORT (self));

  _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_UNSIGNED);
  _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_BAD_SIGNATURE);
  if (status == VIVA_REPORT_SIGNATURE_MISSING)
    _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_UNSIGNED, message);
  else if (status == VIVA_REPORT_SIGNATURE_INVALID)
    _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_BAD_SIGNATURE, message);

  /* A server's re-grade counts only as the server signed it: one written
   * into the file by hand is no re-grade. */
  if (status != VIVA_REPORT_SIGNATURE_VALID && self->server_regrade)
    {
      self->server_regrade = FALSE;
      self->regraded_passed = self->regraded_total = -1;
      g_clear_pointer (&self->regraded_tests, json_array_unref);
      _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_REGRADE_MISMATCH);
      _viva_class_report_update_contradiction (self);
    }
}

/**
 * viva_class_report_set_duplicate:
 * @note: (nullable): the sentence naming the other reports that claim the
 *   same student and problem, or %NULL when none does (any more)
 *
 * Flags the report `duplicate-claim`, or clears the flag. Main thread.
 */
void
viva_class_report_set_duplicate (VivaClassReport *self,
                                 const char      *note)
{
  g_return_if_fail (VIVA_IS_CLASS_REPORT (self));

  if (note == NULL && !viva_class_report_has_flag (self, VIVA_CLASS_FLAG_DUPLICATE_CLAIM))
    return;

  if (note != NULL)
    _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_DUPLICATE_CLAIM, note);
  else
    _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_DUPLICATE_CLAIM);
  _viva_class_report_notify_flags (self);
}
