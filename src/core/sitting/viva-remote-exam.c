/* viva-remote-exam.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-remote-exam.h"

/* An exam on an exam server, as the student's app holds it: what the
 * server's sitting (GET …/sitting, the sign-in's answer) says, read once
 * and again at each refresh. Its pack holds the public parts only — the
 * statement, the starter code, the hint when the exam allows hints —
 * because that is all the server sends: no reference, no test, no rubric
 * is on this PC to read. Its id is the exam's (`exam.ID`, a valid id for the
 * code store), so the code the student types is kept on this PC apart
 * from any practice pack's.
 *
 * The clock is the server's: the time left is what the server said, counted
 * down on this PC's monotonic clock from the moment it said it, so a PC
 * whose wall clock is wrong still shows the server's deadline. `time-up`
 * turns TRUE at that moment (a timer of its own), and at the server's word
 * that the sitting is handed in. No GTK; main thread. */

typedef struct
{
  char   *code;
  char   *defense_id;
  char   *defense_state;
} Saved;

struct _VivaRemoteExam
{
  GObject     parent_instance;

  char       *exam_id;
  char       *title;
  char       *student_id;
  char       *student_name;
  VivaPack   *pack;
  GStrv       problems;
  GHashTable *saved;        /* problem id → Saved */
  double      hint_cost;
  gint64      deadline_us;  /* on the monotonic clock; 0: untimed */
  guint       deadline_id;
  guint       hints_allowed : 1;
  guint       verdict_held : 1;
  guint       handed_in : 1;
  guint       time_up : 1;
};

G_DEFINE_FINAL_TYPE (VivaRemoteExam, viva_remote_exam, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TIME_UP,
  PROP_HANDED_IN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
saved_free (Saved *saved)
{
  g_free (saved->code);
  g_free (saved->defense_id);
  g_free (saved->defense_state);
  g_free (saved);
}

static const char *
string_of (JsonObject *object,
           const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static JsonObject *
object_of (JsonObject *object,
           const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static void
set_time_up (VivaRemoteExam *self)
{
  if (self->time_up)
    return;

  self->time_up = TRUE;
  g_clear_handle_id (&self->deadline_id, g_source_remove);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_UP]);
}

static gboolean
deadline_cb (gpointer user_data)
{
  VivaRemoteExam *self = user_data;

  /* A timer may fire a little early: wait for the rest. */
  if (viva_remote_exam_get_time_left (self) > 0)
    return G_SOURCE_CONTINUE;

  self->deadline_id = 0;
  set_time_up (self);
  return G_SOURCE_REMOVE;
}

static void
read_clock (VivaRemoteExam *self,
            JsonObject     *clock)
{
  JsonNode *remaining = clock ? json_object_get_member (clock, "remaining_s") : NULL;

  g_clear_handle_id (&self->deadline_id, g_source_remove);
  if (remaining == NULL || !JSON_NODE_HOLDS_VALUE (remaining))
    {
      self->deadline_us = 0;
      return;
    }

  self->deadline_us = g_get_monotonic_time () + MAX (0, json_node_get_int (remaining)) * G_USEC_PER_SEC;
  if (json_node_get_int (remaining) <= 0)
    set_time_up (self);
  else if (!self->time_up)
    self->deadline_id = g_timeout_add_seconds (1, deadline_cb, self);
}

static VivaProblem *
public_problem (JsonObject *entry,
                gboolean    hints)
{
  g_autoptr(VivaProblem) problem = viva_problem_new (string_of (entry, "id"),
                                                     string_of (entry, "title") ? string_of (entry, "title")
                                                                                : string_of (entry, "id"));
  VivaProblemType type;

  if (string_of (entry, "type") && viva_problem_type_from_string (string_of (entry, "type"), &type))
    viva_problem_set_problem_type (problem, type);
  viva_problem_set_description (problem, string_of (entry, "statement") ? string_of (entry, "statement") : "");
  viva_problem_set_starter_code (problem, string_of (entry, "starter_code") ? string_of (entry, "starter_code") : "");
  if (hints && string_of (entry, "hint") != NULL)
    viva_problem_set_hint (problem, string_of (entry, "hint"));

  return g_steal_pointer (&problem);
}

static gboolean
read_sitting (VivaRemoteExam  *self,
              JsonObject      *sitting,
              gboolean         first,
              GError         **error)
{
  JsonObject *exam = object_of (sitting, "exam");
  JsonObject *student = object_of (sitting, "student");
  JsonNode *problems = sitting ? json_object_get_member (sitting, "problems") : NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  gboolean handed_in;
  JsonArray *list;

  if (exam == NULL || string_of (exam, "id") == NULL || problems == NULL || !JSON_NODE_HOLDS_ARRAY (problems))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The exam server sent a sitting Viva cannot read. Tell the teacher."));
      return FALSE;
    }

  if (first)
    {
      g_autofree char *pack_id = g_strconcat ("exam.", string_of (exam, "id"), NULL);

      self->exam_id = g_strdup (string_of (exam, "id"));
      self->title = g_strdup (string_of (exam, "title") ? string_of (exam, "title") : self->exam_id);
      self->student_id = g_strdup (string_of (student, "id") ? string_of (student, "id") : "");
      self->student_name = g_strdup (string_of (student, "name") ? string_of (student, "name") : self->student_id);
      self->hints_allowed = json_object_get_boolean_member_with_default (exam, "hints_allowed", FALSE);
      self->hint_cost = json_object_get_double_member_with_default (exam, "hint_cost", 0);
      self->verdict_held = g_strcmp0 (string_of (exam, "show_verdict"), "after_exam") == 0;
      self->pack = viva_pack_new (pack_id, self->title);
    }

  list = json_node_get_array (problems);
  g_hash_table_remove_all (self->saved);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *code = object_of (entry, "code");
      JsonObject *defense = object_of (entry, "defense");
      const char *id = string_of (entry, "id");
      Saved *saved;

      if (id == NULL)
        continue;

      /* The problems are the exam's, once: a refresh brings the saved
       * code and the defenses, not new statements under the student. */
      if (first && viva_pack_find_problem (self->pack, id) == NULL)
        {
          g_autoptr(VivaProblem) problem = public_problem (entry, self->hints_allowed);

          viva_pack_add_problem (self->pack, problem);
        }
      g_ptr_array_add (ids, g_strdup (id));

      saved = g_new0 (Saved, 1);
      saved->code = g_strdup (string_of (code, "text"));
      saved->defense_id = g_strdup (string_of (defense, "id"));
      saved->defense_state = g_strdup (string_of (defense, "state"));
      g_hash_table_replace (self->saved, g_strdup (id), saved);
    }
  g_ptr_array_add (ids, NULL);
  if (first)
    self->problems = (GStrv)g_ptr_array_steal (ids, NULL);

  read_clock (self, object_of (sitting, "clock"));

  handed_in = g_strcmp0 (string_of (sitting, "state"), "handed_in") == 0;
  if (handed_in != self->handed_in)
    {
      self->handed_in = handed_in;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HANDED_IN]);
    }
  if (handed_in)
    set_time_up (self);

  return TRUE;
}

