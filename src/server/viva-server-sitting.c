/* viva-server-sitting.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-defenses.h"
#include "viva-server-sitting.h"
#include "viva-server-store-pool.h"

/* A sitting as the student may see it, and the class as the teacher does.
 * The student's view is built from the public parts only, named one by
 * one: the statement, the starter code, the hint when the exam allows
 * hints. Nothing of a problem's reference, tests, rubric or questions is
 * read here, so nothing of them can reach a student through it. */

/* TRUE while the exam holds verdicts back from its students. */
gboolean
viva_server_sitting_held (VivaServerStore *store,
                          const char      *exam_id)
{
  g_autoptr(JsonObject) exam = viva_server_store_get_exam (store, exam_id, NULL);

  return exam == NULL ||
         (g_strcmp0 (json_object_get_string_member (exam, "show_verdict"), "after_exam") == 0 &&
          json_object_get_null_member (exam, "closed_at"));
}

static JsonObject *
find_by (JsonArray  *rows,
         const char *member,
         const char *value)
{
  JsonObject *found = NULL;

  /* The last wins: rows come oldest first. */
  for (guint i = 0; rows != NULL && i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (row, member, NULL), value) == 0)
        found = row;
    }
  return found;
}

static const char *
sitting_state (JsonObject *sitting,
               JsonArray  *defenses)
{
  gint64 deadline;

  if (sitting == NULL)
    return "not_signed_in";
  deadline = json_object_get_int_member (sitting, "deadline");
  if (!json_object_get_null_member (sitting, "handed_in_at") ||
      (deadline > 0 && viva_server_store_now () >= deadline))
    return "handed_in";
  for (guint i = 0; defenses != NULL && i < json_array_get_length (defenses); i++)
    {
      const char *state = json_object_get_string_member (json_array_get_object_element (defenses, i), "state");

      if (g_str_equal (state, "starting") || g_str_equal (state, "running") || g_str_equal (state, "waiting"))
        return "defending";
    }
  return "working";
}

static void
add_clock (JsonObject *object,
           JsonObject *sitting)
{
  JsonObject *clock = json_object_new ();
  gint64 now = viva_server_store_now ();
  gint64 deadline = json_object_get_int_member (sitting, "deadline");

  json_object_set_int_member (clock, "now", now);
  json_object_set_int_member (clock, "started_at", json_object_get_int_member (sitting, "started_at"));
  if (deadline > 0)
    {
      json_object_set_int_member (clock, "deadline", deadline);
      json_object_set_int_member (clock, "remaining_s", MAX (0, (deadline - now + 999) / 1000));
    }
  else
    {
      json_object_set_null_member (clock, "deadline");
      json_object_set_null_member (clock, "remaining_s");
    }
  json_object_set_object_member (object, "clock", clock);
}

/**
 * viva_server_sitting_describe:
 *
 * Returns: (transfer full): the student's sitting: the exam's public
 *   parts, the server's clock, the code as last saved and each problem's
 *   defense
 */
