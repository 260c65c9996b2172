/* test-timeline-recorder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-core.h"
#include "viva-pack.h"
#include "viva-timeline-recorder.h"

/* The window's integrity timeline, over a real text buffer: a paste the
 * student makes is recorded for the open problem until its next Submit
 * takes it, typing and the window's own replacing of the code are not,
 * the code last run is kept per problem. */

typedef struct
{
  GtkTextBuffer        *buffer;
  VivaTimelineRecorder *recorder;
  VivaPack             *pack;
  VivaProblem          *first;
  VivaProblem          *second;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  GListModel *problems;

  fixture->buffer = gtk_text_buffer_new (NULL);
  fixture->recorder = viva_timeline_recorder_new (fixture->buffer);
  fixture->pack = viva_pack_new_bundled ();
  problems = viva_pack_get_problems (fixture->pack);
  g_assert_cmpuint (g_list_model_get_n_items (problems), >=, 2);
  fixture->first = g_list_model_get_item (problems, 0);
  fixture->second = g_list_model_get_item (problems, 1);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_assert_finalize_object (fixture->recorder);
  g_clear_object (&fixture->first);
  g_clear_object (&fixture->second);
  g_clear_object (&fixture->pack);
  g_clear_object (&fixture->buffer);
}

/* As the student does it: one user action. */
static void
student_inserts (GtkTextBuffer *buffer,
                 const char    *text)
{
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_insert (buffer, &end, text, -1);
  gtk_text_buffer_end_user_action (buffer);
}

static const char *
kind_of (JsonArray *events,
         guint      i)
{
  return json_object_get_string_member (json_array_get_object_element (events, i), "kind");
}

static void
test_paste (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(JsonArray) events = NULL;
  g_autoptr(JsonArray) again = NULL;
  const char *pasted = "def double(x):\n    return 2 * x  # from somewhere else\n";

  /* No problem open: nothing to record it for. */
  student_inserts (fixture->buffer, pasted);
  g_assert_null (viva_timeline_recorder_take_pending (fixture->recorder));

  viva_timeline_recorder_set_problem (fixture->recorder, fixture->pack, fixture->first);
  student_inserts (fixture->buffer, "x");
  g_assert_null (viva_timeline_recorder_take_pending (fixture->recorder));

  viva_timeline_recorder_set_quiet (fixture->recorder, TRUE);
  student_inserts (fixture->buffer, pasted);
  viva_timeline_recorder_set_quiet (fixture->recorder, FALSE);
  g_assert_null (viva_timeline_recorder_take_pending (fixture->recorder));

  student_inserts (fixture->buffer, pasted);
  viva_timeline_recorder_hint (fixture->recorder, 10);
  events = viva_timeline_recorder_take_pending (fixture->recorder);
  g_assert_nonnull (events);
  g_assert_cmpuint (json_array_get_length (events), ==, 2);
  g_assert_cmpstr (kind_of (events, 0), ==, "paste");
  g_assert_cmpstr (kind_of (events, 1), ==, "hint");
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (events, 1), "cost"), ==, 10);

  /* Taken once: the next Submit starts afresh. */
  again = viva_timeline_recorder_take_pending (fixture->recorder);
  g_assert_null (again);
}

static void
test_per_problem (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(JsonArray) first = NULL;
  g_autoptr(JsonArray) second = NULL;

  viva_timeline_recorder_set_problem (fixture->recorder, fixture->pack, fixture->first);
  viva_timeline_recorder_run (fixture->recorder, "print(1)");
  viva_timeline_recorder_set_problem (fixture->recorder, fixture->pack, fixture->second);
  g_assert_null (viva_timeline_recorder_get_last_run (fixture->recorder));
  viva_timeline_recorder_check (fixture->recorder, "print(2)", 1, 3);
  /* Losing the focus counts only during a defense. */
  viva_timeline_recorder_set_focused (fixture->recorder, FALSE, FALSE);
  viva_timeline_recorder_set_focused (fixture->recorder, TRUE, FALSE);

  second = viva_timeline_recorder_take_pending (fixture->recorder);
  g_assert_cmpuint (json_array_get_length (second), ==, 1);
  g_assert_cmpstr (kind_of (second, 0), ==, "check");

  viva_timeline_recorder_set_problem (fixture->recorder, fixture->pack, fixture->first);
  g_assert_cmpstr (viva_timeline_recorder_get_last_run (fixture->recorder), ==, "print(1)");
  first = viva_timeline_recorder_take_pending (fixture->recorder);
  g_assert_cmpuint (json_array_get_length (first), ==, 1);
  g_assert_cmpstr (kind_of (first, 0), ==, "run");
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add ("/viva/timeline-recorder/paste", Fixture, NULL, fixture_set_up, test_paste, fixture_tear_down);
  g_test_add ("/viva/timeline-recorder/per-problem", Fixture, NULL, fixture_set_up, test_per_problem, fixture_tear_down);

  return g_test_run ();
}
