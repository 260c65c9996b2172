/* viva-problem-draft.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-json-member.h"
#include "viva-pack-private.h"
#include "viva-problem-draft.h"

/* A problem the model drafted, with what the checks said about it, waiting
 * for a teacher to approve, edit or discard it. It is written to disk as a
 * `viva-draft/1` JSON document (see VivaDraftStore), so it outlives the app.
 * Once generation has set the result, a draft does not change, except for
 * the pack it is meant for. */

struct _VivaProblemDraft
{
  GObject          parent_instance;
  char            *id;
  gint64           created;
  char            *topic;
  VivaProblemType  type;
  char            *difficulty;
  char            *language;
  char            *pack_id;
  VivaProblem     *problem;
  char            *raw_reply;
  guint            attempts;
  GPtrArray       *issues;   /* VivaPackIssue */
  GPtrArray       *checks;   /* VivaPackCheck */
};

G_DEFINE_FINAL_TYPE (VivaProblemDraft, viva_problem_draft, G_TYPE_OBJECT)

static void
viva_problem_draft_finalize (GObject *object)
{
  VivaProblemDraft *self = (VivaProblemDraft *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->topic, g_free);
  g_clear_pointer (&self->difficulty, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->pack_id, g_free);
  g_clear_pointer (&self->raw_reply, g_free);
  g_clear_pointer (&self->issues, g_ptr_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  g_clear_object (&self->problem);

  G_OBJECT_CLASS (viva_problem_draft_parent_class)->finalize (object);
}

static void
viva_problem_draft_class_init (VivaProblemDraftClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_problem_draft_finalize;
}

static void
viva_problem_draft_init (VivaProblemDraft *self)
{
  self->issues = viva_pack_issues_new ();
  self->checks = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_pack_check_free);
}

static char *
empty_to_null (const char *text)
{
  return text != NULL && text[0] != '\0' ? g_strdup (text) : NULL;
}

/**
 * viva_problem_draft_new:
 * @topic: what the problem is about, in the teacher's words
 * @difficulty: (nullable): like "easy", or %NULL to leave it to the model
 * @language: (nullable): the language of the student's text, or %NULL
 *
 * Returns: (transfer full): a draft with a fresh id and no problem yet
 */
VivaProblemDraft *
viva_problem_draft_new (const char      *topic,
                        VivaProblemType  type,
                        const char      *difficulty,
                        const char      *language)
{
  VivaProblemDraft *self;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *uuid = g_uuid_string_random ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");

  g_return_val_if_fail (topic != NULL, NULL);

  self = g_object_new (VIVA_TYPE_PROBLEM_DRAFT, NULL);
  self->id = g_strdup_printf ("%s-%.8s", stamp, uuid);
  self->created = g_date_time_to_unix (now);
  self->topic = g_strdup (topic);
  self->type = type;
  self->difficulty = empty_to_null (difficulty);
  self->language = empty_to_null (language);

  return self;
}

#define GETTER(type, field)                                     \
type                                                            \
viva_problem_draft_get_##field (VivaProblemDraft *self)         \
{                                                               \
  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), 0);       \
  return self->field;                                           \
}

GETTER (const char *, id)
GETTER (gint64, created)
GETTER (const char *, topic)
GETTER (const char *, difficulty)
GETTER (const char *, language)
GETTER (const char *, pack_id)
GETTER (guint, attempts)

#undef GETTER

VivaProblemType
viva_problem_draft_get_problem_type (VivaProblemDraft *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), VIVA_PROBLEM_IMPLEMENT);
  return self->type;
}

/**
 * viva_problem_draft_set_pack_id:
 * @pack_id: (nullable): the pack the teacher drafted the problem for
 */
void
viva_problem_draft_set_pack_id (VivaProblemDraft *self,
                                const char       *pack_id)
{
  g_return_if_fail (VIVA_IS_PROBLEM_DRAFT (self));

  g_free (self->pack_id);
  self->pack_id = empty_to_null (pack_id);
}

