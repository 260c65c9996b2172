/* viva-problem-template.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-json-check.h"
#include "viva-pack-issue.h"
#include "viva-pack-private.h"
#include "viva-problem-template.h"

/* What a new problem starts from: a small complete problem whose every
 * part says what a good one contains (the advice of data/packs/README.md),
 * so a teacher edits an example instead of facing empty fields. Its
 * instructions are placeholders: a pack that still holds one does not
 * validate, so a template saved under another title ("Depth-limited
 * search", about averages) is not taken for a finished problem. */

#define DESCRIPTION_MARK N_("*A template: replace each part with your problem, then press Validate.* The description is all the student has.")
#define STARTER_MARK     N_("The starter gives the signature and leaves the work: it fails at least one test.")
#define REFERENCE_MARK   N_("The reference solution passes every test; students never see it.")
#define CHECK_MARK       N_("The check runs where no student code ran, with the call's value as result. Check the type as well as the value, and use inputs other than the example's.")

/**
 * viva_problem_new_from_template:
 * @id: the new problem's id
 *
 * Returns: (transfer full): a new problem to edit, its parts the template's
 */
VivaProblem *
viva_problem_new_from_template (const char *id)
{
  g_autoptr(VivaProblem) problem = viva_problem_new (id, _("New problem"));
  g_autofree char *description = NULL;
  g_autofree char *starter = NULL;
  g_autofree char *reference = NULL;
  g_autofree char *check = NULL;
  const char *points[3] = { NULL, NULL, NULL };

  description = g_strdup_printf ("%s\n\n%s\n\n- %s\n- %s\n- %s\n\n%s\n\n```python\naverage([1, 2, 3])   # → 2.0\n```\n",
                                 _(DESCRIPTION_MARK),
                                 _("Implement `average(numbers)`."),
                                 _("**Input:** `numbers`, a list of ints or floats, possibly empty."),
                                 _("**Output:** their mean, as a `float`."),
                                 _("**Edge cases:** for an empty list, return `0.0`. Say what happens with ties and unusual input."),
                                 _("Give an example:"));
  starter = g_strdup_printf ("def average(numbers):\n    # %s\n    pass\n",
                             _(STARTER_MARK));
  reference = g_strdup_printf ("def average(numbers):\n    # %s\n    if not numbers:\n        return 0.0\n    return sum(numbers) / len(numbers)\n",
                               _(REFERENCE_MARK));
  check = g_strdup_printf ("# %s\n"
                           "assert isinstance(result, float), f\"average should return a float, not {type(result).__name__}\"\n"
                           "assert abs(result - 5.0) < 1e-9, f\"average([2, 4, 9]) should be 5.0, not {result}\"\n",
                           _(CHECK_MARK));

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

/* In the language it was written in, or the one Viva speaks now. */
static gboolean
holds_mark (JsonObject *object,
            const char *member,
            const char *mark)
{
  JsonNode *node = json_object_get_member (object, member);
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;

  text = json_node_get_string (node);

  return strstr (text, mark) != NULL || strstr (text, _(mark)) != NULL;
}

static void
add_placeholder (GPtrArray  *issues,
                 const char *path,
                 const char *member)
{
  g_autofree char *at = viva_json_check_path (path, member);

  viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, at,
                        "%s", _("still the new-problem template’s placeholder: replace it with your own problem’s text"));
}

/**
 * _viva_problem_template_check:
 * @problem: a problem's JSON object
 * @path: its JSON path, for the issues
 *
 * Adds an error for each part that still holds a placeholder of the
 * template.
 */
void
_viva_problem_template_check (JsonObject *problem,
                              const char *path,
                              GPtrArray  *issues)
{
  JsonNode *tests;

  if (holds_mark (problem, "description", DESCRIPTION_MARK))
    add_placeholder (issues, path, "description");
  if (holds_mark (problem, "starter_code", STARTER_MARK))
    add_placeholder (issues, path, "starter_code");
  if (holds_mark (problem, "reference_solution", REFERENCE_MARK))
    add_placeholder (issues, path, "reference_solution");

  tests = json_object_get_member (problem, "tests");
  if (tests == NULL || !JSON_NODE_HOLDS_ARRAY (tests))
    return;

  for (guint i = 0; i < json_array_get_length (json_node_get_array (tests)); i++)
    {
      JsonNode *test = json_array_get_element (json_node_get_array (tests), i);
      g_autofree char *tests_path = NULL;
      g_autofree char *test_path = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (test) || !holds_mark (json_node_get_object (test), "check", CHECK_MARK))
        continue;

      tests_path = viva_json_check_path (path, "tests");
      test_path = viva_json_check_path_index (tests_path, i);
      add_placeholder (issues, test_path, "check");
    }
}
