/* fuzz-pack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-pack.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

/* The loader's one entry point for untrusted bytes. Whatever the input, it
 * returns a pack or an error with at least one issue, never both; and a pack
 * it accepts saves to text it accepts again, unchanged. */
int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_nonnull (issues);

  if (pack == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == VIVA_PACK_ERROR);
      g_assert_cmpuint (viva_pack_issues_count_errors (issues), >, 0);
    }
  else
    {
      g_autoptr(GBytes) saved = viva_pack_to_bytes (pack);
      g_autoptr(VivaPack) again = NULL;
      g_autoptr(GBytes) resaved = NULL;

      g_assert_no_error (error);
      g_assert_cmpuint (viva_pack_issues_count_errors (issues), ==, 0);

      again = viva_pack_new_from_bytes (saved, &error);
      g_assert_no_error (error);
      resaved = viva_pack_to_bytes (again);
      g_assert_true (g_bytes_equal (saved, resaved));
    }

  return 0;
}
