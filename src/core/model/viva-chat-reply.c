/* viva-chat-reply.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-chat-reply-private.h"
#include "viva-model-error.h"
#include "viva-model-private.h"

struct _VivaChatReply
{
  grefcount      ref_count;
  char          *content;
  char          *reasoning;
  GPtrArray     *tool_calls;
  char          *finish_reason;
  char          *model;
  VivaChatUsage  usage;
  guint          has_usage : 1;
  guint          truncated : 1;
  guint          prompt_truncated : 1;
};

G_DEFINE_BOXED_TYPE (VivaChatReply, viva_chat_reply, viva_chat_reply_ref, viva_chat_reply_unref)

VivaChatReply *
viva_chat_reply_new (void)
{
  VivaChatReply *self = g_new0 (VivaChatReply, 1);

  g_ref_count_init (&self->ref_count);
  self->tool_calls = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_call_free);

  return self;
}

VivaChatReply *
viva_chat_reply_ref (VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_ref_count_inc (&self->ref_count);
  return self;
}

void
viva_chat_reply_unref (VivaChatReply *self)
{
  g_return_if_fail (self != NULL);

  if (!g_ref_count_dec (&self->ref_count))
    return;

  g_free (self->content);
  g_free (self->reasoning);
  g_ptr_array_unref (self->tool_calls);
  g_free (self->finish_reason);
  g_free (self->model);
  g_free (self);
}

void
viva_chat_reply_take_content (VivaChatReply *self,
                               char          *content)
{
  g_free (self->content);
  self->content = content;
}

void
_viva_chat_reply_take_reasoning (VivaChatReply *self,
                                 char          *reasoning)
{
  g_free (self->reasoning);
  self->reasoning = reasoning;
}

void
viva_chat_reply_add_tool_call (VivaChatReply *self,
                                VivaToolCall  *call)
{
  g_ptr_array_add (self->tool_calls, call);
}

void
viva_chat_reply_set_finish_reason (VivaChatReply *self,
                                    const char    *finish_reason)
{
  g_free (self->finish_reason);
  self->finish_reason = g_strdup (finish_reason);
}

void
_viva_chat_reply_set_usage (VivaChatReply       *self,
                            const VivaChatUsage *usage)
{
  self->has_usage = usage != NULL;
  if (usage != NULL)
    self->usage = *usage;
}

void
viva_chat_reply_set_model (VivaChatReply *self,
                            const char    *model)
{
  g_free (self->model);
  self->model = g_strdup (model);
}

void
_viva_chat_reply_set_truncated (VivaChatReply *self,
                                gboolean       truncated)
{
  self->truncated = !!truncated;
}

void
_viva_chat_reply_set_prompt_truncated (VivaChatReply *self,
                                       gboolean       prompt_truncated)
{
  self->prompt_truncated = !!prompt_truncated;
}

/**
 * viva_chat_reply_get_content:
 *
 * Returns: (nullable): the answer's text, never the reasoning; %NULL when
 *   the model only called tools
 */
const char *
viva_chat_reply_get_content (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->content;
}

/**
 * viva_chat_reply_get_reasoning:
 *
 * Returns: (nullable): the model's reasoning, if it sent any
 */
const char *
viva_chat_reply_get_reasoning (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->reasoning;
}

/**
 * viva_chat_reply_get_tool_calls:
 *
 * Returns: (transfer none) (element-type VivaToolCall): the calls in order
 */
GPtrArray *
viva_chat_reply_get_tool_calls (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tool_calls;
}

/**
 * viva_chat_reply_get_finish_reason:
 *
 * Returns: (nullable): `stop`, `length`, `tool_calls`…, or %NULL when the
 *   stream was cut before the server said
 */
const char *
viva_chat_reply_get_finish_reason (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->finish_reason;
}

/**
 * viva_chat_reply_get_usage:
 *
 * Returns: (nullable) (transfer none): token counts, or %NULL when the
 *   server did not report them
 */
const VivaChatUsage *
viva_chat_reply_get_usage (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->has_usage ? &self->usage : NULL;
}

/**
 * viva_chat_reply_get_model:
 *
 * Returns: (nullable): the model name the server reported
 */
const char *
viva_chat_reply_get_model (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->model;
}

gboolean
viva_chat_reply_get_truncated (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->truncated;
}

gboolean
viva_chat_reply_get_prompt_truncated (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->prompt_truncated;
}

/**
 * viva_chat_reply_get_recovered_tool_calls:
 *
 * Returns: %TRUE when at least one tool call was recovered from the text
 */
gboolean
viva_chat_reply_get_recovered_tool_calls (const VivaChatReply *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->tool_calls->len; i++)
    if (viva_tool_call_get_recovered (g_ptr_array_index (self->tool_calls, i)))
      return TRUE;

  return FALSE;
}

/**
 * viva_chat_reply_to_message:
 *
 * The reply as the assistant message to append to the conversation, with
 * its reasoning kept (not sent back to servers).
 *
 * Returns: (transfer full): a new assistant message
 */
