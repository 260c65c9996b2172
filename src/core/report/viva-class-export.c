/* viva-class-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-results.h"

/* The class results written out: a CSV with one row per report (the
 * columns of VIVA_CLASS_CSV_HEADER), a gradebook CSV with one row per
 * student and a column per problem in the shape Canvas and Moodle import
 * (README "Class results"), and one self-contained HTML page. */

/* RFC 4180 quoting; and a cell a spreadsheet would take for a formula
 * (a student may call themselves "=HYPERLINK(…)") starts with a quote. */
static void
append_cell (GString    *csv,
             const char *value,
             const char *after)
{
  const char *text = value ? value : "";
  gboolean formula = strchr ("=+-@\t\r", text[0]) != NULL && text[0] != '\0';
  gboolean quote = formula || strpbrk (text, ",\"\n\r") != NULL;

  if (quote)
    g_string_append_c (csv, '"');
  if (formula)
    g_string_append_c (csv, '\'');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (csv, '"');
      g_string_append_c (csv, *p);
    }
  if (quote)
    g_string_append_c (csv, '"');
  g_string_append (csv, after);
}

static void
append_count (GString *csv,
              int      value)
{
  if (value >= 0)
    g_string_append_printf (csv, "%d", value);
  g_string_append_c (csv, ',');
}

static char *
format_score (double score)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (score < 0)
    return g_strdup ("");

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.0f", score));
}

static char *
format_cost (double cost)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%g", MAX (0, cost)));
}

/**
 * viva_class_results_to_csv:
 *
 * Returns: (transfer full): one row per report, header
 *   %VIVA_CLASS_CSV_HEADER, CRLF line ends, UTF-8; `score` is the final
 *   score, `model_score` the examiner's and `hint_cost` what one hint cost
 */
char *
viva_class_results_to_csv (VivaClassResults *self)
{
  GListModel *reports = viva_class_results_get_reports (self);
  g_autoptr(GString) csv = g_string_new (VIVA_CLASS_CSV_HEADER "\r\n");
  guint n = g_list_model_get_n_items (reports);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);
      g_autofree char *score = format_score (viva_class_report_get_score (report));
      g_autofree char *model_score = format_score (viva_class_report_get_model_score (report));
      g_autofree char *hint_cost = format_cost (viva_class_report_get_hint_cost (report));

      append_cell (csv, viva_class_report_get_student_name (report), ",");
      append_cell (csv, viva_class_report_get_student_id (report), ",");
      append_cell (csv, viva_class_report_get_pack_id (report), ",");
      append_cell (csv, viva_class_report_get_problem_id (report), ",");
      append_cell (csv, viva_class_report_get_session (report), ",");
      append_cell (csv, viva_class_report_get_status (report), ",");
      append_cell (csv, viva_class_report_get_verdict (report), ",");
      append_cell (csv, score, ",");
      append_count (csv, viva_class_report_get_hidden_passed (report));
      append_count (csv, viva_class_report_get_hidden_total (report));
      append_count (csv, viva_class_report_get_regraded_passed (report));
      append_count (csv, viva_class_report_get_regraded_total (report));
      append_cell (csv, viva_class_report_get_flags (report), ",");
      append_cell (csv, viva_class_report_get_problem_title (report), ",");
      append_cell (csv, viva_class_report_get_started (report), ",");
      append_count (csv, viva_class_report_get_duration (report));
      g_string_append_printf (csv, "%u,", viva_class_report_get_hints (report));
      append_cell (csv, viva_class_report_get_path (report), ",");
      append_cell (csv, viva_class_report_get_note (report), ",");
      append_cell (csv, model_score, ",");
      append_cell (csv, hint_cost, "\r\n");
    }

  return g_string_free (g_steal_pointer (&csv), FALSE);
}

typedef struct
{
  char       *name;
  char       *id;
  GHashTable *scores;   /* problem id → score text */
} Student;

static void
student_free (gpointer data)
{
  Student *student = data;

  g_free (student->name);
  g_free (student->id);
  g_hash_table_unref (student->scores);
  g_free (student);
}

/**
 * viva_class_results_to_gradebook_csv:
 *
 * One row per student, one column per problem holding the final score
 * (0–100: the examiner's, less what the hints viewed cost when the exam
 * gave them a cost) of the student's latest report for it, empty where there is
 * none. The first five columns are those Canvas's gradebook import reads
 * (`Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`); the student
 * id goes in `SIS User ID`, which Moodle's CSV import maps to "ID number".
 * Unreadable reports are left out.
 *
 * Returns: (transfer full): the CSV, CRLF line ends, UTF-8
 */
