/* viva-pack-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-json-bytes.h"
#include "viva-json-member.h"
#include "viva-pack-private.h"

/* A pack and its problems to and from their `viva-pack/1` JSON: the objects
 * built from a tree that passed validation, and the tree written back with
 * the keys this version does not know kept where the source had them. Pure
 * data; no files. */

static VivaProblem *
problem_from_json (JsonObject *object)
{
  g_autoptr(VivaProblem) problem = viva_problem_new (viva_json_member_string (object, "id"),
                                                     viva_json_member_string (object, "title"));
  VivaProblemType type = VIVA_PROBLEM_IMPLEMENT;
  JsonArray *array;

  if (viva_problem_type_from_string (viva_json_member_string (object, "type"), &type))
    viva_problem_set_problem_type (problem, type);

  viva_problem_set_description (problem, viva_json_member_string (object, "description"));
  viva_problem_set_starter_code (problem, viva_json_member_string (object, "starter_code"));
  viva_problem_set_hint (problem, viva_json_member_string (object, "hint"));
  viva_problem_set_reference (problem, viva_json_member_string (object, "reference_solution"));
  viva_problem_set_rubric (problem, viva_json_member_string (object, "rubric"));

  if (json_object_has_member (object, "time_limit_minutes"))
    viva_problem_set_time_limit (problem, json_object_get_int_member (object, "time_limit_minutes"));
  if (json_object_has_member (object, "pass_threshold"))
    viva_problem_set_pass_threshold (problem, json_object_get_int_member (object, "pass_threshold"));

  array = json_object_get_array_member (object, "tests");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *test = json_array_get_object_element (array, i);

      if (json_object_has_member (test, "call"))
        viva_problem_add_structured_test (problem, viva_json_member_string (test, "name"),
                                          viva_json_member_string (test, "setup"),
                                          viva_json_member_string (test, "call"),
                                          viva_json_member_string (test, "check"),
                                          json_object_get_boolean_member_with_default (test, "compare", FALSE),
                                          json_object_get_double_member_with_default (test, "tolerance", 0));
      else
        {
          g_autofree char *call = NULL;
          g_autofree char *check = NULL;

          /* An old test converts when its shape allows: then the grader
           * judges it outside the student's process (see the validator). */
          if (viva_problem_test_convert_legacy (viva_json_member_string (test, "code"), &call, &check))
            viva_problem_add_structured_test (problem, viva_json_member_string (test, "name"),
                                              "", call, check, FALSE, 0);
          else
            viva_problem_add_test (problem, viva_json_member_string (test, "name"),
                                   viva_json_member_string (test, "code"));
        }
      viva_problem_set_test_shown (problem, viva_problem_get_n_tests (problem) - 1,
                                   json_object_get_boolean_member_with_default (test, "shown", FALSE));
    }

  array = json_object_get_array_member (object, "questions");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *question = json_array_get_object_element (array, i);
      JsonArray *points = json_object_get_array_member (question, "points");
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) strv = NULL;

      for (guint j = 0; j < json_array_get_length (points); j++)
        g_strv_builder_add (builder, json_array_get_string_element (points, j));

      strv = g_strv_builder_end (builder);
      viva_problem_add_question (problem, viva_json_member_string (question, "question"),
                                 (const char * const *)strv);
    }

  _viva_problem_set_source (problem, object);

  return g_steal_pointer (&problem);
}

/**
 * _viva_pack_new_from_node:
 * @root: a tree that passed _viva_pack_validate()
 *
 * Returns: (transfer full): the pack
 */
VivaPack *
_viva_pack_new_from_node (JsonNode *root)
{
  g_autoptr(VivaPack) pack = NULL;
  JsonObject *object;
  JsonArray *problems;

  g_assert (JSON_NODE_HOLDS_OBJECT (root));

  object = json_node_get_object (root);
  pack = viva_pack_new (viva_json_member_string (object, "id"),
                        viva_json_member_string (object, "title"));
  viva_pack_set_author (pack, viva_json_member_string (object, "author"));
  viva_pack_set_language (pack, viva_json_member_string (object, "language"));
  viva_pack_set_version (pack, viva_json_member_string (object, "version"));
  _viva_pack_set_source (pack, object);

  problems = json_object_get_array_member (object, "problems");
  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      g_autoptr(VivaProblem) problem =
        problem_from_json (json_array_get_object_element (problems, i));

      viva_pack_add_problem (pack, problem);
    }

  return g_steal_pointer (&pack);
}

