/* viva-exam-hand-in.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-hand-in-private.h"

/* What a sitting hands in when its time runs out: the problem the student
 * has open first, then every other problem of the exam the student worked
 * on (ran, or changed away from the starter code) and has no verdict of in
 * this sitting, in the exam's order, one defense after another.
 *
 * The code handed in is only ever what this object was given before the
 * time: what was last run, or what the editor showed (for a problem worked
 * on before a restart, read from the code store once when the sitting
 * began, before its time). After the time nothing is taken any more, and
 * nothing is read from disk, because the student controls the files in
 * their account. Which problems were worked on and defended, and where
 * their reports went, is saved in the sitting's state, so that a restart
 * within the time neither forgets one nor hands one in twice.
 *
 * It knows no window: the app, viva-cli and the exam server tell it what
 * the student does and which defense runs, and ask it what to hand in. */


G_DEFINE_FINAL_TYPE (VivaExamHandIn, viva_exam_hand_in, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  char *problem_id;
  char *code;
} Item;

static void
item_free (Item *item)
{
  g_free (item->problem_id);
  g_free (item->code);
  g_free (item);
}

static void
viva_exam_hand_in_changed (VivaExamHandIn *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
viva_exam_hand_in_finalize (GObject *object)
{
  VivaExamHandIn *self = (VivaExamHandIn *)object;

  g_clear_object (&self->exam);
  g_clear_pointer (&self->seen, g_hash_table_unref);
  g_clear_pointer (&self->last_run, g_hash_table_unref);
  g_clear_pointer (&self->worked, g_hash_table_unref);
  g_clear_pointer (&self->defended, g_hash_table_unref);
  g_clear_pointer (&self->reports, g_hash_table_unref);
  g_clear_pointer (&self->failed, g_hash_table_unref);
  g_clear_pointer (&self->left, g_hash_table_unref);
  g_clear_pointer (&self->queue, g_ptr_array_unref);
  g_clear_pointer (&self->handed_in, g_ptr_array_unref);
  g_clear_pointer (&self->open_problem, g_free);
  g_clear_pointer (&self->defending, g_free);

  G_OBJECT_CLASS (viva_exam_hand_in_parent_class)->finalize (object);
}

static void
viva_exam_hand_in_class_init (VivaExamHandInClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_exam_hand_in_finalize;

  /**
   * VivaExamHandIn::changed:
   *
   * What is kept or handed in changed: a problem was worked on for the
   * first time, defended, handed in, or its defense started or ended. The
   * sitting saves its state on it; a view redraws.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
viva_exam_hand_in_init (VivaExamHandIn *self)
{
  self->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->last_run = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->worked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->defended = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->reports = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->left = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->queue = g_ptr_array_new_with_free_func ((GDestroyNotify)item_free);
  self->handed_in = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->handed_in, NULL);
}

/**
 * viva_exam_hand_in_new:
 * @exam: the exam sat, with its pack set
 *
 * Returns: (transfer full): a hand-in with nothing worked on yet
 */
VivaExamHandIn *
viva_exam_hand_in_new (VivaExamFile *exam)
{
  VivaExamHandIn *self;

  g_return_val_if_fail (VIVA_IS_EXAM_FILE (exam), NULL);

  self = g_object_new (VIVA_TYPE_EXAM_HAND_IN, NULL);
  self->exam = g_object_ref (exam);

  return self;
}

/**
 * viva_exam_hand_in_get_exam:
 *
 * Returns: (transfer none): the exam
 */
VivaExamFile *
viva_exam_hand_in_get_exam (VivaExamHandIn *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), NULL);

  return self->exam;
}

/* The exam's problems in the exam's order (every one of its pack when the
 * exam names none). */
GPtrArray *
_viva_exam_hand_in_exam_problems (VivaExamHandIn *self)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  VivaPack *pack = viva_exam_file_get_pack (self->exam);
  const char * const *ids;

  if (pack == NULL)
    return g_steal_pointer (&problems);

  if ((ids = viva_exam_file_get_problems (self->exam)) != NULL)
    {
      for (guint i = 0; ids[i] != NULL; i++)
        {
          VivaProblem *problem = viva_pack_find_problem (pack, ids[i]);

          if (problem != NULL)
            g_ptr_array_add (problems, g_object_ref (problem));
        }
    }
  else
    {
      GListModel *all = viva_pack_get_problems (pack);

      for (guint i = 0; i < g_list_model_get_n_items (all); i++)
        g_ptr_array_add (problems, g_list_model_get_item (all, i));
    }

  return g_steal_pointer (&problems);
}

