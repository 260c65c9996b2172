/* viva-exam-file-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-file-private.h"
#include "viva-json-check.h"
#include "viva-text.h"

/* Reads a parsed `viva-exam/1` tree into a VivaExamFile. The reader is
 * strict in the way the pack loader is: it walks the whole file and reports
 * everything wrong, each with its JSON path, and an unknown key is an error
 * here (a misspelt "time_limt" silently ignored would run an exam without
 * its limit). An exam with any error does not load. */

static void
check_keys (JsonObject         *object,
            const char         *parent,
            const char * const *known,
            GPtrArray          *issues)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &value))
    {
      g_autofree char *path = NULL;
      const char *close;

      if (g_strv_contains (known, name))
        continue;

      close = viva_json_check_closest_key (name, known, FALSE);
      path = viva_json_check_path (parent, name);
      if (close != NULL)
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_UNKNOWN_KEY, VIVA_PACK_ISSUE_ERROR, path,
                              _("unknown key — did you mean “%s”? An exam file may hold only the keys its format defines"), close);
      else
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_UNKNOWN_KEY, VIVA_PACK_ISSUE_ERROR, path,
                              _("unknown key — an exam file may hold only the keys its format defines; delete it"));
    }
}

/**
 * viva_exam_file_parse_duration:
 * @text: a duration like `45m`, `1h30m`, `90s` or `1h 15m 30s`
 * @seconds: (out): the duration in seconds
 *
 * Returns: %TRUE when @text is a duration of at least one second
 */
gboolean
viva_exam_file_parse_duration (const char *text,
                               guint      *seconds)
{
  static const char units[] = "hms";
  guint64 total = 0;
  int last_unit = -1;
  gboolean any = FALSE;

  g_return_val_if_fail (text != NULL, FALSE);

  while (*text)
    {
      guint64 value = 0;
      const char *unit;
      int index;

      if (g_ascii_isspace (*text))
        {
          text++;
          continue;
        }
      if (!g_ascii_isdigit (*text))
        return FALSE;
      while (g_ascii_isdigit (*text))
        {
          value = value * 10 + (*text++ - '0');
          if (value > G_MAXUINT32)
            return FALSE;
        }
      while (g_ascii_isspace (*text))
        text++;
      if (*text == '\0' || !(unit = strchr (units, *text)))
        return FALSE;
      /* h before m before s, each at most once. */
      index = unit - units;
      if (index <= last_unit)
        return FALSE;
      last_unit = index;
      text++;
      total += value * (index == 0 ? 3600 : index == 1 ? 60 : 1);
      if (total > G_MAXUINT32)
        return FALSE;
      any = TRUE;
    }

  if (!any || total == 0)
    return FALSE;

  if (seconds != NULL)
    *seconds = (guint)total;
  return TRUE;
}

static gboolean
valid_id (const char *id)
{
  return strchr (id, '/') == NULL && strchr (id, '\\') == NULL && id[0] != '.';
}

static void
read_pack (VivaExamFile *self,
           JsonObject   *root,
           GPtrArray    *issues)
{
  const char *why = _("the problems: a whole viva-pack/1 object, or the id of a pack installed on the lab PCs");
  JsonNode *node = viva_json_check_member (root, NULL, "pack", TRUE, NULL, NULL, why, issues);

  if (node == NULL)
    return;

  if (viva_json_check_is_string (node))
    {
      const char *id = json_node_get_string (node);

      if (viva_text_is_blank (id) || !valid_id (id))
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "pack",
                              _("“%s” is not a pack id — write the id of an installed pack, like “intro-ai”"), id);
      else
        self->pack_id = g_strdup (id);
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(GPtrArray) found = NULL;
      g_autoptr(GBytes) bytes = NULL;
      char *text;

      json_generator_set_root (generator, node);
      text = json_generator_to_data (generator, NULL);
      bytes = g_bytes_new_take (text, strlen (text));
      self->pack = viva_pack_new_from_bytes_full (bytes, &found, NULL);

      /* The pack's own issues, errors only, at their place in this file. */
      for (guint i = 0; found != NULL && i < found->len; i++)
        {
          const VivaPackIssue *one = g_ptr_array_index (found, i);
          g_autofree char *path = viva_json_check_path ("pack", one->path);

          if (one->level == VIVA_PACK_ISSUE_ERROR)
            g_ptr_array_add (issues, viva_pack_issue_new (one->code, VIVA_PACK_ISSUE_ERROR, path, one->message));
        }

      if (self->pack != NULL)
        self->pack_id = g_strdup (viva_pack_get_id (self->pack));
      self->pack_embedded = TRUE;
    }
  else
    viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, "pack",
                          _("is %s, not an object or text — %s"), viva_json_check_describe (node), why);
}