char *
viva_class_results_to_gradebook_csv (VivaClassResults *self)
{
  GListModel *reports = viva_class_results_get_reports (self);
  g_autoptr(GString) csv = g_string_new ("Student,ID,SIS User ID,SIS Login ID,Section");
  g_autoptr(GPtrArray) students = g_ptr_array_new_with_free_func (student_free);
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) titles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint n = g_list_model_get_n_items (reports);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);
      const char *key = viva_class_report_get_student_key (report);
      const char *problem_id = viva_class_report_get_problem_id (report);
      Student *student;

      if (!viva_class_report_get_readable (report))
        continue;

      if (!g_hash_table_contains (titles, problem_id))
        {
          g_hash_table_insert (titles, g_strdup (problem_id), g_strdup (viva_class_report_get_problem_title (report)));
          g_ptr_array_add (problems, g_strdup (problem_id));
        }

      if (!(student = g_hash_table_lookup (by_key, key)))
        {
          student = g_new0 (Student, 1);
          student->name = g_strdup (viva_class_report_get_student_name (report));
          student->id = g_strdup (viva_class_report_get_student_id (report));
          student->scores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_ptr_array_add (students, student);
          g_hash_table_insert (by_key, g_strdup (key), student);
        }

      /* Reports are sorted by start within a student and problem: the
       * latest one is the one that counts. */
      g_hash_table_insert (student->scores, g_strdup (problem_id), format_score (viva_class_report_get_score (report)));
    }

  g_ptr_array_sort (problems, (GCompareFunc)g_strcmp0);
  for (guint p = 0; p < problems->len; p++)
    {
      const char *problem_id = g_ptr_array_index (problems, p);
      g_autofree char *header = g_strdup_printf ("%s (%s)", (char *)g_hash_table_lookup (titles, problem_id), problem_id);

      g_string_append_c (csv, ',');
      append_cell (csv, header, "");
    }
  g_string_append (csv, "\r\n");

  for (guint s = 0; s < students->len; s++)
    {
      Student *student = g_ptr_array_index (students, s);

      /* Student, ID (Canvas's own, unknown here), SIS User ID, SIS Login ID, Section */
      append_cell (csv, student->name, ",,");
      append_cell (csv, student->id, ",,");
      for (guint p = 0; p < problems->len; p++)
        {
          const char *score = g_hash_table_lookup (student->scores, g_ptr_array_index (problems, p));

          g_string_append_c (csv, ',');
          g_string_append (csv, score ? score : "");
        }
      g_string_append (csv, "\r\n");
    }

  return g_string_free (g_steal_pointer (&csv), FALSE);
}

static void
append_escaped (GString    *html,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text ? text : "", -1);

  g_string_append (html, escaped);
}

static void
append_td (GString    *html,
           const char *text)
{
  g_string_append (html, "<td>");
  append_escaped (html, text);
  g_string_append (html, "</td>");
}

static char *
fraction (int passed,
          int total)
{
  return total >= 0 ? g_strdup_printf ("%d/%d", passed, total) : g_strdup ("");
}

static char *
report_link (VivaClassReport *report)
{
  const char *path = viva_class_report_get_path (report);
  g_autofree char *html = NULL;
  g_autofree char *absolute = NULL;

  if (g_str_has_suffix (path, ".json"))
    {
      g_autofree char *stem = g_strndup (path, strlen (path) - 5);

      html = g_strconcat (stem, ".html", NULL);
      if (g_file_test (html, G_FILE_TEST_IS_REGULAR))
        path = html;
    }

  absolute = g_path_is_absolute (path) ? g_strdup (path) : g_canonicalize_filename (path, NULL);
  return g_filename_to_uri (absolute, NULL, NULL);
}

/**
 * viva_class_results_to_html:
 *
 * Returns: (transfer full): the class results as one self-contained page:
 *   the summary, every report with links to the report files, and the
 *   most-failed hidden tests and questions
 */
