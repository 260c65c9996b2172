/* test-exam-sitting.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One student's sitting of an exam, with no window: the clock counts down
 * to time-up and closes the hand-in; a restart within the time continues
 * the same clock and lists, one after it hands nothing in; the exam's
 * settings are fixed; a finished defense's report lands in the exam's
 * folder, named after the student and the problem, and is remembered. A
 * sitting kept by its front (the exam server's database) writes no file
 * and is taken back from what it was given, with the code the front held.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "viva-exam-sitting.h"
#include "viva-file-writer.h"
#include "viva-test-util.h"

#include "sitting-fixture.h"

typedef struct
{
  char *dir;
  char *state_dir;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("viva-sitting-XXXXXX", NULL);
  fixture->state_dir = g_build_filename (fixture->dir, "exams", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  viva_file_writer_flush ();
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->state_dir, g_free);
}

static GDateTime *
seconds_ago (gint64 seconds)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_add_seconds (now, -(double)seconds);
}

typedef struct
{
  gint64   last_left;
  guint    time_up;
  guint    waiting_at_time_up;
  gboolean time_up_before_signal;
} Watch;

static void
time_left_cb (VivaExamSitting *sitting,
              GParamSpec      *pspec,
              Watch           *watch)
{
  /* Counts down, never up. */
  g_assert_cmpint (viva_exam_sitting_get_time_left (sitting), <=, watch->last_left);
  watch->last_left = viva_exam_sitting_get_time_left (sitting);
}

static void
time_up_cb (VivaExamSitting *sitting,
            Watch           *watch)
{
  VivaExamHandIn *hand_in = viva_exam_sitting_get_hand_in (sitting);

  watch->time_up++;
  watch->time_up_before_signal = viva_exam_sitting_get_time_up (sitting);
  watch->waiting_at_time_up = viva_exam_hand_in_get_n_waiting (hand_in);
}

static gboolean
quit_cb (gpointer user_data)
{
  *(gboolean *)user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
test_clock (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(VivaExamFile) exam = sitting_fixture_exam (fixture->dir, 10);
  g_autoptr(VivaExamSitting) sitting = viva_exam_sitting_new (exam, fixture->state_dir);
  VivaExamHandIn *hand_in = viva_exam_sitting_get_hand_in (sitting);
  g_autoptr(GDateTime) started = seconds_ago (8);
  Watch watch = { G_MAXINT64, 0, 0, FALSE };
  gboolean settled = FALSE;

  g_assert_false (viva_exam_sitting_has_begun (sitting));
  g_assert_cmpint (viva_exam_sitting_get_time_left (sitting), ==, -1);

  g_signal_connect (sitting, "notify::time-left", G_CALLBACK (time_left_cb), &watch);
  g_signal_connect (sitting, "time-up", G_CALLBACK (time_up_cb), &watch);

  /* Begun 8 s ago: 2 s or less left of 10. */
  viva_exam_sitting_begin (sitting, "Trần Văn An", "S2026-42", started);
  g_assert_true (viva_exam_sitting_has_begun (sitting));
  g_assert_cmpint (viva_exam_sitting_get_time_left (sitting), >, 0);
  g_assert_cmpint (viva_exam_sitting_get_time_left (sitting), <=, 2);
  g_assert_false (viva_exam_sitting_get_time_up (sitting));

  viva_exam_hand_in_set_open_problem (hand_in, "b");
  viva_exam_hand_in_code_run (hand_in, "c", "def c(x):\n    return 2 * x\n");

  while (watch.time_up == 0)
    g_main_context_iteration (NULL, TRUE);

  /* The hand-in is closed and its queue ready when the signal says so. */
  g_assert_true (watch.time_up_before_signal);
  g_assert_cmpuint (watch.waiting_at_time_up, ==, 2);
  g_assert_cmpint (watch.last_left, ==, 0);
  g_assert_cmpint (viva_exam_sitting_get_time_left (sitting), ==, 0);
  g_assert_true (viva_exam_hand_in_is_closed (hand_in));

  /* Once: the clock stopped. */
  g_timeout_add_seconds (2, quit_cb, &settled);
  while (!settled)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (watch.time_up, ==, 1);
}

static void
test_no_limit (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "exam.json", NULL);
  g_autoptr(VivaExamFile) exam = NULL;
  g_autoptr(VivaExamSitting) sitting = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *text =
    "{\"format\": \"viva-exam/1\", \"id\": \"open\", \"title\": \"Open book\", \"pack\": \"intro-ai\","
    " \"report_folder\": \"reports\"}";

  bytes = g_bytes_new_static (text, strlen (text));
  exam = viva_exam_file_new_from_bytes (bytes, path, NULL, &error);
  g_assert_no_error (error);
  sitting = viva_exam_sitting_new (exam, fixture->state_dir);
  viva_exam_sitting_begin (sitting, "A", "1", NULL);
  g_assert_cmpint (viva_exam_sitting_get_time_left (sitting), ==, -1);
  g_assert_false (viva_exam_sitting_get_time_up (sitting));
}

