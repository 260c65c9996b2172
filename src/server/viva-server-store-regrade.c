/* viva-server-store-regrade.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-keys.h"
#include "viva-server-store-pool.h"
#include "viva-server-store-private.h"
#include "viva-server-store-regrade.h"

/* The store's re-grades: a `regrades` row per request, one pool job per
 * defense (a `grade` job like a submission's, so any worker runs it), and
 * `report_revisions`: the signed report made from a job's result. The
 * report a defense left stays in `reports` as revision 1; a revision is
 * inserted, never updated, and its (defense, revision) key makes two nodes
 * settling the same job write it once. */

/**
 * viva_server_store_list_reported:
 *
 * Returns: (transfer full): the exam's defenses that have a report (`id`,
 *   `student_id`, `problem_id`, `code`: the code the server holds)
 */
JsonArray *
viva_server_store_list_reported (VivaServerStore  *self,
                                 const char       *exam_id,
                                 GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT d.id, d.student_id, d.problem_id, d.code FROM defenses d"
                                " JOIN reports r ON r.defense_id = d.id WHERE d.exam_id = $1"
                                " ORDER BY d.student_id, d.problem_id, d.created_at, d.id",
                                "s", exam_id);
}

/* The re-grade, its jobs and their items: one transaction, so a re-grade
 * is never half enqueued. */
gboolean
viva_server_store_start_regrade (VivaServerStore  *self,
                                 const char       *regrade_id,
                                 const char       *exam_id,
                                 JsonArray        *defenses,
                                 GError          **error)
{
  guint n = json_array_get_length (defenses);

  TX_BEGIN (self, error);

  if (!viva_server_db_execf (self->db, error,
                             "INSERT INTO regrades (id, exam_id, created_at, total) VALUES ($1, $2, $3, $4)",
                             "ssii", regrade_id, exam_id, viva_server_store_now (), (gint64)n))
    TX_FAIL (self);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *defense = json_array_get_object_element (defenses, i);
      const char *defense_id = json_object_get_string_member (defense, "id");
      g_autofree char *job_id = viva_server_keys_random_id ();
      g_autofree char *subject = g_strdup_printf ("regrade/%s/%s", regrade_id, defense_id);
      g_autoptr(JsonObject) payload = json_object_new ();

      /* The shape of a submission's grading, and what it re-grades. */
      json_object_set_string_member (payload, "student_id", json_object_get_string_member (defense, "student_id"));
      json_object_set_string_member (payload, "problem_id", json_object_get_string_member (defense, "problem_id"));
      json_object_set_string_member (payload, "code", json_object_get_string_member (defense, "code"));
      json_object_set_string_member (payload, "defense_id", defense_id);
      json_object_set_string_member (payload, "regrade_id", regrade_id);

      if (!viva_server_store_enqueue_job (self, job_id, exam_id, "grade", subject, payload, error) ||
          !viva_server_db_execf (self->db, error,
                                 "INSERT INTO regrade_items (regrade_id, defense_id, job_id) VALUES ($1, $2, $3)",
                                 "sss", regrade_id, defense_id, job_id))
        TX_FAIL (self);
    }

  TX_COMMIT (self, error);
  return TRUE;
}

JsonObject *
viva_server_store_get_regrade (VivaServerStore  *self,
                               const char       *regrade_id,
                               GError          **error)
{
  return viva_server_db_rowf (self->db, error, "SELECT * FROM regrades WHERE id = $1", "s", regrade_id);
}

/**
 * viva_server_store_list_regrade_items:
 * @regrade_id: (nullable): one re-grade, or every one of the exam
 * @unsettled: only the items whose job ended and that have neither a
 *   revision nor an error yet
 *
 * Returns: (transfer full): the items with their defense and job
 *   (`regrade_id`, `defense_id`, `job_id`, `revision`, `error`,
 *   `student_id`, `problem_id`, `state`, `result`, `finished_at`)
 */
