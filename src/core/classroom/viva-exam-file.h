/* viva-exam-file.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-pack.h"
#include "viva-settings.h"

G_BEGIN_DECLS

#define VIVA_EXAM_FILE_FORMAT "viva-exam/1"

/* The shortest and longest time limit an exam may set. Ten seconds is no
 * real exam; it is there so a test can watch the time run out. */
#define VIVA_EXAM_FILE_MIN_TIME_LIMIT 10
#define VIVA_EXAM_FILE_MAX_TIME_LIMIT (24 * 60 * 60)

/* The widest grading limit: a count and a window an exam can mean. */
#define VIVA_EXAM_FILE_MAX_GRADINGS    1000
#define VIVA_EXAM_FILE_MAX_PER_MINUTES (24 * 60)

#define VIVA_TYPE_EXAM_FILE (viva_exam_file_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamFile, viva_exam_file, VIVA, EXAM_FILE, GObject)

VivaExamFile       *viva_exam_file_new_from_bytes      (GBytes             *bytes,
                                                        const char         *path,
                                                        GPtrArray         **issues,
                                                        GError            **error);
VivaExamFile       *viva_exam_file_load                (const char         *path,
                                                        GPtrArray         **issues,
                                                        GError            **error);
void                viva_exam_file_load_async          (const char         *path,
                                                        GCancellable       *cancellable,
                                                        GAsyncReadyCallback callback,
                                                        gpointer            user_data);
VivaExamFile       *viva_exam_file_load_finish         (GAsyncResult       *result,
                                                        GPtrArray         **issues,
                                                        GError            **error);
char               *viva_exam_file_describe_issues     (GPtrArray          *issues);
GHashTable         *viva_exam_file_installed_problems_new (GListModel      *packs);
VivaExamFile       *viva_exam_file_new_from_bytes_full (GBytes             *bytes,
                                                        const char         *path,
                                                        GHashTable         *installed,
                                                        GPtrArray         **issues,
                                                        GError            **error);
VivaExamFile       *viva_exam_file_load_full           (const char         *path,
                                                        GHashTable         *installed,
                                                        GPtrArray         **issues,
                                                        GError            **error);
void                viva_exam_file_load_full_async     (const char         *path,
                                                        GHashTable         *installed,
                                                        GCancellable       *cancellable,
                                                        GAsyncReadyCallback callback,
                                                        gpointer            user_data);

const char         *viva_exam_file_get_path            (VivaExamFile       *self);
const char         *viva_exam_file_get_digest          (VivaExamFile       *self);
const char         *viva_exam_file_get_id              (VivaExamFile       *self);
const char         *viva_exam_file_get_title           (VivaExamFile       *self);
const char         *viva_exam_file_get_pack_id         (VivaExamFile       *self);
gboolean            viva_exam_file_get_pack_embedded   (VivaExamFile       *self);
VivaPack           *viva_exam_file_get_pack            (VivaExamFile       *self);
gboolean            viva_exam_file_set_pack            (VivaExamFile       *self,
                                                        VivaPack           *pack,
                                                        GError            **error);
const char * const *viva_exam_file_get_problems        (VivaExamFile       *self);
gboolean            viva_exam_file_has_problem         (VivaExamFile       *self,
                                                        const char         *problem_id);
guint               viva_exam_file_get_time_limit      (VivaExamFile       *self);
gboolean            viva_exam_file_get_hints_allowed   (VivaExamFile       *self);
double              viva_exam_file_get_hint_cost       (VivaExamFile       *self);
gboolean            viva_exam_file_get_followup_allowed (VivaExamFile      *self);
gboolean            viva_exam_file_get_check_allowed   (VivaExamFile       *self);
gboolean            viva_exam_file_get_grading_limit   (VivaExamFile       *self,
                                                        guint              *count,
                                                        guint              *per_minutes);
gboolean            viva_exam_file_has_examiner        (VivaExamFile       *self);
VivaExaminerMode    viva_exam_file_get_examiner_mode   (VivaExamFile       *self);
const char         *viva_exam_file_get_base_url        (VivaExamFile       *self);
const char         *viva_exam_file_get_model           (VivaExamFile       *self);
const char         *viva_exam_file_get_language        (VivaExamFile       *self);
const char         *viva_exam_file_get_report_folder   (VivaExamFile       *self);
gboolean            viva_exam_file_get_verdict_after_exam (VivaExamFile    *self);
JsonNode           *viva_exam_file_to_ref              (VivaExamFile       *self);
VivaExamFile       *viva_exam_file_load_ref            (JsonObject         *ref,
                                                        GError            **error);
JsonNode           *viva_exam_file_strip_hidden        (JsonNode           *pack);

gboolean            viva_exam_file_parse_duration      (const char         *text,
                                                        guint              *seconds);

G_END_DECLS
