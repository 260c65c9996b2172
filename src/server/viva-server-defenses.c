/* viva-server-defenses.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-report.h"
#include "viva-file-writer.h"
#include "viva-server-clock.h"
#include "viva-server-defense-jobs.h"
#include "viva-server-defenses-private.h"
#include "viva-server-follow.h"
#include "viva-server-keys.h"
#include "viva-server-store-pool.h"

/* The defenses the server runs itself: each is the core's VivaDefense, as
 * the app and viva-cli run one, with its own worker (sandboxed as in the
 * app), the model set on the server (an exam may name its own) chosen by
 * the endpoint's one rule, and the grader. The session is stamped by the
 * student's VivaExamSitting (viva-server-clock.c). What the clients are
 * told is viva-server-defense-events.c's: every event committed, with the
 * examiner's checkpoint, before anyone is told of it (the "event" signal),
 * so a server killed at any moment continues every defense from there:
 * the same question pending, no event lost or told twice.
 *
 * The session keeps its folder under the state folder (its trace is what
 * the report is built from); at a restart the database's checkpoint is
 * written back into it before the defense resumes, so the database is the
 * one that counts. What a defense is made of is viva-server-defenses-build.c's;
 * a student's defenses, reached by the student, -defenses-students.c's. */

G_DEFINE_FINAL_TYPE (VivaServerDefenses, viva_server_defenses, G_TYPE_OBJECT)

enum {
  EVENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data);

static void
live_free (VivaServerLive *live)
{
  g_cancellable_cancel (live->cancellable);
  _viva_server_defense_unwatch (live);
  g_clear_object (&live->defense);
  g_clear_pointer (&live->saved_checkpoint, json_node_unref);
  g_clear_object (&live->cancellable);
  g_string_free (live->content, TRUE);
  g_free (live->id);
  g_free (live->exam_id);
  g_free (live->student_id);
  g_free (live->problem_id);
  g_free (live->pending);
  g_free (live->resumed_question);
  g_free (live->resource);
  g_clear_pointer (&live->told_steps, g_hash_table_unref);
  g_free (live);
}

typedef struct
{
  VivaServerDefenses *self;
  char               *id;
} Later;

static void
later_free (Later *later)
{
  g_object_unref (later->self);
  g_free (later->id);
  g_free (later);
}

VivaServerApi *
_viva_server_defenses_get_api (VivaServerDefenses *self)
{
  return self->api;
}

void
_viva_server_defenses_emit (VivaServerDefenses *self,
                            const char         *defense_id,
                            gint64              seq,
                            const char         *kind,
                            JsonObject         *data)
{
  if (self->follow != NULL)
    viva_server_follow_seen (self->follow, defense_id, seq);
  g_signal_emit (self, signals[EVENT], 0, defense_id, seq, kind, data);
}

const char *
_viva_server_defenses_get_holder (VivaServerDefenses *self)
{
  return self->holder;
}

VivaServerLive *
_viva_server_defenses_lookup (VivaServerDefenses *self,
                              const char         *defense_id)
{
  return g_hash_table_lookup (self->live, defense_id);
}

/* The token every write of @live carries, or NULL on a server of one
 * node (no holder). */
const VivaServerFence *
_viva_server_defenses_fence (VivaServerLive  *live,
                             VivaServerFence *fence)
{
  if (live->self->holder == NULL)
    return NULL;
  fence->resource = live->resource;
  fence->holder = live->self->holder;
  fence->epoch = live->epoch;
  return fence;
}

typedef struct
{
  VivaServerDefenses *self;
  char               *id;
  VivaDefense        *defense;   /* unowned: compared, never used */
} Dropped;

static void
dropped_free (Dropped *dropped)
{
  g_object_unref (dropped->self);
  g_free (dropped->id);
  g_free (dropped);
}

