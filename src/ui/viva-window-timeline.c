/* viva-window-timeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-timeline.h"
#include "viva-window-private.h"

/* The integrity timeline, in every session (practice too): the code at
 * every Run and Submit, large insertions the student makes in one go
 * (pastes), hint views, and the window losing the focus during a defense.
 * Before a problem's defense starts there is no session yet, so its events
 * wait per problem and enter the session at Submit, with their own times.
 * The shapes are viva-timeline.c's; the session keeps them. */

struct _VivaWindowTimeline
{
  GHashTable *pending;        /* "pack/problem" → JsonArray of events */
  GHashTable *last_run;       /* "pack/problem" → the code last run */
  gint64      focus_lost_at;  /* monotonic µs, 0 when the window has it */
  guint       user_action;    /* depth of the buffer's user actions */
  guint       quiet : 1;      /* the window itself is replacing the code */
};

static char *
problem_key (VivaWindow *self)
{
  if (self->problem == NULL || self->pack == NULL)
    return NULL;

  return g_strdup_printf ("%s/%s", viva_pack_get_id (self->pack), viva_problem_get_id (self->problem));
}

/* The session of the defense under way on the open problem, if any. */
static VivaExamSession *
live_session (VivaWindow *self)
{
  VivaExaminer *examiner = _viva_window_exam_get_examiner (self);
  VivaExaminerState state;

  if (examiner == NULL || viva_examiner_get_problem (examiner) != self->problem)
    return NULL;

  state = viva_examiner_get_state (examiner);
  if (state != VIVA_EXAMINER_STATE_IDLE &&
      state != VIVA_EXAMINER_STATE_THINKING &&
      state != VIVA_EXAMINER_STATE_RUNNING_TOOL &&
      state != VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    return NULL;

  return viva_examiner_get_session (examiner);
}

static void viva_window_timeline_add (VivaWindow *self,
                                      JsonObject *event);

/**
 * _viva_window_timeline_add:
 * @event: an event of viva-timeline.c's, such as an explanation asked for
 *
 * Records @event for the open problem.
 */
void
_viva_window_timeline_add (VivaWindow *self,
                           JsonObject *event)
{
  g_assert (VIVA_IS_WINDOW (self));
  viva_window_timeline_add (self, event);
}

static void
viva_window_timeline_add (VivaWindow *self,
                          JsonObject *event)
{
  VivaWindowTimeline *timeline = self->timeline;
  VivaExamSession *session;
  g_autofree char *key = NULL;
  JsonArray *pending;

  if (timeline == NULL || !(key = problem_key (self)))
    return;

  /* A sitting on a server: to the server, with the saves. */
  if (_viva_window_send_event (self, event))
    return;

  if ((session = live_session (self)) != NULL)
    {
      viva_exam_session_add_timeline_event (session, event);
      return;
    }

  if (!(pending = g_hash_table_lookup (timeline->pending, key)))
    {
      pending = json_array_new ();
      g_hash_table_insert (timeline->pending, g_strdup (key), pending);
    }
  json_array_add_object_element (pending, json_object_ref (event));
}

/**
 * _viva_window_timeline_run:
 * @code: the code run
 *
 * Records a Run with its code, and keeps the code as the one last run: an
 * exam's time running out submits that.
 */
void
_viva_window_timeline_run (VivaWindow *self,
                           const char *code)
{
  g_autoptr(JsonObject) event = viva_timeline_event_code ("run", code);
  g_autofree char *key = problem_key (self);

  g_assert (VIVA_IS_WINDOW (self));

  if (self->timeline == NULL || key == NULL)
    return;

  g_hash_table_insert (self->timeline->last_run, g_steal_pointer (&key), g_strdup (code));
  viva_window_timeline_add (self, event);
}

/**
 * _viva_window_timeline_check:
 * @code: the code checked
 *
 * Records a Check with its code and how many shown tests passed.
 */
void
_viva_window_timeline_check (VivaWindow *self,
                             const char *code,
                             guint       passed,
                             guint       total)
{
  g_autoptr(JsonObject) event = viva_timeline_event_check (code, passed, total);

  g_assert (VIVA_IS_WINDOW (self));

  viva_window_timeline_add (self, event);
}

/**
 * _viva_window_timeline_get_last_run:
 *
 * Returns: (nullable): the open problem's code as last run in this window
 */
const char *
_viva_window_timeline_get_last_run (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (self->problem == NULL || self->pack == NULL)
    return NULL;

  return _viva_window_timeline_get_problem_last_run (self, self->pack, self->problem);
}

/**
 * _viva_window_timeline_get_problem_last_run:
 *
 * Returns: (nullable): @problem's code as last run in this window, open
 *   or not
 */
const char *
_viva_window_timeline_get_problem_last_run (VivaWindow  *self,
                                            VivaPack    *pack,
                                            VivaProblem *problem)
{
  g_autofree char *key = NULL;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (VIVA_IS_PACK (pack));
  g_assert (VIVA_IS_PROBLEM (problem));

  if (self->timeline == NULL)
    return NULL;

  key = g_strdup_printf ("%s/%s", viva_pack_get_id (pack), viva_problem_get_id (problem));
  return g_hash_table_lookup (self->timeline->last_run, key);
}

/**
 * _viva_window_timeline_hint:
 *
 * Records that the open problem's hint was shown.
 */
void
_viva_window_timeline_hint (VivaWindow *self)
{
  g_autoptr(JsonObject) event = NULL;

  g_assert (VIVA_IS_WINDOW (self));

  if (self->problem == NULL)
    return;

  event = viva_timeline_event_hint (viva_problem_get_id (self->problem));
  if (_viva_window_hint_cost (self) > 0)
    json_object_set_double_member (event, "cost", _viva_window_hint_cost (self));
  viva_window_timeline_add (self, event);
}

/**
 * _viva_window_timeline_take_pending:
 *
 * What was recorded on the open problem since its last defense, for the
 * next one (#VivaDefense adds the Submit after it).
 *
 * Returns: (transfer full) (nullable): the events, or %NULL
 */
JsonArray *
_viva_window_timeline_take_pending (VivaWindow *self)
{
  g_autofree char *key = problem_key (self);
  JsonArray *pending;

  g_assert (VIVA_IS_WINDOW (self));

  if (self->timeline == NULL || key == NULL ||
      !(pending = g_hash_table_lookup (self->timeline->pending, key)))
    return NULL;

  json_array_ref (pending);
  g_hash_table_remove (self->timeline->pending, key);
  return pending;
}

/**
 * _viva_window_timeline_replace_code:
 *
 * Replaces the student's code without recording it as their paste (a
 * reset to the starter code, the code last run when time runs out).
 */
void
_viva_window_timeline_replace_code (VivaWindow *self,
                                    const char *text)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (self->timeline != NULL)
    self->timeline->quiet = TRUE;
  viva_editor_replace_text (self->editor, text);
  if (self->timeline != NULL)
    self->timeline->quiet = FALSE;
}