/**
 * viva_remote_exam_new_from_sitting:
 * @sitting: the server's sitting (data/viva-server.openapi.json, Sitting)
 *
 * Returns: (transfer full) (nullable): the exam, or %NULL with
 *   %G_IO_ERROR_INVALID_DATA when @sitting is not one
 */
VivaRemoteExam *
viva_remote_exam_new_from_sitting (JsonObject  *sitting,
                                   GError     **error)
{
  g_autoptr(VivaRemoteExam) self = g_object_new (VIVA_TYPE_REMOTE_EXAM, NULL);

  g_return_val_if_fail (sitting != NULL, NULL);

  if (!read_sitting (self, sitting, TRUE, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * viva_remote_exam_update:
 * @sitting: the server's sitting, read again
 *
 * Takes the server's newer word on the clock, the saved code and the
 * defenses. The problems stay as they were first read.
 */
gboolean
viva_remote_exam_update (VivaRemoteExam  *self,
                         JsonObject      *sitting,
                         GError         **error)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), FALSE);
  g_return_val_if_fail (sitting != NULL, FALSE);

  return read_sitting (self, sitting, FALSE, error);
}

const char *
viva_remote_exam_get_exam_id (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  return self->exam_id;
}

const char *
viva_remote_exam_get_title (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  return self->title;
}

const char *
viva_remote_exam_get_student_id (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  return self->student_id;
}

const char *
viva_remote_exam_get_student_name (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  return self->student_name;
}

/**
 * viva_remote_exam_get_pack:
 *
 * Returns: (transfer none): the exam's problems, their public parts only
 */