JsonObject *
viva_server_sitting_describe (VivaServerApi  *api,
                              const char     *exam_id,
                              const char     *student_id,
                              GError        **error)
{
  VivaServerStore *store = viva_server_api_get_store (api);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(JsonObject) student = NULL;
  g_autoptr(JsonArray) code = NULL;
  g_autoptr(JsonArray) defenses = NULL;
  g_autoptr(GError) local = NULL;
  JsonObject *exam_object = json_object_new ();
  JsonObject *student_object = json_object_new ();
  JsonArray *problems = json_array_new ();
  VivaExamFile *exam;
  const char * const *ids;

  json_object_set_object_member (object, "exam", exam_object);
  json_object_set_object_member (object, "student", student_object);
  json_object_set_array_member (object, "problems", problems);

  if (!(exam = viva_server_api_get_exam (api, exam_id, error)) ||
      !(sitting = viva_server_store_get_sitting (store, exam_id, student_id, &local)) ||
      !(student = viva_server_store_get_student (store, exam_id, student_id, &local)) ||
      !(code = viva_server_store_latest_code (store, exam_id, student_id, &local)) ||
      !(defenses = viva_server_store_list_defenses (store, exam_id, student_id, &local)))
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("This student has no sitting."));
      return NULL;
    }

  json_object_set_string_member (exam_object, "id", exam_id);
  json_object_set_string_member (exam_object, "title", viva_exam_file_get_title (exam));
  json_object_set_int_member (exam_object, "time_limit_s", viva_exam_file_get_time_limit (exam));
  json_object_set_boolean_member (exam_object, "hints_allowed", viva_exam_file_get_hints_allowed (exam));
  json_object_set_double_member (exam_object, "hint_cost", viva_exam_file_get_hint_cost (exam));
  json_object_set_string_member (exam_object, "show_verdict",
                                 viva_exam_file_get_verdict_after_exam (exam) ? "after_exam" : "immediately");
  json_object_set_string_member (student_object, "id", student_id);
  json_object_set_string_member (student_object, "name", json_object_get_string_member (student, "name"));
  json_object_set_string_member (object, "state", sitting_state (sitting, defenses));
  add_clock (object, sitting);

  ids = viva_exam_file_get_problems (exam);
  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      VivaProblem *problem = viva_pack_find_problem (viva_exam_file_get_pack (exam), ids[i]);
      JsonObject *entry, *saved, *defense;

      if (problem == NULL)
        continue;

      entry = json_object_new ();
      json_object_set_string_member (entry, "id", viva_problem_get_id (problem));
      json_object_set_string_member (entry, "title", viva_problem_get_title (problem));
      json_object_set_string_member (entry, "type", viva_problem_type_to_string (viva_problem_get_problem_type (problem)));
      json_object_set_string_member (entry, "statement", viva_problem_get_description (problem));
      json_object_set_string_member (entry, "starter_code", viva_problem_get_starter_code (problem)
                                                            ? viva_problem_get_starter_code (problem) : "");
      if (viva_exam_file_get_hints_allowed (exam) && viva_problem_get_hint (problem) != NULL)
        json_object_set_string_member (entry, "hint", viva_problem_get_hint (problem));
      else
        json_object_set_null_member (entry, "hint");

      if ((saved = find_by (code, "problem_id", ids[i])))
        {
          JsonObject *out = json_object_new ();

          json_object_set_string_member (out, "text", json_object_get_string_member (saved, "code"));
          json_object_set_int_member (out, "seq", json_object_get_int_member (saved, "seq"));
          json_object_set_string_member (out, "kind", json_object_get_string_member (saved, "kind"));
          json_object_set_int_member (out, "saved_at", json_object_get_int_member (saved, "saved_at"));
          json_object_set_object_member (entry, "code", out);
        }
      else
        json_object_set_null_member (entry, "code");

      if ((defense = find_by (defenses, "problem_id", ids[i])))
        {
          JsonObject *out = json_object_new ();
          g_autofree char *pending = NULL;
          gint64 seq = 0;
          const char *id = json_object_get_string_member (defense, "id");
          VivaServerDefenses *live = viva_server_api_get_defenses (api);

          if (live != NULL)
            pending = viva_server_defenses_dup_pending (live, id, &seq);
          json_object_set_string_member (out, "id", id);
          json_object_set_string_member (out, "state", json_object_get_string_member (defense, "state"));
          json_object_set_int_member (out, "last_seq", json_object_get_int_member (defense, "last_seq"));
          if (pending != NULL)
            {
              json_object_set_string_member (out, "pending_question", pending);
              json_object_set_int_member (out, "question_seq", seq);
            }
          else
            json_object_set_null_member (out, "pending_question");
          json_object_set_object_member (entry, "defense", out);
        }
      else
        json_object_set_null_member (entry, "defense");

      json_array_add_object_element (problems, entry);
    }

  return g_steal_pointer (&object);
}

/**
 * viva_server_sitting_class:
 *
 * Returns: (transfer full): one object per student of the roster: `student_id`,
 *   `name`, `state` (not_signed_in, working, defending, handed_in),
 *   `sign_ins`, `signed_in_at`, `deadline`, `saved` (problems with code),
 *   `defenses` [{problem, state}], `reports`, `grades` {problem: the
 *   newest submission's grading by the pool: state (waiting, running,
 *   done, failed), passed and total once done}
 */