static void
restore_async (VivaExamSitting *sitting,
               gboolean         expected)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_exam_sitting_restore_async (sitting, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_cmpint (viva_exam_sitting_restore_finish (sitting, result, &error), ==, expected);
  g_assert_no_error (error);
}

static void
count_cb (guint *count)
{
  (*count)++;
}

static void
test_restart (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(VivaExamFile) exam = sitting_fixture_exam (fixture->dir, 600);
  g_autoptr(VivaExamSitting) first = viva_exam_sitting_new (exam, fixture->state_dir);
  g_autoptr(VivaExamSitting) again = NULL;
  g_autoptr(VivaExamSitting) other = NULL;
  g_autoptr(GDateTime) started = seconds_ago (100);
  g_autoptr(GError) error = NULL;
  VivaExamHandIn *hand_in;

  /* Never sat on this account. */
  restore_async (first, FALSE);
  g_assert_false (viva_exam_sitting_has_begun (first));

  viva_exam_sitting_begin (first, "Lê Thị Hoa", "S2026-17", started);
  viva_exam_hand_in_code_run (viva_exam_sitting_get_hand_in (first), "b", "def b(x):\n    return 2 * x\n");
  viva_exam_hand_in_defense_ended (viva_exam_sitting_get_hand_in (first), "a", TRUE);
  viva_file_writer_flush ();
  g_assert_true (g_file_test (viva_exam_sitting_get_state_path (first), G_FILE_TEST_IS_REGULAR));
  g_clear_object (&first);

  /* Viva starts again within the time: the same student, start and lists,
   * and the clock goes on from where it is. */
  again = viva_exam_sitting_new (exam, fixture->state_dir);
  restore_async (again, TRUE);
  g_assert_cmpstr (viva_exam_sitting_get_student_name (again), ==, "Lê Thị Hoa");
  g_assert_cmpstr (viva_exam_sitting_get_student_id (again), ==, "S2026-17");
  g_assert_true (g_date_time_equal (viva_exam_sitting_get_started (again), started));
  g_assert_cmpint (viva_exam_sitting_get_time_left (again), <=, 500);
  g_assert_cmpint (viva_exam_sitting_get_time_left (again), >, 400);
  g_assert_false (viva_exam_sitting_get_time_up (again));
  hand_in = viva_exam_sitting_get_hand_in (again);
  g_assert_true (viva_exam_hand_in_is_worked (hand_in, "b"));
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "a"), ==, VIVA_EXAM_HAND_IN_DEFENDED);
  g_assert_false (viva_exam_hand_in_is_closed (hand_in));

  /* Restored once: a second restore or begin changes nothing. */
  g_assert_false (viva_exam_sitting_restore (again, &error));
  g_assert_no_error (error);
  g_clear_object (&again);

  /* Opened long after the time: the time is up, without the signal, and
   * nothing is handed in again. */
  {
    g_autofree char *text = NULL;
    g_autoptr(GDateTime) long_ago = seconds_ago (3600);
    g_autofree char *when = g_date_time_format_iso8601 (long_ago);
    g_autofree char *path = NULL;
    guint time_up = 0;

    other = viva_exam_sitting_new (exam, fixture->state_dir);
    path = g_strdup (viva_exam_sitting_get_state_path (other));
    text = g_strdup_printf ("{\"student_name\": \"Lê Thị Hoa\", \"student_id\": \"S2026-17\", \"started\": \"%s\","
                            " \"worked\": [\"b\", \"c\"], \"defended\": [\"a\"]}", when);
    g_assert_true (g_file_set_contents (path, text, -1, NULL));
    g_signal_connect_swapped (other, "time-up", G_CALLBACK (count_cb), &time_up);
    g_assert_true (viva_exam_sitting_restore (other, &error));
    g_assert_no_error (error);
    g_assert_true (viva_exam_sitting_get_time_up (other));
    g_assert_cmpuint (time_up, ==, 0);
    g_assert_cmpint (viva_exam_sitting_get_time_left (other), ==, 0);
    hand_in = viva_exam_sitting_get_hand_in (other);
    g_assert_true (viva_exam_hand_in_is_closed (hand_in));
    g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (hand_in), ==, 0);
    g_assert_false (viva_exam_hand_in_is_active (hand_in));
  }
}