static gboolean
drop_cb (gpointer user_data)
{
  Dropped *dropped = user_data;
  VivaServerLive *live = g_hash_table_lookup (dropped->self->live, dropped->id);

  if (live != NULL && live->defense == dropped->defense)
    g_hash_table_remove (dropped->self->live, dropped->id);
  return G_SOURCE_REMOVE;
}

/**
 * _viva_server_defenses_fenced:
 *
 * A write of @live was refused: another node took the lease while this
 * one stalled. The defense stops here at once (its task cancelled, its
 * signals no longer heard) and is dropped from the main loop, never from
 * inside the examiner's own signal.
 */
void
_viva_server_defenses_fenced (VivaServerLive *live,
                              const GError   *error)
{
  Dropped *dropped;

  if (live->fenced)
    return;
  g_message ("defense %s: %s Stopping it on this node.", live->id, error->message);
  live->fenced = TRUE;
  _viva_server_defense_unwatch (live);
  g_cancellable_cancel (live->cancellable);

  dropped = g_new0 (Dropped, 1);
  dropped->self = g_object_ref (live->self);
  dropped->id = g_strdup (live->id);
  dropped->defense = live->defense;
  g_idle_add_full (G_PRIORITY_DEFAULT, drop_cb, dropped, (GDestroyNotify)dropped_free);
}

/* The lease went to another node: nothing more from here, at once (from
 * a lease tick, outside the examiner's signals). */
void
_viva_server_defenses_drop_now (VivaServerLive *live)
{
  live->fenced = TRUE;
  _viva_server_defense_unwatch (live);
  g_hash_table_remove (live->self->live, live->id);
}

static gboolean
take_answer_cb (gpointer user_data)
{
  Later *later = user_data;
  VivaServerLive *live = g_hash_table_lookup (later->self->live, later->id);

  if (live != NULL)
    _viva_server_defense_take_answer (live);
  return G_SOURCE_REMOVE;
}

/* Takes an answer another node kept for the pending question, from the
 * main loop. */
void
_viva_server_defenses_take_answer_later (VivaServerLive *live)
{
  Later *later = g_new0 (Later, 1);

  later->self = g_object_ref (live->self);
  later->id = g_strdup (live->id);
  g_idle_add_full (G_PRIORITY_DEFAULT, take_answer_cb, later, (GDestroyNotify)later_free);
}

/* Answers for a student whose time is up, from the main loop (never
 * inside the examiner's own signal). */
static gboolean
auto_answer_cb (gpointer user_data)
{
  Later *later = user_data;
  VivaServerLive *live = g_hash_table_lookup (later->self->live, later->id);
  g_autoptr(GError) error = NULL;

  if (live != NULL && live->pending != NULL &&
      !viva_examiner_answer (live->examiner, VIVA_SERVER_TIME_UP_ANSWER, &error))
    g_warning ("defense %s: %s", live->id, error->message);
  return G_SOURCE_REMOVE;
}

void
_viva_server_defenses_answer_later (VivaServerLive *live)
{
  Later *later = g_new0 (Later, 1);

  later->self = g_object_ref (live->self);
  later->id = g_strdup (live->id);
  g_idle_add_full (G_PRIORITY_DEFAULT, auto_answer_cb, later, (GDestroyNotify)later_free);
}

/* The report, built from the session as the app builds it, signed over
 * its exact bytes, kept. */
static void
keep_report (VivaServerLive *live)
{
  VivaServerApi *api = live->self->api;
  g_autofree char *trace_path = g_build_filename (viva_exam_session_get_dir (live->session), "trace.jsonl", NULL);
  g_autofree char *key_path = g_build_filename (viva_server_api_get_state_dir (api), "signing-key.pem", NULL);
  g_autofree char *trace = NULL;
  g_autofree char *text = NULL;
  g_autofree char *signature = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GError) error = NULL;
  gsize trace_length = 0;
  JsonNode *checkpoint = viva_exam_session_get_checkpoint (live->session);

  if (checkpoint == NULL)
    return;
  if (!g_file_get_contents (trace_path, &trace, &trace_length, NULL))
    trace = NULL;

  report = viva_exam_report_build (checkpoint, trace, trace ? (gssize)trace_length : 0);
  text = json_to_string (report, TRUE);
  if (!(signature = viva_server_keys_sign (key_path, text, strlen (text), &error)) ||
      !viva_server_store_save_report (viva_server_api_get_store (api), live->id, text, signature, &error))
    g_warning ("defense %s: report not kept: %s", live->id, error->message);
}

