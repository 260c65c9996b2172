/* viva-grader-test.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-grader.h"

/* VivaGraderTest: one hidden test as plain strings, the form in which a
 * pack's tests reach the grader (packs/viva-problem-grade.c builds them),
 * so the runner never depends on packs. */

G_DEFINE_BOXED_TYPE (VivaGraderTest, viva_grader_test, viva_grader_test_copy, viva_grader_test_free)

/* Tests */

/**
 * viva_grader_test_new_structured:
 *
 * Returns: (transfer full): a test judged outside the student's process
 */
VivaGraderTest *
viva_grader_test_new_structured (const char *name,
                                 const char *setup,
                                 const char *call,
                                 const char *check,
                                 gboolean    compare,
                                 double      tolerance)
{
  VivaGraderTest *test = g_new0 (VivaGraderTest, 1);

  g_return_val_if_fail (call != NULL, NULL);

  test->name = g_strdup (name ? name : "");
  test->setup = g_strdup (setup ? setup : "");
  test->call = g_strdup (call);
  test->check = g_strdup (check ? check : "");
  test->compare = compare;
  test->tolerance = tolerance;
  return test;
}

/**
 * viva_grader_test_new_legacy:
 * @code: assertions run after the student's code, in its process
 *
 * Returns: (transfer full): an old unstructured test
 */
VivaGraderTest *
viva_grader_test_new_legacy (const char *name,
                             const char *code)
{
  VivaGraderTest *test = g_new0 (VivaGraderTest, 1);

  g_return_val_if_fail (code != NULL, NULL);

  test->name = g_strdup (name ? name : "");
  test->legacy_code = g_strdup (code);
  return test;
}

VivaGraderTest *
viva_grader_test_copy (const VivaGraderTest *test)
{
  VivaGraderTest *copy;

  g_return_val_if_fail (test != NULL, NULL);

  copy = g_new0 (VivaGraderTest, 1);
  copy->name = g_strdup (test->name);
  copy->setup = g_strdup (test->setup);
  copy->call = g_strdup (test->call);
  copy->check = g_strdup (test->check);
  copy->compare = test->compare;
  copy->tolerance = test->tolerance;
  copy->legacy_code = g_strdup (test->legacy_code);
  return copy;
}

void
viva_grader_test_free (VivaGraderTest *test)
{
  if (test == NULL)
    return;

  g_free (test->name);
  g_free (test->setup);
  g_free (test->call);
  g_free (test->check);
  g_free (test->legacy_code);
  g_free (test);
}
