/* viva-json-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-json-check.h"
#include "viva-text.h"

/* The strict reading pieces that report as VivaPackIssues (the pack parser
 * and classroom's exam file report everything wrong with a tree, each with
 * its JSON path, worded as what is wrong — what it is for): a member of
 * the kind expected, text that is not blank. They live in packs because
 * the issues are the pack's type, and classroom may use packs; the words
 * they are made of (paths, kinds, a node described, the closest key) are
 * util's viva-json-strict.c, which exam's checkpoint reader uses too.
 * Thread-safe: no state. */

/**
 * viva_json_check_member:
 * @parent: (nullable): the path of @object
 * @is_kind: (nullable): what the value must be; %NULL takes any
 * @expected: the kind in words, like “a list”
 * @why: what the member is for, ending each issue about it
 * @issues: (element-type VivaPackIssue): where a missing or wrong member is
 *   reported, as an error
 *
 * Returns: (transfer none) (nullable): the member @key of @object when it
 *   is there and of the kind expected; %NULL means the caller has nothing
 *   more to check
 */
JsonNode *
viva_json_check_member (JsonObject        *object,
                        const char        *parent,
                        const char        *key,
                        gboolean           required,
                        VivaJsonCheckKind  is_kind,
                        const char        *expected,
                        const char        *why,
                        GPtrArray         *issues)
{
  g_autofree char *path = viva_json_check_path (parent, key);
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL)
    {
      if (required)
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_MISSING, VIVA_PACK_ISSUE_ERROR, path,
                              _("missing — %s"), why);
      return NULL;
    }

  if (is_kind != NULL && !is_kind (node))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, path,
                            _("is %s, not %s — %s"), viva_json_check_describe (node), expected, why);
      return NULL;
    }

  return node;
}

/**
 * viva_json_check_string:
 * @allow_empty: whether blank text is a value; otherwise it is an error
 *
 * Like viva_json_check_member() for text.
 *
 * Returns: (transfer none) (nullable): the text of the member @key
 */
const char *
viva_json_check_string (JsonObject *object,
                        const char *parent,
                        const char *key,
                        gboolean    required,
                        gboolean    allow_empty,
                        const char *why,
                        GPtrArray  *issues)
{
  JsonNode *node = viva_json_check_member (object, parent, key, required, viva_json_check_is_string,
                                           _("text"), why, issues);
  const char *value;

  if (node == NULL)
    return NULL;

  value = json_node_get_string (node);
  if (!allow_empty && viva_text_is_blank (value))
    {
      g_autofree char *path = viva_json_check_path (parent, key);

      viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path,
                            _("is empty — %s"), why);
      return NULL;
    }

  return value;
}