static void
read_problems (VivaExamFile *self,
               JsonObject   *root,
               GPtrArray    *issues)
{
  const char *why = _("the ids of the pack’s problems this exam sets; leave the key out to set all of them");
  JsonNode *node = viva_json_check_member (root, NULL, "problems", FALSE, viva_json_check_is_array,
                                           _("a list"), why, issues);
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autoptr(GHashTable) seen = NULL;
  JsonArray *array;
  gboolean ok = TRUE;

  if (node == NULL)
    return;

  array = json_node_get_array (node);
  if (json_array_get_length (array) == 0)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "problems",
                            _("is an empty list — %s"), why);
      return;
    }

  builder = g_strv_builder_new ();
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *path = g_strdup_printf ("problems[%u]", i);
      const char *id;

      if (!viva_json_check_is_string (element) || viva_text_is_blank (json_node_get_string (element)))
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, path,
                                _("is not a problem id — write the id as text, like “kmeans”"));
          ok = FALSE;
          continue;
        }

      id = json_node_get_string (element);
      if (g_hash_table_contains (seen, id))
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_DUPLICATE, VIVA_PACK_ISSUE_ERROR, path,
                                _("“%s” is listed twice — list each problem once"), id);
          ok = FALSE;
          continue;
        }
      g_hash_table_add (seen, (gpointer)id);

      if (self->pack == NULL && self->installed != NULL && self->pack_id != NULL &&
          g_hash_table_contains (self->installed, self->pack_id) &&
          !g_strv_contains (g_hash_table_lookup (self->installed, self->pack_id), id))
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path,
                                _("the pack “%s” on this computer has no problem “%s” — check the id against the pack"),
                                self->pack_id, id);
          ok = FALSE;
          continue;
        }

      if (self->pack != NULL && viva_pack_find_problem (self->pack, id) == NULL)
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path,
                                _("the pack “%s” has no problem “%s” — check the id against the pack"),
                                viva_pack_get_id (self->pack), id);
          ok = FALSE;
          continue;
        }

      g_strv_builder_add (builder, id);
    }

  if (ok)
    self->problems = g_strv_builder_end (builder);
}

static void
read_hints (VivaExamFile *self,
            JsonObject   *root,
            GPtrArray    *issues)
{
  static const char * const known[] = { "allowed", "cost", NULL };
  const char *why = _("whether students may open a problem’s hint, and how many points of 100 each one costs");
  JsonNode *node = viva_json_check_member (root, NULL, "hints", FALSE, viva_json_check_is_object,
                                           _("an object"), why, issues);
  JsonObject *hints;

  if (node == NULL)
    return;

  hints = json_node_get_object (node);
  check_keys (hints, "hints", known, issues);

  if ((node = viva_json_check_member (hints, "hints", "allowed", TRUE, viva_json_check_is_boolean,
                                      _("true or false"), why, issues)))
    self->hints_allowed = json_node_get_boolean (node);

  if ((node = viva_json_check_member (hints, "hints", "cost", FALSE, viva_json_check_is_number,
                                      _("a number"), why, issues)))
    {
      double cost = json_node_get_double (node);

      if (cost < 0 || cost > 100)
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "hints.cost",
                              _("%g is not between 0 and 100 — the points of 100 one hint costs"), cost);
      else
        self->hint_cost = cost;
    }
}

static void
read_check (VivaExamFile *self,
            JsonObject   *root,
            GPtrArray    *issues)
{
  static const char * const known[] = { "allowed", NULL };
  const char *why = _("whether students may Check their code against each problem’s shown tests");
  JsonNode *node = viva_json_check_member (root, NULL, "check", FALSE, viva_json_check_is_object,
                                           _("an object"), why, issues);
  JsonObject *check;

  if (node == NULL)
    return;

  check = json_node_get_object (node);
  check_keys (check, "check", known, issues);
  if ((node = viva_json_check_member (check, "check", "allowed", TRUE, viva_json_check_is_boolean,
                                      _("true or false"), why, issues)))
    self->check_allowed = json_node_get_boolean (node);
}

