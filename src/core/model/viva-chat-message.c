/* viva-chat-message.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-chat-message.h"
#include "viva-model-error.h"
#include "viva-model-private.h"

struct _VivaChatMessage
{
  grefcount     ref_count;
  VivaChatRole  role;
  char         *content;
  char         *reasoning;
  GPtrArray    *tool_calls;
  char         *tool_call_id;
  char         *name;
};

G_DEFINE_BOXED_TYPE (VivaChatMessage, viva_chat_message, viva_chat_message_ref, viva_chat_message_unref)

static const char * const role_names[] = { "system", "user", "assistant", "tool" };

const char *
viva_chat_role_to_string (VivaChatRole role)
{
  g_return_val_if_fail (role <= VIVA_CHAT_ROLE_TOOL, NULL);
  return role_names[role];
}

gboolean
viva_chat_role_from_string (const char   *string,
                            VivaChatRole *role)
{
  for (guint i = 0; i < G_N_ELEMENTS (role_names); i++)
    {
      if (g_strcmp0 (string, role_names[i]) == 0)
        {
          *role = i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * viva_chat_message_new:
 * @role: who speaks
 * @content: (nullable): the text
 *
 * Returns: (transfer full): a new message with no tool calls
 */
VivaChatMessage *
viva_chat_message_new (VivaChatRole  role,
                       const char   *content)
{
  VivaChatMessage *self;

  g_return_val_if_fail (role <= VIVA_CHAT_ROLE_TOOL, NULL);

  self = g_new0 (VivaChatMessage, 1);
  g_ref_count_init (&self->ref_count);
  self->role = role;
  self->content = g_strdup (content);
  self->tool_calls = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_call_free);

  return self;
}

VivaChatMessage *
viva_chat_message_new_system (const char *content)
{
  return viva_chat_message_new (VIVA_CHAT_ROLE_SYSTEM, content);
}

VivaChatMessage *
viva_chat_message_new_user (const char *content)
{
  return viva_chat_message_new (VIVA_CHAT_ROLE_USER, content);
}

/**
 * viva_chat_message_new_assistant:
 * @content: (nullable): what the assistant said
 * @tool_calls: (nullable) (element-type VivaToolCall) (transfer none): calls to copy
 *
 * Returns: (transfer full): a new assistant message
 */
VivaChatMessage *
viva_chat_message_new_assistant (const char *content,
                                 GPtrArray  *tool_calls)
{
  VivaChatMessage *self = viva_chat_message_new (VIVA_CHAT_ROLE_ASSISTANT, content);

  for (guint i = 0; tool_calls != NULL && i < tool_calls->len; i++)
    g_ptr_array_add (self->tool_calls, viva_tool_call_copy (g_ptr_array_index (tool_calls, i)));

  return self;
}

/**
 * viva_chat_message_new_tool:
 * @tool_call_id: the id of the call this answers
 * @name: (nullable): the tool's name (Ollama's native API wants it)
 * @content: the tool's result, usually JSON text
 *
 * Returns: (transfer full): a new tool message
 */
VivaChatMessage *
viva_chat_message_new_tool (const char *tool_call_id,
                            const char *name,
                            const char *content)
{
  VivaChatMessage *self;

  g_return_val_if_fail (tool_call_id != NULL, NULL);

  self = viva_chat_message_new (VIVA_CHAT_ROLE_TOOL, content);
  self->tool_call_id = g_strdup (tool_call_id);
  self->name = g_strdup (name);

  return self;
}

VivaChatMessage *
viva_chat_message_ref (VivaChatMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_ref_count_inc (&self->ref_count);
  return self;
}

void
viva_chat_message_unref (VivaChatMessage *self)
{
  g_return_if_fail (self != NULL);

  if (!g_ref_count_dec (&self->ref_count))
    return;

  g_free (self->content);
  g_free (self->reasoning);
  g_ptr_array_unref (self->tool_calls);
  g_free (self->tool_call_id);
  g_free (self->name);
  g_free (self);
}

VivaChatRole
viva_chat_message_get_role (const VivaChatMessage *self)
{
  g_return_val_if_fail (self != NULL, VIVA_CHAT_ROLE_USER);
  return self->role;
}

