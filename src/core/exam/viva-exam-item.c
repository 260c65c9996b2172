/* viva-exam-item.c: one scored part of a verdict, and its JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "viva-exam-item.h"
#include "viva-json-member.h"

G_DEFINE_BOXED_TYPE (VivaExamItem, viva_exam_item, viva_exam_item_copy, viva_exam_item_free)

static const char * const kinds[] = { "engine-test", "prediction", "conceptual" };
static const char * const judges[] = { "engine", "model", "teacher" };

const char *
viva_exam_item_kind_to_string (VivaExamItemKind kind)
{
  return (guint)kind < G_N_ELEMENTS (kinds) ? kinds[kind] : NULL;
}

const char *
viva_exam_judge_to_string (VivaExamJudge judge)
{
  return (guint)judge < G_N_ELEMENTS (judges) ? judges[judge] : NULL;
}

static int
index_of (const char * const *names,
          guint               n,
          const char         *name)
{
  for (guint i = 0; name != NULL && i < n; i++)
    if (g_str_equal (names[i], name))
      return (int)i;
  return -1;
}

/**
 * viva_exam_item_new:
 *
 * Returns: (transfer full): an item of @max_points with no points yet,
 *   judged by the engine for a test or a prediction, by a model otherwise
 */
VivaExamItem *
viva_exam_item_new (VivaExamItemKind  kind,
                    const char       *id,
                    const char       *title,
                    double            max_points)
{
  VivaExamItem *self = g_new0 (VivaExamItem, 1);

  self->id = g_strdup (id);
  self->kind = kind;
  self->title = g_strdup (title);
  self->max_points = MAX (max_points, 0);
  self->judged_by = kind == VIVA_EXAM_ITEM_CONCEPTUAL ? VIVA_EXAM_JUDGE_MODEL : VIVA_EXAM_JUDGE_ENGINE;
  self->scores = g_array_new (FALSE, FALSE, sizeof (double));
  self->evidence = g_ptr_array_new_with_free_func (g_free);

  return self;
}

VivaExamItem *
viva_exam_item_copy (const VivaExamItem *self)
{
  VivaExamItem *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = viva_exam_item_new (self->kind, self->id, self->title, self->max_points);
  copy->step = g_strdup (self->step);
  copy->points = self->points;
  copy->judged_by = self->judged_by;
  copy->needs_review = self->needs_review;
  g_array_append_vals (copy->scores, self->scores->data, self->scores->len);
  for (guint i = 0; i < self->evidence->len; i++)
    g_ptr_array_add (copy->evidence, g_strdup (g_ptr_array_index (self->evidence, i)));
  copy->answer = g_strdup (self->answer);
  copy->expected = g_strdup (self->expected);
  copy->reason = g_strdup (self->reason);
  copy->extra = self->extra ? json_object_ref (self->extra) : NULL;

  return copy;
}

void
viva_exam_item_free (VivaExamItem *self)
{
  if (self == NULL)
    return;

  g_free (self->id);
  g_free (self->title);
  g_free (self->step);
  g_array_unref (self->scores);
  g_ptr_array_unref (self->evidence);
  g_free (self->answer);
  g_free (self->expected);
  g_free (self->reason);
  g_clear_pointer (&self->extra, json_object_unref);
  g_free (self);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

/* One scoring of the item; the points are the median of all so far, so
 * one odd scoring of three does not move them. */
void
viva_exam_item_add_score (VivaExamItem *self,
                          double        points)
{
  g_autoptr(GArray) sorted = NULL;
  guint n;

  g_return_if_fail (self != NULL);

  points = isfinite (points) ? CLAMP (points, 0, self->max_points) : 0;
  g_array_append_val (self->scores, points);

  sorted = g_array_copy (self->scores);
  g_array_sort (sorted, compare_doubles);
  n = sorted->len;
  self->points = n % 2 ? g_array_index (sorted, double, n / 2)
                       : (g_array_index (sorted, double, n / 2 - 1) + g_array_index (sorted, double, n / 2)) / 2;
}

static void
set_string (JsonObject *object,
            const char *name,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
}

/* Points with at most two decimals, so 100/3 reads 33.33 in every file. */
static double
rounded (double value)
{
  return round (value * 100) / 100;
}

/**
 * viva_exam_item_to_json:
 *
 * Returns: (transfer full): the item as the verdict's `items` hold it
 */
JsonObject *
viva_exam_item_to_json (const VivaExamItem *self)
{
  JsonObject *object = json_object_new ();
  JsonArray *scores = json_array_new ();
  JsonArray *evidence = json_array_new ();

  g_return_val_if_fail (self != NULL, object);

  if (self->extra != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, self->extra);
      while (json_object_iter_next (&iter, &name, &value))
        json_object_set_member (object, name, json_node_copy (value));
    }

  set_string (object, "id", self->id);
  json_object_set_string_member (object, "kind", viva_exam_item_kind_to_string (self->kind));
  set_string (object, "title", self->title);
  set_string (object, "step", self->step);
  json_object_set_double_member (object, "points", rounded (self->points));
  json_object_set_double_member (object, "max_points", rounded (self->max_points));
  json_object_set_string_member (object, "judged_by", viva_exam_judge_to_string (self->judged_by));
  json_object_set_boolean_member (object, "needs_review", self->needs_review);
  for (guint i = 0; i < self->scores->len; i++)
    json_array_add_double_element (scores, rounded (g_array_index (self->scores, double, i)));
  json_object_set_array_member (object, "scores", scores);
  for (guint i = 0; i < self->evidence->len; i++)
    json_array_add_string_element (evidence, g_ptr_array_index (self->evidence, i));
  json_object_set_array_member (object, "evidence", evidence);
  set_string (object, "answer", self->answer);
  set_string (object, "expected", self->expected);
  set_string (object, "reason", self->reason);

  return object;
}

