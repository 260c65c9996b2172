/* viva-exam-verdict-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-error.h"
#include "viva-exam-private.h"
#include "viva-exam-verdict-private.h"
#include "viva-json-member.h"

/* A verdict as the checkpoint and the report keep it, and back: read
 * leniently where an older Viva wrote less, and strictly where a value
 * would change the outcome. */

static JsonArray *
strv_to_array (GStrv strv)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; strv != NULL && strv[i]; i++)
    json_array_add_string_element (array, strv[i]);

  return array;
}

/**
 * viva_exam_verdict_to_json:
 *
 * Returns: (transfer full): the verdict with the engine's facts, as stored
 *   in checkpoints and reports
 */
JsonNode *
viva_exam_verdict_to_json (VivaExamVerdict *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonArray) probes = json_array_new ();
  JsonNode *node;

  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);

  json_object_set_string_member (object, "status", viva_exam_status_to_string (self->status));
  json_object_set_string_member (object, "verdict", self->passed ? "pass" : "fail");
  json_object_set_string_member (object, "model_verdict", self->model_passed ? "pass" : "fail");
  json_object_set_boolean_member (object, "engine_pass", viva_exam_verdict_get_engine_pass (self));
  json_object_set_boolean_member (object, "consistent", viva_exam_verdict_get_consistent (self));
  if (self->graded)
    {
      g_autoptr(JsonObject) hidden = json_object_new ();

      json_object_set_int_member (hidden, "passed", self->grade ? viva_grade_report_get_n_passed (self->grade) : 0);
      json_object_set_int_member (hidden, "total", self->grade ? viva_grade_report_get_n_tests (self->grade) : 0);
      json_object_set_int_member (hidden, "out_of_process",
                                  self->grade ? viva_grade_report_get_n_out_of_process (self->grade) : 0);
      json_object_set_object_member (object, "hidden_tests", g_steal_pointer (&hidden));
      if (self->grade != NULL)
        json_object_set_member (object, "grade", viva_grade_report_to_json (self->grade));
      else
        json_object_set_null_member (object, "grade");
      if (self->grade_error)
        json_object_set_string_member (object, "grade_error", self->grade_error);
    }
  if (self->explanation)
    json_object_set_string_member (object, "explanation", self->explanation);
  json_object_set_int_member (object, "score", self->score);
  if (self->comment)
    json_object_set_string_member (object, "comment", self->comment);
  if (self->reason)
    json_object_set_string_member (object, "reason", self->reason);
  json_object_set_array_member (object, "steps", strv_to_array (self->steps));
  json_object_set_array_member (object, "evidence", strv_to_array (self->evidence));

  for (guint i = 0; i < self->probes->len; i++)
    {
      const VivaExamProbe *probe = g_ptr_array_index (self->probes, i);
      g_autoptr(JsonObject) p = json_object_new ();

      json_object_set_string_member (p, "step", probe->step_id);
      json_object_set_string_member (p, "code", probe->code);
      json_object_set_boolean_member (p, "passed", probe->passed);
      json_object_set_boolean_member (p, "valid", probe->valid);
      json_object_set_string_member (p, "status", probe->status);
      if (probe->error_type)
        json_object_set_string_member (p, "error_type", probe->error_type);
      if (probe->error_message)
        json_object_set_string_member (p, "error_message", probe->error_message);
      if (probe->name)
        json_object_set_string_member (p, "name", probe->name);
      json_array_add_object_element (probes, g_steal_pointer (&p));
    }
  json_object_set_array_member (object, "probes", g_steal_pointer (&probes));
  json_object_set_int_member (object, "withheld", self->n_withheld);
  if (self->items->len > 0)
    {
      json_object_set_array_member (object, "items", viva_exam_items_to_json (self->items));
      json_object_set_double_member (object, "points", viva_exam_verdict_get_points (self));
      json_object_set_double_member (object, "max_points", viva_exam_verdict_get_max_points (self));
      json_object_set_boolean_member (object, "provisional", viva_exam_verdict_get_provisional (self));
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, object);
  return node;
}

static GPtrArray *
get_strings (JsonObject *object,
             const char *member)
{
  JsonNode *node = json_object_get_member (object, member);
  GPtrArray *array = g_ptr_array_new_with_free_func (g_free);

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *list = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (list); i++)
        {
          JsonNode *element = json_array_get_element (list, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
            g_ptr_array_add (array, g_strdup (json_node_get_string (element)));
        }
    }

  return array;
}

