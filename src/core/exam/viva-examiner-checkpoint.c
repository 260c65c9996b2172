/* viva-examiner-checkpoint.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-examiner-private.h"
#include "viva-openai-model.h"
#include "viva-pack.h"

/* The examiner's whole resumable state as a checkpoint document, and back.
 * viva_exam_checkpoint_parse() (in viva-exam-session-load.c) has validated the
 * document's shape before _viva_examiner_from_checkpoint() reads it. */

static void
hash_field (GChecksum  *checksum,
            const char *value)
{
  /* A separator that cannot occur in text keeps "ab"+"c" from "a"+"bc". */
  g_checksum_update (checksum, (const guchar *)(value ? value : ""), -1);
  g_checksum_update (checksum, (const guchar *)"\x1f", 1);
}

/* What the checkpoint was made for, so a resume against a changed problem
 * is caught. */
char *
_viva_examiner_problem_hash (VivaProblem *problem)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

  hash_field (checksum, viva_problem_get_id (problem));
  hash_field (checksum, viva_problem_get_title (problem));
  hash_field (checksum, viva_problem_get_description (problem));
  hash_field (checksum, viva_problem_get_reference (problem));
  hash_field (checksum, viva_problem_get_rubric (problem));
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      hash_field (checksum, viva_problem_get_test (problem, i)->name);
      hash_field (checksum, viva_problem_get_test (problem, i)->code);
    }
  for (guint i = 0; i < viva_problem_get_n_questions (problem); i++)
    hash_field (checksum, viva_problem_get_question (problem, i)->question);

  return g_strdup (g_checksum_get_string (checksum));
}

static JsonObject *
public_problem (VivaProblem *problem)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "title", viva_problem_get_title (problem));
  json_object_set_string_member (object, "description", viva_problem_get_description (problem) ?: "");

  return object;
}

static const char *
phase_to_string (VivaExamPhase phase)
{
  switch (phase)
    {
    case VIVA_EXAM_PHASE_TOOL: return "tool";
    case VIVA_EXAM_PHASE_DONE: return "done";
    case VIVA_EXAM_PHASE_MODEL:
    default: return "model";
    }
}

static JsonObject *
step_to_json (VivaExamStep *step)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "id", step->id);
  json_object_set_string_member (object, "name", step->name);
  json_object_set_string_member (object, "arguments", step->arguments ? step->arguments : "");
  json_object_set_boolean_member (object, "ok", step->ok);
  json_object_set_double_member (object, "duration_ms", step->duration_ms);
  if (step->result)
    json_object_set_object_member (object, "result", json_object_ref (step->result));

  if (step->probe)
    {
      JsonObject *probe = json_object_new ();

      json_object_set_boolean_member (probe, "passed", step->probe->passed);
      json_object_set_boolean_member (probe, "valid", step->probe->valid);
      json_object_set_string_member (probe, "status", step->probe->status);
      json_object_set_string_member (probe, "code", step->probe->code);
      if (step->probe->error_type)
        json_object_set_string_member (probe, "error_type", step->probe->error_type);
      if (step->probe->error_message)
        json_object_set_string_member (probe, "error_message", step->probe->error_message);
      json_object_set_object_member (object, "probe", probe);
    }

  return object;
}

