/* fuzz-driver.c: runs the fuzz entry over the seed corpus, whole and
 * mutated (every prefix, flipped bytes), as a regular test. Built with any
 * compiler, so the entry is exercised where libFuzzer is missing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static void
run_file (gconstpointer user_data)
{
  const char *path = user_data;
  g_autofree char *contents = NULL;
  g_autofree guint8 *copy = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  LLVMFuzzerTestOneInput ((const guint8 *)contents, length);

  for (gsize prefix = 0; prefix < length; prefix += 3)
    LLVMFuzzerTestOneInput ((const guint8 *)contents, prefix);

  copy = g_memdup2 (contents, length);
  for (gsize i = 0; i < length; i += 5)
    {
      static const guint8 swaps[] = { '\n', '\r', ':', '"', '{', '}', '\\', 0, 0xff };
      guint8 saved = copy[i];

      for (guint j = 0; j < G_N_ELEMENTS (swaps); j++)
        {
          copy[i] = swaps[j];
          LLVMFuzzerTestOneInput (copy, length);
        }
      copy[i] = saved;
    }
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *)a, *(char * const *)b);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = NULL;
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);

  dir = g_test_build_filename (G_TEST_DIST, "model", "fixtures", NULL);
  listing = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)))
    g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (paths, compare_paths);

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *test = g_strdup_printf ("/viva/model/fuzz-corpus/%s", base);

      g_test_add_data_func (test, path, run_file);
    }

  return g_test_run ();
}
