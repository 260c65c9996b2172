/* viva-pack-validator.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-id.h"
#include "viva-json-check.h"
#include "viva-pack-private.h"

/* The second pass of reading a pack (the first, over the bytes, is
 * viva-pack-parser.c): every rule of the `viva-pack/1` format checked on the
 * parsed tree, everything wrong reported with its JSON path rather than
 * stopping at the first. Unknown keys are warnings, kept on save. */

#define MAX_TIME_LIMIT 600

static JsonArray *
check_array (JsonObject *object,
             const char *parent,
             const char *key,
             const char *why,
             GPtrArray  *issues)
{
  JsonNode *node = viva_json_check_member (object, parent, key, TRUE, viva_json_check_is_array,
                                           _("a list"), why, issues);
  g_autofree char *path = NULL;

  if (node == NULL)
    return NULL;

  if (json_array_get_length (json_node_get_array (node)) == 0)
    {
      path = viva_json_check_path (parent, key);
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path,
                            _("is an empty list — %s"), why);
      return NULL;
    }

  return json_node_get_array (node);
}

static JsonObject *
check_element_object (JsonArray  *array,
                      guint       index,
                      const char *path,
                      const char *why,
                      GPtrArray  *issues)
{
  JsonNode *node = json_array_get_element (array, index);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, path,
                            _("is %s, not an object — %s"), viva_json_check_describe (node), why);
      return NULL;
    }

  return json_node_get_object (node);
}

/* A misspelt key would silently lose its value, so unknown keys are warned
 * about (and kept on save, for tools that add their own). */
static void
check_unknown_keys (JsonObject         *object,
                    const char         *parent,
                    const char * const *known,
                    GPtrArray          *issues)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      g_autofree char *path = NULL;
      const char *close = NULL;

      if (g_strv_contains (known, name))
        continue;

      if (strlen (name) > 2)
        close = viva_json_check_closest_key (name, known, TRUE);

      path = viva_json_check_path (parent, name);
      if (close != NULL)
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_UNKNOWN_KEY, VIVA_PACK_ISSUE_WARNING, path,
                              _("unknown key — did you mean “%s”? Viva ignores this one but keeps it when saving"),
                              close);
      else
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_UNKNOWN_KEY, VIVA_PACK_ISSUE_WARNING, path,
                              _("unknown key — Viva ignores it but keeps it when saving"));
    }
}

static void
check_id (JsonObject *object,
          const char *parent,
          const char *why,
          GPtrArray  *issues)
{
  const char *id = viva_json_check_string (object, parent, "id", TRUE, FALSE, why, issues);

  if (id != NULL && !viva_id_is_valid (id))
    {
      g_autofree char *path = viva_json_check_path (parent, "id");

      viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path,
                            _("“%s” is not a valid id — %s"), id, why);
    }
}

static void
check_structured_test (JsonObject *test,
                       const char *path,
                       GPtrArray  *issues)
{
  JsonNode *node;

  viva_json_check_string (test, path, "call", TRUE, FALSE,
                          _("a structured test needs a Python expression whose value is checked, like “kmeans(pts, 2)”"),
                          issues);
  viva_json_check_string (test, path, "setup", FALSE, TRUE,
                          _("a test's setup is Python code that builds the inputs"), issues);
  viva_json_check_string (test, path, "check", FALSE, TRUE,
                          _("a test's check is Python assertions about “result”"), issues);

  if (json_object_has_member (test, "code"))
    {
      g_autofree char *code_path = viva_json_check_path (path, "code");

      viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, code_path,
                            _("a test has either “code” (the old form, run in the student's process) or “call” (judged by the grader), not both — delete one"));
    }

  if ((node = json_object_get_member (test, "compare")) != NULL &&
      !viva_json_check_is_boolean (node))
    {
      g_autofree char *compare_path = viva_json_check_path (path, "compare");

      viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, compare_path,
                            _("is %s, not true or false — “compare” says whether the result must equal the reference solution's"),
                            viva_json_check_describe (node));
    }

  if ((node = json_object_get_member (test, "tolerance")) != NULL &&
      (!viva_json_check_is_number (node) || json_node_get_double (node) < 0))
    {
      g_autofree char *tolerance_path = viva_json_check_path (path, "tolerance");

      viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, tolerance_path,
                            _("the tolerance is a number of zero or more: how far a number may be from the reference's"));
    }
}

/* A shown test is an example the student may read and the examiner may run
 * on the student's code; a test without "shown" is held out, so a pack
 * written before the key existed keeps every test secret. */
