/* viva-timeline-recorder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-session.h"
#include "viva-timeline-recorder.h"
#include "viva-timeline.h"

/* The integrity timeline, in every session (practice too): the code at
 * every Run and Submit, large insertions the student makes in one go
 * (pastes) into the editor's buffer, hint views, and the window losing
 * the focus during a defense. Before a problem's defense starts there is
 * no session yet, so its events wait per problem and enter the session at
 * Submit, with their own times. The shapes are viva-timeline.c's; the
 * session keeps them. The window tells the recorder which problem is open
 * and which examiner is shown. */

struct _VivaTimelineRecorder
{
  GObject        parent_instance;

  GtkTextBuffer *buffer;          /* weak */
  VivaPack      *pack;
  VivaProblem   *problem;
  VivaExaminer  *examiner;
  GHashTable    *pending;         /* "pack/problem" → JsonArray of events */
  GHashTable    *last_run;        /* "pack/problem" → the code last run */
  gint64         focus_lost_at;   /* monotonic µs, 0 when the window has it */
  guint          user_action;     /* depth of the buffer's user actions */
  guint          quiet : 1;       /* the window itself is replacing the code */
};

G_DEFINE_FINAL_TYPE (VivaTimelineRecorder, viva_timeline_recorder, G_TYPE_OBJECT)