VivaPack *
viva_remote_exam_get_pack (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  return self->pack;
}

/**
 * viva_remote_exam_get_problems:
 *
 * Returns: (transfer none): the problem ids, in the exam's order
 */
const char * const *
viva_remote_exam_get_problems (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  return (const char * const *)self->problems;
}

gboolean
viva_remote_exam_get_hints_allowed (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), FALSE);
  return self->hints_allowed;
}

double
viva_remote_exam_get_hint_cost (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), 0);
  return self->hint_cost;
}

/**
 * viva_remote_exam_get_verdict_held:
 *
 * Returns: %TRUE when the exam shows verdicts only after it closes
 */
gboolean
viva_remote_exam_get_verdict_held (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), FALSE);
  return self->verdict_held;
}

gboolean
viva_remote_exam_get_handed_in (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), FALSE);
  return self->handed_in;
}

gboolean
viva_remote_exam_get_timed (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), FALSE);
  return self->deadline_us != 0;
}

/**
 * viva_remote_exam_get_time_left:
 *
 * Returns: the seconds left by the server's clock, 0 after the time, or
 *   -1 for an exam without a time limit
 */
gint64
viva_remote_exam_get_time_left (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), -1);

  if (self->deadline_us == 0)
    return -1;
  return MAX (0, (self->deadline_us - g_get_monotonic_time () + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
}

gboolean
viva_remote_exam_get_time_up (VivaRemoteExam *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), FALSE);
  return self->time_up;
}

static Saved *
saved_of (VivaRemoteExam *self,
          const char     *problem_id)
{
  return problem_id ? g_hash_table_lookup (self->saved, problem_id) : NULL;
}

/**
 * viva_remote_exam_get_saved_code:
 *
 * Returns: (nullable): the problem's code as the server last saved it
 */
const char *
viva_remote_exam_get_saved_code (VivaRemoteExam *self,
                                 const char     *problem_id)
{
  Saved *saved;

  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  saved = saved_of (self, problem_id);
  return saved ? saved->code : NULL;
}

/**
 * viva_remote_exam_get_defense_id:
 *
 * Returns: (nullable): the problem's defense on the server, if it has one
 */
const char *
viva_remote_exam_get_defense_id (VivaRemoteExam *self,
                                 const char     *problem_id)
{
  Saved *saved;

  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  saved = saved_of (self, problem_id);
  return saved ? saved->defense_id : NULL;
}

/**
 * viva_remote_exam_get_defense_state:
 *
 * Returns: (nullable): its state (starting, running, waiting, finished,
 *   failed)
 */
const char *
viva_remote_exam_get_defense_state (VivaRemoteExam *self,
                                    const char     *problem_id)
{
  Saved *saved;

  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (self), NULL);
  saved = saved_of (self, problem_id);
  return saved ? saved->defense_state : NULL;
}

static void
viva_remote_exam_dispose (GObject *object)
{
  VivaRemoteExam *self = (VivaRemoteExam *)object;

  g_clear_handle_id (&self->deadline_id, g_source_remove);
  g_clear_object (&self->pack);

  G_OBJECT_CLASS (viva_remote_exam_parent_class)->dispose (object);
}

static void
viva_remote_exam_finalize (GObject *object)
{
  VivaRemoteExam *self = (VivaRemoteExam *)object;

  g_clear_pointer (&self->exam_id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->student_id, g_free);
  g_clear_pointer (&self->student_name, g_free);
  g_clear_pointer (&self->problems, g_strfreev);
  g_clear_pointer (&self->saved, g_hash_table_unref);

  G_OBJECT_CLASS (viva_remote_exam_parent_class)->finalize (object);
}

static void
viva_remote_exam_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  VivaRemoteExam *self = VIVA_REMOTE_EXAM (object);

  switch (prop_id)
    {
    case PROP_TIME_UP:
      g_value_set_boolean (value, self->time_up);
      break;

    case PROP_HANDED_IN:
      g_value_set_boolean (value, self->handed_in);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_remote_exam_class_init (VivaRemoteExamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_remote_exam_dispose;
  object_class->finalize = viva_remote_exam_finalize;
  object_class->get_property = viva_remote_exam_get_property;

  properties[PROP_TIME_UP] =
    g_param_spec_boolean ("time-up", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HANDED_IN] =
    g_param_spec_boolean ("handed-in", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_remote_exam_init (VivaRemoteExam *self)
{
  self->saved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)saved_free);
}
