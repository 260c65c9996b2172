/* viva-class-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-csv-private.h"
#include "viva-class-results.h"
#include "viva-html.h"

/* The class results written out: a CSV with one row per report (the
 * columns of VIVA_CLASS_CSV_HEADER), a gradebook CSV with one row per
 * student and a column per problem in the shape Canvas and Moodle import
 * (README "Class results"), and one self-contained HTML page. */

/**
 * viva_class_results_to_csv:
 *
 * Returns: (transfer full): one row per report, header
 *   the column names, CRLF line ends, UTF-8; `score` is the grade (the
 *   teacher's score where there is one, else the final score),
 *   `model_score` the examiner's, `hint_cost` what one hint cost,
 *   `viva_score` the final score and `teacher_score` the teacher's
 */
char *
viva_class_results_to_csv (VivaClassResults *self)
{
  GListModel *reports = viva_class_results_get_reports (self);
  g_autoptr(GString) csv = g_string_new (NULL);
  guint n = g_list_model_get_n_items (reports);

  _viva_class_csv_header (csv);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);

      _viva_class_csv_row (csv, report);
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
 * One row per student, one column per problem holding the teacher's score
 * of the student's report for it where the teacher gave one, else the final
 * score (0–100: the examiner's, less what the hints viewed cost when the
 * exam gave them a cost), empty where there is
 * none or where two reports claim it (`duplicate-claim`). The first five columns are those Canvas's gradebook import reads
 * (`Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`); the student
 * id goes in `SIS User ID`, which Moodle's CSV import maps to "ID number".
 * Unreadable reports are left out, and so are those that name no student
 * and, when an exam was given, those of practice or of another exam
 * (viva_class_report_get_in_gradebook()).
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

      gboolean claimed_twice = viva_class_report_has_flag (report, VIVA_CLASS_FLAG_DUPLICATE_CLAIM);

      /* Practice reports, other exams' and reports naming no student
       * give nobody a grade (their rows say so). */
      if (!viva_class_report_get_in_gradebook (report))
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

      /* Two reports claiming one student's problem: neither is taken
       * over the other, the cell stays empty until the teacher keeps one
       * (both rows are flagged `duplicate-claim`). */
      g_hash_table_insert (student->scores, g_strdup (problem_id),
                           claimed_twice ? g_strdup ("") : _viva_class_csv_format_score (viva_class_report_get_graded_score (report)));
    }

  g_ptr_array_sort (problems, (GCompareFunc)g_strcmp0);
  for (guint p = 0; p < problems->len; p++)
    {
      const char *problem_id = g_ptr_array_index (problems, p);
      g_autofree char *header = g_strdup_printf ("%s (%s)", (char *)g_hash_table_lookup (titles, problem_id), problem_id);

      g_string_append_c (csv, ',');
      _viva_class_csv_append_cell (csv, header, "");
    }
  g_string_append (csv, "\r\n");

  for (guint s = 0; s < students->len; s++)
    {
      Student *student = g_ptr_array_index (students, s);

      /* Student, ID (Canvas's own, unknown here), SIS User ID, SIS Login ID, Section */
      _viva_class_csv_append_cell (csv, student->name, ",,");
      _viva_class_csv_append_cell (csv, student->id, ",,");
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
append_td (GString    *html,
           const char *text)
{
  g_string_append (html, "<td>");
  viva_html_append_escaped (html, text, -1);
  g_string_append (html, "</td>");
}

static char *
fraction (int passed,
          int total)
{
  return total >= 0 ? g_strdup_printf ("%d/%d", passed, total) : g_strdup ("");
}

/* Each report's own page, made from its JSON (never an HTML file found
 * beside it: the student wrote that one), in a frame that runs no script:
 * `sandbox` with nothing allowed, and the page's CSP, which a srcdoc
 * frame also inherits from this one. */
static void
append_report_page (GString         *html,
                    VivaClassReport *report,
                    guint            index)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *page = viva_class_report_render_html (report, &error);
  g_autofree char *title = NULL;

  title = g_strdup_printf ("%s — %s", viva_class_report_get_student_name (report)[0] ? viva_class_report_get_student_name (report)
                                                                                         : viva_class_report_get_student_key (report),
                           viva_class_report_get_problem_title (report));
  g_string_append_printf (html, "<section id=\"report-%u\"><h2>", index);
  viva_html_append_escaped (html, title, -1);
  g_string_append (html, "</h2>\n");
  if (page == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The report cannot be shown: %s"), error->message);

      g_string_append (html, "<p class=\"note\">");
      viva_html_append_escaped (html, message, -1);
      g_string_append (html, "</p></section>\n");
      return;
    }

  g_string_append (html, "<iframe sandbox=\"\" referrerpolicy=\"no-referrer\" title=\"");
  viva_html_append_escaped (html, title, -1);
  g_string_append (html, "\" srcdoc=\"");
  viva_html_append_escaped (html, page, -1);
  g_string_append (html, "\"></iframe></section>\n");
}

