/* viva-exam-conversation.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "viva-exam-conversation.h"
#include "viva-exam-private.h"

/* The conversation of one defense. Its head (the system prompt, built once
 * from prompts/examiner.md and the problem) stays byte-identical in every
 * request, so a server's prompt cache holds; the code enters as messages
 * of its own, the submitted code first and each edit later; older turns
 * are compacted when the request outgrows about 80% of the context. Plain
 * data: the examiner traces what it is handed back. */

void
_viva_exam_conversation_init (VivaExamConversation *self)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  memset (self, 0, sizeof *self);
  self->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_chat_message_unref);

  /* The template is ours, compiled in; viva_core_init() registers it. */
  bytes = g_resources_lookup_data (RESOURCE_PREFIX "/core/prompts/examiner.md", 0, &error);
  g_assert_no_error (error);
  self->prompt_template = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

void
_viva_exam_conversation_clear (VivaExamConversation *self)
{
  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_clear_pointer (&self->prompt_template, g_free);
  g_clear_pointer (&self->system_prompt, g_free);
  g_clear_pointer (&self->system_prompt_traced, g_free);
  g_clear_pointer (&self->code_hash, g_free);
  g_clear_pointer (&self->code_snapshot, g_free);
  g_clear_pointer (&self->sent_code_hash, g_free);
}

const char *
_viva_exam_conversation_system_prompt (VivaExamConversation *self,
                                       VivaProblem          *problem,
                                       const char           *language)
{
  if (self->system_prompt == NULL)
    {
      self->system_prompt = _viva_exam_prompt_build (self->prompt_template, problem, language, FALSE);
      self->system_prompt_traced = _viva_exam_prompt_build (self->prompt_template, problem, language, TRUE);
    }

  return self->system_prompt;
}

/**
 * _viva_exam_conversation_snapshot:
 * @data: (out) (transfer full) (optional): what to trace of it
 *
 * Keeps @code as the code the examiner last saw.
 *
 * Returns: (nullable): the trace event, `code` for the first snapshot (the
 *   code submitted) or `code_edit` for an edit made during the defense,
 *   which a teacher wants to see; %NULL when the code did not change
 */
const char *
_viva_exam_conversation_snapshot (VivaExamConversation  *self,
                                  const char            *code,
                                  JsonObject           **data)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, code, -1);
  const char *event = self->code_hash != NULL ? "code_edit" : "code";

  if (g_strcmp0 (hash, self->code_hash) == 0)
    return NULL;

  if (data != NULL)
    {
      *data = json_object_new ();
      json_object_set_string_member (*data, "sha256", hash);
      json_object_set_int_member (*data, "length", strlen (code));
      json_object_set_boolean_member (*data, "edited", self->code_hash != NULL);
    }

  g_free (self->code_hash);
  self->code_hash = g_steal_pointer (&hash);
  g_free (self->code_snapshot);
  self->code_snapshot = g_strdup (code);

  return event;
}

/* The code enters the conversation as a message of its own, when the
 * defense starts and after each edit, never by rewriting the head. */
void
_viva_exam_conversation_send_code (VivaExamConversation *self)
{
  g_autofree char *text = NULL;

  if (self->code_snapshot == NULL || g_strcmp0 (self->code_hash, self->sent_code_hash) == 0)
    return;

  text = _viva_exam_code_message (self->code_snapshot, self->sent_code_hash != NULL);
  g_ptr_array_add (self->messages, viva_chat_message_new_user (text));
  g_free (self->sent_code_hash);
  self->sent_code_hash = g_strdup (self->code_hash);
}

/* Older turns shrink when the prompt outgrows about 80% of the context:
 * the system prompt (with the current code) and the last steps stay whole. */
static VivaChatMessage *
compact_message (VivaChatMessage *message)
{
  const char *content = viva_chat_message_get_content (message);
  gsize len = content ? strlen (content) : 0;

  if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_TOOL && len > 200)
    {
      g_autoptr(JsonNode) node = json_from_string (content, NULL);
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) out = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *text = NULL;
      g_autofree char *note = g_strdup_printf ("older result compacted: %" G_GSIZE_FORMAT
                                               " characters omitted; run the step again if needed", len);

      if (node && JSON_NODE_HOLDS_OBJECT (node) &&
          json_object_has_member (json_node_get_object (node), "step"))
        json_object_set_member (object, "step",
                                json_object_dup_member (json_node_get_object (node), "step"));
      json_object_set_string_member (object, "compacted", note);
      json_node_set_object (out, object);
      text = json_to_string (out, FALSE);

      return viva_chat_message_new_tool (viva_chat_message_get_tool_call_id (message),
                                         viva_chat_message_get_name (message),
                                         text);
    }

  if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_ASSISTANT && len > 400)
    {
      g_autofree char *shortened = g_strdup_printf ("%.*s […]",
                                                    (int)(g_utf8_find_prev_char (content, content + 300) - content),
                                                    content);

      return viva_chat_message_new_assistant (shortened, viva_chat_message_get_tool_calls (message));
    }

  return viva_chat_message_ref (message);
}

