/* viva-pack-issue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-pack-issue.h"

G_DEFINE_QUARK (viva-pack-error-quark, viva_pack_error)
G_DEFINE_BOXED_TYPE (VivaPackIssue, viva_pack_issue, viva_pack_issue_copy, viva_pack_issue_free)

/* Stable names for scripts reading `viva-cli pack validate --json`; never
 * translated. */
static const char * const error_names[] = {
  [VIVA_PACK_ERROR_INVALID] = "invalid",
  [VIVA_PACK_ERROR_FORMAT] = "format",
  [VIVA_PACK_ERROR_TOO_LARGE] = "too-large",
  [VIVA_PACK_ERROR_EMPTY] = "empty",
  [VIVA_PACK_ERROR_BINARY] = "binary",
  [VIVA_PACK_ERROR_ENCODING] = "encoding",
  [VIVA_PACK_ERROR_TRUNCATED] = "truncated",
  [VIVA_PACK_ERROR_TOO_DEEP] = "too-deep",
  [VIVA_PACK_ERROR_SYNTAX] = "syntax",
  [VIVA_PACK_ERROR_MISSING] = "missing",
  [VIVA_PACK_ERROR_WRONG_TYPE] = "wrong-type",
  [VIVA_PACK_ERROR_DUPLICATE] = "duplicate",
  [VIVA_PACK_ERROR_UNKNOWN_KEY] = "unknown-key",
  [VIVA_PACK_ERROR_EXISTS] = "exists",
  [VIVA_PACK_ERROR_REFERENCE_FAILS] = "reference-fails",
  [VIVA_PACK_ERROR_STARTER_PASSES] = "starter-passes",
};

const char *
viva_pack_error_to_string (VivaPackError code)
{
  g_return_val_if_fail (code < G_N_ELEMENTS (error_names), NULL);

  return error_names[code];
}

/**
 * viva_pack_issue_new:
 *
 * Returns: (transfer full): a new issue
 */
VivaPackIssue *
viva_pack_issue_new (VivaPackError       code,
                     VivaPackIssueLevel  level,
                     const char         *path,
                     const char         *message)
{
  VivaPackIssue *issue;

  g_return_val_if_fail (message != NULL, NULL);

  issue = g_new0 (VivaPackIssue, 1);
  issue->code = code;
  issue->level = level;
  issue->path = g_strdup (path ? path : "");
  issue->message = g_strdup (message);

  return issue;
}

VivaPackIssue *
viva_pack_issue_copy (const VivaPackIssue *issue)
{
  g_return_val_if_fail (issue != NULL, NULL);

  return viva_pack_issue_new (issue->code, issue->level, issue->path, issue->message);
}

void
viva_pack_issue_free (VivaPackIssue *issue)
{
  if (issue == NULL)
    return;

  g_free (issue->path);
  g_free (issue->message);
  g_free (issue);
}

/**
 * viva_pack_issue_to_string:
 *
 * Returns: (transfer full): "path: message", or the message alone when the
 *   issue is about the whole file
 */
char *
viva_pack_issue_to_string (const VivaPackIssue *issue)
{
  g_return_val_if_fail (issue != NULL, NULL);

  if (issue->path[0] == '\0')
    return g_strdup (issue->message);

  return g_strdup_printf ("%s: %s", issue->path, issue->message);
}

/**
 * viva_pack_issues_new:
 *
 * Returns: (transfer full) (element-type VivaPackIssue): an empty list that
 *   frees its issues
 */
GPtrArray *
viva_pack_issues_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify)viva_pack_issue_free);
}

/**
 * viva_pack_issues_add:
 * @issues: (element-type VivaPackIssue): the list to add to
 * @path: (nullable): the JSON path; %NULL for the file as a whole
 * @format: the message, a translated sentence: what is wrong — what to do
 *
 * Adds one issue, its message formatted like printf().
 */
void
viva_pack_issues_add (GPtrArray          *issues,
                      VivaPackError       code,
                      VivaPackIssueLevel  level,
                      const char         *path,
                      const char         *format,
                      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  g_return_if_fail (issues != NULL);
  g_return_if_fail (format != NULL);

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (issues, viva_pack_issue_new (code, level, path, message));
}

guint
viva_pack_issues_count_errors (GPtrArray *issues)
{
  guint n = 0;

  g_return_val_if_fail (issues != NULL, 0);

  for (guint i = 0; i < issues->len; i++)
    if (((VivaPackIssue *)g_ptr_array_index (issues, i))->level == VIVA_PACK_ISSUE_ERROR)
      n++;

  return n;
}

/**
 * viva_pack_issues_to_error:
 * @issues: (element-type VivaPackIssue): what a check found
 *
 * Turns the first error of @issues into a #GError with its code, saying how
 * many more there are. Warnings alone are not an error.
 *
 * Returns: %TRUE when @issues holds no error
 */
gboolean
viva_pack_issues_to_error (GPtrArray  *issues,
                           GError    **error)
{
  guint n_errors;

  g_return_val_if_fail (issues != NULL, FALSE);

  if ((n_errors = viva_pack_issues_count_errors (issues)) == 0)
    return TRUE;

  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);
      g_autofree char *text = NULL;

      if (issue->level != VIVA_PACK_ISSUE_ERROR)
        continue;

      text = viva_pack_issue_to_string (issue);

      if (n_errors == 1)
        g_set_error_literal (error, VIVA_PACK_ERROR, issue->code, text);
      else
        g_set_error (error, VIVA_PACK_ERROR, issue->code,
                     g_dngettext (GETTEXT_PACKAGE,
                                  "%s (and %u more problem in this pack)",
                                  "%s (and %u more problems in this pack)",
                                  n_errors - 1),
                     text, n_errors - 1);
      break;
    }

  return FALSE;
}
