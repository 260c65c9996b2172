/* viva-class-report-teacher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "viva-class-report-private.h"
#include "viva-json-member.h"

/* The teacher's score of a row stands beside the examiner's and never
 * replaces it in the row: the report keeps what Viva said, the teacher's
 * score comes from the teacher's own data (VivaTeacherScores), and only
 * the exports' grade (viva_class_report_get_graded_score()) prefers it.
 *
 * A teacher scores a whole defense (a CSV line, or the window's review of
 * a defense) or one item of its verdict (the review queue's). An item's
 * score changes the defense's by the difference of points, scaled as the
 * verdict's points are to 100: with Viva's final score S, items worth M
 * points in all and the teacher giving t where Viva gave p, the teacher's
 * score is S + Σ(t − p)·100/M, within 0–100. A whole-defense score wins.
 *
 * The report's items are the student's file: a `teacher` member a report
 * carries is ignored (VivaExamItem keeps it as an unknown member); only
 * the teacher's data sets a teacher's score. */

typedef struct
{
  double  points;
  char   *note;
} TeacherItem;

static void
teacher_item_free (gpointer data)
{
  TeacherItem *item = data;

  g_free (item->note);
  g_free (item);
}

/* Reading, in the collector's thread. */
void
_viva_class_report_read_items (VivaClassReport *self,
                               JsonObject      *verdict)
{
  g_clear_pointer (&self->items, g_ptr_array_unref);
  self->items = viva_exam_items_new_from_json (viva_json_member_array (verdict, "items"));
  self->provisional = FALSE;
  viva_json_member_boolean (verdict, "provisional", &self->provisional);

  self->items_max_points = 0;
  for (guint i = 0; i < self->items->len; i++)
    {
      const VivaExamItem *item = g_ptr_array_index (self->items, i);

      if (isfinite (item->max_points) && item->max_points > 0)
        self->items_max_points += item->max_points;
    }
}

/**
 * viva_class_report_get_items:
 *
 * Returns: (transfer none) (element-type VivaExamItem): the verdict's
 *   items, as the report has them (none for an older report)
 */
GPtrArray *
viva_class_report_get_items (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  if (self->items == NULL)
    self->items = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_item_free);

  return self->items;
}

/**
 * viva_class_report_count_needs_review:
 *
 * Returns: how many of the verdict's items need a teacher's look
 */
guint
viva_class_report_count_needs_review (VivaClassReport *self)
{
  GPtrArray *items = viva_class_report_get_items (self);
  guint n = 0;

  for (guint i = 0; i < items->len; i++)
    n += ((const VivaExamItem *)g_ptr_array_index (items, i))->needs_review;

  return n;
}

/**
 * viva_class_report_get_provisional:
 *
 * Returns: whether the verdict says its score is provisional (an item
 *   needs review)
 */
gboolean
viva_class_report_get_provisional (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), FALSE);

  return self->provisional || viva_class_report_count_needs_review (self) > 0;
}

static gboolean
same_items (GHashTable *a,
            GHashTable *b)
{
  GHashTableIter iter;
  gpointer key, value;

  if ((a ? g_hash_table_size (a) : 0) != (b ? g_hash_table_size (b) : 0))
    return FALSE;
  if (a == NULL)
    return TRUE;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      TeacherItem *x = value;
      TeacherItem *y = g_hash_table_lookup (b, key);

      if (y == NULL || x->points != y->points || g_strcmp0 (x->note, y->note) != 0)
        return FALSE;
    }

  return TRUE;
}

/**
 * viva_class_report_apply_teacher:
 * @scores: (nullable): the teacher's scores
 *
 * Copies the teacher's scores of this defense and of its items into the
 * row. Main thread.
 */
void
viva_class_report_apply_teacher (VivaClassReport   *self,
                                 VivaTeacherScores *scores)
{
  const VivaTeacherScore *whole = NULL;
  g_autoptr(GHashTable) items = NULL;
  GPtrArray *own_items;
  double value;
  int verdict;
  const char *note;

  g_return_if_fail (VIVA_IS_CLASS_REPORT (self));
  g_return_if_fail (scores == NULL || VIVA_IS_TEACHER_SCORES (scores));

  if (!self->readable)
    return;

  own_items = viva_class_report_get_items (self);
  if (scores != NULL)
    {
      whole = viva_teacher_scores_lookup (scores, self->student_id, self->problem_id, self->session, NULL);
      for (guint i = 0; i < own_items->len; i++)
        {
          const VivaExamItem *item = g_ptr_array_index (own_items, i);
          const VivaTeacherScore *score = viva_teacher_scores_lookup (scores, self->student_id, self->problem_id,
                                                                      self->session, item->id);
          TeacherItem *copy;

          if (score == NULL)
            continue;
          if (items == NULL)
            items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, teacher_item_free);
          copy = g_new0 (TeacherItem, 1);
          copy->points = MIN (score->score, MAX (0, item->max_points));
          copy->note = g_strdup (score->note);
          g_hash_table_insert (items, g_strdup (item->id), copy);
        }
    }

  /* The teacher's data, but a file all the same: a defense's score is 0–100. */
  value = whole != NULL ? CLAMP (whole->score, 0, 100) : -1;
  verdict = whole != NULL ? whole->verdict : VIVA_CALIBRATION_UNKNOWN;
  note = whole != NULL ? whole->note : NULL;
  if (value == self->teacher_score && verdict == self->teacher_verdict &&
      g_strcmp0 (note, self->teacher_note) == 0 && same_items (items, self->teacher_items))
    return;

  self->teacher_score = value;
  self->teacher_verdict = verdict;
  g_free (self->teacher_note);
  self->teacher_note = g_strdup (note);
  g_clear_pointer (&self->teacher_items, g_hash_table_unref);
  self->teacher_items = g_steal_pointer (&items);
  _viva_class_report_notify_score (self);
}

