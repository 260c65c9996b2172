/* viva-remote-sitting-private.h: shared by viva-remote-sitting*.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-remote-sitting.h"

G_BEGIN_DECLS

/* Integrity events kept while the server is away: beyond this many, new
 * ones are dropped (a PC offline for hours still sends its first). */
#define VIVA_REMOTE_MAX_EVENTS 1000

/* What this PC holds of one problem: its own newest copy, and what it
 * knows the server holds — the digest of the code the server last said
 * it took, and of those sent since without an answer (a save the server
 * took may have lost its answer on the way back). */
typedef struct
{
  char      *mine;
  char      *acked;   /* SHA-256, or NULL */
  GPtrArray *sent;    /* SHA-256, oldest first */
} VivaRemoteCopy;

/* One integrity event waiting to go, with this PC's number for it. */
typedef struct
{
  gint64      seq;
  JsonObject *event;
  gsize       bytes;
} VivaRemoteEvent;

typedef struct
{
  char         *problem_id;
  char         *code;
  VivaCodeKind  kind;
} VivaRemoteEntry;

struct _VivaRemoteSitting
{
  GObject               parent_instance;

  VivaExamServerClient *client;
  GHashTable           *queued;      /* problem id → VivaRemoteEntry */
  GQueue                order;       /* problem ids, owned by the entries */
  VivaRemoteEntry      *in_flight;
  GCancellable         *cancellable;
  GPtrArray            *flushes;     /* GTask waiting for an empty queue */

  GHashTable           *copies;      /* problem id → VivaRemoteCopy */
  char                 *client_id;
  gint64                next_seq;
  GQueue                events;      /* VivaRemoteEvent, oldest first */
  guint                 events_in_flight;
  guint                 events_id;   /* the wait that gathers a batch */

  VivaRemoteSittingKeepFunc keep_func;
  gpointer              keep_data;
  GDestroyNotify        keep_destroy;

  VivaRemoteSaveState   save_state;
  gint64                saved_at;
  char                 *error_message;
  guint                 backoff_ms;
  guint                 max_backoff_ms;
  guint                 retry_id;
};

void            _viva_remote_copy_free         (VivaRemoteCopy    *copy);
VivaRemoteCopy *_viva_remote_sitting_copy      (VivaRemoteSitting *self,
                                                const char        *problem_id);
void            _viva_remote_sitting_sent      (VivaRemoteSitting *self,
                                                const char        *problem_id,
                                                const char        *code);
void            _viva_remote_sitting_acked     (VivaRemoteSitting *self,
                                                const char        *problem_id,
                                                const char        *code);
VivaRemoteEvent *_viva_remote_event_new        (gint64             seq,
                                                JsonObject        *event);
void            _viva_remote_event_free        (VivaRemoteEvent   *event);
void            _viva_remote_sitting_keep      (VivaRemoteSitting *self);
void            _viva_remote_sitting_restore   (VivaRemoteSitting *self,
                                                JsonNode          *state);

G_END_DECLS