/* The page but the reports' own pages: the summary, the table and the
 * statistics, from the rows as they are now (main thread, with the
 * window). @pages gets the rows whose pages follow. */
static GString *
begin_html (VivaClassResults *self,
            GPtrArray        *pages)
{
  GListModel *reports = viva_class_results_get_reports (self);
  GString *html = g_string_new (NULL);
  g_autoptr(GPtrArray) stats = viva_class_results_statistics (self);
  guint n = g_list_model_get_n_items (reports);
  g_autofree char *summary = NULL;

  g_string_append_printf (html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
                          "<title>%s</title>\n",
                          _("Class results"));
  g_string_append (html, "<style>\n"
                   "body{font-family:Cantarell,'Noto Sans',sans-serif;margin:2em;color:#241f31}\n"
                   "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #deddda;padding:.3em .6em;text-align:left}\n"
                   "th{background:#f6f5f4}tr.flagged td{background:#fdf0d5}.pass{color:#26a269;font-weight:bold}.fail{color:#c01c28;font-weight:bold}\n"
                   ".note{color:#77767b;font-size:90%}\n"
                   "iframe{width:100%;height:80vh;border:1px solid #deddda}section{margin:2em 0}\n"
                   "</style></head><body>\n");
  g_string_append_printf (html, "<h1>%s</h1>\n<p>", _("Class results"));
  summary = g_strdup_printf (_("%u reports from %u students; %u flagged, %u unreadable."),
                             n, viva_class_results_count_students (self),
                             viva_class_results_count_flagged (self), viva_class_results_count_unreadable (self));
  viva_html_append_escaped (html, summary, -1);
  g_string_append (html, "</p>\n<table>\n<tr>");
  {
    const char *headers[] = { N_("Student"), N_("Student ID"), N_("Problem"), N_("Verdict"), N_("Score"),
                              N_("Hidden tests"), N_("Re-graded"), N_("Time"), N_("Hints"), N_("Flags"), N_("Report") };

    for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
      {
        g_string_append (html, "<th>");
        viva_html_append_escaped (html, _(headers[i]), -1);
        g_string_append (html, "</th>");
      }
  }
  g_string_append (html, "</tr>\n");

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);
      g_autofree char *score = _viva_class_csv_format_score (viva_class_report_get_score (report));
      g_autofree char *hidden = fraction (viva_class_report_get_hidden_passed (report), viva_class_report_get_hidden_total (report));
      g_autofree char *regraded = fraction (viva_class_report_get_regraded_passed (report), viva_class_report_get_regraded_total (report));
      g_autofree char *time = viva_class_report_describe_time (report);
      g_autofree char *hints = g_strdup_printf ("%u", viva_class_report_get_hints (report));
      g_autofree char *how = viva_class_report_describe_score (report);
      const char *verdict = viva_class_report_get_verdict (report);

      g_string_append_printf (html, "<tr%s>", viva_class_report_get_flags (report)[0] ? " class=\"flagged\"" : "");
      append_td (html, viva_class_report_get_student_name (report));
      append_td (html, viva_class_report_get_student_id (report));
      append_td (html, viva_class_report_get_problem_title (report));
      g_string_append_printf (html, "<td class=\"%s\">", g_str_equal (verdict, "pass") ? "pass" : g_str_equal (verdict, "fail") ? "fail" : "");
      viva_html_append_escaped (html, g_str_equal (verdict, "pass") ? _("pass") : g_str_equal (verdict, "fail") ? _("fail") : verdict, -1);
      g_string_append (html, "</td>");
      g_string_append (html, "<td>");
      viva_html_append_escaped (html, score, -1);
      if (how != NULL)
        {
          g_string_append (html, "<br><span class=\"note\">");
          viva_html_append_escaped (html, how, -1);
          g_string_append (html, "</span>");
        }
      if (viva_class_report_get_teacher_score (report) >= 0)
        {
          g_autofree char *teacher = _viva_class_csv_format_score (viva_class_report_get_teacher_score (report));
          const char *note = viva_class_report_get_teacher_note (report);
          /* Translators: the teacher's own score, shown beside Viva's */
          g_autofree char *line = note != NULL ? g_strdup_printf (_("Teacher: %s — %s"), teacher, note)
                                               : g_strdup_printf (_("Teacher: %s"), teacher);

          g_string_append (html, "<br><span class=\"teacher\">");
          viva_html_append_escaped (html, line, -1);
          g_string_append (html, "</span>");
        }
      g_string_append (html, "</td>");
      append_td (html, hidden);
      append_td (html, regraded);
      append_td (html, time);
      append_td (html, hints);
      g_string_append (html, "<td>");
      viva_html_append_escaped (html, viva_class_report_get_flags (report), -1);
      if (viva_class_report_get_note (report)[0] != '\0')
        {
          g_string_append (html, "<br><span class=\"note\">");
          viva_html_append_escaped (html, viva_class_report_get_note (report), -1);
          g_string_append (html, "</span>");
        }
      g_string_append (html, "</td><td>");
      if (viva_class_report_get_readable (report))
        {
          g_string_append_printf (html, "<a href=\"#report-%u\">", i);
          viva_html_append_escaped (html, _("Open"), -1);
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
  g_string_append (html, "</table>\n");

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (pages, g_list_model_get_item (reports, i));

  return html;
}

