/* viva-cli-lab.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "viva-cli-commands.h"
#include "viva-cli-util.h"
#include "viva-json-member.h"
#include "viva-model-error.h"
#include "viva-pack.h"
#include "viva-rehearsal.h"
#include "viva-settings.h"

/* viva-cli lab rehearse: a lab's exam before the exam. N scripted students
 * defend at once against the lab's model server; a line per defense, then
 * the figures an admin needs to know whether the server holds the class.
 * A progress line goes to standard error while it runs. */

#define DEFAULT_PROBLEMS 4

typedef struct
{
  VivaRehearsal *rehearsal;
  GCancellable  *cancellable;
  GMainLoop     *loop;
  GAsyncResult  *result;
  gboolean       json;
  gboolean       tty;
  gboolean       progress_shown;
  gint64         started;
} Lab;

static void
clear_progress (Lab *lab)
{
  if (lab->tty && lab->progress_shown)
    g_printerr ("\r\033[K");
  lab->progress_shown = FALSE;
}

static gboolean
progress_cb (gpointer user_data)
{
  Lab *lab = user_data;
  VivaRehearsal *rehearsal = lab->rehearsal;
  guint seconds = (guint)((g_get_monotonic_time () - lab->started) / G_USEC_PER_SEC);
  g_autofree char *line = NULL;

  /* Without a terminal, a line every ten seconds rather than a redraw;
   * nothing before the first student starts, so a server that is not
   * there stays one line. */
  if ((!lab->tty && (seconds == 0 || seconds % 10 != 0)) ||
      viva_rehearsal_get_n_running (rehearsal) + viva_rehearsal_get_n_completed (rehearsal) +
      viva_rehearsal_get_n_failed (rehearsal) == 0)
    return G_SOURCE_CONTINUE;

  line = g_strdup_printf (_("Rehearsal: %u running (%u waiting for a busy server), %u completed, %u failed — %u s"),
                          viva_rehearsal_get_n_running (rehearsal), viva_rehearsal_get_n_busy (rehearsal),
                          viva_rehearsal_get_n_completed (rehearsal), viva_rehearsal_get_n_failed (rehearsal),
                          seconds);
  if (lab->tty)
    g_printerr ("\r\033[K%s", line);
  else
    g_printerr ("%s\n", line);
  lab->progress_shown = TRUE;

  return G_SOURCE_CONTINUE;
}

static double
member_double (JsonObject *object,
               const char *name,
               const char *inner)
{
  double value = 0;

  viva_json_member_number (viva_json_member_object (object, name), inner, &value);
  return value;
}

static void
on_defense (VivaRehearsal *rehearsal,
            JsonObject    *event,
            Lab           *lab)
{
  const char *status = json_object_get_string_member (event, "status");

  clear_progress (lab);

  if (lab->json)
    return viva_cli_print_event ("defense", event);

  if (g_str_equal (status, "failed"))
    printf (_("Student %d (%s, %s): failed after %.1f s — %s\n"),
            (int)json_object_get_int_member (event, "student"),
            json_object_get_string_member (event, "problem"),
            json_object_get_string_member (event, "variant"),
            json_object_get_double_member (event, "duration_s"),
            json_object_get_string_member (json_object_get_object_member (event, "error"), "message"));
  else if (g_str_equal (status, "cancelled"))
    printf (_("Student %d (%s, %s): stopped after %.1f s\n"),
            (int)json_object_get_int_member (event, "student"),
            json_object_get_string_member (event, "problem"),
            json_object_get_string_member (event, "variant"),
            json_object_get_double_member (event, "duration_s"));
  else
    printf (_("Student %d (%s, %s): verdict %s — %d turns in %.1f s, first token p50 %.1f s, %.0f tokens/s, %d retries\n"),
            (int)json_object_get_int_member (event, "student"),
            json_object_get_string_member (event, "problem"),
            json_object_get_string_member (event, "variant"),
            json_object_get_string_member (event, "verdict"),
            (int)json_object_get_int_member (event, "turns"),
            json_object_get_double_member (event, "duration_s"),
            member_double (event, "ttft_ms", "p50") / 1000,
            json_object_get_double_member (event, "tokens_per_s"),
            (int)json_object_get_int_member (event, "retries"));
  fflush (stdout);
}

