/* viva-problem-generator-reply.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-pack-private.h"
#include "viva-problem-generator-private.h"

/* The model's reply to the generator: the schema it is asked to follow,
 * and the checks that need no worker — the reply read as JSON, held to the
 * pack format's rules, of the type the teacher asked for, with a hint that
 * keeps the reference's code back — and the pieces of code the loop then
 * compiles. Plain data in and out; the loop is viva-problem-generator.c. */

/* What a reply must be. Kept to the subset of JSON Schema that servers'
 * structured output (OpenAI, llama.cpp grammars, Ollama) all accept. */
static const char problem_schema[] =
  "{\"type\":\"object\","
  "\"properties\":{"
    "\"id\":{\"type\":\"string\"},"
    "\"title\":{\"type\":\"string\"},"
    "\"type\":{\"type\":\"string\",\"enum\":[\"implement\",\"debug\",\"explain\"]},"
    "\"description\":{\"type\":\"string\"},"
    "\"starter_code\":{\"type\":\"string\"},"
    "\"reference_solution\":{\"type\":\"string\"},"
    "\"tests\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
      "\"properties\":{\"name\":{\"type\":\"string\"},\"code\":{\"type\":\"string\"}},"
      "\"required\":[\"name\",\"code\"]}},"
    "\"questions\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
      "\"properties\":{\"question\":{\"type\":\"string\"},"
        "\"points\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
      "\"required\":[\"question\",\"points\"]}},"
    "\"hint\":{\"type\":\"string\"},"
    "\"rubric\":{\"type\":\"string\"}},"
  "\"required\":[\"id\",\"title\",\"type\",\"description\",\"starter_code\",\"reference_solution\","
    "\"tests\",\"questions\",\"hint\",\"rubric\"]}";

/**
 * _viva_problem_generator_response_schema:
 *
 * Returns: (transfer full): the JSON Schema a reply must follow
 */
JsonNode *
_viva_problem_generator_response_schema (void)
{
  return json_from_string (problem_schema, NULL);
}

static char *
squeeze (const char *line)
{
  g_autofree char *stripped = g_strstrip (g_strdup (line));
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;

  for (const char *p = stripped; *p; p++)
    {
      if (g_ascii_isspace (*p))
        space = TRUE;
      else
        {
          if (space && out->len > 0)
            g_string_append_c (out, ' ');
          space = FALSE;
          g_string_append_c (out, *p);
        }
    }

  return g_string_free (out, FALSE);
}

/**
 * viva_problem_generator_check_hint:
 *
 * Whether @problem's hint gives away its reference solution: a line of
 * the solution's code (not a signature, an import or a comment, and long
 * enough to be more than a keyword) appears in the hint, spaces aside.
 *
 * Returns: (transfer full) (element-type VivaPackIssue): the issue, or an
 *   empty array
 */
GPtrArray *
viva_problem_generator_check_hint (VivaProblem *problem)
{
  g_autoptr(GPtrArray) issues = viva_pack_issues_new ();
  g_autofree char *hint = NULL;
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);

  if (viva_problem_get_hint (problem) == NULL || viva_problem_get_reference (problem) == NULL)
    return g_steal_pointer (&issues);

  hint = squeeze (viva_problem_get_hint (problem));
  lines = g_strsplit (viva_problem_get_reference (problem), "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = squeeze (lines[i]);

      if (strlen (line) < 12 || line[0] == '#' ||
          g_str_has_prefix (line, "def ") || g_str_has_prefix (line, "class ") ||
          g_str_has_prefix (line, "import ") || g_str_has_prefix (line, "from ") ||
          g_str_has_prefix (line, "\"\"\"") || g_str_has_prefix (line, "'''"))
        continue;

      if (strstr (hint, line) != NULL)
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "hint",
                                _("contains the line “%s” of the reference solution — a hint points at the idea; it must not give the code away"),
                                line);
          break;
        }
    }

  return g_steal_pointer (&issues);
}

/**
 * _viva_problem_generator_add_issues:
 * @into: (element-type VivaPackIssue): where to add them
 * @issues: (element-type VivaPackIssue): issues of a pack of one problem
 *
 * Issues of a one-problem pack are about "problems[0].x"; the model and the
 * teacher see "x".
 */
