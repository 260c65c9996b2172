/* viva-server-defenses-students.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-server-defenses-private.h"

/* A student's defenses this node runs, as the rest of the server reaches
 * them by the student rather than by the defense: the sitting's hand-in
 * asks whether one of a problem runs already, and its clock says the time
 * is up. (The events the student's PC sends reach the running defense from
 * the database, whichever node took them: viva-server-defenses-nodes.c.) */

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
