/* viva-scripted-student.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-examiner.h"
#include "viva-problem.h"

G_BEGIN_DECLS

/**
 * VivaStudentVariant:
 * @VIVA_STUDENT_VARIANT_REFERENCE: submits the problem's reference solution
 *   and answers with the question's points
 * @VIVA_STUDENT_VARIANT_BUGGY: submits the reference with one small bug
 *   (a comparison or an off-by-one changed) and answers vaguely
 * @VIVA_STUDENT_VARIANT_STARTER: submits the starter code, unfinished
 */
typedef enum
{
  VIVA_STUDENT_VARIANT_REFERENCE,
  VIVA_STUDENT_VARIANT_BUGGY,
  VIVA_STUDENT_VARIANT_STARTER,
} VivaStudentVariant;

#define VIVA_TYPE_STUDENT_VARIANT (viva_student_variant_get_type ())
GType       viva_student_variant_get_type  (void) G_GNUC_CONST;
const char *viva_student_variant_to_string (VivaStudentVariant variant);

#define VIVA_TYPE_SCRIPTED_STUDENT (viva_scripted_student_get_type ())

G_DECLARE_FINAL_TYPE (VivaScriptedStudent, viva_scripted_student, VIVA, SCRIPTED_STUDENT, GObject)

VivaScriptedStudent *viva_scripted_student_new             (VivaProblem          *problem,
                                                            VivaStudentVariant    variant);
VivaScriptedStudent *viva_scripted_student_new_with_code   (VivaProblem          *problem,
                                                            const char           *code,
                                                            const char * const   *answers);
VivaProblem         *viva_scripted_student_get_problem     (VivaScriptedStudent  *self);
VivaStudentVariant   viva_scripted_student_get_variant     (VivaScriptedStudent  *self);
const char          *viva_scripted_student_get_code        (VivaScriptedStudent  *self);
const char * const  *viva_scripted_student_get_answers     (VivaScriptedStudent  *self);
VivaCodeSource      *viva_scripted_student_get_code_source (VivaScriptedStudent  *self);
guint                viva_scripted_student_get_n_answered  (VivaScriptedStudent  *self);
void                 viva_scripted_student_set_answer_program (VivaScriptedStudent *self,
                                                           const char * const  *argv);
VivaExaminer        *viva_scripted_student_new_examiner    (VivaScriptedStudent  *self,
                                                            VivaChatModel        *model);

void                 viva_scripted_student_defend_async    (VivaScriptedStudent  *self,
                                                            VivaExaminer         *examiner,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
VivaExamVerdict     *viva_scripted_student_defend_finish   (VivaScriptedStudent  *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);

G_END_DECLS
