/* test-code-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-code-store.h"
#include "viva-id.h"
#include "viva-test-util.h"

typedef struct
{
  GMainLoop *loop;
  char      *dir;
  char      *text;
  GError    *error;
  gboolean   ok;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->loop = g_main_loop_new (NULL, FALSE);
  f->dir = g_dir_make_tmp ("viva-code-store-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}


static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  viva_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->text);
  g_clear_error (&f->error);
  g_main_loop_unref (f->loop);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Fixture *f = user_data;

  g_clear_pointer (&f->text, g_free);
  g_clear_error (&f->error);
  f->text = viva_code_store_load_finish (VIVA_CODE_STORE (object), result, &f->error);
  g_main_loop_quit (f->loop);
}

static void
flush_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Fixture *f = user_data;

  g_clear_error (&f->error);
  f->ok = viva_code_store_flush_finish (VIVA_CODE_STORE (object), result, &f->error);
  g_main_loop_quit (f->loop);
}

static char *
load (Fixture       *f,
      VivaCodeStore *store,
      const char    *pack,
      const char    *problem)
{
  viva_code_store_load_async (store, pack, problem, NULL, load_cb, f);
  g_main_loop_run (f->loop);
  return g_steal_pointer (&f->text);
}

static void
flush (Fixture       *f,
       VivaCodeStore *store)
{
  viva_code_store_flush_async (store, NULL, flush_cb, f);
  g_main_loop_run (f->loop);
}

static void
test_create_destroy (Fixture       *f,
                     gconstpointer  data)
{
  VivaCodeStore *store = viva_code_store_new (f->dir);

  g_assert_cmpstr (viva_code_store_get_directory (store), ==, f->dir);
  g_assert_null (viva_code_store_get_error_message (store));
  g_assert_finalize_object (store);
}

static void
test_nothing_saved (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(VivaCodeStore) store = viva_code_store_new (f->dir);
  g_autofree char *text = load (f, store, "intro-ai", "kmeans");

  g_assert_null (text);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_round_trip (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(VivaCodeStore) store = viva_code_store_new (f->dir);
  g_autoptr(VivaCodeStore) again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = g_build_filename (f->dir, "intro-ai", "kmeans.py", NULL);
  const char *code = "def kmeans(points, k):\n    return 'é ✓'\n";

  viva_code_store_queue_save (store, "intro-ai", "kmeans", "first draft");
  viva_code_store_queue_save (store, "intro-ai", "kmeans", code);
  g_assert_true (viva_code_store_has_pending (store));

  /* A queued text is what a reload sees, before it reaches the disk. */
  text = load (f, store, "intro-ai", "kmeans");
  g_assert_cmpstr (text, ==, code);
  g_clear_pointer (&text, g_free);

  flush (f, store);
  g_assert_no_error (f->error);
  g_assert_true (f->ok);
  g_assert_false (viva_code_store_has_pending (store));
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  /* A new store, as after a restart, reads the last text. */
  again = viva_code_store_new (f->dir);
  text = load (f, again, "intro-ai", "kmeans");
  g_assert_no_error (f->error);
  g_assert_cmpstr (text, ==, code);
}

static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_debounced (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(VivaCodeStore) store = viva_code_store_new (f->dir);
  g_autofree char *path = g_build_filename (f->dir, "p", "q.py", NULL);
  g_autofree char *contents = NULL;

  viva_code_store_set_delay (store, 50);
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *text = g_strdup_printf ("x = %u\n", i);
      viva_code_store_queue_save (store, "p", "q", text);
    }
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  while (viva_code_store_has_pending (store) || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_timeout_add (20, quit_cb, f->loop);
      g_main_loop_run (f->loop);
    }

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "x = 19\n");
}

static void
test_invalid_ids (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(VivaCodeStore) store = viva_code_store_new (f->dir);
  g_autofree char *text = NULL;

  g_assert_false (viva_id_is_valid ("../etc"));
  g_assert_false (viva_id_is_valid (".hidden"));
  g_assert_false (viva_id_is_valid ("a/b"));
  g_assert_false (viva_id_is_valid (""));
  g_assert_true (viva_id_is_valid ("intro-ai_2.1"));

  text = load (f, store, "..", "passwd");
  g_assert_null (text);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
test_write_failure_keeps_message (Fixture       *f,
                                  gconstpointer  data)
{
  g_autofree char *blocker = g_build_filename (f->dir, "blocked", NULL);
  g_autoptr(VivaCodeStore) store = NULL;
  g_autofree char *text = NULL;

  /* A file where the store's directory should be makes every write fail,
   * the way a full or read-only disk would. */
  g_assert_true (g_file_set_contents (blocker, "", 0, NULL));
  store = viva_code_store_new (blocker);

  viva_code_store_queue_save (store, "p", "q", "print(1)\n");
  flush (f, store);
  g_assert_false (f->ok);
  g_assert_nonnull (f->error);
  g_assert_nonnull (viva_code_store_get_error_message (store));
  g_assert_nonnull (strstr (viva_code_store_get_error_message (store), "still in the editor"));
}

static void
test_invalid_utf8 (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(VivaCodeStore) store = viva_code_store_new (f->dir);
  g_autofree char *pack_dir = g_build_filename (f->dir, "p", NULL);
  g_autofree char *path = g_build_filename (pack_dir, "q.py", NULL);
  g_autofree char *text = NULL;

  g_assert_cmpint (g_mkdir_with_parents (pack_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "\xff\xfe broken", -1, NULL));

  text = load (f, store, "p", "q");
  g_assert_null (text);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  /* The file is left for the student to recover. */
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/viva/code-store/create-destroy", Fixture, NULL, fixture_setup, test_create_destroy, fixture_teardown);
  g_test_add ("/viva/code-store/nothing-saved", Fixture, NULL, fixture_setup, test_nothing_saved, fixture_teardown);
  g_test_add ("/viva/code-store/round-trip", Fixture, NULL, fixture_setup, test_round_trip, fixture_teardown);
  g_test_add ("/viva/code-store/debounced", Fixture, NULL, fixture_setup, test_debounced, fixture_teardown);
  g_test_add ("/viva/code-store/invalid-ids", Fixture, NULL, fixture_setup, test_invalid_ids, fixture_teardown);
  g_test_add ("/viva/code-store/write-failure", Fixture, NULL, fixture_setup, test_write_failure_keeps_message, fixture_teardown);
  g_test_add ("/viva/code-store/invalid-utf8", Fixture, NULL, fixture_setup, test_invalid_utf8, fixture_teardown);

  return g_test_run ();
}
