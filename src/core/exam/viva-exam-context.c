/* viva-exam-context.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-context.h"
#include "viva-exam-error.h"

struct _VivaExamContext
{
  GObject          parent_instance;

  VivaProblem     *problem;
  VivaCodeSource  *code_source;
  VivaExamRuns    *runs;
  guint            run_timeout_ms;
  GPtrArray       *plan;          /* VivaExamPlanItem: the questions the engine chose */

  /* The question waiting for the student, and its task. */
  char            *question;
  GTask           *waiting;
  GSource         *cancel_source;
};

G_DEFINE_FINAL_TYPE (VivaExamContext, viva_exam_context, G_TYPE_OBJECT)

/**
 * viva_exam_context_set_plan:
 * @plan: (element-type VivaExamPlanItem) (transfer full) (nullable): the
 *   questions the engine chose for this defense
 */
void
viva_exam_context_set_plan (VivaExamContext *self,
                            GPtrArray       *plan)
{
  g_return_if_fail (VIVA_IS_EXAM_CONTEXT (self));

  g_clear_pointer (&self->plan, g_ptr_array_unref);
  self->plan = plan;
}

/**
 * viva_exam_context_get_plan:
 *
 * Returns: (transfer none) (nullable) (element-type VivaExamPlanItem): the plan
 */
GPtrArray *
viva_exam_context_get_plan (VivaExamContext *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_CONTEXT (self), NULL);

  return self->plan;
}

static void
clear_waiting (VivaExamContext *self)
{
  if (self->cancel_source != NULL)
    {
      g_source_destroy (self->cancel_source);
      g_clear_pointer (&self->cancel_source, g_source_unref);
    }
  g_clear_pointer (&self->question, g_free);
}

static void
viva_exam_context_dispose (GObject *object)
{
  VivaExamContext *self = (VivaExamContext *)object;

  clear_waiting (self);
  if (self->waiting != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->waiting);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The defense was closed before the question was answered."));
    }

  g_clear_object (&self->problem);
  g_clear_object (&self->code_source);
  g_clear_object (&self->runs);

  g_clear_pointer (&self->plan, g_ptr_array_unref);

  G_OBJECT_CLASS (viva_exam_context_parent_class)->dispose (object);
}

static void
viva_exam_context_class_init (VivaExamContextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_exam_context_dispose;
}

static void
viva_exam_context_init (VivaExamContext *self)
{
}

/**
 * viva_exam_context_new:
 * @runs: where the tools run code (the student's, and the reference for
 *   checking probes)
 *
 * Returns: (transfer full): a context holding references to all of these
 */
VivaExamContext *
viva_exam_context_new (VivaProblem    *problem,
                       VivaCodeSource *code_source,
                       VivaExamRuns   *runs,
                       guint           run_timeout_ms)
{
  VivaExamContext *self;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);
  g_return_val_if_fail (VIVA_IS_CODE_SOURCE (code_source), NULL);
  g_return_val_if_fail (VIVA_IS_EXAM_RUNS (runs), NULL);

  self = g_object_new (VIVA_TYPE_EXAM_CONTEXT, NULL);
  self->problem = g_object_ref (problem);
  self->code_source = g_object_ref (code_source);
  self->runs = g_object_ref (runs);
  self->run_timeout_ms = run_timeout_ms;

  return self;
}

VivaProblem *
viva_exam_context_get_problem (VivaExamContext *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_CONTEXT (self), NULL);

  return self->problem;
}

/**
 * viva_exam_context_dup_code:
 *
 * Returns: (transfer full): a fresh snapshot of the student's code
 */
char *
viva_exam_context_dup_code (VivaExamContext *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_CONTEXT (self), NULL);

  return viva_code_source_dup_code (self->code_source);
}

/**
 * viva_exam_context_get_runs:
 *
 * Returns: (transfer none): where the tools run code
 */
VivaExamRuns *
viva_exam_context_get_runs (VivaExamContext *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_CONTEXT (self), NULL);

  return self->runs;
}

guint
viva_exam_context_get_run_timeout (VivaExamContext *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_CONTEXT (self), 0);

  return self->run_timeout_ms;
}

/**
 * viva_exam_context_get_pending_question:
 *
 * Returns: (nullable): the question waiting for an answer
 */
const char *
viva_exam_context_get_pending_question (VivaExamContext *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_CONTEXT (self), NULL);

  return self->question;
}

static gboolean
wait_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  VivaExamContext *self = user_data;
  g_autoptr(GTask) task = g_steal_pointer (&self->waiting);

  g_assert (VIVA_IS_EXAM_CONTEXT (self));

  clear_waiting (self);
  if (task != NULL)
    g_task_return_error_if_cancelled (task);

  return G_SOURCE_REMOVE;
}

/**
 * viva_exam_context_wait_answer_async:
 *
 * Puts @question to the student and completes when
 * viva_exam_context_give_answer() is called, however much later. One
 * question at a time.
 */
void
viva_exam_context_wait_answer_async (VivaExamContext     *self,
                                     const char          *question,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_EXAM_CONTEXT (self));
  g_return_if_fail (question != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_context_wait_answer_async);

  if (self->waiting != NULL)
    {
      g_task_return_new_error (task, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_BUSY,
                               _("A question is already waiting for an answer."));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  self->question = g_strdup (question);
  self->waiting = g_steal_pointer (&task);

  if (cancellable != NULL)
    {
      /* A source, not a handler: it runs from the main loop, where finishing
       * the task and destroying the source are both safe. */
      self->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->cancel_source, G_SOURCE_FUNC (wait_cancelled_cb), self, NULL);
      g_source_attach (self->cancel_source, g_main_context_get_thread_default ());
    }
}

/**
 * viva_exam_context_wait_answer_finish:
 *
 * Returns: (transfer full): the student's answer
 */
char *
viva_exam_context_wait_answer_finish (VivaExamContext  *self,
                                      GAsyncResult     *result,
                                      GError          **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_CONTEXT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_exam_context_give_answer:
 *
 * Answers the waiting question. Fails with %VIVA_EXAM_ERROR_NOT_WAITING when
 * none waits.
 */
gboolean
viva_exam_context_give_answer (VivaExamContext  *self,
                               const char       *answer,
                               GError          **error)
{
  g_autoptr(GTask) task = NULL;

  g_return_val_if_fail (VIVA_IS_EXAM_CONTEXT (self), FALSE);
  g_return_val_if_fail (answer != NULL, FALSE);

  if (self->waiting == NULL)
    {
      g_set_error_literal (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_WAITING,
                           _("The examiner is not waiting for an answer right now."));
      return FALSE;
    }

  task = g_steal_pointer (&self->waiting);
  clear_waiting (self);
  g_task_return_pointer (task, g_strdup (answer), g_free);

  return TRUE;
}
