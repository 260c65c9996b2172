/* viva-pack-editor-validate.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>

#include "viva-pack-editor-private.h"

/* Validate: the format first, then, if it holds, every reference solution
 * and starter code against every test in the worker. Issues and runs are
 * kept per problem object, so they follow a problem that is moved. */

/* Validation ----------------------------------------------------------- */

static VivaProblem *
problem_for_path (VivaPackEditor *self,
                  const char     *path)
{
  guint64 index;
  char *end;

  if (!g_str_has_prefix (path, "problems["))
    return NULL;

  index = g_ascii_strtoull (path + strlen ("problems["), &end, 10);
  if (*end != ']' || index >= g_list_model_get_n_items (viva_pack_get_problems (self->pack)))
    return NULL;

  return g_list_model_get_item (viva_pack_get_problems (self->pack), index);
}

static GPtrArray *
issues_for (VivaPackEditor *self,
            VivaProblem    *problem)
{
  GPtrArray *issues = g_hash_table_lookup (self->issues, problem);

  if (issues == NULL)
    {
      issues = viva_pack_issues_new ();
      g_hash_table_insert (self->issues, g_object_ref (problem), issues);
    }

  return issues;
}

/* Issues go to their problem, with the path made relative to it. The
 * pack-level ones are returned. */
static guint
file_issues (VivaPackEditor *self,
             GPtrArray      *issues,
             GString        *pack_level)
{
  guint n_errors = 0;

  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);
      g_autoptr(VivaProblem) problem = problem_for_path (self, issue->path);
      const char *path;

      if (issue->level != VIVA_PACK_ISSUE_ERROR)
        continue;
      n_errors++;

      if (problem == NULL)
        {
          g_string_append_printf (pack_level, "%s%s", pack_level->len ? "\n" : "", issue->message);
          continue;
        }

      path = strchr (issue->path, ']') + 1;
      if (*path == '.')
        path++;
      g_ptr_array_add (issues_for (self, problem),
                       viva_pack_issue_new (issue->code, issue->level, path, issue->message));
    }

  return n_errors;
}

void
_viva_pack_editor_checked_cb (VivaPackChecker     *checker,
            const VivaPackCheck *check,
            VivaPackEditor      *self)
{
  g_autoptr(VivaProblem) problem = NULL;
  GPtrArray *checks;

  if (self->pack == NULL ||
      check->problem_index >= g_list_model_get_n_items (viva_pack_get_problems (self->pack)))
    return;

  problem = g_list_model_get_item (viva_pack_get_problems (self->pack), check->problem_index);
  if (!(checks = g_hash_table_lookup (self->checks, problem)))
    {
      checks = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_pack_check_free);
      g_hash_table_insert (self->checks, g_object_ref (problem), checks);
    }
  g_ptr_array_add (checks, viva_pack_check_copy (check));

  if (problem == self->problem)
    _viva_pack_editor_show_results (self);
}

static void
finish_validation (VivaPackEditor *self,
                   guint           n_errors,
                   const char     *pack_level)
{
  g_autofree char *message = NULL;

  self->validating = FALSE;
  _viva_pack_editor_rebuild_list (self);
  _viva_pack_editor_show_results (self);

  if (pack_level != NULL && pack_level[0] != '\0')
    message = g_strdup (pack_level);
  else if (n_errors == 0)
    message = g_strdup (_("Every problem passes its checks"));
  else
    message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "Validation found %u error; problems with errors are marked",
                                            "Validation found %u errors; problems with errors are marked",
                                            n_errors),
                               n_errors);
  _viva_pack_editor_toast (self, message);
}

static void
check_pack_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(VivaPackEditor) self = user_data;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) pack_level = g_string_new (NULL);
  guint n_errors;

  if (!(issues = viva_pack_checker_check_finish (VIVA_PACK_CHECKER (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      self->validating = FALSE;
      _viva_pack_editor_update_actions (self);
      {
        g_autofree char *message = g_strdup_printf (_("The checks could not run: %s"), error->message);

        _viva_pack_editor_toast (self, message);
      }
      return;
    }

  n_errors = file_issues (self, issues, pack_level);
  finish_validation (self, n_errors, pack_level->str);
}

void
_viva_pack_editor_validate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (widget);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GString) pack_level = g_string_new (NULL);
  guint n_errors;

  _viva_pack_editor_sync_problem (self);
  g_hash_table_remove_all (self->issues);
  g_hash_table_remove_all (self->checks);

  issues = viva_pack_validate (self->pack);
  n_errors = file_issues (self, issues, pack_level);
  gtk_stack_set_visible_child_name (self->problem_stack, "validation");

  /* Running code whose fields are missing would only repeat the errors. */
  if (n_errors > 0)
    return finish_validation (self, n_errors, pack_level->str);

  self->validating = TRUE;
  _viva_pack_editor_update_actions (self);
  gtk_label_set_text (self->validation_summary, _("Running the reference solutions and starter codes…"));
  viva_pack_checker_check_pack_async (self->checker, self->pack, self->cancellable,
                                      check_pack_cb, g_object_ref (self));
}