static gboolean
known_member (const char *name)
{
  static const char * const known[] = {
    "id", "kind", "title", "step", "points", "max_points", "judged_by", "needs_review",
    "scores", "evidence", "answer", "expected", "reason",
  };

  return index_of (known, G_N_ELEMENTS (known), name) >= 0;
}

/**
 * viva_exam_item_new_from_json:
 *
 * Reads what viva_exam_item_to_json() wrote; members it does not know (a
 * teacher's score) are kept and written back.
 *
 * Returns: (transfer full) (nullable): the item, or %NULL when @object has
 *   no id or no known kind
 */
VivaExamItem *
viva_exam_item_new_from_json (JsonObject *object)
{
  VivaExamItem *self;
  int kind, judge;
  double value = 0;
  JsonArray *array;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  if (object == NULL || viva_json_member_string (object, "id") == NULL ||
      (kind = index_of (kinds, G_N_ELEMENTS (kinds), viva_json_member_string (object, "kind"))) < 0)
    return NULL;

  viva_json_member_number (object, "max_points", &value);
  self = viva_exam_item_new (kind, viva_json_member_string (object, "id"),
                             viva_json_member_string (object, "title"), value);
  self->step = g_strdup (viva_json_member_string (object, "step"));
  if (viva_json_member_number (object, "points", &value) && isfinite (value))
    self->points = CLAMP (value, 0, self->max_points);
  if ((judge = index_of (judges, G_N_ELEMENTS (judges), viva_json_member_string (object, "judged_by"))) >= 0)
    self->judged_by = judge;
  viva_json_member_boolean (object, "needs_review", &self->needs_review);
  if ((array = viva_json_member_array (object, "scores")))
    for (guint i = 0; i < json_array_get_length (array) && i < 16; i++)
      {
        JsonNode *node = json_array_get_element (array, i);

        if (JSON_NODE_HOLDS_VALUE (node) &&
            (json_node_get_value_type (node) == G_TYPE_DOUBLE || json_node_get_value_type (node) == G_TYPE_INT64))
          {
            double score = json_node_get_double (node);

            g_array_append_val (self->scores, score);
          }
      }
  if ((array = viva_json_member_array (object, "evidence")))
    for (guint i = 0; i < json_array_get_length (array) && i < 16; i++)
      {
        JsonNode *node = json_array_get_element (array, i);

        if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
          g_ptr_array_add (self->evidence, g_strdup (json_node_get_string (node)));
      }
  self->answer = g_strdup (viva_json_member_string (object, "answer"));
  self->expected = g_strdup (viva_json_member_string (object, "expected"));
  self->reason = g_strdup (viva_json_member_string (object, "reason"));

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &member))
    if (!known_member (name))
      {
        if (self->extra == NULL)
          self->extra = json_object_new ();
        json_object_set_member (self->extra, name, json_node_copy (member));
      }

  return self;
}

/**
 * viva_exam_items_to_json:
 * @items: (element-type VivaExamItem)
 *
 * Returns: (transfer full): the items as the verdict's `items`
 */
JsonArray *
viva_exam_items_to_json (GPtrArray *items)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; items != NULL && i < items->len; i++)
    json_array_add_object_element (array, viva_exam_item_to_json (g_ptr_array_index (items, i)));

  return array;
}

/**
 * viva_exam_items_new_from_json:
 * @array: (nullable): a verdict's `items`
 *
 * Returns: (transfer full) (element-type VivaExamItem): the items it holds;
 *   what is not an item is skipped
 */
GPtrArray *
viva_exam_items_new_from_json (JsonArray *array)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_item_free);

  for (guint i = 0; array != NULL && i < json_array_get_length (array) && i < 1000; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      VivaExamItem *item = JSON_NODE_HOLDS_OBJECT (node) ? viva_exam_item_new_from_json (json_node_get_object (node)) : NULL;

      if (item != NULL)
        g_ptr_array_add (items, item);
    }

  return items;
}

/**
 * viva_exam_items_sum:
 * @items: (element-type VivaExamItem)
 * @points: (out) (optional): the points given
 * @max_points: (out) (optional): the points there were (100 when the
 *   pack's weights were shared out)
 * @n_review: (out) (optional): items that need a teacher's look
 */
void
viva_exam_items_sum (GPtrArray *items,
                     double    *points,
                     double    *max_points,
                     guint     *n_review)
{
  double given = 0, total = 0;
  guint review = 0;

  for (guint i = 0; items != NULL && i < items->len; i++)
    {
      const VivaExamItem *item = g_ptr_array_index (items, i);

      given += item->points;
      total += item->max_points;
      review += item->needs_review;
    }

  if (points)
    *points = rounded (given);
  if (max_points)
    *max_points = rounded (total);
  if (n_review)
    *n_review = review;
}
