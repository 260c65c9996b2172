/* viva-exam-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-error.h"
#include "viva-exam-pack-ref.h"
#include "viva-exam-session-private.h"
#include "viva-pack.h"

/* The session object: what the examiner writes (checkpoint and trace
 * lines, handed to the writer thread in viva-exam-session-writer.c) and
 * what a loaded session holds (viva-exam-session-load.c reads it). */

struct _VivaExamSession
{
  GObject      parent_instance;

  char        *id;
  char        *dir;
  JsonNode    *checkpoint;
  VivaExamWriter *writer;
  gint64       started;
  char        *student_name;
  char        *student_id;
  JsonArray   *timeline;
  JsonObject  *exam;           /* viva_exam_file_to_ref(), in exam mode */
  char        *served_model;   /* the model the server answered with */
};

G_DEFINE_FINAL_TYPE (VivaExamSession, viva_exam_session, G_TYPE_OBJECT)

static void
viva_exam_session_finalize (GObject *object)
{
  VivaExamSession *self = (VivaExamSession *)object;

  g_clear_pointer (&self->writer, _viva_exam_writer_free);
  g_clear_pointer (&self->student_name, g_free);
  g_clear_pointer (&self->student_id, g_free);
  g_clear_pointer (&self->timeline, json_array_unref);
  g_clear_pointer (&self->exam, json_object_unref);
  g_clear_pointer (&self->served_model, g_free);
  g_clear_pointer (&self->checkpoint, json_node_unref);
  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->dir, g_free);

  G_OBJECT_CLASS (viva_exam_session_parent_class)->finalize (object);
}

static void
viva_exam_session_class_init (VivaExamSessionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_exam_session_finalize;
}

static void
viva_exam_session_init (VivaExamSession *self)
{
  self->started = g_get_monotonic_time ();
  self->timeline = json_array_new ();
}

static VivaExamSession *
session_new (const char *sessions_dir,
             const char *id)
{
  VivaExamSession *self = g_object_new (VIVA_TYPE_EXAM_SESSION, NULL);
  g_autofree char *default_dir = NULL;

  if (sessions_dir == NULL)
    sessions_dir = default_dir = viva_exam_session_dup_default_dir ();

  self->id = g_strdup (id);
  self->dir = g_build_filename (sessions_dir, id, NULL);
  self->writer = _viva_exam_writer_new (self->dir);

  return self;
}

VivaExamSession *
_viva_exam_session_new_loaded (const char *sessions_dir,
                               const char *id,
                               JsonNode   *checkpoint)
{
  VivaExamSession *self = session_new (sessions_dir, id);
  JsonObject *root = json_node_get_object (checkpoint);
  JsonNode *student = json_object_get_member (root, "student");
  JsonNode *timeline = json_object_get_member (root, "timeline");
  JsonNode *exam = json_object_get_member (root, "exam");
  JsonNode *model = json_object_get_member (root, "model");

  self->checkpoint = json_node_ref (checkpoint);

  /* Validated already: an object of strings, an array of objects. */
  if (student != NULL && JSON_NODE_HOLDS_OBJECT (student))
    {
      JsonObject *object = json_node_get_object (student);

      self->student_name = g_strdup (json_object_get_string_member_with_default (object, "name", NULL));
      self->student_id = g_strdup (json_object_get_string_member_with_default (object, "id", NULL));
    }
  if (timeline != NULL && JSON_NODE_HOLDS_ARRAY (timeline))
    {
      JsonArray *array = json_node_get_array (timeline);

      for (guint i = 0; i < json_array_get_length (array); i++)
        json_array_add_element (self->timeline, json_node_copy (json_array_get_element (array, i)));
    }
  if (exam != NULL && JSON_NODE_HOLDS_OBJECT (exam))
    {
      g_autoptr(JsonNode) copy = json_node_copy (exam);
      self->exam = json_object_ref (json_node_get_object (copy));
    }
  if (model != NULL && JSON_NODE_HOLDS_OBJECT (model))
    {
      const char *name = json_object_get_string_member_with_default (json_node_get_object (model), "name", NULL);

      if (name != NULL && name[0] != '\0')
        self->served_model = g_strdup (name);
    }

  return self;
}

/**
 * viva_exam_session_dup_default_dir:
 *
 * Returns: (transfer full): `$XDG_DATA_HOME/viva/sessions`
 */
char *
viva_exam_session_dup_default_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "viva", "sessions", NULL);
}

/**
 * viva_exam_session_new:
 * @sessions_dir: (nullable): the folder of sessions, or %NULL for the default
 *
 * A new session with a fresh id. Nothing touches the disk until the first
 * write, which happens on the writer thread.
 *
 * Returns: (transfer full): the session
 */
