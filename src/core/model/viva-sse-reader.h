/* viva-sse-reader.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * VivaSseFormat:
 * @VIVA_SSE_FORMAT_EVENT_STREAM: `text/event-stream` (OpenAI-compatible servers)
 * @VIVA_SSE_FORMAT_NDJSON: one JSON document a line (Ollama's native API)
 */
typedef enum
{
  VIVA_SSE_FORMAT_EVENT_STREAM,
  VIVA_SSE_FORMAT_NDJSON,
} VivaSseFormat;

#define VIVA_TYPE_SSE_EVENT (viva_sse_event_get_type ())

/**
 * VivaSseEvent:
 * @event: (nullable): the `event:` field, or `error` for an old llama-server
 *   `error:` line
 * @data: the joined `data:` lines (or the NDJSON line), never %NULL
 * @id: (nullable): the `id:` field
 */
typedef struct
{
  char *event;
  char *data;
  char *id;
} VivaSseEvent;

GType         viva_sse_event_get_type (void) G_GNUC_CONST;
VivaSseEvent *viva_sse_event_copy     (const VivaSseEvent *self);
void          viva_sse_event_free     (VivaSseEvent       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaSseEvent, viva_sse_event_free)

#define VIVA_TYPE_SSE_READER (viva_sse_reader_get_type())

G_DECLARE_FINAL_TYPE (VivaSseReader, viva_sse_reader, VIVA, SSE_READER, GObject)

VivaSseReader *viva_sse_reader_new               (GInputStream         *stream,
                                                  VivaSseFormat         format);
GInputStream  *viva_sse_reader_get_stream        (VivaSseReader        *self);
VivaSseFormat  viva_sse_reader_get_format        (VivaSseReader        *self);
void           viva_sse_reader_feed              (VivaSseReader        *self,
                                                  const char           *data,
                                                  gsize                 length);
void           viva_sse_reader_feed_eof          (VivaSseReader        *self);
VivaSseEvent  *viva_sse_reader_pop_event         (VivaSseReader        *self);
gboolean       viva_sse_reader_get_eof           (VivaSseReader        *self);
gboolean       viva_sse_reader_get_discarded     (VivaSseReader        *self);
guint64        viva_sse_reader_get_bytes_read    (VivaSseReader        *self);
void           viva_sse_reader_set_limits        (VivaSseReader        *self,
                                                  gsize                 max_line,
                                                  guint64               max_bytes);
const GError  *viva_sse_reader_get_error         (VivaSseReader        *self);
void           viva_sse_reader_read_event_async  (VivaSseReader        *self,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
VivaSseEvent  *viva_sse_reader_read_event_finish (VivaSseReader        *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);

G_END_DECLS
