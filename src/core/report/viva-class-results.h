/* viva-class-results.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-class-report.h"
#include "viva-pack.h"

G_BEGIN_DECLS

/**
 * VivaClassStat:
 * @problem_id: the problem the test or question belongs to
 * @name: the hidden test's name, or the question's text
 * @is_question: %TRUE for a question the examiner asked
 * @failed: how many reports failed the test (for a question: how many
 *   defenses that asked it ended in a fail)
 * @total: how many reports ran the test (asked the question)
 */
typedef struct
{
  char     *problem_id;
  char     *name;
  gboolean  is_question;
  guint     failed;
  guint     total;
} VivaClassStat;

void viva_class_stat_free (VivaClassStat *stat);

#define VIVA_TYPE_CLASS_RESULTS (viva_class_results_get_type ())

G_DECLARE_FINAL_TYPE (VivaClassResults, viva_class_results, VIVA, CLASS_RESULTS, GObject)

VivaClassResults *viva_class_results_new                (void);
GListModel       *viva_class_results_get_reports        (VivaClassResults     *self);
void              viva_class_results_add_pack           (VivaClassResults     *self,
                                                         VivaPack             *pack);
void              viva_class_results_set_exam           (VivaClassResults     *self,
                                                         VivaExamFile         *exam);
VivaExamFile     *viva_class_results_get_exam           (VivaClassResults     *self);
void              viva_class_results_set_signing_key    (VivaClassResults     *self,
                                                         const char           *key_pem);
gboolean          viva_class_results_get_busy           (VivaClassResults     *self);
guint             viva_class_results_get_n_regraded     (VivaClassResults     *self);
guint             viva_class_results_get_n_to_regrade   (VivaClassResults     *self);
guint             viva_class_results_get_max_parallel   (VivaClassResults     *self);
void              viva_class_results_set_max_parallel   (VivaClassResults     *self,
                                                         guint                 max_parallel);
void              viva_class_results_collect_async      (VivaClassResults     *self,
                                                         const char * const   *paths,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean          viva_class_results_collect_finish     (VivaClassResults     *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
void              viva_class_results_regrade_async      (VivaClassResults     *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean          viva_class_results_regrade_finish     (VivaClassResults     *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
void              viva_class_results_set_teacher_scores (VivaClassResults     *self,
                                                         VivaTeacherScores    *scores);
VivaTeacherScores *viva_class_results_get_teacher_scores (VivaClassResults    *self);
VivaCalibration  *viva_class_results_calibrate          (VivaClassResults     *self);
guint             viva_class_results_count_students     (VivaClassResults     *self);
guint             viva_class_results_count_flagged      (VivaClassResults     *self);
guint             viva_class_results_count_unreadable   (VivaClassResults     *self);
JsonObject       *viva_class_results_summary            (VivaClassResults     *self);
GPtrArray        *viva_class_results_statistics         (VivaClassResults     *self);

/* viva-class-export.c */
char             *viva_class_results_to_csv             (VivaClassResults     *self);
char             *viva_class_results_to_gradebook_csv   (VivaClassResults     *self);
char             *viva_class_results_to_html            (VivaClassResults     *self);
void              viva_class_results_to_html_async      (VivaClassResults     *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
char             *viva_class_results_to_html_finish     (VivaClassResults     *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

G_END_DECLS