static void
print_summary (JsonObject *summary)
{
  JsonArray *failures = json_object_get_array_member (summary, "failures");
  guint students = json_object_get_int_member (summary, "students");

  printf ("\n");
  printf (_("Rehearsal of %u students at %s (%s): %d completed, %d failed, in %.0f s.\n"),
          students, json_object_get_string_member (summary, "base_url"),
          json_object_get_string_member (summary, "model"),
          (int)json_object_get_int_member (summary, "completed"),
          (int)json_object_get_int_member (summary, "failed"),
          json_object_get_double_member (summary, "duration_s"));
  printf (_("  Time to first token: p50 %.1f s, p95 %.1f s\n"),
          member_double (summary, "ttft_ms", "p50") / 1000, member_double (summary, "ttft_ms", "p95") / 1000);
  printf (_("  Turn latency: p50 %.1f s, p95 %.1f s\n"),
          member_double (summary, "turn_ms", "p50") / 1000, member_double (summary, "turn_ms", "p95") / 1000);
  printf (_("  Defense duration: p50 %.0f s, p95 %.0f s\n"),
          member_double (summary, "defense_s", "p50"), member_double (summary, "defense_s", "p95"));
  printf (_("  Generated: %d tokens in %d turns, %.0f tokens/s for the whole lab\n"),
          (int)json_object_get_int_member (summary, "tokens"), (int)json_object_get_int_member (summary, "turns"),
          json_object_get_double_member (summary, "tokens_per_s"));
  printf (_("  Retries: %d; largest prompt: %d tokens; Python workers: %d\n"),
          (int)json_object_get_int_member (summary, "retries"),
          (int)json_object_get_int_member (summary, "largest_prompt_tokens"),
          (int)json_object_get_int_member (summary, "workers"));

  for (guint i = 0; i < json_array_get_length (failures); i++)
    {
      JsonObject *failure = json_array_get_object_element (failures, i);

      printf (_("  %d × %s\n"), (int)json_object_get_int_member (failure, "count"),
              json_object_get_string_member (failure, "reason"));
    }

  if (json_object_get_boolean_member (summary, "interrupted"))
    printf ("%s\n", _("Interrupted: these figures are of the defenses that had finished."));
  else if (json_object_get_boolean_member (summary, "held"))
    printf (_("The server held %u students at once.\n"), students);
  else
    printf (_("The server did not hold %u students: %d of %d defenses failed.\n"), students,
            (int)json_object_get_int_member (summary, "failed"),
            (int)json_object_get_int_member (summary, "defenses"));
  fflush (stdout);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Lab *lab = user_data;

  lab->result = g_object_ref (result);
  g_main_loop_quit (lab->loop);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  Lab *lab = user_data;

  g_cancellable_cancel (lab->cancellable);
  return G_SOURCE_CONTINUE;
}

static gboolean
add_problems (VivaRehearsal  *rehearsal,
              VivaPack       *pack,
              const char     *ids,
              GError        **error)
{
  GListModel *problems = viva_pack_get_problems (pack);

  if (ids == NULL)
    {
      for (guint i = 0; i < MIN (DEFAULT_PROBLEMS, g_list_model_get_n_items (problems)); i++)
        {
          g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);

          viva_rehearsal_add_problem (rehearsal, problem);
        }
      return TRUE;
    }
  else
    {
      g_auto(GStrv) names = g_strsplit (ids, ",", -1);

      for (guint i = 0; names[i] != NULL; i++)
        {
          VivaProblem *problem = viva_pack_find_problem (pack, g_strstrip (names[i]));

          if (problem == NULL)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("The pack “%s” has no problem “%s”."), viva_pack_get_id (pack), names[i]);
              return FALSE;
            }
          viva_rehearsal_add_problem (rehearsal, problem);
        }
      return TRUE;
    }
}

