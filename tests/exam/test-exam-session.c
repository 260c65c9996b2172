/* test-exam-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "exam-test-common.h"
#include "viva-exam-pack-ref.h"
#include "viva-core.h"
#include "viva-file-writer.h"
#include "viva-scripted-model.h"
#include "viva-test-util.h"

/* Sessions: checkpoints written after every step, resumed in a new
 * examiner exactly where they stopped; the trace; bad checkpoints kept
 * aside with a clear error. In-process, with the offline examiner and the
 * real worker. */

#define CODE "def add(a, b):\n    return a + b\n"

typedef struct
{
  char         *dir;
  VivaProblem  *problem;
  GAsyncResult *result;
  char         *question_step;
  gboolean      cancel_on_question;
  GCancellable *cancellable;
} Fixture;


static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("viva-exam-session-XXXXXX", NULL);
  g_assert_nonnull (fixture->dir);
  fixture->problem = exam_problem_new ();
  fixture->cancellable = g_cancellable_new ();
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->question_step, g_free);
  g_clear_object (&fixture->problem);
  g_clear_object (&fixture->result);
  g_clear_object (&fixture->cancellable);
}


static void
on_question (VivaExaminer *examiner,
             const char   *step,
             const char   *question,
             Fixture      *fixture)
{
  g_autoptr(GError) error = NULL;

  g_free (fixture->question_step);
  fixture->question_step = g_strdup (step);

  if (fixture->cancel_on_question)
    {
      g_cancellable_cancel (fixture->cancellable);
      return;
    }

  g_assert_true (viva_examiner_answer (examiner, "It adds them.", &error));
  g_assert_no_error (error);
}

static VivaExaminer *
examiner_new (Fixture    *fixture,
              VivaProblem *problem)
{
  g_autoptr(VivaScriptedModel) model = viva_scripted_model_new (problem);
  g_autoptr(VivaTextCodeSource) source = viva_text_code_source_new (CODE);
  VivaExaminer *examiner = viva_examiner_new (VIVA_CHAT_MODEL (model), problem, VIVA_CODE_SOURCE (source));

  viva_examiner_set_pack_id (examiner, "test-pack");
  g_signal_connect (examiner, "question", G_CALLBACK (on_question), fixture);

  return examiner;
}

static void
flush (VivaExamSession *session)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_exam_session_flush_async (session, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_exam_session_flush_finish (session, result, &error));
  g_assert_no_error (error);
}

static VivaExamVerdict *
run (Fixture          *fixture,
     VivaExaminer     *examiner,
     VivaExamSession  *resume_from,
     GError          **error)
{
  g_clear_object (&fixture->result);
  if (resume_from != NULL)
    {
      viva_examiner_resume_async (examiner, resume_from, fixture->cancellable, viva_test_store_result, &fixture->result);
      viva_test_run_until_result (&fixture->result);
      return viva_examiner_resume_finish (examiner, fixture->result, error);
    }

  viva_examiner_run_async (examiner, fixture->cancellable, viva_test_store_result, &fixture->result);
  viva_test_run_until_result (&fixture->result);
  return viva_examiner_run_finish (examiner, fixture->result, error);
}