JsonNode *
_viva_examiner_to_checkpoint (VivaExaminer *self)
{
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(JsonArray) messages = json_array_new ();
  g_autoptr(JsonArray) steps = json_array_new ();
  g_autoptr(JsonArray) recent = json_array_new ();
  g_autoptr(JsonObject) counters = json_object_new ();
  g_autoptr(JsonObject) model = json_object_new ();
  g_autoptr(JsonObject) code = json_object_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *updated = g_date_time_format_iso8601 (now);
  JsonNode *node;

  /* The problem does not change during a defense: hash it once. */
  if (self->problem_hash == NULL)
    self->problem_hash = _viva_examiner_problem_hash (self->problem);

  json_object_set_string_member (root, "format", VIVA_EXAM_CHECKPOINT_FORMAT);
  json_object_set_int_member (root, "version", VIVA_EXAM_CHECKPOINT_VERSION);
  json_object_set_string_member (root, "session", viva_exam_session_get_id (self->session));
  json_object_set_string_member (root, "created", self->created ? self->created : updated);
  json_object_set_string_member (root, "updated", updated);
  if (self->pack_id)
    json_object_set_string_member (root, "pack_id", self->pack_id);
  json_object_set_string_member (root, "problem_id", viva_problem_get_id (self->problem));
  json_object_set_string_member (root, "problem_sha256", self->problem_hash);
  /* The pack by reference, and only the problem's public parts: the
   * checkpoint lives in the student's folder. */
  if (self->pack_ref != NULL)
    json_object_set_object_member (root, "pack_ref", json_object_ref (self->pack_ref));
  else if (self->problem_pack != NULL)
    json_object_set_member (root, "pack", json_node_ref (self->problem_pack));
  json_object_set_object_member (root, "problem", public_problem (self->problem));

  json_object_set_string_member (model, "type", G_OBJECT_TYPE_NAME (self->model));
  if (VIVA_IS_OPENAI_MODEL (self->model))
    {
      VivaOpenAIModel *openai = VIVA_OPENAI_MODEL (self->model);

      if (viva_openai_model_get_base_url (openai))
        json_object_set_string_member (model, "base_url", viva_openai_model_get_base_url (openai));
      if (viva_openai_model_get_model (openai))
        json_object_set_string_member (model, "name", viva_openai_model_get_model (openai));
    }
  json_object_set_object_member (root, "model", g_steal_pointer (&model));
  if (self->language)
    json_object_set_string_member (root, "language", self->language);

  json_object_set_string_member (root, "state", viva_examiner_state_to_string (self->state));
  json_object_set_string_member (root, "phase", phase_to_string (self->phase));

  for (guint i = 0; i < self->conversation.messages->len; i++)
    json_array_add_element (messages, viva_chat_message_to_json (g_ptr_array_index (self->conversation.messages, i)));
  json_object_set_array_member (root, "messages", g_steal_pointer (&messages));

  for (guint i = 0; i < self->protocol.steps->len; i++)
    json_array_add_object_element (steps, step_to_json (g_ptr_array_index (self->protocol.steps, i)));
  json_object_set_array_member (root, "steps", g_steal_pointer (&steps));

  for (guint i = 0; i < self->protocol.recent_calls->len; i++)
    json_array_add_string_element (recent, g_ptr_array_index (self->protocol.recent_calls, i));
  json_object_set_array_member (root, "recent_calls", g_steal_pointer (&recent));

  json_object_set_int_member (counters, "iterations", self->protocol.iterations);
  json_object_set_int_member (counters, "replies_without_tool", self->protocol.replies_without_tool);
  json_object_set_int_member (counters, "steps", self->protocol.step_counter);
  json_object_set_int_member (counters, "answers", self->protocol.n_answers);
  json_object_set_object_member (root, "counters", g_steal_pointer (&counters));

  if (self->phase == VIVA_EXAM_PHASE_TOOL && self->pending_call != NULL)
    {
      JsonObject *pending = json_object_new ();

      json_object_set_member (pending, "call", viva_tool_call_to_json (self->pending_call));
      json_object_set_string_member (pending, "step", self->pending_step);
      if (self->pending_question)
        json_object_set_string_member (pending, "question", self->pending_question);
      json_object_set_object_member (root, "pending", pending);
    }
  else
    json_object_set_null_member (root, "pending");

  json_object_set_string_member (code, "sha256", self->conversation.code_hash ? self->conversation.code_hash : "");
  json_object_set_string_member (code, "text", self->conversation.code_snapshot ? self->conversation.code_snapshot : "");
  if (self->conversation.sent_code_hash)
    json_object_set_string_member (code, "sent_sha256", self->conversation.sent_code_hash);
  json_object_set_object_member (root, "code", g_steal_pointer (&code));

  if (self->verdict != NULL)
    json_object_set_member (root, "verdict", viva_exam_verdict_to_json (self->verdict));
  /* The engine's facts, at the top level where reports look for them. */
  if (self->verdict != NULL && viva_exam_verdict_get_grade (self->verdict) != NULL)
    json_object_set_member (root, "grade", viva_grade_report_to_json (viva_exam_verdict_get_grade (self->verdict)));
  else
    json_object_set_null_member (root, "verdict");

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, root);
  return node;
}

