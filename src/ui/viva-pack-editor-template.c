/* viva-pack-editor-template.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-pack-editor-private.h"

/* What a new problem starts from: a small complete problem that passes
 * Validate, whose every part says what a good one contains (the advice of
 * data/packs/README.md), so a teacher edits an example instead of facing
 * empty fields. */

VivaProblem *
_viva_pack_editor_new_problem (const char *id)
{
  g_autoptr(VivaProblem) problem = viva_problem_new (id, _("New problem"));
  g_autofree char *description = NULL;
  g_autofree char *starter = NULL;
  g_autofree char *reference = NULL;
  g_autofree char *check = NULL;
  const char *points[3] = { NULL, NULL, NULL };

  description = g_strdup_printf ("%s\n\n%s\n\n- %s\n- %s\n- %s\n\n%s\n\n```python\naverage([1, 2, 3])   # → 2.0\n```\n",
                                 _("*A template: replace each part with your problem, then press Validate.* The description is all the student has."),
                                 _("Implement `average(numbers)`."),
                                 _("**Input:** `numbers`, a list of ints or floats, possibly empty."),
                                 _("**Output:** their mean, as a `float`."),
                                 _("**Edge cases:** for an empty list, return `0.0`. Say what happens with ties and unusual input."),
                                 _("Give an example:"));
  starter = g_strdup_printf ("def average(numbers):\n    # %s\n    pass\n",
                             _("The starter gives the signature and leaves the work: it fails at least one test."));
  reference = g_strdup_printf ("def average(numbers):\n    # %s\n    if not numbers:\n        return 0.0\n    return sum(numbers) / len(numbers)\n",
                               _("The reference solution passes every test; students never see it."));
  check = g_strdup_printf ("# %s\n"
                           "assert isinstance(result, float), f\"average should return a float, not {type(result).__name__}\"\n"
                           "assert abs(result - 5.0) < 1e-9, f\"average([2, 4, 9]) should be 5.0, not {result}\"\n",
                           _("The check runs where no student code ran, with the call's value as result. Check the type as well as the value, and use inputs other than the example's."));

  viva_problem_set_description (problem, description);
  viva_problem_set_starter_code (problem, starter);
  viva_problem_set_reference (problem, reference);
  viva_problem_set_hint (problem, _("A hint names the idea that unlocks the problem, without giving code away."));
  /* Structured tests: the student's process only computes the call's value;
   * the grader judges it where no student code ran. */
  viva_problem_add_structured_test (problem, _("the mean of a few numbers"),
                                    "numbers = [2, 4, 9]\n", "average(numbers)", check, FALSE, 0.0);
  viva_problem_add_structured_test (problem, _("an empty list"),
                                    "", "average([])",
                                    "assert result == 0.0, f\"average([]) should be 0.0, not {result!r}\"\n",
                                    FALSE, 0.0);
  points[0] = _("dividing by len([]) raises ZeroDivisionError");
  points[1] = _("the description asks for 0.0");
  viva_problem_add_question (problem, _("Why does your function check for an empty list before dividing?"), points);

  return g_steal_pointer (&problem);
}
