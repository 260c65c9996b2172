/* viva-class-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-csv-private.h"
#include "viva-class-report-private.h"
#include "viva-exam-report-private.h"
#include "viva-exam-report.h"
#include "viva-exam-tool.h"
#include "viva-json-member.h"
#include "viva-json-bounded.h"
#include "viva-report-file.h"
#include "viva-text.h"

/* One collected report as a row of the class results: who, which problem,
 * the verdict, the facts the report recorded, what a re-grade on the
 * teacher's machine found, and the flags a teacher should look at. Read
 * leniently: a file that is not a Viva report, is cut short or is from a
 * newer Viva still makes a row, which says so. Immutable once read, except
 * for the re-grade, which notifies. */

enum {
  PROP_0,
  PROP_PATH,
  PROP_STUDENT_NAME,
  PROP_STUDENT_ID,
  PROP_PROBLEM_ID,
  PROP_PROBLEM_TITLE,
  PROP_VERDICT,
  PROP_SCORE,
  PROP_HIDDEN_PASSED,
  PROP_REGRADED_PASSED,
  PROP_DURATION,
  PROP_HINTS,
  PROP_FLAGS,
  PROP_NOTE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaClassReport, viva_class_report, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
viva_class_report_finalize (GObject *object)
{
  VivaClassReport *self = (VivaClassReport *)object;

  g_free (self->path);
  g_free (self->student_name);
  g_free (self->student_id);
  g_free (self->pack_id);
  g_free (self->problem_id);
  g_free (self->problem_title);
  g_free (self->session);
  g_free (self->exam_id);
  g_free (self->started);
  g_free (self->status);
  g_free (self->verdict);
  g_free (self->flags_text);
  g_free (self->note);
  g_free (self->code);
  g_free (self->teacher_note);
  g_free (self->teacher_items_note);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->teacher_items, g_hash_table_unref);
  g_clear_pointer (&self->flags, g_ptr_array_unref);
  g_clear_pointer (&self->flag_notes, g_ptr_array_unref);
  g_clear_pointer (&self->recorded_tests, json_array_unref);
  g_clear_pointer (&self->regraded_tests, json_array_unref);
  g_clear_pointer (&self->questions, g_strfreev);

  G_OBJECT_CLASS (viva_class_report_parent_class)->finalize (object);
}

