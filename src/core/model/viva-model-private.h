/* viva-model-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-json-member.h"

G_BEGIN_DECLS

/* Members are read with the lenient readers of util/viva-json-member.h:
 * JSON that servers (or a fuzzer) wrote, where a member of the wrong type
 * reads as absent, never as a critical warning. */
JsonNode   *_viva_json_parse      (const char *text,
                                   gssize      length,
                                   GError    **error);
void        _viva_json_set_string_or_null (JsonObject *object,
                                           const char *member,
                                           const char *value);

G_END_DECLS

G_BEGIN_DECLS

char    *_viva_model_error_message_from_body (JsonNode   *body);
JsonNode *_viva_model_error_body_new         (GBytes     *bytes);
gboolean _viva_model_error_body_mentions     (JsonNode   *body,
                                              const char *word);
GError  *_viva_model_error_new_for_status    (guint       status,
                                              JsonNode   *body,
                                              const char *model,
                                              const char *base_url,
                                              gboolean    is_ollama);
GError  *_viva_model_error_new_in_band       (JsonNode   *error,
                                              const char *model,
                                              gboolean    is_ollama);
gboolean _viva_model_message_says_model_missing (const char *message);
GError  *_viva_model_error_new_model_missing (const char *model,
                                              gboolean    is_ollama,
                                              const char *said);
char    *_viva_recover_tool_calls            (const char         *content,
                                              const char * const *tool_names,
                                              GPtrArray          *calls);
GError  *_viva_model_error_new_no_model      (const char *base_url,
                                              gboolean    is_ollama);
GError  *_viva_model_error_new_for_transport (const GError *error,
                                              const char   *base_url,
                                              const char   *ollama_root,
                                              gboolean     *retryable);

G_END_DECLS
