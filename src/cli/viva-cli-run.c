/* viva-cli-run.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

#include "viva-cli-commands.h"
#include "viva-cli-util.h"
#include "viva-runner.h"

/* viva-cli run FILE [--timeout S] [--json]: the student's Run button,
 * headless. Output streams as it comes; the result decides the exit status
 * (0 only for ok). */

typedef struct
{
  GMainLoop     *loop;
  VivaRunResult *result;
  GError        *error;
  gboolean       json;
} RunState;

static void
print_text_event (const char *event,
                  const char *text)
{
  g_autoptr(JsonObject) object = json_object_new ();

  json_object_set_string_member (object, "text", text);
  viva_cli_print_event (event, object);
}

static void
on_stdout (VivaRunner *runner,
           const char *text,
           RunState   *state)
{
  if (state->json)
    print_text_event ("stdout", text);
  else
    {
      fputs (text, stdout);
      fflush (stdout);
    }
}

static void
on_stderr (VivaRunner *runner,
           const char *text,
           RunState   *state)
{
  if (state->json)
    print_text_event ("stderr", text);
  else
    {
      fputs (text, stderr);
      fflush (stderr);
    }
}

static void
on_image (VivaRunner *runner,
          GBytes     *png,
          RunState   *state)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (png, &size);

  if (state->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autofree char *encoded = g_base64_encode (data, size);

      json_object_set_string_member (object, "mime", "image/png");
      json_object_set_string_member (object, "data", encoded);
      viva_cli_print_event ("image", object);
    }
  else
    {
      g_autofree char *formatted = g_format_size (size);

      /* Translators: %s is a size such as “24.1 kB” */
      fprintf (stderr, _("[A figure was drawn (%s of PNG); run with --json to receive it.]\n"), formatted);
    }
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  RunState *state = user_data;

  state->result = viva_runner_run_finish (VIVA_RUNNER (object), result, &state->error);
  g_main_loop_quit (state->loop);
}

static gboolean
on_interrupt (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_CONTINUE;
}

static void
print_result (VivaRunResult *result,
              gboolean       json)
{
  VivaRunStatus status = viva_run_result_get_status (result);

  if (json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "status", viva_run_status_to_string (status));
      json_object_set_int_member (object, "duration_ms", (gint64) (viva_run_result_get_duration_ms (result) + 0.5));
      if (status != VIVA_RUN_STATUS_OK)
        {
          JsonObject *error = json_object_new ();

          if (viva_run_result_get_error_type (result) != NULL)
            json_object_set_string_member (error, "type", viva_run_result_get_error_type (result));
          else
            json_object_set_null_member (error, "type");
          json_object_set_string_member (error, "message",
                                         viva_run_result_get_error_message (result)
                                           ? viva_run_result_get_error_message (result)
                                           : viva_run_result_get_summary (result));
          if (viva_run_result_get_error_line (result) > 0)
            json_object_set_int_member (error, "line", viva_run_result_get_error_line (result));
          else
            json_object_set_null_member (error, "line");
          json_object_set_object_member (object, "error", error);
          if (viva_run_result_get_traceback (result) != NULL)
            json_object_set_string_member (object, "traceback", viva_run_result_get_traceback (result));
          if (viva_run_result_get_summary (result) != NULL)
            json_object_set_string_member (object, "summary", viva_run_result_get_summary (result));
        }
      json_object_set_boolean_member (object, "truncated", viva_run_result_get_output_truncated (result));
      viva_cli_print_event ("result", object);
      return;
    }

  if (status == VIVA_RUN_STATUS_OK)
    return;

  if (status == VIVA_RUN_STATUS_ERROR && viva_run_result_get_traceback (result) != NULL)
    fputs (viva_run_result_get_traceback (result), stderr);
  if (viva_run_result_get_summary (result) != NULL)
    fprintf (stderr, "%s\n", viva_run_result_get_summary (result));
}

static void
print_error (const GError *error,
             gboolean      json)
{
  if (json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "kind",
                                     g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? "cancelled" : "runner");
      json_object_set_string_member (object, "message", error->message);
      viva_cli_print_event ("error", object);
    }
  else
    viva_cli_fail ("%s", error->message);
}

int
viva_cli_run (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(VivaRunner) runner = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;
  RunState state = { 0 };
  double timeout = VIVA_RUNNER_DEFAULT_TIMEOUT_MS / 1000.0;
  gboolean json = FALSE;
  guint sigint_id;
  int status;
  GOptionEntry entries[] = {
    { "timeout", 0, 0, G_OPTION_ARG_DOUBLE, &timeout, N_("Seconds the code may run (default 10)"), N_("S") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object per event"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("FILE — run a Python file in the sandboxed worker"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (argc != 2)
    {
      viva_cli_usage_error (context, "%s", _("Give exactly one Python file to run."));
      return VIVA_CLI_EXIT_USAGE;
    }

  if (!(timeout > 0 && timeout <= 24 * 3600))
    {
      viva_cli_usage_error (context, "%s", _("--timeout must be a number of seconds above 0."));
      return VIVA_CLI_EXIT_USAGE;
    }

  if (!g_file_get_contents (argv[1], &code, NULL, &error))
    {
      print_error (error, json);
      return VIVA_CLI_EXIT_FAILED;
    }

  if (!g_utf8_validate (code, -1, NULL))
    {
      g_autoptr(GError) encoding = g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                                _("“%s” is not UTF-8 text; save it as UTF-8 and try again."),
                                                argv[1]);
      print_error (encoding, json);
      return VIVA_CLI_EXIT_FAILED;
    }

  loop = g_main_loop_new (NULL, FALSE);
  cancellable = g_cancellable_new ();
  runner = viva_runner_new ();
  state.loop = loop;
  state.json = json;

  g_signal_connect (runner, "stdout", G_CALLBACK (on_stdout), &state);
  g_signal_connect (runner, "stderr", G_CALLBACK (on_stderr), &state);
  g_signal_connect (runner, "image", G_CALLBACK (on_image), &state);
  sigint_id = g_unix_signal_add (SIGINT, on_interrupt, cancellable);

  viva_runner_run_async (runner, code, (guint) (timeout * 1000 + 0.5), cancellable, run_cb, &state);
  g_main_loop_run (loop);

  g_source_remove (sigint_id);
  g_signal_handlers_disconnect_by_data (runner, &state);

  if (state.result == NULL)
    {
      print_error (state.error, json);
      g_clear_error (&state.error);
      return VIVA_CLI_EXIT_FAILED;
    }

  print_result (state.result, json);
  status = viva_run_result_get_status (state.result) == VIVA_RUN_STATUS_OK
         ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;
  g_clear_object (&state.result);

  return status;
}