static VivaExamSession *
load (Fixture    *fixture,
      const char *id,
      GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  viva_exam_session_load_async (fixture->dir, id, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  return viva_exam_session_load_finish (result, error);
}

/* The transcript without what legitimately differs between runs: timings. */
static char *
normalize (GPtrArray *messages)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < messages->len; i++)
    {
      g_autoptr(JsonNode) node = viva_chat_message_to_json (g_ptr_array_index (messages, i));
      JsonObject *object = json_node_get_object (node);
      g_autofree char *text = NULL;

      if (json_object_has_member (object, "content") &&
          g_strcmp0 (json_object_get_string_member_with_default (object, "role", ""), "tool") == 0)
        {
          g_autoptr(JsonNode) content = json_from_string (json_object_get_string_member (object, "content"), NULL);

          if (content && JSON_NODE_HOLDS_OBJECT (content))
            {
              json_object_remove_member (json_node_get_object (content), "duration_ms");
              json_object_set_member (object, "content", g_steal_pointer (&content));
            }
        }

      text = json_to_string (node, FALSE);
      g_string_append_printf (out, "%s\n", text);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_resume_waiting (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaExaminer) first = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExaminer) second = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExaminer) straight = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamSession) loaded = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(VivaExamVerdict) expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *asked_at = NULL;
  g_autofree char *trace_path = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  JsonObject *checkpoint;

  /* Stop while the question waits, as a crash or a closed window would. */
  fixture->cancel_on_question = TRUE;
  viva_examiner_set_session (first, session);
  verdict = run (fixture, first, NULL, &error);
  g_assert_null (verdict);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  asked_at = g_strdup (fixture->question_step);
  flush (session);

  loaded = load (fixture, viva_exam_session_get_id (session), &error);
  g_assert_no_error (error);
  checkpoint = json_node_get_object (viva_exam_session_get_checkpoint (loaded));
  g_assert_cmpstr (json_object_get_string_member (checkpoint, "phase"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (checkpoint, "pending"), "question"),
                   ==, "Why does add work for strings too?");
  g_assert_cmpstr (viva_exam_session_get_pack_id (loaded), ==, "test-pack");

  /* A new examiner asks the same question again, at the same step. */
  fixture->cancel_on_question = FALSE;
  g_clear_pointer (&fixture->question_step, g_free);
  g_cancellable_reset (fixture->cancellable);
  verdict = run (fixture, second, loaded, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (fixture->question_step, ==, asked_at);
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_FINISHED);
  g_assert_true (viva_exam_verdict_get_passed (verdict));
  g_assert_cmpuint (viva_examiner_get_n_answers (second), ==, 1);

  /* The transcript is the one an uninterrupted defense gives. */
  expected = run (fixture, straight, NULL, &error);
  g_assert_no_error (error);
  a = normalize (viva_examiner_get_messages (second));
  b = normalize (viva_examiner_get_messages (straight));
  g_assert_cmpstr (a, ==, b);

  flush (loaded);
  trace_path = g_build_filename (viva_exam_session_get_dir (loaded), "trace.jsonl", NULL);
  g_assert_true (g_file_get_contents (trace_path, &trace, NULL, NULL));
  {
    g_auto(GStrv) lines = g_strsplit (trace, "\n", -1);
    const char *wanted[] = { "start", "code", "request", "reply", "tool_call", "tool_result",
                             "cancelled", "resume", "prime", "answer", "verdict" };

    for (guint i = 0; lines[i] && *lines[i]; i++)
      {
        g_autoptr(JsonNode) line = json_from_string (lines[i], &error);

        g_assert_no_error (error);
        g_assert_true (JSON_NODE_HOLDS_OBJECT (line));
      }
    for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
      {
        g_autofree char *needle = g_strdup_printf ("{\"event\":\"%s\"", wanted[i]);

        if (strstr (trace, needle) == NULL)
          g_error ("the trace has no “%s” event", wanted[i]);
      }
    g_assert_null (strstr (trace, "Authorization"));
  }
}

static void
test_resume_finished (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaExaminer) first = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExaminer) second = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamSession) loaded = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(VivaExamVerdict) again = NULL;
  g_autoptr(GError) error = NULL;

  viva_examiner_set_session (first, session);
  verdict = run (fixture, first, NULL, &error);
  g_assert_no_error (error);
  flush (session);
  g_assert_cmpuint (viva_exam_session_get_checkpoint_writes (session), >=, 1);

  loaded = load (fixture, viva_exam_session_get_id (session), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_session_get_state (loaded), ==, "finished");

  again = run (fixture, second, loaded, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_exam_verdict_get_score (again), ==, viva_exam_verdict_get_score (verdict));
  g_assert_cmpuint (viva_examiner_get_n_steps (second), ==, viva_examiner_get_n_steps (first));
  g_assert_cmpint (viva_examiner_get_state (second), ==, VIVA_EXAMINER_STATE_FINISHED);
}