static void
test_unreadable_state (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(VivaExamFile) exam = sitting_fixture_exam (fixture->dir, 600);
  g_autoptr(VivaExamSitting) sitting = viva_exam_sitting_new (exam, fixture->state_dir);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (fixture->state_dir, 0700), ==, 0);

  /* Not a sitting's: asked again who sits it. */
  g_assert_true (g_file_set_contents (viva_exam_sitting_get_state_path (sitting), "{\"started\": 3}", -1, NULL));
  g_assert_false (viva_exam_sitting_restore (sitting, &error));
  g_assert_no_error (error);

  /* Not JSON at all: said, so that a front can tell the student. */
  g_assert_true (g_file_set_contents (viva_exam_sitting_get_state_path (sitting), "{\"star", -1, NULL));
  g_assert_false (viva_exam_sitting_restore (sitting, &error));
  g_assert_nonnull (error);
  g_assert_false (viva_exam_sitting_has_begun (sitting));
}

static void
test_settings (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(VivaExamFile) exam = sitting_fixture_exam (fixture->dir, 600);
  g_autoptr(VivaExamSitting) sitting = viva_exam_sitting_new (exam, fixture->state_dir);
  VivaSettings *settings = viva_settings_get_default ();

  viva_settings_set_examiner_mode (settings, VIVA_EXAMINER_MODE_AUTO);
  viva_exam_sitting_fix_settings (sitting, settings);
  g_assert_true (viva_settings_is_fixed (settings, "examiner-mode"));
  g_assert_true (viva_settings_is_fixed (settings, "examiner-language"));
  g_assert_false (viva_settings_is_fixed (settings, "base-url"));
  g_assert_cmpint (viva_settings_get_examiner_mode (settings), ==, VIVA_EXAMINER_MODE_OFFLINE);
  g_assert_cmpstr (viva_settings_get_examiner_language (settings), ==, "vi");
}

/* The smallest checkpoint a report is built from, of problem @id. */
static JsonNode *
make_checkpoint (VivaExamSession *session,
                 VivaExamFile    *exam,
                 const char      *id)
{
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(VivaPack) one = viva_pack_new (viva_exam_file_get_pack_id (exam), "One");

  viva_pack_add_problem (one, viva_pack_find_problem (viva_exam_file_get_pack (exam), id));
  json_object_set_string_member (root, "format", VIVA_EXAM_CHECKPOINT_FORMAT);
  json_object_set_int_member (root, "version", VIVA_EXAM_CHECKPOINT_VERSION);
  json_object_set_string_member (root, "session", viva_exam_session_get_id (session));
  json_object_set_string_member (root, "pack_id", viva_exam_file_get_pack_id (exam));
  json_object_set_string_member (root, "problem_id", id);
  json_object_set_string_member (root, "problem_sha256", "0");
  json_object_set_string_member (root, "state", "finished");
  json_object_set_string_member (root, "phase", "done");
  json_object_set_member (root, "pack", viva_pack_to_json (one));
  json_object_set_object_member (root, "counters", json_object_new ());
  json_object_set_array_member (root, "messages", json_array_new ());
  json_object_set_array_member (root, "steps", json_array_new ());

  return json_node_init_object (json_node_alloc (), root);
}

