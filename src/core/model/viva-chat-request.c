/* viva-chat-request.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "viva-chat-request.h"
#include "viva-model-error.h"
#include "viva-model-private.h"

struct _VivaChatRequest
{
  grefcount  ref_count;
  GPtrArray *messages;
  GPtrArray *tools;
  char      *model;
  double     temperature;
  guint      has_temperature : 1;
  guint      max_tokens;
  char      *schema_name;
  JsonNode  *schema;
};

G_DEFINE_BOXED_TYPE (VivaChatRequest, viva_chat_request, viva_chat_request_ref, viva_chat_request_unref)

/**
 * viva_chat_request_new:
 *
 * Returns: (transfer full): an empty request
 */
VivaChatRequest *
viva_chat_request_new (void)
{
  VivaChatRequest *self = g_new0 (VivaChatRequest, 1);

  g_ref_count_init (&self->ref_count);
  self->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_chat_message_unref);
  self->tools = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_definition_unref);

  return self;
}

VivaChatRequest *
viva_chat_request_ref (VivaChatRequest *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_ref_count_inc (&self->ref_count);
  return self;
}

void
viva_chat_request_unref (VivaChatRequest *self)
{
  g_return_if_fail (self != NULL);

  if (!g_ref_count_dec (&self->ref_count))
    return;

  g_ptr_array_unref (self->messages);
  g_ptr_array_unref (self->tools);
  g_free (self->model);
  g_free (self->schema_name);
  g_clear_pointer (&self->schema, json_node_unref);
  g_free (self);
}

/**
 * viva_chat_request_add_message:
 * @message: (transfer none): the next message; a reference is kept
 */
void
viva_chat_request_add_message (VivaChatRequest *self,
                               VivaChatMessage *message)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (message != NULL);

  g_ptr_array_add (self->messages, viva_chat_message_ref (message));
}

/**
 * viva_chat_request_get_messages:
 *
 * Returns: (transfer none) (element-type VivaChatMessage): the messages
 */
GPtrArray *
viva_chat_request_get_messages (const VivaChatRequest *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->messages;
}

/**
 * viva_chat_request_add_tool:
 * @tool: (transfer none): a tool to offer; a reference is kept
 */
void
viva_chat_request_add_tool (VivaChatRequest    *self,
                            VivaToolDefinition *tool)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (tool != NULL);

  g_ptr_array_add (self->tools, viva_tool_definition_ref (tool));
}

/**
 * viva_chat_request_get_tools:
 *
 * Returns: (transfer none) (element-type VivaToolDefinition): the tools offered
 */
GPtrArray *
viva_chat_request_get_tools (const VivaChatRequest *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tools;
}

/**
 * viva_chat_request_get_model:
 *
 * Returns: (nullable): the model asked for, or %NULL for the model's default
 */
const char *
viva_chat_request_get_model (const VivaChatRequest *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->model;
}

void
viva_chat_request_set_model (VivaChatRequest *self,
                             const char      *model)
{
  g_return_if_fail (self != NULL);

  if (self->model != model)
    {
      g_free (self->model);
      self->model = (model != NULL && model[0] != '\0') ? g_strdup (model) : NULL;
    }
}

/**
 * viva_chat_request_get_temperature:
 * @temperature: (out) (optional): where to store it
 *
 * Returns: %TRUE when the request sets a temperature
 */
gboolean
viva_chat_request_get_temperature (const VivaChatRequest *self,
                                   double                *temperature)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (temperature != NULL)
    *temperature = self->temperature;
  return self->has_temperature;
}

void
viva_chat_request_set_temperature (VivaChatRequest *self,
                                   double           temperature)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (isfinite (temperature) && temperature >= 0.0);

  self->temperature = temperature;
  self->has_temperature = TRUE;
}

void
viva_chat_request_unset_temperature (VivaChatRequest *self)
{
  g_return_if_fail (self != NULL);

  self->temperature = 0.0;
  self->has_temperature = FALSE;
}

/**
 * viva_chat_request_get_max_tokens:
 *
 * Returns: the reply's token budget, 0 for the server's default
 */
guint
viva_chat_request_get_max_tokens (const VivaChatRequest *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->max_tokens;
}

void
viva_chat_request_set_max_tokens (VivaChatRequest *self,
                                  guint            max_tokens)
{
  g_return_if_fail (self != NULL);
  self->max_tokens = max_tokens;
}

/**
 * viva_chat_request_get_response_schema_name:
 *
 * Returns: (nullable): the name of the JSON schema the reply must follow
 */
const char *
viva_chat_request_get_response_schema_name (const VivaChatRequest *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->schema_name;
}

/**
 * viva_chat_request_get_response_schema:
 *
 * Returns: (transfer none) (nullable): the JSON schema the reply's content
 *   must follow, or %NULL for free text
 */
JsonNode *
viva_chat_request_get_response_schema (const VivaChatRequest *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->schema;
}

/**
 * viva_chat_request_set_response_schema:
 * @name: (nullable): a short name for the schema, letters, digits, `_` and `-`
 * @schema: (nullable) (transfer none): a JSON schema object, copied; %NULL
 *   for a free-text reply
 *
 * Asks for a reply whose content is one JSON document following @schema:
 * sent as `response_format` of type `json_schema` to OpenAI-compatible
 * servers and as `format` to Ollama's native API. A server that does not
 * support it may reject the request (%VIVA_MODEL_ERROR_BAD_REQUEST); the
 * caller may then ask again without a schema.
 */
