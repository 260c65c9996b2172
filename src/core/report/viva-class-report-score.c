/* viva-class-report-score.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-report-private.h"
#include "viva-exam-report-private.h"
#include "viva-report-score.h"

/* A row's score as a teacher grades by it: the examiner's score less what
 * the hints viewed cost. The report is the student's file until it is
 * handed in, so the count and the cost are read from every record it
 * keeps (viva_report_score_read_records()), the one that costs the
 * student most wins, and a disagreement is flagged `hints-edited`. The
 * teacher's own exam file, when given, sets the cost outright; a report
 * that recorded another is flagged `hint-cost-mismatch`. */

static void
update_score (VivaClassReport *self)
{
  VivaReportScore score = { self->model_score, self->hints, self->hint_cost };

  self->score = viva_report_score_final (&score);
}

/* Reading, in the collector's thread: the row is not shared yet. */
void
_viva_class_report_read_score (VivaClassReport *self,
                               JsonObject      *root)
{
  VivaReportScoreRecords records;

  viva_report_score_read_records (root, &records);
  self->hints = records.hints;
  self->hint_cost = self->recorded_hint_cost = records.hint_cost;
  g_free (self->exam_id);
  self->exam_id = g_strdup (viva_json_member_string (viva_json_member_object (root, "exam"), "id"));

  if (!records.agree)
    {
      _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_HINTS_EDITED, _("The report’s records of the hints viewed or of their cost disagree, "
                                                                       "so it was edited; the score counts the most hints at the highest cost."));
    }

  /* The score built from items (the examiner's own score stays beside it). */
  {
    JsonObject *verdict = viva_json_member_object (root, "verdict");
    JsonArray *items = viva_json_member_array (verdict, "items");

    self->item_points = self->items_review = -1;
    if (items != NULL && json_array_get_length (items) > 0 &&
        viva_json_member_number (verdict, "points", &self->item_points))
      {
        self->item_points = CLAMP (self->item_points, 0, 100);
        self->items_review = 0;
        for (guint i = 0; i < json_array_get_length (items); i++)
          {
            JsonNode *node = json_array_get_element (items, i);

            self->items_review += JSON_NODE_HOLDS_OBJECT (node) &&
                                  viva_json_member_flag (json_node_get_object (node), "needs_review");
          }
      }
  }

  update_score (self);
}

/**
 * viva_class_report_get_item_points:
 *
 * Returns: the verdict's score built from items (tests, predictions,
 *   conceptual questions), of 100; -1 for a report without items
 */
double
viva_class_report_get_item_points (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1);
  return self->item_points;
}

/**
 * viva_class_report_get_items_review:
 *
 * Returns: the items a teacher should look at; -1 without items
 */
int
viva_class_report_get_items_review (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1);
  return self->items_review;
}

double
viva_class_report_get_model_score (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1);
  return self->model_score;
}

/**
 * viva_class_report_get_hint_cost:
 *
 * Returns: the points of 100 one hint cost: the teacher's exam file's when
 *   one was given for the report's exam, else what the report recorded
 */
double
viva_class_report_get_hint_cost (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), 0);
  return self->hint_cost;
}

/**
 * viva_class_report_describe_score:
 *
 * Returns: (transfer full) (nullable): how the score was made, like
 *   "85 − 2 hints × 10 = 65"; %NULL when nothing was taken off (hints cost
 *   nothing, none was viewed, or there is no examiner's score), and the
 *   score is the examiner's alone
 */
char *
viva_class_report_describe_score (VivaClassReport *self)
{
  VivaReportScore score;

  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  score.examiner = self->model_score;
  score.hints = self->hints;
  score.hint_cost = self->hint_cost;
  if (!viva_report_score_has_cost (&score) || score.hints == 0 || score.examiner < 0)
    return NULL;

  return viva_report_score_describe (&score);
}

/* A report is of the exam when it names it. One that names another exam,
 * or none (a practice defense: practice reports end up in the same
 * folder), is not scored with this exam's cost and stays out of the
 * gradebook, flagged `outside-exam`. Removing the exam from a report
 * therefore gains a student nothing: the report then counts for no
 * grade, and its row says why. */
static gboolean
is_of_exam (VivaClassReport *self,
            VivaExamFile    *exam)
{
  return self->exam_id != NULL && g_strcmp0 (self->exam_id, viva_exam_file_get_id (exam)) == 0;
}

/**
 * viva_class_report_set_exam:
 * @exam: (nullable): the teacher's copy of the exam file, or %NULL to go
 *   back to what the report recorded
 *
 * Takes the hints' cost from @exam for a report of that exam (it names
 * the exam), and flags the report `hint-cost-mismatch` when it recorded
 * another cost; a report of another exam or of practice is flagged
 * `outside-exam` and keeps its own records. Main thread.
 */
void
viva_class_report_set_exam (VivaClassReport *self,
                            VivaExamFile    *exam)
{
  g_return_if_fail (VIVA_IS_CLASS_REPORT (self));
  g_return_if_fail (exam == NULL || VIVA_IS_EXAM_FILE (exam));

  if (!self->readable)
    return;

  self->hint_cost = self->recorded_hint_cost;
  _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_HINT_COST_MISMATCH);
  _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_OUTSIDE_EXAM);

  if (exam != NULL && !is_of_exam (self, exam))
    {
      g_autofree char *note = self->exam_id != NULL && self->exam_id[0] != '\0'
        ? g_strdup_printf (_("The report is of another exam (“%s”), not of “%s”; it is left out of the gradebook."),
                           self->exam_id, viva_exam_file_get_id (exam))
        : g_strdup_printf (_("The report is of a practice defense, not of the exam “%s”; it is left out of the gradebook."),
                           viva_exam_file_get_id (exam));

      _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_OUTSIDE_EXAM, note);
    }
  else if (exam != NULL)
    {
      double cost = viva_exam_file_get_hint_cost (exam);

      if (cost != self->recorded_hint_cost)
        {
          g_autofree char *note = self->recorded_hint_cost > 0
            ? g_strdup_printf (_("The report says a hint cost %g points; your exam file says %g, and that is what the score uses."),
                               self->recorded_hint_cost, cost)
            : g_strdup_printf (_("The report records no hint cost; your exam file says %g points a hint, and that is what the score uses."),
                               cost);

          _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_HINT_COST_MISMATCH, note);
        }
      self->hint_cost = cost;
    }

  update_score (self);
  _viva_class_report_notify_score (self);
}