static void
test_report (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(VivaExamFile) exam = sitting_fixture_exam (fixture->dir, 600);
  g_autoptr(VivaExamSitting) sitting = viva_exam_sitting_new (exam, fixture->state_dir);
  g_autofree char *sessions = g_build_filename (fixture->dir, "sessions", NULL);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (sessions);
  g_autoptr(JsonNode) checkpoint = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(VivaExamSitting) again = NULL;
  g_autofree char *path = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *base = NULL;
  g_autofree char *json_path = NULL;
  g_autofree char *html = NULL;
  JsonObject *root;
  GStatBuf st;

  viva_exam_sitting_begin (sitting, "Trần Văn An", "S2026-42", NULL);
  viva_exam_sitting_stamp_session (sitting, session);
  g_assert_cmpstr (viva_exam_session_get_student_id (session), ==, "S2026-42");
  checkpoint = make_checkpoint (session, exam, "b");
  viva_exam_session_save_checkpoint (session, checkpoint);

  viva_exam_sitting_hand_in_report_async (sitting, session, "b", NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  path = viva_exam_sitting_hand_in_report_finish (sitting, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (path);

  /* In the exam's folder (made, for the teacher to read), named after the
   * student and the problem, with its JSON beside it. */
  folder = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  g_assert_cmpstr (folder, ==, viva_exam_file_get_report_folder (exam));
  g_assert_true (g_str_has_prefix (base, "Tr"));
  g_test_message ("report: %s", base);
  g_assert_nonnull (strstr (base, "An-S2026_42-b"));
  g_assert_true (g_str_has_suffix (base, ".html"));
  g_assert_cmpint (g_stat (folder, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0755);
  g_assert_true (g_file_get_contents (path, &html, NULL, NULL));
  g_assert_nonnull (strstr (html, "S2026-42"));

  json_path = g_strdup (path);
  memcpy (json_path + strlen (json_path) - 4, "json", 4);
  g_assert_true (json_parser_load_from_file (parser, json_path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "student"), "id"), ==, "S2026-42");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "exam"), "id"), ==, "three");

  /* Remembered on the hand-in, and across a restart. */
  g_assert_cmpstr (viva_exam_hand_in_get_report (viva_exam_sitting_get_hand_in (sitting), "b"), ==, path);
  viva_file_writer_flush ();
  again = viva_exam_sitting_new (exam, fixture->state_dir);
  g_assert_true (viva_exam_sitting_restore (again, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_hand_in_get_report (viva_exam_sitting_get_hand_in (again), "b"), ==, path);
}

static GDateTime *
at_minute (GDateTime *start,
           double     minutes)
{
  return g_date_time_add_seconds (start, minutes * 60);
}

/* An exam's grading_limit: each problem at most 2 gradings (Check or
 * Submit) in any 10 minutes, counted per problem, refused with the time
 * to try again, and kept across a restart; Check forbidden by the exam is
 * refused whatever the limit. */
