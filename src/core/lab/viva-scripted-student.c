/* viva-scripted-student.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-answer-program.h"
#include "viva-code-source.h"
#include "viva-defense.h"
#include "viva-scripted-student.h"

/* A student who needs no screen: fixed code and canned answers that take a
 * VivaExaminer through a whole defense headless. The lab rehearsal plays
 * many of them at once against a server; anything else that must drive a
 * defense to its end without a person (an evaluation of a model) can too.
 * The student only answers: the examiner, its model, session and runners
 * stay the caller's, so the caller measures what it wants. */

struct _VivaScriptedStudent
{
  GObject             parent_instance;

  VivaProblem        *problem;
  VivaStudentVariant  variant;
  char               *code;
  GStrv               answers;
  GStrv               answer_program;   /* answers from a program, as `defend --answer-with` */
  VivaTextCodeSource *code_source;
  guint               n_answered;
};

G_DEFINE_FINAL_TYPE (VivaScriptedStudent, viva_scripted_student, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (VivaStudentVariant, viva_student_variant,
                    G_DEFINE_ENUM_VALUE (VIVA_STUDENT_VARIANT_REFERENCE, "reference"),
                    G_DEFINE_ENUM_VALUE (VIVA_STUDENT_VARIANT_BUGGY, "buggy"),
                    G_DEFINE_ENUM_VALUE (VIVA_STUDENT_VARIANT_STARTER, "starter"))

const char *
viva_student_variant_to_string (VivaStudentVariant variant)
{
  switch (variant)
    {
    case VIVA_STUDENT_VARIANT_REFERENCE: return "reference";
    case VIVA_STUDENT_VARIANT_BUGGY: return "buggy";
    case VIVA_STUDENT_VARIANT_STARTER: return "starter";
    default: g_return_val_if_reached ("reference");
    }
}

/* Small bugs of the kind students make, tried in this order; the first
 * that occurs in the code after its first definition is made once. */
static const struct {
  const char *from;
  const char *to;
} mutations[] = {
  { " <= ", " < " },
  { " >= ", " > " },
  { " < ", " <= " },
  { " > ", " >= " },
  { " + 1", "" },
  { " - 1", "" },
  { "max(", "min(" },
  { "min(", "max(" },
  { " == ", " != " },
};

static char *
make_buggy (const char *reference)
{
  const char *body = strstr (reference, "def ");

  if (body == NULL)
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (mutations); i++)
    {
      const char *at = strstr (body, mutations[i].from);

      if (at != NULL)
        return g_strdup_printf ("%.*s%s%s", (int)(at - reference), reference, mutations[i].to,
                                at + strlen (mutations[i].from));
    }

  return NULL;
}

/* Answers in English: a rehearsal measures the server, and the examiner
 * copes with any language the student writes in. */
static GStrv
make_answers (VivaProblem        *problem,
              VivaStudentVariant  variant)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (variant == VIVA_STUDENT_VARIANT_REFERENCE)
    for (guint i = 0; i < viva_problem_get_n_questions (problem); i++)
      {
        const VivaProblemQuestion *question = viva_problem_get_question (problem, i);
        g_autofree char *points = question->points != NULL
                                ? g_strjoinv ("; ", question->points) : NULL;

        if (points != NULL && *points != '\0')
        {
          g_autofree char *answer = g_strdup_printf ("I think so because %s.", points);

          g_strv_builder_add (builder, answer);
        }
      }

  if (variant == VIVA_STUDENT_VARIANT_REFERENCE)
    g_strv_builder_add (builder,
                        "Each step keeps the invariant I described, so the loop ends with the right answer; "
                        "I checked the edge cases of an empty input and a single element.");
  else
    g_strv_builder_add_many (builder,
                             "I am not sure. I tested it on the example and it printed something that looked right.",
                             "Maybe the loop stops one step too early? I did not check the edge cases.",
                             NULL);

  return g_strv_builder_end (builder);
}

static void
viva_scripted_student_finalize (GObject *object)
{
  VivaScriptedStudent *self = (VivaScriptedStudent *)object;

  g_clear_object (&self->problem);
  g_clear_object (&self->code_source);
  g_clear_pointer (&self->code, g_free);
  g_clear_pointer (&self->answers, g_strfreev);
  g_clear_pointer (&self->answer_program, g_strfreev);

  G_OBJECT_CLASS (viva_scripted_student_parent_class)->finalize (object);
}

static void
viva_scripted_student_class_init (VivaScriptedStudentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_scripted_student_finalize;
}

static void
viva_scripted_student_init (VivaScriptedStudent *self)
{
}

