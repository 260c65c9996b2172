/* viva-cli-lab-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "viva-cli-commands.h"
#include "viva-cli-remote.h"
#include "viva-cli-util.h"

/* viva-cli lab rehearse --server: a class rehearsed against an exam
 * server and the model server behind it. N scripted students, each with
 * a seat code from `viva-server codes EXAM --json` (--codes), at once:
 * sign in, autosave, Submit, follow the defense the server streams,
 * answer each question, until the verdict. What it measures is what a
 * student waits for: time from Submit to the examiner's first words on
 * the screen (TTFT, through the server), and the whole defense. The
 * students take the exam's problems in turn. */

#define ANSWER "It returns what the statement asks for, and I checked it on the examples."

typedef struct _Lab Lab;

typedef struct
{
  Lab                  *lab;
  guint                 index;
  char                 *student_id;
  char                 *code;
  char                 *problem;
  char                 *defense_id;
  VivaExamServerClient *client;
  VivaDefenseStream    *stream;
  JsonObject           *verdict;
  GError               *error;
  gint64                started;
  gint64                submitted;
  gint64                first_words;
  gint64                ended;
  guint                 questions;
  guint                 retries;
  char                 *seat_code;
  gboolean              done;
} Student;

struct _Lab
{
  GMainLoop    *loop;
  GCancellable *cancellable;
  GPtrArray    *students;
  char         *link;
  char         *code_text;
  gboolean      json;
  guint         running;
};

static void
student_free (Student *student)
{
  if (student->stream != NULL)
    g_signal_handlers_disconnect_by_data (student->stream, student);
  g_clear_object (&student->stream);
  g_clear_object (&student->client);
  g_free (student->student_id);
  g_free (student->code);
  g_free (student->problem);
  g_free (student->defense_id);
  g_free (student->seat_code);
  g_clear_pointer (&student->verdict, json_object_unref);
  g_clear_error (&student->error);
  g_free (student);
}

static double
ms_between (gint64 from,
            gint64 to)
{
  return from > 0 && to >= from ? (to - from) / 1000.0 : -1;
}

static void
finish (Student *student,
        GError  *error)
{
  Lab *lab = student->lab;
  g_autoptr(JsonObject) event = json_object_new ();

  if (student->done)
    {
      g_clear_error (&error);
      return;
    }
  student->done = TRUE;
  student->error = error;
  student->ended = g_get_monotonic_time ();

  json_object_set_string_member (event, "student", student->student_id);
  json_object_set_string_member (event, "problem", student->problem ? student->problem : "");
  json_object_set_string_member (event, "status", error == NULL && student->verdict ? "completed" : "failed");
  if (student->verdict != NULL && json_object_has_member (student->verdict, "verdict"))
    json_object_set_member (event, "verdict", json_object_dup_member (student->verdict, "verdict"));
  else
    json_object_set_null_member (event, "verdict");
  json_object_set_int_member (event, "questions", student->questions);
  json_object_set_int_member (event, "retries", student->retries);
  json_object_set_double_member (event, "ttft_ms", ms_between (student->submitted, student->first_words));
  json_object_set_double_member (event, "duration_s", ms_between (student->submitted, student->ended) / 1000);
  if (error != NULL)
    {
      JsonObject *e = json_object_new ();

      json_object_set_string_member (e, "kind", viva_remote_error_kind (error));
      json_object_set_string_member (e, "message", error->message);
      json_object_set_object_member (event, "error", e);
    }

  if (lab->json)
    viva_cli_print_event ("defense", event);
  else
    printf (_("Student %s (%s): %s, first words after %.0f ms, %.1f s in all\n"), student->student_id,
            student->problem ? student->problem : "?",
            error ? error->message : json_object_get_string_member_with_default (student->verdict, "verdict", _("handed in")),
            ms_between (student->submitted, student->first_words),
            ms_between (student->submitted, student->ended) / 1000);
  fflush (stdout);

  if (--lab->running == 0)
    g_main_loop_quit (lab->loop);
}

#define MAX_RETRIES 5

static void sign_in (Student *student);
static void save (Student *student);
static void submit (Student *student);

typedef struct
{
  Student *student;
  void   (*step) (Student *student);
} Retry;

static gboolean
retry_cb (gpointer user_data)
{
  Retry *retry = user_data;

  if (!retry->student->done && !g_cancellable_is_cancelled (retry->student->lab->cancellable))
    retry->step (retry->student);
  return G_SOURCE_REMOVE;
}

/* A server away or busy is what a student's app waits out and tries
 * again, so the rehearsal does the same (a second, two, … apart); any
 * other error ends the student's defense. */
