/* viva-cli-chat.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

#include "viva-core.h"
#include "viva-openai-model.h"
#include "viva-cli-commands.h"
#include "viva-exam-model.h"
#include "viva-cli-util.h"

/* viva-cli chat: streams one reply. With --json, each delta is a `content`
 * or `reasoning` event as it arrives, each tool call a `tool_call` event
 * once assembled, then a `message` event; a failure is an `error` event
 * with `kind` and `message`, and exit status 1. */

typedef struct
{
  GMainLoop     *loop;
  GCancellable  *cancellable;
  VivaChatReply *reply;
  GError        *error;
  gboolean       json;
  gboolean       wrote_content;
} Chat;

static void
on_delta (VivaChatModel   *model,
          VivaChatRequest *request,
          VivaChatDelta   *delta,
          Chat            *chat)
{
  if (delta->kind != VIVA_CHAT_DELTA_CONTENT && delta->kind != VIVA_CHAT_DELTA_REASONING)
    return;

  if (chat->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "text", delta->text);
      viva_cli_print_event (delta->kind == VIVA_CHAT_DELTA_CONTENT ? "content" : "reasoning", object);
      return;
    }

  /* Plain output: the answer on stdout, the reasoning on stderr. */
  if (delta->kind == VIVA_CHAT_DELTA_CONTENT)
    {
      fputs (delta->text, stdout);
      fflush (stdout);
      chat->wrote_content = TRUE;
    }
  else
    {
      fputs (delta->text, stderr);
      fflush (stderr);
    }
}

static void
stream_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Chat *chat = user_data;

  chat->reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (object), result, &chat->error);
  g_main_loop_quit (chat->loop);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  Chat *chat = user_data;

  g_cancellable_cancel (chat->cancellable);
  return G_SOURCE_CONTINUE;
}

static void
print_error (Chat         *chat,
             const char   *kind,
             const char   *message)
{
  if (chat->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "kind", kind);
      json_object_set_string_member (object, "message", message);
      viva_cli_print_event ("error", object);
    }
  else
    viva_cli_fail ("%s", message);
}

static int
print_reply (Chat          *chat,
             VivaChatReply *reply)
{
  GPtrArray *calls = viva_chat_reply_get_tool_calls (reply);

  if (chat->json)
    {
      g_autoptr(JsonNode) node = viva_chat_reply_to_json (reply);

      for (guint i = 0; i < calls->len; i++)
        {
          VivaToolCall *call = g_ptr_array_index (calls, i);
          g_autoptr(JsonObject) object = json_object_new ();

          json_object_set_int_member (object, "index", i);
          json_object_set_string_member (object, "id", viva_tool_call_get_id (call));
          json_object_set_string_member (object, "name", viva_tool_call_get_name (call));
          json_object_set_string_member (object, "arguments", viva_tool_call_get_arguments (call));
          viva_cli_print_event ("tool_call", object);
        }
      viva_cli_print_event ("message", json_node_get_object (node));
    }
  else
    {
      if (chat->wrote_content)
        fputc ('\n', stdout);
      for (guint i = 0; i < calls->len; i++)
        {
          VivaToolCall *call = g_ptr_array_index (calls, i);

          printf ("→ %s %s\n", viva_tool_call_get_name (call), viva_tool_call_get_arguments (call));
        }
      fflush (stdout);
    }

  if (viva_chat_reply_get_prompt_truncated (reply))
    g_printerr ("viva-cli: %s\n",
                _("Warning: the server read only part of the prompt; raise its context length."));

  if (viva_chat_reply_get_truncated (reply))
    {
      print_error (chat, "truncated",
                   _("The reply was cut off before the server finished it; what arrived is shown."));
      return VIVA_CLI_EXIT_FAILED;
    }

  return VIVA_CLI_EXIT_OK;
}

int
viva_cli_chat (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(VivaOpenAIModel) model = NULL;
  g_autoptr(VivaChatRequest) request = NULL;
  g_autoptr(VivaChatMessage) user = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model_name = NULL;
  g_autofree char *system = NULL;
  g_autofree char *temperature_text = NULL;
  gboolean json = FALSE;
  Chat chat = { 0 };
  double temperature = -1;
  guint sigint_id;
  int status;
  GOptionEntry entries[] = {
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, N_("The endpoint (default: the configured one)"), N_("URL") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model_name, N_("The model (default: the configured one, then the endpoint’s first)"), N_("M") },
    { "system", 0, 0, G_OPTION_ARG_STRING, &system, N_("A system message"), N_("TEXT") },
    { "temperature", 0, 0, G_OPTION_ARG_STRING, &temperature_text, N_("Sampling temperature, 0 to 2"), N_("T") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("PROMPT — stream one reply from a model"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (argc != 2)
    {
      viva_cli_usage_error (context, "%s", _("Give exactly one PROMPT (quote it)."));
      return VIVA_CLI_EXIT_USAGE;
    }

  if (temperature_text != NULL)
    {
      char *end = NULL;

      temperature = g_ascii_strtod (temperature_text, &end);
      if (end == temperature_text || *end != '\0' || !(temperature >= 0.0 && temperature <= 2.0))
        {
          viva_cli_usage_error (context, _("“%s” is not a temperature between 0 and 2."), temperature_text);
          return VIVA_CLI_EXIT_USAGE;
        }
    }

  if (!viva_cli_check_base_url (context, &base_url))
    return VIVA_CLI_EXIT_USAGE;

  model = viva_exam_model_new_for_endpoint (viva_settings_get_default (), base_url, NULL);

  request = viva_chat_request_new ();
  if (model_name != NULL)
    viva_chat_request_set_model (request, model_name);
  if (temperature >= 0.0)
    viva_chat_request_set_temperature (request, temperature);
  if (system != NULL)
    {
      g_autoptr(VivaChatMessage) message = viva_chat_message_new_system (system);

      viva_chat_request_add_message (request, message);
    }
  user = viva_chat_message_new_user (argv[1]);
  viva_chat_request_add_message (request, user);

  chat.json = json;
  chat.loop = g_main_loop_new (NULL, FALSE);
  chat.cancellable = g_cancellable_new ();
  sigint_id = g_unix_signal_add (SIGINT, interrupted_cb, &chat);
  g_signal_connect (model, "delta", G_CALLBACK (on_delta), &chat);

  viva_chat_model_stream_async (VIVA_CHAT_MODEL (model), request, chat.cancellable, stream_cb, &chat);
  g_main_loop_run (chat.loop);

  g_source_remove (sigint_id);
  g_clear_object (&chat.cancellable);
  g_clear_pointer (&chat.loop, g_main_loop_unref);

  if (chat.reply == NULL)
    {
      g_autofree char *message = viva_cli_model_error_message (chat.error, viva_openai_model_get_base_url (model));

      if (!json && chat.wrote_content)
        fputc ('\n', stdout);
      print_error (&chat, viva_model_error_kind (chat.error), message);
      g_clear_error (&chat.error);
      return VIVA_CLI_EXIT_FAILED;
    }

  status = print_reply (&chat, chat.reply);
  g_clear_pointer (&chat.reply, viva_chat_reply_unref);
  return status;
}
