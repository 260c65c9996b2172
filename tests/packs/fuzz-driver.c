/* fuzz-driver.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

/* Without clang there is no libFuzzer, so this runs the fuzz entry point
 * over the seed corpus and over mutants of it: every file cut short at many
 * places, and copies with bytes flipped, inserted and deleted by a seeded
 * generator, so a failure can be replayed. */

#define N_CUTS    48
#define N_MUTANTS 600

static guint n_inputs;

static void
run (const guint8 *data,
     gsize         len)
{
  LLVMFuzzerTestOneInput (data, len);
  n_inputs++;
}

static void
mutate (GRand        *rand,
        const guint8 *data,
        gsize         len)
{
  g_autoptr(GByteArray) copy = g_byte_array_sized_new (len + 8);
  static const guint8 interesting[] = { '"', '{', '}', '[', ']', ',', ':', '\\', 0, 0xff, 0xc3, '\n' };
  guint n_edits = g_rand_int_range (rand, 1, 8);

  g_byte_array_append (copy, data, len);

  for (guint i = 0; i < n_edits && copy->len > 0; i++)
    {
      guint pos = g_rand_int_range (rand, 0, copy->len);
      guint8 byte = g_rand_boolean (rand)
        ? interesting[g_rand_int_range (rand, 0, G_N_ELEMENTS (interesting))]
        : (guint8)g_rand_int_range (rand, 0, 256);

      switch (g_rand_int_range (rand, 0, 3))
        {
        case 0:
          copy->data[pos] = byte;
          break;

        case 1:
          g_array_insert_val ((GArray *)copy, pos, byte);
          break;

        default:
          g_byte_array_remove_index (copy, pos);
          break;
        }
    }

  run (copy->data, copy->len);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

static void
run_file (GRand      *rand,
          const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);

  run ((const guint8 *)contents, len);

  for (guint i = 1; i <= N_CUTS && len > 0; i++)
    run ((const guint8 *)contents, len * i / (N_CUTS + 1));

  for (guint i = 0; i < N_MUTANTS; i++)
    mutate (rand, (const guint8 *)contents, len);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (0x5eed);

  if (argc < 2)
    {
      g_printerr ("usage: %s CORPUS_DIR_OR_FILE…\n", argv[0]);
      return 2;
    }

  g_print ("1..1\n");

  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GDir) dir = g_dir_open (argv[i], 0, NULL);
          g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
          const char *name;

          g_assert_nonnull (dir);
          while ((name = g_dir_read_name (dir)))
            g_ptr_array_add (names, g_strdup (name));
          g_ptr_array_sort (names, compare_names);

          /* Sorted, so the seeded mutants are the same on every machine. */
          for (guint j = 0; j < names->len; j++)
            {
              g_autofree char *path = g_build_filename (argv[i], g_ptr_array_index (names, j), NULL);
              run_file (rand, path);
            }
        }
      else
        {
          run_file (rand, argv[i]);
        }
    }

  g_print ("ok 1 /viva/packs/fuzz/corpus (%u inputs)\n", n_inputs);
  return 0;
}
