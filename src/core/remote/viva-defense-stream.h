/* viva-defense-stream.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-server-client.h"

G_BEGIN_DECLS

/**
 * VivaDefenseStreamState:
 * @VIVA_DEFENSE_STREAM_IDLE: not started
 * @VIVA_DEFENSE_STREAM_CONNECTING: connecting (or reconnecting)
 * @VIVA_DEFENSE_STREAM_LIVE: connected, events arrive as they are made
 * @VIVA_DEFENSE_STREAM_OFFLINE: the connection dropped; it retries with backoff
 * @VIVA_DEFENSE_STREAM_CLOSED: ended: the defense finished, the student was
 *   signed out, the server refused, or stop was called (see #VivaDefenseStream::closed)
 */
typedef enum
{
  VIVA_DEFENSE_STREAM_IDLE,
  VIVA_DEFENSE_STREAM_CONNECTING,
  VIVA_DEFENSE_STREAM_LIVE,
  VIVA_DEFENSE_STREAM_OFFLINE,
  VIVA_DEFENSE_STREAM_CLOSED,
} VivaDefenseStreamState;

#define VIVA_TYPE_DEFENSE_STREAM_STATE (viva_defense_stream_state_get_type ())
GType viva_defense_stream_state_get_type (void) G_GNUC_CONST;

#define VIVA_TYPE_DEFENSE_STREAM (viva_defense_stream_get_type())

G_DECLARE_FINAL_TYPE (VivaDefenseStream, viva_defense_stream, VIVA, DEFENSE_STREAM, GObject)

/* Follows one defense's events (SSE), each told once, in order, by
 * the ::event signal (seq, kind, the student's view of the data), from
 * the first after @after_seq. A dropped connection reconnects with backoff
 * and asks for what followed the last event told. ::closed (a GError, or
 * NULL when the defense finished) is emitted once, at the end; a student
 * signed in elsewhere ends it with VIVA_REMOTE_ERROR_SIGNED_OUT. */
VivaDefenseStream      *viva_defense_stream_new           (VivaExamServerClient *client,
                                                           const char           *defense_id,
                                                           gint64                after_seq);
const char             *viva_defense_stream_get_defense_id (VivaDefenseStream   *self);
gint64                  viva_defense_stream_get_last_seq  (VivaDefenseStream    *self);
VivaDefenseStreamState  viva_defense_stream_get_state     (VivaDefenseStream    *self);
guint                   viva_defense_stream_get_reconnects (VivaDefenseStream   *self);
const GError           *viva_defense_stream_get_error     (VivaDefenseStream    *self);
void                    viva_defense_stream_start         (VivaDefenseStream    *self);
void                    viva_defense_stream_stop          (VivaDefenseStream    *self);

G_END_DECLS