/* The end of a defense: once the session is on disk, its report is kept
 * and signed, the sitting's hand-in told, and the last events say how it
 * ended. */
static void
flush_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autofree char *id = user_data;
  VivaServerDefenses *self = g_object_get_data (object, "viva-server-defenses");
  VivaServerClock *clock;
  VivaExamVerdict *verdict;
  VivaServerLive *live;
  g_autoptr(JsonObject) done = json_object_new ();
  const char *state;

  viva_exam_session_flush_finish (VIVA_EXAM_SESSION (object), result, NULL);
  /* Not a later run of the same defense, taken back after this one was
   * dropped. */
  if (self == NULL || !(live = g_hash_table_lookup (self->live, id)) ||
      live->session != VIVA_EXAM_SESSION (object) || live->fenced)
    return;

  _viva_server_defense_flush (live);
  /* Nothing of the end is kept unless the lease is still this node's. */
  {
    VivaServerFence fence;
    g_autoptr(GError) error = NULL;

    if (!live->fenced && !viva_server_store_check_fence (viva_server_api_get_store (self->api),
                                                         _viva_server_defenses_fence (live, &fence), &error))
      {
        if (g_error_matches (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FENCED))
          _viva_server_defenses_fenced (live, error);
        else
          g_message ("defense %s: %s", id, error->message);
      }
    if (live->fenced)
      return;
  }

  verdict = viva_examiner_get_verdict (live->examiner);
  if (viva_examiner_get_state (live->examiner) == VIVA_EXAMINER_STATE_FINISHED && verdict != NULL)
    {
      g_autoptr(JsonObject) data = _viva_server_defense_verdict_data (verdict);

      keep_report (live);
      _viva_server_defense_add_event (live, "verdict", data);
      state = "finished";
    }
  else if (viva_examiner_get_state (live->examiner) == VIVA_EXAMINER_STATE_CANCELLED)
    return;  /* the server is stopping: the defense continues at its next start */
  else
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_string_member (data, "message",
                                     viva_examiner_get_error_message (live->examiner)
                                     ? viva_examiner_get_error_message (live->examiner)
                                     : _("The defense could not go on."));
      _viva_server_defense_add_event (live, "error", data);
      state = "failed";
    }

  /* Before the end is committed: a restart in between continues the
   * defense, rather than forgetting that it was defended. */
  if ((clock = viva_server_api_get_clock (self->api)))
    viva_server_clock_defense_ended (clock, live->exam_id, live->student_id, live->problem_id,
                                     g_str_equal (state, "finished"));

  _viva_server_defense_set_state (live, state);
  json_object_set_string_member (done, "state", state);
  _viva_server_defense_add_event (live, "finished", done);
  if (self->holder != NULL)
    {
      g_autofree char *resource = _viva_server_defenses_lease_resource (id);

      viva_server_store_drop_lease (viva_server_api_get_store (self->api), resource, self->holder, NULL);
    }
  g_hash_table_remove (self->live, id);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  char *id = user_data;
  VivaDefense *defense = VIVA_DEFENSE (object);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;

  verdict = viva_defense_run_finish (defense, result, &error);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("defense %s: %s", id, error->message);

  viva_exam_session_flush_async (viva_defense_get_session (defense), NULL, flush_cb, id);
}

static char *
sessions_dir (VivaServerDefenses *self)
{
  return g_build_filename (viva_server_api_get_state_dir (self->api), "sessions", NULL);
}

/* A new defense from @row, or with @session one that continues it; its
 * examiner assembled and watched. */