/**
 * viva_scripted_student_new_with_code:
 * @problem: the problem defended
 * @code: the code submitted
 * @answers: (array zero-terminated=1): answers given in order; the last one
 *   is repeated when the examiner asks more (at least one)
 *
 * Returns: (transfer full): a student
 */
VivaScriptedStudent *
viva_scripted_student_new_with_code (VivaProblem        *problem,
                                     const char         *code,
                                     const char * const *answers)
{
  VivaScriptedStudent *self;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);
  g_return_val_if_fail (code != NULL, NULL);
  g_return_val_if_fail (answers != NULL && answers[0] != NULL, NULL);

  self = g_object_new (VIVA_TYPE_SCRIPTED_STUDENT, NULL);
  self->problem = g_object_ref (problem);
  self->variant = VIVA_STUDENT_VARIANT_REFERENCE;
  self->code = g_strdup (code);
  self->answers = g_strdupv ((char **)answers);
  self->code_source = viva_text_code_source_new (code);

  return self;
}

/**
 * viva_scripted_student_new:
 * @problem: a problem with a reference solution
 * @variant: what the student submits
 *
 * A buggy student whose reference offers no bug to make submits the
 * starter code instead (see viva_scripted_student_get_variant()).
 *
 * Returns: (transfer full): a student
 */
VivaScriptedStudent *
viva_scripted_student_new (VivaProblem        *problem,
                           VivaStudentVariant  variant)
{
  const char *reference;
  const char *starter;
  g_autofree char *code = NULL;
  g_auto(GStrv) answers = NULL;
  VivaScriptedStudent *self;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);

  reference = viva_problem_get_reference (problem);
  starter = viva_problem_get_starter_code (problem);

  if (variant == VIVA_STUDENT_VARIANT_BUGGY && reference != NULL &&
      !(code = make_buggy (reference)))
    variant = VIVA_STUDENT_VARIANT_STARTER;

  if (variant == VIVA_STUDENT_VARIANT_REFERENCE && reference != NULL)
    code = g_strdup (reference);
  else if (code == NULL)
    {
      variant = VIVA_STUDENT_VARIANT_STARTER;
      code = g_strdup (starter != NULL ? starter : "");
    }

  answers = make_answers (problem, variant);
  self = viva_scripted_student_new_with_code (problem, code, (const char * const *)answers);
  self->variant = variant;

  return self;
}

VivaProblem *
viva_scripted_student_get_problem (VivaScriptedStudent *self)
{
  g_return_val_if_fail (VIVA_IS_SCRIPTED_STUDENT (self), NULL);

  return self->problem;
}

VivaStudentVariant
viva_scripted_student_get_variant (VivaScriptedStudent *self)
{
  g_return_val_if_fail (VIVA_IS_SCRIPTED_STUDENT (self), VIVA_STUDENT_VARIANT_REFERENCE);

  return self->variant;
}

const char *
viva_scripted_student_get_code (VivaScriptedStudent *self)
{
  g_return_val_if_fail (VIVA_IS_SCRIPTED_STUDENT (self), NULL);

  return self->code;
}

const char * const *
viva_scripted_student_get_answers (VivaScriptedStudent *self)
{
  g_return_val_if_fail (VIVA_IS_SCRIPTED_STUDENT (self), NULL);

  return (const char * const *)self->answers;
}

/**
 * viva_scripted_student_get_code_source:
 *
 * Returns: (transfer none): the student's code as an examiner reads it
 */
VivaCodeSource *
viva_scripted_student_get_code_source (VivaScriptedStudent *self)
{
  g_return_val_if_fail (VIVA_IS_SCRIPTED_STUDENT (self), NULL);

  return VIVA_CODE_SOURCE (self->code_source);
}

guint
viva_scripted_student_get_n_answered (VivaScriptedStudent *self)
{
  g_return_val_if_fail (VIVA_IS_SCRIPTED_STUDENT (self), 0);

  return self->n_answered;
}

/**
 * viva_scripted_student_set_answer_program:
 * @argv: (array zero-terminated=1) (nullable): a program that answers each
 *   question, as `viva-cli defend --answer-with` runs it; %NULL for the
 *   canned answers
 */
void
viva_scripted_student_set_answer_program (VivaScriptedStudent *self,
                                          const char * const  *argv)
{
  g_return_if_fail (VIVA_IS_SCRIPTED_STUDENT (self));

  g_clear_pointer (&self->answer_program, g_strfreev);
  self->answer_program = argv ? g_strdupv ((char **)argv) : NULL;
}

/**
 * viva_scripted_student_new_examiner:
 * @model: the examiner's mind
 *
 * An examiner of this student's code, not started; set its session,
 * runner, language or limits before handing it to
 * viva_scripted_student_defend_async().
 *
 * Returns: (transfer full): a new examiner
 */
