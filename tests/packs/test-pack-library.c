/* test-pack-library.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-core.h"
#include "viva-pack-library.h"
#include "viva-test-util.h"

typedef struct
{
  GMainLoop       *loop;
  GAsyncResult    *result;
  char            *dir;
  char            *packs_dir;
  VivaPackLibrary *library;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->loop = g_main_loop_new (NULL, FALSE);
  fixture->dir = g_dir_make_tmp ("viva-library-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->packs_dir = g_build_filename (fixture->dir, "packs", NULL);
  fixture->library = viva_pack_library_new (fixture->packs_dir);
}


static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->result);
  viva_test_assert_finalize_soon (fixture->library);
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->packs_dir, g_free);
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
  g_clear_object (&fixture->result);
  while (fixture->result == NULL)
    g_main_loop_run (fixture->loop);

  /* Let the tasks behind the result drop their references too. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  return fixture->result;
}

static char *
fixture_path (const char *dir,
              const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "packs", dir, name, NULL);
}

static void
copy_into (const char *from,
           const char *dir,
           const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *to = g_build_filename (dir, name, NULL);
  gsize len;

  g_mkdir_with_parents (dir, 0700);
  g_file_get_contents (from, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, len, &error);
  g_assert_no_error (error);
}

static void
load (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  GAsyncResult *result;

  g_clear_object (&fixture->result);
  viva_pack_library_load_async (fixture->library, NULL, store_result_cb, fixture);
  result = wait_for_result (fixture);
  g_assert_true (viva_pack_library_load_finish (fixture->library, result, &error));
  g_assert_no_error (error);
}

static VivaPack *
import (Fixture     *fixture,
        const char  *path,
        GPtrArray  **issues,
        GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_clear_object (&fixture->result);
  viva_pack_library_import_async (fixture->library, file, NULL, store_result_cb, fixture);
  return viva_pack_library_import_finish (fixture->library, wait_for_result (fixture), issues, error);
}

static void
test_load_without_folder (Fixture       *fixture,
                          gconstpointer  data)
{
  GListModel *packs = viva_pack_library_get_packs (fixture->library);
  g_autoptr(VivaPack) first = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (packs), ==, 0);
  load (fixture);

  g_assert_cmpuint (g_list_model_get_n_items (packs), ==, 1);
  first = g_list_model_get_item (packs, 0);
  g_assert_cmpstr (viva_pack_get_id (first), ==, "intro-ai");
  g_assert_true (viva_pack_library_is_bundled (fixture->library, first));
  g_assert_true (viva_pack_library_find_pack (fixture->library, "intro-ai") == first);
  g_assert_null (viva_pack_library_get_error_message (fixture->library));
  g_assert_cmpstr (viva_pack_library_get_directory (fixture->library), ==, fixture->packs_dir);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
count_changes_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *changes)
{
  (*changes)++;
}

static void
test_load_user_packs (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *minimal = fixture_path ("good", "minimal.json");
  g_autofree char *truncated = fixture_path ("bad", "truncated.json");
  g_autofree char *bundled_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  GListModel *packs = viva_pack_library_get_packs (fixture->library);
  g_autoptr(VivaPack) second = NULL;
  const char *message;
  guint changes = 0;

  copy_into (minimal, fixture->packs_dir, "tiny.json");
  copy_into (minimal, fixture->packs_dir, "tiny-again.json");
  copy_into (truncated, fixture->packs_dir, "broken.json");
  copy_into (bundled_path, fixture->packs_dir, "copy-of-bundled.json");
  copy_into (minimal, fixture->packs_dir, "notes.txt");

  g_signal_connect (packs, "items-changed", G_CALLBACK (count_changes_cb), &changes);
  load (fixture);
  /* One change for the whole load, so the list does not flicker. */
  g_assert_cmpuint (changes, ==, 1);

  g_assert_cmpuint (g_list_model_get_n_items (packs), ==, 2);
  second = g_list_model_get_item (packs, 1);
  g_assert_cmpstr (viva_pack_get_id (second), ==, "tiny");
  g_assert_false (viva_pack_library_is_bundled (fixture->library, second));
  g_assert_nonnull (viva_pack_get_file (second));

  /* Each file left out is named with its reason. */
  message = viva_pack_library_get_error_message (fixture->library);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "broken.json: "));
  g_assert_nonnull (strstr (message, "cut short"));
  g_assert_nonnull (strstr (message, "copy-of-bundled.json: "));
  g_assert_true (strstr (message, "tiny.json: ") != NULL || strstr (message, "tiny-again.json: ") != NULL);
  g_assert_null (strstr (message, "notes.txt"));

  /* A second load replaces the list rather than adding to it. */
  load (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (packs), ==, 2);
  g_signal_handlers_disconnect_by_func (packs, count_changes_cb, &changes);

  /* Once the files are fixed, the message goes, with one notification. */
  {
    g_autofree char *broken = g_build_filename (fixture->packs_dir, "broken.json", NULL);
    g_autofree char *copy = g_build_filename (fixture->packs_dir, "copy-of-bundled.json", NULL);
    g_autofree char *again = g_build_filename (fixture->packs_dir, "tiny-again.json", NULL);
    guint notified = 0;

    g_unlink (broken);
    g_unlink (copy);
    g_unlink (again);
    g_signal_connect (fixture->library, "notify::error-message", G_CALLBACK (count_notify_cb), &notified);
    load (fixture);
    g_assert_null (viva_pack_library_get_error_message (fixture->library));
    load (fixture);
    g_assert_cmpuint (notified, ==, 1);
    g_signal_handlers_disconnect_by_func (fixture->library, count_notify_cb, &notified);
  }
}