static void
test_problem_changed (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaExaminer) first = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaProblem) changed = exam_problem_new ();
  g_autoptr(VivaExaminer) second = examiner_new (fixture, changed);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamSession) loaded = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(VivaProblem) stored = NULL;
  g_autoptr(GError) error = NULL;

  viva_examiner_set_session (first, session);
  verdict = run (fixture, first, NULL, &error);
  g_assert_no_error (error);
  flush (session);
  g_clear_object (&verdict);

  loaded = load (fixture, viva_exam_session_get_id (session), &error);
  g_assert_no_error (error);

  /* A problem made in memory has no pack to name: said, not guessed. */
  stored = viva_exam_session_dup_problem (loaded, &error);
  g_assert_null (stored);
  g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PACK_MISSING);
  g_clear_error (&error);

  viva_problem_add_test (changed, "another", "assert add(0, 0) == 0\n");
  verdict = run (fixture, second, loaded, &error);
  g_assert_null (verdict);
  g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PROBLEM_CHANGED);
}

static void
check_bad (Fixture      *fixture,
           const char   *id,
           const char   *contents,
           gssize        length,
           VivaExamError code,
           const char   *kept_as)
{
  g_autofree char *session_dir = g_build_filename (fixture->dir, id, NULL);
  g_autofree char *path = g_build_filename (session_dir, "checkpoint.json", NULL);
  g_autoptr(VivaExamSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;
  gboolean kept = FALSE;

  g_assert_cmpint (g_mkdir_with_parents (session_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, length, NULL));

  session = load (fixture, id, &error);
  g_assert_null (session);
  g_assert_error (error, VIVA_EXAM_ERROR, (int)code);
  g_assert_nonnull (strstr (error->message, "was kept as"));

  /* Moved aside, never deleted, its bytes intact. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  dir = g_dir_open (session_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, kept_as))
      {
        g_autofree char *aside = g_build_filename (session_dir, name, NULL);
        g_autofree char *read = NULL;
        gsize read_length;

        g_assert_true (g_file_get_contents (aside, &read, &read_length, NULL));
        g_assert_cmpmem (read, read_length, contents, length < 0 ? strlen (contents) : (gsize)length);
        kept = TRUE;
      }
  g_assert_true (kept);
}

/* Who defends and the integrity timeline (issue 16's exam mode builds on
 * these) are in every checkpoint from the moment they are set, and come
 * back with the session. */
static void
test_student_timeline (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(VivaExaminer) examiner = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamSession) loaded = NULL;
  g_autoptr(VivaExamSession) again = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(JsonObject) run_event = json_object_new ();
  g_autoptr(JsonObject) paste_event = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  JsonObject *checkpoint;
  JsonArray *timeline;

  viva_exam_session_set_student (session, "Nguyễn Văn An", "S1234");
  json_object_set_string_member (run_event, "kind", "run");
  viva_exam_session_add_timeline_event (session, run_event);

  viva_examiner_set_session (examiner, session);
  verdict = run (fixture, examiner, NULL, &error);
  g_assert_no_error (error);

  /* After the verdict too: the saved checkpoint is rewritten at once. */
  json_object_set_string_member (paste_event, "time", "2026-11-30T16:00:00Z");
  json_object_set_string_member (paste_event, "kind", "paste");
  json_object_set_int_member (paste_event, "characters", 420);
  viva_exam_session_add_timeline_event (session, paste_event);
  flush (session);

  loaded = load (fixture, viva_exam_session_get_id (session), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_session_get_student_name (loaded), ==, "Nguyễn Văn An");
  g_assert_cmpstr (viva_exam_session_get_student_id (loaded), ==, "S1234");
  timeline = viva_exam_session_get_timeline (loaded);
  g_assert_cmpuint (json_array_get_length (timeline), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (timeline, 0), "kind"), ==, "run");
  g_assert_true (json_object_has_member (json_array_get_object_element (timeline, 0), "time"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (timeline, 1), "time"),
                   ==, "2026-11-30T16:00:00Z");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (timeline, 1), "characters"), ==, 420);

  checkpoint = json_node_get_object (viva_exam_session_get_checkpoint (loaded));
  g_assert_cmpstr (json_object_get_string_member (checkpoint, "phase"), ==, "done");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (checkpoint, "student"), "id"),
                   ==, "S1234");

  /* A loaded session keeps both through its next checkpoint. */
  viva_exam_session_set_student (loaded, "Nguyễn Văn An", "S1235");
  flush (loaded);
  again = load (fixture, viva_exam_session_get_id (session), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_session_get_student_id (again), ==, "S1235");
  g_assert_cmpuint (json_array_get_length (viva_exam_session_get_timeline (again)), ==, 2);

  path = g_build_filename (viva_exam_session_get_dir (session), "trace.jsonl", NULL);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "{\"event\":\"timeline\""));
  g_assert_nonnull (strstr (text, "\"kind\":\"paste\""));
}

