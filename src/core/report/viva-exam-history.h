/* viva-exam-history.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  char   *id;
  char   *dir;
  char   *created;
  char   *updated;
  char   *state;
  char   *examiner;  /* the model's name, or empty for the offline examiner */
  char   *verdict;   /* "pass", "fail", or NULL while unfinished */
  double  score;     /* -1 without a score */
} VivaExamSummary;

#define VIVA_TYPE_EXAM_SUMMARY (viva_exam_summary_get_type ())

GType            viva_exam_summary_get_type    (void) G_GNUC_CONST;
VivaExamSummary *viva_exam_summary_copy        (const VivaExamSummary  *summary);
void             viva_exam_summary_free        (VivaExamSummary        *summary);
void             viva_exam_history_list_async  (const char             *sessions_dir,
                                                const char             *pack_id,
                                                const char             *problem_id,
                                                GCancellable           *cancellable,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
GPtrArray       *viva_exam_history_list_finish (GAsyncResult           *result,
                                                GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaExamSummary, viva_exam_summary_free)

G_END_DECLS
