/* viva-exam-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-file-private.h"

/* A `viva-exam/1` file: what a teacher fixes for a graded session. This is
 * the type: what the exam says, the pack it names or embeds, and what a
 * session keeps of it (a reference by path and digest, and a copy of its
 * problems without their hidden parts). Reading the file is
 * viva-exam-file-load.c, checking its JSON viva-exam-file-reader.c. */

G_DEFINE_FINAL_TYPE (VivaExamFile, viva_exam_file, G_TYPE_OBJECT)

static void
viva_exam_file_finalize (GObject *object)
{
  VivaExamFile *self = (VivaExamFile *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->digest, g_free);
  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->pack_id, g_free);
  g_clear_object (&self->pack);
  g_clear_pointer (&self->problems, g_strfreev);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->report_folder, g_free);

  G_OBJECT_CLASS (viva_exam_file_parent_class)->finalize (object);
}

static void
viva_exam_file_class_init (VivaExamFileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_exam_file_finalize;
}

static void
viva_exam_file_init (VivaExamFile *self)
{
  self->hints_allowed = TRUE;
  self->followup_allowed = TRUE;
  self->check_allowed = TRUE;
  self->examiner_mode = VIVA_EXAMINER_MODE_AUTO;
}

/**
 * _viva_exam_file_new_from_tree:
 * @path: (nullable): where the file is, which its report folder is relative to
 * @digest: the SHA-256 of the file's bytes
 * @installed: (nullable): the installed packs' problem ids, pack id → GStrv
 * @issues: (element-type VivaPackIssue): where everything wrong is added
 *
 * The exam read from its parsed file (viva-exam-file-reader.c); what is
 * wrong stays unset and is in @issues, and the caller keeps the exam only
 * when there is nothing.
 *
 * Returns: (transfer full): the exam
 */
VivaExamFile *
_viva_exam_file_new_from_tree (const char *path,
                               const char *digest,
                               JsonNode   *root,
                               GHashTable *installed,
                               GPtrArray  *issues)
{
  VivaExamFile *self = g_object_new (VIVA_TYPE_EXAM_FILE, NULL);

  self->path = path ? g_canonicalize_filename (path, NULL) : NULL;
  self->digest = g_strdup (digest);
  self->installed = installed;
  _viva_exam_file_read_root (self, root, issues);
  self->installed = NULL;
  return self;
}

const char *
viva_exam_file_get_path (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->path;
}

/**
 * viva_exam_file_get_digest:
 *
 * Returns: the SHA-256 of the file's bytes, in hex; a resume checks it
 */
const char *
viva_exam_file_get_digest (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->digest;
}

const char *
viva_exam_file_get_id (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->id;
}

const char *
viva_exam_file_get_title (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->title;
}

/**
 * viva_exam_file_get_pack_id:
 *
 * Returns: the pack's id, embedded or named
 */
const char *
viva_exam_file_get_pack_id (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->pack_id;
}

/**
 * viva_exam_file_get_pack:
 *
 * Returns: (transfer none) (nullable): the embedded pack, or the installed
 *   one given to viva_exam_file_set_pack(); %NULL until then
 */
VivaPack *
viva_exam_file_get_pack (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->pack;
}

/**
 * viva_exam_file_get_pack_embedded:
 *
 * Returns: whether the exam file holds its pack (hidden tests and all),
 *   rather than naming one installed on the PC
 */
gboolean
viva_exam_file_get_pack_embedded (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), FALSE);
  return self->pack_embedded;
}

/**
 * viva_exam_file_set_pack:
 * @pack: the installed pack the exam names by id
 *
 * Checks that @pack is the one the exam names and has every problem it
 * sets. Main thread.
 *
 * Returns: %TRUE when @pack fits
 */