/**
 * _viva_exam_conversation_request:
 * @tools: (nullable): the tools the model may call
 * @compacted: (out) (transfer full) (optional): set when older turns were
 *   compacted, what to trace of it
 *
 * Returns: (transfer full): the request of the next turn
 */
VivaChatRequest *
_viva_exam_conversation_request (VivaExamConversation  *self,
                                 const char            *system,
                                 GPtrArray             *tools,
                                 const VivaExamLimits  *limits,
                                 JsonObject           **compacted)
{
  g_autoptr(VivaChatRequest) request = NULL;
  g_autoptr(VivaChatMessage) system_message = viva_chat_message_new_system (system);
  guint budget = limits->context_length * 8 / 10;
  guint estimate;

  for (guint pass = 0; pass < 2; pass++)
    {
      guint keep_from = 0;

      g_clear_pointer (&request, viva_chat_request_unref);
      request = viva_chat_request_new ();
      viva_chat_request_add_message (request, system_message);

      if (pass == 1)
        {
          guint tools_seen = 0;

          keep_from = self->messages->len;
          while (keep_from > 0 && tools_seen < limits->keep_recent_steps)
            {
              keep_from--;
              tools_seen += viva_chat_message_get_role (g_ptr_array_index (self->messages, keep_from))
                            == VIVA_CHAT_ROLE_TOOL;
            }
          /* Never split an assistant message from the answers to its calls. */
          while (keep_from > 0 &&
                 viva_chat_message_get_role (g_ptr_array_index (self->messages, keep_from)) == VIVA_CHAT_ROLE_TOOL)
            keep_from--;
        }

      for (guint i = 0; i < self->messages->len; i++)
        {
          VivaChatMessage *message = g_ptr_array_index (self->messages, i);

          if (i < keep_from)
            {
              g_autoptr(VivaChatMessage) shrunk = compact_message (message);
              viva_chat_request_add_message (request, shrunk);
            }
          else
            viva_chat_request_add_message (request, message);
        }

      for (guint i = 0; tools != NULL && i < tools->len; i++)
        viva_chat_request_add_tool (request, viva_exam_tool_get_definition (g_ptr_array_index (tools, i)));

      estimate = viva_chat_request_estimate_prompt_tokens (request);
      if (estimate <= budget || limits->context_length == 0)
        break;

      if (pass == 0 && compacted != NULL)
        {
          *compacted = json_object_new ();
          json_object_set_string_member (*compacted, "action", "compact");
          json_object_set_int_member (*compacted, "estimated_tokens", estimate);
          json_object_set_int_member (*compacted, "budget", budget);
        }
    }

  return g_steal_pointer (&request);
}

/* The whole request as traced (never the API key, which only the HTTP
 * layer sees), its system prompt without the hidden parts. */
JsonObject *
_viva_exam_conversation_trace_request (VivaExamConversation *self,
                                       VivaChatRequest      *request,
                                       guint                 iteration)
{
  g_autoptr(JsonNode) node = viva_chat_request_to_json (request);
  JsonArray *messages = json_object_get_array_member (json_node_get_object (node), "messages");
  JsonObject *data;

  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (message, "role", NULL), "system") == 0)
        json_object_set_string_member (message, "content", self->system_prompt_traced);
    }

  data = json_object_new ();
  json_object_set_int_member (data, "iteration", iteration);
  json_object_set_int_member (data, "estimated_tokens", viva_chat_request_estimate_prompt_tokens (request));
  json_object_set_member (data, "request", g_steal_pointer (&node));

  return data;
}

void
_viva_exam_conversation_add_usage (JsonObject          *data,
                                   const VivaChatUsage *usage)
{
  g_autoptr(JsonObject) object = NULL;

  if (usage == NULL)
    return;

  object = json_object_new ();
  json_object_set_int_member (object, "prompt_tokens", usage->prompt_tokens);
  json_object_set_int_member (object, "completion_tokens", usage->completion_tokens);
  json_object_set_int_member (object, "total_tokens", usage->total_tokens);
  json_object_set_object_member (data, "usage", g_steal_pointer (&object));
}
