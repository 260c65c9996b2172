/* viva-teacher-scores.h: a teacher's own scores of defenses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-calibration.h"

G_BEGIN_DECLS

/* A teacher CSV is read whole; a class's scores are a few KiB. */
#define VIVA_TEACHER_SCORES_MAX_BYTES (4 * 1024 * 1024)
#define VIVA_TEACHER_SCORES_MAX_ROWS  100000
#define VIVA_TEACHER_SCORES_MAX_CELL  1024

/**
 * VivaTeacherScore:
 * @student_id: the student the score is for
 * @problem: the problem's id
 * @session: (nullable): the defense's session, when the score was set on
 *   one report (in the window); %NULL for a CSV's, which scores a
 *   student's problem whatever the session
 * @item: (nullable): the verdict item the score is for; %NULL for the
 *   whole defense
 * @score: the teacher's score: 0–100 for a defense, points for an item
 * @verdict: the teacher's verdict, or %VIVA_CALIBRATION_UNKNOWN
 * @note: (nullable): the teacher's note
 * @line: the CSV line it came from, or 0
 */
typedef struct
{
  char                   *student_id;
  char                   *problem;
  char                   *session;
  char                   *item;
  double                  score;
  VivaCalibrationVerdict  verdict;
  char                   *note;
  guint                   line;
} VivaTeacherScore;

#define VIVA_TYPE_TEACHER_SCORES (viva_teacher_scores_get_type ())

G_DECLARE_FINAL_TYPE (VivaTeacherScores, viva_teacher_scores, VIVA, TEACHER_SCORES, GObject)

VivaTeacherScores      *viva_teacher_scores_new           (void);
GFile                  *viva_teacher_scores_default_file  (void);
guint                   viva_teacher_scores_get_n_scores  (VivaTeacherScores  *self);
const VivaTeacherScore *viva_teacher_scores_get_score     (VivaTeacherScores  *self,
                                                           guint               position);
const VivaTeacherScore *viva_teacher_scores_lookup        (VivaTeacherScores  *self,
                                                           const char         *student_id,
                                                           const char         *problem,
                                                           const char         *session,
                                                           const char         *item);
void                    viva_teacher_scores_set           (VivaTeacherScores  *self,
                                                           const char         *student_id,
                                                           const char         *problem,
                                                           const char         *session,
                                                           const char         *item,
                                                           double              score,
                                                           VivaCalibrationVerdict verdict,
                                                           const char         *note);
gboolean                viva_teacher_scores_remove        (VivaTeacherScores  *self,
                                                           const char         *student_id,
                                                           const char         *problem,
                                                           const char         *session,
                                                           const char         *item);
gboolean                viva_teacher_scores_load          (VivaTeacherScores  *self,
                                                           GFile              *file,
                                                           GError            **error);
void                    viva_teacher_scores_load_async    (VivaTeacherScores  *self,
                                                           GFile              *file,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
gboolean                viva_teacher_scores_load_finish   (VivaTeacherScores  *self,
                                                           GAsyncResult       *result,
                                                           GError            **error);
void                    viva_teacher_scores_save_async    (VivaTeacherScores  *self,
                                                           GFile              *file,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
gboolean                viva_teacher_scores_save_finish   (VivaTeacherScores  *self,
                                                           GAsyncResult       *result,
                                                           GError            **error);

/* viva-teacher-csv.c */
gboolean                viva_teacher_scores_load_csv      (VivaTeacherScores  *self,
                                                           const char         *path,
                                                           GError            **error);
gboolean                viva_teacher_scores_parse_csv     (VivaTeacherScores  *self,
                                                           const char         *data,
                                                           gsize               length,
                                                           GError            **error);

G_END_DECLS