static void
begin_user_action_cb (VivaWindow *self)
{
  self->timeline->user_action++;
}

static void
end_user_action_cb (VivaWindow *self)
{
  if (self->timeline->user_action > 0)
    self->timeline->user_action--;
}

/* A large insertion by the student: typing inserts a character at a time,
 * and loading the code is no user action. */
static void
insert_text_cb (VivaWindow  *self,
                GtkTextIter *location,
                const char  *text,
                int          length)
{
  g_autoptr(JsonObject) event = NULL;
  g_autofree char *copy = NULL;

  if (self->timeline->user_action == 0 || self->timeline->quiet ||
      !viva_timeline_is_paste (text, length))
    return;

  copy = g_strndup (text, length);
  event = viva_timeline_event_paste (copy, gtk_text_iter_get_line (location) + 1);
  viva_window_timeline_add (self, event);
}

/* The window losing the focus counts only during a defense, the PC's or
 * the exam server's. */
static void
active_cb (VivaWindow *self)
{
  VivaWindowTimeline *timeline = self->timeline;
  gboolean active = gtk_window_is_active (GTK_WINDOW (self));
  g_autoptr(JsonObject) event = NULL;

  if (timeline == NULL)
    return;

  if (!active && timeline->focus_lost_at == 0 &&
      (live_session (self) != NULL || _viva_window_defending_on_server (self)))
    {
      timeline->focus_lost_at = g_get_monotonic_time ();
      event = viva_timeline_event_focus (TRUE, 0);
    }
  else if (active && timeline->focus_lost_at != 0)
    {
      event = viva_timeline_event_focus (FALSE, (g_get_monotonic_time () - timeline->focus_lost_at) / 1000);
      timeline->focus_lost_at = 0;
    }

  if (event != NULL)
    viva_window_timeline_add (self, event);
}

void
_viva_window_init_timeline (VivaWindow *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (viva_editor_get_buffer (self->editor));

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->timeline == NULL);

  self->timeline = g_new0 (VivaWindowTimeline, 1);
  self->timeline->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)json_array_unref);
  self->timeline->last_run = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_signal_connect_object (buffer, "begin-user-action", G_CALLBACK (begin_user_action_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (buffer, "end-user-action", G_CALLBACK (end_user_action_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (buffer, "insert-text", G_CALLBACK (insert_text_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::is-active", G_CALLBACK (active_cb), NULL);
}

void
_viva_window_dispose_timeline (VivaWindow *self)
{
  VivaWindowTimeline *timeline = g_steal_pointer (&self->timeline);

  if (timeline == NULL)
    return;

  g_clear_pointer (&timeline->pending, g_hash_table_unref);
  g_clear_pointer (&timeline->last_run, g_hash_table_unref);
  g_free (timeline);
}
