/* test-server-pool.c: several nodes over one database — leases and the job
 * queue, raced by threads that each hold their own connection, as nodes do
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>

#include "server-postgres.h"
#include "viva-server-store-live.h"
#include "viva-server-store-pool.h"

#define RACERS 6
#define JOBS   24

static char *state_dir;
static char *database;   /* NULL: SQLite in state_dir */

static VivaServerStore *
open_store (void)
{
  g_autoptr(GError) error = NULL;
  VivaServerStore *store = viva_server_store_open_database (state_dir, database, &error);

  g_assert_no_error (error);
  return store;
}

static void
fresh_database (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *rm = NULL;

  if (state_dir != NULL)
    {
      rm = g_strdup_printf ("rm -rf '%s'", state_dir);
      g_assert_cmpint (system (rm), ==, 0);
    }
  g_clear_pointer (&state_dir, g_free);
  g_clear_pointer (&database, g_free);
  state_dir = g_dir_make_tmp ("viva-server-pool-XXXXXX", &error);
  g_assert_no_error (error);
  if (server_postgres_wanted ())
    database = server_postgres_new_database (FALSE);
}

typedef struct
{
  GMutex   lock;
  GCond    go;
  gboolean started;
  guint    ready;
} Start;

static Start start;

/* Every racer waits here until all are connected, then all go at once. */
static void
wait_for_start (void)
{
  g_mutex_lock (&start.lock);
  start.ready++;
  g_cond_broadcast (&start.go);
  while (!start.started)
    g_cond_wait (&start.go, &start.lock);
  g_mutex_unlock (&start.lock);
}

static void
start_all (guint n)
{
  g_mutex_lock (&start.lock);
  while (start.ready < n)
    g_cond_wait (&start.go, &start.lock);
  start.started = TRUE;
  g_cond_broadcast (&start.go);
  g_mutex_unlock (&start.lock);
}

static void
reset_start (void)
{
  start.started = FALSE;
  start.ready = 0;
}

static gpointer
race_lease (gpointer data)
{
  g_autoptr(VivaServerStore) store = open_store ();
  g_autofree char *holder = g_strdup_printf ("node-%u", GPOINTER_TO_UINT (data));
  g_autoptr(GError) error = NULL;
  gint64 epoch;

  wait_for_start ();
  epoch = viva_server_store_take_lease (store, "defense/d1", holder, 60000, &error);
  g_assert_no_error (error);
  return GINT_TO_POINTER ((int)epoch);
}

/* Nodes racing for one defense: exactly one wins; the others see it
 * held. When the winner stops renewing, one other takes it over, with a
 * new epoch. */
static void
test_lease_race (void)
{
  GThread *threads[RACERS];
  guint winners = 0;
  gint64 epoch = 0;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonArray) leases = NULL;
  g_autoptr(GError) error = NULL;
  const char *holder;

  fresh_database ();
  store = open_store ();
  reset_start ();
  for (guint i = 0; i < RACERS; i++)
    threads[i] = g_thread_new ("racer", race_lease, GUINT_TO_POINTER (i));
  start_all (RACERS);
  for (guint i = 0; i < RACERS; i++)
    {
      gint64 got = GPOINTER_TO_INT (g_thread_join (threads[i]));

      g_assert_cmpint (got, >=, 0);
      if (got > 0)
        {
          winners++;
          epoch = got;
        }
    }
  g_assert_cmpuint (winners, ==, 1);
  g_assert_cmpint (epoch, ==, 1);

  leases = viva_server_store_list_leases (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (leases), ==, 1);
  holder = json_object_get_string_member (json_array_get_object_element (leases, 0), "holder");

  /* The holder renews: same epoch. Another asks: held. */
  g_assert_cmpint (viva_server_store_take_lease (store, "defense/d1", holder, 60000, &error), ==, 1);
  g_assert_cmpint (viva_server_store_take_lease (store, "defense/d1", "node-other", 60000, &error), ==, 0);

  /* The holder dies: its lease runs out and another takes it. */
  g_assert_cmpint (viva_server_store_take_lease (store, "defense/d1", holder, 1, &error), ==, 1);
  g_usleep (20 * 1000);
  g_assert_cmpint (viva_server_store_take_lease (store, "defense/d1", "node-other", 60000, &error), ==, 2);
  g_assert_cmpint (viva_server_store_take_lease (store, "defense/d1", holder, 60000, &error), ==, 0);
  g_assert_no_error (error);
}