/* A whole number from @lowest to @highest at @key of @object, or 0. */
static guint
read_count (JsonObject *object,
            const char *parent,
            const char *key,
            guint       lowest,
            guint       highest,
            const char *why,
            GPtrArray  *issues)
{
  JsonNode *node = viva_json_check_member (object, parent, key, TRUE, viva_json_check_is_number,
                                           _("a whole number"), why, issues);
  g_autofree char *path = NULL;
  double value;

  if (node == NULL)
    return 0;

  value = json_node_get_double (node);
  if (value == (double) (gint64) value && value >= lowest && value <= highest)
    return (guint) value;

  path = viva_json_check_path (parent, key);
  viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path,
                        _("%g is not a whole number from %u to %u — %s"), value, lowest, highest, why);
  return 0;
}

static void
read_grading_limit (VivaExamFile *self,
                    JsonObject   *root,
                    GPtrArray    *issues)
{
  static const char * const known[] = { "count", "per_minutes", NULL };
  const char *why = _("how often each problem may be graded (Check or Submit): at most “count” times in any “per_minutes” minutes");
  JsonNode *node = viva_json_check_member (root, NULL, "grading_limit", FALSE, viva_json_check_is_object,
                                           _("an object"), why, issues);
  JsonObject *limit;
  guint count, minutes;

  if (node == NULL)
    return;

  limit = json_node_get_object (node);
  check_keys (limit, "grading_limit", known, issues);
  count = read_count (limit, "grading_limit", "count", 1, VIVA_EXAM_FILE_MAX_GRADINGS, why, issues);
  minutes = read_count (limit, "grading_limit", "per_minutes", 1, VIVA_EXAM_FILE_MAX_PER_MINUTES, why, issues);
  if (count > 0 && minutes > 0)
    {
      self->grading_count = count;
      self->grading_per_minutes = minutes;
    }
}

static void
read_examiner (VivaExamFile *self,
               JsonObject   *root,
               GPtrArray    *issues)
{
  static const char * const known[] = { "mode", "base_url", "model", "language", NULL };
  const char *why = _("which examiner runs the defenses: “offline”, or a model server with “base_url” and “model”");
  JsonNode *node = viva_json_check_member (root, NULL, "examiner", FALSE, viva_json_check_is_object,
                                           _("an object"), why, issues);
  JsonObject *examiner;
  const char *mode, *url;

  if (node == NULL)
    return;

  self->has_examiner = TRUE;
  examiner = json_node_get_object (node);
  check_keys (examiner, "examiner", known, issues);

  if ((mode = viva_json_check_string (examiner, "examiner", "mode", TRUE, FALSE, why, issues)))
    {
      if (g_str_equal (mode, "offline"))
        self->examiner_mode = VIVA_EXAMINER_MODE_OFFLINE;
      else if (g_str_equal (mode, "model"))
        self->examiner_mode = VIVA_EXAMINER_MODE_MODEL;
      else if (g_str_equal (mode, "auto"))
        self->examiner_mode = VIVA_EXAMINER_MODE_AUTO;
      else
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "examiner.mode",
                              _("“%s” is not an examiner mode — write “offline”, “model” or “auto”"), mode);
    }

  if ((url = viva_json_check_string (examiner, "examiner", "base_url", FALSE, FALSE,
                                     _("the model server’s address, like “http://10.0.0.5:11434/v1”"), issues)))
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

      if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                          g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "examiner.base_url",
                              _("“%s” is not an http or https address — write it like “http://10.0.0.5:11434/v1”"), url);
      else
        self->base_url = g_strdup (url);
    }

  self->model = g_strdup (viva_json_check_string (examiner, "examiner", "model", FALSE, FALSE,
                                                  _("the model’s name as the server lists it"), issues));
  self->language = g_strdup (viva_json_check_string (examiner, "examiner", "language", FALSE, FALSE,
                                                     _("the language the examiner speaks, as a locale name like “vi” or “zh_CN”"), issues));
}

static char *
resolve_folder (const char *folder,
                const char *exam_path)
{
  g_autofree char *base = NULL;

  if (g_str_equal (folder, "~"))
    return g_strdup (g_get_home_dir ());
  if (g_str_has_prefix (folder, "~/"))
    return g_build_filename (g_get_home_dir (), folder + 2, NULL);
  if (g_path_is_absolute (folder))
    return g_canonicalize_filename (folder, NULL);

  /* Relative to the exam file, so an exam and its reports can sit together
   * on a USB stick. */
  base = exam_path ? g_path_get_dirname (exam_path) : g_get_current_dir ();
  return g_canonicalize_filename (folder, base);
}