static void
write_pack (const char *path,
            const char *title)
{
  g_autoptr(VivaPack) pack = viva_pack_new ("test-pack", "Tests");
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autoptr(GBytes) bytes = NULL;

  viva_problem_set_title (problem, title);
  viva_pack_add_problem (pack, problem);
  bytes = viva_pack_to_bytes (pack);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
}

/* Sessions name their pack by id, digest and path; resume reads it again,
 * from the library if it moved there, and says what to do when it is gone
 * or changed. The checkpoint holds neither the reference nor the tests. */
static void
test_pack_ref (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "pack.json", NULL);
  g_autofree char *library = g_build_filename (fixture->dir, "library", NULL);
  g_autofree char *moved = g_build_filename (library, "renamed.json", NULL);
  g_autofree char *checkpoint_path = NULL;
  g_autofree char *checkpoint_text = NULL;
  g_autofree char *digest = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonObject) pack_ref = NULL;
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(VivaExamSession) session = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamSession) loaded = NULL;
  g_autoptr(VivaExaminer) first = NULL;
  g_autoptr(VivaExaminer) again = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(VivaProblem) problem = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  gsize length;
  char *text;

  write_pack (path, "Add two numbers");
  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  bytes = g_bytes_new_take (text, length);
  pack = viva_pack_new_from_bytes (bytes, &error);
  g_assert_no_error (error);
  pack_ref = viva_exam_pack_ref_new ("test-pack", bytes, path);

  first = examiner_new (fixture, viva_pack_find_problem (pack, "add"));
  viva_examiner_set_pack_ref (first, pack_ref);
  viva_examiner_set_session (first, session);
  fixture->cancel_on_question = TRUE;
  verdict = run (fixture, first, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  flush (session);

  checkpoint_path = g_build_filename (viva_exam_session_get_dir (session), "checkpoint.json", NULL);
  g_assert_true (g_file_get_contents (checkpoint_path, &checkpoint_text, NULL, NULL));
  /* (The offline examiner's probes are the hidden tests; the model's are
   * its own, see /viva/exam/hidden-stays-hidden.) */
  g_assert_null (strstr (checkpoint_text, "\"reference\""));
  g_assert_null (strstr (checkpoint_text, "\"tests\""));

  loaded = load (fixture, viva_exam_session_get_id (session), &error);
  g_assert_no_error (error);
  root = json_node_get_object (viva_exam_session_get_checkpoint (loaded));
  g_assert_false (json_object_has_member (root, "pack"));
  digest = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "pack_ref"), "digest"),
                   ==, digest);

  /* Read again from its file, and resumed. */
  problem = viva_exam_session_dup_problem (loaded, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_problem_get_reference (problem), ==, "def add(a, b):\n    return a + b\n");
  fixture->cancel_on_question = FALSE;
  g_cancellable_reset (fixture->cancellable);
  again = examiner_new (fixture, problem);
  g_clear_object (&verdict);
  verdict = run (fixture, again, loaded, &error);
  g_assert_no_error (error);
  g_assert_true (viva_exam_verdict_get_passed (verdict));
  g_clear_object (&problem);

  /* Moved into the library under another name: found by its digest. */
  g_assert_cmpint (g_mkdir_with_parents (library, 0700), ==, 0);
  g_assert_cmpint (g_rename (path, moved), ==, 0);
  problem = viva_exam_pack_ref_load_problem (pack_ref, "add", library, &error);
  g_assert_no_error (error);
  g_clear_object (&problem);

  /* Gone. */
  problem = viva_exam_pack_ref_load_problem (pack_ref, "add", fixture->dir, &error);
  g_assert_null (problem);
  g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PACK_MISSING);
  g_assert_nonnull (strstr (error->message, "Put the file back, then resume again."));
  g_clear_error (&error);

  /* Changed. */
  write_pack (path, "Add two numbers, changed");
  problem = viva_exam_pack_ref_load_problem (pack_ref, "add", fixture->dir, &error);
  g_assert_null (problem);
  g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PROBLEM_CHANGED);
  g_assert_nonnull (strstr (error->message, "changed since this defense was started"));
  g_clear_error (&error);

  g_unlink (moved);
  g_unlink (path);
  g_rmdir (library);
}