static void
viva_class_report_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  VivaClassReport *self = VIVA_CLASS_REPORT (object);

  switch (prop_id)
    {
    case PROP_PATH: g_value_set_string (value, self->path); break;
    case PROP_STUDENT_NAME: g_value_set_string (value, self->student_name); break;
    case PROP_STUDENT_ID: g_value_set_string (value, self->student_id); break;
    case PROP_PROBLEM_ID: g_value_set_string (value, self->problem_id); break;
    case PROP_PROBLEM_TITLE: g_value_set_string (value, self->problem_title); break;
    case PROP_VERDICT: g_value_set_string (value, self->verdict); break;
    case PROP_SCORE: g_value_set_double (value, self->score); break;
    case PROP_HIDDEN_PASSED: g_value_set_int (value, self->hidden_passed); break;
    case PROP_REGRADED_PASSED: g_value_set_int (value, self->regraded_passed); break;
    case PROP_DURATION: g_value_set_int (value, self->duration); break;
    case PROP_HINTS: g_value_set_uint (value, self->hints); break;
    case PROP_FLAGS: g_value_set_string (value, self->flags_text); break;
    case PROP_NOTE: g_value_set_string (value, self->note); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
string_property (const char *name)
{
  return g_param_spec_string (name, NULL, NULL, "",
                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static GParamSpec *
int_property (const char *name)
{
  return g_param_spec_int (name, NULL, NULL, -1, G_MAXINT, -1,
                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
viva_class_report_class_init (VivaClassReportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_class_report_finalize;
  object_class->get_property = viva_class_report_get_property;

  properties[PROP_PATH] = string_property ("path");
  properties[PROP_STUDENT_NAME] = string_property ("student-name");
  properties[PROP_STUDENT_ID] = string_property ("student-id");
  properties[PROP_PROBLEM_ID] = string_property ("problem-id");
  properties[PROP_PROBLEM_TITLE] = string_property ("problem-title");
  properties[PROP_VERDICT] = string_property ("verdict");
  properties[PROP_SCORE] =
    g_param_spec_double ("score", NULL, NULL, -1, G_MAXDOUBLE, -1,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIDDEN_PASSED] = int_property ("hidden-passed");
  properties[PROP_REGRADED_PASSED] = int_property ("regraded-passed");
  properties[PROP_DURATION] = int_property ("duration");
  properties[PROP_HINTS] =
    g_param_spec_uint ("hints", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FLAGS] = string_property ("flags");
  properties[PROP_NOTE] = string_property ("note");

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_class_report_init (VivaClassReport *self)
{
  self->score = self->model_score = self->item_points = -1;
  self->teacher_score = -1;
  self->hidden_passed = self->hidden_total = self->items_review = -1;
  self->regraded_passed = self->regraded_total = -1;
  self->duration = -1;
  self->flags = g_ptr_array_new_with_free_func (g_free);
  self->flag_notes = g_ptr_array_new_with_free_func (g_free);
  self->flags_text = g_strdup ("");
}

/* Each flag keeps the sentence that says why, if any; the note is those
 * sentences in the flags' order, so that one flag's reason never hides
 * another's. */
static void
update_flags_text (VivaClassReport *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) note = g_string_new (NULL);

  for (guint i = 0; i < self->flags->len; i++)
    {
      const char *why = g_ptr_array_index (self->flag_notes, i);

      if (i > 0)
        g_string_append_c (text, ';');
      g_string_append (text, g_ptr_array_index (self->flags, i));
      if (why != NULL && why[0] != '\0')
        {
          if (note->len > 0)
            g_string_append_c (note, ' ');
          g_string_append (note, why);
        }
    }

  g_free (self->flags_text);
  self->flags_text = g_string_free (g_steal_pointer (&text), FALSE);
  g_free (self->note);
  self->note = note->len > 0 ? g_string_free (g_steal_pointer (&note), FALSE) : NULL;
}

/* Adds @flag, or replaces its note when it is there already. */
void
_viva_class_report_add_flag (VivaClassReport *self,
                             const char      *flag,
                             const char      *note)
{
  for (guint i = 0; i < self->flags->len; i++)
    if (g_str_equal (g_ptr_array_index (self->flags, i), flag))
      {
        if (note != NULL)
          {
            g_free (g_ptr_array_index (self->flag_notes, i));
            g_ptr_array_index (self->flag_notes, i) = g_strdup (note);
            update_flags_text (self);
          }
        return;
      }

  g_ptr_array_add (self->flags, g_strdup (flag));
  g_ptr_array_add (self->flag_notes, g_strdup (note));
  update_flags_text (self);
}

void
_viva_class_report_remove_flag (VivaClassReport *self,
                                const char      *flag)
{
  for (guint i = 0; i < self->flags->len; i++)
    if (g_str_equal (g_ptr_array_index (self->flags, i), flag))
      {
        g_ptr_array_remove_index (self->flags, i);
        g_ptr_array_remove_index (self->flag_notes, i);
        update_flags_text (self);
        return;
      }
}

static char *
dup_member (JsonObject *object,
            const char *name)
{
  return g_strdup (viva_json_member_string (object, name) ? viva_json_member_string (object, name) : "");
}

/* A member that counts something, or -1 when it is not a count. */
int
_viva_class_report_get_count (JsonObject *object,
                              const char *name)
{
  double value;

  if (!viva_json_member_number (object, name, &value) || value < 0 || value > G_MAXINT)
    return -1;

  return (int)value;
}

static int
seconds_between (const char *from,
                 const char *to)
{
  g_autoptr(GDateTime) a = NULL;
  g_autoptr(GDateTime) b = NULL;

  if (from == NULL || to == NULL || from[0] == '\0' || to[0] == '\0')
    return -1;
  if (!(a = g_date_time_new_from_iso8601 (from, NULL)) || !(b = g_date_time_new_from_iso8601 (to, NULL)))
    return -1;

  return MAX (0, (int)(g_date_time_difference (b, a) / G_TIME_SPAN_SECOND));
}

static void
read_timeline (VivaClassReport *self,
               JsonObject      *root)
{
  JsonArray *timeline = viva_json_member_array (root, "timeline");

  for (guint i = 0; timeline != NULL && i < json_array_get_length (timeline); i++)
    {
      JsonNode *node = json_array_get_element (timeline, i);
      const char *kind;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;

      kind = viva_json_member_string (json_node_get_object (node), "kind");
      if (g_strcmp0 (kind, "paste") == 0)
        _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_PASTED, NULL);
      else if (g_strcmp0 (kind, "focus-lost") == 0)
        _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_LEFT_WINDOW, NULL);
    }
}

static void
read_questions (VivaClassReport *self,
                JsonObject      *root)
{
  JsonArray *transcript = viva_json_member_array (root, "transcript");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; transcript != NULL && i < json_array_get_length (transcript); i++)
    {
      JsonNode *node = json_array_get_element (transcript, i);
      const VivaExamToolFacts *facts;
      JsonObject *entry, *arguments;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      entry = json_node_get_object (node);
      facts = viva_exam_tool_facts_lookup (viva_json_member_string (entry, "name"));
      if (facts == NULL || facts->kind != VIVA_EXAM_TOOL_KIND_WAITS || facts->shown_argument == NULL ||
          !(arguments = viva_json_member_object (entry, "arguments")) ||
          viva_json_member_string (arguments, facts->shown_argument) == NULL)
        continue;

      g_strv_builder_add (builder, viva_json_member_string (arguments, facts->shown_argument));
    }

  self->questions = g_strv_builder_end (builder);
}

/* A verdict contradicts the facts when it passes what the hidden tests
 * fail; a fail beside passing tests is the examiner's judgement of the
 * answers, which is allowed. */
void
_viva_class_report_update_contradiction (VivaClassReport *self)
{
  int passed = self->regraded_total >= 0 ? self->regraded_passed : self->hidden_passed;
  int total = self->regraded_total >= 0 ? self->regraded_total : self->hidden_total;

  _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_VERDICT_CONTRADICTS);
  _viva_class_report_remove_flag (self, VIVA_CLASS_FLAG_TESTS_FAILED);

  if (total > 0 && passed < total)
    _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_TESTS_FAILED, NULL);
  if (self->inconsistent || (self->claims_pass && total > 0 && passed < total))
    _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_VERDICT_CONTRADICTS, NULL);
}