enum {
  TAKE_EVENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
problem_key (VivaTimelineRecorder *self)
{
  if (self->problem == NULL || self->pack == NULL)
    return NULL;

  return g_strdup_printf ("%s/%s", viva_pack_get_id (self->pack), viva_problem_get_id (self->problem));
}

/* The session of the defense under way on the open problem, if any. */
static VivaExamSession *
live_session (VivaTimelineRecorder *self)
{
  VivaExaminerState state;

  if (self->examiner == NULL || viva_examiner_get_problem (self->examiner) != self->problem)
    return NULL;

  state = viva_examiner_get_state (self->examiner);
  if (state != VIVA_EXAMINER_STATE_IDLE &&
      state != VIVA_EXAMINER_STATE_THINKING &&
      state != VIVA_EXAMINER_STATE_RUNNING_TOOL &&
      state != VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    return NULL;

  return viva_examiner_get_session (self->examiner);
}

/**
 * viva_timeline_recorder_add:
 * @event: an event of viva-timeline.c's, such as an explanation asked for
 *
 * Records @event for the open problem: unless a handler of
 * #VivaTimelineRecorder::take-event takes it, in the session of its
 * defense under way, else until its next Submit.
 */
void
viva_timeline_recorder_add (VivaTimelineRecorder *self,
                            JsonObject           *event)
{
  g_autofree char *key = NULL;
  VivaExamSession *session;
  JsonArray *pending;
  gboolean taken = FALSE;

  g_return_if_fail (VIVA_IS_TIMELINE_RECORDER (self));
  g_return_if_fail (event != NULL);

  if (!(key = problem_key (self)))
    return;

  g_signal_emit (self, signals[TAKE_EVENT], 0, event, &taken);
  if (taken)
    return;

  if ((session = live_session (self)) != NULL)
    {
      viva_exam_session_add_timeline_event (session, event);
      return;
    }

  if (!(pending = g_hash_table_lookup (self->pending, key)))
    {
      pending = json_array_new ();
      g_hash_table_insert (self->pending, g_strdup (key), pending);
    }
  json_array_add_object_element (pending, json_object_ref (event));
}

/**
 * viva_timeline_recorder_run:
 * @code: the code run
 *
 * Records a Run with its code, and keeps the code as the one last run: an
 * exam's time running out submits that.
 */
void
viva_timeline_recorder_run (VivaTimelineRecorder *self,
                            const char           *code)
{
  g_autoptr(JsonObject) event = viva_timeline_event_code ("run", code);
  g_autofree char *key = NULL;

  g_return_if_fail (VIVA_IS_TIMELINE_RECORDER (self));

  if (!(key = problem_key (self)))
    return;

  g_hash_table_insert (self->last_run, g_steal_pointer (&key), g_strdup (code));
  viva_timeline_recorder_add (self, event);
}

/**
 * viva_timeline_recorder_check:
 * @code: the code checked
 *
 * Records a Check with its code and how many shown tests passed.
 */
void
viva_timeline_recorder_check (VivaTimelineRecorder *self,
                              const char           *code,
                              guint                 passed,
                              guint                 total)
{
  g_autoptr(JsonObject) event = viva_timeline_event_check (code, passed, total);

  g_return_if_fail (VIVA_IS_TIMELINE_RECORDER (self));

  viva_timeline_recorder_add (self, event);
}

/**
 * viva_timeline_recorder_hint:
 * @cost: the points the hint costs in an exam, or 0
 *
 * Records that the open problem's hint was shown.
 */
void
viva_timeline_recorder_hint (VivaTimelineRecorder *self,
                             double                cost)
{
  g_autoptr(JsonObject) event = NULL;

  g_return_if_fail (VIVA_IS_TIMELINE_RECORDER (self));

  if (self->problem == NULL)
    return;

  event = viva_timeline_event_hint (viva_problem_get_id (self->problem));
  if (cost > 0)
    json_object_set_double_member (event, "cost", cost);
  viva_timeline_recorder_add (self, event);
}

/**
 * viva_timeline_recorder_get_last_run:
 *
 * Returns: (nullable): the open problem's code as last run in this window
 */
const char *
viva_timeline_recorder_get_last_run (VivaTimelineRecorder *self)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (VIVA_IS_TIMELINE_RECORDER (self), NULL);

  if (!(key = problem_key (self)))
    return NULL;

  return g_hash_table_lookup (self->last_run, key);
}

/**
 * viva_timeline_recorder_take_pending:
 *
 * What was recorded on the open problem since its last defense, for the
 * next one (#VivaDefense adds the Submit after it).
 *
 * Returns: (transfer full) (nullable): the events, or %NULL
 */
JsonArray *
viva_timeline_recorder_take_pending (VivaTimelineRecorder *self)
{
  g_autofree char *key = NULL;
  JsonArray *pending;

  g_return_val_if_fail (VIVA_IS_TIMELINE_RECORDER (self), NULL);

  if (!(key = problem_key (self)) || !(pending = g_hash_table_lookup (self->pending, key)))
    return NULL;

  json_array_ref (pending);
  g_hash_table_remove (self->pending, key);

  return pending;
}

/**
 * viva_timeline_recorder_set_problem:
 * @pack: (nullable): the open problem's pack
 * @problem: (nullable): the open problem
 */
void
viva_timeline_recorder_set_problem (VivaTimelineRecorder *self,
                                    VivaPack             *pack,
                                    VivaProblem          *problem)
{
  g_return_if_fail (VIVA_IS_TIMELINE_RECORDER (self));

  g_set_object (&self->pack, pack);
  g_set_object (&self->problem, problem);
}

/**
 * viva_timeline_recorder_set_examiner:
 * @examiner: (nullable): the defense the window shows
 */
void
viva_timeline_recorder_set_examiner (VivaTimelineRecorder *self,
                                     VivaExaminer         *examiner)
{
  g_return_if_fail (VIVA_IS_TIMELINE_RECORDER (self));

  g_set_object (&self->examiner, examiner);
}

/**
 * viva_timeline_recorder_set_quiet:
 * @quiet: whether the window itself replaces the code now (a reset to the
 *   starter code, the code last run when time runs out): no paste
 */
void
viva_timeline_recorder_set_quiet (VivaTimelineRecorder *self,
                                  gboolean              quiet)
{
  g_return_if_fail (VIVA_IS_TIMELINE_RECORDER (self));

  self->quiet = !!quiet;
}

/**
 * viva_timeline_recorder_set_focused:
 * @focused: whether the window has the focus
 * @defending_elsewhere: whether an exam server runs a defense of the open
 *   problem now
 *
 * The window losing the focus counts only during a defense, the PC's or
 * the exam server's.
 */
void
viva_timeline_recorder_set_focused (VivaTimelineRecorder *self,
                                    gboolean              focused,
                                    gboolean              defending_elsewhere)
{
  g_autoptr(JsonObject) event = NULL;

  g_return_if_fail (VIVA_IS_TIMELINE_RECORDER (self));

  if (!focused && self->focus_lost_at == 0 && (live_session (self) != NULL || defending_elsewhere))
    {
      self->focus_lost_at = g_get_monotonic_time ();
      event = viva_timeline_event_focus (TRUE, 0);
    }
  else if (focused && self->focus_lost_at != 0)
    {
      event = viva_timeline_event_focus (FALSE, (g_get_monotonic_time () - self->focus_lost_at) / 1000);
      self->focus_lost_at = 0;
    }

  if (event != NULL)
    viva_timeline_recorder_add (self, event);
}

static void
begin_user_action_cb (VivaTimelineRecorder *self)
{
  self->user_action++;
}

static void
end_user_action_cb (VivaTimelineRecorder *self)
{
  if (self->user_action > 0)
    self->user_action--;
}

/* A large insertion by the student: typing inserts a character at a time,
 * and loading the code is no user action. */
static void
insert_text_cb (VivaTimelineRecorder *self,
                GtkTextIter          *location,
                const char           *text,
                int                   length)
{
  g_autoptr(JsonObject) event = NULL;
  g_autofree char *copy = NULL;

  if (self->user_action == 0 || self->quiet || !viva_timeline_is_paste (text, length))
    return;

  copy = g_strndup (text, length);
  event = viva_timeline_event_paste (copy, gtk_text_iter_get_line (location) + 1);
  viva_timeline_recorder_add (self, event);
}

static void
viva_timeline_recorder_dispose (GObject *object)
{
  VivaTimelineRecorder *self = (VivaTimelineRecorder *)object;

  if (self->buffer != NULL)
    g_signal_handlers_disconnect_by_data (self->buffer, self);
  g_clear_weak_pointer (&self->buffer);
  g_clear_object (&self->examiner);
  g_clear_object (&self->problem);
  g_clear_object (&self->pack);

  G_OBJECT_CLASS (viva_timeline_recorder_parent_class)->dispose (object);
}

static void
viva_timeline_recorder_finalize (GObject *object)
{
  VivaTimelineRecorder *self = (VivaTimelineRecorder *)object;

  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->last_run, g_hash_table_unref);