static VivaServerLive *
live_new (VivaServerDefenses  *self,
          JsonObject          *row,
          const char          *code,
          VivaExamSession     *session,
          GError             **error)
{
  g_autoptr(VivaDefense) defense = NULL;
  VivaServerLive *live;

  if (!(defense = _viva_server_defenses_new_defense (self, row, code, session, error)))
    return NULL;

  live = g_new0 (VivaServerLive, 1);
  live->self = self;
  live->id = g_strdup (json_object_get_string_member (row, "id"));
  live->resource = _viva_server_defenses_lease_resource (live->id);
  live->exam_id = g_strdup (json_object_get_string_member (row, "exam_id"));
  live->student_id = g_strdup (json_object_get_string_member (row, "student_id"));
  live->problem_id = g_strdup (json_object_get_string_member (row, "problem_id"));
  live->content = g_string_new (NULL);
  live->cancellable = g_cancellable_new ();
  live->auto_answer = json_object_get_int_member (row, "handed_in") != 0;
  live->defense = g_steal_pointer (&defense);

  g_hash_table_insert (self->live, live->id, live);
  return live;
}

/* Assembles the examiner (the server's endpoints need no check, so at
 * once) and starts recording it. */
static gboolean
live_prepare (VivaServerLive  *live,
              GError         **error)
{
  if (!viva_defense_prepare_now (live->defense))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The defense could not go on."));
      return FALSE;
    }

  live->examiner = viva_defense_get_examiner (live->defense);
  live->session = viva_defense_get_session (live->defense);
  /* Graded once, by the pool (viva-server-defense-jobs.c), and its code
   * run by the pool too (viva-server-defense-runs.c). */
  _viva_server_defense_grade_in_pool (live->self->api, live->examiner, live->id);
  _viva_server_defense_runs_in_pool (live->self->api, live->examiner, live->exam_id, live->problem_id, live->id);
  g_object_set_data (G_OBJECT (live->session), "viva-server-defenses", live->self);
  _viva_server_defense_watch (live);
  return TRUE;
}

/* Runs the defense of @row from its start, in a new session stamped by
 * the sitting, as the app's is. @again: its first run stopped before it
 * kept a checkpoint (the node that ran it died or lost its lease): it
 * starts over under the same id, so the student's app following it
 * follows the new run, and the tool steps told already are not told
 * again. */
static gboolean
start_row (VivaServerDefenses  *self,
           JsonObject          *row,
           gint64               epoch,
           VivaExamSitting     *sitting,
           gboolean             again,
           GError             **error)
{
  VivaServerStore *store = viva_server_api_get_store (self->api);
  VivaServerClock *clock = viva_server_api_get_clock (self->api);
  const char *id = json_object_get_string_member (row, "id");
  g_autofree char *dir = sessions_dir (self);
  g_autoptr(VivaExamSession) session = NULL;
  VivaServerLive *live;

  if (!(live = live_new (self, row, json_object_get_string_member (row, "code"), NULL, error)))
    return FALSE;
  live->epoch = epoch;

  /* What the student's PC recorded on the problem: the report's
   * timeline, also at time-up. */
  _viva_server_defenses_give_timeline (live);

  /* The session is stamped by the sitting, as the app's is. */
  session = viva_exam_session_new (dir);
  viva_exam_sitting_stamp_session (sitting, session);
  viva_defense_set_session (live->defense, session);

  if (!live_prepare (live, error) ||
      !viva_server_store_set_defense_session (store, id, viva_exam_session_get_id (session), error))
    {
      g_hash_table_remove (self->live, id);
      return FALSE;
    }
  if (again)
    _viva_server_defense_recall (live);
  else
    viva_server_clock_defense_started (clock, live->exam_id, live->student_id, live->problem_id);
  viva_defense_run_async (live->defense, live->cancellable, done_cb, g_strdup (id));
  return TRUE;
}

/* @job_id: (nullable): a Submit's: the submission is kept and its grading
 * enqueued in the defense's row's transaction, and its job's id set here */
