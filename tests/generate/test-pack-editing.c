/* test-pack-editing.c: what the pack editor and approving a draft need of
 * VivaPack and VivaProblem: inserting, removing and reordering problems,
 * and rewriting a problem's tests and questions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-pack.h"

static VivaPack *
pack_with (guint n)
{
  VivaPack *pack = viva_pack_new ("p", "P");

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("q%u", i);
      g_autoptr(VivaProblem) problem = viva_problem_new (id, id);

      viva_pack_add_problem (pack, problem);
    }

  return pack;
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
test_insert_remove (void)
{
  g_autoptr(VivaPack) pack = pack_with (3);
  g_autoptr(VivaProblem) extra = viva_problem_new ("x", "X");
  g_autoptr(VivaProblem) moved = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;

  viva_pack_insert_problem (pack, 1, extra);
  a = order (pack);
  g_assert_cmpstr (a, ==, "q0 x q1 q2");

  /* Past the end appends. */
  viva_pack_remove_problem (pack, 1);
  viva_pack_insert_problem (pack, 99, extra);
  b = order (pack);
  g_assert_cmpstr (b, ==, "q0 q1 q2 x");

  /* Moving up is removing and inserting one place earlier. */
  moved = g_list_model_get_item (viva_pack_get_problems (pack), 2);
  viva_pack_remove_problem (pack, 2);
  viva_pack_insert_problem (pack, 1, moved);
  c = order (pack);
  g_assert_cmpstr (c, ==, "q0 q2 q1 x");

  viva_pack_remove_problem (pack, 0);
  d = order (pack);
  g_assert_cmpstr (d, ==, "q2 q1 x");
  g_assert_null (viva_pack_find_problem (pack, "q0"));
}

static void
test_rewrite_tests_and_questions (void)
{
  g_autoptr(VivaPack) pack = pack_with (1);
  g_autoptr(VivaProblem) problem = g_list_model_get_item (viva_pack_get_problems (pack), 0);
  const char *points[] = { "one", "two", NULL };
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;

  viva_problem_add_test (problem, "a", "assert True");
  viva_problem_add_test (problem, "b", "assert 1");
  viva_problem_add_question (problem, "Why?", points);

  viva_problem_clear_tests (problem);
  viva_problem_clear_questions (problem);
  g_assert_cmpuint (viva_problem_get_n_tests (problem), ==, 0);
  g_assert_cmpuint (viva_problem_get_n_questions (problem), ==, 0);

  viva_problem_add_test (problem, "c", "assert 2");
  viva_problem_add_question (problem, "How?", points);
  g_assert_cmpuint (viva_problem_get_n_tests (problem), ==, 1);
  g_assert_cmpstr (viva_problem_get_test (problem, 0)->name, ==, "c");
  g_assert_cmpstr (viva_problem_get_question (problem, 0)->points[1], ==, "two");

  bytes = viva_pack_to_bytes (pack);
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_assert_null (strstr (text, "\"a\""));
  g_assert_nonnull (strstr (text, "\"c\""));
  g_assert_nonnull (strstr (text, "How?"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/pack-editing/insert-remove", test_insert_remove);
  g_test_add_func ("/viva/pack-editing/rewrite-tests-and-questions", test_rewrite_tests_and_questions);

  return g_test_run ();
}
