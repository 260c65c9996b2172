/* viva-exam-endpoint-choice.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-endpoint-private.h"
#include "viva-scripted-model.h"

/* The endpoint's one rule, applied: a choice made at once when nothing
 * needs checking, or one that waits for the check the endpoint runs (and
 * is decided when the check says, or given up when its caller cancels). */

typedef struct
{
  VivaExamEndpoint *self;   /* owned: a choice keeps its endpoint */
  GTask            *task;
  gulong            cancelled_id;
} Waiter;

typedef struct
{
  VivaProblem *problem;
  char        *notice;
} Choice;

static void
choice_free (Choice *choice)
{
  g_clear_object (&choice->problem);
  g_free (choice->notice);
  g_free (choice);
}

/**
 * viva_exam_endpoint_choose_now:
 * @problem: the problem, which the offline examiner plays from
 * @notice: (out) (optional) (nullable): as viva_exam_endpoint_choose_finish()
 *
 * The choice of viva_exam_endpoint_choose_async() when it needs no wait:
 * offline or model mode, or auto mode with the check made.
 *
 * Returns: (transfer full) (nullable): the model, or %NULL when the choice
 *   must wait for the check (use the async pair)
 */
VivaChatModel *
viva_exam_endpoint_choose_now (VivaExamEndpoint  *self,
                               VivaProblem       *problem,
                               char             **notice)
{
  VivaExaminerMode mode;

  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), NULL);
  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);

  if (notice != NULL)
    *notice = NULL;

  mode = viva_exam_endpoint_get_mode (self);
  if (mode == VIVA_EXAMINER_MODE_OFFLINE)
    return VIVA_CHAT_MODEL (viva_scripted_model_new (problem));

  if (mode == VIVA_EXAMINER_MODE_MODEL || self->base_url != NULL || self->reach == VIVA_EXAM_REACH_YES)
    return VIVA_CHAT_MODEL (viva_exam_endpoint_new_client (self));

  if (self->reach != VIVA_EXAM_REACH_NO)
    return NULL;

  if (notice != NULL)
    *notice = viva_exam_endpoint_dup_notice (self);
  return VIVA_CHAT_MODEL (viva_scripted_model_new (problem));
}

static void
decide (VivaExamEndpoint *self,
        GTask            *task)
{
  Choice *choice = g_task_get_task_data (task);
  VivaChatModel *model = viva_exam_endpoint_choose_now (self, choice->problem, &choice->notice);

  g_assert (model != NULL);
  g_task_return_pointer (task, model, g_object_unref);
}

static void
waiter_free (Waiter *waiter)
{
  g_clear_object (&waiter->task);
  g_free (waiter);
}

static void
waiter_finish (Waiter *waiter)
{
  GCancellable *cancellable = g_task_get_cancellable (waiter->task);
  g_autoptr(VivaExamEndpoint) self = waiter->self;

  g_ptr_array_remove (self->waiting, waiter);
  if (waiter->cancelled_id != 0)
    g_cancellable_disconnect (cancellable, waiter->cancelled_id);

  if (!g_task_return_error_if_cancelled (waiter->task))
    decide (self, waiter->task);
  waiter_free (waiter);
}

void
_viva_exam_endpoint_resolve_waiters (VivaExamEndpoint *self)
{
  g_autoptr(GPtrArray) waiting = g_ptr_array_copy (self->waiting, NULL, NULL);

  for (guint i = 0; i < waiting->len; i++)
    waiter_finish (g_ptr_array_index (waiting, i));
}

static gboolean
waiter_cancelled_idle (gpointer user_data)
{
  GTask *task = user_data;
  VivaExamEndpoint *self = g_task_get_source_object (task);

  /* Unless the check resolved it meanwhile. */
  for (guint i = 0; i < self->waiting->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (self->waiting, i);

      if (waiter->task == task)
        {
          waiter_finish (waiter);
          break;
        }
    }

  return G_SOURCE_REMOVE;
}

static void
waiter_cancelled_cb (GCancellable *cancellable,
                     GTask        *task)
{
  /* Not from inside the handler: disconnecting there would deadlock. */
  g_idle_add_full (G_PRIORITY_DEFAULT, waiter_cancelled_idle, g_object_ref (task), g_object_unref);
}

/**
 * viva_exam_endpoint_choose_async:
 * @problem: the problem, which the offline examiner plays from
 *
 * Chooses the examiner's model by the one rule: in `offline` mode a
 * #VivaScriptedModel; in `model` mode (or for a named `--base-url`) a new
 * client of this endpoint, unchecked; in `auto` mode a new client if the
 * server answered the check (waiting for it when it was not made yet),
 * else the offline examiner with the notice of
 * viva_exam_endpoint_dup_notice().
 */
void
viva_exam_endpoint_choose_async (VivaExamEndpoint    *self,
                                 VivaProblem         *problem,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Choice *choice;
  Waiter *waiter;

  g_return_if_fail (VIVA_IS_EXAM_ENDPOINT (self));
  g_return_if_fail (VIVA_IS_PROBLEM (problem));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_endpoint_choose_async);
  choice = g_new0 (Choice, 1);
  choice->problem = g_object_ref (problem);
  g_task_set_task_data (task, choice, (GDestroyNotify)choice_free);

  if (viva_exam_endpoint_get_mode (self) != VIVA_EXAMINER_MODE_AUTO || self->base_url != NULL ||
      self->reach == VIVA_EXAM_REACH_YES || self->reach == VIVA_EXAM_REACH_NO)
    return decide (self, task);

  /* Auto, and not known yet: decide once the check says. */
  waiter = g_new0 (Waiter, 1);
  waiter->self = g_object_ref (self);
  waiter->task = g_steal_pointer (&task);
  g_ptr_array_add (self->waiting, waiter);
  if (cancellable != NULL)
    waiter->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (waiter_cancelled_cb), waiter->task, NULL);
  viva_exam_endpoint_warm (self);
}

/**
 * viva_exam_endpoint_choose_finish:
 * @notice: (out) (optional) (nullable): set when the offline examiner
 *   stands in for a server that did not answer
 *
 * Returns: (transfer full): the model to examine with
 */
VivaChatModel *
viva_exam_endpoint_choose_finish (VivaExamEndpoint  *self,
                                  GAsyncResult      *result,
                                  char             **notice,
                                  GError           **error)
{
  Choice *choice;
  VivaChatModel *model;

  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  choice = g_task_get_task_data (G_TASK (result));
  model = g_task_propagate_pointer (G_TASK (result), error);
  if (notice != NULL)
    *notice = model != NULL ? g_strdup (choice->notice) : NULL;

  return model;
}