static void
test_grading_limit (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(VivaExamFile) exam = sitting_fixture_exam_graded (fixture->dir, 3600, TRUE, 2, 10);
  g_autoptr(VivaExamFile) no_check = NULL;
  g_autoptr(VivaExamSitting) sitting = viva_exam_sitting_new (exam, fixture->state_dir);
  g_autoptr(VivaExamSitting) again = NULL;
  g_autoptr(VivaExamSitting) forbidden = NULL;
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) t1 = at_minute (start, 1);
  g_autoptr(GDateTime) t2 = at_minute (start, 2);
  g_autoptr(GDateTime) t9 = at_minute (start, 9);
  g_autoptr(GDateTime) t11 = at_minute (start, 11);
  g_autoptr(GDateTime) back = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;

  viva_exam_sitting_begin (sitting, "An", "S1", start);

  g_assert_true (viva_exam_sitting_request_grading (sitting, "a", TRUE, t1, &error));
  g_assert_no_error (error);
  g_assert_true (viva_exam_sitting_request_grading (sitting, "a", FALSE, t2, &error));
  g_assert_no_error (error);
  /* Another problem has a count of its own. */
  g_assert_true (viva_exam_sitting_request_grading (sitting, "b", TRUE, t2, &error));
  g_assert_no_error (error);

  /* A third within ten minutes is refused, saying when: ten minutes after
   * the first. */
  g_assert_false (viva_exam_sitting_request_grading (sitting, "a", TRUE, t9, &error));
  g_assert_error (error, VIVA_GRADING_ERROR, VIVA_GRADING_ERROR_LIMITED);
  back = at_minute (start, 11);
  local = g_date_time_to_local (back);
  expected = g_date_time_format (local, "again at %H:%M:%S.");
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_suffix (error->message, expected));
  g_assert_nonnull (strstr (error->message, "2 times in any 10 minutes"));
  g_clear_error (&error);

  /* Restarted, the count is the same. */
  viva_file_writer_flush ();
  again = viva_exam_sitting_new (exam, fixture->state_dir);
  g_assert_true (viva_exam_sitting_restore (again, &error));
  g_assert_false (viva_exam_sitting_request_grading (again, "a", FALSE, t9, &error));
  g_assert_error (error, VIVA_GRADING_ERROR, VIVA_GRADING_ERROR_LIMITED);
  g_clear_error (&error);

  /* Once the first grading leaves the window, one more. */
  g_assert_true (viva_exam_sitting_request_grading (again, "a", FALSE, t11, &error));
  g_assert_no_error (error);
  g_assert_false (viva_exam_sitting_request_grading (again, "a", FALSE, t11, &error));
  g_clear_error (&error);

  /* An exam that forbids Check refuses it, and still allows Submit. */
  no_check = sitting_fixture_exam_graded (fixture->dir, 3600, FALSE, 0, 0);
  forbidden = viva_exam_sitting_new (no_check, fixture->state_dir);
  g_assert_false (viva_exam_sitting_request_grading (forbidden, "a", TRUE, NULL, &error));
  g_assert_error (error, VIVA_GRADING_ERROR, VIVA_GRADING_ERROR_CHECK_FORBIDDEN);
  g_assert_cmpstr (error->message, ==, "This exam does not allow Check; Submit for Defense grades your code.");
  g_clear_error (&error);
  for (guint i = 0; i < 5; i++)
    g_assert_true (viva_exam_sitting_request_grading (forbidden, "a", FALSE, NULL, NULL));
}

typedef struct
{
  guint     kept;
  JsonNode *state;
} Kept;

static void
keep_cb (VivaExamSitting *sitting,
         JsonNode        *state,
         gpointer         user_data)
{
  Kept *kept = user_data;

  kept->kept++;
  g_clear_pointer (&kept->state, json_node_unref);
  kept->state = json_node_copy (state);
}

