/* viva-problem-exam-check.c: the pack rules of predictions, weights and ask
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "viva-json-check.h"
#include "viva-pack-issue.h"
#include "viva-pack-private.h"

static void
add_error (GPtrArray  *issues,
           const char *parent,
           const char *key,
           const char *message)
{
  g_autofree char *path = key ? viva_json_check_path (parent, key) : g_strdup (parent);

  viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path, "%s", message);
}

static gboolean
is_identifier (const char *name)
{
  if (name == NULL || !(g_ascii_isalpha (name[0]) || name[0] == '_'))
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

static void
check_inputs (JsonObject *prediction,
              const char *path,
              const char *call,
              GPtrArray  *issues)
{
  JsonNode *node = viva_json_check_member (prediction, path, "inputs", FALSE, viva_json_check_is_object,
                                           _("an object"),
                                           _("each input is a name of the call and the Python values the engine draws it from"),
                                           issues);
  g_autofree char *inputs_path = viva_json_check_path (path, "inputs");
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (node == NULL)
    return;

  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      g_autofree char *placeholder = g_strdup_printf ("{%s}", name);
      JsonArray *choices = JSON_NODE_HOLDS_ARRAY (value) ? json_node_get_array (value) : NULL;

      if (!is_identifier (name))
        add_error (issues, inputs_path, name, _("an input's name is a Python name, like X or k"));
      else if (call != NULL && strstr (call, placeholder) == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("the call never uses this input — write “%s” where it goes"),
                                                      placeholder);
          add_error (issues, inputs_path, name, message);
        }

      if (choices == NULL || json_array_get_length (choices) == 0)
        {
          add_error (issues, inputs_path, name,
                     _("is not a list of choices — give the Python values the engine may draw, as strings, like [\"1\", \"3\"]"));
          continue;
        }
      for (guint i = 0; i < json_array_get_length (choices); i++)
        {
          JsonNode *choice = json_array_get_element (choices, i);

          if (!JSON_NODE_HOLDS_VALUE (choice) || json_node_get_value_type (choice) != G_TYPE_STRING ||
              json_node_get_string (choice)[0] == '\0')
            {
              g_autofree char *choice_path = viva_json_check_path (inputs_path, name);
              g_autofree char *element = viva_json_check_path_index (choice_path, i);

              add_error (issues, element, NULL,
                         _("a choice is Python source in a string, like \"[[0, 0], [1, 1]]\""));
            }
        }
    }
}

static void
check_predictions (JsonObject *problem,
                   const char *parent,
                   GPtrArray  *issues)
{
  JsonNode *node = viva_json_check_member (problem, parent, "predictions", FALSE, viva_json_check_is_array,
                                           _("a list"),
                                           _("predictions ask what a call on the student's own code returns"),
                                           issues);
  g_autofree char *list_path = viva_json_check_path (parent, "predictions");
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *array;

  if (node == NULL)
    return;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *path = viva_json_check_path_index (list_path, i);
      JsonObject *prediction;
      const char *id;
      const char *call;
      JsonNode *number;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          add_error (issues, path, NULL, _("a prediction is an object with an id, a call and its inputs"));
          continue;
        }
      prediction = json_node_get_object (element);
      id = viva_json_check_string (prediction, path, "id", TRUE, FALSE,
                                   _("each prediction needs an id, unique in the problem"), issues);
      if (id != NULL && !g_hash_table_add (ids, (gpointer)id))
        add_error (issues, path, "id", _("another prediction of this problem has this id — make each one unique"));
      call = viva_json_check_string (prediction, path, "call", TRUE, FALSE,
                                     _("each prediction needs the call it asks about, like \"knn_predict({X}, {y}, {q}, k={k})\""),
                                     issues);
      check_inputs (prediction, path, call, issues);
      number = viva_json_check_member (prediction, path, "tolerance", FALSE, viva_json_check_is_number,
                                       _("a number"), _("how far a number of the answer may be from the value"),
                                       issues);
      if (number != NULL && !(json_node_get_double (number) >= 0))
        add_error (issues, path, "tolerance", _("a tolerance is 0 or more"));
      viva_json_check_member (prediction, path, "unordered", FALSE, viva_json_check_is_boolean,
                              _("true or false"), _("whether the order of a returned list's items matters"),
                              issues);
    }
}

static void
check_weights (JsonObject *problem,
               const char *parent,
               GPtrArray  *issues)
{
  static const char * const parts[] = { "tests", "predictions", "questions" };
  const char *why = _("the weights are the points of 100 the hidden tests, the predictions and the questions share");
  JsonNode *node = viva_json_check_member (problem, parent, "weights", FALSE, viva_json_check_is_object,
                                           _("an object"), why, issues);
  g_autofree char *path = viva_json_check_path (parent, "weights");
  JsonObject *weights;
  double sum = 0;
  gboolean readable = TRUE;

  if (node == NULL)
    return;

  weights = json_node_get_object (node);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      JsonNode *value = viva_json_check_member (weights, path, parts[i], TRUE, viva_json_check_is_number,
                                                _("a number"), why, issues);

      if (value == NULL)
        readable = FALSE;
      else if (!(json_node_get_double (value) >= 0))
        {
          add_error (issues, path, parts[i], _("a weight is 0 or more"));
          readable = FALSE;
        }
      else
        sum += json_node_get_double (value);
    }

  if (readable && fabs (sum - 100) > 1e-6)
    {
      g_autofree char *message = g_strdup_printf (_("the weights add up to %g, not 100 — make tests, predictions and questions add up to 100"),
                                                  sum);

      add_error (issues, path, NULL, message);
    }
}

static void
check_range (JsonObject *ask,
             const char *parent,
             const char *key,
             GPtrArray  *issues)
{
  JsonNode *node = viva_json_check_member (ask, parent, key, FALSE, viva_json_check_is_object,
                                           _("an object"), _("{“min”, “max”}: how many a defense asks"), issues);
  g_autofree char *path = viva_json_check_path (parent, key);
  gint64 bounds[2] = { 0, 0 };
  static const char * const names[] = { "min", "max" };

  if (node == NULL)
    return;

  for (guint i = 0; i < 2; i++)
    {
      JsonNode *value = viva_json_check_member (json_node_get_object (node), path, names[i], TRUE,
                                                viva_json_check_is_number, _("a whole number"),
                                                _("{“min”, “max”}: how many a defense asks"), issues);

      if (value == NULL)
        return;
      if (json_node_get_value_type (value) != G_TYPE_INT64 ||
          json_node_get_int (value) < 0 || json_node_get_int (value) > 10)
        {
          add_error (issues, path, names[i], _("a whole number from 0 to 10"));
          return;
        }
      bounds[i] = json_node_get_int (value);
    }
  if (bounds[0] > bounds[1])
    add_error (issues, path, NULL, _("min is more than max — a defense asks from min to max of them"));
}

/* Called by the validator for each problem. */
void
_viva_problem_exam_check (JsonObject *problem,
                          const char *path,
                          GPtrArray  *issues)
{
  JsonNode *ask;
  g_autofree char *ask_path = viva_json_check_path (path, "ask");

  check_predictions (problem, path, issues);
  check_weights (problem, path, issues);
  ask = viva_json_check_member (problem, path, "ask", FALSE, viva_json_check_is_object, _("an object"),
                                _("how many questions and predictions a defense asks"), issues);
  if (ask != NULL)
    {
      check_range (json_node_get_object (ask), ask_path, "questions", issues);
      check_range (json_node_get_object (ask), ask_path, "predictions", issues);
    }
}