  G_OBJECT_CLASS (viva_timeline_recorder_parent_class)->finalize (object);
}

static void
viva_timeline_recorder_class_init (VivaTimelineRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_timeline_recorder_dispose;
  object_class->finalize = viva_timeline_recorder_finalize;

  /**
   * VivaTimelineRecorder::take-event:
   * @event: an event of the open problem
   *
   * Before @event is recorded here: a handler returning %TRUE takes it
   * (a sitting on an exam server sends it with the saves).
   */
  signals[TAKE_EVENT] =
    g_signal_new ("take-event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 1, JSON_TYPE_OBJECT);
}

static void
viva_timeline_recorder_init (VivaTimelineRecorder *self)
{
  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)json_array_unref);
  self->last_run = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/**
 * viva_timeline_recorder_new:
 * @buffer: the editor's buffer, whose pastes are recorded
 *
 * Returns: (transfer full): a recorder with nothing recorded
 */
VivaTimelineRecorder *
viva_timeline_recorder_new (GtkTextBuffer *buffer)
{
  VivaTimelineRecorder *self;

  g_return_val_if_fail (GTK_IS_TEXT_BUFFER (buffer), NULL);

  self = g_object_new (VIVA_TYPE_TIMELINE_RECORDER, NULL);
  g_set_weak_pointer (&self->buffer, buffer);
  g_signal_connect_object (buffer, "begin-user-action", G_CALLBACK (begin_user_action_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (buffer, "end-user-action", G_CALLBACK (end_user_action_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (buffer, "insert-text", G_CALLBACK (insert_text_cb), self, G_CONNECT_SWAPPED);

  return self;
}
