/* viva-exam-hand-in.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-hand-in.h"
#include "viva-json-member.h"

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

struct _VivaExamHandIn
{
  GObject       parent_instance;

  VivaExamFile *exam;
  GHashTable   *seen;       /* problem id → the code the student had, before the time */
  GHashTable   *last_run;   /* problem id → the code last run, before the time */
  GHashTable   *worked;     /* problem ids run or changed in this sitting */
  GHashTable   *defended;   /* problem ids with a verdict in this sitting */
  GHashTable   *reports;    /* problem id → its report's file */
  GHashTable   *failed;     /* handed in at the time, the defense failed */
  GHashTable   *left;       /* handed in at the time, left when Viva closed */
  GPtrArray    *queue;      /* Item, waiting for their defense */
  GPtrArray    *handed_in;  /* problem ids handed in at the time, NULL-terminated */
  char         *open_problem;
  char         *defending;
  guint         position;   /* the hand-in's defense under way, from 1 */
  guint         total;      /* the hand-in's defenses, with the one under way at the time */
  guint         closed : 1;
};

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
static GPtrArray *
exam_problems (VivaExamHandIn *self)
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

typedef struct
{
  VivaExamHandIn *self;
  char           *problem_id;
  GTask          *task;        /* shared by every read; completes after the last */
} SavedRead;

static void
saved_loaded_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SavedRead *read = user_data;
  VivaExamHandIn *self = read->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;
  guint *pending = g_task_get_task_data (read->task);

  code = viva_code_store_load_finish (VIVA_CODE_STORE (object), result, &error);

  /* Read after the time, it would be code the student may have written
   * since; and what the student had meanwhile is newer. */
  if (code != NULL && !self->closed && !g_hash_table_contains (self->seen, read->problem_id))
    g_hash_table_insert (self->seen, g_strdup (read->problem_id), g_steal_pointer (&code));

  if (--(*pending) == 0)
    g_task_return_boolean (read->task, TRUE);

  g_object_unref (read->task);
  g_free (read->problem_id);
  g_free (read);
}

/**
 * viva_exam_hand_in_read_saved_async:
 * @store: where the student's code is kept
 *
 * The sitting runs, before its time: reads, once, the saved code of each
 * problem worked on before this process started, so that it is handed in
 * too. Code arriving after the time is dropped.
 */
void
viva_exam_hand_in_read_saved_async (VivaExamHandIn      *self,
                                    VivaCodeStore       *store,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  VivaPack *pack;
  guint *pending;

  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));
  g_return_if_fail (VIVA_IS_CODE_STORE (store));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_hand_in_read_saved_async);
  pending = g_new0 (guint, 1);
  g_task_set_task_data (task, pending, g_free);

  pack = viva_exam_file_get_pack (self->exam);
  problems = exam_problems (self);

  /* One more than the reads, taken back below, so that reads finishing
   * at once cannot complete the task before every one is started. */
  *pending = 1;
  for (guint i = 0; !self->closed && i < problems->len; i++)
    {
      const char *id = viva_problem_get_id (g_ptr_array_index (problems, i));
      SavedRead *read;

      if (!g_hash_table_contains (self->worked, id))
        continue;

      read = g_new0 (SavedRead, 1);
      read->self = self;
      read->problem_id = g_strdup (id);
      read->task = g_object_ref (task);
      (*pending)++;
      viva_code_store_load_async (store, viva_pack_get_id (pack), id, cancellable, saved_loaded_cb, read);
    }

  if (--(*pending) == 0)
    g_task_return_boolean (task, TRUE);
}

gboolean
viva_exam_hand_in_read_saved_finish (VivaExamHandIn  *self,
                                     GAsyncResult    *result,
                                     GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
  problems = exam_problems (self);

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

static void
write_ids (JsonBuilder *builder,
           const char  *member,
           GHashTable  *ids)
{
  GList *sorted = g_list_sort (g_hash_table_get_keys (ids), (GCompareFunc)g_strcmp0);

  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (const GList *l = sorted; l != NULL; l = l->next)
    json_builder_add_string_value (builder, l->data);
  json_builder_end_array (builder);
  g_list_free (sorted);
}

/**
 * viva_exam_hand_in_save:
 * @builder: the sitting's state, an object being built
 *
 * Adds which problems were worked on and defended, and their reports.
 * The code is not saved: the code store keeps it.
 */
void
viva_exam_hand_in_save (VivaExamHandIn *self,
                        JsonBuilder    *builder)
{
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));
  g_return_if_fail (JSON_IS_BUILDER (builder));

  write_ids (builder, "worked", self->worked);
  write_ids (builder, "defended", self->defended);

  json_builder_set_member_name (builder, "reports");
  json_builder_begin_object (builder);
  g_hash_table_iter_init (&iter, self->reports);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      json_builder_set_member_name (builder, key);
      json_builder_add_string_value (builder, value);
    }
  json_builder_end_object (builder);
}

static void
read_ids (JsonObject *root,
          const char *name,
          GHashTable *ids)
{
  JsonArray *array = viva_json_member_array (root, name);

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_hash_table_add (ids, g_strdup (json_node_get_string (node)));
    }
}

/**
 * viva_exam_hand_in_restore:
 * @root: the sitting's state, as saved by viva_exam_hand_in_save()
 *
 * Takes back which problems were worked on and defended. A student who
 * edits the file can only make the time hand in more of their own code as
 * it stood before the time, or less of it.
 */
void
viva_exam_hand_in_restore (VivaExamHandIn *self,
                           JsonObject     *root)
{
  JsonNode *reports;

  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));
  g_return_if_fail (root != NULL);

  read_ids (root, "worked", self->worked);
  read_ids (root, "defended", self->defended);

  reports = json_object_get_member (root, "reports");
  if (reports != NULL && JSON_NODE_HOLDS_OBJECT (reports))
    {
      JsonObject *object = json_node_get_object (reports);
      g_autoptr(GList) names = json_object_get_members (object);

      for (const GList *l = names; l != NULL; l = l->next)
        {
          const char *path = viva_json_member_string (object, l->data);

          if (path != NULL)
            g_hash_table_replace (self->reports, g_strdup (l->data), g_strdup (path));
        }
    }
}
