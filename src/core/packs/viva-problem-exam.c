/* viva-problem-exam.c: a problem's predictions, weights and pacing, and
 * the judge of a prediction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "viva-grader.h"
#include "viva-json-member.h"
#include "viva-pack-private.h"
#include "viva-problem-exam.h"

/* These keys are read from the problem as loaded (its validated source),
 * so a pack saved again keeps them as they were; a problem built in code
 * has none and gets the defaults. */

void
viva_problem_prediction_free (VivaProblemPrediction *self)
{
  if (self == NULL)
    return;

  g_free (self->id);
  g_free (self->call);
  g_strfreev (self->names);
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  g_free (self);
}

/**
 * viva_problem_get_predictions:
 *
 * Returns: (transfer full) (element-type VivaProblemPrediction): the
 *   problem's `predictions`, in the pack's order
 */
GPtrArray *
viva_problem_get_predictions (VivaProblem *problem)
{
  GPtrArray *predictions = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_problem_prediction_free);
  JsonObject *source;
  JsonArray *array;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), predictions);

  if (!(source = _viva_problem_get_source (problem)) ||
      !(array = viva_json_member_array (source, "predictions")))
    return predictions;

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *object;
      JsonObject *inputs;
      VivaProblemPrediction *prediction;
      g_autoptr(GStrvBuilder) names = g_strv_builder_new ();

      if (!JSON_NODE_HOLDS_OBJECT (node) || !(object = json_node_get_object (node)) ||
          !viva_json_member_string (object, "id") || !viva_json_member_string (object, "call"))
        continue;

      prediction = g_new0 (VivaProblemPrediction, 1);
      prediction->id = g_strdup (viva_json_member_string (object, "id"));
      prediction->call = g_strdup (viva_json_member_string (object, "call"));
      prediction->choices = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
      viva_json_member_number (object, "tolerance", &prediction->tolerance);
      viva_json_member_boolean (object, "unordered", &prediction->unordered);
      if ((inputs = viva_json_member_object (object, "inputs")))
        {
          JsonObjectIter iter;
          const char *name;
          JsonNode *value;

          json_object_iter_init (&iter, inputs);
          while (json_object_iter_next (&iter, &name, &value))
            {
              g_autoptr(GStrvBuilder) choices = g_strv_builder_new ();
              JsonArray *list = JSON_NODE_HOLDS_ARRAY (value) ? json_node_get_array (value) : NULL;

              for (guint j = 0; list != NULL && j < json_array_get_length (list); j++)
                {
                  JsonNode *choice = json_array_get_element (list, j);

                  if (JSON_NODE_HOLDS_VALUE (choice) && json_node_get_value_type (choice) == G_TYPE_STRING)
                    g_strv_builder_add (choices, json_node_get_string (choice));
                }
              g_strv_builder_add (names, name);
              g_ptr_array_add (prediction->choices, g_strv_builder_end (choices));
            }
        }
      prediction->names = g_strv_builder_end (names);
      g_ptr_array_add (predictions, prediction);
    }

  return predictions;
}

/**
 * viva_problem_prediction_draw:
 * @rand: the defense's own generator, so a resumed defense draws the same
 *
 * Returns: (transfer full): the call with each `{name}` replaced by one of
 *   its choices, drawn from @rand
 */
