/* viva-exam-report.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define VIVA_EXAM_REPORT_FORMAT "viva-report/1"

JsonNode *viva_exam_report_build          (JsonNode             *checkpoint,
                                           const char           *trace,
                                           gssize                trace_length);
char     *viva_exam_report_render_html    (JsonNode             *report);
char     *viva_exam_report_dup_file_name  (JsonNode             *report,
                                           const char           *extension);
JsonNode *viva_exam_report_load           (const char           *session_dir,
                                           GError              **error);
void      viva_exam_report_load_async     (const char           *session_dir,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
JsonNode *viva_exam_report_load_finish    (GAsyncResult         *result,
                                           GError              **error);
void      viva_exam_report_export_async   (const char           *session_dir,
                                           GFile                *html_file,
                                           GFile                *json_file,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
gboolean  viva_exam_report_export_finish  (GAsyncResult         *result,
                                           GError              **error);
void      viva_exam_report_export_to_folder_async  (const char           *session_dir,
                                                    const char           *folder,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
char     *viva_exam_report_export_to_folder_finish (GAsyncResult         *result,
                                                    GError              **error);

G_END_DECLS