static void
test_bad_checkpoints (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaExaminer) examiner = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *good = NULL;
  g_autofree char *future = NULL;
  gsize length;

  viva_examiner_set_session (examiner, session);
  verdict = run (fixture, examiner, NULL, &error);
  g_assert_no_error (error);
  flush (session);
  path = g_build_filename (viva_exam_session_get_dir (session), "checkpoint.json", NULL);
  g_assert_true (g_file_get_contents (path, &good, &length, NULL));

  future = g_strdup (good);
  {
    char *version = strstr (future, "\"version\" : 1");

    g_assert_nonnull (version);
    version[strlen ("\"version\" : ")] = '7';
  }

  check_bad (fixture, "empty", "", 0, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "checkpoint.json.corrupt-");
  check_bad (fixture, "truncated", good, length / 2, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "checkpoint.json.corrupt-");
  check_bad (fixture, "garbage", "\x89PNG\r\n\x1a\n", 8, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "checkpoint.json.corrupt-");
  check_bad (fixture, "future", future, length, VIVA_EXAM_ERROR_CHECKPOINT_NEWER, "checkpoint.json.newer-");
  {
    g_autofree char *student = g_strdup_printf ("{\"student\": 7, %s", strchr (good, '{') + 1);
    g_autofree char *timeline = g_strdup_printf ("{\"timeline\": [\"run\"], %s", strchr (good, '{') + 1);

    check_bad (fixture, "student", student, -1, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "checkpoint.json.corrupt-");
    check_bad (fixture, "timeline", timeline, -1, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "checkpoint.json.corrupt-");
  }

  /* A missing session is an error of its own, and nothing is moved. */
  g_assert_null (viva_exam_session_load (fixture->dir, "nobody", &error));
  g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (viva_exam_session_load (fixture->dir, "../escape", &error));
  g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_FOUND);
}

static void
test_list_unfinished (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaExaminer) finished = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExaminer) waiting = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExamSession) done = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamSession) open = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) ids = NULL;

  viva_examiner_set_session (finished, done);
  verdict = run (fixture, finished, NULL, &error);
  g_assert_no_error (error);

  fixture->cancel_on_question = TRUE;
  viva_examiner_set_session (waiting, open);
  g_assert_null (run (fixture, waiting, NULL, &error));
  g_clear_error (&error);
  flush (done);
  flush (open);

  viva_exam_session_list_unfinished_async (fixture->dir, "test-pack", "add", NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  ids = viva_exam_session_list_unfinished_finish (result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (ids), ==, 1);
  g_assert_cmpstr (ids[0], ==, viva_exam_session_get_id (open));
}

typedef struct
{
  VivaTextCodeSource *source;
  VivaExaminer       *examiner;
} Edit;

static gboolean
answer_later_cb (gpointer user_data)
{
  Edit *edit = user_data;

  g_assert_true (viva_examiner_answer (edit->examiner, "It adds them.", NULL));
  return G_SOURCE_REMOVE;
}