static VivaExamStep *
step_from_json (JsonObject *object)
{
  VivaExamStep *step = g_new0 (VivaExamStep, 1);
  JsonNode *result = json_object_get_member (object, "result");
  JsonNode *probe = json_object_get_member (object, "probe");

  step->id = g_strdup (json_object_get_string_member (object, "id"));
  step->name = g_strdup (json_object_get_string_member (object, "name"));
  step->arguments = g_strdup (json_object_get_string_member_with_default (object, "arguments", ""));
  step->ok = json_object_get_boolean_member_with_default (object, "ok", FALSE);
  step->duration_ms = json_object_get_double_member_with_default (object, "duration_ms", 0);
  if (result != NULL && JSON_NODE_HOLDS_OBJECT (result))
    step->result = json_object_ref (json_node_get_object (result));

  if (probe != NULL && JSON_NODE_HOLDS_OBJECT (probe))
    {
      JsonObject *p = json_node_get_object (probe);

      step->probe = g_new0 (VivaExamProbe, 1);
      step->probe->step_id = g_strdup (step->id);
      step->probe->passed = json_object_get_boolean_member_with_default (p, "passed", FALSE);
      step->probe->valid = json_object_get_boolean_member_with_default (p, "valid", TRUE);
      step->probe->status = g_strdup (json_object_get_string_member_with_default (p, "status", "error"));
      step->probe->code = g_strdup (json_object_get_string_member_with_default (p, "code", ""));
      step->probe->error_type = g_strdup (json_object_get_string_member_with_default (p, "error_type", NULL));
      step->probe->error_message = g_strdup (json_object_get_string_member_with_default (p, "error_message", NULL));
    }

  return step;
}

