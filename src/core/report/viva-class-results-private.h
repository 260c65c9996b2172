/* viva-class-results-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-class-results.h"

G_BEGIN_DECLS

/* viva-class-claims.c: flags `duplicate-claim` over the whole class
 * (main thread). */
void _viva_class_results_update_claims (GListModel *reports);

/* viva-class-results-teacher.c: the teacher's scores on the rows, and
 * calibration over them (main thread). */
void             _viva_class_results_apply_teacher (GListModel        *reports,
                                                    VivaTeacherScores *scores);
VivaCalibration *_viva_class_results_calibrate     (GListModel        *reports);

G_END_DECLS
