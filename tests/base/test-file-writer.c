/* test-file-writer.c: the one file writer, as the files on disk show it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "viva-file-writer-private.h"
#include "viva-test-util.h"

typedef struct
{
  char *dir;
} Fixture;

/* What a callback saw, one per write. */
typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Outcome;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("viva-file-writer-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  _viva_file_writer_set_hook (NULL, NULL);
  viva_file_writer_flush ();
  viva_test_remove_tree (f->dir);
  g_free (f->dir);
}

static void
outcome_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Outcome *outcome = user_data;

  g_assert_null (object);
  g_assert_false (outcome->done);
  outcome->ok = viva_file_writer_write_finish (result, &outcome->error);
  outcome->done = TRUE;
}

static void
write_text (const char *path,
            const char *text,
            int         mode,
            Outcome    *outcome)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  viva_file_writer_write_async (file, bytes, mode, VIVA_FILE_WRITER_MAKE_FOLDERS, NULL, outcome_cb, outcome);
}

static char *
read_text (const char *path)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_steal_pointer (&text);
}

/* Every name in @dir; a temporary file left behind would show up here. */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *name;

  g_assert_nonnull (handle);
  while ((name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, (gpointer)name);
  g_ptr_array_sort (names, (GCompareFunc)g_strcmp0);
  g_ptr_array_add (names, NULL);

  return g_strjoinv (" ", (char **)names->pdata);
}

static void
test_last_content_wins (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "code.py", NULL);
  g_autofree char *text = NULL;
  g_autofree char *names = NULL;
  Outcome outcomes[200] = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (outcomes); i++)
    {
      g_autofree char *line = g_strdup_printf ("print(%u)\n", i);

      write_text (path, line, 0600, &outcomes[i]);
    }

  for (guint i = 0; i < G_N_ELEMENTS (outcomes); i++)
    {
      viva_test_run_until (&outcomes[i].done);
      g_assert_no_error (outcomes[i].error);
      g_assert_true (outcomes[i].ok);
    }

  text = read_text (path);
  g_assert_cmpstr (text, ==, "print(199)\n");
  names = list_dir (f->dir);
  g_assert_cmpstr (names, ==, "code.py");
}

typedef struct
{
  GMutex    mutex;
  GCond     cond;
  char     *held;       /* writes to this key wait until released */
  gboolean  released;
  guint     held_writes;
  gboolean  holding;
} Gate;

static void
gate_hook (const char *key,
           gpointer    user_data)
{
  Gate *gate = user_data;

  g_mutex_lock (&gate->mutex);
  if (g_strcmp0 (key, gate->held) == 0)
    {
      gate->held_writes++;
      gate->holding = TRUE;
      g_cond_broadcast (&gate->cond);
      while (!gate->released)
        g_cond_wait (&gate->cond, &gate->mutex);
      gate->holding = FALSE;
    }
  g_mutex_unlock (&gate->mutex);
}

static void
gate_wait_holding (Gate *gate)
{
  g_mutex_lock (&gate->mutex);
  while (!gate->holding)
    g_cond_wait (&gate->cond, &gate->mutex);
  g_mutex_unlock (&gate->mutex);
}

static void
gate_release (Gate *gate)
{
  g_mutex_lock (&gate->mutex);
  gate->released = TRUE;
  g_cond_broadcast (&gate->cond);
  g_mutex_unlock (&gate->mutex);
}

static void
test_coalesce (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "status.json", NULL);
  g_autofree char *text = NULL;
  Gate gate = { .held = path };
  Outcome first = { 0 };
  Outcome waiting[50] = { 0 };

  _viva_file_writer_set_hook (gate_hook, &gate);

  write_text (path, "first", 0600, &first);
  gate_wait_holding (&gate);

  /* All of these queue behind the running write. */
  for (guint i = 0; i < G_N_ELEMENTS (waiting); i++)
    {
      g_autofree char *line = g_strdup_printf ("waiting %u", i);

      write_text (path, line, 0600, &waiting[i]);
    }
  gate_release (&gate);

  viva_test_run_until (&first.done);
  g_assert_true (first.ok);
  for (guint i = 0; i < G_N_ELEMENTS (waiting); i++)
    {
      viva_test_run_until (&waiting[i].done);
      g_assert_no_error (waiting[i].error);
      g_assert_true (waiting[i].ok);
    }

  text = read_text (path);
  g_assert_cmpstr (text, ==, "waiting 49");
  /* The first write, then only the newest of the fifty that waited. */
  g_assert_cmpuint (gate.held_writes, ==, 2);
}

