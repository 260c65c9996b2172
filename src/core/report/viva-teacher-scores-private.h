/* viva-teacher-scores-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-teacher-scores.h"

G_BEGIN_DECLS

void  _viva_teacher_score_free         (VivaTeacherScore  *score);
void  _viva_teacher_scores_take        (VivaTeacherScores *self,
                                        VivaTeacherScore  *score);
void  _viva_teacher_scores_take_all    (VivaTeacherScores *self,
                                        VivaTeacherScores *from);
char *_viva_teacher_scores_read_file   (const char        *path,
                                        gsize             *length,
                                        GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaTeacherScore, _viva_teacher_score_free)

G_END_DECLS