/**
 * viva_exam_verdict_new_from_json:
 *
 * Reads what viva_exam_verdict_to_json() wrote.
 *
 * Returns: (transfer full): the verdict, or %NULL with
 *   %VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT
 */
VivaExamVerdict *
viva_exam_verdict_new_from_json (JsonNode  *node,
                                 GError   **error)
{
  JsonObject *object;
  const char *status;
  const char *verdict;
  JsonNode *score;
  JsonNode *probes;
  g_autoptr(GPtrArray) steps = NULL;
  g_autoptr(GPtrArray) evidence = NULL;
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_probe_free);
  VivaExamStatus value;
  VivaExamVerdict *result;
  JsonNode *withheld;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      !(object = json_node_get_object (node)) ||
      !(status = viva_json_member_string (object, "status")) ||
      !(verdict = viva_json_member_string (object, "verdict")))
    {
      g_set_error_literal (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT,
                           _("The verdict is not readable."));
      return NULL;
    }

  if (g_str_equal (status, "finished"))
    value = VIVA_EXAM_STATUS_FINISHED;
  else if (g_str_equal (status, "incomplete"))
    value = VIVA_EXAM_STATUS_INCOMPLETE;
  else if (g_str_equal (status, "failed"))
    value = VIVA_EXAM_STATUS_FAILED;
  else
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT,
                   _("The verdict has an unknown status “%s”."), status);
      return NULL;
    }

  score = json_object_get_member (object, "score");
  probes = json_object_get_member (object, "probes");
  if (probes != NULL && JSON_NODE_HOLDS_ARRAY (probes))
    {
      JsonArray *list = json_node_get_array (probes);

      for (guint i = 0; i < json_array_get_length (list); i++)
        {
          JsonNode *element = json_array_get_element (list, i);
          JsonObject *p;
          VivaExamProbe *probe;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;
          p = json_node_get_object (element);
          probe = g_new0 (VivaExamProbe, 1);
          probe->step_id = g_strdup (viva_json_member_string (p, "step"));
          probe->code = g_strdup (viva_json_member_string (p, "code"));
          probe->passed = json_object_get_boolean_member_with_default (p, "passed", FALSE);
          probe->valid = json_object_get_boolean_member_with_default (p, "valid", TRUE);
          probe->status = g_strdup (viva_json_member_string (p, "status"));
          probe->error_type = g_strdup (viva_json_member_string (p, "error_type"));
          probe->error_message = g_strdup (viva_json_member_string (p, "error_message"));
          probe->name = g_strdup (viva_json_member_string (p, "name"));
          g_ptr_array_add (records, probe);
        }
    }

  steps = get_strings (object, "steps");
  evidence = get_strings (object, "evidence");

  result = _viva_exam_verdict_new (value,
                                 g_str_equal (verdict, "pass"),
                                 score && JSON_NODE_HOLDS_VALUE (score) &&
                                 json_node_get_value_type (score) == G_TYPE_INT64
                                   ? (int)CLAMP (json_node_get_int (score), -1, 100) : -1,
                                 viva_json_member_string (object, "comment"),
                                 viva_json_member_string (object, "reason"),
                                 steps, evidence, records);
  /* The engine's facts; a verdict of an older Viva has none. */
  if (viva_json_member_string (object, "model_verdict") != NULL)
    result->model_passed = g_str_equal (viva_json_member_string (object, "model_verdict"), "pass");
  if (json_object_has_member (object, "hidden_tests"))
    {
      JsonNode *grade = json_object_get_member (object, "grade");
      g_autoptr(VivaGradeReport) report = NULL;

      if (grade != NULL && JSON_NODE_HOLDS_OBJECT (grade))
        report = viva_grade_report_new_from_json (grade, NULL);
      g_set_object (&result->grade, report);
      result->grade_error = g_strdup (viva_json_member_string (object, "grade_error"));
      result->graded = TRUE;
      result->passed = g_str_equal (verdict, "pass");
      result->explanation = g_strdup (viva_json_member_string (object, "explanation"));
    }

  withheld = json_object_get_member (object, "withheld");
  if (withheld != NULL && JSON_NODE_HOLDS_VALUE (withheld) && json_node_get_value_type (withheld) == G_TYPE_INT64)
    result->n_withheld = (guint)CLAMP (json_node_get_int (withheld), 0, G_MAXUINT);

  {
    g_autoptr(GPtrArray) items = viva_exam_items_new_from_json (viva_json_member_array (object, "items"));

    _viva_exam_verdict_set_items (result, items);
  }

  return result;
}
