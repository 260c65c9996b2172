/* viva-exam-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-file.h"
#include "viva-json-check.h"
#include "viva-text.h"

/* A `viva-exam/1` file: what a teacher fixes for a graded session. The
 * loader is strict in the way the pack loader is: it walks the whole file
 * and reports everything wrong, each with its JSON path, and an unknown key
 * is an error here (a misspelt "time_limt" silently ignored would run an
 * exam without its limit). An exam with any error does not load. */

#define MAX_SIZE  (32 * 1024 * 1024)
#define MAX_DEPTH 40

struct _VivaExamFile
{
  GObject           parent_instance;

  char             *path;
  char             *digest;
  char             *id;
  char             *title;
  char             *pack_id;
  VivaPack         *pack;
  gboolean          pack_embedded;
  GStrv             problems;
  guint             time_limit;
  gboolean          hints_allowed;
  double            hint_cost;
  gboolean          followup_allowed;
  gboolean          has_examiner;
  VivaExaminerMode  examiner_mode;
  char             *base_url;
  char             *model;
  char             *language;
  char             *report_folder;
};

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
  self->examiner_mode = VIVA_EXAMINER_MODE_AUTO;
}

/* Before the JSON parser: json-glib recurses once per level, so a file of
 * nested brackets must never reach it. */
static gboolean
check_bytes (const char *data,
             gsize       len,
             GPtrArray  *issues)
{
  gboolean in_string = FALSE;
  gboolean blank = TRUE;
  guint depth = 0;

  if (len > MAX_SIZE)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_TOO_LARGE, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is %.1f MB, more than any exam file (the limit is %d MB) — check that you picked the right file"),
                            len / (1024.0 * 1024.0), MAX_SIZE / (1024 * 1024));
      return FALSE;
    }

  if (!g_utf8_validate_len (data, len, NULL))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_ENCODING, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is not UTF-8 text — an exam file is JSON saved as UTF-8"));
      return FALSE;
    }

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if ((guchar)c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_BINARY, VIVA_PACK_ISSUE_ERROR, NULL,
                                _("the file holds binary data — an exam file is a JSON text file"));
          return FALSE;
        }
      if (!g_ascii_isspace (c))
        blank = FALSE;

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if ((c == '[' || c == '{') && ++depth > MAX_DEPTH)
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_TOO_DEEP, VIVA_PACK_ISSUE_ERROR, NULL,
                                _("lists and objects nest more than %d deep — this file is not an exam file"), MAX_DEPTH);
          return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  if (blank)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_EMPTY, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is empty — an exam file is a JSON object starting with “{”"));
      return FALSE;
    }

  return TRUE;
}

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

static void
read_root (VivaExamFile *self,
           JsonNode     *node,
           GPtrArray    *issues)
{
  static const char * const known[] = {
    "format", "id", "title", "pack", "problems", "time_limit", "hints", "followup",
    "examiner", "report_folder", NULL
  };
  JsonObject *root;
  const char *format, *id, *limit, *folder;

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

  read_examiner (self, root, issues);

  if ((folder = viva_json_check_string (root, NULL, "report_folder", TRUE, FALSE,
                                        _("the folder finished reports are written to, like a lab share or “~/Documents/Exam reports”"), issues)))
    self->report_folder = resolve_folder (folder, self->path);
}