static void
retry_or_finish (Student  *student,
                 GError   *error,
                 void    (*step) (Student *student))
{
  Retry *retry;

  if (!viva_remote_error_is_retryable (error) || student->retries >= MAX_RETRIES)
    return finish (student, error);

  g_clear_error (&error);
  student->retries++;
  retry = g_new0 (Retry, 1);
  retry->student = student;
  retry->step = step;
  g_timeout_add_full (G_PRIORITY_DEFAULT, 1000 * student->retries, retry_cb, retry, g_free);
}

static void
answer_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Student *student = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_exam_server_client_answer_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      !g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_REJECTED))
    finish (student, g_steal_pointer (&error));
}

static void
on_event (VivaDefenseStream *stream,
          gint64             seq,
          const char        *kind,
          JsonObject        *data,
          Student           *student)
{
  if (g_str_equal (kind, "content") && student->first_words == 0)
    student->first_words = g_get_monotonic_time ();
  else if (g_str_equal (kind, "question"))
    {
      student->questions++;
      viva_exam_server_client_answer_async (student->client, student->defense_id, ANSWER, seq,
                                            student->lab->cancellable, answer_cb, student);
    }
  else if (g_str_equal (kind, "verdict"))
    {
      g_clear_pointer (&student->verdict, json_object_unref);
      student->verdict = json_object_ref (data);
    }
}

static void
on_closed (VivaDefenseStream *stream,
           const GError      *error,
           Student           *student)
{
  if (error == NULL && student->verdict == NULL)
    finish (student, g_error_new_literal (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_REJECTED,
                                          _("The defense ended on the server without a verdict.")));
  else
    finish (student, error ? g_error_copy (error) : NULL);
}

static void
submit_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Student *student = user_data;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;

  if (!(answer = viva_exam_server_client_submit_finish (student->client, result, &error)))
    return retry_or_finish (student, g_steal_pointer (&error), submit);

  student->defense_id = g_strdup (json_object_get_string_member (json_object_get_object_member (answer, "defense"), "id"));
  student->stream = viva_defense_stream_new (student->client, student->defense_id, 0);
  g_signal_connect (student->stream, "event", G_CALLBACK (on_event), student);
  g_signal_connect (student->stream, "closed", G_CALLBACK (on_closed), student);
  viva_defense_stream_start (student->stream);
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Student *student = user_data;
  g_autoptr(JsonObject) saved = NULL;
  g_autoptr(GError) error = NULL;

  if (!(saved = viva_exam_server_client_save_code_finish (student->client, result, &error)))
    return retry_or_finish (student, g_steal_pointer (&error), save);

  student->submitted = g_get_monotonic_time ();
  submit (student);
}

static void
submit (Student *student)
{
  viva_exam_server_client_submit_async (student->client, student->problem, student->code,
                                        student->lab->cancellable, submit_cb, student);
}

static void
signed_in_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Student *student = user_data;
  Lab *lab = student->lab;
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  JsonArray *problems;
  JsonObject *problem;

  if (!(token = viva_exam_server_client_sign_in_finish (student->client, result, &sitting, &error)))
    return retry_or_finish (student, g_steal_pointer (&error), sign_in);

  problems = json_object_get_array_member (sitting, "problems");
  if (problems == NULL || json_array_get_length (problems) == 0)
    return finish (student, g_error_new_literal (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL,
                                                 _("The exam server gave a sitting with no problems.")));

  /* The problems in turn; the code given, else the problem's starter. */
  problem = json_array_get_object_element (problems, student->index % json_array_get_length (problems));
  student->problem = g_strdup (json_object_get_string_member_with_default (problem, "id", ""));
  student->code = g_strdup (lab->code_text ? lab->code_text
                                           : json_object_get_string_member_with_default (problem, "starter_code", ""));
  save (student);
}

static void
save (Student *student)
{
  viva_exam_server_client_save_code_async (student->client, student->problem, student->code, VIVA_CODE_KIND_AUTOSAVE,
                                           student->lab->cancellable, saved_cb, student);
}

static void
sign_in (Student *student)
{
  viva_exam_server_client_sign_in_async (student->client, student->student_id, student->seat_code,
                                         student->lab->cancellable, signed_in_cb, student);
}

/* The link student @index starts from: a link with several addresses
 * (one per node) lists them from the index's one round, so the class is
 * spread over the nodes as a load balancer would spread it, and each
 * student still tries the others in turn, as the app does. A link that
 * is not `viva://A,B…/rest` is used as it is (the client says what is
 * wrong with it). */