/**
 * viva_exam_hand_in_set_open_problem:
 * @problem_id: (nullable): the problem the student has in front of them
 *
 * The problem handed in first at the time, as its code was last run (or
 * as it stands, if never run), whether the student changed it or not.
 */
void
viva_exam_hand_in_set_open_problem (VivaExamHandIn *self,
                                    const char     *problem_id)
{
  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));

  if (self->closed)
    return;

  g_free (self->open_problem);
  self->open_problem = g_strdup (problem_id);
}

/**
 * viva_exam_hand_in_code_seen:
 * @problem_id: a problem
 * @code: its code, as the student has it now
 * @worked: whether the student changed or ran it just now
 *
 * Keeps @code as the student left it, so that the time can hand it in
 * without reading it back from disk, and, once the student works on one
 * of the exam's problems, that they did. Ignored after the time.
 */
void
viva_exam_hand_in_code_seen (VivaExamHandIn *self,
                             const char     *problem_id,
                             const char     *code,
                             gboolean        worked)
{
  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));

  if (self->closed || problem_id == NULL || code == NULL)
    return;

  g_hash_table_replace (self->seen, g_strdup (problem_id), g_strdup (code));

  if (worked && viva_exam_file_has_problem (self->exam, problem_id) &&
      g_hash_table_add (self->worked, g_strdup (problem_id)))
    viva_exam_hand_in_changed (self);
}

/**
 * viva_exam_hand_in_code_run:
 * @problem_id: a problem
 * @code: the code the student runs
 *
 * The student ran @code: it is what the time hands in for the problem.
 * Ignored after the time.
 */
void
viva_exam_hand_in_code_run (VivaExamHandIn *self,
                            const char     *problem_id,
                            const char     *code)
{
  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));

  if (self->closed || problem_id == NULL || code == NULL)
    return;

  g_hash_table_replace (self->last_run, g_strdup (problem_id), g_strdup (code));
  viva_exam_hand_in_code_seen (self, problem_id, code, TRUE);
}

/**
 * viva_exam_hand_in_set_defending:
 * @problem_id: (nullable): the problem whose defense runs now, or %NULL
 *
 * Which defense runs (one at a time): the time does not hand that problem
 * in again, and counts its defense as the hand-in's first. A problem with
 * a verdict in this sitting is defended, not defending.
 */
void
viva_exam_hand_in_set_defending (VivaExamHandIn *self,
                                 const char     *problem_id)
{
  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));

  if (problem_id != NULL && g_hash_table_contains (self->defended, problem_id))
    problem_id = NULL;

  if (g_strcmp0 (problem_id, self->defending) == 0)
    return;

  g_free (self->defending);
  self->defending = g_strdup (problem_id);
  viva_exam_hand_in_changed (self);
}

/**
 * viva_exam_hand_in_get_defending:
 *
 * Returns: (nullable): the problem whose defense runs now
 */
const char *
viva_exam_hand_in_get_defending (VivaExamHandIn *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), NULL);

  return self->defending;
}

/**
 * viva_exam_hand_in_defense_ended:
 * @problem_id: the problem defended
 * @reported: whether the defense reached a verdict (and so has a report)
 *
 * Called for every defense that ends: with a verdict, the problem is
 * defended in this sitting and never handed in again; without one after
 * the time, its hand-in failed.
 */
void
viva_exam_hand_in_defense_ended (VivaExamHandIn *self,
                                 const char     *problem_id,
                                 gboolean        reported)
{
  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));
  g_return_if_fail (problem_id != NULL);

  if (g_strcmp0 (self->defending, problem_id) == 0)
    g_clear_pointer (&self->defending, g_free);

  if (reported && viva_exam_file_has_problem (self->exam, problem_id))
    {
      g_hash_table_add (self->defended, g_strdup (problem_id));
      g_hash_table_remove (self->failed, problem_id);
    }
  else if (!reported && self->closed &&
           g_strv_contains ((const char * const *)self->handed_in->pdata, problem_id) &&
           !g_hash_table_contains (self->defended, problem_id))
    g_hash_table_add (self->failed, g_strdup (problem_id));

  viva_exam_hand_in_changed (self);
}

/**
 * viva_exam_hand_in_set_report:
 * @problem_id: a problem defended
 * @path: where its report was handed in
 */
void
viva_exam_hand_in_set_report (VivaExamHandIn *self,
                              const char     *problem_id,
                              const char     *path)
{
  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));
  g_return_if_fail (problem_id != NULL && path != NULL);

  g_hash_table_replace (self->reports, g_strdup (problem_id), g_strdup (path));
  viva_exam_hand_in_changed (self);
}

