/* viva-exam-sitting.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-report.h"
#include "viva-exam-sitting-private.h"

/* One student's sitting of one exam: who sits it, since when, the time
 * left, what the exam fixes of the examiner, and each finished defense's
 * report handed in to the exam's folder. The app shows one; viva-cli and
 * the exam server run the same object with no window.
 *
 * Who started and when is kept in a small state file (with the hand-in's
 * lists), so that closing and opening Viva again continues the same
 * sitting and clock: the clock is the wall clock against the start, not a
 * countdown, and a restart within the time takes up the time left. The
 * state itself, its file and taking it back, is viva-exam-sitting-state.c. */

G_DEFINE_FINAL_TYPE (VivaExamSitting, viva_exam_sitting, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TIME_LEFT,
  PROP_TIME_UP,
  N_PROPS
};

enum {
  TIME_UP,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
viva_exam_sitting_dispose (GObject *object)
{
  VivaExamSitting *self = (VivaExamSitting *)object;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->hand_in != NULL)
    g_signal_handlers_disconnect_by_func (self->hand_in, _viva_exam_sitting_save, self);

  G_OBJECT_CLASS (viva_exam_sitting_parent_class)->dispose (object);
}

static void
viva_exam_sitting_finalize (GObject *object)
{
  VivaExamSitting *self = (VivaExamSitting *)object;

  g_clear_object (&self->exam);
  g_clear_object (&self->hand_in);
  g_clear_object (&self->grading_limit);
  g_clear_pointer (&self->state_path, g_free);
  if (self->keep_destroy != NULL)
    g_clear_pointer (&self->keep_data, self->keep_destroy);
  g_clear_pointer (&self->student_name, g_free);
  g_clear_pointer (&self->student_id, g_free);
  g_clear_pointer (&self->started, g_date_time_unref);

  G_OBJECT_CLASS (viva_exam_sitting_parent_class)->finalize (object);
}

