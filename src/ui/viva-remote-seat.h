/* viva-remote-seat.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "viva-remote-defense.h"
#include "viva-remote-exam.h"
#include "viva-remote-kept.h"
#include "viva-remote.h"

G_BEGIN_DECLS

#define VIVA_TYPE_REMOTE_SEAT (viva_remote_seat_get_type ())

G_DECLARE_FINAL_TYPE (VivaRemoteSeat, viva_remote_seat, VIVA, REMOTE_SEAT, GObject)

VivaRemoteSeat       *viva_remote_seat_new             (VivaExamServerClient  *client,
                                                        VivaRemoteExam        *exam,
                                                        VivaRemoteKept        *kept,
                                                        JsonNode              *kept_state);
char                 *viva_remote_seat_reconcile       (VivaRemoteSeat        *self,
                                                        const char            *problem_id,
                                                        char                 **aside_path);
void                  viva_remote_seat_add_event       (VivaRemoteSeat        *self,
                                                        const char            *problem_id,
                                                        JsonObject            *event);
void                  viva_remote_seat_sync_async      (VivaRemoteSeat        *self,
                                                        GCancellable          *cancellable,
                                                        GAsyncReadyCallback    callback,
                                                        gpointer               user_data);
gboolean              viva_remote_seat_sync_finish     (VivaRemoteSeat        *self,
                                                        GAsyncResult          *result,
                                                        GError               **error);
VivaExamServerClient *viva_remote_seat_get_client      (VivaRemoteSeat        *self);
VivaRemoteExam       *viva_remote_seat_get_exam        (VivaRemoteSeat        *self);
gboolean              viva_remote_seat_get_signed_out  (VivaRemoteSeat        *self);
gboolean              viva_remote_seat_get_stopped     (VivaRemoteSeat        *self);
gboolean              viva_remote_seat_get_dirty       (VivaRemoteSeat        *self);
const char           *viva_remote_seat_get_save_text   (VivaRemoteSeat        *self);
const char           *viva_remote_seat_get_clock_text  (VivaRemoteSeat        *self);
const char           *viva_remote_seat_get_clock_style (VivaRemoteSeat        *self);
VivaRemoteDefense    *viva_remote_seat_get_defense     (VivaRemoteSeat        *self);
void                  viva_remote_seat_show_defense    (VivaRemoteSeat        *self,
                                                        VivaRemoteDefense     *defense);
void                  viva_remote_seat_code_changed    (VivaRemoteSeat        *self);
void                  viva_remote_seat_send_code       (VivaRemoteSeat        *self,
                                                        const char            *problem_id,
                                                        const char            *code,
                                                        VivaCodeKind           kind);
void                  viva_remote_seat_sign_out        (VivaRemoteSeat        *self,
                                                        const char            *message);
void                  viva_remote_seat_flush_async     (VivaRemoteSeat        *self,
                                                        GAsyncReadyCallback    callback,
                                                        gpointer               user_data);
gboolean              viva_remote_seat_flush_finish    (VivaRemoteSeat        *self,
                                                        GAsyncResult          *result,
                                                        GError               **error);

G_END_DECLS