static char *
spread_link (const char *link,
             guint       index)
{
  const char *hosts = g_str_has_prefix (link, "viva://") ? link + strlen ("viva://") : NULL;
  const char *slash = hosts ? strchr (hosts, '/') : NULL;
  g_autofree char *list = NULL;
  g_auto(GStrv) addresses = NULL;
  g_autoptr(GString) out = NULL;
  guint n;

  if (slash == NULL)
    return g_strdup (link);
  list = g_strndup (hosts, slash - hosts);
  addresses = g_strsplit (list, ",", -1);
  if ((n = g_strv_length (addresses)) < 2)
    return g_strdup (link);

  out = g_string_new ("viva://");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%s", i ? "," : "", addresses[(index + i) % n]);
  g_string_append (out, slash);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The `code` events of `viva-server codes EXAM --json`, in their order. */
static GPtrArray *
load_codes (const char  *path,
            GError     **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) codes = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = lines[i][0] ? json_from_string (lines[i], NULL) : NULL;
      JsonObject *object;
      const char *id, *code;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      object = json_node_get_object (node);
      if (g_strcmp0 (json_object_get_string_member_with_default (object, "event", NULL), "code") != 0 ||
          !(id = json_object_get_string_member_with_default (object, "student_id", NULL)) ||
          !(code = json_object_get_string_member_with_default (object, "code", NULL)))
        continue;
      {
        char *pair[] = { (char *)id, (char *)code, NULL };

        g_ptr_array_add (codes, g_strdupv (pair));
      }
    }
  if (codes->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s holds no seat codes: write it with “viva-server codes EXAM-ID --json”."), path);
      return NULL;
    }
  return g_steal_pointer (&codes);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static JsonObject *
percentiles (GArray *values)
{
  JsonObject *object = json_object_new ();

  g_array_sort (values, compare_doubles);
  if (values->len == 0)
    {
      json_object_set_null_member (object, "p50");
      json_object_set_null_member (object, "p95");
      return object;
    }
  json_object_set_double_member (object, "p50", g_array_index (values, double, (values->len - 1) / 2));
  json_object_set_double_member (object, "p95", g_array_index (values, double, MIN (values->len - 1, (guint)(values->len * 0.95))));
  return object;
}

static gboolean
sigint_cb (gpointer user_data)
{
  Lab *lab = user_data;

  g_cancellable_cancel (lab->cancellable);
  g_main_loop_quit (lab->loop);
  return G_SOURCE_CONTINUE;
}