gboolean
_viva_examiner_from_checkpoint (VivaExaminer  *self,
                                JsonNode      *checkpoint,
                                GError       **error)
{
  JsonObject *root = json_node_get_object (checkpoint);
  JsonObject *counters = json_object_get_object_member (root, "counters");
  JsonNode *pending = json_object_get_member (root, "pending");
  JsonNode *verdict = json_object_get_member (root, "verdict");
  JsonNode *code = json_object_get_member (root, "code");
  JsonArray *array;
  const char *phase = json_object_get_string_member (root, "phase");
  g_autofree char *hash = _viva_examiner_problem_hash (self->problem);

  if (g_strcmp0 (hash, json_object_get_string_member (root, "problem_sha256")) != 0)
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PROBLEM_CHANGED,
                   _("The problem “%s” changed since this defense was saved, so it cannot be "
                     "continued. Start a new defense."),
                   viva_problem_get_title (self->problem));
      return FALSE;
    }

  g_ptr_array_set_size (self->conversation.messages, 0);
  array = json_object_get_array_member (root, "messages");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      VivaChatMessage *message = viva_chat_message_new_from_json (json_array_get_element (array, i), error);

      if (message == NULL)
        return FALSE;
      g_ptr_array_add (self->conversation.messages, message);
    }

  g_ptr_array_set_size (self->protocol.steps, 0);
  array = json_object_get_array_member (root, "steps");
  for (guint i = 0; i < json_array_get_length (array); i++)
    g_ptr_array_add (self->protocol.steps, step_from_json (json_array_get_object_element (array, i)));

  g_ptr_array_set_size (self->protocol.recent_calls, 0);
  if (json_object_has_member (root, "recent_calls"))
    {
      array = json_object_get_array_member (root, "recent_calls");
      for (guint i = 0; i < json_array_get_length (array); i++)
        g_ptr_array_add (self->protocol.recent_calls, g_strdup (json_array_get_string_element (array, i)));
    }

  self->protocol.iterations = json_object_get_int_member_with_default (counters, "iterations", 0);
  self->protocol.replies_without_tool = json_object_get_int_member_with_default (counters, "replies_without_tool", 0);
  self->protocol.step_counter = json_object_get_int_member_with_default (counters, "steps", self->protocol.steps->len);
  self->protocol.n_answers = json_object_get_int_member_with_default (counters, "answers", 0);

  g_clear_pointer (&self->created, g_free);
  self->created = g_strdup (json_object_get_string_member_with_default (root, "created", NULL));
  if (json_object_has_member (root, "pack_id"))
    viva_examiner_set_pack_id (self, json_object_get_string_member (root, "pack_id"));
  if (json_object_has_member (root, "pack_ref"))
    viva_examiner_set_pack_ref (self, json_object_get_object_member (root, "pack_ref"));
  else if (json_object_has_member (root, "pack"))
    {
      /* An older Viva's checkpoint: it keeps its copy of the problem, or it
       * could not be continued again. */
      g_clear_pointer (&self->problem_pack, json_node_unref);
      self->problem_pack = json_node_ref (json_object_get_member (root, "pack"));
    }
  if (json_object_has_member (root, "language"))
    viva_examiner_set_language (self, json_object_get_string_member (root, "language"));

  if (code != NULL && JSON_NODE_HOLDS_OBJECT (code))
    {
      JsonObject *object = json_node_get_object (code);
      const char *sha = json_object_get_string_member_with_default (object, "sha256", "");

      g_clear_pointer (&self->conversation.code_hash, g_free);
      g_clear_pointer (&self->conversation.code_snapshot, g_free);
      g_clear_pointer (&self->conversation.sent_code_hash, g_free);
      /* Older checkpoints showed the code in the system prompt: none was
       * sent as a message, so the next turn sends it. */
      self->conversation.sent_code_hash = g_strdup (json_object_get_string_member_with_default (object, "sent_sha256", NULL));
      if (*sha != '\0')
        {
          self->conversation.code_hash = g_strdup (sha);
          self->conversation.code_snapshot = g_strdup (json_object_get_string_member_with_default (object, "text", ""));
        }
    }

  g_clear_pointer (&self->pending_call, viva_tool_call_free);
  g_clear_pointer (&self->pending_step, g_free);
  if (g_strcmp0 (phase, "tool") == 0 && pending != NULL && JSON_NODE_HOLDS_OBJECT (pending))
    {
      JsonObject *object = json_node_get_object (pending);

      if (!(self->pending_call = viva_tool_call_new_from_json (json_object_get_member (object, "call"), error)))
        return FALSE;
      self->pending_step = g_strdup (json_object_get_string_member (object, "step"));
      self->phase = VIVA_EXAM_PHASE_TOOL;
    }
  else if (g_strcmp0 (phase, "done") == 0)
    self->phase = VIVA_EXAM_PHASE_DONE;
  else
    self->phase = VIVA_EXAM_PHASE_MODEL;

  if (verdict != NULL && JSON_NODE_HOLDS_OBJECT (verdict))
    {
      g_autoptr(VivaExamVerdict) restored = viva_exam_verdict_new_from_json (verdict, error);

      if (restored == NULL)
        return FALSE;
      _viva_examiner_set_verdict (self, restored);
    }

  _viva_examiner_notify_n_steps (self);

  return TRUE;
}