VivaExamSession *
viva_exam_session_new (const char *sessions_dir)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *id = g_strdup_printf ("%s-%06x", stamp, g_random_int_range (0, 0xffffff));

  return session_new (sessions_dir, id);
}

const char *
viva_exam_session_get_id (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return self->id;
}

const char *
viva_exam_session_get_dir (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return self->dir;
}

/**
 * viva_exam_session_get_checkpoint:
 *
 * Returns: (transfer none) (nullable): the checkpoint loaded or last saved
 */
JsonNode *
viva_exam_session_get_checkpoint (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return self->checkpoint;
}

static const char *
checkpoint_string (VivaExamSession *self,
                   const char      *member)
{
  if (self->checkpoint == NULL)
    return NULL;

  return json_object_get_string_member_with_default (json_node_get_object (self->checkpoint), member, NULL);
}

/**
 * viva_exam_session_get_pack_id:
 *
 * Returns: (nullable): the pack of the defended problem
 */
const char *
viva_exam_session_get_pack_id (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return checkpoint_string (self, "pack_id");
}

/**
 * viva_exam_session_get_state:
 *
 * Returns: (nullable): the examiner's state when last saved (`thinking`,
 *   `waiting-for-student`, `finished`…)
 */
const char *
viva_exam_session_get_state (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return checkpoint_string (self, "state");
}

/**
 * viva_exam_session_get_checkpoint_writes:
 *
 * Returns: checkpoints written to disk so far (skipped ones not counted)
 */
guint64
viva_exam_session_get_checkpoint_writes (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), 0);
  return _viva_exam_writer_get_checkpoint_writes (self->writer);
}

/**
 * viva_exam_session_dup_problem:
 *
 * The defended problem, read again from its pack (`pack_ref`: the bundled
 * pack, or a teacher's pack at its path or in the library), after checking
 * that the pack is the one the defense started with. A checkpoint of an
 * older Viva carries a copy of the problem instead, which is used.
 *
 * Returns: (transfer full) (nullable): the problem, or %NULL with
 *   %VIVA_EXAM_ERROR_PACK_MISSING or %VIVA_EXAM_ERROR_PROBLEM_CHANGED (and
 *   a sentence saying what to do)
 */
VivaProblem *
viva_exam_session_dup_problem (VivaExamSession  *self,
                               GError          **error)
{
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GBytes) bytes = NULL;
  VivaProblem *problem;
  JsonObject *root;
  const char *problem_id;
  char *text;

  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);

  if (self->checkpoint == NULL)
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_FOUND,
                   _("Session %s has no checkpoint yet."), self->id);
      return NULL;
    }

  root = json_node_get_object (self->checkpoint);

  /* An exam's hidden parts are not in the checkpoint: the exam file,
   * unchanged, has them. */
  if (self->exam != NULL && json_object_get_boolean_member_with_default (self->exam, "pack_embedded", FALSE))
    {
      g_autoptr(VivaExamFile) exam = NULL;

      if (!(exam = viva_exam_file_load_ref (self->exam, error)))
        return NULL;
      if (!(problem = viva_pack_find_problem (viva_exam_file_get_pack (exam), json_object_get_string_member (root, "problem_id"))))
        {
          g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT,
                       _("Session %s does not contain the problem it was made for."), self->id);
          return NULL;
        }
      return g_object_ref (problem);
    }

  problem_id = json_object_get_string_member (root, "problem_id");

  if (json_object_has_member (root, "pack_ref"))
    return viva_exam_pack_ref_load_problem (json_object_get_object_member (root, "pack_ref"),
                                            problem_id, NULL, error);

  if (!json_object_has_member (root, "pack"))
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_PACK_MISSING,
                   _("Session %s does not say which pack its problem came from, so it can be "
                     "continued only from the app, with the problem open."), self->id);
      return NULL;
    }

  text = json_to_string (json_object_get_member (root, "pack"), FALSE);
  bytes = g_bytes_new_take (text, strlen (text));

  if (!(pack = viva_pack_new_from_bytes (bytes, error)))
    {
      g_prefix_error (error, _("The problem saved in session %s is not readable: "), self->id);
      return NULL;
    }

  if (!(problem = viva_pack_find_problem (pack, problem_id)))
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT,
                   _("Session %s does not contain the problem it was made for."), self->id);
      return NULL;
    }

  return g_object_ref (problem);
}

/* The members the session itself owns (who defends, the integrity
 * timeline) go into every checkpoint, whoever built the rest. A new top
 * level, so a sealed (loaded) document is never changed in place. */
