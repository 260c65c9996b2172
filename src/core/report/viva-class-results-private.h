/* viva-class-results-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-class-results.h"

G_BEGIN_DECLS

/* The object, shared by viva-class-results.c (the object, collecting),
 * -regrade.c and -count.c. */
struct _VivaClassResults
{
  GObject       parent_instance;

  GListStore   *reports;
  GPtrArray    *packs;
  VivaExamFile *exam;           /* the teacher's copy of the exam, if given */
  VivaTeacherScores *teacher_scores;    /* the teacher's own scores, if given */
  char         *signing_key;    /* the exam server's public key (PEM), if given */
  gulong        teacher_changed_id;
  guint         max_parallel;
  guint         n_regraded;
  guint         n_to_regrade;
  gboolean      busy;
};

/* viva-class-results.c */
void _viva_class_results_set_busy     (VivaClassResults *self,
                                       gboolean          busy);
void _viva_class_results_set_progress (VivaClassResults *self,
                                       guint             n_regraded,
                                       guint             n_to_regrade);

/* viva-class-claims.c: flags `duplicate-claim` over the whole class
 * (main thread). */
void _viva_class_results_update_claims (GListModel *reports);

/* viva-class-results-teacher.c: the teacher's scores on the rows, and
 * calibration over them (main thread). */
void             _viva_class_results_apply_teacher (GListModel        *reports,
                                                    VivaTeacherScores *scores);
VivaCalibration *_viva_class_results_calibrate     (GListModel        *reports);

G_END_DECLS