char *
viva_problem_prediction_draw (const VivaProblemPrediction *self,
                              GRand                       *rand)
{
  g_autoptr(GString) call = g_string_new (NULL);
  g_autoptr(GPtrArray) drawn = g_ptr_array_new ();

  g_return_val_if_fail (self != NULL, NULL);

  /* Every name draws once, in order, whether or not the call uses it. */
  for (guint i = 0; self->names[i] != NULL; i++)
    {
      GStrv choices = g_ptr_array_index (self->choices, i);
      guint n = g_strv_length (choices);

      g_ptr_array_add (drawn, n > 0 ? choices[g_rand_int_range (rand, 0, n)] : (char *)"None");
    }

  for (const char *p = self->call; *p; )
    {
      const char *end = *p == '{' ? strchr (p, '}') : NULL;
      gboolean replaced = FALSE;

      if (end != NULL)
        for (guint i = 0; self->names[i] != NULL && !replaced; i++)
          if ((gsize)(end - p - 1) == strlen (self->names[i]) &&
              strncmp (p + 1, self->names[i], end - p - 1) == 0)
            {
              g_string_append (call, g_ptr_array_index (drawn, i));
              p = end + 1;
              replaced = TRUE;
            }
      if (!replaced)
        g_string_append_c (call, *p++);
    }

  return g_string_free (g_steal_pointer (&call), FALSE);
}

/**
 * viva_problem_get_weights:
 *
 * The pack's `weights`, or 60 / 20 / 20. A part the problem has nothing
 * of (no predictions, say) gives its points to the hidden tests, so the
 * weights always add up to 100.
 */
void
viva_problem_get_weights (VivaProblem        *problem,
                          VivaProblemWeights *weights)
{
  JsonObject *source = _viva_problem_get_source (problem);
  JsonObject *object = source ? viva_json_member_object (source, "weights") : NULL;
  g_autoptr(GPtrArray) predictions = viva_problem_get_predictions (problem);

  weights->tests = 60;
  weights->predictions = 20;
  weights->questions = 20;
  if (object != NULL)
    {
      viva_json_member_number (object, "tests", &weights->tests);
      viva_json_member_number (object, "predictions", &weights->predictions);
      viva_json_member_number (object, "questions", &weights->questions);
    }

  if (predictions->len == 0)
    {
      weights->tests += weights->predictions;
      weights->predictions = 0;
    }
  if (viva_problem_get_n_questions (problem) == 0)
    {
      weights->tests += weights->questions;
      weights->questions = 0;
    }
}

static void
read_range (JsonObject *ask,
            const char *name,
            guint       available,
            guint       fallback,
            guint      *min,
            guint      *max)
{
  JsonObject *range = ask ? viva_json_member_object (ask, name) : NULL;
  gint64 value;

  *min = *max = fallback;
  if (range != NULL && viva_json_member_integer (range, "min", &value))
    *min = (guint)CLAMP (value, 0, 100);
  if (range != NULL && viva_json_member_integer (range, "max", &value))
    *max = (guint)CLAMP (value, 0, 100);
  *max = MIN (MAX (*max, *min), available);
  *min = MIN (*min, *max);
}

/**
 * viva_problem_get_asks:
 *
 * The pack's `ask`: how many conceptual and prediction questions a
 * defense asks, at least and at most (one of each when absent), never
 * more than the problem has.
 */
void
viva_problem_get_asks (VivaProblem     *problem,
                       VivaProblemAsks *asks)
{
  JsonObject *source = _viva_problem_get_source (problem);
  JsonObject *ask = source ? viva_json_member_object (source, "ask") : NULL;
  g_autoptr(GPtrArray) predictions = viva_problem_get_predictions (problem);

  asks->enforced = ask != NULL;
  read_range (ask, "questions", viva_problem_get_n_questions (problem), 1,
              &asks->min_questions, &asks->max_questions);
  read_range (ask, "predictions", predictions->len, 1,
              &asks->min_predictions, &asks->max_predictions);
}

void
viva_prediction_judgment_free (VivaPredictionJudgment *self)
{
  if (self == NULL)
    return;

  g_free (self->expected);
  g_free (self->reason);
  g_free (self);
}

/* Python source for a string: every character that is not plain printable
 * ASCII as an escape, so no text of the student's can end the literal. */
static void
append_python_string (GString    *out,
                      const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
        g_string_append_c (out, (char)c);
      else
        g_string_append_printf (out, "\\U%08x", c);
    }
  g_string_append_c (out, '"');
}