/**
 * viva_problem_draft_get_problem:
 *
 * Returns: (transfer none) (nullable): the last problem the model sent
 *   that could be read, even when it fails checks; %NULL when no reply was
 *   a problem at all
 */
VivaProblem *
viva_problem_draft_get_problem (VivaProblemDraft *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), NULL);
  return self->problem;
}

/**
 * viva_problem_draft_get_raw_reply:
 *
 * Returns: (nullable): the model's last reply as it came
 */
const char *
viva_problem_draft_get_raw_reply (VivaProblemDraft *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), NULL);
  return self->raw_reply;
}

/**
 * viva_problem_draft_get_passed:
 *
 * Returns: %TRUE when the last attempt is a problem that passed every check
 */
gboolean
viva_problem_draft_get_passed (VivaProblemDraft *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), FALSE);
  return self->problem != NULL && self->attempts > 0 &&
         viva_pack_issues_count_errors (self->issues) == 0;
}

/**
 * viva_problem_draft_get_issues:
 *
 * Returns: (transfer none) (element-type VivaPackIssue): what the checks
 *   of the last attempt found, paths relative to the problem
 */
GPtrArray *
viva_problem_draft_get_issues (VivaProblemDraft *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), NULL);
  return self->issues;
}

/**
 * viva_problem_draft_get_checks:
 *
 * Returns: (transfer none) (element-type VivaPackCheck): the runs of the
 *   last attempt, one per subject and test; empty when it did not get as
 *   far as running
 */
GPtrArray *
viva_problem_draft_get_checks (VivaProblemDraft *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), NULL);
  return self->checks;
}

/**
 * viva_problem_draft_describe_issues:
 *
 * Returns: (transfer full): the errors of the last attempt, one line each
 *   as `path: message`; empty when there are none
 */
char *
viva_problem_draft_describe_issues (VivaProblemDraft *self)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), NULL);

  for (guint i = 0; i < self->issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (self->issues, i);

      if (issue->level != VIVA_PACK_ISSUE_ERROR)
        continue;
      if (issue->path != NULL && issue->path[0] != '\0')
        g_string_append_printf (text, "%s: %s\n", issue->path, issue->message);
      else
        g_string_append_printf (text, "%s\n", issue->message);
    }

  return g_string_free (text, FALSE);
}

void
_viva_problem_draft_set_result (VivaProblemDraft *self,
                                VivaProblem      *problem,
                                const char       *raw_reply,
                                guint             attempts,
                                GPtrArray        *issues,
                                GPtrArray        *checks)
{
  g_assert (VIVA_IS_PROBLEM_DRAFT (self));
  g_assert (problem == NULL || VIVA_IS_PROBLEM (problem));

  g_set_object (&self->problem, problem);
  g_free (self->raw_reply);
  self->raw_reply = g_strdup (raw_reply);
  self->attempts = attempts;

  g_ptr_array_set_size (self->issues, 0);
  for (guint i = 0; issues != NULL && i < issues->len; i++)
    g_ptr_array_add (self->issues, viva_pack_issue_copy (g_ptr_array_index (issues, i)));

  g_ptr_array_set_size (self->checks, 0);
  for (guint i = 0; checks != NULL && i < checks->len; i++)
    g_ptr_array_add (self->checks, viva_pack_check_copy (g_ptr_array_index (checks, i)));
}

/**
 * viva_problem_draft_to_json:
 *
 * Returns: (transfer full): the draft as a `viva-draft/1` document
 */