static void
edit_on_question (VivaExaminer *examiner,
                  const char   *step,
                  const char   *question,
                  Edit         *edit)
{
  /* Two quick edits while the question waits: one trace line a second. */
  viva_text_code_source_set_code (edit->source, "def add(a, b):\n    return b + a\n");
  viva_text_code_source_set_code (edit->source, "def add(a, b):\n    return a + b  # sure\n");
  g_timeout_add (1300, answer_later_cb, edit);
}

static void
test_edits_traced (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(VivaScriptedModel) model = viva_scripted_model_new (fixture->problem);
  g_autoptr(VivaTextCodeSource) source = viva_text_code_source_new (CODE);
  g_autoptr(VivaExaminer) examiner = viva_examiner_new (VIVA_CHAT_MODEL (model), fixture->problem,
                                                        VIVA_CODE_SOURCE (source));
  g_autoptr(VivaExamSession) session = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *trace = NULL;
  Edit edit = { source, examiner };
  const char *at;
  guint n_edits = 0;

  g_signal_connect (examiner, "question", G_CALLBACK (edit_on_question), &edit);
  viva_examiner_set_session (examiner, session);
  verdict = run (fixture, examiner, NULL, &error);
  g_assert_no_error (error);
  flush (session);

  path = g_build_filename (viva_exam_session_get_dir (session), "trace.jsonl", NULL);
  g_assert_true (g_file_get_contents (path, &trace, NULL, NULL));
  for (at = trace; (at = strstr (at, "{\"event\":\"code_edit\"")) != NULL; at++)
    n_edits++;
  g_assert_cmpuint (n_edits, ==, 1);
  g_assert_nonnull (strstr (trace, "\"edited\":true"));
}

/* The answer being typed to a pending question is kept beside the
 * checkpoint, read back after a restart, and gone once it is sent. */
static void
test_answer_draft (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(VivaExaminer) examiner = examiner_new (fixture, fixture->problem);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (fixture->dir);
  g_autoptr(VivaExamSession) loaded = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *draft = NULL;
  g_autofree char *path = NULL;
  g_autofree char *huge = NULL;

  viva_examiner_set_session (examiner, session);
  verdict = run (fixture, examiner, NULL, &error);
  g_assert_no_error (error);
  flush (session);
  g_assert_null (viva_exam_session_dup_answer_draft (session));

  viva_exam_session_save_answer_draft (session, "It finds a local minimum, so");
  viva_exam_session_save_answer_draft (session, "It finds a local minimum, so the start");
  viva_file_writer_flush ();
  loaded = load (fixture, viva_exam_session_get_id (session), &error);
  g_assert_no_error (error);
  draft = viva_exam_session_dup_answer_draft (loaded);
  g_assert_cmpstr (draft, ==, "It finds a local minimum, so the start");

  viva_exam_session_save_answer_draft (session, "");
  viva_file_writer_flush ();
  g_assert_null (viva_exam_session_dup_answer_draft (loaded));

  /* A file that Viva did not write is not taken for a draft. */
  path = g_build_filename (viva_exam_session_get_dir (session), "answer-draft.txt", NULL);
  huge = g_strnfill (1024 * 1024, 'x');
  g_assert_true (g_file_set_contents (path, huge, -1, NULL));
  g_assert_null (viva_exam_session_dup_answer_draft (loaded));
  g_assert_true (g_file_set_contents (path, "\xff\xfe not text", -1, NULL));
  g_assert_null (viva_exam_session_dup_answer_draft (loaded));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, func) \
  g_test_add ("/viva/exam/session/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("resume-waiting", test_resume_waiting);
  ADD ("resume-finished", test_resume_finished);
  ADD ("problem-changed", test_problem_changed);
  ADD ("bad-checkpoints", test_bad_checkpoints);
  ADD ("list-unfinished", test_list_unfinished);
  ADD ("edits-traced", test_edits_traced);
  ADD ("student-timeline", test_student_timeline);
  ADD ("pack-ref", test_pack_ref);
  ADD ("answer-draft", test_answer_draft);

  return g_test_run ();
}
