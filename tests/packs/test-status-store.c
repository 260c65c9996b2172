/* test-status-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-status-store.h"
#include "viva-test-util.h"

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
  char         *dir;
  char         *path;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->loop = g_main_loop_new (NULL, FALSE);
  fixture->dir = g_dir_make_tmp ("viva-status-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->path = g_build_filename (fixture->dir, "viva", "status.json", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *sub = g_build_filename (fixture->dir, "viva", NULL);

  g_unlink (fixture->path);
  g_rmdir (sub);
  g_unlink (sub);
  g_rmdir (fixture->dir);
  g_clear_object (&fixture->result);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->path, g_free);
  g_clear_pointer (&fixture->loop, g_main_loop_unref);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Fixture *fixture = user_data;

  g_assert_null (fixture->result);
  fixture->result = g_object_ref (result);
  g_main_loop_quit (fixture->loop);
}

static GAsyncResult *
wait_for_result (Fixture *fixture)
{
  while (fixture->result == NULL)
    g_main_loop_run (fixture->loop);

  /* Let the tasks behind the result drop their references too. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  return fixture->result;
}

static gboolean
load (Fixture          *fixture,
      VivaStatusStore  *store,
      GError          **error)
{
  g_clear_object (&fixture->result);
  viva_status_store_load_async (store, NULL, store_result_cb, fixture);
  return viva_status_store_load_finish (store, wait_for_result (fixture), error);
}

static gboolean
flush (Fixture          *fixture,
       VivaStatusStore  *store,
       GError          **error)
{
  g_clear_object (&fixture->result);
  viva_status_store_flush_async (store, NULL, store_result_cb, fixture);
  return viva_status_store_flush_finish (store, wait_for_result (fixture), error);
}

static void
count_cb (VivaStatusStore *store,
          const char      *pack_id,
          const char      *problem_id,
          guint           *count)
{
  g_assert_cmpstr (pack_id, ==, "intro-ai");
  (*count)++;
}

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  VivaStatusStore *store = viva_status_store_new (fixture->path);
  VivaStatusStore *again = NULL;
  g_autoptr(GError) error = NULL;
  double score = 0;
  gboolean passed = FALSE;
  guint changes = 0;

  g_assert_true (load (fixture, store, &error));
  g_assert_no_error (error);
  g_assert_cmpint (viva_status_store_get_status (store, "intro-ai", "knn"), ==, VIVA_PROBLEM_STATUS_NOT_STARTED);
  g_assert_false (viva_status_store_get_verdict (store, "intro-ai", "knn", &score, &passed));

  g_signal_connect (store, "changed", G_CALLBACK (count_cb), &changes);
  viva_status_store_mark_runs (store, "intro-ai", "knn");
  viva_status_store_mark_runs (store, "intro-ai", "knn");
  g_assert_cmpuint (changes, ==, 1);
  g_assert_cmpint (viva_status_store_get_status (store, "intro-ai", "knn"), ==, VIVA_PROBLEM_STATUS_RUNS);

  viva_status_store_mark_defended (store, "intro-ai", "kmeans", 8.5, TRUE);
  viva_status_store_mark_defended (store, "intro-ai", "astar", 3, FALSE);
  /* A later clean run does not undo a defense. */
  viva_status_store_mark_runs (store, "intro-ai", "kmeans");
  g_assert_cmpuint (changes, ==, 3);
  g_assert_true (viva_status_store_has_pending (store));

  g_assert_true (flush (fixture, store, &error));
  g_assert_no_error (error);
  g_assert_false (viva_status_store_has_pending (store));
  g_assert_true (g_file_test (fixture->path, G_FILE_TEST_IS_REGULAR));

  again = viva_status_store_new (fixture->path);
  g_assert_true (load (fixture, again, &error));
  g_assert_cmpint (viva_status_store_get_status (again, "intro-ai", "knn"), ==, VIVA_PROBLEM_STATUS_RUNS);
  g_assert_cmpint (viva_status_store_get_status (again, "intro-ai", "kmeans"), ==, VIVA_PROBLEM_STATUS_DEFENDED);
  g_assert_true (viva_status_store_get_verdict (again, "intro-ai", "kmeans", &score, &passed));
  g_assert_cmpfloat (score, ==, 8.5);
  g_assert_true (passed);
  g_assert_true (viva_status_store_get_verdict (again, "intro-ai", "astar", &score, &passed));
  g_assert_cmpfloat (score, ==, 3.0);
  g_assert_false (passed);
  g_assert_cmpint (viva_status_store_get_status (again, "other", "kmeans"), ==, VIVA_PROBLEM_STATUS_NOT_STARTED);

  viva_status_store_forget (again, "intro-ai", "kmeans");
  g_assert_cmpint (viva_status_store_get_status (again, "intro-ai", "kmeans"), ==, VIVA_PROBLEM_STATUS_NOT_STARTED);
  g_assert_true (flush (fixture, again, &error));

  g_clear_object (&fixture->result);
  viva_test_assert_finalize_soon (again);
  viva_test_assert_finalize_soon (store);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_corrupt_file (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *dir = g_path_get_dirname (fixture->path);
  VivaStatusStore *store = viva_status_store_new (fixture->path);
  g_autoptr(GError) error = NULL;
  guint notified = 0;

  g_mkdir_with_parents (dir, 0700);
  g_file_set_contents (fixture->path, "{\"packs\": {\"intro-ai\": [tru", -1, &error);
  g_assert_no_error (error);

  g_assert_false (load (fixture, store, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (viva_status_store_get_error_message (store));
  g_clear_error (&error);

  /* Still usable, and a good write clears the message. */
  g_signal_connect (store, "notify::error-message", G_CALLBACK (count_notify_cb), &notified);
  viva_status_store_mark_runs (store, "intro-ai", "knn");
  g_assert_true (flush (fixture, store, &error));
  g_assert_no_error (error);
  g_assert_null (viva_status_store_get_error_message (store));
  viva_status_store_mark_runs (store, "intro-ai", "kmeans");
  g_assert_true (flush (fixture, store, &error));
  g_assert_cmpuint (notified, ==, 1);

  g_clear_object (&fixture->result);
  viva_test_assert_finalize_soon (store);
}

static void
test_partly_bad_entries (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *dir = g_path_get_dirname (fixture->path);
  VivaStatusStore *store = viva_status_store_new (fixture->path);
  g_autoptr(GError) error = NULL;
  const char *text =
    "{\"version\": 1, \"packs\": {"
    "\"intro-ai\": {\"knn\": {\"status\": \"runs\"}, \"x/y\": {\"status\": \"runs\"},"
    "              \"astar\": {\"status\": \"flying\"}, \"bfs\": 3},"
    "\"../evil\": {\"p\": {\"status\": \"runs\"}}}}";

  g_mkdir_with_parents (dir, 0700);
  g_file_set_contents (fixture->path, text, -1, &error);
  g_assert_no_error (error);

  g_assert_true (load (fixture, store, &error));
  g_assert_cmpint (viva_status_store_get_status (store, "intro-ai", "knn"), ==, VIVA_PROBLEM_STATUS_RUNS);
  g_assert_cmpint (viva_status_store_get_status (store, "intro-ai", "astar"), ==, VIVA_PROBLEM_STATUS_NOT_STARTED);
  g_assert_cmpint (viva_status_store_get_status (store, "../evil", "p"), ==, VIVA_PROBLEM_STATUS_NOT_STARTED);

  g_clear_object (&fixture->result);
  viva_test_assert_finalize_soon (store);
}

static void
test_write_failure (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *blocker = g_build_filename (fixture->dir, "viva", NULL);
  VivaStatusStore *store = viva_status_store_new (fixture->path);
  g_autoptr(GError) error = NULL;

  /* The folder's place is taken by a file. */
  g_file_set_contents (blocker, "", -1, &error);
  g_assert_no_error (error);

  viva_status_store_mark_defended (store, "intro-ai", "knn", 10, TRUE);
  g_assert_false (flush (fixture, store, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (viva_status_store_get_error_message (store));
  /* The status is still known in memory. */
  g_assert_cmpint (viva_status_store_get_status (store, "intro-ai", "knn"), ==, VIVA_PROBLEM_STATUS_DEFENDED);

  g_clear_object (&fixture->result);
  viva_test_assert_finalize_soon (store);
}

static void
test_default_path (void)
{
  VivaStatusStore *store = viva_status_store_new (NULL);
  g_autofree char *want = g_build_filename (g_get_user_data_dir (), "viva", "status.json", NULL);

  g_assert_cmpstr (viva_status_store_get_path (store), ==, want);
  viva_test_assert_finalize_soon (store);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/viva/packs/status-store/round-trip", test_round_trip);
  ADD ("/viva/packs/status-store/corrupt-file", test_corrupt_file);
  ADD ("/viva/packs/status-store/partly-bad-entries", test_partly_bad_entries);
  ADD ("/viva/packs/status-store/write-failure", test_write_failure);
#undef ADD
  g_test_add_func ("/viva/packs/status-store/default-path", test_default_path);

  return g_test_run ();
}
