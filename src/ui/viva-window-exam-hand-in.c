/* viva-window-exam-hand-in.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-window-private.h"

/* Handing in an exam when its time runs out: the open problem first, as
 * its code was last run, then every other problem of the exam the student
 * worked on (ran, or edited away from the starter code, during the exam)
 * and has no report of in this exam, one after another, since the window
 * has one examiner panel. Each is opened in the window with its code and
 * submitted exactly as the open one is, so it is stamped, timed, hinted
 * and reported the same way.
 *
 * The code submitted is only ever what this process held before the time:
 * what was last run, or what the editor showed (kept as the student types;
 * for a problem worked on before Viva was last started, read from the code
 * store once when the exam begins). After the time nothing is read from
 * disk for the hand-in, because the student controls the files in their
 * account. Which problems were worked on and defended is kept in the
 * exam's state (viva-window-exam-mode.c), so a restart within the time
 * neither forgets one nor submits one twice. */

struct _VivaWindowHandIn
{
  GHashTable   *seen;          /* "pack/problem" → code in the editor before the time */
  GHashTable   *worked;        /* problem ids run or edited in this exam */
  GHashTable   *defended;      /* problem ids with a report in this exam */
  GPtrArray    *queue;         /* HandInItem, each waiting for its defense */
  GCancellable *cancellable;   /* reading the saved code at the start */
  guint         advance_id;
  guint         position;      /* the hand-in's defense under way, from 1 */
  guint         total;         /* the hand-in's defenses, the one under way at time up included */
  guint         time_up : 1;
};

static char *
problem_key (VivaPack    *pack,
             VivaProblem *problem)
{
  return g_strdup_printf ("%s/%s", viva_pack_get_id (pack), viva_problem_get_id (problem));
}

/* The exam's problems in the exam's order (every one of its pack when the
 * exam names none). */
static GPtrArray *
exam_problems (VivaWindow *self,
               VivaPack  **pack_out)
{
  VivaExamFile *exam = _viva_window_exam_mode_get_exam (self);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  const char * const *ids;
  VivaPack *pack;

  *pack_out = NULL;
  if (exam == NULL || (pack = viva_exam_file_get_pack (exam)) == NULL)
    return g_steal_pointer (&problems);

  *pack_out = pack;
  if ((ids = viva_exam_file_get_problems (exam)) != NULL)
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

static void
read_ids (JsonObject *root,
          const char *member,
          GHashTable *ids)
{
  JsonArray *array;

  if (!json_object_has_member (root, member) || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, member)))
    return;

  array = json_object_get_array_member (root, member);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_hash_table_add (ids, g_strdup (json_node_get_string (node)));
    }
}

/**
 * _viva_window_hand_in_restore_state:
 * @root: the exam's state, as kept when Viva last ran it
 *
 * Takes back which problems were worked on and defended. A student who
 * edits the file can only make time up submit more of their own code as
 * it stood before the time, or less of it.
 */
void
_viva_window_hand_in_restore_state (VivaWindow *self,
                                    JsonObject *root)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (self->hand_in == NULL)
    return;

  read_ids (root, "worked", self->hand_in->worked);
  read_ids (root, "defended", self->hand_in->defended);
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
 * _viva_window_hand_in_save_state:
 * @builder: the exam's state, an object being built
 *
 * Adds which problems were worked on and defended to the exam's state.
 */
void
_viva_window_hand_in_save_state (VivaWindow  *self,
                                 JsonBuilder *builder)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (self->hand_in == NULL)
    return;

  write_ids (builder, "worked", self->hand_in->worked);
  write_ids (builder, "defended", self->hand_in->defended);
}

/* The open problem is one of the exam's, and the exam's time runs. */
static gboolean
exam_problem_open (VivaWindow *self)
{
  VivaExamFile *exam = _viva_window_exam_mode_get_exam (self);

  return exam != NULL && !self->hand_in->time_up && self->problem != NULL &&
         viva_exam_file_has_problem (exam, viva_problem_get_id (self->problem));
}

/**
 * _viva_window_hand_in_code_seen:
 * @code: the open problem's code, as the editor shows it now
 * @worked: whether the student changed or ran it just now
 *
 * Keeps the open problem's code as the student left it, so that time up
 * can hand it in without reading it back from disk, and, once the student
 * works on it in an exam, that they did. Ignored after the time.
 */
