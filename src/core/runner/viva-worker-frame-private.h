/* viva-worker-frame-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Longest line the runner reads from a worker's channel: an image frame of
 * VIVA_WORKER_FRAME_MAX_IMAGE bytes in base64, with room to spare. */
#define VIVA_WORKER_FRAME_MAX_LENGTH (16 * 1024 * 1024)
/* The largest plot, in bytes and in pixels a side. */
#define VIVA_WORKER_FRAME_MAX_IMAGE  (8 * 1024 * 1024)
#define VIVA_WORKER_FRAME_MAX_SIDE   4096

JsonObject *_viva_worker_frame_parse      (const char  *line,
                                           gsize        length,
                                           GError     **error);
char       *_viva_worker_text_make_visible (const char *data,
                                            gsize       length);
GBytes     *_viva_worker_image_check      (const char  *base64,
                                           char       **why);

G_END_DECLS