static void
add_exam (VivaServerStore *store)
{
  g_autoptr(JsonObject) exam = json_object_new ();
  g_autoptr(JsonArray) roster = json_array_new ();
  g_autoptr(GError) error = NULL;

  json_object_set_string_member (exam, "id", "pool-exam");
  json_object_set_string_member (exam, "title", "Pool");
  json_object_set_string_member (exam, "exam_json", "{}");
  json_object_set_string_member (exam, "digest", "0");
  json_object_set_int_member (exam, "time_limit", 0);
  json_object_set_string_member (exam, "show_verdict", "immediately");
  json_object_set_string_member (exam, "teacher_token_hash", "t");
  g_assert_true (viva_server_store_add_exam (store, exam, roster, &error));
  g_assert_no_error (error);
}

static gpointer
drain_queue (gpointer data)
{
  g_autoptr(VivaServerStore) store = open_store ();
  g_autofree char *claimer = g_strdup_printf ("worker-%u", GPOINTER_TO_UINT (data));
  GPtrArray *claimed = g_ptr_array_new_with_free_func (g_free);

  wait_for_start ();
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) job = viva_server_store_claim_job (store, "pool-exam", claimer, 60000, &error);

      g_assert_no_error (error);
      if (job == NULL)
        break;
      g_ptr_array_add (claimed, g_strdup (json_object_get_string_member (job, "id")));
      g_assert_true (viva_server_store_finish_job (store, json_object_get_string_member (job, "id"),
                                                   json_object_get_string_member (job, "claim_id"), claimer,
                                                   "{\"ok\":true}", &error));
      g_assert_no_error (error);
    }
  return claimed;
}

/* Workers draining one queue at once: every job is claimed by exactly
 * one of them and done once. */
static void
test_queue_race (void)
{
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;
  GThread *threads[RACERS];
  guint total = 0;

  fresh_database ();
  store = open_store ();
  add_exam (store);
  for (guint i = 0; i < JOBS; i++)
    {
      g_autofree char *id = g_strdup_printf ("job-%02u", i);
      g_autoptr(JsonObject) payload = json_object_new ();

      g_assert_true (viva_server_store_enqueue_job (store, id, "pool-exam", "grade", NULL, payload, &error));
    }

  reset_start ();
  for (guint i = 0; i < RACERS; i++)
    threads[i] = g_thread_new ("worker", drain_queue, GUINT_TO_POINTER (i));
  start_all (RACERS);
  for (guint i = 0; i < RACERS; i++)
    {
      g_autoptr(GPtrArray) claimed = g_thread_join (threads[i]);

      for (guint j = 0; j < claimed->len; j++)
        {
          g_assert_false (g_hash_table_contains (seen, claimed->pdata[j]));
          g_hash_table_add (seen, g_strdup (claimed->pdata[j]));
          total++;
        }
    }
  g_assert_cmpuint (total, ==, JOBS);

  summary = viva_server_store_queue_summary (store, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (summary, "done"), ==, JOBS);
  g_assert_cmpint (json_object_get_int_member (summary, "waiting"), ==, 0);
}

/* A defense's code run is claimed before any grading, however long the
 * gradings have waited; a claimer of one kind gets that kind alone; the
 * queue counts waiting and running by kind. */
