/* viva-tool-definition.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-model-error.h"
#include "viva-model-private.h"
#include "viva-tool-definition.h"

struct _VivaToolDefinition
{
  grefcount  ref_count;
  char      *name;
  char      *description;
  JsonNode  *parameters;
};

G_DEFINE_BOXED_TYPE (VivaToolDefinition, viva_tool_definition,
                     viva_tool_definition_ref, viva_tool_definition_unref)

/**
 * viva_tool_definition_new:
 * @name: the name the model calls the tool by
 * @description: (nullable): what the tool does, for the model
 * @parameters: (nullable) (transfer none): a JSON-schema object node;
 *   %NULL means a tool without parameters
 *
 * Returns: (transfer full): a new definition
 */
VivaToolDefinition *
viva_tool_definition_new (const char *name,
                          const char *description,
                          JsonNode   *parameters)
{
  VivaToolDefinition *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (parameters == NULL || JSON_NODE_HOLDS_OBJECT (parameters), NULL);

  self = g_new0 (VivaToolDefinition, 1);
  g_ref_count_init (&self->ref_count);
  self->name = g_strdup (name);
  self->description = g_strdup (description != NULL ? description : "");

  if (parameters != NULL)
    self->parameters = json_node_copy (parameters);
  else
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "type", "object");
      json_object_set_object_member (object, "properties", json_object_new ());
      self->parameters = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (self->parameters, object);
    }

  return self;
}

VivaToolDefinition *
viva_tool_definition_ref (VivaToolDefinition *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_ref_count_inc (&self->ref_count);
  return self;
}

void
viva_tool_definition_unref (VivaToolDefinition *self)
{
  g_return_if_fail (self != NULL);

  if (!g_ref_count_dec (&self->ref_count))
    return;

  g_free (self->name);
  g_free (self->description);
  json_node_unref (self->parameters);
  g_free (self);
}

const char *
viva_tool_definition_get_name (const VivaToolDefinition *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

const char *
viva_tool_definition_get_description (const VivaToolDefinition *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->description;
}

/**
 * viva_tool_definition_get_parameters:
 *
 * Returns: (transfer none): the JSON-schema object node
 */
JsonNode *
viva_tool_definition_get_parameters (const VivaToolDefinition *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->parameters;
}

/**
 * viva_tool_definition_to_json:
 *
 * The definition as OpenAI and Ollama take it: `{"type": "function",
 * "function": {"name", "description", "parameters"}}`.
 *
 * Returns: (transfer full): an object node
 */
JsonNode *
viva_tool_definition_to_json (const VivaToolDefinition *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "function");
  json_builder_set_member_name (builder, "function");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, self->name);
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, self->description);
  json_builder_set_member_name (builder, "parameters");
  json_builder_add_value (builder, json_node_copy (self->parameters));
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * viva_tool_definition_new_from_json:
 * @node: (nullable): a node as viva_tool_definition_to_json() writes it
 *
 * Returns: (transfer full) (nullable): the definition, or %NULL with @error set
 */
VivaToolDefinition *
viva_tool_definition_new_from_json (JsonNode  *node,
                                    GError   **error)
{
  JsonObject *function;
  JsonNode *parameters;

  function = node != NULL && JSON_NODE_HOLDS_OBJECT (node)
           ? viva_json_member_object (json_node_get_object (node), "function")
           : NULL;

  if (viva_json_member_string (function, "name") == NULL)
    {
      g_set_error_literal (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                           _("A tool definition needs a function with a name."));
      return NULL;
    }

  parameters = json_object_get_member (function, "parameters");
  if (parameters != NULL && !JSON_NODE_HOLDS_OBJECT (parameters))
    parameters = NULL;

  return viva_tool_definition_new (viva_json_member_string (function, "name"),
                                   viva_json_member_string (function, "description"),
                                   parameters);
}