gboolean
viva_exam_file_set_pack (VivaExamFile  *self,
                         VivaPack      *pack,
                         GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), FALSE);
  g_return_val_if_fail (VIVA_IS_PACK (pack), FALSE);

  if (g_strcmp0 (viva_pack_get_id (pack), self->pack_id) != 0)
    {
      g_set_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_INVALID,
                   _("The exam needs the pack “%s”, not “%s”."), self->pack_id, viva_pack_get_id (pack));
      return FALSE;
    }

  for (guint i = 0; self->problems != NULL && self->problems[i] != NULL; i++)
    if (viva_pack_find_problem (pack, self->problems[i]) == NULL)
      {
        g_set_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_INVALID,
                     _("problems[%u]: the pack “%s” on this PC has no problem “%s” — ask the teacher which pack version the exam needs"),
                     i, self->pack_id, self->problems[i]);
        return FALSE;
      }

  g_set_object (&self->pack, pack);
  return TRUE;
}

/**
 * viva_exam_file_get_problems:
 *
 * Returns: (nullable) (transfer none): the problem ids the exam sets, or
 *   %NULL for all of the pack's
 */
const char * const *
viva_exam_file_get_problems (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return (const char * const *)self->problems;
}

gboolean
viva_exam_file_has_problem (VivaExamFile *self,
                            const char   *problem_id)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), FALSE);

  if (problem_id == NULL)
    return FALSE;
  if (self->problems == NULL)
    return self->pack == NULL || viva_pack_find_problem (self->pack, problem_id) != NULL;

  return g_strv_contains ((const char * const *)self->problems, problem_id);
}

/**
 * viva_exam_file_get_time_limit:
 *
 * Returns: seconds, or 0 for no limit
 */
guint
viva_exam_file_get_time_limit (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), 0);
  return self->time_limit;
}

gboolean
viva_exam_file_get_hints_allowed (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), TRUE);
  return self->hints_allowed;
}

/**
 * viva_exam_file_get_hint_cost:
 *
 * Returns: the points of 100 one viewed hint costs
 */
double
viva_exam_file_get_hint_cost (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), 0);
  return self->hint_cost;
}

/**
 * viva_exam_file_get_check_allowed:
 *
 * Returns: whether students may Check their code against a problem's shown
 *   tests (`"check": {"allowed": …}`, allowed when left out)
 */
gboolean
viva_exam_file_get_check_allowed (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), TRUE);

  return self->check_allowed;
}

/**
 * viva_exam_file_get_grading_limit:
 * @count: (out) (optional): how many gradings of one problem are allowed…
 * @per_minutes: (out) (optional): …in how many minutes
 *
 * `"grading_limit": {"count": N, "per_minutes": M}`: each problem may be
 * graded (Check or Submit) at most N times in any M minutes.
 *
 * Returns: whether the exam limits gradings at all
 */
gboolean
viva_exam_file_get_grading_limit (VivaExamFile *self,
                                  guint        *count,
                                  guint        *per_minutes)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), FALSE);

  if (count != NULL)
    *count = self->grading_count;
  if (per_minutes != NULL)
    *per_minutes = self->grading_per_minutes;
  return self->grading_count > 0;
}

gboolean
viva_exam_file_get_followup_allowed (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), TRUE);
  return self->followup_allowed;
}

/**
 * viva_exam_file_has_examiner:
 *
 * Returns: whether the exam fixes the examiner (mode, and maybe endpoint,
 *   model and language); without it the PC's settings apply
 */
gboolean
viva_exam_file_has_examiner (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), FALSE);
  return self->has_examiner;
}

VivaExaminerMode
viva_exam_file_get_examiner_mode (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), VIVA_EXAMINER_MODE_AUTO);
  return self->examiner_mode;
}

const char *
viva_exam_file_get_base_url (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->base_url;
}

const char *
viva_exam_file_get_model (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->model;
}

const char *
viva_exam_file_get_language (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->language;
}

/**
 * viva_exam_file_get_report_folder:
 *
 * Returns: the absolute folder reports go to (`~` expanded, a relative one
 *   taken from the exam file's folder)
 */
const char *
viva_exam_file_get_report_folder (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);
  return self->report_folder;
}

/**
 * viva_exam_file_get_verdict_after_exam:
 *
 * Returns: %TRUE when the exam says `"show_verdict": "after_exam"`: an exam
 *   server shows the student "handed in" and no score until the exam closes
 */
