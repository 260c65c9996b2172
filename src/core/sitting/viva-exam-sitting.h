/* viva-exam-sitting.h: one student's sitting of an exam
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-exam-file.h"
#include "viva-exam-hand-in.h"
#include "viva-grading-limit.h"
#include "viva-exam-session.h"
#include "viva-settings.h"

G_BEGIN_DECLS

#define VIVA_TYPE_EXAM_SITTING (viva_exam_sitting_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamSitting, viva_exam_sitting, VIVA, EXAM_SITTING, GObject)

/**
 * VivaExamSittingKeepFunc:
 * @sitting: the sitting
 * @state: (transfer none): its state, as its state file would hold it
 * @user_data: the data given with the function
 *
 * Keeps a sitting's state where its front keeps things.
 */
typedef void (*VivaExamSittingKeepFunc) (VivaExamSitting *sitting,
                                         JsonNode        *state,
                                         gpointer         user_data);

VivaExamSitting *viva_exam_sitting_new                  (VivaExamFile         *exam,
                                                         const char           *state_dir);
VivaExamSitting *viva_exam_sitting_new_kept             (VivaExamFile         *exam,
                                                         VivaExamSittingKeepFunc keep_func,
                                                         gpointer              user_data,
                                                         GDestroyNotify        destroy);
VivaExamFile    *viva_exam_sitting_get_exam             (VivaExamSitting      *self);
VivaExamHandIn  *viva_exam_sitting_get_hand_in          (VivaExamSitting      *self);
const char      *viva_exam_sitting_get_state_path       (VivaExamSitting      *self);

void             viva_exam_sitting_restore_async        (VivaExamSitting      *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean         viva_exam_sitting_restore_finish       (VivaExamSitting      *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
gboolean         viva_exam_sitting_restore              (VivaExamSitting      *self,
                                                         GError              **error);
gboolean         viva_exam_sitting_restore_state        (VivaExamSitting      *self,
                                                         JsonNode             *state);
void             viva_exam_sitting_begin                (VivaExamSitting      *self,
                                                         const char           *student_name,
                                                         const char           *student_id,
                                                         GDateTime            *started);
gboolean         viva_exam_sitting_has_begun            (VivaExamSitting      *self);
const char      *viva_exam_sitting_get_student_name     (VivaExamSitting      *self);
const char      *viva_exam_sitting_get_student_id       (VivaExamSitting      *self);
GDateTime       *viva_exam_sitting_get_started          (VivaExamSitting      *self);
gint64           viva_exam_sitting_get_time_left        (VivaExamSitting      *self);
gboolean         viva_exam_sitting_get_time_up          (VivaExamSitting      *self);

void             viva_exam_sitting_fix_settings         (VivaExamSitting      *self,
                                                         VivaSettings         *settings);
void             viva_exam_sitting_stamp_session        (VivaExamSitting      *self,
                                                         VivaExamSession      *session);
void             viva_exam_sitting_hand_in_report_async (VivaExamSitting      *self,
                                                         VivaExamSession      *session,
                                                         const char           *problem_id,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
char            *viva_exam_sitting_hand_in_report_finish (VivaExamSitting     *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

gboolean         viva_exam_sitting_request_grading      (VivaExamSitting      *self,
                                                         const char           *problem_id,
                                                         gboolean              check,
                                                         GDateTime            *now,
                                                         GError              **error);

G_END_DECLS