JsonNode *
viva_problem_draft_to_json (VivaProblemDraft *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, VIVA_DRAFT_FORMAT);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, self->id);
  json_builder_set_member_name (builder, "created");
  json_builder_add_int_value (builder, self->created);
  json_builder_set_member_name (builder, "topic");
  json_builder_add_string_value (builder, self->topic);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, viva_problem_type_to_string (self->type));
  if (self->difficulty != NULL)
    {
      json_builder_set_member_name (builder, "difficulty");
      json_builder_add_string_value (builder, self->difficulty);
    }
  if (self->language != NULL)
    {
      json_builder_set_member_name (builder, "language");
      json_builder_add_string_value (builder, self->language);
    }
  if (self->pack_id != NULL)
    {
      json_builder_set_member_name (builder, "pack");
      json_builder_add_string_value (builder, self->pack_id);
    }
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, viva_problem_draft_get_passed (self) ? "passed" : "failing");
  json_builder_set_member_name (builder, "attempts");
  json_builder_add_int_value (builder, self->attempts);

  json_builder_set_member_name (builder, "issues");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (self->issues, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "level");
      json_builder_add_string_value (builder, issue->level == VIVA_PACK_ISSUE_ERROR ? "error" : "warning");
      json_builder_set_member_name (builder, "code");
      json_builder_add_string_value (builder, viva_pack_error_to_string (issue->code));
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, issue->path ? issue->path : "");
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, issue->message);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "checks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->checks->len; i++)
    {
      const VivaPackCheck *check = g_ptr_array_index (self->checks, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "subject");
      json_builder_add_string_value (builder, viva_pack_check_subject_to_string (check->subject));
      json_builder_set_member_name (builder, "test");
      json_builder_add_string_value (builder, check->test_name ? check->test_name : "");
      json_builder_set_member_name (builder, "test_index");
      json_builder_add_int_value (builder, check->test_index);
      json_builder_set_member_name (builder, "passed");
      json_builder_add_boolean_value (builder, check->passed);
      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, viva_run_status_to_string (check->status));
      if (check->error_type != NULL)
        {
          json_builder_set_member_name (builder, "error");
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "type");
          json_builder_add_string_value (builder, check->error_type);
          json_builder_set_member_name (builder, "message");
          json_builder_add_string_value (builder, check->error_message ? check->error_message : "");
          json_builder_set_member_name (builder, "line");
          json_builder_add_int_value (builder, check->error_line);
          json_builder_end_object (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  if (self->problem != NULL)
    {
      g_autoptr(JsonObject) problem = _viva_problem_to_json (self->problem);
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, problem);
      json_builder_set_member_name (builder, "problem");
      json_builder_add_value (builder, node);
    }
  if (self->raw_reply != NULL)
    {
      json_builder_set_member_name (builder, "raw_reply");
      json_builder_add_string_value (builder, self->raw_reply);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static VivaPackError
error_code_from_string (const char *code)
{
  for (guint i = VIVA_PACK_ERROR_INVALID; i <= VIVA_PACK_ERROR_STARTER_PASSES; i++)
    if (g_strcmp0 (viva_pack_error_to_string (i), code) == 0)
      return i;

  return VIVA_PACK_ERROR_INVALID;
}

/* Reads the problem the way a pack would: validated inside a one-problem
 * pack, so a hand-edited draft file cannot hand the editor a broken one. */
static VivaProblem *
problem_from_node (JsonNode *problem)
{
  g_autoptr(GPtrArray) issues = viva_pack_issues_new ();

  if (!_viva_pack_validate_problem (problem, issues))
    return NULL;

  return _viva_problem_new_from_json (json_node_get_object (problem));
}

/**
 * viva_problem_draft_new_from_json:
 * @node: a `viva-draft/1` document
 *
 * Returns: (transfer full) (nullable): the draft, or %NULL with @error set
 *   when @node is not one
 */
VivaProblemDraft *
viva_problem_draft_new_from_json (JsonNode  *node,
                                  GError   **error)
{
  g_autoptr(VivaProblemDraft) self = NULL;
  g_autoptr(GPtrArray) issues = viva_pack_issues_new ();
  g_autoptr(GPtrArray) checks = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_pack_check_free);
  g_autoptr(VivaProblem) problem = NULL;
  JsonObject *object;
  JsonArray *array;
  JsonNode *member;
  const char *id;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node) ||
      g_strcmp0 (viva_json_member_string (json_node_get_object (node), "format"), VIVA_DRAFT_FORMAT) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("This is not a Viva problem draft: it lacks “\"format\": \"%s\"”."),
                   VIVA_DRAFT_FORMAT);
      return NULL;
    }

  object = json_node_get_object (node);
  id = viva_json_member_string (object, "id");
  if (id == NULL || id[0] == '\0' || strchr (id, '/') != NULL || viva_json_member_string (object, "topic") == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The draft has no valid “id” or “topic”; draft the problem again."));
      return NULL;
    }

  self = g_object_new (VIVA_TYPE_PROBLEM_DRAFT, NULL);
  self->id = g_strdup (id);
  self->created = viva_json_member_int (object, "created");
  self->topic = g_strdup (viva_json_member_string (object, "topic"));
  if (!viva_problem_type_from_string (viva_json_member_string (object, "type"), &self->type))
    self->type = VIVA_PROBLEM_IMPLEMENT;
  self->difficulty = empty_to_null (viva_json_member_string (object, "difficulty"));
  self->language = empty_to_null (viva_json_member_string (object, "language"));
  self->pack_id = empty_to_null (viva_json_member_string (object, "pack"));

  if ((array = viva_json_member_array (object, "issues")) != NULL)
    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonNode *element = json_array_get_element (array, i);
        JsonObject *issue;

        if (!JSON_NODE_HOLDS_OBJECT (element))
          continue;
        issue = json_node_get_object (element);
        g_ptr_array_add (issues,
                         viva_pack_issue_new (error_code_from_string (viva_json_member_string (issue, "code")),
                                              g_strcmp0 (viva_json_member_string (issue, "level"), "warning") == 0
                                                ? VIVA_PACK_ISSUE_WARNING : VIVA_PACK_ISSUE_ERROR,
                                              viva_json_member_string (issue, "path") ?: "",
                                              viva_json_member_string (issue, "message") ?: ""));
      }

  if ((array = viva_json_member_array (object, "checks")) != NULL)
    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonNode *element = json_array_get_element (array, i);
        VivaPackCheck *check;
        JsonObject *item;
        JsonNode *err;

        if (!JSON_NODE_HOLDS_OBJECT (element))
          continue;
        item = json_node_get_object (element);
        check = g_new0 (VivaPackCheck, 1);
        check->subject = g_strcmp0 (viva_json_member_string (item, "subject"), "starter") == 0
          ? VIVA_PACK_CHECK_STARTER : VIVA_PACK_CHECK_REFERENCE;
        check->test_name = g_strdup (viva_json_member_string (item, "test"));
        check->test_index = viva_json_member_int (item, "test_index");
        check->passed = json_object_get_boolean_member_with_default (item, "passed", FALSE);
        check->status = check->passed ? VIVA_RUN_STATUS_OK : VIVA_RUN_STATUS_ERROR;
        if ((err = json_object_get_member (item, "error")) != NULL && JSON_NODE_HOLDS_OBJECT (err))
          {
            check->error_type = g_strdup (viva_json_member_string (json_node_get_object (err), "type"));
            check->error_message = g_strdup (viva_json_member_string (json_node_get_object (err), "message"));
            check->error_line = viva_json_member_int (json_node_get_object (err), "line");
          }
        g_ptr_array_add (checks, check);
      }

  if ((member = json_object_get_member (object, "problem")) != NULL && JSON_NODE_HOLDS_OBJECT (member))
    problem = problem_from_node (member);

  _viva_problem_draft_set_result (self, problem, viva_json_member_string (object, "raw_reply"),
                                  viva_json_member_int (object, "attempts"), issues, checks);

  /* A problem that no longer reads is not a passing draft, whatever the
   * file says. */
  if (problem == NULL && member != NULL)
    g_ptr_array_add (self->issues,
                     viva_pack_issue_new (VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "",
                                          _("The draft’s problem is not valid any more; edit or discard it.")));

  return g_steal_pointer (&self);
}