static void
read_report (VivaClassReport *self,
             JsonObject      *root)
{
  JsonObject *student = viva_json_member_object (root, "student");
  JsonObject *problem = viva_json_member_object (root, "problem");
  JsonObject *verdict = viva_json_member_object (root, "verdict");
  JsonObject *grade = viva_json_member_object (root, "grade");
  JsonObject *hidden = viva_json_member_object (verdict, "hidden_tests");
  JsonObject *code = viva_json_member_object (root, "code");
  const char *text = viva_json_member_string (code, "text");
  const char *sha = viva_json_member_string (code, "sha256");
  gboolean consistent = TRUE;
  double score;

  self->readable = TRUE;
  self->student_name = dup_member (student, "name");
  self->student_id = dup_member (student, "id");
  if (viva_text_is_blank (self->student_name) && viva_text_is_blank (self->student_id))
    _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_NO_STUDENT,
                                 _("The report names no student (a practice defense, or the name was removed); it is left out of the gradebook."));
  self->pack_id = dup_member (problem, "pack_id");
  self->problem_id = dup_member (problem, "id");
  self->problem_title = dup_member (problem, "title");
  if (self->problem_title[0] == '\0')
    {
      g_free (self->problem_title);
      self->problem_title = g_strdup (self->problem_id);
    }
  self->session = dup_member (root, "session");
  self->started = dup_member (root, "created");
  self->status = g_strdup (viva_json_member_string (verdict, "status") ? viva_json_member_string (verdict, "status")
                                                                          : viva_json_member_string (root, "state") ? viva_json_member_string (root, "state") : "");
  self->verdict = dup_member (verdict, "verdict");
  self->claims_pass = g_str_equal (self->verdict, "pass");
  if (viva_json_member_number (verdict, "score", &score) && score >= 0)
    self->score = self->model_score = score;
  _viva_class_report_read_items (self, verdict);
  self->code = g_strdup (text ? text : "");
  self->duration = seconds_between (viva_json_member_string (root, "created"), viva_json_member_string (root, "updated"));

  /* The engine's facts: the grade when the report has one, else the
   * verdict's summary of it. */
  if (grade != NULL && _viva_class_report_get_count (grade, "total") >= 0)
    {
      self->hidden_passed = _viva_class_report_get_count (grade, "passed");
      self->hidden_total = _viva_class_report_get_count (grade, "total");
      if (viva_json_member_array (grade, "tests") != NULL)
        self->recorded_tests = json_array_ref (viva_json_member_array (grade, "tests"));
    }
  else if (hidden != NULL && _viva_class_report_get_count (hidden, "total") >= 0)
    {
      self->hidden_passed = _viva_class_report_get_count (hidden, "passed");
      self->hidden_total = _viva_class_report_get_count (hidden, "total");
    }
  if (self->hidden_passed < 0)
    self->hidden_total = -1;

  if (viva_json_member_boolean (verdict, "consistent", &consistent) && !consistent)
    self->inconsistent = TRUE;

  if (sha != NULL && sha[0] != '\0' && text != NULL)
    {
      g_autofree char *actual = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);

      if (g_ascii_strcasecmp (actual, sha) != 0)
        {
          _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_CODE_EDITED,
                                       _("The final code does not match the checksum the defense recorded: it was changed after the defense."));
        }
    }

  read_timeline (self, root);
  _viva_class_report_read_score (self, root);
  read_questions (self, root);
  _viva_class_report_update_contradiction (self);

  /* A revision the exam server made when it re-graded (signed as the
   * report is): its grade is the re-grade's, the verdict stays the
   * defense's. */
  if (viva_json_member_object (viva_json_member_object (root, "regrade"), "grade") != NULL)
    {
      viva_class_report_set_regrade (self, json_object_get_member (viva_json_member_object (root, "regrade"), "grade"));
      self->server_regrade = TRUE;
    }
}

