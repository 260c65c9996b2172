/* fuzz-checkpoint-driver.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

/* Without libFuzzer (gcc), the same entry runs over the seed checkpoints,
 * each cut short at many places, and seeded mutants of them (bytes flipped,
 * inserted, deleted, JSON punctuation favoured), so a failure replays. */

#define N_CUTS    40
#define N_MUTANTS 400

static void
mutate (GRand        *rand,
        const guint8 *data,
        gsize         len)
{
  static const guint8 interesting[] = { '"', '{', '}', '[', ']', ',', ':', '\\', '0', '9', 0, 0xff, 'n' };
  g_autoptr(GByteArray) copy = g_byte_array_sized_new (len + 8);
  guint n_edits = g_rand_int_range (rand, 1, 6);

  g_byte_array_append (copy, data, len);
  for (guint i = 0; i < n_edits && copy->len > 0; i++)
    {
      guint pos = g_rand_int_range (rand, 0, copy->len);
      guint8 byte = g_rand_boolean (rand)
        ? interesting[g_rand_int_range (rand, 0, G_N_ELEMENTS (interesting))]
        : (guint8)g_rand_int_range (rand, 0, 256);

      switch (g_rand_int_range (rand, 0, 3))
        {
        case 0: copy->data[pos] = byte; break;
        case 1: g_byte_array_append (copy, &byte, 1); memmove (copy->data + pos + 1, copy->data + pos, copy->len - pos - 1); copy->data[pos] = byte; break;
        default: g_byte_array_remove_index (copy, pos); break;
        }
    }

  LLVMFuzzerTestOneInput (copy->data, copy->len);
}

static void
test_seed (gconstpointer user_data)
{
  const char *path = user_data;
  g_autofree char *contents = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_str_hash (path));
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  LLVMFuzzerTestOneInput ((const guint8 *)contents, len);

  for (guint i = 1; i <= N_CUTS && len > 0; i++)
    LLVMFuzzerTestOneInput ((const guint8 *)contents, len * i / (N_CUTS + 1));

  for (guint i = 0; i < N_MUTANTS; i++)
    mutate (rand, (const guint8 *)contents, len);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = NULL;
  g_autoptr(GDir) handle = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);

  dir = g_test_build_filename (G_TEST_DIST, "exam", "checkpoints", NULL);
  handle = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (handle);
  while ((name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (paths, (GCompareFunc)g_strcmp0);
  g_assert_cmpuint (paths->len, >, 0);

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (paths, i));
      g_autofree char *test = g_strdup_printf ("/viva/exam/fuzz-checkpoint/%s", base);

      g_test_add_data_func (test, g_ptr_array_index (paths, i), test_seed);
    }

  return g_test_run ();
}