static void
viva_exam_sitting_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  VivaExamSitting *self = VIVA_EXAM_SITTING (object);

  switch (prop_id)
    {
    case PROP_TIME_LEFT:
      g_value_set_int64 (value, viva_exam_sitting_get_time_left (self));
      break;

    case PROP_TIME_UP:
      g_value_set_boolean (value, self->time_up);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_exam_sitting_class_init (VivaExamSittingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_exam_sitting_dispose;
  object_class->finalize = viva_exam_sitting_finalize;
  object_class->get_property = viva_exam_sitting_get_property;

  /**
   * VivaExamSitting:time-left:
   *
   * Whole seconds left, told once a second; 0 once the time is up, -1 for
   * an exam without a time limit or a sitting not begun.
   */
  properties[PROP_TIME_LEFT] =
    g_param_spec_int64 ("time-left", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * VivaExamSitting:time-up:
   *
   * Whether the time ran out, in this process or before it started.
   */
  properties[PROP_TIME_UP] =
    g_param_spec_boolean ("time-up", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaExamSitting::time-up:
   *
   * The time ran out while this process ran the sitting: the hand-in is
   * closed and its queue ready (viva_exam_hand_in_take_next()). Not
   * emitted for a sitting restored after its time, where nothing is
   * handed in again.
   */
  signals[TIME_UP] = g_signal_new ("time-up", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
viva_exam_sitting_init (VivaExamSitting *self)
{
  self->time_left = -1;
}

/* What both kinds of sitting hold of the exam. */
static VivaExamSitting *
sitting_new (VivaExamFile *exam)
{
  VivaExamSitting *self = g_object_new (VIVA_TYPE_EXAM_SITTING, NULL);
  guint count, minutes;

  self->exam = g_object_ref (exam);
  self->hand_in = viva_exam_hand_in_new (exam);
  if (viva_exam_file_get_grading_limit (exam, &count, &minutes))
    self->grading_limit = viva_grading_limit_new (count, minutes);

  return self;
}

/**
 * viva_exam_sitting_new:
 * @exam: the exam, with its pack set
 * @state_dir: (nullable): where sittings keep their state, by default
 *   `$XDG_DATA_HOME/viva/exams`
 *
 * Returns: (transfer full): a sitting not begun; restore it, or begin it
 */
VivaExamSitting *
viva_exam_sitting_new (VivaExamFile *exam,
                       const char   *state_dir)
{
  VivaExamSitting *self;
  g_autofree char *name = NULL;
  g_autofree char *dir = NULL;

  g_return_val_if_fail (VIVA_IS_EXAM_FILE (exam), NULL);

  self = sitting_new (exam);

  /* One file per exam and version of it: a changed exam file is another
   * exam. */
  dir = state_dir ? g_strdup (state_dir) : g_build_filename (g_get_user_data_dir (), "viva", "exams", NULL);
  name = g_strdup_printf ("%s-%.16s.json", viva_exam_file_get_id (exam), viva_exam_file_get_digest (exam));
  self->state_path = g_build_filename (dir, name, NULL);

  g_signal_connect_object (self->hand_in, "changed", G_CALLBACK (_viva_exam_sitting_save), self, G_CONNECT_SWAPPED);

  return self;
}

/**
 * viva_exam_sitting_new_kept:
 * @exam: the exam, with its pack set
 * @keep_func: called with the sitting's state each time it changes
 * @user_data: for @keep_func
 * @destroy: (nullable): frees @user_data with the sitting
 *
 * A sitting whose state is kept by its front rather than in a file of the
 * account's (the exam server keeps it in its database): @keep_func gets
 * the same JSON the state file would hold, and the front gives it back
 * with viva_exam_sitting_restore_state(). No file is read or written.
 *
 * Returns: (transfer full): a sitting not begun; restore it, or begin it
 */
VivaExamSitting *
viva_exam_sitting_new_kept (VivaExamFile            *exam,
                            VivaExamSittingKeepFunc  keep_func,
                            gpointer                 user_data,
                            GDestroyNotify           destroy)
{
  VivaExamSitting *self;

  g_return_val_if_fail (VIVA_IS_EXAM_FILE (exam), NULL);
  g_return_val_if_fail (keep_func != NULL, NULL);

  self = sitting_new (exam);
  self->keep_func = keep_func;
  self->keep_data = user_data;
  self->keep_destroy = destroy;

  g_signal_connect_object (self->hand_in, "changed", G_CALLBACK (_viva_exam_sitting_save), self, G_CONNECT_SWAPPED);

  return self;
}

/**
 * viva_exam_sitting_get_exam:
 *
 * Returns: (transfer none): the exam sat
 */
VivaExamFile *
viva_exam_sitting_get_exam (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), NULL);

  return self->exam;
}

/**
 * viva_exam_sitting_get_hand_in:
 *
 * Returns: (transfer none): what the sitting hands in at its time
 */
VivaExamHandIn *
viva_exam_sitting_get_hand_in (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), NULL);

  return self->hand_in;
}

/**
 * viva_exam_sitting_get_state_path:
 *
 * Returns: (nullable): the file the sitting's state is kept in, %NULL for
 *   a sitting made with viva_exam_sitting_new_kept()
 */
const char *
viva_exam_sitting_get_state_path (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), NULL);

  return self->state_path;
}

static gint64
compute_time_left (VivaExamSitting *self)
{
  g_autoptr(GDateTime) now = NULL;
  guint limit = viva_exam_file_get_time_limit (self->exam);
  gint64 left;

  if (self->started == NULL || limit == 0)
    return -1;

  now = g_date_time_new_now_utc ();
  left = limit - g_date_time_difference (now, self->started) / G_TIME_SPAN_SECOND;

  /* A start in the future (a clock set back) is no more time than the
   * limit. */
  return CLAMP (left, 0, (gint64)limit);
}

static gboolean
tick_cb (gpointer user_data)
{
  VivaExamSitting *self = VIVA_EXAM_SITTING (user_data);
  gint64 left = compute_time_left (self);

  if (left != self->time_left)
    {
      self->time_left = left;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_LEFT]);
    }

  if (left > 0)
    return G_SOURCE_CONTINUE;

  self->tick_id = 0;
  self->time_up = TRUE;
  viva_exam_hand_in_close (self->hand_in);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_UP]);
  g_signal_emit (self, signals[TIME_UP], 0);

  return G_SOURCE_REMOVE;
}