static void
test_two_files (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *slow = g_build_filename (f->dir, "slow.json", NULL);
  g_autofree char *quick = g_build_filename (f->dir, "quick.json", NULL);
  g_autofree char *text = NULL;
  Gate gate = { .held = slow };
  Outcome slow_outcome = { 0 };
  Outcome quick_outcome = { 0 };

  _viva_file_writer_set_hook (gate_hook, &gate);

  write_text (slow, "slow", 0600, &slow_outcome);
  gate_wait_holding (&gate);
  write_text (quick, "quick", 0600, &quick_outcome);

  /* The quick file is written while the slow one is still held. */
  viva_test_run_until (&quick_outcome.done);
  g_assert_true (quick_outcome.ok);
  text = read_text (quick);
  g_assert_cmpstr (text, ==, "quick");
  g_assert_false (slow_outcome.done);
  g_assert_false (g_file_test (slow, G_FILE_TEST_EXISTS));

  gate_release (&gate);
  viva_test_run_until (&slow_outcome.done);
  g_assert_true (slow_outcome.ok);
  g_clear_pointer (&text, g_free);
  text = read_text (slow);
  g_assert_cmpstr (text, ==, "slow");
}

static void
test_failure_keeps_old (Fixture       *f,
                        gconstpointer  data)
{
  /* A name as long as a name may be: the file itself can exist, but the
   * temporary file beside it, a few characters longer, cannot. That fails
   * for root too, which an unwritable folder would not. */
  g_autofree char *name = g_strnfill (255, 'a');
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *text = NULL;
  g_autofree char *names = NULL;
  Outcome outcome = { 0 };
  FILE *old = g_fopen (path, "w");

  /* Written in place: GLib's own writer would need a temporary name too. */
  g_assert_nonnull (old);
  g_assert_cmpint (fputs ("old", old), >=, 0);
  g_assert_cmpint (fclose (old), ==, 0);

  write_text (path, "new", 0600, &outcome);
  viva_test_run_until (&outcome.done);

  g_assert_false (outcome.ok);
  g_assert_nonnull (outcome.error);
  g_assert_true (outcome.error->domain == G_IO_ERROR);
  g_assert_nonnull (strstr (outcome.error->message, name));
  g_clear_error (&outcome.error);

  text = read_text (path);
  g_assert_cmpstr (text, ==, "old");
  names = list_dir (f->dir);
  g_assert_cmpstr (names, ==, name);
}

static void
test_target_is_directory (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "report.html", NULL);
  g_autofree char *inside = g_build_filename (path, "kept", NULL);
  g_autofree char *names = NULL;
  g_autofree char *text = NULL;
  Outcome outcome = { 0 };

  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  g_assert_true (g_file_set_contents (inside, "kept", -1, NULL));

  write_text (path, "<html>", 0644, &outcome);
  viva_test_run_until (&outcome.done);

  g_assert_false (outcome.ok);
  g_assert_nonnull (outcome.error);
  g_assert_true (outcome.error->domain == G_IO_ERROR);
  g_clear_error (&outcome.error);

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
  text = read_text (inside);
  g_assert_cmpstr (text, ==, "kept");
  names = list_dir (f->dir);
  g_assert_cmpstr (names, ==, "report.html");
}

static void
test_parent_is_file (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *blocker = g_build_filename (f->dir, "packs", NULL);
  g_autofree char *path = g_build_filename (blocker, "mine.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("{}", 2);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (g_file_set_contents (blocker, "not a folder", -1, NULL));

  g_assert_false (viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);
  /* The message says what to do next. */
  g_assert_nonnull (strstr (error->message, "Check that you may write there"));

  text = read_text (blocker);
  g_assert_cmpstr (text, ==, "not a folder");
}

static void
test_missing_folder (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *folder = g_build_filename (f->dir, "not-made", NULL);
  g_autofree char *path = g_build_filename (folder, "grades.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("a,b\n", 4);
  g_autoptr(GError) error = NULL;

  /* A file the user named in a folder that is not there is an error, not
   * a folder made behind their back. */
  g_assert_false (viva_file_writer_write (file, bytes, 0666, VIVA_FILE_WRITER_NONE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
}

static void
test_creates_folders_and_mode (Fixture       *f,
                               gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "viva", "sessions", "s1", "checkpoint.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("{\"format\":1}", 12);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  GStatBuf st;

  g_assert_true (viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, &error));
  g_assert_no_error (error);

  text = read_text (path);
  g_assert_cmpstr (text, ==, "{\"format\":1}");
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
}

static void
test_keeps_mode (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "pack.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("new", 3);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  GStatBuf st;

  /* The teacher made their pack readable to the group only. */
  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0640), ==, 0);

  g_assert_true (viva_file_writer_write (file, bytes, 0666, VIVA_FILE_WRITER_NONE, &error));
  g_assert_no_error (error);

  text = read_text (path);
  g_assert_cmpstr (text, ==, "new");
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640);
}

