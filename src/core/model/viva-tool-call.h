/* viva-tool-call.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define VIVA_TYPE_TOOL_CALL (viva_tool_call_get_type ())

/**
 * VivaToolCall:
 *
 * One call of a tool as a model asked for it: an id the tool's reply must
 * quote, the tool's name, and the arguments exactly as the JSON text the
 * server sent (never reparsed, so a trace shows what the model wrote).
 * A call is "recovered" when the model wrote it as text in its content
 * instead of using the tools channel. Immutable once built; copy to change.
 */
typedef struct _VivaToolCall VivaToolCall;

GType         viva_tool_call_get_type      (void) G_GNUC_CONST;
VivaToolCall *viva_tool_call_new           (const char          *id,
                                            const char          *name,
                                            const char          *arguments);
VivaToolCall *viva_tool_call_copy          (const VivaToolCall  *self);
void          viva_tool_call_free          (VivaToolCall        *self);
const char   *viva_tool_call_get_id        (const VivaToolCall  *self);
const char   *viva_tool_call_get_name      (const VivaToolCall  *self);
const char   *viva_tool_call_get_arguments (const VivaToolCall  *self);
gboolean      viva_tool_call_get_recovered (const VivaToolCall  *self);
void          viva_tool_call_set_recovered (VivaToolCall        *self,
                                            gboolean             recovered);
JsonNode     *viva_tool_call_parse_arguments (const VivaToolCall *self,
                                              GError            **error);
JsonNode     *viva_tool_call_to_json       (const VivaToolCall  *self);
VivaToolCall *viva_tool_call_new_from_json (JsonNode            *node,
                                            GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaToolCall, viva_tool_call_free)

G_END_DECLS