gboolean
viva_exam_file_get_verdict_after_exam (VivaExamFile *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), FALSE);
  return self->verdict_after_exam;
}

/**
 * viva_exam_file_to_ref:
 *
 * Returns: (transfer full): `{"path", "digest", "id", "title",
 *   "pack_embedded", "hint_cost"}`, what a session keeps of the exam
 *   instead of its contents; `hint_cost` only when hints cost something
 */
JsonNode *
viva_exam_file_to_ref (VivaExamFile *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonNode *node;

  g_return_val_if_fail (VIVA_IS_EXAM_FILE (self), NULL);

  if (self->path)
    json_object_set_string_member (object, "path", self->path);
  else
    json_object_set_null_member (object, "path");
  json_object_set_string_member (object, "digest", self->digest);
  json_object_set_string_member (object, "id", self->id);
  json_object_set_string_member (object, "title", self->title);
  json_object_set_boolean_member (object, "pack_embedded", self->pack_embedded);
  /* The report takes the cost off the score even when no hint event
   * carries it (a hint seen before an earlier defense of the problem). */
  if (self->hint_cost > 0)
    json_object_set_double_member (object, "hint_cost", self->hint_cost);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, object);
  return node;
}

/**
 * viva_exam_file_load_ref:
 * @ref: what viva_exam_file_to_ref() gave when the defense began
 *
 * Reads the exam file a session refers to again, and checks that it is
 * the same file (its digest). Blocking.
 *
 * Returns: (transfer full) (nullable): the exam
 */
VivaExamFile *
viva_exam_file_load_ref (JsonObject  *ref,
                         GError     **error)
{
  const char *path, *digest;
  g_autoptr(VivaExamFile) exam = NULL;

  g_return_val_if_fail (ref != NULL, NULL);

  path = json_object_get_string_member_with_default (ref, "path", NULL);
  digest = json_object_get_string_member_with_default (ref, "digest", NULL);

  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The defense belongs to an exam whose file is not known; ask the teacher."));
      return NULL;
    }

  if (!(exam = viva_exam_file_load (path, NULL, error)))
    return NULL;

  if (g_strcmp0 (viva_exam_file_get_digest (exam), digest) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("The exam file %s changed since the defense began, so it cannot be continued; ask the teacher."),
                   path);
      return NULL;
    }

  return g_steal_pointer (&exam);
}

/**
 * viva_exam_file_strip_hidden:
 * @pack: a `viva-pack/1` document, as a checkpoint keeps its problem
 *
 * What of an exam's problem may sit in the student's folders: the text,
 * the starter code and the questions, without the reference solution, the
 * hidden tests, the rubric and the questions' expected points. Such a pack
 * is for reading only (a report); a resume reads the exam file again.
 *
 * Returns: (transfer full): a stripped copy of @pack
 */
JsonNode *
viva_exam_file_strip_hidden (JsonNode *pack)
{
  JsonNode *copy;
  JsonNode *node;
  JsonArray *problems;

  g_return_val_if_fail (pack != NULL, NULL);

  copy = json_node_copy (pack);
  if (!JSON_NODE_HOLDS_OBJECT (copy) ||
      !(node = json_object_get_member (json_node_get_object (copy), "problems")) ||
      !JSON_NODE_HOLDS_ARRAY (node))
    return copy;

  problems = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      JsonNode *element = json_array_get_element (problems, i);
      JsonObject *problem;
      JsonArray *questions = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      problem = json_node_get_object (element);
      json_object_remove_member (problem, "reference_solution");
      json_object_remove_member (problem, "tests");
      json_object_remove_member (problem, "rubric");
      if ((node = json_object_get_member (problem, "questions")) && JSON_NODE_HOLDS_ARRAY (node))
        questions = json_node_get_array (node);
      for (guint j = 0; questions != NULL && j < json_array_get_length (questions); j++)
        if (JSON_NODE_HOLDS_OBJECT (json_array_get_element (questions, j)))
          json_object_remove_member (json_array_get_object_element (questions, j), "points");
    }

  return copy;
}
