/* viva-timeline.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* An insertion at least this long, made by the student in one go, is
 * recorded as a paste. Typing and the editor's own indentation stay far
 * below it. */
#define VIVA_TIMELINE_PASTE_MIN_CHARS 40

JsonObject *viva_timeline_event_code  (const char *kind,
                                       const char *code);
JsonObject *viva_timeline_event_check (const char *code,
                                       guint       passed,
                                       guint       total);
JsonObject *viva_timeline_event_paste (const char *text,
                                       guint       line);
JsonObject *viva_timeline_event_hint  (const char *problem_id);
JsonObject *viva_timeline_event_explain (const char *problem_id,
                                         const char *what);
JsonObject *viva_timeline_event_focus (gboolean    lost,
                                       gint64      away_ms);
gboolean    viva_timeline_is_paste    (const char *text,
                                       gssize      length);

G_END_DECLS