static void
test_runs_first (void)
{
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const expected[] = { "run-1", "run-2", "grade-2" };
  JsonObject *kinds;

  fresh_database ();
  store = open_store ();
  add_exam (store);
  g_assert_true (viva_server_store_enqueue_job (store, "grade-1", "pool-exam", "grade", NULL, payload, &error));
  g_assert_true (viva_server_store_enqueue_job (store, "grade-2", "pool-exam", "grade", NULL, payload, &error));
  g_usleep (2 * 1000);
  g_assert_true (viva_server_store_enqueue_job (store, "run-1", "pool-exam", "run", "defense/d", payload, &error));
  g_usleep (2 * 1000);
  g_assert_true (viva_server_store_enqueue_job (store, "run-2", "pool-exam", "run", "defense/d", payload, &error));

  summary = viva_server_store_queue_summary (store, &error);
  g_assert_no_error (error);
  kinds = json_object_get_object_member (summary, "kinds");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (kinds, "run"), "waiting"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (kinds, "grade"), "waiting"), ==, 2);
  g_clear_pointer (&summary, json_object_unref);

  /* A grading claimer skips the runs. */
  {
    g_autoptr(JsonObject) job = viva_server_store_claim_job_of_kind (store, "pool-exam", "grade", "g", 60000, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (job, "id"), ==, "grade-1");
    g_assert_true (viva_server_store_finish_job (store, "grade-1", json_object_get_string_member (job, "claim_id"),
                                                 "g", "{}", &error));
  }
  summary = viva_server_store_queue_summary (store, &error);
  kinds = json_object_get_object_member (summary, "kinds");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (kinds, "grade"), "waiting"), ==, 1);

  /* Any claimer: the runs first, then the gradings, oldest first. */
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(JsonObject) job = viva_server_store_claim_job (store, NULL, "any", 60000, &error);

      g_assert_no_error (error);
      g_assert_nonnull (job);
      g_assert_cmpstr (json_object_get_string_member (job, "id"), ==, expected[i]);
      if (i == 0)
        {
          g_clear_pointer (&summary, json_object_unref);
          summary = viva_server_store_queue_summary (store, &error);
          kinds = json_object_get_object_member (summary, "kinds");
          g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (kinds, "run"), "running"), ==, 1);
          g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (kinds, "run"), "waiting"), ==, 1);
        }
    }
}

/* A claimer that hangs: its lease runs out, another claims the job and
 * records the result; the first one's late renewal and result are refused,
 * so the result is the second's, recorded once. Only the token's exam's
 * jobs are claimed. */
static void
test_hung_claimer (void)
{
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autoptr(JsonObject) first = NULL;
  g_autoptr(JsonObject) second = NULL;
  g_autoptr(JsonObject) none = NULL;
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;

  fresh_database ();
  store = open_store ();
  add_exam (store);
  g_assert_true (viva_server_store_enqueue_job (store, "job-a", "pool-exam", "grade", NULL, payload, &error));

  none = viva_server_store_claim_job (store, "another-exam", "w0", 60000, &error);
  g_assert_no_error (error);
  g_assert_null (none);

  first = viva_server_store_claim_job (store, "pool-exam", "w1", 30, &error);
  g_assert_no_error (error);
  g_assert_nonnull (first);
  g_assert_true (viva_server_store_renew_job (store, "job-a", json_object_get_string_member (first, "claim_id"),
                                              30, &error));
  g_assert_no_error (error);

  /* Held: nobody else gets it. */
  g_clear_pointer (&none, json_object_unref);
  none = viva_server_store_claim_job (store, NULL, "w2", 60000, &error);
  g_assert_no_error (error);
  g_assert_null (none);

  g_usleep (60 * 1000);
  summary = viva_server_store_queue_summary (store, &error);
  g_assert_cmpint (json_object_get_int_member (summary, "expired"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "oldest_wait_ms"), >, 0);

  second = viva_server_store_claim_job (store, NULL, "w2", 60000, &error);
  g_assert_no_error (error);
  g_assert_nonnull (second);
  g_assert_cmpstr (json_object_get_string_member (second, "id"), ==, "job-a");
  g_assert_cmpint (json_object_get_int_member (second, "attempts"), ==, 2);

  g_assert_false (viva_server_store_renew_job (store, "job-a", json_object_get_string_member (first, "claim_id"),
                                               30, &error));
  g_assert_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT);
  g_clear_error (&error);

  g_assert_true (viva_server_store_finish_job (store, "job-a", json_object_get_string_member (second, "claim_id"),
                                               "w2", "{\"by\":\"w2\"}", &error));
  g_assert_no_error (error);
  g_assert_false (viva_server_store_finish_job (store, "job-a", json_object_get_string_member (first, "claim_id"),
                                                "w1", "{\"by\":\"w1\"}", &error));
  g_assert_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT);
  g_clear_error (&error);
  /* The same claim again (a retried request): no change, no error. */
  g_assert_true (viva_server_store_finish_job (store, "job-a", json_object_get_string_member (second, "claim_id"),
                                               "w2", "{\"by\":\"w2\"}", &error));

  job = viva_server_store_get_job (store, "job-a", &error);
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "done");
  g_assert_cmpstr (json_object_get_string_member (job, "result"), ==, "{\"by\":\"w2\"}");
  g_assert_cmpstr (json_object_get_string_member (job, "finished_by"), ==, "w2");
}