VivaExaminer *
viva_scripted_student_new_examiner (VivaScriptedStudent *self,
                                    VivaChatModel       *model)
{
  g_autoptr(VivaDefense) defense = NULL;

  g_return_val_if_fail (VIVA_IS_SCRIPTED_STUDENT (self), NULL);
  g_return_val_if_fail (VIVA_IS_CHAT_MODEL (model), NULL);

  /* Assembled as every defense is (the examiner's language as a
   * student's would be), but kept nowhere: a rehearsal or an eval writes
   * no sessions. */
  defense = viva_defense_new (NULL, self->problem, VIVA_CODE_SOURCE (self->code_source));
  viva_defense_set_recorded (defense, FALSE);

  return g_object_ref (viva_defense_assemble (defense, model));
}

typedef struct
{
  VivaExaminer *examiner;
  gulong        question_id;
} DefendData;

static void
defend_data_free (DefendData *data)
{
  g_clear_signal_handler (&data->question_id, data->examiner);
  g_clear_object (&data->examiner);
  g_free (data);
}

static void
program_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaScriptedStudent *self = g_task_get_source_object (task);
  DefendData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = viva_answer_program_run_finish (result, &error);

  /* A program that fails answers nothing a student could have meant. */
  if (answer == NULL)
    {
      g_debug ("scripted student: the answering program failed: %s", error->message);
      answer = g_strdup ("");
    }
  if (viva_examiner_answer (data->examiner, answer, NULL))
    self->n_answered++;
}

static void
on_question (VivaExaminer *examiner,
             const char   *step,
             const char   *question,
             GTask        *task)
{
  VivaScriptedStudent *self = g_task_get_source_object (task);
  guint n = g_strv_length (self->answers);
  const char *answer = self->answers[MIN (self->n_answered, n - 1)];
  g_autoptr(GError) error = NULL;

  g_assert (VIVA_IS_EXAMINER (examiner));

  /* The same mechanism as `viva-cli defend --answer-with`: the question
   * as one JSON object (text, kind, and a prediction's call) to a program. */
  if (self->answer_program != NULL)
    {
      g_autoptr(JsonObject) asked = viva_answer_program_question_for_examiner (examiner, question);

      viva_answer_program_run_async ((const char * const *)self->answer_program, asked,
                                     VIVA_ANSWER_PROGRAM_TIMEOUT_MS, g_task_get_cancellable (task),
                                     program_cb, g_object_ref (task));
      return;
    }

  /* The examiner waits for the answer only after this emission; answering
   * within it is what viva-cli defend does with an answers file. */
  if (viva_examiner_answer (examiner, answer, &error))
    self->n_answered++;
  else
    g_debug ("scripted student: answer refused: %s", error->message);
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DefendData *data = g_task_get_task_data (task);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  GError *error = NULL;

  g_clear_signal_handler (&data->question_id, data->examiner);

  if (!(verdict = viva_examiner_run_finish (VIVA_EXAMINER (object), result, &error)))
    return g_task_return_error (task, error);

  g_task_return_pointer (task, g_steal_pointer (&verdict), g_object_unref);
}

/**
 * viva_scripted_student_defend_async:
 * @examiner: an examiner made by viva_scripted_student_new_examiner(), not
 *   started
 *
 * Runs @examiner to its verdict, answering each question it asks with the
 * next canned answer. Runs on the caller's main context.
 */
void
viva_scripted_student_defend_async (VivaScriptedStudent *self,
                                    VivaExaminer        *examiner,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  DefendData *data;

  g_return_if_fail (VIVA_IS_SCRIPTED_STUDENT (self));
  g_return_if_fail (VIVA_IS_EXAMINER (examiner));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_scripted_student_defend_async);

  data = g_new0 (DefendData, 1);
  data->examiner = g_object_ref (examiner);
  g_task_set_task_data (task, data, (GDestroyNotify)defend_data_free);

  data->question_id = g_signal_connect (examiner, "question", G_CALLBACK (on_question), task);
  viva_examiner_run_async (examiner, cancellable, run_cb, g_steal_pointer (&task));
}

/**
 * viva_scripted_student_defend_finish:
 *
 * Returns: (transfer full): the verdict, or %NULL with @error set when the
 *   defense failed or was cancelled
 */
VivaExamVerdict *
viva_scripted_student_defend_finish (VivaScriptedStudent  *self,
                                     GAsyncResult         *result,
                                     GError              **error)
{
  g_return_val_if_fail (VIVA_IS_SCRIPTED_STUDENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
