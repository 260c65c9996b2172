/* viva-grading-limit.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-grading-limit.h"

/* An exam's `grading_limit`: each problem may be graded (a Check or a
 * Submit) at most `count` times in any window of `per_minutes` minutes, so
 * the grader is no oracle to be asked a thousand times. The times of each
 * problem's gradings are kept in the sitting's state file, so a restart
 * within the exam does not start the count again (a student who deletes
 * that file loses the whole sitting, clock and all; an exam server keeps
 * its own).
 *
 * Times are Unix seconds, given by the caller, so a test can move the
 * clock. */

G_DEFINE_QUARK (viva-grading-error-quark, viva_grading_error)

struct _VivaGradingLimit
{
  GObject     parent_instance;
  guint       count;
  guint       per_minutes;
  GHashTable *times;   /* problem id → GArray of gint64, oldest first */
};

G_DEFINE_FINAL_TYPE (VivaGradingLimit, viva_grading_limit, G_TYPE_OBJECT)

static void
viva_grading_limit_finalize (GObject *object)
{
  VivaGradingLimit *self = (VivaGradingLimit *)object;

  g_clear_pointer (&self->times, g_hash_table_unref);

  G_OBJECT_CLASS (viva_grading_limit_parent_class)->finalize (object);
}

static void
viva_grading_limit_class_init (VivaGradingLimitClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_grading_limit_finalize;
}

static void
viva_grading_limit_init (VivaGradingLimit *self)
{
  self->times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
}

/**
 * viva_grading_limit_new:
 * @count: how many gradings of one problem, at least 1
 * @per_minutes: in any window of this many minutes, at least 1
 */
VivaGradingLimit *
viva_grading_limit_new (guint count,
                        guint per_minutes)
{
  VivaGradingLimit *self;

  g_return_val_if_fail (count > 0 && per_minutes > 0, NULL);

  self = g_object_new (VIVA_TYPE_GRADING_LIMIT, NULL);
  self->count = count;
  self->per_minutes = per_minutes;
  return self;
}

/* @problem_id's gradings inside the window that ends at @now. */
static GArray *
window (VivaGradingLimit *self,
        const char       *problem_id,
        gint64            now)
{
  GArray *times = g_hash_table_lookup (self->times, problem_id);
  gint64 start = now - (gint64) self->per_minutes * 60;
  guint old = 0;

  if (times == NULL)
    {
      times = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (self->times, g_strdup (problem_id), times);
    }

  while (old < times->len && g_array_index (times, gint64, old) <= start)
    old++;
  if (old > 0)
    g_array_remove_range (times, 0, old);
  return times;
}

/**
 * viva_grading_limit_next:
 * @now: the time, in Unix seconds
 *
 * Returns: when @problem_id may be graded again, in Unix seconds; @now or
 *   earlier when it may be graded now
 */
gint64
viva_grading_limit_next (VivaGradingLimit *self,
                         const char       *problem_id,
                         gint64            now)
{
  GArray *times;

  g_return_val_if_fail (VIVA_IS_GRADING_LIMIT (self), 0);
  g_return_val_if_fail (problem_id != NULL, 0);

  times = window (self, problem_id, now);
  if (times->len < self->count)
    return now;
  /* The oldest grading of the window leaves it then. */
  return g_array_index (times, gint64, times->len - self->count) + (gint64) self->per_minutes * 60;
}

/**
 * viva_grading_limit_take:
 * @now: the time, in Unix seconds
 *
 * Counts one grading of @problem_id at @now, if the limit allows it.
 *
 * Returns: %TRUE when it does; %FALSE with %VIVA_GRADING_ERROR_LIMITED and a
 *   sentence saying when the student may try again
 */
gboolean
viva_grading_limit_take (VivaGradingLimit  *self,
                         const char        *problem_id,
                         gint64             now,
                         GError           **error)
{
  gint64 next;

  g_return_val_if_fail (VIVA_IS_GRADING_LIMIT (self), FALSE);
  g_return_val_if_fail (problem_id != NULL, FALSE);

  next = viva_grading_limit_next (self, problem_id, now);
  if (next > now)
    {
      g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (next);
      g_autoptr(GDateTime) local = g_date_time_to_local (utc);
      g_autofree char *at = g_date_time_format (local, "%H:%M:%S");
      g_autofree char *times = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u time", "%u times", self->count),
                                                self->count);
      g_autofree char *minutes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u minute", "%u minutes", self->per_minutes),
                                                  self->per_minutes);

      /* Translators: “3 times”, then “10 minutes”, then a time of day such as 14:05:30 */
      g_set_error (error, VIVA_GRADING_ERROR, VIVA_GRADING_ERROR_LIMITED,
                   _("This exam lets a problem be graded %s in any %s, and this one has been; you may Check or Submit it again at %s."),
                   times, minutes, at);
      return FALSE;
    }

  g_array_append_val (window (self, problem_id, now), now);
  return TRUE;
}

/**
 * viva_grading_limit_save:
 * @builder: a builder inside an object
 *
 * Adds `"gradings": {problem id: [Unix seconds, …]}`.
 */
void
viva_grading_limit_save (VivaGradingLimit *self,
                         JsonBuilder      *builder)
{
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (VIVA_IS_GRADING_LIMIT (self));

  json_builder_set_member_name (builder, "gradings");
  json_builder_begin_object (builder);
  g_hash_table_iter_init (&iter, self->times);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *times = value;

      json_builder_set_member_name (builder, key);
      json_builder_begin_array (builder);
      for (guint i = 0; i < times->len; i++)
        json_builder_add_int_value (builder, g_array_index (times, gint64, i));
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
}

/**
 * viva_grading_limit_restore:
 * @root: a state file's object, as viva_grading_limit_save() wrote it
 *
 * Takes back the gradings kept; anything not in that form is skipped.
 */
void
viva_grading_limit_restore (VivaGradingLimit *self,
                            JsonObject       *root)
{
  JsonObjectIter iter;
  JsonNode *gradings, *value;
  const char *problem_id;

  g_return_if_fail (VIVA_IS_GRADING_LIMIT (self));

  if (root == NULL || !(gradings = json_object_get_member (root, "gradings")) || !JSON_NODE_HOLDS_OBJECT (gradings))
    return;

  json_object_iter_init (&iter, json_node_get_object (gradings));
  while (json_object_iter_next (&iter, &problem_id, &value))
    {
      GArray *times;
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (value))
        continue;

      times = g_array_new (FALSE, FALSE, sizeof (gint64));
      array = json_node_get_array (value);
      /* At most a count's worth: more could never matter. */
      for (guint i = json_array_get_length (array) > self->count ? json_array_get_length (array) - self->count : 0;
           i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_INT64)
            {
              gint64 t = json_node_get_int (element);

              if (times->len == 0 || t >= g_array_index (times, gint64, times->len - 1))
                g_array_append_val (times, t);
            }
        }
      g_hash_table_replace (self->times, g_strdup (problem_id), times);
    }
}