static char *
start_new (VivaServerDefenses  *self,
           const char          *exam_id,
           const char          *student_id,
           const char          *problem_id,
           const char          *code,
           gboolean             handed_in,
           char               **job_id,
           GError             **error)
{
  VivaServerStore *store = viva_server_api_get_store (self->api);
  VivaServerClock *clock = viva_server_api_get_clock (self->api);
  g_autofree char *id = viva_server_keys_random_id ();
  g_autoptr(JsonObject) row = NULL;
  VivaExamSitting *sitting;
  gint64 epoch;

  g_return_val_if_fail (VIVA_IS_SERVER_DEFENSES (self), NULL);
  g_return_val_if_fail (clock != NULL, NULL);

  /* The lease first: no other node's tick can take the new row for one
   * left by a dead node. */
  _viva_server_defenses_renew_if_due (self);
  if ((epoch = _viva_server_defenses_take_lease (self, id)) <= 0)
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_BUSY, "%s",
                   _("The exam server’s database is not answering; the server keeps trying."));
      return NULL;
    }
  if (!(sitting = viva_server_clock_get_sitting (clock, exam_id, student_id, error)))
    return NULL;
  if (job_id != NULL)
    {
      if (viva_server_store_save_submission (store, exam_id, student_id, problem_id, code, id, job_id, error) < 0)
        return NULL;
      viva_server_clock_code_saved (clock, exam_id, student_id, problem_id, "submit", code);
    }
  else if (!viva_server_store_add_defense (store, id, exam_id, student_id, problem_id, code, handed_in, error))
    return NULL;
  if (!(row = viva_server_store_get_defense (store, id, error)) ||
      !start_row (self, row, epoch, sitting, FALSE, error))
    return NULL;
  return g_steal_pointer (&id);
}

/**
 * viva_server_defenses_start:
 * @handed_in: started at time-up: questions are answered for the student
 *
 * Returns: (transfer full): the new defense's id, its row committed
 */
char *
viva_server_defenses_start (VivaServerDefenses  *self,
                            const char          *exam_id,
                            const char          *student_id,
                            const char          *problem_id,
                            const char          *code,
                            gboolean             handed_in,
                            GError             **error)
{
  return start_new (self, exam_id, student_id, problem_id, code, handed_in, NULL, error);
}

/**
 * viva_server_defenses_start_submitted:
 * @job_id: (out): the submission's grading job, the defense's grade
 *
 * Starts the defense of a Submit: the submitted code, its grading job and
 * the defense's row naming that job are one transaction.
 *
 * Returns: (transfer full): the new defense's id, its row committed
 */
char *
viva_server_defenses_start_submitted (VivaServerDefenses  *self,
                                      const char          *exam_id,
                                      const char          *student_id,
                                      const char          *problem_id,
                                      const char          *code,
                                      char               **job_id,
                                      GError             **error)
{
  g_return_val_if_fail (job_id != NULL, NULL);

  return start_new (self, exam_id, student_id, problem_id, code, FALSE, job_id, error);
}