/* What a problem other than the open one hands in: its code as last run,
 * else as the student last had it, unless that is the starter code; NULL
 * when the student did not work on it in this sitting. */
static const char *
worked_code (VivaExamHandIn *self,
             VivaProblem    *problem)
{
  const char *id = viva_problem_get_id (problem);
  const char *code;

  if (!g_hash_table_contains (self->worked, id))
    return NULL;

  if ((code = g_hash_table_lookup (self->last_run, id)) != NULL)
    return code;

  code = g_hash_table_lookup (self->seen, id);
  if (code != NULL && g_strcmp0 (code, viva_problem_get_starter_code (problem)) != 0)
    return code;

  return NULL;
}

static void
hand_in (VivaExamHandIn *self,
         const char     *problem_id,
         const char     *code)
{
  Item *item = g_new0 (Item, 1);

  item->problem_id = g_strdup (problem_id);
  item->code = g_strdup (code);
  g_ptr_array_add (self->queue, item);
  g_ptr_array_insert (self->handed_in, self->handed_in->len - 1, g_strdup (problem_id));
}

/**
 * viva_exam_hand_in_close:
 *
 * The time ran out: from now on nothing the student has is taken. Queues
 * the open problem (unless it is defended or its defense runs), as last
 * run, else as the student had it, then every other problem worked on and
 * not defended, in the exam's order. Once only; the sitting calls it.
 */
void
viva_exam_hand_in_close (VivaExamHandIn *self)
{
  g_autoptr(GPtrArray) problems = NULL;
  const char *open = self->open_problem;

  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));

  if (self->closed)
    return;
  self->closed = TRUE;
  problems = _viva_exam_hand_in_exam_problems (self);

  if (self->defending != NULL)
    g_ptr_array_insert (self->handed_in, self->handed_in->len - 1, g_strdup (self->defending));

  for (guint i = 0; i < problems->len; i++)
    {
      VivaProblem *problem = g_ptr_array_index (problems, i);
      const char *id = viva_problem_get_id (problem);
      const char *code;

      if (g_strcmp0 (id, open) != 0 || g_strcmp0 (id, self->defending) == 0 ||
          g_hash_table_contains (self->defended, id))
        continue;

      if ((code = g_hash_table_lookup (self->last_run, id)) == NULL &&
          (code = g_hash_table_lookup (self->seen, id)) == NULL)
        code = viva_problem_get_starter_code (problem);
      hand_in (self, id, code);
    }

  for (guint i = 0; i < problems->len; i++)
    {
      VivaProblem *problem = g_ptr_array_index (problems, i);
      const char *id = viva_problem_get_id (problem);
      const char *code;

      if (g_strcmp0 (id, open) == 0 || g_strcmp0 (id, self->defending) == 0 ||
          g_hash_table_contains (self->defended, id) || (code = worked_code (self, problem)) == NULL)
        continue;

      hand_in (self, id, code);
    }

  self->position = self->defending != NULL ? 1 : 0;
  self->total = self->position + self->queue->len;
  viva_exam_hand_in_changed (self);
}

/**
 * viva_exam_hand_in_is_closed:
 *
 * Returns: whether the time ran out
 */
gboolean
viva_exam_hand_in_is_closed (VivaExamHandIn *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), FALSE);

  return self->closed;
}

/**
 * viva_exam_hand_in_get_n_waiting:
 *
 * Returns: how many problems handed in at the time wait for their defense
 */
guint
viva_exam_hand_in_get_n_waiting (VivaExamHandIn *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), 0);

  return self->queue->len;
}

/**
 * viva_exam_hand_in_get_waiting:
 * @position: from 0, below viva_exam_hand_in_get_n_waiting()
 * @code: (out) (optional) (transfer none): the code it is defended with
 *
 * Returns: (nullable): the problem waiting at @position, or %NULL
 */
const char *
viva_exam_hand_in_get_waiting (VivaExamHandIn  *self,
                               guint            position,
                               const char     **code)
{
  Item *item;

  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), NULL);

  if (position >= self->queue->len)
    return NULL;

  item = g_ptr_array_index (self->queue, position);
  if (code != NULL)
    *code = item->code;

  return item->problem_id;
}

/**
 * viva_exam_hand_in_take_next:
 * @problem_id: (out) (transfer full): the problem to defend now
 * @code: (out) (transfer full): the code to defend it with
 *
 * Takes the first problem waiting: its defense is the one running from
 * now (viva_exam_hand_in_set_defending()). A problem is taken once.
 *
 * Returns: %FALSE when none waits
 */
