/* viva-exam-report-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-json-member.h"

G_BEGIN_DECLS

/* Lenient member access: a report is made from any checkpoint on disk, so a
 * missing or mistyped member reads as absent rather than as a warning. */
/* Pieces of the HTML page, each appending escaped, safe HTML. */
void        _viva_report_append_markdown (GString    *html,
                                          const char *markdown);
void        _viva_report_append_code     (GString    *html,
                                          const char *code,
                                          const char *language);
void        _viva_report_append_tool     (GString    *html,
                                          JsonObject *entry);
void        _viva_report_append_items    (GString    *html,
                                          JsonObject *root);

G_END_DECLS
