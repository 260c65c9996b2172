/* viva-run-result-json.h: a run's result as data, to cross to another machine and back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-run-result.h"

G_BEGIN_DECLS

/* The figures a result carries as data: small ones only, the rest counted
 * (`images_dropped`). A plot a defense's tool makes is seen by nobody but
 * its count, so a run's data stays far below a request's size. */
#define VIVA_RUN_RESULT_JSON_MAX_IMAGES      8
#define VIVA_RUN_RESULT_JSON_MAX_IMAGE_BYTES (256 * 1024)
#define VIVA_RUN_RESULT_JSON_MAX_IMAGES_BYTES (1024 * 1024)

JsonObject    *viva_run_result_to_json       (VivaRunResult  *self);
VivaRunResult *viva_run_result_new_from_json (JsonObject     *object,
                                              guint           timeout_ms,
                                              GError        **error);
char          *viva_run_text_make_visible    (const char     *text,
                                              gsize           max_bytes);

G_END_DECLS