static void
test_kept (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(VivaExamFile) exam = sitting_fixture_exam (fixture->dir, 600);
  g_autoptr(VivaExamSitting) sitting = NULL;
  g_autoptr(VivaExamSitting) again = NULL;
  g_autoptr(VivaExamSitting) late = NULL;
  g_autoptr(GDateTime) started = seconds_ago (100);
  g_autoptr(GError) error = NULL;
  Kept kept = { 0, NULL };
  JsonObject *root;
  VivaExamHandIn *hand_in;
  const char *code = NULL;
  guint time_up = 0;

  sitting = viva_exam_sitting_new_kept (exam, keep_cb, &kept, NULL);
  g_assert_null (viva_exam_sitting_get_state_path (sitting));
  g_assert_false (viva_exam_sitting_restore (sitting, &error));
  g_assert_no_error (error);
  restore_async (sitting, FALSE);

  viva_exam_sitting_begin (sitting, "Lê Thị Hoa", "S2026-17", started);
  g_assert_cmpuint (kept.kept, ==, 1);
  viva_exam_hand_in_code_run (viva_exam_sitting_get_hand_in (sitting), "b", "def b(x):\n    return 2 * x\n");
  viva_exam_hand_in_defense_ended (viva_exam_sitting_get_hand_in (sitting), "a", TRUE);
  g_assert_cmpuint (kept.kept, ==, 3);
  root = json_node_get_object (kept.state);
  g_assert_cmpstr (json_object_get_string_member (root, "student_id"), ==, "S2026-17");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "worked")), ==, 1);

  /* No file of the account's was written. */
  viva_file_writer_flush ();
  g_assert_false (g_file_test (fixture->state_dir, G_FILE_TEST_EXISTS));

  /* Taken back within the time: the same student, clock and lists. */
  again = viva_exam_sitting_new_kept (exam, keep_cb, &kept, NULL);
  g_assert_false (viva_exam_sitting_restore_state (again, NULL));
  g_assert_true (viva_exam_sitting_restore_state (again, kept.state));
  g_assert_cmpstr (viva_exam_sitting_get_student_name (again), ==, "Lê Thị Hoa");
  g_assert_true (g_date_time_equal (viva_exam_sitting_get_started (again), started));
  g_assert_cmpint (viva_exam_sitting_get_time_left (again), >, 400);
  hand_in = viva_exam_sitting_get_hand_in (again);
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "a"), ==, VIVA_EXAM_HAND_IN_DEFENDED);
  g_assert_true (viva_exam_hand_in_is_worked (hand_in, "b"));
  g_assert_false (viva_exam_sitting_restore_state (again, kept.state));

  /* Taken back after the time, given first the code the front held: that
   * code is handed in at once (without the signal), and never the
   * defended problem's. */
  {
    g_autoptr(GDateTime) long_ago = seconds_ago (3600);
    g_autofree char *when = g_date_time_format_iso8601 (long_ago);

    json_object_set_string_member (json_node_get_object (kept.state), "started", when);
  }
  late = viva_exam_sitting_new_kept (exam, keep_cb, &kept, NULL);
  g_signal_connect_swapped (late, "time-up", G_CALLBACK (count_cb), &time_up);
  hand_in = viva_exam_sitting_get_hand_in (late);
  viva_exam_hand_in_code_seen (hand_in, "a", "def a(x):\n    return 3 * x\n", TRUE);
  viva_exam_hand_in_code_seen (hand_in, "c", "def c(x):\n    return 2 * x\n", TRUE);
  g_assert_true (viva_exam_sitting_restore_state (late, kept.state));
  g_assert_true (viva_exam_sitting_get_time_up (late));
  g_assert_cmpuint (time_up, ==, 0);
  g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (hand_in), ==, 1);
  g_assert_cmpstr (viva_exam_hand_in_get_waiting (hand_in, 0, &code), ==, "c");
  g_assert_cmpstr (code, ==, "def c(x):\n    return 2 * x\n");

  g_clear_pointer (&kept.state, json_node_unref);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/viva/sitting/clock", test_clock);
  ADD ("/viva/sitting/no-limit", test_no_limit);
  ADD ("/viva/sitting/restart", test_restart);
  ADD ("/viva/sitting/unreadable-state", test_unreadable_state);
  ADD ("/viva/sitting/settings", test_settings);
  ADD ("/viva/sitting/report", test_report);
  ADD ("/viva/sitting/grading-limit", test_grading_limit);
  ADD ("/viva/sitting/kept", test_kept);
#undef ADD

  return g_test_run ();
}
