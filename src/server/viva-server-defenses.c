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
#include "viva-server-defenses-private.h"
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
 * one that counts. */

struct _VivaServerDefenses
{
  GObject        parent_instance;
  VivaServerApi *api;              /* unowned: the api owns this */
  JsonObject    *examiner;         /* the server's model settings, or NULL */
  GHashTable    *endpoints;        /* exam id → VivaExamEndpoint */
  GHashTable    *live;             /* id → VivaServerLive */
  char          *holder;           /* this node's id, the leases' holder */
  guint          lease_id;
  GHashTable    *unresumable;      /* ids that could not continue: not tried again */
};

/* Several nodes over one database: a node runs a live defense only while
 * it holds the defense's lease, renewed a few times per lease. A node
 * that dies stops renewing; once its lease has run out another node's
 * tick takes it and continues the defense from the database's checkpoint,
 * as a restarted node does. A node that finds its lease taken (it stalled
 * past it) drops the defense without writing anything more. Between its
 * last renewal and noticing, a stalled node may still keep an event: the
 * window is one tick. */
#define DEFENSE_LEASE_MS 6000

static guint
defense_lease_ms (void)
{
  return g_getenv ("VIVA_SERVER_LEASE_MS") ? viva_server_pool_lease_ms () : DEFENSE_LEASE_MS;
}

static char *
lease_resource (const char *defense_id)
{
  return g_strconcat ("defense/", defense_id, NULL);
}

/* Takes or renews the lease: 1 when this node holds it now, 0 when
 * another node does, -1 when the database did not answer (then nobody
 * could take it either: a running defense goes on). Without a holder
 * every defense is this node's. */
static int
take_lease (VivaServerDefenses *self,
            const char         *defense_id)
{
  g_autofree char *resource = lease_resource (defense_id);
  g_autoptr(GError) error = NULL;
  gint64 epoch;

  if (self->holder == NULL)
    return 1;
  epoch = viva_server_store_take_lease (viva_server_api_get_store (self->api), resource, self->holder,
                                        defense_lease_ms (), &error);
  if (epoch < 0)
    g_message ("defense %s: lease not renewed: %s", defense_id, error->message);
  return epoch > 0 ? 1 : epoch == 0 ? 0 : -1;
}

static gboolean
hold_lease (VivaServerDefenses *self,
            const char         *defense_id)
{
  return take_lease (self, defense_id) == 1;
}

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
  g_clear_pointer (&live->told_steps, g_hash_table_unref);
  g_free (live);
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
  g_signal_emit (self, signals[EVENT], 0, defense_id, seq, kind, data);
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
  if (self == NULL || !(live = g_hash_table_lookup (self->live, id)))
    return;

  _viva_server_defense_flush (live);

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
      g_autofree char *resource = lease_resource (id);

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

/* The one rule, as the server has it: the exam's examiner, else the lab's
 * model server set on the server (students never see or reach either),
 * else the offline examiner. One endpoint per exam. */
