/* viva-server-clock.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-server-clock.h"
#include "viva-server-defenses.h"
#include "viva-text.h"

/* The server owns the clock. Once a second it looks for sittings past
 * their deadline and hands each in from the code it holds: every problem
 * the student saved code of that differs from the starter and has no
 * defense is defended now, with the questions answered for the absent
 * student, and defenses still running answer for them too. A sitting is
 * marked handed in in the same pass, so a restart never hands in twice;
 * a server that was down at the deadline does it at its next start. */

static gboolean
has_defense (JsonArray  *defenses,
             const char *problem_id)
{
  for (guint i = 0; i < json_array_get_length (defenses); i++)
    {
      JsonObject *defense = json_array_get_object_element (defenses, i);

      if (g_str_equal (json_object_get_string_member (defense, "problem_id"), problem_id) &&
          !g_str_equal (json_object_get_string_member (defense, "state"), "restarted"))
        return TRUE;
    }
  return FALSE;
}

static void
hand_in (VivaServerApi *api,
         JsonObject    *sitting)
{
  VivaServerStore *store = viva_server_api_get_store (api);
  VivaServerDefenses *defenses = viva_server_api_get_defenses (api);
  const char *exam_id = json_object_get_string_member (sitting, "exam_id");
  const char *student_id = json_object_get_string_member (sitting, "student_id");
  g_autoptr(JsonArray) code = NULL;
  g_autoptr(JsonArray) existing = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamFile *exam;

  if (!(exam = viva_server_api_get_exam (api, exam_id, &error)) ||
      !(code = viva_server_store_latest_code (store, exam_id, student_id, &error)) ||
      !(existing = viva_server_store_list_defenses (store, exam_id, student_id, &error)) ||
      !viva_server_store_hand_in (store, exam_id, student_id, &error))
    {
      g_warning ("time-up of %s/%s: %s", exam_id, student_id, error ? error->message : "no exam");
      return;
    }

  viva_server_defenses_time_up (defenses, exam_id, student_id);

  for (guint i = 0; i < json_array_get_length (code); i++)
    {
      JsonObject *saved = json_array_get_object_element (code, i);
      const char *problem_id = json_object_get_string_member (saved, "problem_id");
      const char *text = json_object_get_string_member (saved, "code");
      VivaProblem *problem = viva_pack_find_problem (viva_exam_file_get_pack (exam), problem_id);
      g_autofree char *id = NULL;

      if (problem == NULL || has_defense (existing, problem_id) ||
          viva_text_is_blank (text) ||
          g_strcmp0 (text, viva_problem_get_starter_code (problem)) == 0)
        continue;

      if (!(id = viva_server_defenses_start (defenses, exam_id, student_id, problem_id, text, TRUE, &error)))
        {
          g_warning ("time-up of %s/%s, %s: %s", exam_id, student_id, problem_id, error->message);
          g_clear_error (&error);
        }
    }
}

/**
 * viva_server_clock_tick:
 *
 * Returns: how many sittings were handed in
 */
guint
viva_server_clock_tick (VivaServerApi *api)
{
  g_autoptr(JsonArray) open = NULL;
  gint64 now = viva_server_store_now ();
  guint n = 0;

  if (!(open = viva_server_store_list_open_sittings (viva_server_api_get_store (api), NULL)))
    return 0;

  for (guint i = 0; i < json_array_get_length (open); i++)
    {
      JsonObject *sitting = json_array_get_object_element (open, i);
      gint64 deadline = json_object_get_int_member (sitting, "deadline");

      if (deadline > 0 && deadline <= now)
        {
          hand_in (api, sitting);
          n++;
        }
    }
  return n;
}

static gboolean
tick_cb (gpointer user_data)
{
  viva_server_clock_tick (user_data);
  return G_SOURCE_CONTINUE;
}

guint
viva_server_clock_start (VivaServerApi *api)
{
  return g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, 1, tick_cb, g_object_ref (api), g_object_unref);
}
