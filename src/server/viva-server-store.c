/* viva-server-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "viva-server-sqlite.h"
#include "viva-server-store-private.h"
#include "viva-server-store-pool.h"
#ifdef VIVA_SERVER_HAVE_POSTGRES
#include "viva-server-postgres.h"
#endif

/* Everything the exam server keeps, as portable SQL over a VivaServerDb.
 * Every change that belongs together is one transaction; a sequence number
 * is a counter on its parent row, raised by an UPDATE in the transaction
 * that adds the child, so two writers can never take the same number (on
 * PostgreSQL too, where the UPDATE locks the row). Times are milliseconds
 * since the epoch. */

G_DEFINE_FINAL_TYPE (VivaServerStore, viva_server_store, G_TYPE_OBJECT)

enum {
  JOB_ENQUEUED,
  JOB_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* One entry per schema version, never edited once released: a change is a
 * new entry. Each is a list of statements run in one transaction. */
static const char * const migration_1[] = {
  "CREATE TABLE exams ("
  " id TEXT PRIMARY KEY,"
  " title TEXT NOT NULL,"
  " exam_json TEXT NOT NULL,"
  " digest TEXT NOT NULL,"
  " time_limit BIGINT NOT NULL,"
  " show_verdict TEXT NOT NULL,"
  " teacher_token_hash TEXT NOT NULL,"
  " created_at BIGINT NOT NULL,"
  " closed_at BIGINT)",
  "CREATE TABLE roster ("
  " exam_id TEXT NOT NULL REFERENCES exams (id),"
  " student_id TEXT NOT NULL,"
  " name TEXT NOT NULL,"
  " seat_code TEXT NOT NULL,"
  " PRIMARY KEY (exam_id, student_id))",
  "CREATE TABLE tokens ("
  " token_hash TEXT PRIMARY KEY,"
  " exam_id TEXT NOT NULL REFERENCES exams (id),"
  " student_id TEXT,"
  " role TEXT NOT NULL,"
  " created_at BIGINT NOT NULL,"
  " revoked_at BIGINT)",
  "CREATE INDEX tokens_by_student ON tokens (exam_id, student_id)",
  "CREATE TABLE sittings ("
  " exam_id TEXT NOT NULL,"
  " student_id TEXT NOT NULL,"
  " started_at BIGINT NOT NULL,"
  " deadline BIGINT NOT NULL,"
  " signed_in_at BIGINT NOT NULL,"
  " sign_ins BIGINT NOT NULL,"
  " handed_in_at BIGINT,"
  " last_snapshot BIGINT NOT NULL,"
  " last_timeline BIGINT NOT NULL,"
  " PRIMARY KEY (exam_id, student_id),"
  " FOREIGN KEY (exam_id, student_id) REFERENCES roster (exam_id, student_id))",
  "CREATE TABLE snapshots ("
  " exam_id TEXT NOT NULL,"
  " student_id TEXT NOT NULL,"
  " seq BIGINT NOT NULL,"
  " problem_id TEXT NOT NULL,"
  " kind TEXT NOT NULL,"
  " code TEXT NOT NULL,"
  " saved_at BIGINT NOT NULL,"
  " PRIMARY KEY (exam_id, student_id, seq))",
  "CREATE TABLE timeline ("
  " exam_id TEXT NOT NULL,"
  " student_id TEXT NOT NULL,"
  " seq BIGINT NOT NULL,"
  " problem_id TEXT,"
  " event_json TEXT NOT NULL,"
  " received_at BIGINT NOT NULL,"
  " PRIMARY KEY (exam_id, student_id, seq))",
  "CREATE TABLE defenses ("
  " id TEXT PRIMARY KEY,"
  " exam_id TEXT NOT NULL,"
  " student_id TEXT NOT NULL,"
  " problem_id TEXT NOT NULL,"
  " state TEXT NOT NULL,"
  " session_id TEXT,"
  " code TEXT NOT NULL,"
  " handed_in BIGINT NOT NULL,"
  " checkpoint TEXT,"
  " last_seq BIGINT NOT NULL,"
  " created_at BIGINT NOT NULL,"
  " updated_at BIGINT NOT NULL,"
  " FOREIGN KEY (exam_id, student_id) REFERENCES sittings (exam_id, student_id))",
  "CREATE INDEX defenses_by_student ON defenses (exam_id, student_id)",
  "CREATE TABLE defense_events ("
  " defense_id TEXT NOT NULL REFERENCES defenses (id),"
  " seq BIGINT NOT NULL,"
  " kind TEXT NOT NULL,"
  " data TEXT NOT NULL,"
  " created_at BIGINT NOT NULL,"
  " PRIMARY KEY (defense_id, seq))",
  "CREATE TABLE reports ("
  " defense_id TEXT PRIMARY KEY REFERENCES defenses (id),"
  " exam_id TEXT NOT NULL,"
  " student_id TEXT NOT NULL,"
  " problem_id TEXT NOT NULL,"
  " report_json TEXT NOT NULL,"
  " signature TEXT NOT NULL,"
  " created_at BIGINT NOT NULL)",
  NULL
};

/* Several nodes over one database: the nodes alive, the leases they
 * hold (a live defense, renewed every few seconds), the grading pool's
 * queue (viva-server-store-pool.c). */
static const char * const migration_2[] = {
  "CREATE TABLE nodes ("
  " id TEXT PRIMARY KEY,"
  " address TEXT NOT NULL,"
  " started_at BIGINT NOT NULL,"
  " seen_at BIGINT NOT NULL)",
  "CREATE TABLE leases ("
  " resource TEXT PRIMARY KEY,"
  " holder TEXT NOT NULL,"
  " epoch BIGINT NOT NULL,"
  " expires_at BIGINT NOT NULL)",
  "CREATE TABLE jobs ("
  " id TEXT PRIMARY KEY,"
  " exam_id TEXT NOT NULL REFERENCES exams (id),"
  " kind TEXT NOT NULL,"
  " subject TEXT,"
  " payload TEXT NOT NULL,"
  " state TEXT NOT NULL,"
  " enqueued_at BIGINT NOT NULL,"
  " attempts BIGINT NOT NULL,"
  " claim_id TEXT,"
  " claimed_by TEXT,"
  " claimed_at BIGINT,"
  " lease_until BIGINT,"
  " result TEXT,"
  " finished_by TEXT,"
  " finished_at BIGINT)",
  "CREATE INDEX jobs_by_state ON jobs (state, enqueued_at)",
  NULL
};

/* The sitting's own state (VivaExamSitting's, as the app keeps it in a
 * file): who, since when, what was worked on and defended. */
static const char * const migration_3[] = {
  "ALTER TABLE sittings ADD COLUMN state_json TEXT",
  NULL
};

/* A node id is one serve process's (random at its start), so a node row
 * says which machine, state folder and process it is: a node started
 * again takes over the leases of its own dead predecessor at once. */
static const char * const migration_4[] = {
  "ALTER TABLE nodes ADD COLUMN host TEXT",
  "ALTER TABLE nodes ADD COLUMN home TEXT",
  "ALTER TABLE nodes ADD COLUMN pid BIGINT",
  NULL
};

/* Every node serves every student: an answer sent to a node that does not
 * run the defense waits in `answers` for the lease holder; each event
 * says which node wrote it (the fencing's record). */
static const char * const migration_5[] = {
  "CREATE TABLE answers ("
  " defense_id TEXT NOT NULL REFERENCES defenses (id),"
  " question_seq BIGINT NOT NULL,"
  " text TEXT NOT NULL,"
  " received_at BIGINT NOT NULL,"
  " received_by TEXT,"
  " consumed_at BIGINT,"
  " PRIMARY KEY (defense_id, question_seq))",
  "ALTER TABLE defense_events ADD COLUMN node_id TEXT",
  NULL
};

/* Re-grading on the server (viva-server-store-regrade.c): each re-grade
 * of an exam, its pool job per defense, and the signed report revisions
 * it made — a report is never rewritten, a re-grade is one more row. */
static const char * const migration_6[] = {
  "CREATE TABLE regrades ("
  " id TEXT PRIMARY KEY,"
  " exam_id TEXT NOT NULL REFERENCES exams (id),"
  " created_at BIGINT NOT NULL,"
  " total BIGINT NOT NULL)",
  "CREATE TABLE regrade_items ("
  " regrade_id TEXT NOT NULL REFERENCES regrades (id),"
  " defense_id TEXT NOT NULL REFERENCES defenses (id),"
  " job_id TEXT NOT NULL REFERENCES jobs (id),"
  " revision BIGINT,"
  " error TEXT,"
  " PRIMARY KEY (regrade_id, defense_id))",
  "CREATE TABLE report_revisions ("
  " defense_id TEXT NOT NULL REFERENCES defenses (id),"
  " revision BIGINT NOT NULL,"
  " exam_id TEXT NOT NULL,"
  " student_id TEXT NOT NULL,"
  " problem_id TEXT NOT NULL,"
  " regrade_id TEXT NOT NULL,"
  " report_json TEXT NOT NULL,"
  " signature TEXT NOT NULL,"
  " created_at BIGINT NOT NULL,"
  " PRIMARY KEY (defense_id, revision))",
  NULL
};

/* A PC's timeline events carry its own numbers (a random id per PC and
 * sitting, and a count), so a batch sent again after a lost answer is
 * taken once. Older events have neither. */
static const char * const migration_7[] = {
  "ALTER TABLE timeline ADD COLUMN client_id TEXT",
  "ALTER TABLE timeline ADD COLUMN client_seq BIGINT",
  "CREATE UNIQUE INDEX timeline_by_client ON timeline (exam_id, student_id, client_id, client_seq)",
  NULL
};

/* A defense's grading is the pool's job (the submission's, enqueued with
 * it; or one of its own at time-up): the defense names it, so a node that
 * continues the defense waits on the same job. */
static const char * const migration_8[] = {
  "ALTER TABLE defenses ADD COLUMN grade_job TEXT",
  NULL
};

static const char * const * const migrations[] = {
  migration_1,
  migration_2,
  migration_3,
  migration_4,
  migration_5,
  migration_6,
  migration_7,
  migration_8,
};

gint64
viva_server_store_now (void)
{
  return g_get_real_time () / 1000;
}

/* Applies migration @v (from 0), or finds that another node did: the
 * version's row is inserted first, so of two nodes starting together on
 * one PostgreSQL the second waits on that row and then fails on its key
 * (CONSTRAINT), rolls back and reads the version again. */
static gboolean
apply_migration (VivaServerStore  *self,
                 guint             v,
                 gboolean         *raced,
                 GError          **error)
{
  g_autoptr(GError) local = NULL;

  *raced = FALSE;
  if (!viva_server_db_begin (self->db, error))
    return FALSE;
  if (!viva_server_db_execf (self->db, &local,
                             "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                             "ii", (gint64)v + 1, viva_server_store_now ()))
    {
      viva_server_db_rollback (self->db);
      if (g_error_matches (local, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT))
        {
          *raced = TRUE;
          return TRUE;
        }
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  for (guint i = 0; migrations[v][i] != NULL; i++)
    if (!viva_server_db_execf (self->db, error, migrations[v][i], NULL))
      {
        viva_server_db_rollback (self->db);
        return FALSE;
      }
  if (!viva_server_db_commit (self->db, error))
    {
      viva_server_db_rollback (self->db);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_version (VivaServerStore  *self,
              guint            *version,
              GError          **error)
{
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(GError) local = NULL;

  row = viva_server_db_rowf (self->db, &local,
                             "SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations", NULL);
  if (row == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  *version = json_object_get_int_member (row, "version");
  return TRUE;
}

static gboolean
migrate (VivaServerStore  *self,
         GError          **error)
{
  g_autoptr(GError) local = NULL;
  guint version = 0;

  /* Two nodes making this table at once on PostgreSQL: the loser's
   * CREATE fails on the catalogue's key although the table is there. */
  if (!viva_server_db_execf (self->db, &local,
                             "CREATE TABLE IF NOT EXISTS schema_migrations ("
                             " version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)", NULL))
    {
      g_clear_error (&local);
      if (!viva_server_db_execf (self->db, error,
                                 "CREATE TABLE IF NOT EXISTS schema_migrations ("
                                 " version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)", NULL))
        return FALSE;
    }

  if (!read_version (self, &version, error))
    return FALSE;

  if (version > G_N_ELEMENTS (migrations))
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_SCHEMA,
                   _("The exam server’s database is of a newer Viva (schema %u, this one knows %u): run the newer viva-server."),
                   version, (guint)G_N_ELEMENTS (migrations));
      return FALSE;
    }

  while (version < G_N_ELEMENTS (migrations))
    {
      gboolean raced = FALSE;

      if (!apply_migration (self, version, &raced, error))
        return FALSE;
      if (!raced)
        version++;
      else if (!read_version (self, &version, error))
        return FALSE;
    }

  self->schema_version = G_N_ELEMENTS (migrations);
  return TRUE;
}

static void
viva_server_store_finalize (GObject *object)
{
  VivaServerStore *self = (VivaServerStore *)object;

  g_clear_object (&self->db);
  g_clear_pointer (&self->where, g_free);

  G_OBJECT_CLASS (viva_server_store_parent_class)->finalize (object);
}

static void
viva_server_store_class_init (VivaServerStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_server_store_finalize;

  /**
   * VivaServerStore::job-enqueued:
   * @exam_id: the job's exam
   *
   * A job was inserted into the queue, told from inside the transaction
   * that enqueues it: a handler claims later, from the main loop once that
   * transaction is over, never in it (a transaction rolled back leaves it
   * a claim that finds nothing). This process's claimers hear of a job at
   * once; other processes hear of it by the database's notification.
   */
  signals[JOB_ENQUEUED] = g_signal_new ("job-enqueued", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaServerStore::job-finished:
   * @job_id: the job whose result was recorded
   *
   * Told once a job's result is recorded in this process, so whoever waits
   * on it (a defense's code run, its grade) reads it at once; other
   * processes are told by the database's notification.
   */
  signals[JOB_FINISHED] = g_signal_new ("job-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

void
_viva_server_store_job_finished (VivaServerStore *self,
                                 const char      *job_id)
{
  g_signal_emit (self, signals[JOB_FINISHED], 0, job_id);
}

void
_viva_server_store_job_enqueued (VivaServerStore *self,
                                 const char      *exam_id)
{
  g_signal_emit (self, signals[JOB_ENQUEUED], 0, exam_id);
}

static void
viva_server_store_init (VivaServerStore *self)
{
}

VivaServerStore *
viva_server_store_new_for_db (VivaServerDb  *db,
                              GError       **error)
{
  g_autoptr(VivaServerStore) self = g_object_new (VIVA_TYPE_SERVER_STORE, NULL);

  g_return_val_if_fail (VIVA_IS_SERVER_DB (db), NULL);

  self->db = g_object_ref (db);
  if (!migrate (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * viva_server_store_is_postgres_link:
 *
 * Returns: whether @database names a PostgreSQL database
 */
gboolean
viva_server_store_is_postgres_link (const char *database)
{
  return database != NULL &&
         (g_str_has_prefix (database, "postgresql://") || g_str_has_prefix (database, "postgres://"));
}

/**
 * viva_server_store_open_database:
 * @state_dir: the server's state folder, made by `viva-server init`
 * @database: (nullable): %NULL for the folder's SQLite database, or a
 *   `postgresql://` link
 *
 * Returns: (transfer full): the store, its schema brought up to date
 */
VivaServerStore *
viva_server_store_open_database (const char  *state_dir,
                                 const char  *database,
                                 GError     **error)
{
  g_autoptr(VivaServerDb) db = NULL;
  g_autofree char *where = NULL;
  VivaServerStore *self;

  if (viva_server_store_is_postgres_link (database))
    {
#ifdef VIVA_SERVER_HAVE_POSTGRES
      VivaServerPostgres *postgres = viva_server_postgres_open (database, error);

      if (postgres == NULL)
        return NULL;
      where = viva_server_postgres_describe (postgres);
      db = VIVA_SERVER_DB (postgres);
#else
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FAILED, "%s",
                   _("This viva-server was built without PostgreSQL support: build it with libpq (tools/setup installs it), or leave out --database to use the state folder’s SQLite database."));
      return NULL;
#endif
    }
  else if (database != NULL && !g_str_equal (database, "sqlite"))
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FAILED,
                   _("“%s” is not a database viva-server knows: give a postgresql:// link, or “sqlite” for the state folder’s own."),
                   database);
      return NULL;
    }
  else
    {
      g_autofree char *path = g_build_filename (state_dir, VIVA_SERVER_DB_FILE, NULL);
      VivaServerSqlite *sqlite;
      int mask;

      /* The database holds seat codes and every student's work: nobody
       * but the server's own user reads it, whatever the umask says. */
      mask = umask (077);
      sqlite = viva_server_sqlite_open (path, error);
      umask (mask);
      if (sqlite == NULL)
        return NULL;
      where = g_strdup_printf ("SQLite, %s", path);
      db = VIVA_SERVER_DB (sqlite);
    }

  if (!(self = viva_server_store_new_for_db (db, error)))
    return NULL;
  self->where = g_steal_pointer (&where);
  return self;
}

VivaServerStore *
viva_server_store_open (const char  *state_dir,
                        GError     **error)
{
  return viva_server_store_open_database (state_dir, NULL, error);
}

/* Which engine and where, never a password: for status. */
const char *
viva_server_store_get_where (VivaServerStore *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_STORE (self), NULL);

  return self->where ? self->where : "";
}

VivaServerDb *
viva_server_store_get_db (VivaServerStore *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_STORE (self), NULL);

  return self->db;
}

guint
viva_server_store_get_schema_version (VivaServerStore *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_STORE (self), 0);

  return self->schema_version;
}

/**
 * viva_server_store_add_exam:
 * @exam: `id`, `title`, `exam_json`, `digest`, `time_limit`,
 *   `show_verdict`, `teacher_token_hash`
 * @roster: objects with `student_id`, `name`, `seat_code`
 */
gboolean
viva_server_store_add_exam (VivaServerStore  *self,
                            JsonObject       *exam,
                            JsonArray        *roster,
                            GError          **error)
{
  const char *id = json_object_get_string_member (exam, "id");
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonObject) existing = NULL;

  TX_BEGIN (self, error);

  existing = viva_server_db_rowf (self->db, &local_error, "SELECT id FROM exams WHERE id = $1", "s", id);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      TX_FAIL (self);
    }
  if (existing != NULL)
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT,
                   _("This server already holds an exam “%s”: give the new one another id."), id);
      TX_FAIL (self);
    }

  if (!viva_server_db_execf (self->db, error,
                             "INSERT INTO exams (id, title, exam_json, digest, time_limit, show_verdict,"
                             " teacher_token_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                             "ssssissi", id,
                             json_object_get_string_member (exam, "title"),
                             json_object_get_string_member (exam, "exam_json"),
                             json_object_get_string_member (exam, "digest"),
                             json_object_get_int_member (exam, "time_limit"),
                             json_object_get_string_member (exam, "show_verdict"),
                             json_object_get_string_member (exam, "teacher_token_hash"),
                             viva_server_store_now ()))
    TX_FAIL (self);

  if (!viva_server_db_execf (self->db, error,
                             "INSERT INTO tokens (token_hash, exam_id, student_id, role, created_at)"
                             " VALUES ($1, $2, NULL, 'teacher', $3)",
                             "ssi", json_object_get_string_member (exam, "teacher_token_hash"), id,
                             viva_server_store_now ()))
    TX_FAIL (self);

  for (guint i = 0; i < json_array_get_length (roster); i++)
    {
      JsonObject *student = json_array_get_object_element (roster, i);

      if (!viva_server_db_execf (self->db, error,
                                 "INSERT INTO roster (exam_id, student_id, name, seat_code) VALUES ($1, $2, $3, $4)",
                                 "ssss", id,
                                 json_object_get_string_member (student, "student_id"),
                                 json_object_get_string_member (student, "name"),
                                 json_object_get_string_member (student, "seat_code")))
        TX_FAIL (self);
    }

  TX_COMMIT (self, error);
  return TRUE;
}

JsonObject *
_viva_server_store_row_or_error (JsonObject  *row,
                                 GError     **local,
                                 GError     **error)
{
  if (*local != NULL)
    g_propagate_error (error, g_steal_pointer (local));
  return row;
}

JsonObject *
viva_server_store_get_exam (VivaServerStore  *self,
                            const char       *exam_id,
                            GError          **error)
{
  g_autoptr(GError) local = NULL;
  JsonObject *row = viva_server_db_rowf (self->db, &local, "SELECT * FROM exams WHERE id = $1", "s", exam_id);

  return _viva_server_store_row_or_error (row, &local, error);
}

JsonArray *
viva_server_store_list_exams (VivaServerStore  *self,
                              GError          **error)
{
  return viva_server_db_queryf (self->db, error, "SELECT * FROM exams ORDER BY id", NULL);
}

gboolean
viva_server_store_close_exam (VivaServerStore  *self,
                              const char       *exam_id,
                              GError          **error)
{
  return viva_server_db_execf (self->db, error,
                               "UPDATE exams SET closed_at = $2 WHERE id = $1 AND closed_at IS NULL",
                               "si", exam_id, viva_server_store_now ());
}

JsonArray *
viva_server_store_get_roster (VivaServerStore  *self,
                              const char       *exam_id,
                              GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT * FROM roster WHERE exam_id = $1 ORDER BY student_id", "s", exam_id);
}

JsonObject *
viva_server_store_get_student (VivaServerStore  *self,
                               const char       *exam_id,
                               const char       *student_id,
                               GError          **error)
{
  g_autoptr(GError) local = NULL;
  JsonObject *row = viva_server_db_rowf (self->db, &local,
                                         "SELECT * FROM roster WHERE exam_id = $1 AND student_id = $2",
                                         "ss", exam_id, student_id);

  return _viva_server_store_row_or_error (row, &local, error);
}