gboolean
_viva_server_defenses_resume_one (VivaServerDefenses  *self,
            JsonObject          *row,
            gint64               epoch,
            GError             **error)
{
  g_autofree char *dir = sessions_dir (self);
  const char *session_id = json_object_get_string_member_with_default (row, "session_id", NULL);
  const char *checkpoint = json_object_get_string_member_with_default (row, "checkpoint", NULL);
  const char *code = json_object_get_string_member (row, "code");
  g_autofree char *session_dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(VivaExamSession) session = NULL;
  VivaServerLive *live;

  if (session_id == NULL || checkpoint == NULL)
    {
      /* Stopped before its first step was kept: it starts over, from the
       * code the student submitted, under the same id. */
      VivaServerClock *clock = viva_server_api_get_clock (self->api);
      VivaExamSitting *sitting;

      if (clock == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("The defense could not go on."));
          return FALSE;
        }
      if (!(sitting = viva_server_clock_get_sitting (clock, json_object_get_string_member (row, "exam_id"),
                                                     json_object_get_string_member (row, "student_id"), error)))
        return FALSE;
      return start_row (self, row, epoch, sitting, TRUE, error);
    }

  /* The database's checkpoint is the one that counts. */
  session_dir = g_build_filename (dir, session_id, NULL);
  path = g_build_filename (session_dir, "checkpoint.json", NULL);
  file = g_file_new_for_path (path);
  bytes = g_bytes_new (checkpoint, strlen (checkpoint));
  if (!viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, error))
    return FALSE;

  if (!(session = viva_exam_session_load (dir, session_id, error)) ||
      !(live = live_new (self, row, code, session, error)))
    return FALSE;
  live->epoch = epoch;
  if (!live_prepare (live, error))
    {
      g_hash_table_remove (self->live, json_object_get_string_member (row, "id"));
      return FALSE;
    }
  live->saved_checkpoint = json_node_ref (viva_exam_session_get_checkpoint (live->session));
  _viva_server_defense_recall (live);
  /* What the PC sent since the checkpoint (to the node before, or while
   * nobody ran it). */
  _viva_server_defenses_take_timeline (live);

  viva_defense_run_async (live->defense, live->cancellable, done_cb, g_strdup (live->id));
  return TRUE;
}

guint
viva_server_defenses_get_n_live (VivaServerDefenses *self)
{
  return g_hash_table_size (self->live);
}

static void
viva_server_defenses_dispose (GObject *object)
{
  VivaServerDefenses *self = (VivaServerDefenses *)object;

  g_clear_handle_id (&self->lease_id, g_source_remove);
  if (self->answers_listen_id != 0)
    viva_server_db_unlisten (viva_server_store_get_db (viva_server_api_get_store (self->api)), self->answers_listen_id);
  self->answers_listen_id = 0;
  if (self->timeline_listen_id != 0)
    viva_server_db_unlisten (viva_server_store_get_db (viva_server_api_get_store (self->api)), self->timeline_listen_id);
  self->timeline_listen_id = 0;
  g_clear_pointer (&self->follow, viva_server_follow_free);
  g_hash_table_remove_all (self->live);

  G_OBJECT_CLASS (viva_server_defenses_parent_class)->dispose (object);
}

static void
viva_server_defenses_finalize (GObject *object)
{
  VivaServerDefenses *self = (VivaServerDefenses *)object;

  g_clear_pointer (&self->live, g_hash_table_unref);
  g_clear_pointer (&self->endpoints, g_hash_table_unref);
  g_clear_pointer (&self->examiner, json_object_unref);
  g_clear_pointer (&self->holder, g_free);
  g_clear_pointer (&self->unresumable, g_hash_table_unref);

  G_OBJECT_CLASS (viva_server_defenses_parent_class)->finalize (object);
}

static void
viva_server_defenses_class_init (VivaServerDefensesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_server_defenses_dispose;
  object_class->finalize = viva_server_defenses_finalize;

  /**
   * VivaServerDefenses::event:
   * @defense_id: the defense
   * @seq: the event's sequence number, committed
   * @kind: `state`, `content`, `tool_call`, `tool_result`, `question`,
   *   `answer`, `refused`, `verdict`, `error` or `finished`
   * @data: the event, as kept (the teacher's view)
   */
  signals[EVENT] =
    g_signal_new ("event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_STRING, JSON_TYPE_OBJECT);
}

static void
viva_server_defenses_init (VivaServerDefenses *self)
{
  self->live = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify)live_free);
  self->endpoints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->unresumable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

VivaServerDefenses *
viva_server_defenses_new (VivaServerApi *api,
                          JsonObject    *examiner)
{
  VivaServerDefenses *self = g_object_new (VIVA_TYPE_SERVER_DEFENSES, NULL);

  self->api = api;
  if (examiner != NULL)
    self->examiner = json_object_ref (examiner);
  return self;
}