static void
make_unreadable (VivaClassReport *self,
                 const char      *note)
{
  self->readable = FALSE;
  g_free (self->status);
  self->status = g_strdup (VIVA_CLASS_FLAG_UNREADABLE);
  _viva_class_report_add_flag (self, VIVA_CLASS_FLAG_UNREADABLE, note);
}

/**
 * viva_class_report_new_from_data:
 * @path: the file the data came from, kept for the row
 * @data: the file's contents
 * @length: their length, or -1 when nul-terminated
 *
 * Reads one report. Never fails: a file that is not a readable report gives
 * a row flagged `unreadable` whose note says why. Thread-safe.
 *
 * Returns: (transfer full): the row
 */
VivaClassReport *
viva_class_report_new_from_data (const char *path,
                                 const char *data,
                                 gssize      length)
{
  g_autoptr(VivaClassReport) self = g_object_new (VIVA_TYPE_CLASS_REPORT, NULL);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  const char *format;

  self->path = g_strdup (path ? path : "");
  if (data == NULL)
    {
      data = "";
      length = 0;
    }
  if (!viva_json_depth_ok (data, length, VIVA_REPORT_FILE_MAX_DEPTH))
    {
      make_unreadable (self, _("The file nests its JSON deeper than any report does, so it was not read; ask the student for the report again."));
      return g_steal_pointer (&self);
    }
  if (!(root = viva_report_file_parse (data, length, &error)))
    {
      make_unreadable (self, _("The file is cut short or is not JSON; ask the student for the report again."));
      return g_steal_pointer (&self);
    }

  format = JSON_NODE_HOLDS_OBJECT (root) ? viva_json_member_string (json_node_get_object (root), "format") : NULL;
  if (format == NULL || !g_str_has_prefix (format, "viva-report/"))
    {
      make_unreadable (self, _("The file is not a Viva report."));
      return g_steal_pointer (&self);
    }
  if (!g_str_equal (format, VIVA_EXAM_REPORT_FORMAT))
    {
      g_autofree char *note = g_strdup_printf (_("The report is in a newer format (%s); open it with a newer Viva."), format);
      make_unreadable (self, note);
      return g_steal_pointer (&self);
    }

  read_report (self, json_node_get_object (root));

  return g_steal_pointer (&self);
}