static VivaExamEndpoint *
endpoint_for (VivaServerDefenses *self,
              VivaExamFile       *exam)
{
  const char *base_url = NULL, *model = NULL;
  VivaExamEndpoint *endpoint;

  if ((endpoint = g_hash_table_lookup (self->endpoints, viva_exam_file_get_id (exam))))
    return endpoint;

  if (viva_exam_file_get_base_url (exam) != NULL)
    {
      base_url = viva_exam_file_get_base_url (exam);
      model = viva_exam_file_get_model (exam);
    }
  else if (self->examiner != NULL)
    {
      base_url = json_object_get_string_member_with_default (self->examiner, "base_url", NULL);
      model = json_object_get_string_member_with_default (self->examiner, "model", NULL);
    }

  if (base_url == NULL ||
      (viva_exam_file_has_examiner (exam) && viva_exam_file_get_examiner_mode (exam) == VIVA_EXAMINER_MODE_OFFLINE))
    endpoint = viva_exam_endpoint_new_offline (NULL);
  else
    endpoint = viva_exam_endpoint_new_for_endpoint (NULL, base_url, model);

  g_hash_table_insert (self->endpoints, g_strdup (viva_exam_file_get_id (exam)), endpoint);
  return endpoint;
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
  g_autoptr(VivaTextCodeSource) source = NULL;
  g_autoptr(VivaDefense) defense = NULL;
  VivaExamEndpoint *endpoint;
  VivaExamFile *exam;
  VivaProblem *problem;
  VivaPack *pack;
  VivaServerLive *live;
  const char *exam_id = json_object_get_string_member (row, "exam_id");
  const char *problem_id = json_object_get_string_member (row, "problem_id");

  if (!(exam = viva_server_api_get_exam (self->api, exam_id, error)))
    return NULL;
  pack = viva_exam_file_get_pack (exam);
  if (!(problem = viva_pack_find_problem (pack, problem_id)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The exam has no problem “%s”."), problem_id);
      return NULL;
    }

  endpoint = endpoint_for (self, exam);
  source = viva_text_code_source_new (code);
  if (session == NULL)
    defense = viva_defense_new (endpoint, problem, VIVA_CODE_SOURCE (source));
  else if (!(defense = viva_defense_new_for_session (endpoint, session, problem, VIVA_CODE_SOURCE (source), error)))
    return NULL;

  viva_defense_set_pack_ref (defense, viva_exam_file_get_pack_id (exam), NULL, viva_pack_get_language (pack));
  viva_defense_set_language (defense, viva_exam_file_get_language (exam)
                                      ? viva_exam_file_get_language (exam)
                                      : viva_pack_get_language (pack));

  live = g_new0 (VivaServerLive, 1);
  live->self = self;
  live->id = g_strdup (json_object_get_string_member (row, "id"));
  live->exam_id = g_strdup (exam_id);
  live->student_id = g_strdup (json_object_get_string_member (row, "student_id"));
  live->problem_id = g_strdup (problem_id);
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
  g_object_set_data (G_OBJECT (live->session), "viva-server-defenses", live->self);
  _viva_server_defense_watch (live);
  return TRUE;
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
  VivaServerStore *store = viva_server_api_get_store (self->api);
  VivaServerClock *clock = viva_server_api_get_clock (self->api);
  g_autofree char *id = viva_server_keys_random_id ();
  g_autofree char *dir = sessions_dir (self);
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(VivaExamSession) session = NULL;
  VivaExamSitting *sitting;
  VivaServerLive *live;

  g_return_val_if_fail (VIVA_IS_SERVER_DEFENSES (self), NULL);
  g_return_val_if_fail (clock != NULL, NULL);

  /* The lease first: no other node's tick can take the new row for one
   * left by a dead node. */
  if (!hold_lease (self, id))
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_BUSY, "%s",
                   _("The exam server’s database is not answering; the server keeps trying."));
      return NULL;
    }
  if (!(sitting = viva_server_clock_get_sitting (clock, exam_id, student_id, error)) ||
      !viva_server_store_add_defense (store, id, exam_id, student_id, problem_id, code, handed_in, error) ||
      !(row = viva_server_store_get_defense (store, id, error)) ||
      !(live = live_new (self, row, code, NULL, error)))
    return NULL;

  /* The session is stamped by the sitting, as the app's is. */
  session = viva_exam_session_new (dir);
  viva_exam_sitting_stamp_session (sitting, session);
  viva_defense_set_session (live->defense, session);

  if (!live_prepare (live, error) ||
      !viva_server_store_set_defense_session (store, id, viva_exam_session_get_id (session), error))
    {
      g_hash_table_remove (self->live, id);
      return NULL;
    }

  viva_server_clock_defense_started (clock, exam_id, student_id, problem_id);
  viva_defense_run_async (live->defense, live->cancellable, done_cb, g_strdup (id));
  return g_steal_pointer (&id);
}

static gboolean
resume_one (VivaServerDefenses  *self,
            JsonObject          *row,
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
      /* Killed before its first step was kept: it starts again, from the
       * code the student submitted. */
      g_autoptr(JsonObject) fresh = json_object_ref (row);
      VivaServerStore *store = viva_server_api_get_store (self->api);
      g_autofree char *id = NULL;

      if (!viva_server_store_set_defense_state (store, json_object_get_string_member (row, "id"), "restarted", error))
        return FALSE;
      id = viva_server_defenses_start (self, json_object_get_string_member (fresh, "exam_id"),
                                       json_object_get_string_member (fresh, "student_id"),
                                       json_object_get_string_member (fresh, "problem_id"), code,
                                       json_object_get_int_member (fresh, "handed_in") != 0, error);
      return id != NULL;
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
  if (!live_prepare (live, error))
    {
      g_hash_table_remove (self->live, json_object_get_string_member (row, "id"));
      return FALSE;
    }
  live->saved_checkpoint = json_node_ref (viva_exam_session_get_checkpoint (live->session));
  _viva_server_defense_recall (live);

  viva_defense_run_async (live->defense, live->cancellable, done_cb, g_strdup (live->id));
  return TRUE;
}

/**
 * viva_server_defenses_resume_all:
 *
 * Continues every defense the database says was live.
 *
 * Returns: how many were continued
 */