char *
viva_class_results_to_html (VivaClassResults *self)
{
  GListModel *reports = viva_class_results_get_reports (self);
  g_autoptr(GString) html = g_string_new (NULL);
  g_autoptr(GPtrArray) stats = viva_class_results_statistics (self);
  guint n = g_list_model_get_n_items (reports);
  g_autofree char *summary = NULL;

  g_string_append_printf (html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>%s</title>\n",
                          _("Class results"));
  g_string_append (html, "<style>\n"
                   "body{font-family:Cantarell,'Noto Sans',sans-serif;margin:2em;color:#241f31}\n"
                   "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #deddda;padding:.3em .6em;text-align:left}\n"
                   "th{background:#f6f5f4}tr.flagged td{background:#fdf0d5}.pass{color:#26a269;font-weight:bold}.fail{color:#c01c28;font-weight:bold}\n"
                   ".note{color:#77767b;font-size:90%}\n"
                   "</style></head><body>\n");
  g_string_append_printf (html, "<h1>%s</h1>\n<p>", _("Class results"));
  summary = g_strdup_printf (_("%u reports from %u students; %u flagged, %u unreadable."),
                             n, viva_class_results_count_students (self),
                             viva_class_results_count_flagged (self), viva_class_results_count_unreadable (self));
  append_escaped (html, summary);
  g_string_append (html, "</p>\n<table>\n<tr>");
  {
    const char *headers[] = { N_("Student"), N_("Student ID"), N_("Problem"), N_("Verdict"), N_("Score"),
                              N_("Hidden tests"), N_("Re-graded"), N_("Time"), N_("Hints"), N_("Flags"), N_("Report") };

    for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
      {
        g_string_append (html, "<th>");
        append_escaped (html, _(headers[i]));
        g_string_append (html, "</th>");
      }
  }
  g_string_append (html, "</tr>\n");

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);
      g_autofree char *score = format_score (viva_class_report_get_score (report));
      g_autofree char *hidden = fraction (viva_class_report_get_hidden_passed (report), viva_class_report_get_hidden_total (report));
      g_autofree char *regraded = fraction (viva_class_report_get_regraded_passed (report), viva_class_report_get_regraded_total (report));
      g_autofree char *time = viva_class_report_describe_time (report);
      g_autofree char *hints = g_strdup_printf ("%u", viva_class_report_get_hints (report));
      g_autofree char *link = report_link (report);
      g_autofree char *how = viva_class_report_describe_score (report);
      const char *verdict = viva_class_report_get_verdict (report);

      g_string_append_printf (html, "<tr%s>", viva_class_report_get_flags (report)[0] ? " class=\"flagged\"" : "");
      append_td (html, viva_class_report_get_student_name (report));
      append_td (html, viva_class_report_get_student_id (report));
      append_td (html, viva_class_report_get_problem_title (report));
      g_string_append_printf (html, "<td class=\"%s\">", g_str_equal (verdict, "pass") ? "pass" : g_str_equal (verdict, "fail") ? "fail" : "");
      append_escaped (html, g_str_equal (verdict, "pass") ? _("pass") : g_str_equal (verdict, "fail") ? _("fail") : verdict);
      g_string_append (html, "</td>");
      g_string_append (html, "<td>");
      append_escaped (html, score);
      if (how != NULL)
        {
          g_string_append (html, "<br><span class=\"note\">");
          append_escaped (html, how);
          g_string_append (html, "</span>");
        }
      g_string_append (html, "</td>");
      append_td (html, hidden);
      append_td (html, regraded);
      append_td (html, time);
      append_td (html, hints);
      g_string_append (html, "<td>");
      append_escaped (html, viva_class_report_get_flags (report));
      if (viva_class_report_get_note (report)[0] != '\0')
        {
          g_string_append (html, "<br><span class=\"note\">");
          append_escaped (html, viva_class_report_get_note (report));
          g_string_append (html, "</span>");
        }
      g_string_append (html, "</td><td>");
      if (link != NULL)
        {
          g_string_append (html, "<a href=\"");
          append_escaped (html, link);
          g_string_append (html, "\">");
          append_escaped (html, _("Open"));
          g_string_append (html, "</a>");
        }
      g_string_append (html, "</td></tr>\n");
    }
  g_string_append (html, "</table>\n");

  g_string_append_printf (html, "<h2>%s</h2>\n<table><tr><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                          _("What the class failed most"), _("Problem"), _("Hidden test or question"), _("Failed"));
  for (guint i = 0; i < stats->len; i++)
    {
      VivaClassStat *stat = g_ptr_array_index (stats, i);
      g_autofree char *failed = g_strdup_printf ("%u/%u", stat->failed, stat->total);
      g_autofree char *name = stat->is_question ? g_strdup_printf (_("Question: %s"), stat->name) : g_strdup (stat->name);

      g_string_append (html, "<tr>");
      append_td (html, stat->problem_id);
      append_td (html, name);
      append_td (html, failed);
      g_string_append (html, "</tr>\n");
    }
  g_string_append (html, "</table>\n</body></html>\n");

  return g_string_free (g_steal_pointer (&html), FALSE);
}