/**
 * viva_class_report_new_from_file:
 * @path: a report's JSON file
 *
 * Like viva_class_report_new_from_data(), reading the file first as
 * viva_report_file_read() does: a link, a FIFO, a device or a file past
 * the size cap is a row flagged `unreadable` saying so. Blocks.
 *
 * Returns: (transfer full): the row
 */
VivaClassReport *
viva_class_report_new_from_file (const char *path)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  VivaClassReport *self;

  g_return_val_if_fail (path != NULL, NULL);

  if ((data = viva_report_file_read (path, &length, &error)) != NULL)
    return viva_class_report_new_from_data (path, data, length);

  self = g_object_new (VIVA_TYPE_CLASS_REPORT, NULL);
  self->path = g_strdup (path);
  make_unreadable (self, error->message);

  return self;
}

/**
 * viva_class_report_render_html:
 * @error: why the page could not be made
 *
 * The report's page made from its JSON, read again through
 * viva_report_file_load() (never an HTML file found beside it: that is a
 * file the student wrote, and its script would run in the teacher's
 * browser), under the page's own Content-Security-Policy. Blocks; any
 * thread.
 *
 * Returns: (transfer full) (nullable): the page
 */
char *
viva_class_report_render_html (VivaClassReport  *self,
                               GError          **error)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  if (!self->readable)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, viva_class_report_get_note (self));
      return NULL;
    }
  if (!(root = viva_report_file_load (self->path, error)))
    return NULL;
  /* The file changed since it was collected: the page would not be the
   * row's. */
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      g_strcmp0 (viva_json_member_string (json_node_get_object (root), "session") ? viva_json_member_string (json_node_get_object (root), "session") : "",
                 self->session) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The file changed after it was collected; open the folder again."));
      return NULL;
    }

  /* The teacher's scores beside Viva's, from the teacher's data only. */
  _viva_class_report_put_teacher (self, json_node_get_object (root));
  return viva_exam_report_render_html (root);
}

const char *viva_class_report_get_path (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->path; }
gboolean viva_class_report_get_readable (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), FALSE); return self->readable; }
const char *viva_class_report_get_student_name (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->student_name ? self->student_name : ""; }
const char *viva_class_report_get_student_id (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->student_id ? self->student_id : ""; }
const char *viva_class_report_get_pack_id (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->pack_id ? self->pack_id : ""; }
const char *viva_class_report_get_problem_id (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->problem_id ? self->problem_id : ""; }
const char *viva_class_report_get_problem_title (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->problem_title ? self->problem_title : ""; }
const char *viva_class_report_get_session (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->session ? self->session : ""; }
const char *viva_class_report_get_started (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->started ? self->started : ""; }
const char *viva_class_report_get_status (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->status ? self->status : ""; }
const char *viva_class_report_get_verdict (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->verdict ? self->verdict : ""; }
double viva_class_report_get_score (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1); return self->score; }
int viva_class_report_get_hidden_passed (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1); return self->hidden_passed; }
int viva_class_report_get_hidden_total (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1); return self->hidden_total; }
int viva_class_report_get_regraded_passed (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1); return self->regraded_passed; }
int viva_class_report_get_regraded_total (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1); return self->regraded_total; }
int viva_class_report_get_duration (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), -1); return self->duration; }
guint viva_class_report_get_hints (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), 0); return self->hints; }
const char *viva_class_report_get_flags (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->flags_text; }
const char *viva_class_report_get_note (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->note ? self->note : ""; }
const char *viva_class_report_get_code (VivaClassReport *self) { g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL); return self->code ? self->code : ""; }

