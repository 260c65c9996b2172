/* viva-server-defenses-build.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-defenses-private.h"

/* What a defense the server runs is made of, before it runs: the exam's
 * problem and the student's code, the examiner the endpoint's one rule
 * gives the exam, the exam's language, and the timeline the student's PC
 * sent with its saves. The same for a new defense and for one continued
 * from its session; running it is viva-server-defenses.c's. */

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

/**
 * _viva_server_defenses_new_defense:
 * @session: (nullable): the session to continue, or NULL for a new one
 *
 * Returns: (transfer full) (nullable): the defense of @row's problem on
 *   @code, not yet prepared
 */
VivaDefense *
_viva_server_defenses_new_defense (VivaServerDefenses  *self,
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
  return g_steal_pointer (&defense);
}

/* The problem's timeline events as the PC sent them, oldest first; a row
 * that is not an object is left out. @last_seq: the last row's number. */
static JsonArray *
problem_timeline (VivaServerStore *store,
                  const char      *exam_id,
                  const char      *student_id,
                  const char      *problem_id,
                  gint64          *last_seq)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) rows = viva_server_store_get_timeline (store, exam_id, student_id, problem_id, 0, &error);
  JsonArray *events = json_array_new ();

  if (rows == NULL)
    {
      g_debug ("defense: timeline of %s not read: %s", student_id, error ? error->message : "");
      return events;
    }
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *text = json_object_get_string_member_with_default (json_array_get_object_element (rows, i),
                                                                     "event_json", NULL);

      if (text != NULL && json_parser_load_from_data (parser, text, -1, NULL) &&
          JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        json_array_add_element (events, json_node_copy (json_parser_get_root (parser)));
      *last_seq = json_object_get_int_member (json_array_get_object_element (rows, i), "seq");
    }
  return events;
}

/**
 * _viva_server_defenses_give_timeline:
 *
 * Gives a defense started on the server what the student's PC recorded
 * on the problem (pastes, runs, hints), sent with its saves, so its
 * report has them when the PC is gone; and `hint_used` when one was a
 * hint. Those that come after go into its session as they come
 * (_viva_server_defenses_take_timeline()).
 */
void
_viva_server_defenses_give_timeline (VivaServerLive *live)
{
  VivaServerStore *store = viva_server_api_get_store (live->self->api);
  g_autoptr(JsonArray) timeline = NULL;

  timeline = problem_timeline (store, live->exam_id, live->student_id, live->problem_id, &live->timeline_seq);
  live->timeline_synced = TRUE;
  viva_defense_set_timeline (live->defense, timeline);
  for (guint i = 0; i < json_array_get_length (timeline); i++)
    if (g_strcmp0 (json_object_get_string_member_with_default (json_array_get_object_element (timeline, i),
                                                               "kind", NULL), "hint") == 0)
      viva_defense_set_hint_used (live->defense, TRUE);
}