void
_viva_window_hand_in_code_seen (VivaWindow *self,
                                const char *code,
                                gboolean    worked)
{
  VivaWindowHandIn *hand_in = self->hand_in;

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || hand_in->time_up || self->pack == NULL || self->problem == NULL || code == NULL)
    return;

  g_hash_table_replace (hand_in->seen, problem_key (self->pack, self->problem), g_strdup (code));

  if (worked && exam_problem_open (self) &&
      g_hash_table_add (hand_in->worked, g_strdup (viva_problem_get_id (self->problem))))
    _viva_window_exam_mode_save_state (self);
}

typedef struct
{
  VivaWindow *self;
  char       *key;
} SavedCode;

static void
saved_code_free (SavedCode *saved)
{
  g_object_unref (saved->self);
  g_free (saved->key);
  g_free (saved);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SavedCode, saved_code_free)

static void
saved_code_loaded_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(SavedCode) saved = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;
  VivaWindowHandIn *hand_in = saved->self->hand_in;

  code = viva_code_store_load_finish (VIVA_CODE_STORE (object), result, &error);

  /* Read after the time, it would be code the student may have written
   * since; and what the editor showed meanwhile is newer. */
  if (code == NULL || hand_in == NULL || hand_in->time_up ||
      g_hash_table_contains (hand_in->seen, saved->key))
    return;

  g_hash_table_insert (hand_in->seen, g_steal_pointer (&saved->key), g_steal_pointer (&code));
}

/**
 * _viva_window_hand_in_exam_began:
 *
 * The exam runs, before its time is up: reads the saved code of each
 * problem worked on before Viva was last started, once, so that it counts
 * too.
 */
void
_viva_window_hand_in_exam_began (VivaWindow *self)
{
  VivaWindowHandIn *hand_in = self->hand_in;
  g_autoptr(GPtrArray) problems = NULL;
  VivaPack *pack;

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || hand_in->time_up)
    return;

  problems = exam_problems (self, &pack);
  for (guint i = 0; i < problems->len; i++)
    {
      VivaProblem *problem = g_ptr_array_index (problems, i);
      SavedCode *saved;

      if (!g_hash_table_contains (hand_in->worked, viva_problem_get_id (problem)))
        continue;

      saved = g_new0 (SavedCode, 1);
      saved->self = g_object_ref (self);
      saved->key = problem_key (pack, problem);
      viva_code_store_load_async (self->code_store, viva_pack_get_id (pack), viva_problem_get_id (problem),
                                  hand_in->cancellable, saved_code_loaded_cb, saved);
    }
}

/* The open problem has a defense in this exam: one that was reported, or
 * one started on it and neither cancelled nor failed. */
static gboolean
open_problem_defended (VivaWindow *self)
{
  VivaExaminer *examiner = _viva_window_exam_get_examiner (self);
  VivaExaminerState state;

  if (g_hash_table_contains (self->hand_in->defended, viva_problem_get_id (self->problem)))
    return TRUE;

  if (examiner == NULL || viva_examiner_get_problem (examiner) != self->problem)
    return FALSE;

  state = viva_examiner_get_state (examiner);
  return state != VIVA_EXAMINER_STATE_CANCELLED && state != VIVA_EXAMINER_STATE_FAILED;
}

typedef struct
{
  VivaPack    *pack;
  VivaProblem *problem;
  char        *code;
} HandInItem;

static void
hand_in_item_free (HandInItem *item)
{
  g_object_unref (item->pack);
  g_object_unref (item->problem);
  g_free (item->code);
  g_free (item);
}

/* What a problem other than the open one hands in: its code as last run,
 * else as the editor last showed it, unless that is the starter code; NULL
 * when the student did not work on it in this exam. */
static const char *
worked_code (VivaWindow  *self,
             VivaPack    *pack,
             VivaProblem *problem)
{
  g_autofree char *key = problem_key (pack, problem);
  const char *code;

  if (!g_hash_table_contains (self->hand_in->worked, viva_problem_get_id (problem)))
    return NULL;

  if ((code = _viva_window_timeline_get_problem_last_run (self, pack, problem)) != NULL)
    return code;

  code = g_hash_table_lookup (self->hand_in->seen, key);
  if (code != NULL && g_strcmp0 (code, viva_problem_get_starter_code (problem)) != 0)
    return code;

  return NULL;
}

static void
viva_window_hand_in_next (VivaWindow *self)
{
  VivaWindowHandIn *hand_in = self->hand_in;
  HandInItem *item;

  if (hand_in->queue->len == 0)
    {
      _viva_window_update_actions (self);
      return;
    }

  item = g_ptr_array_steal_index (hand_in->queue, 0);
  hand_in->position++;

  /* The problem is shown with its code from memory, never loaded from
   * disk; the editor stays read-only, so the defense reads that code. */
  _viva_window_open_problem_with_code (self, item->pack, item->problem, item->code);
  _viva_window_exam_submit_now (self);

  /* Said by the header bar (which problem, and which defense of how
   * many), not a toast: toasts queue, and would name it after the fact. */
  hand_in_item_free (item);
  _viva_window_update_actions (self);
}

