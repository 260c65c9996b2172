/* viva-report-score.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-json-member.h"
#include "viva-report-score.h"

/* The one place the hint cost is taken off a score, and worded, so the
 * report, the Class Results table, its exports and viva-cli all say the
 * same figure the same way. An exam's `hints.cost` is points of 100 per
 * hint viewed; the examiner's score stays beside the final one, so a
 * teacher sees how it was made. */

/**
 * viva_report_score_final:
 *
 * Returns: the examiner's score less the hints' cost, never below 0; -1
 *   when there is no examiner's score
 */
double
viva_report_score_final (const VivaReportScore *score)
{
  g_return_val_if_fail (score != NULL, -1);

  if (score->examiner < 0)
    return -1;

  return MAX (0, score->examiner - score->hints * MAX (0, score->hint_cost));
}

/**
 * viva_report_score_has_cost:
 *
 * Returns: whether hints cost anything, so the score has to be shown as
 *   examiner's score, hints and final score rather than as one figure
 */
gboolean
viva_report_score_has_cost (const VivaReportScore *score)
{
  g_return_val_if_fail (score != NULL, FALSE);

  return score->hint_cost > 0;
}

/* A score as people write it: 85, 72.5. */
static char *
format_points (double points)
{
  return g_strdup_printf ("%g", points);
}

/**
 * viva_report_score_describe:
 *
 * Returns: (transfer full): how the final score is made, like
 *   "85 − 2 hints × 10 = 65", or "" when there is no examiner's score
 */
char *
viva_report_score_describe (const VivaReportScore *score)
{
  g_autofree char *examiner = NULL;
  g_autofree char *cost = NULL;
  g_autofree char *final = NULL;

  g_return_val_if_fail (score != NULL, NULL);

  if (score->examiner < 0)
    return g_strdup ("");

  examiner = format_points (score->examiner);
  cost = format_points (score->hint_cost);
  final = format_points (viva_report_score_final (score));

  /* Translators: the examiner's score, the hints viewed, the points each
   * costs and the final score, as in "85 − 2 hints × 10 = 65". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s − %u hint × %s = %s", "%s − %u hints × %s = %s", score->hints),
                          examiner, score->hints, cost, final);
}

/**
 * viva_report_score_to_json:
 *
 * Returns: (transfer full): the report's `score` member: `examiner`,
 *   `hints`, `hint_cost` and `final` (the scores null when the examiner
 *   gave none)
 */
JsonObject *
viva_report_score_to_json (const VivaReportScore *score)
{
  JsonObject *object = json_object_new ();

  g_return_val_if_fail (score != NULL, NULL);

  if (score->examiner < 0)
    json_object_set_null_member (object, "examiner");
  else
    json_object_set_double_member (object, "examiner", score->examiner);
  json_object_set_int_member (object, "hints", score->hints);
  json_object_set_double_member (object, "hint_cost", score->hint_cost);
  if (score->examiner < 0)
    json_object_set_null_member (object, "final");
  else
    json_object_set_double_member (object, "final", viva_report_score_final (score));

  return object;
}

static void
note_cost (VivaReportScoreRecords *records,
           gboolean               *seen,
           double                  cost)
{
  if (*seen && cost != records->hint_cost)
    records->agree = FALSE;
  records->hint_cost = *seen ? MAX (records->hint_cost, cost) : cost;
  *seen = TRUE;
}

/**
 * viva_report_score_read_records:
 * @root: a checkpoint's or a report's top object
 * @records: (out caller-allocates): what it recorded
 *
 * Reads the hints viewed and their cost from every place a session or its
 * report keeps them: the timeline's `hint` events (each with the `cost`
 * in force), the exam's `hint_cost`, the trace's word that the hint was
 * used (`integrity.hint_used`) and the report's own `score`. Thread-safe.
 */
void
viva_report_score_read_records (JsonObject             *root,
                                VivaReportScoreRecords *records)
{
  JsonNode *node = root ? json_object_get_member (root, "timeline") : NULL;
  JsonArray *timeline = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  JsonObject *integrity = viva_json_member_object (root, "integrity");
  JsonObject *score = viva_json_member_object (root, "score");
  JsonObject *verdict = viva_json_member_object (root, "verdict");
  gboolean cost_seen = FALSE;
  guint events = 0;
  double value;

  g_return_if_fail (records != NULL);

  records->hints = 0;
  records->hint_cost = 0;
  records->agree = TRUE;

  for (guint i = 0; timeline != NULL && i < json_array_get_length (timeline); i++)
    {
      JsonNode *element = json_array_get_element (timeline, i);
      JsonObject *event = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonNode *kind = event ? json_object_get_member (event, "kind") : NULL;

      if (kind == NULL || !JSON_NODE_HOLDS_VALUE (kind) || json_node_get_value_type (kind) != G_TYPE_STRING ||
          g_strcmp0 (json_node_get_string (kind), "hint") != 0)
        continue;

      events++;
      if (viva_json_member_number (event, "cost", &value))
        note_cost (records, &cost_seen, value);
    }
  /* A report is one problem's, and a problem has one hint: the timeline
   * keeps every time it was shown, for the teacher to read, but showing
   * it again after switching problems or reopening Viva reveals nothing
   * new and costs nothing more. */
  records->hints = MIN (events, 1);

  /* The trace says the hint was seen before the defense began. Its events
   * may have gone to an earlier defense of the same problem, so seeing no
   * event here is no edit; but the hint was seen, and this defense's
   * score is the one a gradebook takes. */
  if (integrity != NULL && (node = json_object_get_member (integrity, "hint_used")) &&
      JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
      json_node_get_boolean (node))
    records->hints = MAX (records->hints, 1);

  if (viva_json_member_number (viva_json_member_object (root, "exam"), "hint_cost", &value))
    {
      note_cost (records, &cost_seen, value);
      /* A report made since sessions keep the exam's cost has its own
       * account of the score whenever the cost is above 0; older reports
       * had neither. One without it lost it to an edit. */
      if (value > 0 && score == NULL)
        records->agree = FALSE;
    }

  /* The report's own account, written when it was made. */
  if (score != NULL)
    {
      VivaReportScore recomputed = { -1, 0, 0 };
      double final;

      if (viva_json_member_number (score, "hint_cost", &value))
        note_cost (records, &cost_seen, value);
      if (viva_json_member_number (score, "hints", &value) && value >= 0)
        {
          if ((guint)value != records->hints)
            records->agree = FALSE;
          records->hints = MAX (records->hints, (guint)MIN (value, G_MAXUINT));
        }
      if (viva_json_member_number (score, "examiner", &value))
        {
          double verdict_score;

          if (!viva_json_member_number (verdict, "score", &verdict_score) || verdict_score != value)
            records->agree = FALSE;

          recomputed.examiner = value;
          recomputed.hints = records->hints;
          recomputed.hint_cost = records->hint_cost;
          if (viva_json_member_number (score, "final", &final) && final != viva_report_score_final (&recomputed))
            records->agree = FALSE;
        }
    }

  records->hint_cost = CLAMP (records->hint_cost, 0, 100);
}
