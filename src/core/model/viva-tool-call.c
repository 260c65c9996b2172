/* viva-tool-call.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-model-error.h"
#include "viva-model-private.h"
#include "viva-tool-call.h"

struct _VivaToolCall
{
  char     *id;
  char     *name;
  char     *arguments;
  gboolean  recovered;
};

G_DEFINE_BOXED_TYPE (VivaToolCall, viva_tool_call, viva_tool_call_copy, viva_tool_call_free)

/**
 * viva_tool_call_new:
 * @id: (nullable): the call's id; %NULL or empty gets a generated one
 * @name: the tool's name
 * @arguments: (nullable): the arguments as JSON text; %NULL means `{}`
 *
 * Returns: (transfer full): a new call
 */
VivaToolCall *
viva_tool_call_new (const char *id,
                    const char *name,
                    const char *arguments)
{
  VivaToolCall *self;

  g_return_val_if_fail (name != NULL, NULL);

  self = g_new0 (VivaToolCall, 1);
  if (id != NULL && id[0] != '\0')
    self->id = g_strdup (id);
  else
    self->id = g_strdup_printf ("call_%08x", g_random_int ());
  self->name = g_strdup (name);
  self->arguments = g_strdup (arguments != NULL && arguments[0] != '\0' ? arguments : "{}");

  return self;
}

VivaToolCall *
viva_tool_call_copy (const VivaToolCall *self)
{
  VivaToolCall *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = viva_tool_call_new (self->id, self->name, self->arguments);
  copy->recovered = self->recovered;
  return copy;
}

void
viva_tool_call_free (VivaToolCall *self)
{
  if (self == NULL)
    return;

  g_free (self->id);
  g_free (self->name);
  g_free (self->arguments);
  g_free (self);
}

const char *
viva_tool_call_get_id (const VivaToolCall *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->id;
}

const char *
viva_tool_call_get_name (const VivaToolCall *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

const char *
viva_tool_call_get_arguments (const VivaToolCall *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->arguments;
}

gboolean
viva_tool_call_get_recovered (const VivaToolCall *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->recovered;
}

void
viva_tool_call_set_recovered (VivaToolCall *self,
                              gboolean      recovered)
{
  g_return_if_fail (self != NULL);
  self->recovered = !!recovered;
}

/**
 * viva_tool_call_parse_arguments:
 *
 * Parses the arguments text. Fails with %VIVA_MODEL_ERROR_INVALID_RESPONSE
 * when it is not a JSON object, which small models do get wrong.
 *
 * Returns: (transfer full): the arguments object as a node
 */
JsonNode *
viva_tool_call_parse_arguments (const VivaToolCall  *self,
                                GError             **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (!(root = _viva_json_parse (self->arguments, -1, &local_error)))
    {
      g_set_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                   _("The arguments of the call to “%s” are not valid JSON: %s"),
                   self->name, local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                   _("The arguments of the call to “%s” are not a JSON object."),
                   self->name);
      return NULL;
    }

  return g_steal_pointer (&root);
}

/**
 * viva_tool_call_to_json:
 *
 * The call in the OpenAI wire shape, `{"id", "type": "function",
 * "function": {"name", "arguments"}}`, plus `"recovered": true` when set.
 *
 * Returns: (transfer full): an object node
 */
JsonNode *
viva_tool_call_to_json (const VivaToolCall *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, self->id);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "function");
  json_builder_set_member_name (builder, "function");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, self->name);
  json_builder_set_member_name (builder, "arguments");
  json_builder_add_string_value (builder, self->arguments);
  json_builder_end_object (builder);
  if (self->recovered)
    {
      json_builder_set_member_name (builder, "recovered");
      json_builder_add_boolean_value (builder, TRUE);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * viva_tool_call_new_from_json:
 * @node: (nullable): a node as viva_tool_call_to_json() writes it
 *
 * Arguments given as an object rather than text (Ollama's native shape)
 * are serialized back to text.
 *
 * Returns: (transfer full) (nullable): the call, or %NULL with @error set
 */
VivaToolCall *
viva_tool_call_new_from_json (JsonNode  *node,
                              GError   **error)
{
  JsonObject *object = NULL;
  JsonObject *function = NULL;
  JsonNode *arguments;
  g_autofree char *arguments_text = NULL;
  VivaToolCall *self;

  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    object = json_node_get_object (node);
  function = viva_json_member_object (object, "function");

  if (viva_json_member_string (function, "name") == NULL)
    {
      g_set_error_literal (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                           _("A tool call needs a function with a name."));
      return NULL;
    }

  arguments = json_object_get_member (function, "arguments");
  if (arguments != NULL && JSON_NODE_HOLDS_VALUE (arguments) &&
      json_node_get_value_type (arguments) == G_TYPE_STRING)
    arguments_text = g_strdup (json_node_get_string (arguments));
  else if (arguments != NULL && !JSON_NODE_HOLDS_NULL (arguments))
    arguments_text = json_to_string (arguments, FALSE);

  self = viva_tool_call_new (viva_json_member_string (object, "id"),
                             viva_json_member_string (function, "name"),
                             arguments_text);
  self->recovered = (json_object_has_member (object, "recovered") &&
                     json_node_get_value_type (json_object_get_member (object, "recovered")) == G_TYPE_BOOLEAN &&
                     json_object_get_boolean_member (object, "recovered"));

  return self;
}