static void
test_empty_contents (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "empty", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new (NULL, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (g_file_set_contents (path, "something", -1, NULL));
  g_assert_true (viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_NONE, &error));
  g_assert_no_error (error);
  text = read_text (path);
  g_assert_cmpstr (text, ==, "");
}

static void
test_flush (Fixture       *f,
            gconstpointer  data)
{
  Outcome outcomes[8][10] = { 0 };

  for (guint file = 0; file < G_N_ELEMENTS (outcomes); file++)
    for (guint i = 0; i < G_N_ELEMENTS (outcomes[file]); i++)
      {
        g_autofree char *name = g_strdup_printf ("file-%u", file);
        g_autofree char *path = g_build_filename (f->dir, "deep", name, NULL);
        g_autofree char *text = g_strdup_printf ("%u/%u", file, i);

        write_text (path, text, 0600, &outcomes[file][i]);
      }

  /* No main loop runs: what is on disk after the flush is what a viva-cli
   * that exits right after it leaves behind. */
  viva_file_writer_flush ();

  for (guint file = 0; file < G_N_ELEMENTS (outcomes); file++)
    {
      g_autofree char *name = g_strdup_printf ("file-%u", file);
      g_autofree char *path = g_build_filename (f->dir, "deep", name, NULL);
      g_autofree char *text = read_text (path);
      g_autofree char *expected = g_strdup_printf ("%u/%u", file, 9);

      g_assert_cmpstr (text, ==, expected);
    }

  for (guint file = 0; file < G_N_ELEMENTS (outcomes); file++)
    for (guint i = 0; i < G_N_ELEMENTS (outcomes[file]); i++)
      {
        viva_test_run_until (&outcomes[file][i].done);
        g_assert_true (outcomes[file][i].ok);
      }
}

typedef struct
{
  char  *path;
  guint  thread;
} ThreadData;

static gpointer
write_from_thread (gpointer user_data)
{
  ThreadData *td = user_data;
  g_autoptr(GFile) file = g_file_new_for_path (td->path);

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *text = g_strdup_printf ("thread %u write %u", td->thread, i);
      gsize length = strlen (text);
      g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&text), length);
      g_autoptr(GError) error = NULL;
      g_autofree char *read = NULL;

      g_assert_true (viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_NONE, &error));
      g_assert_no_error (error);

      /* Once the call returns, this write or a newer one is on disk:
       * never an older one, never half of one. */
      read = read_text (td->path);
      g_assert_nonnull (read);
      g_assert_true (g_str_has_prefix (read, "thread "));
    }

  return NULL;
}

static void
test_sync_from_threads (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "shared.json", NULL);
  g_autofree char *names = NULL;
  ThreadData td[4];
  GThread *threads[4];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      td[i].path = path;
      td[i].thread = i;
      threads[i] = g_thread_new ("writer-test", write_from_thread, &td[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);

  names = list_dir (f->dir);
  g_assert_cmpstr (names, ==, "shared.json");
}

static void
test_cancelled (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "figure.png", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("PNG", 3);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *text = NULL;
  Outcome outcome = { 0 };

  /* The window that asked went away: it hears "cancelled", and the file
   * it asked for is written all the same. */
  viva_file_writer_write_async (file, bytes, 0666, VIVA_FILE_WRITER_NONE, cancellable, outcome_cb, &outcome);
  g_cancellable_cancel (cancellable);
  viva_test_run_until (&outcome.done);
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&outcome.error);

  viva_file_writer_flush ();
  text = read_text (path);
  g_assert_cmpstr (text, ==, "PNG");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/viva/file-writer/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("last-content-wins", test_last_content_wins);
  ADD ("coalesce", test_coalesce);
  ADD ("two-files", test_two_files);
  ADD ("failure-keeps-old", test_failure_keeps_old);
  ADD ("target-is-directory", test_target_is_directory);
  ADD ("parent-is-file", test_parent_is_file);
  ADD ("missing-folder", test_missing_folder);
  ADD ("creates-folders-and-mode", test_creates_folders_and_mode);
  ADD ("keeps-mode", test_keeps_mode);
  ADD ("empty-contents", test_empty_contents);
  ADD ("flush", test_flush);
  ADD ("sync-from-threads", test_sync_from_threads);
  ADD ("cancelled", test_cancelled);

#undef ADD

  return g_test_run ();
}