/**
 * viva_class_report_get_student_key:
 *
 * Returns: what tells students apart: the id, else the name, else the
 *   report's file
 */
const char *
viva_class_report_get_student_key (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  if (self->student_id != NULL && self->student_id[0] != '\0')
    return self->student_id;
  if (self->student_name != NULL && self->student_name[0] != '\0')
    return self->student_name;
  return self->path;
}

gboolean
viva_class_report_has_flag (VivaClassReport *self,
                            const char      *flag)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), FALSE);

  for (guint i = 0; i < self->flags->len; i++)
    if (g_str_equal (g_ptr_array_index (self->flags, i), flag))
      return TRUE;

  return FALSE;
}

/**
 * viva_class_report_get_tests:
 *
 * Returns: (transfer none) (nullable): the hidden tests, one object each
 *   with `name` and `passed`: the re-grade's when there is one, else the
 *   recorded ones
 */
JsonArray *
viva_class_report_get_tests (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  return self->regraded_tests ? self->regraded_tests : self->recorded_tests;
}

/**
 * viva_class_report_get_questions:
 *
 * Returns: (transfer none): the questions the examiner asked, in order
 */
const char * const *
viva_class_report_get_questions (VivaClassReport *self)
{
  static const char *none[] = { NULL };

  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  return self->questions ? (const char * const *)self->questions : none;
}

/* The score changes when the teacher's exam file sets the hints' cost. */
void
_viva_class_report_notify_score (VivaClassReport *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCORE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLAGS]);
}

/* The flags changed, and with them the note. */
void
_viva_class_report_notify_flags (VivaClassReport *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLAGS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTE]);
}

/* A re-grade's result or error changed the row. */
void
_viva_class_report_notify_regrade (VivaClassReport *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REGRADED_PASSED]);
  _viva_class_report_notify_flags (self);
}

/**
 * viva_class_report_get_in_gradebook:
 *
 * Returns: whether the report may give a student a grade: it was read,
 *   names a student, and is of the exam when one was given. (A report
 *   flagged `duplicate-claim` counts, but gives no grade alone: see
 *   viva_class_results_to_gradebook_csv().)
 */
gboolean
viva_class_report_get_in_gradebook (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), FALSE);

  return self->readable &&
         !viva_class_report_has_flag (self, VIVA_CLASS_FLAG_NO_STUDENT) &&
         !viva_class_report_has_flag (self, VIVA_CLASS_FLAG_OUTSIDE_EXAM);
}

/**
 * viva_class_report_to_json:
 *
 * Returns: (transfer full): the row as the `row` event of
 *   `viva-cli class collect --json` has it: the class CSV's columns
 */
JsonObject *
viva_class_report_to_json (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  return _viva_class_csv_row_json (self);
}

/**
 * viva_class_report_describe_time:
 *
 * Returns: (transfer full): how long the defense took, as a person reads
 *   it, or "" when the report does not say
 */
char *
viva_class_report_describe_time (VivaClassReport *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_REPORT (self), NULL);

  if (self->duration < 0)
    return g_strdup ("");
  if (self->duration < 60)
    return g_strdup_printf (_("%d s"), self->duration);

  return g_strdup_printf (_("%d min %02d s"), self->duration / 60, self->duration % 60);
}