/* The page a teacher opens from the class: the teacher's own scores beside
 * Viva's. Every `teacher` member the report carries goes first (it is the
 * student's file), then the teacher's data puts its own in: each scored
 * item's `teacher` {points, note}, and the defense's `teacher` {score,
 * note} when the teacher scored it (whole, or through its items). */
void
_viva_class_report_put_teacher (VivaClassReport *self,
                                JsonObject      *root)
{
  JsonObject *verdict = viva_json_member_object (root, "verdict");
  JsonArray *items = verdict ? viva_json_member_array (verdict, "items") : NULL;
  double score = viva_class_report_get_teacher_score (self);

  if (json_object_has_member (root, "teacher"))
    json_object_remove_member (root, "teacher");

  for (guint i = 0; items != NULL && i < json_array_get_length (items); i++)
    {
      JsonNode *node = json_array_get_element (items, i);
      JsonObject *item = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *id = item ? viva_json_member_string (item, "id") : NULL;
      const char *note = NULL;
      double points;

      if (item == NULL)
        continue;
      if (json_object_has_member (item, "teacher"))
        json_object_remove_member (item, "teacher");
      if (id != NULL && (points = viva_class_report_get_item_teacher_points (self, id, &note)) >= 0)
        {
          JsonObject *teacher = json_object_new ();

          json_object_set_double_member (teacher, "points", points);
          if (note != NULL && *note != '\0')
            json_object_set_string_member (teacher, "note", note);
          json_object_set_object_member (item, "teacher", teacher);
        }
    }

  if (score >= 0)
    {
      JsonObject *teacher = json_object_new ();
      const char *note = viva_class_report_get_teacher_note (self);

      json_object_set_double_member (teacher, "score", score);
      if (note != NULL && *note != '\0')
        json_object_set_string_member (teacher, "note", note);
      json_object_set_object_member (root, "teacher", teacher);
    }
}

/**
 * viva_class_report_get_item_teacher_points:
 * @item_id: one of the verdict's items
 * @note: (out) (optional) (transfer none) (nullable): the teacher's note
 *
 * Returns: the teacher's points for the item, or -1 when none
 */
double
viva_class_report_get_item_teacher_points (VivaClassReport  *self,
                                           const char       *item_id,
                                           const char      **note)
{
  TeacherItem *item;

  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1);

  item = self->teacher_items != NULL ? g_hash_table_lookup (self->teacher_items, item_id) : NULL;
  if (note != NULL)
    *note = item != NULL ? item->note : NULL;

  return item != NULL ? item->points : -1;
}

/**
 * viva_class_report_get_teacher_score:
 *
 * Returns: the teacher's score, 0–100: the one given to the defense, else
 *   Viva's changed by the items the teacher scored; -1 when the teacher
 *   scored neither
 */
double
viva_class_report_get_teacher_score (VivaClassReport *self)
{
  double delta = 0;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1);

  if (self->teacher_score >= 0)
    return self->teacher_score;
  if (self->teacher_items == NULL || self->score < 0 || self->items_max_points <= 0)
    return -1;

  g_hash_table_iter_init (&iter, self->teacher_items);
  while (g_hash_table_iter_next (&iter, &key, &value))
    for (guint i = 0; i < self->items->len; i++)
      {
        const VivaExamItem *item = g_ptr_array_index (self->items, i);

        if (g_str_equal (item->id, key))
          {
            delta += ((TeacherItem *)value)->points - item->points;
            break;
          }
      }

  return CLAMP (self->score + delta * 100 / self->items_max_points, 0, 100);
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
 * Returns: (nullable): the teacher's note on their score of the defense,
 *   else their notes on its items, in the items' order
 */
const char *
viva_class_report_get_teacher_note (VivaClassReport *self)
{
  g_autoptr(GString) notes = NULL;

  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  if (self->teacher_score >= 0 || self->teacher_items == NULL)
    return self->teacher_score >= 0 ? self->teacher_note : NULL;

  notes = g_string_new (NULL);
  for (guint i = 0; i < self->items->len; i++)
    {
      const VivaExamItem *item = g_ptr_array_index (self->items, i);
      TeacherItem *teacher = g_hash_table_lookup (self->teacher_items, item->id);

      if (teacher == NULL || teacher->note == NULL)
        continue;
      if (notes->len > 0)
        g_string_append (notes, " ");
      g_string_append_printf (notes, "%s: %s", item->title != NULL ? item->title : item->id, teacher->note);
    }

  /* Kept in the row so the pointer lives as long as the scores do. */
  g_free (self->teacher_items_note);
  self->teacher_items_note = notes->len > 0 ? g_string_free (g_steal_pointer (&notes), FALSE) : NULL;

  return self->teacher_items_note;
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
  double teacher;

  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1);

  teacher = viva_class_report_get_teacher_score (self);
  return teacher >= 0 ? teacher : self->score;
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
