/* viva-server-defenses-students.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-server-defenses-private.h"

/* A student's defenses this node runs, as the rest of the server reaches
 * them by the student rather than by the defense: the sitting's hand-in
 * asks whether one of a problem runs already, its clock says the time is
 * up, and the events the student's PC sends go into the running
 * defense's session. */

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

/**
 * viva_server_defenses_add_timeline:
 * @events: integrity events the student's PC sent (each taken once)
 *
 * An event of a problem whose defense this node runs now goes into that
 * defense's session, as the app's own defense records the window losing
 * the focus while the examiner asks; its report has it.
 */
void
viva_server_defenses_add_timeline (VivaServerDefenses *self,
                                   const char         *exam_id,
                                   const char         *student_id,
                                   JsonArray          *events)
{
  GHashTableIter iter;
  VivaServerLive *live;

  g_return_if_fail (VIVA_IS_SERVER_DEFENSES (self));

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&live))
    {
      if (live->session == NULL || !g_str_equal (live->exam_id, exam_id) ||
          !g_str_equal (live->student_id, student_id))
        continue;
      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *event = json_array_get_object_element (events, i);

          if (g_strcmp0 (json_object_get_string_member_with_default (event, "problem", NULL), live->problem_id) == 0)
            viva_exam_session_add_timeline_event (live->session, event);
        }
    }
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