VivaChatMessage *
viva_chat_reply_to_message (const VivaChatReply *self)
{
  VivaChatMessage *message;

  g_return_val_if_fail (self != NULL, NULL);

  message = viva_chat_message_new_assistant (self->content, self->tool_calls);
  viva_chat_message_set_reasoning (message, self->reasoning);
  return message;
}

/**
 * viva_chat_reply_to_json:
 *
 * The reply as the CLI's `message` event and the trace show it:
 * `content`, `reasoning`, `tool_calls` (`[{id, name, arguments}]`, with
 * `recovered` on recovered calls), `finish_reason`, `usage` (or null),
 * `truncated`, `prompt_truncated`, and `model` when known.
 *
 * Returns: (transfer full): an object node
 */
JsonNode *
viva_chat_reply_to_json (const VivaChatReply *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonArray *calls = json_array_new ();

  g_return_val_if_fail (self != NULL, NULL);

  _viva_json_set_string_or_null (object, "content", self->content);
  _viva_json_set_string_or_null (object, "reasoning", self->reasoning);

  for (guint i = 0; i < self->tool_calls->len; i++)
    {
      VivaToolCall *call = g_ptr_array_index (self->tool_calls, i);
      JsonObject *item = json_object_new ();

      json_object_set_string_member (item, "id", viva_tool_call_get_id (call));
      json_object_set_string_member (item, "name", viva_tool_call_get_name (call));
      json_object_set_string_member (item, "arguments", viva_tool_call_get_arguments (call));
      if (viva_tool_call_get_recovered (call))
        json_object_set_boolean_member (item, "recovered", TRUE);
      json_array_add_object_element (calls, item);
    }
  json_object_set_array_member (object, "tool_calls", calls);

  _viva_json_set_string_or_null (object, "finish_reason", self->finish_reason);

  if (self->has_usage)
    {
      JsonObject *usage = json_object_new ();

      json_object_set_int_member (usage, "prompt_tokens", self->usage.prompt_tokens);
      json_object_set_int_member (usage, "completion_tokens", self->usage.completion_tokens);
      json_object_set_int_member (usage, "total_tokens", self->usage.total_tokens);
      json_object_set_object_member (object, "usage", usage);
    }
  else
    json_object_set_null_member (object, "usage");

  json_object_set_boolean_member (object, "truncated", self->truncated);
  json_object_set_boolean_member (object, "prompt_truncated", self->prompt_truncated);
  if (self->model != NULL)
    json_object_set_string_member (object, "model", self->model);

  return json_node_init_object (json_node_alloc (), object);
}

/**
 * viva_chat_reply_new_from_json:
 * @node: (nullable): a node as viva_chat_reply_to_json() writes it
 *
 * Returns: (transfer full) (nullable): the reply, or %NULL with @error set
 */
VivaChatReply *
viva_chat_reply_new_from_json (JsonNode  *node,
                               GError   **error)
{
  g_autoptr(VivaChatReply) self = NULL;
  JsonObject *object;
  JsonObject *usage;
  JsonArray *calls;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                           _("A reply must be a JSON object."));
      return NULL;
    }

  object = json_node_get_object (node);
  self = viva_chat_reply_new ();
  self->content = g_strdup (viva_json_member_string (object, "content"));
  self->reasoning = g_strdup (viva_json_member_string (object, "reasoning"));
  self->finish_reason = g_strdup (viva_json_member_string (object, "finish_reason"));
  self->model = g_strdup (viva_json_member_string (object, "model"));
  self->truncated = viva_json_member_flag (object, "truncated");
  self->prompt_truncated = viva_json_member_flag (object, "prompt_truncated");

  if ((usage = viva_json_member_object (object, "usage")))
    {
      self->has_usage = TRUE;
      viva_json_member_integer (usage, "prompt_tokens", &self->usage.prompt_tokens);
      viva_json_member_integer (usage, "completion_tokens", &self->usage.completion_tokens);
      viva_json_member_integer (usage, "total_tokens", &self->usage.total_tokens);
    }

  if ((calls = viva_json_member_array (object, "tool_calls")))
    {
      for (guint i = 0; i < json_array_get_length (calls); i++)
        {
          JsonObject *item = json_array_get_element (calls, i) != NULL &&
                             JSON_NODE_HOLDS_OBJECT (json_array_get_element (calls, i))
                           ? json_array_get_object_element (calls, i) : NULL;
          VivaToolCall *call;

          if (viva_json_member_string (item, "name") == NULL)
            {
              g_set_error_literal (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                   _("A tool call needs a name."));
              return NULL;
            }

          call = viva_tool_call_new (viva_json_member_string (item, "id"),
                                     viva_json_member_string (item, "name"),
                                     viva_json_member_string (item, "arguments"));
          viva_tool_call_set_recovered (call, viva_json_member_flag (item, "recovered"));
          g_ptr_array_add (self->tool_calls, call);
        }
    }

  return g_steal_pointer (&self);
}
