/* viva-server-defenses-students.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-server-defenses-private.h"

/* A student's defenses this node runs, as the rest of the server reaches
 * them by the student rather than by the defense: the sitting's hand-in
 * asks whether one of a problem runs already, its clock says the time is
 * up, and the events the student's PC sends (to this node or another)
 * go into the running defense's session. */

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

/* Whether @session_event is @event as the session recorded it: every
 * member the PC sent, the same (the session adds a `time` when none). */
static gboolean
same_event (JsonObject *event,
            JsonObject *session_event)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, event);
  while (json_object_iter_next (&iter, &name, &value))
    if (!json_object_has_member (session_event, name) ||
        !json_node_equal (value, json_object_get_member (session_event, name)))
      return FALSE;
  return TRUE;
}

/**
 * _viva_server_defenses_take_timeline:
 *
 * Takes into the defense's session the events the student's PC sent on
 * its problem since the last one taken, read from the database (whichever
 * node the PC sent them to), each once, in their order. A defense resumed
 * from its checkpoint first matches them against the events its session
 * has (one by one, so two alike count twice): those the node before took
 * are not taken again, those it took after its last kept checkpoint are.
 */
void
_viva_server_defenses_take_timeline (VivaServerLive *live)
{
  VivaServerStore *store = viva_server_api_get_store (_viva_server_defenses_get_api (live->self));
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(GPtrArray) had = NULL;
  g_autoptr(GError) error = NULL;

  if (live->fenced || live->session == NULL)
    return;
  if (!(rows = viva_server_store_get_timeline (store, live->exam_id, live->student_id, live->problem_id,
                                               live->timeline_seq, &error)))
    {
      g_message ("defense %s: the student's events not read: %s", live->id, error->message);
      return;
    }
  if (!live->timeline_synced)
    {
      JsonArray *timeline = viva_exam_session_get_timeline (live->session);

      had = g_ptr_array_new ();
      for (guint i = 0; timeline != NULL && i < json_array_get_length (timeline); i++)
        g_ptr_array_add (had, json_array_get_object_element (timeline, i));
    }

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      g_autoptr(JsonNode) node = json_from_string (json_object_get_string_member_with_default (row, "event_json", ""),
                                                   NULL);
      gboolean known = FALSE;

      live->timeline_seq = json_object_get_int_member (row, "seq");
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      for (guint j = 0; had != NULL && j < had->len && !known; j++)
        if ((known = same_event (json_node_get_object (node), had->pdata[j])))
          g_ptr_array_remove_index (had, j);
      if (!known)
        viva_exam_session_add_timeline_event (live->session, json_node_get_object (node));
    }
  live->timeline_synced = TRUE;
}

/**
 * viva_server_defenses_add_timeline:
 *
 * The student's PC sent timeline events (committed): a defense of theirs
 * this node runs takes those of its problem into its session, as the
 * app's own defense records the window losing the focus while the
 * examiner asks; its report has them. A defense another node runs takes
 * them there (told by NOTIFY, and at its lease tick).
 */
void
viva_server_defenses_add_timeline (VivaServerDefenses *self,
                                   const char         *exam_id,
                                   const char         *student_id)
{
  GHashTableIter iter;
  VivaServerLive *live;

  g_return_if_fail (VIVA_IS_SERVER_DEFENSES (self));

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&live))
    if (g_str_equal (live->exam_id, exam_id) && g_str_equal (live->student_id, student_id))
      _viva_server_defenses_take_timeline (live);
}

/* Another node kept a student's events: the payload is "EXAM\nSTUDENT". */
void
_viva_server_defenses_timeline_told (const char *payload,
                                     gpointer    user_data)
{
  g_auto(GStrv) parts = g_strsplit (payload ? payload : "", "\n", 2);

  if (g_strv_length (parts) == 2)
    viva_server_defenses_add_timeline (user_data, parts[0], parts[1]);
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
