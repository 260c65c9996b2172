/* viva-report-file.h: reading a report file a student handed in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A report is a few hundred KiB at most (the code, the transcript, the
 * trace's facts); a file past this is not one. */
#define VIVA_REPORT_FILE_MAX_BYTES (16 * 1024 * 1024)
/* A report nests about ten levels, a value in a tool's result a few
 * dozen more; json-glib recurses per level. */
#define VIVA_REPORT_FILE_MAX_DEPTH 256

char     *viva_report_file_read  (const char  *path,
                                  gsize       *length,
                                  GError     **error);
JsonNode *viva_report_file_parse (const char  *data,
                                  gssize       length,
                                  GError     **error);
JsonNode *viva_report_file_load  (const char  *path,
                                  GError     **error);
void      viva_report_file_list  (const char  *path,
                                  GPtrArray   *files);

G_END_DECLS