static char *
describe_all (GPtrArray *issues)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < issues->len; i++)
    {
      g_autofree char *line = viva_pack_issue_to_string (g_ptr_array_index (issues, i));

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * viva_exam_file_describe_issues:
 * @issues: (element-type VivaPackIssue): what the loader found
 *
 * Returns: (transfer full): one line per issue, `path: message`
 */
char *
viva_exam_file_describe_issues (GPtrArray *issues)
{
  g_return_val_if_fail (issues != NULL, NULL);

  return describe_all (issues);
}

/**
 * viva_exam_file_new_from_bytes:
 * @bytes: the exam file's bytes
 * @path: (nullable): where they were read, for the session's reference and
 *   to resolve a relative report folder
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue):
 *   every error, each with its JSON path; set even when loading fails
 * @error: the errors as one message, one line each
 *
 * Reads and checks an exam file. Any issue fails the load. Thread-safe: no
 * shared state (an embedded pack is built here, but nothing else sees it).
 *
 * Returns: (transfer full) (nullable): the exam
 */
VivaExamFile *
viva_exam_file_new_from_bytes (GBytes      *bytes,
                               const char  *path,
                               GPtrArray  **issues,
                               GError     **error)
{
  g_autoptr(VivaExamFile) self = NULL;
  g_autoptr(GPtrArray) found = viva_pack_issues_new ();
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local = NULL;
  const char *data;
  gsize len;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (VIVA_TYPE_EXAM_FILE, NULL);
  self->path = path ? g_canonicalize_filename (path, NULL) : NULL;
  data = g_bytes_get_data (bytes, &len);
  self->digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *)(data ? data : ""), len);

  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      data += 3;
      len -= 3;
    }

  if (check_bytes (data, len, found))
    {
      parser = json_parser_new_immutable ();
      if (!json_parser_load_from_data (parser, data, len, &local))
        viva_pack_issues_add (found, VIVA_PACK_ERROR_SYNTAX, VIVA_PACK_ISSUE_ERROR, NULL,
                              _("the file is not valid JSON (%s) — a JSON checker or editor shows where"), local->message);
      else if (json_parser_get_root (parser) == NULL)
        viva_pack_issues_add (found, VIVA_PACK_ERROR_EMPTY, VIVA_PACK_ISSUE_ERROR, NULL,
                              _("the file is empty — an exam file is a JSON object starting with “{”"));
      else
        read_root (self, json_parser_get_root (parser), found);
    }

  if (found->len > 0)
    {
      g_autofree char *text = describe_all (found);
      const VivaPackIssue *first = g_ptr_array_index (found, 0);

      g_autofree char *header = NULL;

      if (found->len == 1)
        header = g_strdup_printf (_("The exam file %s has an error, so the exam cannot start; ask the teacher to fix it:"),
                                  path ? path : "");
      else
        header = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "The exam file %s has %u errors, so the exam cannot start; ask the teacher to fix them:",
                                               "The exam file %s has %u errors, so the exam cannot start; ask the teacher to fix them:",
                                               found->len),
                                  path ? path : "", found->len);
      g_set_error (error, VIVA_PACK_ERROR, first->code, "%s\n%s", header, text);
      g_clear_object (&self);
    }

  if (issues != NULL)
    *issues = g_steal_pointer (&found);

  return g_steal_pointer (&self);
}

/**
 * viva_exam_file_load:
 * @path: the exam file
 *
 * Blocking: for the CLI, the tests and worker threads.
 *
 * Returns: (transfer full) (nullable): the exam
 */
VivaExamFile *
viva_exam_file_load (const char  *path,
                     GPtrArray  **issues,
                     GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (issues != NULL)
    *issues = NULL;

  if (!g_file_get_contents (path, &contents, &length, &local))
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_file_error (local->code),
                   _("The exam file could not be read: %s. Check the path, or ask the lab administrator."),
                   local->message);
      return NULL;
    }

  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  return viva_exam_file_new_from_bytes (bytes, path, issues, error);
}

typedef struct
{
  char         *path;
  GPtrArray    *issues;
} Load;

static void
load_free (Load *load)
{
  g_free (load->path);
  g_clear_pointer (&load->issues, g_ptr_array_unref);
  g_free (load);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Load *load = task_data;
  GError *error = NULL;
  VivaExamFile *exam = viva_exam_file_load (load->path, &load->issues, &error);

  if (exam == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, exam, g_object_unref);
}

/**
 * viva_exam_file_load_async:
 * @path: the exam file
 *
 * Reads and checks the exam file on a worker thread.
 */
void
viva_exam_file_load_async (const char          *path,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Load *load = g_new0 (Load, 1);

  g_return_if_fail (path != NULL);

  load->path = g_strdup (path);
  g_task_set_source_tag (task, viva_exam_file_load_async);
  g_task_set_task_data (task, load, (GDestroyNotify)load_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * viva_exam_file_load_finish:
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue)
 *
 * Returns: (transfer full) (nullable): the exam
 */
VivaExamFile *
viva_exam_file_load_finish (GAsyncResult  *result,
                            GPtrArray    **issues,
                            GError       **error)
{
  Load *load;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  load = g_task_get_task_data (G_TASK (result));
  if (issues != NULL)
    *issues = load->issues ? g_ptr_array_ref (load->issues) : NULL;

  return g_task_propagate_pointer (G_TASK (result), error);
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
 * viva_exam_file_to_ref:
 *
 * Returns: (transfer full): `{"path", "digest", "id", "title",
 *   "pack_embedded"}`, what a
 *   session keeps of the exam instead of its contents
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