/**
 * _viva_exam_file_read_root:
 * @node: the parsed file
 * @issues: (element-type VivaPackIssue): where everything wrong is added
 *
 * Fills @self from @node; what is wrong stays unset and is in @issues.
 */
void
_viva_exam_file_read_root (VivaExamFile *self,
                           JsonNode     *node,
                           GPtrArray    *issues)
{
  static const char * const known[] = {
    "format", "id", "title", "pack", "problems", "time_limit", "hints", "followup",
    "examiner", "report_folder", "show_verdict", "check", "grading_limit", NULL
  };
  JsonObject *root;
  const char *format, *id, *limit, *folder, *show;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_WRONG_TYPE, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file holds %s, not an object — an exam file is a JSON object starting with “{”"),
                            viva_json_check_describe (node));
      return;
    }

  root = json_node_get_object (node);
  check_keys (root, NULL, known, issues);

  if ((format = viva_json_check_string (root, NULL, "format", TRUE, FALSE,
                                        _("write \"format\": \"viva-exam/1\" so Viva knows this is an exam file"), issues)) &&
      !g_str_equal (format, VIVA_EXAM_FILE_FORMAT))
    {
      if (g_str_has_prefix (format, "viva-exam/"))
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_FORMAT, VIVA_PACK_ISSUE_ERROR, "format",
                              _("“%s” is a newer exam format than this Viva reads (“%s”) — update Viva on this PC"),
                              format, VIVA_EXAM_FILE_FORMAT);
      else
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_FORMAT, VIVA_PACK_ISSUE_ERROR, "format",
                              _("“%s” is not “%s” — this is not an exam file (a problem pack is opened from the Problems list)"),
                              format, VIVA_EXAM_FILE_FORMAT);
    }

  if ((id = viva_json_check_string (root, NULL, "id", TRUE, FALSE,
                                    _("a short name for this exam, like “ai-midterm-2026”, kept in every report"), issues)))
    {
      if (!valid_id (id))
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "id",
                              _("“%s” may not hold “/” or “\\” or start with “.”"), id);
      else
        self->id = g_strdup (id);
    }

  self->title = g_strdup (viva_json_check_string (root, NULL, "title", TRUE, FALSE,
                                                  _("the exam’s name as students see it"), issues));

  read_pack (self, root, issues);
  read_problems (self, root, issues);

  if ((limit = viva_json_check_string (root, NULL, "time_limit", FALSE, FALSE,
                                       _("how long the exam lasts, like “45m” or “1h30m”; leave it out for no limit"), issues)))
    {
      guint seconds = 0;

      if (!viva_exam_file_parse_duration (limit, &seconds))
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "time_limit",
                              _("“%s” is not a duration — write hours, minutes and seconds like “45m”, “1h30m” or “90s”"), limit);
      else if (seconds < VIVA_EXAM_FILE_MIN_TIME_LIMIT || seconds > VIVA_EXAM_FILE_MAX_TIME_LIMIT)
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "time_limit",
                              _("“%s” is not between %d seconds and %d hours"), limit,
                              VIVA_EXAM_FILE_MIN_TIME_LIMIT, VIVA_EXAM_FILE_MAX_TIME_LIMIT / 3600);
      else
        self->time_limit = seconds;
    }

  read_hints (self, root, issues);

  if ((node = viva_json_check_member (root, NULL, "followup", FALSE, viva_json_check_is_boolean, _("true or false"),
                                      _("whether students may go on asking the examiner after the verdict"), issues)))
    self->followup_allowed = json_node_get_boolean (node);

  read_check (self, root, issues);
  read_grading_limit (self, root, issues);
  read_examiner (self, root, issues);

  /* An exam server holds a verdict back until the exam closes; a local
   * exam has no one to hold it, so there the key only says what to show. */
  if ((show = viva_json_check_string (root, NULL, "show_verdict", FALSE, FALSE,
                                      _("when students see their verdict: “immediately”, or “after_exam” when the exam closes"), issues)))
    {
      if (g_str_equal (show, "after_exam"))
        self->verdict_after_exam = TRUE;
      else if (!g_str_equal (show, "immediately"))
        viva_pack_issues_add (issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, "show_verdict",
                              _("“%s” is not when to show a verdict — write “immediately” or “after_exam”"), show);
    }

  if ((folder = viva_json_check_string (root, NULL, "report_folder", TRUE, FALSE,
                                        _("the folder finished reports are written to, like a lab share or “~/Documents/Exam reports”"), issues)))
    self->report_folder = resolve_folder (folder, self->path);
}