static int
rehearse (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model = NULL;
  g_autofree char *problems = NULL;
  g_autofree char *pack_path = NULL;
  g_autofree char *answer_with = NULL;
  g_auto(GStrv) answer_argv = NULL;
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(VivaRehearsal) rehearsal = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GError) error = NULL;
  VivaSettings *settings = viva_settings_get_default ();
  Lab lab = { 0 };
  int students = 0;
  int duration = 0;
  gboolean json = FALSE;
  guint progress_id;
  guint sigint_id;
  int status;
  GOptionEntry entries[] = {
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, N_("The lab’s endpoint (default: the configured one)"), N_("URL") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_("The model (default: the configured one, then the endpoint’s first)"), N_("M") },
    { "students", 0, 0, G_OPTION_ARG_INT, &students, N_("How many students defend at once"), N_("N") },
    { "problems", 0, 0, G_OPTION_ARG_STRING, &problems, N_("Problem ids, separated by commas (default: the pack’s first four)"), N_("IDS") },
    { "pack", 0, 0, G_OPTION_ARG_FILENAME, &pack_path, N_("The problem pack (default: the bundled one)"), N_("FILE") },
    { "duration", 0, 0, G_OPTION_ARG_INT, &duration, N_("Keep starting new defenses for this many seconds (default: one each)"), N_("S") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { "answer-with", 0, 0, G_OPTION_ARG_STRING, &answer_with, N_("A program that answers each question: the question as one JSON object on its standard input (text, kind, and for a prediction the call), the answer on its standard output"), N_("PROGRAM") },
    { NULL }
  };

  context = g_option_context_new (_("— N students defend at once against the lab’s model server"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (answer_with != NULL && !g_shell_parse_argv (answer_with, NULL, &answer_argv, &error))
    {
      viva_cli_usage_error (context, _("--answer-with is not a command line: %s"), error->message);
      return VIVA_CLI_EXIT_USAGE;
    }

  if (argc != 1 || students < 1 || students > 1000 || duration < 0)
    {
      viva_cli_usage_error (context, "%s", _("Give --students N (1 to 1000), and nothing else but options."));
      return VIVA_CLI_EXIT_USAGE;
    }

  if (base_url == NULL)
    base_url = g_strdup (viva_settings_get_base_url (settings));
  if (model == NULL && viva_settings_get_model (settings) != NULL && *viva_settings_get_model (settings) != '\0')
    model = g_strdup (viva_settings_get_model (settings));

  if (pack_path != NULL)
    {
      g_autofree char *text = NULL;
      g_autoptr(GBytes) bytes = NULL;
      gsize length;

      if (!g_file_get_contents (pack_path, &text, &length, &error) ||
          !(pack = viva_pack_new_from_bytes ((bytes = g_bytes_new_take (g_steal_pointer (&text), length)), &error)))
        {
          viva_cli_fail (_("Could not load the pack %s: %s"), pack_path, error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
    }
  else
    pack = viva_pack_new_bundled ();

  rehearsal = viva_rehearsal_new (base_url, model, (guint)students);
  viva_rehearsal_set_duration (rehearsal, (guint)duration);
  /* The scripted students answer as `defend --answer-with` has a program answer. */
  viva_rehearsal_set_answer_program (rehearsal, (const char * const *)answer_argv);
  if (!add_problems (rehearsal, pack, problems, &error))
    {
      viva_cli_usage_error (NULL, "%s", error->message);
      return VIVA_CLI_EXIT_USAGE;
    }

  lab.rehearsal = rehearsal;
  lab.cancellable = cancellable;
  lab.loop = loop;
  lab.json = json;
  lab.tty = isatty (STDERR_FILENO);
  lab.started = g_get_monotonic_time ();

  g_signal_connect (rehearsal, "defense", G_CALLBACK (on_defense), &lab);
  sigint_id = g_unix_signal_add (SIGINT, interrupted_cb, &lab);
  progress_id = g_timeout_add_seconds (1, progress_cb, &lab);

  viva_rehearsal_run_async (rehearsal, cancellable, done_cb, &lab);
  g_main_loop_run (loop);

  g_source_remove (progress_id);
  g_source_remove (sigint_id);
  clear_progress (&lab);

  if (!(summary = viva_rehearsal_run_finish (rehearsal, lab.result, &error)))
    {
      g_clear_object (&lab.result);
      if (json)
        {
          g_autoptr(JsonObject) event = json_object_new ();

          json_object_set_string_member (event, "kind", viva_model_error_kind (error));
          json_object_set_string_member (event, "message", error->message);
          viva_cli_print_event ("error", event);
        }
      viva_cli_fail (_("No student was started: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  g_clear_object (&lab.result);

  if (json)
    viva_cli_print_event ("rehearsal", summary);
  else
    print_summary (summary);

  return json_object_get_boolean_member (summary, "held") ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;
}

int
viva_cli_lab (int    argc,
              char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "rehearse"))
    {
      /* A rehearsal against an exam server is a command of its own. */
      for (int i = 2; i < argc; i++)
        if (g_str_equal (argv[i], "--server") || g_str_has_prefix (argv[i], "--server="))
          return viva_cli_lab_rehearse_server (argc - 1, argv + 1);
      return rehearse (argc - 1, argv + 1);
    }

  viva_cli_usage_error (NULL, "%s", _("Usage: viva-cli lab rehearse --students N [--base-url URL] [--model M] [--problems IDS] [--duration S] [--json]"));
  return VIVA_CLI_EXIT_USAGE;
}
