/* viva-remote-sitting.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-server-client.h"

G_BEGIN_DECLS

/**
 * VivaRemoteSaveState:
 * @VIVA_REMOTE_SAVE_SAVED: every queued code is on the server
 * @VIVA_REMOTE_SAVE_SAVING: a save is on its way
 * @VIVA_REMOTE_SAVE_OFFLINE: the server did not answer: the code is kept
 *   here and sent again with backoff
 * @VIVA_REMOTE_SAVE_SIGNED_OUT: the student signed in elsewhere: nothing
 *   more is sent from here
 * @VIVA_REMOTE_SAVE_CLOSED: the sitting is handed in (time up): nothing more is taken
 */
typedef enum
{
  VIVA_REMOTE_SAVE_SAVED,
  VIVA_REMOTE_SAVE_SAVING,
  VIVA_REMOTE_SAVE_OFFLINE,
  VIVA_REMOTE_SAVE_SIGNED_OUT,
  VIVA_REMOTE_SAVE_CLOSED,
} VivaRemoteSaveState;

#define VIVA_TYPE_REMOTE_SAVE_STATE (viva_remote_save_state_get_type ())
GType viva_remote_save_state_get_type (void) G_GNUC_CONST;

/**
 * VivaRemoteChoice:
 * @VIVA_REMOTE_CHOICE_SERVER: the server's code: this PC holds nothing newer
 * @VIVA_REMOTE_CHOICE_MINE: this PC's code, newer than what the server holds
 *   (which is what this PC last had saved): it is sent again
 * @VIVA_REMOTE_CHOICE_SERVER_NEWER: the server's code, saved since from
 *   another PC; this PC's unsent code is given back to be set aside
 *
 * Whose code a problem opens with after a sign-in.
 */
typedef enum
{
  VIVA_REMOTE_CHOICE_SERVER,
  VIVA_REMOTE_CHOICE_MINE,
  VIVA_REMOTE_CHOICE_SERVER_NEWER,
} VivaRemoteChoice;

#define VIVA_TYPE_REMOTE_SITTING (viva_remote_sitting_get_type())

G_DECLARE_FINAL_TYPE (VivaRemoteSitting, viva_remote_sitting, VIVA, REMOTE_SITTING, GObject)

/* The student's side of a sitting on a server: the newest code per
 * problem, queued, sent one save at a time, kept and resent with backoff
 * while the server is away. Properties: save-state, pending (problems not
 * yet on the server), saved-at (the server's time of the last save, ms),
 * error-message (a sentence for the header, or NULL). The app decides
 * when to queue (autosave at most 30 s apart, every Run and Submit). */
/* Called with the sitting's state (JSON) each time it changes: the
 * front keeps it (a file of the account's) and gives it back at the next
 * start. */
typedef void (*VivaRemoteSittingKeepFunc) (VivaRemoteSitting *self,
                                           JsonNode          *state,
                                           gpointer           user_data);

VivaRemoteSitting   *viva_remote_sitting_new               (VivaExamServerClient *client);
VivaRemoteSitting   *viva_remote_sitting_new_kept          (VivaExamServerClient *client,
                                                            JsonNode             *state,
                                                            VivaRemoteSittingKeepFunc keep_func,
                                                            gpointer              user_data,
                                                            GDestroyNotify        destroy);
VivaRemoteChoice     viva_remote_sitting_reconcile         (VivaRemoteSitting    *self,
                                                            const char           *problem_id,
                                                            const char           *server_code,
                                                            char                **code,
                                                            char                **aside);
/* Records one integrity event (viva-timeline.h's shapes, with its
 * `problem`): numbered, kept, and sent with the next save or within a
 * few seconds, in batches. */
void                 viva_remote_sitting_queue_event       (VivaRemoteSitting    *self,
                                                            JsonObject           *event);
guint                viva_remote_sitting_get_pending_events (VivaRemoteSitting   *self);
const char          *viva_remote_sitting_get_client_id     (VivaRemoteSitting    *self);
VivaExamServerClient *viva_remote_sitting_get_client       (VivaRemoteSitting    *self);
VivaRemoteSaveState  viva_remote_sitting_get_save_state    (VivaRemoteSitting    *self);
guint                viva_remote_sitting_get_pending       (VivaRemoteSitting    *self);
gint64               viva_remote_sitting_get_saved_at      (VivaRemoteSitting    *self);
const char          *viva_remote_sitting_get_error_message (VivaRemoteSitting    *self);
/* The code queued for @problem_id and not yet saved, or NULL. */
const char          *viva_remote_sitting_get_unsaved       (VivaRemoteSitting    *self,
                                                            const char           *problem_id);
/* Queues @code (replacing an older queued one of the problem) and sends it
 * at once when nothing is on its way, else after. */
void                 viva_remote_sitting_queue_code        (VivaRemoteSitting    *self,
                                                            const char           *problem_id,
                                                            const char           *code,
                                                            VivaCodeKind          kind);
/* Sends what is queued now (skipping the backoff's wait); the longest
 * wait between two tries is @max_backoff_ms (30 s by default). */
void                 viva_remote_sitting_retry_now         (VivaRemoteSitting    *self);
void                 viva_remote_sitting_set_max_backoff   (VivaRemoteSitting    *self,
                                                            guint                 max_backoff_ms);
/* Completes when nothing is queued (TRUE), or when the sitting can take
 * nothing more (FALSE, the error): the way a Submit or a quit waits. */
void                 viva_remote_sitting_flush_async       (VivaRemoteSitting    *self,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
gboolean             viva_remote_sitting_flush_finish      (VivaRemoteSitting    *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);

G_END_DECLS
