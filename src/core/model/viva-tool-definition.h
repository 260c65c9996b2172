/* viva-tool-definition.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define VIVA_TYPE_TOOL_DEFINITION (viva_tool_definition_get_type ())

/**
 * VivaToolDefinition:
 *
 * A tool offered to the model: a name, a description, and its parameters as
 * a JSON-schema object. Reference counted and immutable.
 */
typedef struct _VivaToolDefinition VivaToolDefinition;

GType               viva_tool_definition_get_type        (void) G_GNUC_CONST;
VivaToolDefinition *viva_tool_definition_new             (const char                *name,
                                                          const char                *description,
                                                          JsonNode                  *parameters);
VivaToolDefinition *viva_tool_definition_ref             (VivaToolDefinition        *self);
void                viva_tool_definition_unref           (VivaToolDefinition        *self);
const char         *viva_tool_definition_get_name        (const VivaToolDefinition  *self);
const char         *viva_tool_definition_get_description (const VivaToolDefinition  *self);
JsonNode           *viva_tool_definition_get_parameters  (const VivaToolDefinition  *self);
JsonNode           *viva_tool_definition_to_json         (const VivaToolDefinition  *self);
VivaToolDefinition *viva_tool_definition_new_from_json   (JsonNode                  *node,
                                                          GError                   **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaToolDefinition, viva_tool_definition_unref)

G_END_DECLS