guint
viva_server_defenses_resume_all (VivaServerDefenses  *self,
                                 GError             **error)
{
  g_autoptr(JsonArray) rows = NULL;
  guint n = 0;

  if (!(rows = viva_server_store_list_live_defenses (viva_server_api_get_store (self->api), error)))
    return 0;

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      const char *id = json_object_get_string_member (row, "id");
      g_autoptr(GError) local = NULL;

      /* Another node's, while it lives; or running here already; or one
       * that could not continue (said once). */
      if (g_hash_table_contains (self->live, id) || g_hash_table_contains (self->unresumable, id) ||
          !hold_lease (self, id))
        continue;
      if (resume_one (self, row, &local))
        n++;
      else
        {
          g_warning ("defense %s could not continue: %s", id, local->message);
          g_hash_table_add (self->unresumable, g_strdup (id));
        }
    }
  return n;
}

static gboolean
lease_tick_cb (gpointer user_data)
{
  VivaServerDefenses *self = user_data;
  g_autoptr(GPtrArray) lost = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  const char *id;
  VivaServerLive *live;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, (gpointer *)&id, (gpointer *)&live))
    if (take_lease (self, id) == 0)
      g_ptr_array_add (lost, g_strdup (id));
  for (guint i = 0; i < lost->len; i++)
    {
      live = g_hash_table_lookup (self->live, lost->pdata[i]);
      g_message ("defense %s: another node holds it now; dropping it here", (char *)lost->pdata[i]);
      /* Nothing more from here: the other node writes from now on. */
      _viva_server_defense_unwatch (live);
      g_hash_table_remove (self->live, lost->pdata[i]);
    }

  /* A dead node's defenses, their leases run out: continued here. */
  viva_server_defenses_resume_all (self, &error);
  if (error != NULL)
    g_message ("defenses: %s", error->message);
  return G_SOURCE_CONTINUE;
}

/**
 * viva_server_defenses_set_holder:
 * @holder: this node's id
 *
 * From now on this node runs only the defenses whose lease it holds,
 * renews them, and continues those a dead node left (see above). Call
 * before viva_server_defenses_resume_all().
 */
void
viva_server_defenses_set_holder (VivaServerDefenses *self,
                                 const char         *holder)
{
  g_return_if_fail (VIVA_IS_SERVER_DEFENSES (self));
  g_return_if_fail (self->holder == NULL);

  self->holder = g_strdup (holder);
  self->lease_id = g_timeout_add (MIN (2000, defense_lease_ms () / 3), lease_tick_cb, self);
}

gboolean
viva_server_defenses_answer (VivaServerDefenses  *self,
                             const char          *defense_id,
                             const char          *text,
                             gint64               question_seq,
                             GError             **error)
{
  VivaServerLive *live = g_hash_table_lookup (self->live, defense_id);

  if (live == NULL || live->pending == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("No question is waiting for an answer in this defense."));
      return FALSE;
    }
  if (question_seq > 0 && question_seq != live->pending_seq)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("That question was answered already: fetch the defense’s events for the one waiting now."));
      return FALSE;
    }
  return viva_examiner_answer (live->examiner, text, error);
}

gboolean
viva_server_defenses_is_live (VivaServerDefenses *self,
                              const char         *defense_id)
{
  return g_hash_table_contains (self->live, defense_id);
}

/**
 * viva_server_defenses_is_running:
 *
 * Returns: whether a defense of the student's problem runs now
 */
gboolean
viva_server_defenses_is_running (VivaServerDefenses *self,
                                 const char         *exam_id,
                                 const char         *student_id,
                                 const char         *problem_id)
{
  GHashTableIter iter;
  VivaServerLive *live;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&live))
    if (g_str_equal (live->exam_id, exam_id) && g_str_equal (live->student_id, student_id) &&
        g_str_equal (live->problem_id, problem_id))
      return TRUE;
  return FALSE;
}

const char *
viva_server_defenses_get_pending (VivaServerDefenses *self,
                                  const char         *defense_id,
                                  gint64             *question_seq)
{
  VivaServerLive *live = g_hash_table_lookup (self->live, defense_id);

  if (live == NULL)
    return NULL;
  if (question_seq != NULL)
    *question_seq = live->pending_seq;
  return live->pending;
}

guint
viva_server_defenses_get_n_live (VivaServerDefenses *self)
{
  return g_hash_table_size (self->live);
}

/**
 * viva_server_defenses_time_up:
 *
 * The student's time is up: every live defense of theirs answers its
 * questions for them from here on.
 */
void
viva_server_defenses_time_up (VivaServerDefenses *self,
                              const char         *exam_id,
                              const char         *student_id)
{
  GHashTableIter iter;
  VivaServerLive *live;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&live))
    {
      if (!g_str_equal (live->exam_id, exam_id) || !g_str_equal (live->student_id, student_id))
        continue;
      live->auto_answer = TRUE;
      if (live->pending != NULL)
        _viva_server_defenses_answer_later (live);
    }
}

static void
viva_server_defenses_dispose (GObject *object)
{
  VivaServerDefenses *self = (VivaServerDefenses *)object;

  g_clear_handle_id (&self->lease_id, g_source_remove);
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
