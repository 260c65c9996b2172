/* viva-timeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-timeline.h"

/* The events of the integrity timeline, in the shapes every reader of a
 * checkpoint or report expects (kind, time, details). The session adds the
 * time and keeps them; this file only says what each kind holds. */

static JsonObject *
event_new (const char *kind)
{
  JsonObject *event = json_object_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *time = g_date_time_format_iso8601 (now);

  json_object_set_string_member (event, "time", time);
  json_object_set_string_member (event, "kind", kind);
  return event;
}

/**
 * viva_timeline_event_code:
 * @kind: `run` or `submit`
 * @code: the code as it was then
 *
 * Returns: (transfer full): `{time, kind, sha256, length, lines, code}`
 */
JsonObject *
viva_timeline_event_code (const char *kind,
                          const char *code)
{
  JsonObject *event;
  g_autofree char *sha = NULL;
  guint lines = 0;

  g_return_val_if_fail (kind != NULL, NULL);

  if (code == NULL)
    code = "";

  event = event_new (kind);
  sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, code, -1);
  for (const char *p = code; *p; p++)
    if (*p == '\n')
      lines++;
  if (code[0] != '\0' && !g_str_has_suffix (code, "\n"))
    lines++;

  json_object_set_string_member (event, "sha256", sha);
  json_object_set_int_member (event, "length", g_utf8_strlen (code, -1));
  json_object_set_int_member (event, "lines", lines);
  json_object_set_string_member (event, "code", code);
  return event;
}

/**
 * viva_timeline_event_check:
 * @code: the code checked
 * @passed: how many shown tests passed
 * @total: how many shown tests ran
 *
 * A Check: the problem's shown tests run on the code through the grader.
 *
 * Returns: (transfer full): `{time, kind: "check", sha256, length, lines,
 *   code, passed, total}`
 */
JsonObject *
viva_timeline_event_check (const char *code,
                           guint       passed,
                           guint       total)
{
  JsonObject *event = viva_timeline_event_code ("check", code);

  json_object_set_int_member (event, "passed", passed);
  json_object_set_int_member (event, "total", total);
  return event;
}

/**
 * viva_timeline_is_paste:
 *
 * Returns: whether inserting @text at once counts as a paste
 */
gboolean
viva_timeline_is_paste (const char *text,
                        gssize      length)
{
  if (text == NULL)
    return FALSE;

  return g_utf8_strlen (text, length) >= VIVA_TIMELINE_PASTE_MIN_CHARS;
}

/**
 * viva_timeline_event_paste:
 * @text: what was inserted
 * @line: the line it went to, from 1
 *
 * Returns: (transfer full): `{time, kind: "paste", chars, lines, line, text}`,
 *   the text cut to its first 2000 characters
 */
JsonObject *
viva_timeline_event_paste (const char *text,
                           guint       line)
{
  JsonObject *event = event_new ("paste");
  glong chars = g_utf8_strlen (text, -1);
  guint lines = 1;

  for (const char *p = text; *p; p++)
    if (*p == '\n')
      lines++;

  json_object_set_int_member (event, "chars", chars);
  json_object_set_int_member (event, "lines", lines);
  json_object_set_int_member (event, "line", line);
  if (chars > 2000)
    {
      g_autofree char *cut = g_utf8_substring (text, 0, 2000);
      json_object_set_string_member (event, "text", cut);
      json_object_set_boolean_member (event, "text_cut", TRUE);
    }
  else
    json_object_set_string_member (event, "text", text);
  return event;
}

/**
 * viva_timeline_event_hint:
 *
 * Returns: (transfer full): `{time, kind: "hint", problem}`
 */
JsonObject *
viva_timeline_event_hint (const char *problem_id)
{
  JsonObject *event = event_new ("hint");

  json_object_set_string_member (event, "problem", problem_id ? problem_id : "");
  return event;
}

/**
 * viva_timeline_event_explain:
 * @problem_id: the problem practised
 * @what: `error` or `selection`
 *
 * Explain this error or Explain selection was asked for: evidence the
 * examiner may question. Add `error_type` and `detail` (an error) or
 * `first_line` and `last_line` (a selection).
 *
 * Returns: (transfer full): `{time, kind: "explain", problem, what}`
 */
JsonObject *
viva_timeline_event_explain (const char *problem_id,
                             const char *what)
{
  JsonObject *event = event_new ("explain");

  json_object_set_string_member (event, "problem", problem_id ? problem_id : "");
  json_object_set_string_member (event, "what", what);
  return event;
}

/**
 * viva_timeline_event_focus:
 * @lost: %TRUE when the window lost the focus, %FALSE when it came back
 * @away_ms: for a return, how long the window was away; ignored otherwise
 *
 * Returns: (transfer full): `{time, kind: "focus-lost"}` or
 *   `{time, kind: "focus-back", away_ms}`
 */
JsonObject *
viva_timeline_event_focus (gboolean lost,
                           gint64   away_ms)
{
  JsonObject *event = event_new (lost ? "focus-lost" : "focus-back");

  if (!lost)
    json_object_set_int_member (event, "away_ms", MAX (away_ms, 0));
  return event;
}