JsonArray *
viva_server_store_list_regrade_items (VivaServerStore  *self,
                                      const char       *exam_id,
                                      const char       *regrade_id,
                                      gboolean          unsettled,
                                      GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT i.regrade_id, i.defense_id, i.job_id, i.revision, i.error,"
                                " d.student_id, d.problem_id, j.state, j.result, j.finished_at"
                                " FROM regrade_items i JOIN regrades g ON g.id = i.regrade_id"
                                " JOIN defenses d ON d.id = i.defense_id JOIN jobs j ON j.id = i.job_id"
                                " WHERE g.exam_id = $1 AND (CAST($2 AS TEXT) IS NULL OR i.regrade_id = $2)"
                                " AND ($3 = 0 OR (j.state IN ('done', 'failed') AND i.revision IS NULL"
                                " AND i.error IS NULL))"
                                " ORDER BY g.created_at, d.student_id, d.problem_id, i.defense_id",
                                "ssi", exam_id, regrade_id, (gint64)(unsettled ? 1 : 0));
}

/**
 * viva_server_store_newest_report:
 *
 * Returns: (transfer full) (nullable): the defense's newest report
 *   (`revision`, `report_json`, `signature`, `created_at`): its newest
 *   revision, else the report the defense left (revision 1)
 */
JsonObject *
viva_server_store_newest_report (VivaServerStore  *self,
                                 const char       *defense_id,
                                 GError          **error)
{
  g_autoptr(GError) local = NULL;
  JsonObject *row;

  row = viva_server_db_rowf (self->db, &local,
                             "SELECT revision, report_json, signature, created_at FROM report_revisions"
                             " WHERE defense_id = $1 ORDER BY revision DESC LIMIT 1", "s", defense_id);
  if (row != NULL || local != NULL)
    return _viva_server_store_row_or_error (row, &local, error);

  row = viva_server_db_rowf (self->db, &local,
                             "SELECT 1 AS revision, report_json, signature, created_at FROM reports"
                             " WHERE defense_id = $1", "s", defense_id);
  return _viva_server_store_row_or_error (row, &local, error);
}

/* The revision and its item's settling, in one transaction. */
gboolean
viva_server_store_add_revision (VivaServerStore  *self,
                                const char       *regrade_id,
                                const char       *defense_id,
                                gint64            revision,
                                const char       *report,
                                const char       *signature,
                                GError          **error)
{
  g_autoptr(JsonObject) defense = NULL;

  if (!(defense = viva_server_store_get_defense (self, defense_id, error)))
    return FALSE;

  TX_BEGIN (self, error);
  if (!viva_server_db_execf (self->db, error,
                             "INSERT INTO report_revisions (defense_id, revision, exam_id, student_id, problem_id,"
                             " regrade_id, report_json, signature, created_at)"
                             " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                             "sissssssi", defense_id, revision,
                             json_object_get_string_member (defense, "exam_id"),
                             json_object_get_string_member (defense, "student_id"),
                             json_object_get_string_member (defense, "problem_id"),
                             regrade_id, report, signature, viva_server_store_now ()) ||
      !viva_server_db_execf (self->db, error,
                             "UPDATE regrade_items SET revision = $3 WHERE regrade_id = $1 AND defense_id = $2",
                             "ssi", regrade_id, defense_id, revision))
    TX_FAIL (self);
  TX_COMMIT (self, error);
  return TRUE;
}

gboolean
viva_server_store_fail_regrade_item (VivaServerStore  *self,
                                     const char       *regrade_id,
                                     const char       *defense_id,
                                     const char       *message,
                                     GError          **error)
{
  return viva_server_db_execf (self->db, error,
                               "UPDATE regrade_items SET error = $3 WHERE regrade_id = $1 AND defense_id = $2"
                               " AND revision IS NULL",
                               "sss", regrade_id, defense_id, message);
}

/**
 * viva_server_store_list_revisions:
 *
 * Returns: (transfer full): every revision of the exam's reports, oldest
 *   first per defense
 */
JsonArray *
viva_server_store_list_revisions (VivaServerStore  *self,
                                  const char       *exam_id,
                                  GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT * FROM report_revisions WHERE exam_id = $1"
                                " ORDER BY student_id, problem_id, defense_id, revision",
                                "s", exam_id);
}