static JsonNode *
with_session_members (VivaExamSession *self,
                      JsonNode        *checkpoint)
{
  g_autoptr(JsonObject) root = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  JsonNode *node;

  json_object_iter_init (&iter, json_node_get_object (checkpoint));
  while (json_object_iter_next (&iter, &name, &value))
    if (!g_str_equal (name, "student") && !g_str_equal (name, "timeline") && !g_str_equal (name, "exam"))
      json_object_set_member (root, name, json_node_ref (value));

  /* In an exam whose file holds the pack, what the student may not see
   * stays there: the exam file is referred to by path and digest. */
  if (self->exam != NULL)
    {
      json_object_set_object_member (root, "exam", json_object_ref (self->exam));
      if (json_object_get_boolean_member_with_default (self->exam, "pack_embedded", FALSE) &&
          (node = json_object_get_member (root, "pack")) != NULL)
        json_object_set_member (root, "pack", viva_exam_file_strip_hidden (node));
    }

  if (self->student_name != NULL || self->student_id != NULL)
    {
      JsonObject *student = json_object_new ();

      json_object_set_string_member (student, "name", self->student_name ? self->student_name : "");
      json_object_set_string_member (student, "id", self->student_id ? self->student_id : "");
      json_object_set_object_member (root, "student", student);
    }
  if (json_array_get_length (self->timeline) > 0)
    json_object_set_array_member (root, "timeline", json_array_ref (self->timeline));

  /* Who examined, by name: "" (the server's first model) would say nothing,
   * and a history would list a model's defense as the offline examiner's. */
  if (self->served_model != NULL &&
      (node = json_object_get_member (root, "model")) != NULL && JSON_NODE_HOLDS_OBJECT (node) &&
      g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (node), "type", NULL),
                 "VivaScriptedModel") != 0)
    {
      g_autoptr(JsonNode) copy = json_node_copy (node);
      JsonObject *model = json_node_get_object (copy);
      const char *asked = json_object_get_string_member_with_default (model, "name", NULL);

      if (asked != NULL && asked[0] != '\0' && g_strcmp0 (asked, self->served_model) != 0)
        json_object_set_string_member (model, "asked", asked);
      json_object_set_string_member (model, "name", self->served_model);
      json_object_set_member (root, "model", g_steal_pointer (&copy));
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, root);
  return node;
}

/**
 * viva_exam_session_set_student:
 * @name: (nullable): the student's name
 * @id: (nullable): the student's id (a matriculation number)
 *
 * Stamps the session with who defends; it goes into every checkpoint from
 * now on (and into the one already saved, at once).
 */
void
viva_exam_session_set_student (VivaExamSession *self,
                               const char      *name,
                               const char      *id)
{
  g_return_if_fail (VIVA_IS_EXAM_SESSION (self));

  if (g_strcmp0 (name, self->student_name) == 0 && g_strcmp0 (id, self->student_id) == 0)
    return;

  g_free (self->student_name);
  self->student_name = g_strdup (name);
  g_free (self->student_id);
  self->student_id = g_strdup (id);

  if (self->checkpoint != NULL)
    {
      g_autoptr(JsonNode) current = json_node_ref (self->checkpoint);
      viva_exam_session_save_checkpoint (self, current);
    }
}

/**
 * viva_exam_session_set_served_model:
 * @name: (nullable): the model the server answered with
 *
 * Records who examined: the checkpoint's `model.name` becomes @name from
 * now on (and in the one already saved, at once); a different name the
 * examiner asked for stays as `model.asked`. Not for the offline examiner.
 */
void
viva_exam_session_set_served_model (VivaExamSession *self,
                                    const char      *name)
{
  g_return_if_fail (VIVA_IS_EXAM_SESSION (self));

  if (name == NULL || name[0] == '\0' || g_strcmp0 (name, self->served_model) == 0)
    return;

  g_free (self->served_model);
  self->served_model = g_strdup (name);

  if (self->checkpoint != NULL)
    {
      g_autoptr(JsonNode) current = json_node_ref (self->checkpoint);
      viva_exam_session_save_checkpoint (self, current);
    }
}

/**
 * viva_exam_session_get_served_model:
 *
 * Returns: (nullable): the model the server answered with, as recorded
 */
const char *
viva_exam_session_get_served_model (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return self->served_model;
}

/**
 * viva_exam_session_get_student_name:
 *
 * Returns: (nullable): the student's name, if the session was stamped
 */
const char *
viva_exam_session_get_student_name (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return self->student_name;
}

/**
 * viva_exam_session_get_student_id:
 *
 * Returns: (nullable): the student's id, if the session was stamped
 */
const char *
viva_exam_session_get_student_id (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return self->student_id;
}

/**
 * viva_exam_session_add_timeline_event:
 * @event: `{"kind": "run"|"submit"|"paste"|"hint"|"focus-lost"|"focus-back", …}`;
 *   a missing `time` is set to now (ISO 8601, UTC)
 *
 * Records one integrity event: appended to the checkpoint's `timeline` (the
 * saved checkpoint is rewritten at once, so a crash keeps it) and traced as
 * a `timeline` line. Main thread.
 */
