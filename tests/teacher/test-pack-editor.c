/* test-pack-editor.c: the pack editor's window driven through its actions,
 * under Xvfb: editing a pack's problem list, unsaved-changes state, and
 * saving into the library, which the student's window then lists.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>

#include "viva-core.h"
#include "viva-pack-editor.h"
#include "viva-resources.h"
#include "viva-test-util.h"

/* One application for the program: GApplication starts up once. */
static GtkApplication *application;

typedef struct
{
  GtkApplication  *app;
  VivaPackLibrary *library;
  VivaPackEditor  *editor;
  char            *directory;
  guint            dirty_notifies;
} Fixture;

static void
dirty_cb (Fixture *fixture)
{
  fixture->dirty_notifies++;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->directory = g_dir_make_tmp ("viva-editor-XXXXXX", NULL);
  fixture->app = g_object_ref (application);
  fixture->library = viva_pack_library_new (fixture->directory);
  fixture->editor = viva_pack_editor_new (fixture->app, fixture->library);
  g_object_ref_sink (fixture->editor);
  g_signal_connect_swapped (fixture->editor, "notify::dirty", G_CALLBACK (dirty_cb), fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;
  gpointer weak = fixture->editor;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  /* Callbacks the window started (the drafts' load) hold it until they
   * come back; then nothing may keep it alive. */
  g_object_add_weak_pointer (weak, &weak);
  gtk_window_destroy (GTK_WINDOW (fixture->editor));
  g_object_unref (fixture->editor);
  while (weak != NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_null (weak);
  g_clear_object (&fixture->library);
  g_clear_object (&fixture->app);

  dir = g_dir_open (fixture->directory, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->directory, name, NULL);

      g_unlink (path);
    }
  g_rmdir (fixture->directory);
  g_free (fixture->directory);
}

static char *
order (VivaPack *pack)
{
  GListModel *problems = viva_pack_get_problems (pack);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);

      g_string_append_printf (text, "%s%s", i ? " " : "", viva_problem_get_id (problem));
    }

  return g_string_free (text, FALSE);
}

static void
activate (Fixture    *fixture,
          const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->editor), action, NULL));
}

static void
test_without_pack (Fixture       *fixture,
                   gconstpointer  data)
{
  g_assert_null (viva_pack_editor_get_pack (fixture->editor));
  g_assert_false (viva_pack_editor_get_dirty (fixture->editor));
  /* Nothing to add to or save without a pack: the actions are disabled. */
  gtk_widget_activate_action (GTK_WIDGET (fixture->editor), "editor.add", NULL);
  gtk_widget_activate_action (GTK_WIDGET (fixture->editor), "editor.save", NULL);
  g_assert_null (viva_pack_editor_get_pack (fixture->editor));
  g_assert_false (viva_pack_editor_get_dirty (fixture->editor));
  g_assert_cmpuint (fixture->dirty_notifies, ==, 0);
}

static void
test_edit_problems (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(VivaPack) pack = viva_pack_new ("lab", "Lab");
  g_autoptr(VivaProblem) first = viva_problem_new ("first", "First");
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;

  viva_pack_add_problem (pack, first);
  viva_pack_editor_open_pack (fixture->editor, pack, NULL);
  g_assert_true (viva_pack_editor_get_pack (fixture->editor) == pack);
  g_assert_false (viva_pack_editor_get_dirty (fixture->editor));

  activate (fixture, "editor.add");
  a = order (pack);
  g_assert_cmpstr (a, ==, "first problem");
  g_assert_true (viva_pack_editor_get_dirty (fixture->editor));
  g_assert_cmpuint (fixture->dirty_notifies, ==, 1);

  activate (fixture, "editor.duplicate");
  b = order (pack);
  g_assert_cmpstr (b, ==, "first problem problem-2");

  activate (fixture, "editor.move-up");
  c = order (pack);
  g_assert_cmpstr (c, ==, "first problem-2 problem");

  activate (fixture, "editor.delete");
  d = order (pack);
  g_assert_cmpstr (d, ==, "first problem");
  /* Still dirty: one notification for the whole session. */
  g_assert_cmpuint (fixture->dirty_notifies, ==, 1);
}

static void
test_save_into_library (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(VivaPack) pack = viva_pack_new ("week-1", "Week 1");
  g_autoptr(VivaProblem) problem = viva_problem_new ("sum", "Sum");
  g_autofree char *path = g_build_filename (fixture->directory, "week-1.json", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  gint64 deadline;

  viva_problem_set_description (problem, "Add.");
  viva_problem_set_reference (problem, "def add(a, b):\n    return a + b\n");
  viva_problem_set_hint (problem, "Use +.");
  viva_problem_add_test (problem, "one", "assert add(1, 2) == 3");
  viva_problem_add_question (problem, "Why?", (const char * const[]) { "because", NULL });
  viva_pack_add_problem (pack, problem);

  viva_pack_editor_open_pack (fixture->editor, pack, NULL);
  /* A pack the students' list can load: every problem complete. */
  activate (fixture, "editor.duplicate");
  g_assert_true (viva_pack_editor_get_dirty (fixture->editor));
  activate (fixture, "editor.save");

  /* The save and the library's reload are asynchronous. */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while ((viva_pack_editor_get_dirty (fixture->editor) ||
          viva_pack_library_find_pack (fixture->library, "week-1") == NULL) &&
         g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10000);


  g_assert_false (viva_pack_editor_get_dirty (fixture->editor));
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_nonnull (viva_pack_library_find_pack (fixture->library, "week-1"));
  g_assert_cmpuint (g_list_model_get_n_items (viva_pack_get_problems (viva_pack_library_find_pack (fixture->library, "week-1"))),
                    ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = g_dir_make_tmp ("viva-editor-home-XXXXXX", NULL);

  /* Drafts and settings stay out of the user's home. */
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_resources_register (viva_get_resource ());
  gtk_source_init ();
  viva_core_init ();
  application = gtk_application_new ("io.github.vivaexam.Viva.EditorTest", G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (application), NULL, NULL);

  g_test_add ("/viva/pack-editor/without-pack", Fixture, NULL, fixture_setup, test_without_pack, fixture_teardown);
  g_test_add ("/viva/pack-editor/edit-problems", Fixture, NULL, fixture_setup, test_edit_problems, fixture_teardown);
  g_test_add ("/viva/pack-editor/save-into-library", Fixture, NULL, fixture_setup, test_save_into_library, fixture_teardown);

  return g_test_run ();
}