/* Builds an object in the order of @source's keys, known keys taking their
 * values from @fresh, then the known keys @source lacked. Unknown keys keep
 * their values and places. */
static JsonObject *
merge_with_source (JsonObject *source,
                   JsonObject *fresh)
{
  g_autoptr(JsonObject) merged = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (source != NULL)
    {
      json_object_iter_init_ordered (&iter, source);
      while (json_object_iter_next_ordered (&iter, &name, &value))
        {
          if (json_object_has_member (fresh, name))
            json_object_set_member (merged, name, json_object_dup_member (fresh, name));
          else if (!g_str_equal (name, "format"))
            json_object_set_member (merged, name, json_node_copy (value));
        }
    }

  json_object_iter_init_ordered (&iter, fresh);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    if (!json_object_has_member (merged, name))
      json_object_set_member (merged, name, json_node_copy (value));

  return g_steal_pointer (&merged);
}

static void
set_optional_string (JsonObject *object,
                     const char *name,
                     const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
}

/* The object a test or question was read from, to keep its unknown keys:
 * the one with the same name, else the one at the same place. */
static JsonObject *
source_element (JsonObject *source,
                const char *array_name,
                const char *key,
                const char *value,
                guint       index)
{
  JsonNode *node;
  JsonArray *array;

  if (source == NULL || (node = json_object_get_member (source, array_name)) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_OBJECT (element) &&
          g_strcmp0 (viva_json_member_string (json_node_get_object (element), key), value) == 0)
        return json_node_get_object (element);
    }

  if (index < json_array_get_length (array) &&
      JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, index)))
    return json_array_get_object_element (array, index);

  return NULL;
}

static JsonObject *
problem_to_json (VivaProblem *problem)
{
  static const char * const test_keys[] = { "code", "setup", "call", "check", "compare", "tolerance", "shown" };
  JsonObject *source = _viva_problem_get_source (problem);
  g_autoptr(JsonObject) fresh = json_object_new ();
  g_autoptr(JsonArray) tests = json_array_new ();
  g_autoptr(JsonArray) questions = json_array_new ();

  set_optional_string (fresh, "id", viva_problem_get_id (problem));
  set_optional_string (fresh, "title", viva_problem_get_title (problem));
  json_object_set_string_member (fresh, "type",
                                 viva_problem_type_to_string (viva_problem_get_problem_type (problem)));
  set_optional_string (fresh, "description", viva_problem_get_description (problem));
  set_optional_string (fresh, "starter_code", viva_problem_get_starter_code (problem));
  set_optional_string (fresh, "hint", viva_problem_get_hint (problem));
  set_optional_string (fresh, "reference_solution", viva_problem_get_reference (problem));

  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);
      g_autoptr(JsonObject) object = json_object_new ();

      JsonObject *merged;

      set_optional_string (object, "name", test->name);
      if (viva_problem_test_is_structured (test))
        {
          json_object_set_string_member (object, "setup", test->setup ? test->setup : "");
          json_object_set_string_member (object, "call", test->call);
          json_object_set_string_member (object, "check", test->check ? test->check : "");
          if (test->compare)
            {
              json_object_set_boolean_member (object, "compare", TRUE);
              if (test->tolerance > 0)
                json_object_set_double_member (object, "tolerance", test->tolerance);
            }
        }
      else
        set_optional_string (object, "code", test->code);
      if (test->shown)
        json_object_set_boolean_member (object, "shown", TRUE);

      merged = merge_with_source (source_element (source, "tests", "name", test->name, i), object);
      /* A test that changed form keeps nothing of the other one. */
      for (guint k = 0; k < G_N_ELEMENTS (test_keys); k++)
        if (!json_object_has_member (object, test_keys[k]))
          json_object_remove_member (merged, test_keys[k]);
      json_array_add_object_element (tests, merged);
    }
  json_object_set_array_member (fresh, "tests", g_steal_pointer (&tests));

  for (guint i = 0; i < viva_problem_get_n_questions (problem); i++)
    {
      const VivaProblemQuestion *question = viva_problem_get_question (problem, i);
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonArray) points = json_array_new ();

      set_optional_string (object, "question", question->question);
      for (guint j = 0; question->points && question->points[j]; j++)
        json_array_add_string_element (points, question->points[j]);
      json_object_set_array_member (object, "points", g_steal_pointer (&points));
      json_array_add_object_element (questions,
                                     merge_with_source (source_element (source, "questions", "question",
                                                                        question->question, i),
                                                        object));
    }
  json_object_set_array_member (fresh, "questions", g_steal_pointer (&questions));

  set_optional_string (fresh, "rubric", viva_problem_get_rubric (problem));
  if (viva_problem_get_time_limit (problem) > 0)
    json_object_set_int_member (fresh, "time_limit_minutes", viva_problem_get_time_limit (problem));
  if (viva_problem_get_pass_threshold (problem) > 0)
    json_object_set_int_member (fresh, "pass_threshold", viva_problem_get_pass_threshold (problem));

  {
    JsonObject *merged = merge_with_source (source, fresh);

    if (viva_problem_get_pass_threshold (problem) == 0)
      json_object_remove_member (merged, "pass_threshold");
    return merged;
  }
}