const char *
viva_chat_message_get_content (const VivaChatMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->content;
}

const char *
viva_chat_message_get_reasoning (const VivaChatMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->reasoning;
}

/**
 * viva_chat_message_set_reasoning:
 *
 * Keeps an assistant's reasoning with its message, for the checkpoint and
 * the trace. It is never sent back to a server.
 */
void
viva_chat_message_set_reasoning (VivaChatMessage *self,
                                 const char      *reasoning)
{
  g_return_if_fail (self != NULL);

  if (self->reasoning != reasoning)
    {
      g_free (self->reasoning);
      self->reasoning = g_strdup (reasoning);
    }
}

/**
 * viva_chat_message_get_tool_calls:
 *
 * Returns: (transfer none) (element-type VivaToolCall): the calls, maybe empty
 */
GPtrArray *
viva_chat_message_get_tool_calls (const VivaChatMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tool_calls;
}

const char *
viva_chat_message_get_tool_call_id (const VivaChatMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tool_call_id;
}

const char *
viva_chat_message_get_name (const VivaChatMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

/**
 * viva_chat_message_to_json:
 *
 * The message in the OpenAI wire shape (`role`, `content`, `tool_calls`,
 * `tool_call_id`, `name`), plus `reasoning` when the message has some.
 * An assistant message with tool calls and no text has `"content": null`,
 * as servers expect.
 *
 * Returns: (transfer full): an object node
 */
JsonNode *
viva_chat_message_to_json (const VivaChatMessage *self)
{
  g_autoptr(JsonObject) object = json_object_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_object_set_string_member (object, "role", role_names[self->role]);
  _viva_json_set_string_or_null (object, "content", self->content);

  if (self->reasoning != NULL)
    json_object_set_string_member (object, "reasoning", self->reasoning);

  if (self->tool_calls->len > 0)
    {
      JsonArray *array = json_array_sized_new (self->tool_calls->len);

      for (guint i = 0; i < self->tool_calls->len; i++)
        json_array_add_element (array, viva_tool_call_to_json (g_ptr_array_index (self->tool_calls, i)));
      json_object_set_array_member (object, "tool_calls", array);
    }

  if (self->tool_call_id != NULL)
    json_object_set_string_member (object, "tool_call_id", self->tool_call_id);
  if (self->name != NULL)
    json_object_set_string_member (object, "name", self->name);

  return json_node_init_object (json_node_alloc (), object);
}

/**
 * viva_chat_message_new_from_json:
 * @node: (nullable): a node as viva_chat_message_to_json() writes it
 *
 * Returns: (transfer full) (nullable): the message, or %NULL with @error
 *   set (%VIVA_MODEL_ERROR_INVALID_RESPONSE)
 */
VivaChatMessage *
viva_chat_message_new_from_json (JsonNode  *node,
                                 GError   **error)
{
  g_autoptr(VivaChatMessage) self = NULL;
  JsonObject *object = NULL;
  JsonArray *calls;
  VivaChatRole role;

  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    object = json_node_get_object (node);

  if (!viva_chat_role_from_string (viva_json_member_string (object, "role"), &role))
    {
      g_set_error_literal (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                           _("A message needs a role: system, user, assistant or tool."));
      return NULL;
    }

  if (role == VIVA_CHAT_ROLE_TOOL && viva_json_member_string (object, "tool_call_id") == NULL)
    {
      g_set_error_literal (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                           _("A tool message needs the id of the call it answers."));
      return NULL;
    }

  self = viva_chat_message_new (role, viva_json_member_string (object, "content"));
  self->reasoning = g_strdup (viva_json_member_string (object, "reasoning"));
  self->tool_call_id = g_strdup (viva_json_member_string (object, "tool_call_id"));
  self->name = g_strdup (viva_json_member_string (object, "name"));

  if ((calls = viva_json_member_array (object, "tool_calls")))
    {
      for (guint i = 0; i < json_array_get_length (calls); i++)
        {
          VivaToolCall *call = viva_tool_call_new_from_json (json_array_get_element (calls, i), error);

          if (call == NULL)
            return NULL;
          g_ptr_array_add (self->tool_calls, call);
        }
    }

  return g_steal_pointer (&self);
}