void
viva_chat_request_set_response_schema (VivaChatRequest *self,
                                       const char      *name,
                                       JsonNode        *schema)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (schema == NULL || JSON_NODE_HOLDS_OBJECT (schema));

  g_clear_pointer (&self->schema_name, g_free);
  g_clear_pointer (&self->schema, json_node_unref);

  if (schema != NULL)
    {
      self->schema_name = g_strdup (name != NULL && name[0] != '\0' ? name : "response");
      self->schema = json_node_copy (schema);
    }
}

/**
 * viva_chat_request_estimate_prompt_tokens:
 *
 * A rough count of the prompt's tokens, about four bytes of text each plus
 * a few per message: good enough to notice that a server kept only part of
 * the prompt, not to budget it exactly.
 *
 * Returns: the estimate
 */
guint
viva_chat_request_estimate_prompt_tokens (const VivaChatRequest *self)
{
  gsize bytes = 0;
  guint overhead = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->messages->len; i++)
    {
      VivaChatMessage *message = g_ptr_array_index (self->messages, i);
      GPtrArray *calls = viva_chat_message_get_tool_calls (message);
      const char *content = viva_chat_message_get_content (message);

      overhead += 4;
      if (content != NULL)
        bytes += strlen (content);
      for (guint j = 0; j < calls->len; j++)
        bytes += strlen (viva_tool_call_get_arguments (g_ptr_array_index (calls, j))) + 16;
    }

  for (guint i = 0; i < self->tools->len; i++)
    {
      g_autofree char *text = json_to_string (viva_tool_definition_get_parameters (g_ptr_array_index (self->tools, i)), FALSE);

      bytes += strlen (text) + strlen (viva_tool_definition_get_description (g_ptr_array_index (self->tools, i)));
      overhead += 10;
    }

  return (guint)(bytes / 4) + overhead;
}

/**
 * viva_chat_request_to_json:
 *
 * The request as the trace and checkpoints keep it: `messages`, `tools`,
 * and `model`, `temperature`, `max_tokens`, `response_schema` (`{name,
 * schema}`) when set. This is not the wire
 * body; each model builds its own.
 *
 * Returns: (transfer full): an object node
 */
JsonNode *
viva_chat_request_to_json (const VivaChatRequest *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonArray *messages;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->model != NULL)
    json_object_set_string_member (object, "model", self->model);

  messages = json_array_sized_new (self->messages->len);
  for (guint i = 0; i < self->messages->len; i++)
    json_array_add_element (messages, viva_chat_message_to_json (g_ptr_array_index (self->messages, i)));
  json_object_set_array_member (object, "messages", messages);

  if (self->tools->len > 0)
    {
      JsonArray *tools = json_array_sized_new (self->tools->len);

      for (guint i = 0; i < self->tools->len; i++)
        json_array_add_element (tools, viva_tool_definition_to_json (g_ptr_array_index (self->tools, i)));
      json_object_set_array_member (object, "tools", tools);
    }

  if (self->has_temperature)
    json_object_set_double_member (object, "temperature", self->temperature);
  if (self->max_tokens > 0)
    json_object_set_int_member (object, "max_tokens", self->max_tokens);
  if (self->schema != NULL)
    {
      JsonObject *format = json_object_new ();

      json_object_set_string_member (format, "name", self->schema_name);
      json_object_set_member (format, "schema", json_node_copy (self->schema));
      json_object_set_object_member (object, "response_schema", format);
    }

  return json_node_init_object (json_node_alloc (), object);
}

/**
 * viva_chat_request_new_from_json:
 * @node: (nullable): a node as viva_chat_request_to_json() writes it
 *
 * Returns: (transfer full) (nullable): the request, or %NULL with @error set
 */
VivaChatRequest *
viva_chat_request_new_from_json (JsonNode  *node,
                                 GError   **error)
{
  g_autoptr(VivaChatRequest) self = viva_chat_request_new ();
  JsonObject *object;
  JsonObject *format;
  JsonArray *array;
  double number;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      !(array = viva_json_member_array ((object = json_node_get_object (node)), "messages")))
    {
      g_set_error_literal (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                           _("A request needs a list of messages."));
      return NULL;
    }

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(VivaChatMessage) message = viva_chat_message_new_from_json (json_array_get_element (array, i), error);

      if (message == NULL)
        return NULL;
      viva_chat_request_add_message (self, message);
    }

  if ((array = viva_json_member_array (object, "tools")))
    {
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autoptr(VivaToolDefinition) tool = viva_tool_definition_new_from_json (json_array_get_element (array, i), error);

          if (tool == NULL)
            return NULL;
          viva_chat_request_add_tool (self, tool);
        }
    }

  viva_chat_request_set_model (self, viva_json_member_string (object, "model"));
  if (viva_json_member_number (object, "temperature", &number) && isfinite (number) && number >= 0)
    viva_chat_request_set_temperature (self, number);
  if (viva_json_member_number (object, "max_tokens", &number) && number > 0 && number < G_MAXUINT)
    self->max_tokens = (guint)number;
  if ((format = viva_json_member_object (object, "response_schema")) &&
      json_object_has_member (format, "schema") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (format, "schema")))
    viva_chat_request_set_response_schema (self, viva_json_member_string (format, "name"),
                                           json_object_get_member (format, "schema"));

  return g_steal_pointer (&self);
}