/* An exam of one student, signed in. */
static void
add_signed_in_exam (VivaServerStore *store)
{
  g_autoptr(JsonObject) exam = json_object_new ();
  g_autoptr(JsonArray) roster = json_array_new ();
  g_autoptr(JsonObject) student = json_object_new ();
  g_autoptr(GError) error = NULL;

  json_object_set_string_member (exam, "id", "pool-exam");
  json_object_set_string_member (exam, "title", "Pool");
  json_object_set_string_member (exam, "exam_json", "{}");
  json_object_set_string_member (exam, "digest", "0");
  json_object_set_int_member (exam, "time_limit", 0);
  json_object_set_string_member (exam, "show_verdict", "immediately");
  json_object_set_string_member (exam, "teacher_token_hash", "t");
  json_object_set_string_member (student, "student_id", "s1");
  json_object_set_string_member (student, "name", "Ann");
  json_object_set_string_member (student, "seat_code", "AAAA-BBBB");
  json_array_add_object_element (roster, json_object_ref (student));
  g_assert_true (viva_server_store_add_exam (store, exam, roster, &error));
  g_assert_true (viva_server_store_sign_in (store, "pool-exam", "s1", "hash", 0, &error));
  g_assert_no_error (error);
}

static gint64
count_rows (VivaServerStore *store,
            const char      *sql)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) rows = viva_server_db_queryf (viva_server_store_get_db (store), &error, sql, "");

  g_assert_no_error (error);
  return json_object_get_int_member (json_array_get_object_element (rows, 0), "n");
}

/* A Submit keeps its submission, enqueues its grading and writes its
 * defense naming that job as its grade in one transaction: a node killed
 * anywhere in Submit leaves all three or none. Shown by a defense whose
 * row cannot be written (its id is taken): nothing of that submission is
 * kept, neither its snapshot nor its job. Before, a node killed between
 * the two commits left a job no defense knew: the app's retried Submit
 * kept a second submission and graded it again, or (killed after the
 * defense's row) the defense enqueued a grading of its own at its end. */
static void
test_submission_one_commit (void)
{
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) defense = NULL;
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *job_id = NULL;
  g_autofree char *again = NULL;

  fresh_database ();
  store = open_store ();
  add_signed_in_exam (store);

  g_assert_cmpint (viva_server_store_save_submission (store, "pool-exam", "s1", "p1", "code", "d1", &job_id, &error),
                   ==, 1);
  g_assert_no_error (error);
  defense = viva_server_store_get_defense (store, "d1", &error);
  g_assert_nonnull (defense);
  g_assert_cmpstr (json_object_get_string_member (defense, "grade_job"), ==, job_id);
  g_assert_cmpstr (json_object_get_string_member (defense, "state"), ==, "starting");
  g_assert_cmpstr (json_object_get_string_member (defense, "code"), ==, "code");
  job = viva_server_store_get_job (store, job_id, &error);
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "waiting");
  g_assert_cmpstr (json_object_get_string_member (job, "subject"), ==, "snapshot/s1/1");

  g_assert_cmpint (viva_server_store_save_submission (store, "pool-exam", "s1", "p1", "other", "d1", &again, &error),
                   ==, -1);
  g_assert_nonnull (error);
  g_assert_null (again);
  g_assert_cmpint (count_rows (store, "SELECT COUNT(*) AS n FROM snapshots"), ==, 1);
  g_assert_cmpint (count_rows (store, "SELECT COUNT(*) AS n FROM jobs"), ==, 1);
  g_assert_cmpint (count_rows (store, "SELECT COUNT(*) AS n FROM defenses"), ==, 1);
}

/* The fencing token: node-a's writes carry the epoch it took the lease
 * at; once node-b took it over (a-s lease ran out while a stalled), a's
 * event, state and checkpoint are refused in their own transaction and
 * nothing of them is kept, while b's go in. An answer kept by any node
 * waits for the pending question and is consumed once, by the answer
 * event of whoever holds the lease. */
