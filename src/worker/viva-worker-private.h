/* viva-worker-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What the worker's files share (viva-worker.c and its channel, crash and
 * run files). Everything here is G_GNUC_INTERNAL: the worker exports its
 * symbols for the extension modules Python loads, and none of these may
 * stand in for one of theirs. */

#define CHANNEL_FD        3

typedef enum
{
  REASON_NONE,
  REASON_TIMEOUT,
  REASON_INTERRUPT,
} Reason;

/* Output waiting to be sent, in the order it was written. */
typedef struct
{
  GMutex   lock;
  GString *pending;
  int      stream;
  gint64   id;
  guint64  limit;
  guint64  written;
  guint    n_images;
  gboolean truncated;
} VivaWorkerOutput;

/* fds 1 and 2 are pipes read back here (C libraries, os.write), so their
 * output takes the same capped, ordered path as print(). The real stderr
 * is kept for faulthandler: a crash report must not wait for a thread. */
typedef struct
{
  GMutex lock;
  int    pipes[2];
  char   carry[2][4];
  gsize  n_carry[2];
  int    real_stderr;
} VivaWorkerFds;

/* viva-worker-channel.c */
G_GNUC_INTERNAL extern VivaWorkerOutput viva_worker_output;
G_GNUC_INTERNAL extern VivaWorkerFds    viva_worker_fds;
G_GNUC_INTERNAL extern GMutex           viva_worker_write_lock;

G_GNUC_INTERNAL void         viva_worker_channel_send   (JsonBuilder  *builder);
G_GNUC_INTERNAL JsonBuilder *viva_worker_event_new      (const char   *event,
                                                         gint64        id);
G_GNUC_INTERNAL gsize        viva_worker_escape_json    (const char   *data,
                                                         gsize         length,
                                                         gsize        *consumed,
                                                         char         *out,
                                                         gsize         out_size);
G_GNUC_INTERNAL void         viva_worker_output_init    (void);
G_GNUC_INTERNAL void         viva_worker_output_begin   (gint64        id,
                                                         guint64       limit);
G_GNUC_INTERNAL void         viva_worker_output_append  (int           stream,
                                                         const char   *data,
                                                         gsize         length);
G_GNUC_INTERNAL void         viva_worker_output_image   (const guint8 *data,
                                                         gsize         length);
G_GNUC_INTERNAL void         viva_worker_output_flush   (void);
G_GNUC_INTERNAL void         viva_worker_fds_drain      (int           index);
G_GNUC_INTERNAL gpointer     viva_worker_fds_thread     (gpointer      data);
G_GNUC_INTERNAL gboolean     viva_worker_fds_redirect   (GError      **error);

/* viva-worker-crash.c */
G_GNUC_INTERNAL void         viva_worker_crash_handlers_install (void);

/* viva-worker-run.c */
G_GNUC_INTERNAL void         viva_worker_run_init        (void);
G_GNUC_INTERNAL void         viva_worker_run_begin       (gint64        id,
                                                          guint         timeout_ms);
G_GNUC_INTERNAL Reason       viva_worker_run_end         (void);
G_GNUC_INTERNAL gpointer     viva_worker_watchdog_thread (gpointer      data);
G_GNUC_INTERNAL gpointer     viva_worker_reader_thread   (gpointer      requests);
G_GNUC_INTERNAL gboolean     viva_worker_run_pause_begin (gint64        id);
G_GNUC_INTERNAL void         viva_worker_run_pause_end   (void);

/* viva-worker-pause.c */
G_GNUC_INTERNAL void         viva_worker_pause_init      (void);
G_GNUC_INTERNAL gpointer     viva_worker_pauser_thread   (gpointer      data);
G_GNUC_INTERNAL void         viva_worker_pause_request   (gint64        id,
                                                          gint64        token);
G_GNUC_INTERNAL void         viva_worker_pause_release   (gint64        id);

G_END_DECLS