/* The student's process only runs the call and says what came of it: a
 * value, or the name of the exception it raised. */
static const char outcome_setup[] =
  "def _viva_outcome(thunk):\n"
  "    try:\n"
  "        return ('value', thunk())\n"
  "    except Exception as error:\n"
  "        return ('raises', type(error).__name__)\n";

/* The judge, where no student code ran, reads the answer as a literal
 * (ast.literal_eval: no names, no calls) and compares. Its verdict is the
 * assert message's first word. */
static const char judge_check[] =
  "import ast, math, re\n"
  "def _viva_plain(x):\n"
  "    return x.tolist() if hasattr(x, 'tolist') and not isinstance(x, (list, tuple, dict, str)) else x\n"
  "def _viva_same(a, b, top=False):\n"
  "    a, b = _viva_plain(a), _viva_plain(b)\n"
  "    if isinstance(a, bool) or isinstance(b, bool):\n"
  "        return type(a) is type(b) and a == b\n"
  "    if isinstance(a, (int, float)) and isinstance(b, (int, float)):\n"
  "        if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):\n"
  "            return True\n"
  "        return a == b or abs(a - b) <= _viva_tolerance\n"
  "    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):\n"
  "        if len(a) != len(b):\n"
  "            return False\n"
  "        if top and _viva_unordered:\n"
  "            rest = list(b)\n"
  "            for x in a:\n"
  "                for i, y in enumerate(rest):\n"
  "                    if _viva_same(x, y):\n"
  "                        del rest[i]\n"
  "                        break\n"
  "                else:\n"
  "                    return False\n"
  "            return True\n"
  "        return all(_viva_same(x, y) for x, y in zip(a, b))\n"
  "    if isinstance(a, dict) and isinstance(b, dict):\n"
  "        return len(a) == len(b) and all(k in b and _viva_same(v, b[k]) for k, v in a.items())\n"
  "    return type(a) is type(b) and a == b\n"
  "_viva_kind, _viva_value = result\n"
  "_viva_expected = ('raises ' + str(_viva_value)) if _viva_kind == 'raises' else repr(_viva_value)\n"
  "_viva_expected = _viva_expected if len(_viva_expected) <= 300 else _viva_expected[:300] + '…'\n"
  "_viva_text = _viva_answer.strip().rstrip('.').strip()\n"
  "_viva_raises = re.fullmatch(r'(?:it\\s+)?(?:raises|raise|throws)\\s+(?:an?\\s+)?([A-Za-z_][A-Za-z0-9_.]*)',"
  " _viva_text, re.I)\n"
  "if _viva_raises:\n"
  "    _viva_ok = _viva_kind == 'raises' and _viva_raises.group(1).split('.')[-1] == _viva_value\n"
  "else:\n"
  "    try:\n"
  "        _viva_parsed = ast.literal_eval(_viva_text)\n"
  "    except Exception:\n"
  "        raise AssertionError('junk|' + _viva_expected)\n"
  "    _viva_ok = _viva_kind == 'value' and _viva_same(_viva_parsed, _viva_value, True)\n"
  "if not _viva_ok:\n"
  "    raise AssertionError('wrong|' + _viva_expected)\n";

/* Too long to be an answer anyone typed: judged as not a literal. */
static char *
bound_answer (const char *answer)
{
  answer = answer ? answer : "";

  return g_utf8_strlen (answer, -1) > VIVA_PREDICTION_MAX_ANSWER ? g_strdup ("<too long>") : g_strdup (answer);
}

/**
 * viva_prediction_test_new:
 * @call: the call as the student read it (drawn)
 * @tolerance: how far a number of the answer may be from the value
 * @unordered: a returned list's order does not matter
 * @answer: what the student typed
 *
 * The test that judges a prediction, for a #VivaGrader to grade on the
 * student's code (pass threshold 1; it needs no reference): @call runs in
 * a fresh worker with the student's code (the value, or the exception's
 * name, crosses as plain data), and @answer is read as a Python literal in
 * the judge's worker, where no student code ran: never in this process.
 * An answer past %VIVA_PREDICTION_MAX_ANSWER characters is not read at
 * all. Read the outcome with viva_prediction_judgment_new_from_report().
 *
 * Returns: (transfer full): the test
 */