/* Begun or restored: the clock runs, or the time was up already. */
void
_viva_exam_sitting_start_clock (VivaExamSitting *self)
{
  self->time_left = compute_time_left (self);

  if (self->time_left == 0)
    {
      /* Reopened after the time: what was handed in then stands, and
       * nothing is handed in again (the hand-in was given no code in this
       * process, so it queues none). */
      self->time_up = TRUE;
      viva_exam_hand_in_close (self->hand_in);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_UP]);
    }
  else if (self->time_left > 0)
    self->tick_id = g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, 1, tick_cb, self, NULL);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_LEFT]);
}

/**
 * viva_exam_sitting_begin:
 * @student_name: who sits the exam
 * @student_id: their student id
 * @started: (nullable): when the sitting began, by default now
 *
 * Begins the sitting: keeps who and when in the state file, and starts
 * the clock. Once.
 */
void
viva_exam_sitting_begin (VivaExamSitting *self,
                         const char      *student_name,
                         const char      *student_id,
                         GDateTime       *started)
{
  g_return_if_fail (VIVA_IS_EXAM_SITTING (self));
  g_return_if_fail (student_name != NULL && student_id != NULL);
  g_return_if_fail (self->started == NULL);

  self->student_name = g_strdup (student_name);
  self->student_id = g_strdup (student_id);
  self->started = started ? g_date_time_to_utc (started) : g_date_time_new_now_utc ();

  _viva_exam_sitting_save (self);
  _viva_exam_sitting_start_clock (self);
}

/**
 * viva_exam_sitting_has_begun:
 *
 * Returns: whether the student gave their name and the clock runs (or ran)
 */
gboolean
viva_exam_sitting_has_begun (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), FALSE);

  return self->started != NULL;
}

/**
 * viva_exam_sitting_get_student_name:
 *
 * Returns: (nullable): who sits the exam, as they typed it
 */
const char *
viva_exam_sitting_get_student_name (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), NULL);

  return self->student_name;
}

/**
 * viva_exam_sitting_get_student_id:
 *
 * Returns: (nullable): their student id
 */
const char *
viva_exam_sitting_get_student_id (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), NULL);

  return self->student_id;
}

/**
 * viva_exam_sitting_get_started:
 *
 * Returns: (transfer none) (nullable): when the sitting began, in UTC
 */
GDateTime *
viva_exam_sitting_get_started (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), NULL);

  return self->started;
}

/**
 * viva_exam_sitting_get_time_left:
 *
 * Returns: #VivaExamSitting:time-left
 */
gint64
viva_exam_sitting_get_time_left (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), -1);

  return self->time_left;
}

/**
 * viva_exam_sitting_get_time_up:
 *
 * Returns: #VivaExamSitting:time-up
 */
gboolean
viva_exam_sitting_get_time_up (VivaExamSitting *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), FALSE);

  return self->time_up;
}

/**
 * viva_exam_sitting_fix_settings:
 * @settings: the settings the defenses are assembled from
 *
 * Makes the examiner settings the exam names read-only at the exam's
 * values for this process, without touching the user's own.
 */
void
viva_exam_sitting_fix_settings (VivaExamSitting *self,
                                VivaSettings    *settings)
{
  g_auto(GValue) value = G_VALUE_INIT;

  g_return_if_fail (VIVA_IS_EXAM_SITTING (self));
  g_return_if_fail (VIVA_IS_SETTINGS (settings));

  if (!viva_exam_file_has_examiner (self->exam))
    return;

  g_value_init (&value, G_TYPE_INT);
  g_value_set_int (&value, viva_exam_file_get_examiner_mode (self->exam));
  viva_settings_fix (settings, "examiner-mode", &value);
  g_value_unset (&value);

  g_value_init (&value, G_TYPE_STRING);
  if (viva_exam_file_get_base_url (self->exam) != NULL)
    {
      g_value_set_string (&value, viva_exam_file_get_base_url (self->exam));
      viva_settings_fix (settings, "base-url", &value);
    }
  if (viva_exam_file_get_model (self->exam) != NULL)
    {
      g_value_set_string (&value, viva_exam_file_get_model (self->exam));
      viva_settings_fix (settings, "model", &value);
    }
  if (viva_exam_file_get_language (self->exam) != NULL)
    {
      g_value_set_string (&value, viva_exam_file_get_language (self->exam));
      viva_settings_fix (settings, "examiner-language", &value);
    }
}

/**
 * viva_exam_sitting_stamp_session:
 * @session: a defense starting in this sitting
 *
 * Stamps @session with the exam and who sits it, so its report says both.
 */
