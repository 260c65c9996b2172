/* test-text.c: the text rules the parts share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-text.h"

static void
test_prefix_short (void)
{
  /* A grader's or a check's message shorter than the cut comes back whole:
   * the old cut read past the end of such a message. */
  g_autofree char *copy = viva_text_prefix ("assert 1 == 2", 300);
  g_autofree char *empty = viva_text_prefix ("", 300);
  g_autofree char *none = viva_text_prefix (NULL, 5);

  g_assert_cmpstr (copy, ==, "assert 1 == 2");
  g_assert_cmpstr (empty, ==, "");
  g_assert_cmpstr (none, ==, "");
}

static void
test_prefix_characters (void)
{
  /* Vietnamese and Chinese messages are cut by characters, never inside one. */
  g_autofree char *vi = viva_text_prefix ("Kiểm tra thất bại", 5);
  g_autofree char *zh = viva_text_prefix ("测试失败了", 2);
  g_autofree char *exact = viva_text_prefix ("abc", 3);

  g_assert_cmpstr (vi, ==, "Kiểm ");
  g_assert_cmpstr (zh, ==, "测试");
  g_assert_cmpstr (exact, ==, "abc");
  g_assert_true (g_utf8_validate (vi, -1, NULL));
}

static void
test_blank (void)
{
  g_assert_true (viva_text_is_blank (NULL));
  g_assert_true (viva_text_is_blank (""));
  g_assert_true (viva_text_is_blank (" \t\n"));
  g_assert_false (viva_text_is_blank ("  x "));
  g_assert_false (viva_text_is_blank ("测"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/text/prefix-short", test_prefix_short);
  g_test_add_func ("/viva/text/prefix-characters", test_prefix_characters);
  g_test_add_func ("/viva/text/blank", test_blank);

  return g_test_run ();
}