static gboolean
advance_cb (gpointer user_data)
{
  VivaWindow *self = VIVA_WINDOW (user_data);

  self->hand_in->advance_id = 0;
  viva_window_hand_in_next (self);

  return G_SOURCE_REMOVE;
}

/* From an idle: the defense that ended is still finishing its callback. */
static void
viva_window_hand_in_advance (VivaWindow *self)
{
  if (self->hand_in->advance_id == 0)
    self->hand_in->advance_id = g_idle_add (advance_cb, self);
}

/**
 * _viva_window_hand_in_time_up:
 *
 * The exam's time ran out: submits the open problem as its code was last
 * run (unless it has a defense already), then, one after another, every
 * other problem the student worked on and did not defend, and says so.
 */
void
_viva_window_hand_in_time_up (VivaWindow *self)
{
  VivaWindowHandIn *hand_in = self->hand_in;
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *open_key = NULL;
  gboolean open_submitted = FALSE;
  gboolean open_busy;
  VivaPack *pack;
  guint n;

  g_assert (VIVA_IS_WINDOW (self));

  hand_in->time_up = TRUE;
  g_cancellable_cancel (hand_in->cancellable);

  if (self->problem != NULL && !open_problem_defended (self))
    {
      /* What was last run is what is defended; without a run, the code as
       * it stands. */
      const char *last_run = _viva_window_timeline_get_last_run (self);
      g_autofree char *code = viva_editor_dup_text (self->editor);

      if (last_run != NULL && g_strcmp0 (last_run, code) != 0)
        _viva_window_timeline_replace_code (self, last_run);

      _viva_window_exam_submit_now (self);
      open_submitted = TRUE;
    }
  open_busy = _viva_window_exam_is_busy (self);
  if (self->problem != NULL)
    open_key = problem_key (self->pack, self->problem);

  problems = exam_problems (self, &pack);
  for (guint i = 0; i < problems->len; i++)
    {
      VivaProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *key = problem_key (pack, problem);
      const char *code;
      HandInItem *item;

      /* By id: the library may hold other objects for the same problem. */
      if (g_strcmp0 (key, open_key) == 0 || g_hash_table_contains (hand_in->defended, viva_problem_get_id (problem)) ||
          (code = worked_code (self, pack, problem)) == NULL)
        continue;

      item = g_new0 (HandInItem, 1);
      item->pack = g_object_ref (pack);
      item->problem = g_object_ref (problem);
      item->code = g_strdup (code);
      g_ptr_array_add (hand_in->queue, item);
    }

  hand_in->position = open_busy ? 1 : 0;
  hand_in->total = hand_in->position + hand_in->queue->len;
  n = (open_submitted ? 1 : 0) + hand_in->queue->len;

  /* One problem alone reads as it always did. */
  if (hand_in->queue->len == 0 && open_submitted)
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Time is up: your code as last run was submitted for defense")));
  else if (hand_in->queue->len == 0)
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Time is up: the defense goes on with what you have typed")));
  else
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "Time is up: %u problem submitted for defense",
                                                            "Time is up: %u problems submitted for defense", n),
                                               n);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
    }

  /* A defense under way (the open problem's) goes first; the next starts
   * when it ends. */
  if (!open_busy && hand_in->queue->len > 0)
    viva_window_hand_in_advance (self);
}

/**
 * _viva_window_hand_in_defense_ended:
 * @examiner: the defense that ended
 * @reported: whether it reached a verdict, so that its report is handed in
 *
 * Called for every defense that ends, with a verdict, failed or stopped:
 * a reported one is the problem's defense in this exam; after the time,
 * the next problem waiting is submitted. A failed one (it has no report)
 * does not hold the others back.
 */
void
_viva_window_hand_in_defense_ended (VivaWindow   *self,
                                    VivaExaminer *examiner,
                                    gboolean      reported)
{
  VivaWindowHandIn *hand_in = self->hand_in;
  VivaExamFile *exam = _viva_window_exam_mode_get_exam (self);
  const char *problem_id;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (VIVA_IS_EXAMINER (examiner));

  if (hand_in == NULL || exam == NULL)
    return;

  problem_id = viva_problem_get_id (viva_examiner_get_problem (examiner));
  if (reported && viva_exam_file_has_problem (exam, problem_id) &&
      g_hash_table_add (hand_in->defended, g_strdup (problem_id)))
    _viva_window_exam_mode_save_state (self);

  if (!hand_in->time_up || hand_in->queue->len == 0 || _viva_window_exam_is_busy (self))
    return;

  /* The panel moves on to the next problem, so the failure is said here,
   * short enough for a toast's one line (its trace keeps the error). */
  if (viva_examiner_get_state (examiner) == VIVA_EXAMINER_STATE_FAILED)
    {
      g_autofree char *note = g_strdup_printf (_("The defense of “%s” failed and was not handed in; tell the teacher"),
                                               viva_problem_get_title (viva_examiner_get_problem (examiner)));
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (note));
    }

  viva_window_hand_in_advance (self);
}