int
viva_cli_lab_rehearse_server (int    argc,
                              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) codes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) ttft = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(JsonObject) summary = json_object_new ();
  g_autofree char *link = NULL;
  g_autofree char *teacher_token = NULL;
  g_autofree char *codes_path = NULL;
  g_autofree char *code_path = NULL;
  Lab lab = { 0 };
  int students = 0;
  guint completed = 0;
  gboolean json = FALSE;
  gint64 started;
  guint sigint_id;
  int status;
  GOptionEntry entries[] = {
    { "server", 0, 0, G_OPTION_ARG_STRING, &link, N_("The exam link (viva://HOST:PORT/EXAM-ID#sha256=…)"), N_("LINK") },
    { "teacher-token", 0, 0, G_OPTION_ARG_STRING, &teacher_token, N_("The exam’s teacher token: the class is checked with it at the end"), N_("TOKEN") },
    { "codes", 0, 0, G_OPTION_ARG_FILENAME, &codes_path, N_("The seat codes, as “viva-server codes EXAM-ID --json” writes them"), N_("FILE") },
    { "students", 0, 0, G_OPTION_ARG_INT, &students, N_("How many students defend at once"), N_("N") },
    { "code", 0, 0, G_OPTION_ARG_FILENAME, &code_path, N_("The code every student submits (default: each problem’s starter code)"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("— N students sit the exam on an exam server at once"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;
  if (argc != 1 || link == NULL || teacher_token == NULL || codes_path == NULL || students < 1 || students > 1000)
    {
      viva_cli_usage_error (context, "%s", _("Give --server, --teacher-token, --codes and --students N (1 to 1000)."));
      return VIVA_CLI_EXIT_USAGE;
    }
  {
    g_autoptr(VivaExamServerClient) probe = viva_cli_remote_client (link, teacher_token, &error);

    if (probe == NULL)
      {
        viva_cli_usage_error (context, "%s", error->message);
        return VIVA_CLI_EXIT_USAGE;
      }
  }
  if (!(codes = load_codes (codes_path, &error)))
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  if ((guint)students > codes->len)
    {
      viva_cli_usage_error (context, _("The roster has %u students: give --students %u or fewer."), codes->len, codes->len);
      return VIVA_CLI_EXIT_USAGE;
    }
  if (code_path != NULL && !(lab.code_text = viva_cli_read_code (code_path, &error)))
    {
      viva_cli_fail (_("Could not read the code: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  lab.loop = g_main_loop_new (NULL, FALSE);
  lab.cancellable = g_cancellable_new ();
  lab.students = g_ptr_array_new_with_free_func ((GDestroyNotify)student_free);
  lab.json = json;
  lab.link = link;
  started = g_get_monotonic_time ();

  for (int i = 0; i < students; i++)
    {
      Student *student = g_new0 (Student, 1);
      char **pair = g_ptr_array_index (codes, i);

      student->lab = &lab;
      student->index = i;
      student->student_id = g_strdup (pair[0]);
      student->seat_code = g_strdup (pair[1]);
      {
        g_autofree char *own = spread_link (link, (guint)i);

        student->client = viva_cli_remote_client (own, NULL, NULL);
      }
      student->started = g_get_monotonic_time ();
      g_ptr_array_add (lab.students, student);
      lab.running++;
      sign_in (student);
    }

  sigint_id = g_unix_signal_add (SIGINT, sigint_cb, &lab);
  g_main_loop_run (lab.loop);
  g_source_remove (sigint_id);

  for (guint i = 0; i < lab.students->len; i++)
    {
      Student *student = g_ptr_array_index (lab.students, i);
      double first = ms_between (student->submitted, student->first_words);
      double whole = ms_between (student->submitted, student->ended) / 1000;

      if (student->done && student->error == NULL && student->verdict != NULL)
        completed++;
      if (first >= 0)
        g_array_append_val (ttft, first);
      if (student->done && whole >= 0)
        g_array_append_val (durations, whole);
    }

  /* The class as the teacher sees it: how many reports the server kept. */
  {
    g_autoptr(VivaExamServerClient) teacher = viva_cli_remote_client (link, teacher_token, NULL);
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(JsonObject) class = NULL;
    g_autoptr(GError) status_error = NULL;
    g_autoptr(GArray) waits = g_array_new (FALSE, FALSE, sizeof (double));
    gint64 reports = 0;

    viva_exam_server_client_get_status_async (teacher, NULL, viva_cli_remote_store, &result);
    if ((class = viva_exam_server_client_get_status_finish (teacher, viva_cli_remote_wait (&result), &status_error)))
      {
        JsonArray *rows = json_object_get_array_member (class, "students");

        for (guint i = 0; rows != NULL && i < json_array_get_length (rows); i++)
          {
            JsonObject *row = json_array_get_object_element (rows, i);
            JsonObject *grades = json_object_has_member (row, "grades") ? json_object_get_object_member (row, "grades") : NULL;
            g_autoptr(GList) problems = grades ? json_object_get_members (grades) : NULL;

            reports += json_object_get_int_member_with_default (row, "reports", 0);
            /* Each submission's grading job: how long it waited for a
             * claimer in the server's queue, beside the first words. */
            for (GList *l = problems; l != NULL; l = l->next)
              {
                JsonObject *grade = json_object_get_object_member (grades, l->data);
                double wait;

                if (grade == NULL || !json_object_has_member (grade, "wait_ms"))
                  continue;
                wait = json_object_get_int_member (grade, "wait_ms");
                g_array_append_val (waits, wait);
              }
          }
        json_object_set_int_member (summary, "reports", reports);
        json_object_set_object_member (summary, "queue_wait_ms", percentiles (waits));
        json_object_set_int_member (summary, "jobs", waits->len);
      }
    else
      {
        json_object_set_null_member (summary, "reports");
        json_object_set_object_member (summary, "queue_wait_ms", percentiles (waits));
        viva_cli_remote_fail (status_error, json);
      }
  }
  json_object_set_int_member (summary, "students", students);
  json_object_set_int_member (summary, "completed", completed);
  json_object_set_int_member (summary, "failed", students - completed);
  json_object_set_boolean_member (summary, "interrupted", g_cancellable_is_cancelled (lab.cancellable));
  json_object_set_object_member (summary, "ttft_ms", percentiles (ttft));
  json_object_set_object_member (summary, "defense_s", percentiles (durations));
  json_object_set_double_member (summary, "duration_s", (g_get_monotonic_time () - started) / 1e6);
  if (json)
    viva_cli_print_event ("rehearsal", summary);
  else
    printf (_("%u of %d students finished their defense through the exam server; first words p50 %.0f ms.\n"),
            completed, students, json_object_get_null_member (json_object_get_object_member (summary, "ttft_ms"), "p50")
                                 ? -1.0 : json_object_get_double_member (json_object_get_object_member (summary, "ttft_ms"), "p50"));
  if (!json && json_object_has_member (summary, "queue_wait_ms") &&
      !json_object_get_null_member (json_object_get_object_member (summary, "queue_wait_ms"), "p50"))
    {
      JsonObject *waits = json_object_get_object_member (summary, "queue_wait_ms");

      printf (_("Their gradings waited in the server’s queue p50 %.0f ms, p95 %.0f ms.\n"),
              json_object_get_double_member (waits, "p50"), json_object_get_double_member (waits, "p95"));
    }

  g_clear_pointer (&lab.students, g_ptr_array_unref);
  g_clear_object (&lab.cancellable);
  g_clear_pointer (&lab.loop, g_main_loop_unref);
  g_free (lab.code_text);
  return completed == (guint)students ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;
}