static void
test_import (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *minimal = fixture_path ("good", "minimal.json");
  g_autofree char *installed_path = g_build_filename (fixture->packs_dir, "tiny.json", NULL);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(VivaPack) reloaded = NULL;
  g_autofree char *file_path = NULL;

  load (fixture);
  pack = import (fixture, minimal, &issues, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pack);
  g_assert_cmpuint (issues->len, ==, 0);

  file_path = g_file_get_path (viva_pack_get_file (pack));
  g_assert_cmpstr (file_path, ==, installed_path);
  g_assert_true (g_file_test (installed_path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (viva_pack_library_find_pack (fixture->library, "tiny") == pack);
  g_assert_cmpuint (g_list_model_get_n_items (viva_pack_library_get_packs (fixture->library)), ==, 2);

  /* What was installed loads back. */
  load (fixture);
  reloaded = g_object_ref (viva_pack_library_find_pack (fixture->library, "tiny"));
  g_assert_nonnull (reloaded);
  g_assert_cmpuint (g_list_model_get_n_items (viva_pack_get_problems (reloaded)), ==, 1);
  g_assert_null (viva_pack_library_get_error_message (fixture->library));
}

static void
test_import_invalid_keeps_installed (Fixture       *fixture,
                                     gconstpointer  data)
{
  g_autofree char *minimal = fixture_path ("good", "minimal.json");
  g_autofree char *bad = fixture_path ("bad", "duplicate-test-names.json");
  g_autofree char *installed_path = g_build_filename (fixture->packs_dir, "tiny.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  VivaPack *installed;

  load (fixture);
  pack = import (fixture, minimal, NULL, &error);
  g_assert_no_error (error);
  installed = viva_pack_library_find_pack (fixture->library, "tiny");
  g_file_get_contents (installed_path, &before, NULL, NULL);

  /* Same id, but invalid: nothing installed may change. */
  g_assert_null (import (fixture, bad, &issues, &error));
  g_assert_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_DUPLICATE);
  g_assert_cmpuint (viva_pack_issues_count_errors (issues), ==, 1);
  g_file_get_contents (installed_path, &after, NULL, NULL);
  g_assert_cmpstr (before, ==, after);
  g_assert_true (viva_pack_library_find_pack (fixture->library, "tiny") == installed);
  g_assert_cmpuint (g_list_model_get_n_items (viva_pack_library_get_packs (fixture->library)), ==, 2);
}

static void
test_import_bundled_id (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *bundled_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  g_autofree char *target = g_build_filename (fixture->packs_dir, "intro-ai.json", NULL);
  g_autoptr(GError) error = NULL;

  load (fixture);
  g_assert_null (import (fixture, bundled_path, NULL, &error));
  g_assert_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_EXISTS);
  g_assert_true (g_str_has_prefix (error->message, "id: "));
  g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (viva_pack_library_get_packs (fixture->library)), ==, 1);
}

static void
test_import_update (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *minimal = fixture_path ("good", "minimal.json");
  g_autofree char *renamed = g_build_filename (fixture->packs_dir, "my-old-name.json", NULL);
  g_autofree char *update_dir = g_build_filename (fixture->dir, "elsewhere", NULL);
  g_autofree char *update = g_build_filename (update_dir, "tiny-v2.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *changed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  GListModel *packs = viva_pack_library_get_packs (fixture->library);
  g_autoptr(VivaPack) item = NULL;
  g_auto(GStrv) parts = NULL;

  /* Installed by hand under another name; the update takes its place. */
  copy_into (minimal, fixture->packs_dir, "my-old-name.json");
  load (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (packs), ==, 2);

  g_file_get_contents (minimal, &text, NULL, &error);
  g_assert_no_error (error);
  parts = g_strsplit (text, "A tiny pack", 2);
  changed = g_strjoinv ("A tiny pack, second edition", parts);
  g_mkdir_with_parents (update_dir, 0700);
  g_file_set_contents (update, changed, -1, &error);
  g_assert_no_error (error);

  pack = import (fixture, update, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (packs), ==, 2);
  item = g_list_model_get_item (packs, 1);
  g_assert_true (item == pack);
  g_assert_cmpstr (viva_pack_get_title (item), ==, "A tiny pack, second edition");
  g_assert_false (g_file_test (renamed, G_FILE_TEST_EXISTS));

  load (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (packs), ==, 2);
  g_assert_null (viva_pack_library_get_error_message (fixture->library));
}

static void
test_import_unwritable (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *minimal = fixture_path ("good", "minimal.json");
  g_autoptr(GError) error = NULL;

  /* The packs folder's place is taken by a file. */
  g_file_set_contents (fixture->packs_dir, "not a folder", -1, &error);
  g_assert_no_error (error);

  g_assert_null (import (fixture, minimal, NULL, &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_IO_ERROR || error->domain == G_FILE_ERROR);
  g_assert_null (viva_pack_library_find_pack (fixture->library, "tiny"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/viva/packs/library/load-without-folder", test_load_without_folder);
  ADD ("/viva/packs/library/load-user-packs", test_load_user_packs);
  ADD ("/viva/packs/library/import", test_import);
  ADD ("/viva/packs/library/import-invalid-keeps-installed", test_import_invalid_keeps_installed);
  ADD ("/viva/packs/library/import-bundled-id", test_import_bundled_id);
  ADD ("/viva/packs/library/import-update", test_import_update);
  ADD ("/viva/packs/library/import-unwritable", test_import_unwritable);
#undef ADD

  return g_test_run ();
}