gboolean
viva_exam_hand_in_take_next (VivaExamHandIn  *self,
                             char           **problem_id,
                             char           **code)
{
  Item *item;

  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), FALSE);
  g_return_val_if_fail (problem_id != NULL && code != NULL, FALSE);

  if (self->queue->len == 0)
    return FALSE;

  item = g_ptr_array_steal_index (self->queue, 0);
  *problem_id = g_steal_pointer (&item->problem_id);
  *code = g_steal_pointer (&item->code);
  item_free (item);

  self->position++;
  g_free (self->defending);
  self->defending = g_strdup (*problem_id);
  viva_exam_hand_in_changed (self);

  return TRUE;
}

/**
 * viva_exam_hand_in_leave_waiting:
 *
 * The student closes Viva with problems waiting: they are left, and after
 * the time nothing can hand them in again.
 */
void
viva_exam_hand_in_leave_waiting (VivaExamHandIn *self)
{
  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));

  if (self->queue->len == 0)
    return;

  for (guint i = 0; i < self->queue->len; i++)
    g_hash_table_add (self->left, g_strdup (((Item *)g_ptr_array_index (self->queue, i))->problem_id));
  g_ptr_array_set_size (self->queue, 0);
  viva_exam_hand_in_changed (self);
}

/**
 * viva_exam_hand_in_is_active:
 *
 * Returns: whether, after the time, a defense runs or a problem waits
 */
gboolean
viva_exam_hand_in_is_active (VivaExamHandIn *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), FALSE);

  return self->closed && (self->queue->len > 0 || self->defending != NULL);
}

/**
 * viva_exam_hand_in_get_position:
 *
 * Returns: which of the hand-in's defenses runs, from 1, or 0 before the
 *   first
 */
guint
viva_exam_hand_in_get_position (VivaExamHandIn *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), 0);

  return self->position;
}

/**
 * viva_exam_hand_in_get_total:
 *
 * Returns: how many defenses the time handed in, the one running at the
 *   time included
 */
guint
viva_exam_hand_in_get_total (VivaExamHandIn *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), 0);

  return self->total;
}

/**
 * viva_exam_hand_in_get_handed_in:
 *
 * Returns: (transfer none): the problems the time handed in, in the order
 *   defended (the one running at the time first)
 */
const char * const *
viva_exam_hand_in_get_handed_in (VivaExamHandIn *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), NULL);

  return (const char * const *)self->handed_in->pdata;
}

/**
 * viva_exam_hand_in_is_worked:
 *
 * Returns: whether the student worked on @problem_id in this sitting
 */
gboolean
viva_exam_hand_in_is_worked (VivaExamHandIn *self,
                             const char     *problem_id)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), FALSE);

  return problem_id != NULL && g_hash_table_contains (self->worked, problem_id);
}

/**
 * viva_exam_hand_in_get_state:
 *
 * Returns: where @problem_id stands in this sitting
 */
VivaExamHandInState
viva_exam_hand_in_get_state (VivaExamHandIn *self,
                             const char     *problem_id)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), VIVA_EXAM_HAND_IN_NONE);

  if (problem_id == NULL)
    return VIVA_EXAM_HAND_IN_NONE;
  if (g_hash_table_contains (self->defended, problem_id))
    return VIVA_EXAM_HAND_IN_DEFENDED;
  if (g_strcmp0 (self->defending, problem_id) == 0)
    return VIVA_EXAM_HAND_IN_DEFENDING;
  for (guint i = 0; i < self->queue->len; i++)
    if (g_strcmp0 (((Item *)g_ptr_array_index (self->queue, i))->problem_id, problem_id) == 0)
      return VIVA_EXAM_HAND_IN_WAITING;
  if (g_hash_table_contains (self->failed, problem_id))
    return VIVA_EXAM_HAND_IN_FAILED;
  if (g_hash_table_contains (self->left, problem_id))
    return VIVA_EXAM_HAND_IN_LEFT;

  return VIVA_EXAM_HAND_IN_NONE;
}

/**
 * viva_exam_hand_in_get_report:
 *
 * Returns: (nullable): where @problem_id's report was handed in
 */
const char *
viva_exam_hand_in_get_report (VivaExamHandIn *self,
                              const char     *problem_id)
{
  g_return_val_if_fail (VIVA_IS_EXAM_HAND_IN (self), NULL);

  return problem_id ? g_hash_table_lookup (self->reports, problem_id) : NULL;
}