/* The reports' pages, each read again from its file and made from its
 * JSON: the slow part, which reads only what a row never changes (its
 * file, session, student and problem), so it may run in a thread. */
static char *
end_html (GString   *html,
          GPtrArray *pages)
{
  for (guint i = 0; i < pages->len; i++)
    if (viva_class_report_get_readable (g_ptr_array_index (pages, i)))
      append_report_page (html, g_ptr_array_index (pages, i), i);
  g_string_append (html, "</body></html>\n");

  return g_string_free (html, FALSE);
}

/**
 * viva_class_results_to_html:
 *
 * Returns: (transfer full): the class results as one self-contained page:
 *   the summary, every report with a link to its page below, the
 *   most-failed hidden tests and questions, and each report's page made
 *   from its JSON. Reads the report files again; blocks.
 */
char *
viva_class_results_to_html (VivaClassResults *self)
{
  g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func (g_object_unref);
  GString *html;

  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), NULL);

  html = begin_html (self, pages);
  return end_html (html, pages);
}

typedef struct
{
  GString   *html;
  GPtrArray *pages;
} HtmlJob;

static void
html_job_free (gpointer data)
{
  HtmlJob *job = data;

  if (job->html != NULL)
    g_string_free (job->html, TRUE);
  g_ptr_array_unref (job->pages);
  g_free (job);
}

static void
html_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  HtmlJob *job = task_data;
  GString *html = g_steal_pointer (&job->html);

  g_task_return_pointer (task, end_html (html, job->pages), g_free);
}

/**
 * viva_class_results_to_html_async:
 *
 * Like viva_class_results_to_html(), with the reports' pages read and
 * made in a thread: the table is taken from the rows now, on the calling
 * (main) thread.
 */
void
viva_class_results_to_html_async (VivaClassResults    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  HtmlJob *job;

  g_return_if_fail (VIVA_IS_CLASS_RESULTS (self));

  job = g_new0 (HtmlJob, 1);
  job->pages = g_ptr_array_new_with_free_func (g_object_unref);
  job->html = begin_html (self, job->pages);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_class_results_to_html_async);
  g_task_set_task_data (task, job, html_job_free);
  g_task_run_in_thread (task, html_thread);
}

/**
 * viva_class_results_to_html_finish:
 *
 * Returns: (transfer full) (nullable): the page
 */
char *
viva_class_results_to_html_finish (VivaClassResults  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
