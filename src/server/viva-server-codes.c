/* viva-server-codes.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-server-keys.h"
#include "viva-server-util.h"

/* viva-server codes EXAM-ID [--html FILE]: each student's sign-in code, and
 * a page of seat cards to print and cut (one per student: the exam link,
 * the student id, the code). The page names no other student on a card. */

static char *
render_cards (JsonObject *exam,
              JsonArray  *roster,
              const char *link)
{
  GString *html = g_string_new (NULL);
  g_autofree char *title = g_markup_escape_text (json_object_get_string_member (exam, "title"), -1);
  g_autofree char *escaped_link = g_markup_escape_text (link, -1);

  g_string_append_printf (html,
                          "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>\n"
                          "<style>body{font-family:sans-serif;margin:0}"
                          ".card{box-sizing:border-box;width:50%%;height:6.5cm;float:left;padding:0.8cm;"
                          "border:1px dashed #999;page-break-inside:avoid}"
                          ".code{font:bold 28pt monospace;letter-spacing:0.1em;margin:0.3cm 0}"
                          ".link{font:8pt monospace;word-break:break-all;color:#444}</style></head><body>\n",
                          title);

  for (guint i = 0; i < json_array_get_length (roster); i++)
    {
      JsonObject *student = json_array_get_object_element (roster, i);
      g_autofree char *name = g_markup_escape_text (json_object_get_string_member (student, "name"), -1);
      g_autofree char *id = g_markup_escape_text (json_object_get_string_member (student, "student_id"), -1);
      g_autofree char *code = g_markup_escape_text (json_object_get_string_member (student, "seat_code"), -1);

      g_string_append_printf (html,
                              "<div class=\"card\"><div>%s</div><h2>%s</h2><div>%s %s</div>"
                              "<div>%s</div><div class=\"code\">%s</div><div class=\"link\">%s</div></div>\n",
                              title, name, _("Student id:"), id, _("Sign-in code:"), code, escaped_link);
    }

  g_string_append (html, "</body></html>\n");
  return g_string_free (html, FALSE);
}

int
viva_server_codes_command (int    argc,
                           char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  g_autofree char *html_path = NULL;
  g_autofree char *fingerprint = NULL;
  g_autofree char *link = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) exam = NULL;
  g_autoptr(JsonObject) config = NULL;
  g_autoptr(JsonArray) roster = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(JsonObject) summary = json_object_new ();
  g_autoptr(GError) error = NULL;
  int status;
  GOptionEntry entries[] = {
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &html_path, N_("Write a printable page of seat cards"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("EXAM-ID — each student’s sign-in code"));
  viva_server_common_add_entries (&common, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;

  if (argc != 2)
    {
      viva_server_usage_error (context, "%s", _("Give exactly one EXAM-ID."));
      return VIVA_SERVER_EXIT_USAGE;
    }

  if (!(store = viva_server_open_store (&common)))
    return VIVA_SERVER_EXIT_FAILED;

  if (!(exam = viva_server_store_get_exam (store, argv[1], &error)))
    {
      viva_server_fail (&common, "%s", error ? error->message : _("This server holds no such exam: see the ids “viva-server status” lists."));
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (!(roster = viva_server_store_get_roster (store, argv[1], &error)) ||
      !(config = viva_server_load_config (common.state_dir, &error)) ||
      !(certificate = viva_server_load_certificate (common.state_dir, config, &error)))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  fingerprint = viva_server_keys_fingerprint (certificate);
  link = viva_server_exam_link (config, argv[1], fingerprint);

  for (guint i = 0; i < json_array_get_length (roster); i++)
    {
      JsonObject *student = json_array_get_object_element (roster, i);

      if (common.json)
        {
          g_autoptr(JsonObject) line = json_object_new ();

          json_object_set_string_member (line, "student_id", json_object_get_string_member (student, "student_id"));
          json_object_set_string_member (line, "name", json_object_get_string_member (student, "name"));
          json_object_set_string_member (line, "code", json_object_get_string_member (student, "seat_code"));
          viva_server_print_event ("code", line);
        }
      else
        printf ("%-16s %-12s %s\n", json_object_get_string_member (student, "student_id"),
                json_object_get_string_member (student, "seat_code"),
                json_object_get_string_member (student, "name"));
    }

  if (html_path != NULL)
    {
      g_autofree char *page = render_cards (exam, roster, link);

      /* The cards are secrets until handed out: private to the teacher. */
      if (!viva_server_write_text (html_path, page, 0600, &error))
        {
          viva_server_fail (&common, _("Could not write the seat cards: %s"), error->message);
          return VIVA_SERVER_EXIT_FAILED;
        }
    }

  json_object_set_string_member (summary, "exam", argv[1]);
  json_object_set_int_member (summary, "students", json_array_get_length (roster));
  json_object_set_string_member (summary, "link", link);
  if (html_path != NULL)
    json_object_set_string_member (summary, "html", html_path);
  if (common.json)
    viva_server_print_event ("codes", summary);

  return VIVA_SERVER_EXIT_OK;
}