static void
test_fence (void)
{
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) data = json_object_new ();
  g_autoptr(JsonObject) waiting = NULL;
  g_autoptr(JsonObject) defense = NULL;
  g_autoptr(JsonArray) events = NULL;
  g_autoptr(GError) error = NULL;
  VivaServerFence a = { "defense/d1", "node-a", 0 };
  VivaServerFence b = { "defense/d1", "node-b", 0 };
  gint64 seq, question;

  fresh_database ();
  store = open_store ();
  add_signed_in_exam (store);
  g_assert_true (viva_server_store_add_defense (store, "d1", "pool-exam", "s1", "p1", "code", FALSE, &error));
  g_assert_no_error (error);

  a.epoch = viva_server_store_take_lease (store, "defense/d1", "node-a", 50, &error);
  g_assert_cmpint (a.epoch, >, 0);
  json_object_set_string_member (data, "question", "What does double(0) return?");
  question = viva_server_store_add_live_event (store, &a, "d1", "question", data, "{\"at\":1}", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (question, ==, 1);

  /* Any node keeps the answer; the same one twice is the same answer, a
   * second one to that question is refused. */
  g_assert_cmpint (viva_server_store_queue_answer (store, "d1", question, "zero", "node-c", &error), ==, question);
  g_assert_cmpint (viva_server_store_queue_answer (store, "d1", 0, "zero", "node-c", &error), ==, question);
  g_assert_cmpint (viva_server_store_queue_answer (store, "d1", question, "one", "node-c", &error), ==, -1);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  g_clear_error (&error);

  /* node-a stalls past its lease; node-b takes it. */
  g_usleep (80 * 1000);
  b.epoch = viva_server_store_take_lease (store, "defense/d1", "node-b", 60000, &error);
  g_assert_cmpint (b.epoch, >, a.epoch);

  seq = viva_server_store_add_live_event (store, &a, "d1", "answer", data, "{\"at\":2}", question, &error);
  g_assert_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FENCED);
  g_assert_cmpint (seq, ==, -1);
  g_clear_error (&error);
  g_assert_false (viva_server_store_set_live_state (store, &a, "d1", "finished", "{\"at\":3}", &error));
  g_assert_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FENCED);
  g_clear_error (&error);
  g_assert_false (viva_server_store_check_fence (store, &a, &error));
  g_assert_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FENCED);
  g_clear_error (&error);

  /* Nothing of a's kept: the answer still waits, the defense still runs
   * from the first checkpoint. */
  defense = viva_server_store_get_defense (store, "d1", &error);
  g_assert_cmpstr (json_object_get_string_member (defense, "checkpoint"), ==, "{\"at\":1}");
  g_assert_cmpstr (json_object_get_string_member (defense, "state"), ==, "starting");
  g_assert_cmpint (json_object_get_int_member (defense, "last_seq"), ==, 1);
  waiting = viva_server_store_waiting_answer (store, "d1", question, &error);
  g_assert_nonnull (waiting);
  g_assert_cmpstr (json_object_get_string_member (waiting, "text"), ==, "zero");
  g_clear_pointer (&waiting, json_object_unref);

  /* node-b's answer event consumes it, once. */
  json_object_set_string_member (data, "text", "zero");
  seq = viva_server_store_add_live_event (store, &b, "d1", "answer", data, "{\"at\":4}", question, &error);
  g_assert_no_error (error);
  g_assert_cmpint (seq, ==, 2);
  waiting = viva_server_store_waiting_answer (store, "d1", question, &error);
  g_assert_no_error (error);
  g_assert_null (waiting);
  g_assert_cmpint (viva_server_store_queue_answer (store, "d1", 0, "zero", "node-c", &error), ==, -1);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  g_clear_error (&error);

  events = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                  "SELECT seq, node_id FROM defense_events WHERE defense_id = $1 ORDER BY seq",
                                  "s", "d1");
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (events), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (events, 0), "node_id"), ==, "node-a");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (events, 1), "node_id"), ==, "node-b");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *reason = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  if (server_postgres_wanted () && !server_postgres_check (&reason))
    {
      g_print ("SKIP: %s\n", reason);
      return 77;
    }

  g_test_add_func ("/viva/server/pool/lease-race", test_lease_race);
  g_test_add_func ("/viva/server/pool/queue-race", test_queue_race);
  g_test_add_func ("/viva/server/pool/hung-claimer", test_hung_claimer);
  g_test_add_func ("/viva/server/pool/runs-first", test_runs_first);
  g_test_add_func ("/viva/server/pool/fence", test_fence);
  g_test_add_func ("/viva/server/pool/submission-one-commit", test_submission_one_commit);

  status = g_test_run ();
  if (state_dir != NULL)
    {
      g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", state_dir);

      g_assert_cmpint (system (rm), ==, 0);
    }
  return status;
}