VivaGraderTest *
viva_prediction_test_new (const char *call,
                          double      tolerance,
                          gboolean    unordered,
                          const char *answer)
{
  g_autoptr(GString) check = g_string_new ("_viva_answer = ");
  g_autofree char *bounded = bound_answer (answer);
  g_autofree char *wrapped = NULL;

  g_return_val_if_fail (call != NULL, NULL);

  append_python_string (check, bounded);
  g_string_append_printf (check, "\n_viva_tolerance = %s\n_viva_unordered = %s\n",
                          tolerance > 0 && tolerance < 1e300 ? g_ascii_dtostr ((char[G_ASCII_DTOSTR_BUF_SIZE]){ 0 },
                                                                               G_ASCII_DTOSTR_BUF_SIZE, tolerance)
                                                             : "0",
                          unordered ? "True" : "False");
  g_string_append (check, judge_check);
  wrapped = g_strdup_printf ("_viva_outcome(lambda: (%s))", call);

  return viva_grader_test_new_structured ("prediction", outcome_setup, wrapped, check->str, FALSE, 0);
}

/**
 * viva_prediction_judgment_new_from_report:
 * @report: the grading of viva_prediction_test_new()'s test
 * @answer: the answer that test was built with
 *
 * Returns: (transfer full): the judgment: right, wrong, junk, or not
 *   judged when the call did not run to a plain value
 */
VivaPredictionJudgment *
viva_prediction_judgment_new_from_report (VivaGradeReport *report,
                                          const char      *answer)
{
  VivaPredictionJudgment *judgment;
  const VivaGradeTest *test;
  const char *message;
  const char *wrong;
  const char *junk;

  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (report), NULL);

  judgment = g_new0 (VivaPredictionJudgment, 1);
  test = viva_grade_report_get_n_tests (report) > 0 ? viva_grade_report_get_test (report, 0) : NULL;
  message = test && test->message ? test->message : "";
  wrong = strstr (message, "wrong|");
  junk = strstr (message, "junk|");

  if (test != NULL && test->passed)
    {
      judgment->outcome = VIVA_PREDICTION_RIGHT;
      judgment->expected = bound_answer (answer);
      judgment->reason = g_strdup (_("Right: that is what your code does."));
    }
  else if (test != NULL && g_str_equal (test->status, "failed") && (wrong || junk))
    {
      gboolean is_junk = junk != NULL && (wrong == NULL || junk < wrong);

      judgment->outcome = is_junk ? VIVA_PREDICTION_JUNK : VIVA_PREDICTION_WRONG;
      judgment->expected = g_strdup (strchr (is_junk ? junk : wrong, '|') + 1);
      if (is_junk)
        /* Translators: %s is what the student's code returned, as Python writes it */
        judgment->reason = g_strdup_printf (_("Not a Python value, so it scores nothing: answer with a "
                                              "literal such as [1, 2] or 0.5, or “raises ValueError”. "
                                              "Your code gives %s."), judgment->expected);
      else
        /* Translators: %s is what the student's code returned, as Python writes it */
        judgment->reason = g_strdup_printf (_("Not what your code does: it gives %s."), judgment->expected);
    }
  else
    {
      judgment->outcome = VIVA_PREDICTION_NOT_JUDGED;
      /* Translators: %s says why the call could not be run, in a sentence */
      judgment->reason = g_strdup_printf (_("Viva could not run the call on your code to check the "
                                            "answer, so it scores nothing: %s"),
                                          test && test->message && test->message[0] ? test->message
                                                                                     : _("no reason given."));
    }

  return judgment;
}