static gboolean
check_shown (JsonObject *test,
             const char *path,
             GPtrArray  *issues)
{
  JsonNode *node = json_object_get_member (test, "shown");

  if (node == NULL)
    return FALSE;

  if (!viva_json_check_is_boolean (node))
    {
      g_autofree char *shown_path = viva_json_check_path (path, "shown");

      viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, shown_path,
                            _("is %s, not true or false — “shown” says whether the student may see this test"),
                            viva_json_check_describe (node));
      return FALSE;
    }

  return json_node_get_boolean (node);
}

static void
check_tests (JsonObject *problem,
             const char *parent,
             GPtrArray  *issues)
{
  static const char * const known[] = { "name", "code", "setup", "call", "check", "compare", "tolerance", "shown", NULL };
  guint n_shown = 0;
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autofree char *tests_path = viva_json_check_path (parent, "tests");
  JsonArray *tests;

  tests = check_array (problem, parent, "tests",
                       _("each problem needs hidden tests, a list of {“name”, “setup”, “call”, “check”}"), issues);
  if (tests == NULL)
    return;

  for (guint i = 0; i < json_array_get_length (tests); i++)
    {
      g_autofree char *path = viva_json_check_path_index (tests_path, i);
      JsonObject *test;
      const char *name;
      const char *code;

      test = check_element_object (tests, i, path,
                                   _("each test is an object with a “name”, and a “call” with its “setup” and “check”"),
                                   issues);
      if (test == NULL)
        continue;

      name = viva_json_check_string (test, path, "name", TRUE, FALSE,
                                     _("each test needs a name the student sees when it fails"), issues);
      if (json_object_has_member (test, "call"))
        check_structured_test (test, path, issues);
      else if ((code = viva_json_check_string (test, path, "code", TRUE, FALSE,
                                               _("each test needs a “call” judged by the grader, or old-style Python “code” that raises on failure"),
                                               issues)) != NULL)
        {
          g_autofree char *call = NULL;
          g_autofree char *check = NULL;

          if (viva_problem_test_convert_legacy (code, &call, &check))
            viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_WARNING, path,
                                  _("is an old-form test that Viva converts on import: the grader evaluates “%s” in the student's process and judges it outside — saving the pack writes it as “call” and “check”"),
                                  call);
          else
            viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_WARNING, path,
                                  _("runs inside the student's process, where the student's code can change what the test sees, and its shape does not convert, so it is evidence for the examiner only and never counts as a pass — give it “setup”, “call” and “check” so that the grader judges it outside"));
        }
      check_unknown_keys (test, path, known, issues);
      n_shown += check_shown (test, path, issues) ? 1 : 0;

      if (name != NULL)
        {
          const char *first = g_hash_table_lookup (names, name);
          g_autofree char *name_path = viva_json_check_path (path, "name");

          if (first != NULL)
            viva_pack_issues_add (issues, VIVA_PACK_ERROR_DUPLICATE, VIVA_PACK_ISSUE_ERROR, name_path,
                                  _("“%s” is already the name of %s — give each test of a problem its own name"),
                                  name, first);
          else
            g_hash_table_insert (names, (char *)name, g_steal_pointer (&path));
        }
    }

  if (json_array_get_length (tests) > 0 && n_shown == json_array_get_length (tests))
    viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_WARNING, tests_path,
                          _("every test is shown, so a student who hard-codes the shown answers passes — keep some tests held out (leave out “shown”)"));
}

static void
check_questions (JsonObject *problem,
                 const char *parent,
                 GPtrArray  *issues)
{
  static const char * const known[] = { "question", "points", NULL };
  g_autofree char *questions_path = viva_json_check_path (parent, "questions");
  JsonArray *questions;

  questions = check_array (problem, parent, "questions",
                           _("each problem needs conceptual questions for the examiner, a list of {“question”, “points”}"),
                           issues);
  if (questions == NULL)
    return;

  for (guint i = 0; i < json_array_get_length (questions); i++)
    {
      g_autofree char *path = viva_json_check_path_index (questions_path, i);
      g_autofree char *points_path = viva_json_check_path (path, "points");
      const char *points_why = _("each question needs the points a good answer covers, a list of text");
      JsonObject *question;
      JsonArray *points;

      question = check_element_object (questions, i, path,
                                       _("each question is an object with the “question” and its “points”"),
                                       issues);
      if (question == NULL)
        continue;

      viva_json_check_string (question, path, "question", TRUE, FALSE,
                              _("each question needs its text"), issues);
      check_unknown_keys (question, path, known, issues);

      if ((points = check_array (question, path, "points", points_why, issues)) == NULL)
        continue;

      for (guint j = 0; j < json_array_get_length (points); j++)
        {
          JsonNode *point = json_array_get_element (points, j);
          g_autofree char *point_path = viva_json_check_path_index (points_path, j);

          if (!viva_json_check_is_string (point))
            viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, point_path,
                                  _("is %s, not text — %s"), viva_json_check_describe (point), points_why);
          else if (json_node_get_string (point)[0] == '\0')
            viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, point_path,
                                  _("is empty — %s"), points_why);
        }
    }
}