void
viva_exam_sitting_stamp_session (VivaExamSitting *self,
                                 VivaExamSession *session)
{
  g_return_if_fail (VIVA_IS_EXAM_SITTING (self));
  g_return_if_fail (VIVA_IS_EXAM_SESSION (session));
  g_return_if_fail (self->started != NULL);

  viva_exam_session_set_student (session, self->student_name, self->student_id);
  viva_exam_session_set_exam (session, self->exam);
}

static void
report_exported_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExamSitting *self = g_task_get_source_object (task);
  GError *error = NULL;
  char *path;

  if (!(path = viva_exam_report_export_to_folder_finish (result, &error)))
    return g_task_return_error (task, error);

  viva_exam_hand_in_set_report (self->hand_in, g_task_get_task_data (task), path);
  g_task_return_pointer (task, path, g_free);
}

static void
session_flushed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExamSitting *self = g_task_get_source_object (task);
  VivaExamSession *session = VIVA_EXAM_SESSION (object);
  g_autoptr(GError) error = NULL;

  /* A write error was reported by the session already; the report is
   * built from what is on disk either way. */
  if (!viva_exam_session_flush_finish (session, result, &error))
    g_debug ("sitting: a session's last write failed: %s", error->message);

  if (g_task_return_error_if_cancelled (task))
    return;

  viva_exam_report_export_to_folder_async (viva_exam_session_get_dir (session),
                                           viva_exam_file_get_report_folder (self->exam),
                                           g_task_get_cancellable (task),
                                           report_exported_cb, g_object_ref (task));
}

/**
 * viva_exam_sitting_hand_in_report_async:
 * @session: a finished defense of this sitting
 * @problem_id: the problem it defended
 *
 * Hands the defense's report in to the exam's report folder (HTML and
 * JSON, through the report's export) once @session is on disk, and
 * records its file on the hand-in.
 */
void
viva_exam_sitting_hand_in_report_async (VivaExamSitting     *self,
                                        VivaExamSession     *session,
                                        const char          *problem_id,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SITTING (self));
  g_return_if_fail (VIVA_IS_EXAM_SESSION (session));
  g_return_if_fail (problem_id != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_sitting_hand_in_report_async);
  g_task_set_task_data (task, g_strdup (problem_id), g_free);
  viva_exam_session_flush_async (session, cancellable, session_flushed_cb, g_steal_pointer (&task));
}

/**
 * viva_exam_sitting_hand_in_report_finish:
 *
 * Returns: (transfer full): the HTML report's path, the JSON beside it, or
 *   %NULL with @error set
 */
char *
viva_exam_sitting_hand_in_report_finish (VivaExamSitting  *self,
                                         GAsyncResult     *result,
                                         GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_exam_sitting_request_grading:
 * @problem_id: the problem to grade
 * @check: %TRUE for a Check (the shown tests), %FALSE for a Submit
 * @now: (nullable): the time, by default now
 *
 * Where a front asks before it grades a problem of the exam: whether the
 * exam allows Check at all, and whether its `grading_limit` leaves a
 * grading of @problem_id now. An allowed grading is counted (and kept in
 * the state file).
 *
 * Returns: %TRUE when the grading may run; %FALSE with a
 *   %VIVA_GRADING_ERROR saying why and, when limited, at what time the
 *   student may try again
 */
gboolean
viva_exam_sitting_request_grading (VivaExamSitting  *self,
                                   const char       *problem_id,
                                   gboolean          check,
                                   GDateTime        *now,
                                   GError          **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), FALSE);
  g_return_val_if_fail (problem_id != NULL, FALSE);

  if (check && !viva_exam_file_get_check_allowed (self->exam))
    {
      g_set_error_literal (error, VIVA_GRADING_ERROR, VIVA_GRADING_ERROR_CHECK_FORBIDDEN,
                           _("This exam does not allow Check; Submit for Defense grades your code."));
      return FALSE;
    }

  if (self->grading_limit == NULL)
    return TRUE;

  if (!viva_grading_limit_take (self->grading_limit, problem_id,
                                now ? g_date_time_to_unix (now) : g_get_real_time () / G_USEC_PER_SEC, error))
    return FALSE;

  _viva_exam_sitting_save (self);
  return TRUE;
}