JsonArray *
viva_server_sitting_class (VivaServerStore  *store,
                           const char       *exam_id,
                           GError          **error)
{
  g_autoptr(JsonArray) roster = NULL;
  g_autoptr(JsonArray) sittings = NULL;
  g_autoptr(JsonArray) defenses = NULL;
  g_autoptr(JsonArray) reports = NULL;
  g_autoptr(JsonArray) saved = NULL;
  g_autoptr(JsonArray) jobs = NULL;
  g_autoptr(GHashTable) grades = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify)json_object_unref);
  g_autoptr(JsonArray) out = json_array_new ();

  if (!(roster = viva_server_store_get_roster (store, exam_id, error)) ||
      !(sittings = viva_server_store_list_sittings (store, exam_id, error)) ||
      !(defenses = viva_server_store_list_defenses (store, exam_id, NULL, error)) ||
      !(reports = viva_server_db_queryf (viva_server_store_get_db (store), error,
                                         "SELECT student_id, COUNT(*) AS n FROM reports WHERE exam_id = $1"
                                         " GROUP BY student_id", "s", exam_id)) ||
      !(saved = viva_server_db_queryf (viva_server_store_get_db (store), error,
                                       "SELECT student_id, COUNT(DISTINCT problem_id) AS n FROM snapshots"
                                       " WHERE exam_id = $1 GROUP BY student_id", "s", exam_id)) ||
      !(jobs = viva_server_store_list_grades (store, exam_id, error)))
    return NULL;

  /* Per student, per problem: the newest submission's grading wins. */
  for (guint i = 0; i < json_array_get_length (jobs); i++)
    {
      JsonObject *job = json_array_get_object_element (jobs, i);
      g_autoptr(JsonNode) payload = json_from_string (json_object_get_string_member (job, "payload"), NULL);
      g_autoptr(JsonNode) result = NULL;
      JsonObject *entry, *mine;
      const char *student_id, *problem_id;

      if (payload == NULL || !JSON_NODE_HOLDS_OBJECT (payload))
        continue;
      student_id = json_object_get_string_member_with_default (json_node_get_object (payload), "student_id", "");
      problem_id = json_object_get_string_member_with_default (json_node_get_object (payload), "problem_id", "");
      if (!(mine = g_hash_table_lookup (grades, student_id)))
        {
          mine = json_object_new ();
          g_hash_table_insert (grades, g_strdup (student_id), mine);
        }
      entry = json_object_new ();
      json_object_set_string_member (entry, "state", json_object_get_string_member (job, "state"));
      /* How long it waited in the queue for its (last) claimer. */
      if (!json_object_get_null_member (job, "claimed_at"))
        json_object_set_int_member (entry, "wait_ms",
                                    json_object_get_int_member (job, "claimed_at") -
                                    json_object_get_int_member (job, "enqueued_at"));
      if (!json_object_get_null_member (job, "result") &&
          (result = json_from_string (json_object_get_string_member (job, "result"), NULL)) &&
          JSON_NODE_HOLDS_OBJECT (result) &&
          json_object_has_member (json_node_get_object (result), "total"))
        {
          json_object_set_int_member (entry, "passed", json_object_get_int_member (json_node_get_object (result), "passed"));
          json_object_set_int_member (entry, "total", json_object_get_int_member (json_node_get_object (result), "total"));
        }
      json_object_set_object_member (mine, problem_id, entry);
    }

  for (guint i = 0; i < json_array_get_length (roster); i++)
    {
      JsonObject *student = json_array_get_object_element (roster, i);
      const char *id = json_object_get_string_member (student, "student_id");
      JsonObject *sitting = find_by (sittings, "student_id", id);
      JsonObject *report_count = find_by (reports, "student_id", id);
      JsonObject *saved_count = find_by (saved, "student_id", id);
      g_autoptr(JsonArray) own = json_array_new ();
      JsonObject *row = json_object_new ();

      for (guint d = 0; d < json_array_get_length (defenses); d++)
        {
          JsonObject *defense = json_array_get_object_element (defenses, d);

          if (g_str_equal (json_object_get_string_member (defense, "student_id"), id))
            {
              JsonObject *entry = json_object_new ();

              json_object_set_string_member (entry, "id", json_object_get_string_member (defense, "id"));
              json_object_set_string_member (entry, "problem", json_object_get_string_member (defense, "problem_id"));
              json_object_set_string_member (entry, "state", json_object_get_string_member (defense, "state"));
              json_object_set_boolean_member (entry, "handed_in", json_object_get_int_member (defense, "handed_in") != 0);
              json_array_add_object_element (own, entry);
            }
        }

      json_object_set_string_member (row, "student_id", id);
      json_object_set_string_member (row, "name", json_object_get_string_member (student, "name"));
      json_object_set_string_member (row, "state", sitting_state (sitting, own));
      json_object_set_int_member (row, "sign_ins", sitting ? json_object_get_int_member (sitting, "sign_ins") : 0);
      if (sitting != NULL)
        {
          json_object_set_int_member (row, "signed_in_at", json_object_get_int_member (sitting, "signed_in_at"));
          json_object_set_int_member (row, "deadline", json_object_get_int_member (sitting, "deadline"));
        }
      json_object_set_int_member (row, "saved", saved_count ? json_object_get_int_member (saved_count, "n") : 0);
      json_object_set_int_member (row, "reports", report_count ? json_object_get_int_member (report_count, "n") : 0);
      json_object_set_array_member (row, "defenses", g_steal_pointer (&own));
      json_object_set_object_member (row, "grades", g_hash_table_lookup (grades, id)
                                                    ? json_object_ref (g_hash_table_lookup (grades, id))
                                                    : json_object_new ());
      json_array_add_object_element (out, row);
    }

  return g_steal_pointer (&out);
}