/* An optional whole number from 1 to @max. */
static void
check_count (JsonObject *problem,
             const char *parent,
             const char *key,
             gint64      max,
             const char *why,
             GPtrArray  *issues)
{
  JsonNode *node = json_object_get_member (problem, key);
  g_autofree char *path = NULL;

  if (node == NULL)
    return;

  path = viva_json_check_path (parent, key);

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, path,
                          _("is %s, not a whole number — %s"), viva_json_check_describe (node), why);
  else if (json_node_get_int (node) < 1 || json_node_get_int (node) > max)
    viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path,
                          _("%" G_GINT64_FORMAT " is out of range — %s"), json_node_get_int (node), why);
}

static void
check_time_limit (JsonObject *problem,
                  const char *parent,
                  GPtrArray  *issues)
{
  check_count (problem, parent, "time_limit_minutes", MAX_TIME_LIMIT,
               _("the time limit is a whole number of minutes from 1 to 600"), issues);
}

static void
check_pass_threshold (JsonObject *problem,
                      const char *parent,
                      GPtrArray  *issues)
{
  JsonNode *tests = json_object_get_member (problem, "tests");

  /* Without a list of tests, that error is reported on its own. */
  check_count (problem, parent, "pass_threshold",
               tests != NULL && JSON_NODE_HOLDS_ARRAY (tests)
                 ? (gint64) json_array_get_length (json_node_get_array (tests)) : G_MAXINT64,
               _("the pass threshold is how many hidden tests must pass, from 1 to the number of tests"),
               issues);
}

static void
check_problem (JsonObject *problem,
               const char *path,
               GPtrArray  *issues)
{
  static const char * const known[] = {
    "id", "title", "type", "description", "starter_code", "hint", "reference_solution",
    "tests", "questions", "rubric", "time_limit_minutes", "pass_threshold",
    "predictions", "weights", "ask", NULL
  };
  const char *type;

  check_id (problem, path,
            _("each problem needs an id of letters, digits, “-”, “_” and “.”, unique in the pack"),
            issues);
  viva_json_check_string (problem, path, "title", TRUE, FALSE,
                          _("each problem needs a title students see in the problem list"), issues);

  type = viva_json_check_string (problem, path, "type", TRUE, FALSE,
                                 _("each problem is of type “implement”, “debug” or “explain”"), issues);
  if (type != NULL && !viva_problem_type_from_string (type, NULL))
    {
      g_autofree char *type_path = viva_json_check_path (path, "type");

      viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, type_path,
                            _("“%s” is not a problem type — use “implement”, “debug” or “explain”"), type);
    }

  viva_json_check_string (problem, path, "description", TRUE, FALSE,
                          _("each problem needs a Markdown description the student works from"), issues);
  viva_json_check_string (problem, path, "starter_code", TRUE, TRUE,
                          _("each problem needs the code the student starts from (it may be empty)"), issues);
  viva_json_check_string (problem, path, "hint", TRUE, FALSE,
                          _("each problem needs a hint the student can reveal"), issues);
  viva_json_check_string (problem, path, "reference_solution", TRUE, FALSE,
                          _("each problem needs a reference solution that passes its tests"), issues);
  check_tests (problem, path, issues);
  check_questions (problem, path, issues);
  viva_json_check_string (problem, path, "rubric", FALSE, TRUE,
                          _("rubric notes are text for the examiner and the teacher"), issues);
  check_time_limit (problem, path, issues);
  check_pass_threshold (problem, path, issues);
  _viva_problem_exam_check (problem, path, issues);
  check_unknown_keys (problem, path, known, issues);
  _viva_problem_template_check (problem, path, issues);
}

static gboolean
check_format (JsonObject *root,
              GPtrArray  *issues)
{
  const char *why = _("a Viva pack starts with \"format\": \"viva-pack/1\"");
  const char *format = viva_json_check_string (root, NULL, "format", TRUE, FALSE, why, issues);
  guint64 version = 0;

  if (format == NULL || g_str_equal (format, VIVA_PACK_FORMAT))
    return TRUE;

  if (g_str_has_prefix (format, "viva-pack/") &&
      g_ascii_string_to_unsigned (format + strlen ("viva-pack/"), 10, 2, G_MAXUINT, &version, NULL))
    viva_pack_issues_add (issues, VIVA_PACK_ERROR_FORMAT, VIVA_PACK_ISSUE_ERROR, "format",
                          _("“%s” is a newer pack format than this version of Viva reads (%s) — update Viva to use this pack"),
                          format, VIVA_PACK_FORMAT);
  else
    viva_pack_issues_add (issues, VIVA_PACK_ERROR_FORMAT, VIVA_PACK_ISSUE_ERROR, "format",
                          _("“%s” is not a format Viva knows — this file is not a Viva pack (those say \"%s\")"),
                          format, VIVA_PACK_FORMAT);

  return FALSE;
}

