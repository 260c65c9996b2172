/* viva-pack-issue.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define VIVA_PACK_ERROR (viva_pack_error_quark())

/**
 * VivaPackError:
 * @VIVA_PACK_ERROR_INVALID: a value breaks a rule of the format (an id with a
 *   slash, an unknown problem type, an empty list)
 * @VIVA_PACK_ERROR_FORMAT: the file is a pack of another format version
 * @VIVA_PACK_ERROR_TOO_LARGE: the file is larger than any real pack
 * @VIVA_PACK_ERROR_EMPTY: the file is empty or only whitespace
 * @VIVA_PACK_ERROR_BINARY: the file holds bytes no text file has
 * @VIVA_PACK_ERROR_ENCODING: the file is not valid UTF-8
 * @VIVA_PACK_ERROR_TRUNCATED: the JSON text stops in the middle
 * @VIVA_PACK_ERROR_TOO_DEEP: arrays and objects nest deeper than a pack can
 * @VIVA_PACK_ERROR_SYNTAX: the text is not JSON
 * @VIVA_PACK_ERROR_MISSING: a required key is absent
 * @VIVA_PACK_ERROR_WRONG_TYPE: a value has the wrong JSON type
 * @VIVA_PACK_ERROR_DUPLICATE: two problems, or two tests of a problem, share
 *   an id or a name
 * @VIVA_PACK_ERROR_UNKNOWN_KEY: a key the format does not define; only ever a
 *   warning, the key is kept on save
 * @VIVA_PACK_ERROR_EXISTS: importing would replace the bundled pack
 * @VIVA_PACK_ERROR_REFERENCE_FAILS: run check: a reference solution fails
 *   one of its problem's tests
 * @VIVA_PACK_ERROR_STARTER_PASSES: run check: a starter code already passes
 *   every test, leaving the student nothing to do
 *
 * Callers branch on these: the importer shows the file-level ones as one
 * sentence and the field-level ones as a list.
 */
typedef enum
{
  VIVA_PACK_ERROR_INVALID,
  VIVA_PACK_ERROR_FORMAT,
  VIVA_PACK_ERROR_TOO_LARGE,
  VIVA_PACK_ERROR_EMPTY,
  VIVA_PACK_ERROR_BINARY,
  VIVA_PACK_ERROR_ENCODING,
  VIVA_PACK_ERROR_TRUNCATED,
  VIVA_PACK_ERROR_TOO_DEEP,
  VIVA_PACK_ERROR_SYNTAX,
  VIVA_PACK_ERROR_MISSING,
  VIVA_PACK_ERROR_WRONG_TYPE,
  VIVA_PACK_ERROR_DUPLICATE,
  VIVA_PACK_ERROR_UNKNOWN_KEY,
  VIVA_PACK_ERROR_EXISTS,
  VIVA_PACK_ERROR_REFERENCE_FAILS,
  VIVA_PACK_ERROR_STARTER_PASSES,
} VivaPackError;

typedef enum
{
  VIVA_PACK_ISSUE_ERROR,
  VIVA_PACK_ISSUE_WARNING,
} VivaPackIssueLevel;

/**
 * VivaPackIssue:
 * @code: what kind of problem, a #VivaPackError
 * @level: an error stops the pack from loading; a warning does not
 * @path: the JSON path, like `problems[2].tests[0].code`; empty for the
 *   file as a whole
 * @message: a translated sentence: what is wrong — what to do
 *
 * One thing wrong with a pack. Plain data, safe to pass between threads.
 */
typedef struct
{
  VivaPackError       code;
  VivaPackIssueLevel  level;
  char               *path;
  char               *message;
} VivaPackIssue;

#define VIVA_TYPE_PACK_ISSUE (viva_pack_issue_get_type())

GType          viva_pack_issue_get_type     (void) G_GNUC_CONST;
GQuark         viva_pack_error_quark        (void);
VivaPackIssue *viva_pack_issue_new          (VivaPackError        code,
                                             VivaPackIssueLevel   level,
                                             const char          *path,
                                             const char          *message);
VivaPackIssue *viva_pack_issue_copy         (const VivaPackIssue *issue);
void           viva_pack_issue_free         (VivaPackIssue       *issue);
char          *viva_pack_issue_to_string    (const VivaPackIssue *issue);
const char    *viva_pack_error_to_string    (VivaPackError        code);
GPtrArray     *viva_pack_issues_new         (void);
guint          viva_pack_issues_count_errors (GPtrArray          *issues);
gboolean       viva_pack_issues_to_error    (GPtrArray           *issues,
                                             GError             **error);
void           viva_pack_issues_add         (GPtrArray           *issues,
                                             VivaPackError        code,
                                             VivaPackIssueLevel   level,
                                             const char          *path,
                                             const char          *format,
                                             ...) G_GNUC_PRINTF (5, 6);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaPackIssue, viva_pack_issue_free)

G_END_DECLS