void
_viva_problem_generator_add_issues (GPtrArray *into,
                                    GPtrArray *issues)
{
  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);
      const char *path = issue->path ? issue->path : "";

      if (g_str_has_prefix (path, "problems[0]."))
        path += strlen ("problems[0].");
      else if (g_str_has_prefix (path, "problems[0]"))
        path += strlen ("problems[0]");

      g_ptr_array_add (into, viva_pack_issue_new (issue->code, issue->level, path, issue->message));
    }
}

/* Takes the JSON object out of a reply: models wrap it in a Markdown fence
 * or a sentence now and then, even when told not to. */
static char *
extract_json (const char *content)
{
  const char *start = strchr (content, '{');
  const char *end = strrchr (content, '}');

  if (start == NULL || end == NULL || end < start)
    return g_strdup (content);

  return g_strndup (start, end - start + 1);
}

/**
 * _viva_problem_generator_read_reply:
 * @raw: the model's reply as it came
 * @wanted: the type the teacher asked for
 * @issues: (element-type VivaPackIssue): where what is wrong is added
 *
 * Returns: (transfer full) (nullable): the problem in @raw when it is one
 *   by the pack format's rules (with any other issue in @issues), or %NULL
 */
VivaProblem *
_viva_problem_generator_read_reply (const char      *raw,
                                    VivaProblemType  wanted,
                                    GPtrArray       *issues)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GPtrArray) pack_issues = viva_pack_issues_new ();
  g_autoptr(GPtrArray) hint_issues = NULL;
  g_autoptr(VivaProblem) problem = NULL;
  JsonNode *reply;

  json = extract_json (raw);
  if (!json_parser_load_from_data (parser, json, -1, &error) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      if (error != NULL)
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_SYNTAX, VIVA_PACK_ISSUE_ERROR, "",
                              _("The reply is not valid JSON (%s); answer with one JSON object and nothing else."),
                              error->message);
      else
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_SYNTAX, VIVA_PACK_ISSUE_ERROR, "",
                              _("The reply is JSON but not an object; answer with one JSON object for the problem."));
      return NULL;
    }

  reply = json_parser_get_root (parser);
  if (!_viva_pack_validate_problem (reply, pack_issues))
    {
      _viva_problem_generator_add_issues (issues, pack_issues);
      return NULL;
    }

  problem = _viva_problem_new_from_json (json_node_get_object (reply));

  if (viva_problem_get_problem_type (problem) != wanted)
    viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "type",
                          _("is “%s” but the teacher asked for a “%s” problem"),
                          viva_problem_type_to_string (viva_problem_get_problem_type (problem)),
                          viva_problem_type_to_string (wanted));

  hint_issues = viva_problem_generator_check_hint (problem);
  for (guint i = 0; i < hint_issues->len; i++)
    g_ptr_array_add (issues, viva_pack_issue_copy (g_ptr_array_index (hint_issues, i)));

  return g_steal_pointer (&problem);
}

/**
 * _viva_problem_generator_pieces:
 *
 * Every piece of @problem's code, to compile first: a syntax error is
 * clearer than the failed runs it would cause.
 *
 * Returns: (transfer full) (element-type utf8): pairs of (path, code)
 */
GPtrArray *
_viva_problem_generator_pieces (VivaProblem *problem)
{
  g_autoptr(GPtrArray) pieces = g_ptr_array_new_with_free_func (g_free);

  if (viva_problem_get_starter_code (problem) != NULL && viva_problem_get_starter_code (problem)[0] != '\0')
    {
      g_ptr_array_add (pieces, g_strdup ("starter_code"));
      g_ptr_array_add (pieces, g_strdup (viva_problem_get_starter_code (problem)));
    }
  g_ptr_array_add (pieces, g_strdup ("reference_solution"));
  g_ptr_array_add (pieces, g_strdup (viva_problem_get_reference (problem)));
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      g_ptr_array_add (pieces, g_strdup_printf ("tests[%u].code", i));
      g_ptr_array_add (pieces, g_strdup (viva_problem_get_test (problem, i)->code));
    }

  return g_steal_pointer (&pieces);
}