/**
 * _viva_problem_to_json:
 *
 * Returns: (transfer full): @problem as an element of a pack's `problems`
 */
JsonObject *
_viva_problem_to_json (VivaProblem *problem)
{
  g_assert (VIVA_IS_PROBLEM (problem));

  return problem_to_json (problem);
}

/**
 * _viva_problem_new_from_json:
 * @object: a problem that passed validation (inside a pack)
 *
 * Returns: (transfer full): the problem
 */
VivaProblem *
_viva_problem_new_from_json (JsonObject *object)
{
  g_assert (object != NULL);

  return problem_from_json (object);
}

/**
 * viva_pack_to_json:
 *
 * Returns: (transfer full): the pack as a `viva-pack/1` document, with the
 *   keys this version does not know kept from the file it was read from
 */
JsonNode *
viva_pack_to_json (VivaPack *self)
{
  g_autoptr(JsonObject) fresh = json_object_new ();
  g_autoptr(JsonArray) problems = json_array_new ();
  g_autoptr(JsonObject) merged = NULL;
  JsonNode *node;
  guint n;

  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  /* The format comes first whatever the source said, so a reader can tell
   * what the file is from its first line. */
  json_object_set_string_member (fresh, "format", VIVA_PACK_FORMAT);
  set_optional_string (fresh, "id", viva_pack_get_id (self));
  set_optional_string (fresh, "title", viva_pack_get_title (self));
  set_optional_string (fresh, "author", viva_pack_get_author (self));
  set_optional_string (fresh, "language", viva_pack_get_language (self));
  set_optional_string (fresh, "version", viva_pack_get_version (self));

  n = g_list_model_get_n_items (viva_pack_get_problems (self));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (viva_pack_get_problems (self), i);

      json_array_add_object_element (problems, problem_to_json (problem));
    }
  json_object_set_array_member (fresh, "problems", g_steal_pointer (&problems));

  merged = json_object_new ();
  json_object_set_string_member (merged, "format", VIVA_PACK_FORMAT);
  {
    g_autoptr(JsonObject) rest = merge_with_source (_viva_pack_get_source (self), fresh);
    JsonObjectIter iter;
    const char *name;
    JsonNode *value;

    json_object_iter_init_ordered (&iter, rest);
    while (json_object_iter_next_ordered (&iter, &name, &value))
      if (!g_str_equal (name, "format"))
        json_object_set_member (merged, name, json_node_copy (value));
  }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, g_steal_pointer (&merged));

  return node;
}

/**
 * viva_pack_to_bytes:
 *
 * Returns: (transfer full): the pack as indented JSON text ending in a
 *   newline, the way a teacher would keep it in version control
 */
GBytes *
viva_pack_to_bytes (VivaPack *self)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  root = viva_pack_to_json (self);

  return viva_json_to_bytes (root);
}

/**
 * viva_pack_validate:
 *
 * Checks a pack built or edited in memory against the same rules as a
 * loaded one. Main thread.
 *
 * Returns: (transfer full) (element-type VivaPackIssue): what is wrong,
 *   empty when nothing is
 */
GPtrArray *
viva_pack_validate (VivaPack *self)
{
  g_autoptr(GPtrArray) issues = viva_pack_issues_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  root = viva_pack_to_json (self);
  _viva_pack_validate (root, issues);

  return g_steal_pointer (&issues);
}