/**
 * _viva_window_hand_in_is_active:
 *
 * Returns: whether the time-up hand-in still has a defense running or
 *   waiting; meanwhile the open problem stays the one defended.
 */
gboolean
_viva_window_hand_in_is_active (VivaWindow *self)
{
  VivaWindowHandIn *hand_in = self->hand_in;

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || !hand_in->time_up)
    return FALSE;

  return hand_in->queue->len > 0 || hand_in->advance_id != 0 || _viva_window_exam_is_busy (self);
}

/**
 * _viva_window_hand_in_dup_state:
 *
 * Returns: (transfer full) (nullable): where a hand-in of several
 *   problems stands, for the header bar, or %NULL
 */
char *
_viva_window_hand_in_dup_state (VivaWindow *self)
{
  VivaWindowHandIn *hand_in = self->hand_in;

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || hand_in->total < 2 || hand_in->position == 0 || !_viva_window_hand_in_is_active (self))
    return NULL;

  return g_strdup_printf (_("Time is up: defense %u of %u"), hand_in->position, hand_in->total);
}

/**
 * _viva_window_update_hand_in_actions:
 *
 * The hand-in's part of _viva_window_update_actions(): while problems
 * wait, the defense under way cannot be stopped, since nothing could
 * submit them after it.
 */
void
_viva_window_update_hand_in_actions (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (self->hand_in != NULL && self->hand_in->queue->len > 0)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.stop", FALSE);
}

static void
close_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   VivaWindow       *self)
{
  if (g_strcmp0 (response, "close") != 0 || self->hand_in == NULL)
    return;

  /* The student chose to leave them: nothing reads them again. */
  g_ptr_array_set_size (self->hand_in->queue, 0);
  gtk_window_close (GTK_WINDOW (self));
}

/**
 * _viva_window_hand_in_hold_close:
 *
 * Asks before the window closes with problems still waiting for their
 * defense: after the time they cannot be submitted again.
 *
 * Returns: %TRUE if the close waits for the student's answer
 */
gboolean
_viva_window_hand_in_hold_close (VivaWindow *self)
{
  VivaWindowHandIn *hand_in = self->hand_in;
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;
  guint n;

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || hand_in->queue->len == 0)
    return FALSE;

  n = hand_in->queue->len;
  body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u more problem waits for its defense. If you close Viva now, it is not handed in, and after the time it cannot be.",
                                       "%u more problems wait for their defense. If you close Viva now, they are not handed in, and after the time they cannot be.",
                                       n),
                          n);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Your Exam Is Still Being Handed In"), body));
  adw_message_dialog_add_responses (dialog,
                                    "wait", _("_Keep Viva Open"),
                                    "close", _("_Close Anyway"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "close", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "wait");
  adw_message_dialog_set_close_response (dialog, "wait");
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));

  return TRUE;
}

void
_viva_window_init_hand_in (VivaWindow *self)
{
  VivaWindowHandIn *hand_in;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->hand_in == NULL);

  hand_in = self->hand_in = g_new0 (VivaWindowHandIn, 1);
  hand_in->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  hand_in->worked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  hand_in->defended = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  hand_in->queue = g_ptr_array_new_with_free_func ((GDestroyNotify)hand_in_item_free);
  hand_in->cancellable = g_cancellable_new ();
}

void
_viva_window_dispose_hand_in (VivaWindow *self)
{
  VivaWindowHandIn *hand_in = g_steal_pointer (&self->hand_in);

  if (hand_in == NULL)
    return;

  g_cancellable_cancel (hand_in->cancellable);
  g_clear_handle_id (&hand_in->advance_id, g_source_remove);
  g_clear_object (&hand_in->cancellable);
  g_clear_pointer (&hand_in->seen, g_hash_table_unref);
  g_clear_pointer (&hand_in->worked, g_hash_table_unref);
  g_clear_pointer (&hand_in->defended, g_hash_table_unref);
  g_clear_pointer (&hand_in->queue, g_ptr_array_unref);
  g_free (hand_in);
}