/**
 * _viva_pack_validate:
 * @root: a parsed pack
 * @issues: (element-type VivaPackIssue): where to add what is wrong
 *
 * The second pass: every rule of the format, every violation reported.
 *
 * Returns: %TRUE when it added no error (warnings are fine)
 */
gboolean
_viva_pack_validate (JsonNode  *root,
                     GPtrArray *issues)
{
  static const char * const known[] = {
    "format", "id", "title", "author", "language", "version", "problems", NULL
  };
  const char *problem_why = _("each problem is an object with an id, a title, a description, code and tests");
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  guint n_errors;
  JsonObject *object;
  JsonArray *problems;

  g_assert (root != NULL);
  g_assert (issues != NULL);

  n_errors = viva_pack_issues_count_errors (issues);

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file holds %s, not a JSON object — a pack starts with “{”"),
                            viva_json_check_describe (root));
      return FALSE;
    }

  object = json_node_get_object (root);

  /* Another format's rules are not ours to check. */
  if (!check_format (object, issues))
    return FALSE;

  check_id (object, NULL, _("the pack needs an id of letters, digits, “-”, “_” and “.”"), issues);
  viva_json_check_string (object, NULL, "title", TRUE, FALSE,
                          _("the pack needs a title students see above its problems"), issues);
  viva_json_check_string (object, NULL, "author", FALSE, TRUE, _("the author is text"), issues);
  viva_json_check_string (object, NULL, "language", FALSE, TRUE,
                          _("the language is a code like “en” or “pt-BR”"), issues);
  viva_json_check_string (object, NULL, "version", FALSE, TRUE, _("the version is text, like “1.2”"), issues);
  check_unknown_keys (object, NULL, known, issues);

  problems = check_array (object, NULL, "problems",
                          _("a pack needs a list of problems"), issues);

  for (guint i = 0; problems && i < json_array_get_length (problems); i++)
    {
      g_autofree char *path = viva_json_check_path_index ("problems", i);
      JsonObject *problem = check_element_object (problems, i, path, problem_why, issues);
      JsonNode *id;

      if (problem == NULL)
        continue;

      check_problem (problem, path, issues);

      id = json_object_get_member (problem, "id");
      if (id != NULL && viva_json_check_is_string (id))
        {
          const char *first = g_hash_table_lookup (ids, json_node_get_string (id));
          g_autofree char *id_path = viva_json_check_path (path, "id");

          if (first != NULL)
            viva_pack_issues_add (issues, VIVA_PACK_ERROR_DUPLICATE, VIVA_PACK_ISSUE_ERROR, id_path,
                                  _("“%s” is already the id of %s — give each problem its own id"),
                                  json_node_get_string (id), first);
          else
            g_hash_table_insert (ids, (char *)json_node_get_string (id), g_steal_pointer (&path));
        }
    }

  return viva_pack_issues_count_errors (issues) == n_errors;
}

/**
 * _viva_pack_validate_problem:
 * @problem: one problem, as a pack's `problems` holds it
 * @issues: (element-type VivaPackIssue): where to add what is wrong, with
 *   paths inside a pack of one (`problems[0].hint`)
 *
 * Checks @problem by the pack format's own rules, inside a pack of one, so
 * a draft is held to exactly what a saved pack is.
 *
 * Returns: %TRUE when it added no error
 */
gboolean
_viva_pack_validate_problem (JsonNode  *problem,
                             GPtrArray *issues)
{
  g_autoptr(JsonObject) pack = json_object_new ();
  g_autoptr(JsonArray) problems = json_array_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  guint n_errors;

  g_assert (problem != NULL);
  g_assert (issues != NULL);

  n_errors = viva_pack_issues_count_errors (issues);

  json_object_set_string_member (pack, "format", VIVA_PACK_FORMAT);
  json_object_set_string_member (pack, "id", "draft");
  json_object_set_string_member (pack, "title", "Draft");
  json_array_add_element (problems, json_node_copy (problem));
  json_object_set_array_member (pack, "problems", g_steal_pointer (&problems));
  json_node_set_object (root, pack);

  return _viva_pack_validate (root, issues) && viva_pack_issues_count_errors (issues) == n_errors;
}