void
viva_exam_session_add_timeline_event (VivaExamSession *self,
                                      JsonObject      *event)
{
  g_autoptr(JsonObject) copy = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  g_return_if_fail (VIVA_IS_EXAM_SESSION (self));
  g_return_if_fail (event != NULL);

  if (!json_object_has_member (event, "time"))
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      g_autofree char *time = g_date_time_format_iso8601 (now);

      json_object_set_string_member (copy, "time", time);
    }
  json_object_iter_init (&iter, event);
  while (json_object_iter_next (&iter, &name, &value))
    json_object_set_member (copy, name, json_node_copy (value));

  json_array_add_object_element (self->timeline, json_object_ref (copy));
  viva_exam_session_trace (self, "timeline", copy);

  if (self->checkpoint != NULL)
    {
      g_autoptr(JsonNode) current = json_node_ref (self->checkpoint);
      viva_exam_session_save_checkpoint (self, current);
    }
}

/**
 * viva_exam_session_set_exam:
 * @exam: the exam this defense belongs to
 *
 * Makes the session part of @exam: every checkpoint keeps the exam file's
 * path and digest (`exam`), and when the exam file holds its pack, leaves
 * the problem's hidden parts out (viva_exam_session_dup_problem() reads
 * them from the exam file again). Main thread.
 */
void
viva_exam_session_set_exam (VivaExamSession *self,
                            VivaExamFile    *exam)
{
  g_autoptr(JsonNode) ref = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SESSION (self));
  g_return_if_fail (VIVA_IS_EXAM_FILE (exam));

  ref = viva_exam_file_to_ref (exam);
  g_clear_pointer (&self->exam, json_object_unref);
  self->exam = json_object_ref (json_node_get_object (ref));

  if (self->checkpoint != NULL)
    {
      g_autoptr(JsonNode) current = json_node_ref (self->checkpoint);
      viva_exam_session_save_checkpoint (self, current);
    }
}

/**
 * viva_exam_session_get_exam:
 *
 * Returns: (transfer none) (nullable): `{path, digest, id, title,
 *   pack_embedded}` of the exam, or %NULL for a practice defense
 */
JsonObject *
viva_exam_session_get_exam (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return self->exam;
}

/**
 * viva_exam_session_get_timeline:
 *
 * Returns: (transfer none): the integrity events so far, oldest first
 */
JsonArray *
viva_exam_session_get_timeline (VivaExamSession *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);
  return self->timeline;
}

/**
 * viva_exam_session_save_checkpoint:
 * @checkpoint: the examiner's state, as _viva_examiner_to_checkpoint() builds it
 *
 * Serialises @checkpoint now and writes it on the writer thread. Main thread.
 */
void
viva_exam_session_save_checkpoint (VivaExamSession *self,
                                   JsonNode        *checkpoint)
{
  g_return_if_fail (VIVA_IS_EXAM_SESSION (self));
  g_return_if_fail (checkpoint != NULL && JSON_NODE_HOLDS_OBJECT (checkpoint));

  g_clear_pointer (&self->checkpoint, json_node_unref);
  self->checkpoint = with_session_members (self, checkpoint);

  _viva_exam_writer_checkpoint (self->writer, json_to_string (self->checkpoint, TRUE));
}

/**
 * viva_exam_session_trace:
 * @event: what happened (`request`, `reply`, `tool_call`, …)
 * @data: (nullable): its details; no secrets (API keys never reach here)
 *
 * Appends one line to `trace.jsonl`, with the time and the milliseconds
 * since the session object was created.
 */
void
viva_exam_session_trace (VivaExamSession *self,
                         const char      *event,
                         JsonObject      *data)
{
  g_autoptr(JsonObject) line = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *text = NULL;
  g_autofree char *time = g_date_time_format_iso8601 (now);

  g_return_if_fail (VIVA_IS_EXAM_SESSION (self));
  g_return_if_fail (event != NULL);

  json_object_set_string_member (line, "event", event);
  json_object_set_string_member (line, "time", time);
  json_object_set_int_member (line, "ms", (g_get_monotonic_time () - self->started) / 1000);
  if (data != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, data);
      while (json_object_iter_next (&iter, &name, &value))
        json_object_set_member (line, name, json_node_copy (value));
    }

  json_node_set_object (node, line);
  text = json_to_string (node, FALSE);

  _viva_exam_writer_trace (self->writer, g_strconcat (text, "\n", NULL));
}

/**
 * viva_exam_session_flush_async:
 *
 * Completes once every write queued before it is on disk, with the first
 * write error if any happened.
 */
void
viva_exam_session_flush_async (VivaExamSession     *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (VIVA_IS_EXAM_SESSION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_session_flush_async);
  _viva_exam_writer_flush (self->writer, task);
}

gboolean
viva_exam_session_flush_finish (VivaExamSession  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
