/* viva-sse-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-error.h"
#include "viva-reply-limits.h"
#include "viva-sse-reader.h"

/* An incremental reader of Server-Sent Events (the WHATWG parsing rules)
 * and of NDJSON. Bytes go in through viva_sse_reader_feed() in pieces cut
 * anywhere; complete events come out in order. An event is complete only
 * at its blank line (NDJSON: at its newline), so one cut off by a dropped
 * connection is discarded, never parsed half. The async API pulls the
 * bytes from a GInputStream one read at a time, so a body is never
 * buffered whole.
 *
 * A server is hostile input: no line (nor an event's joined data) is held
 * past the line limit, and no more bytes are read than the byte limit.
 * Past either, the reader stops parsing, lets go of what it held, and
 * its reads fail with %VIVA_MODEL_ERROR_REPLY_LIMIT once the events
 * before the breach are taken. The cost per byte is constant: a line is
 * appended to once, and scanned once for its end. */

#define READ_SIZE 8192

struct _VivaSseReader
{
  GObject        parent_instance;

  GInputStream  *stream;
  VivaSseFormat  format;

  GString       *line;
  GString       *data;
  char          *event;
  char          *id;
  GQueue         events;
  guint64        bytes_read;
  gsize          max_line;
  guint64        max_bytes;
  GError        *limit_error;

  guint          bom_matched : 2;
  guint          last_was_cr : 1;
  guint          started : 1;
  guint          has_field : 1;
  guint          eof : 1;
  guint          discarded : 1;
  guint          reading : 1;
};

G_DEFINE_FINAL_TYPE (VivaSseReader, viva_sse_reader, G_TYPE_OBJECT)

VivaSseEvent *
viva_sse_event_copy (const VivaSseEvent *self)
{
  VivaSseEvent *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (VivaSseEvent, 1);
  copy->event = g_strdup (self->event);
  copy->data = g_strdup (self->data);
  copy->id = g_strdup (self->id);

  return copy;
}

void
viva_sse_event_free (VivaSseEvent *self)
{
  if (self == NULL)
    return;

  g_free (self->event);
  g_free (self->data);
  g_free (self->id);
  g_free (self);
}

G_DEFINE_BOXED_TYPE (VivaSseEvent, viva_sse_event, viva_sse_event_copy, viva_sse_event_free)

static void
viva_sse_reader_dispose (GObject *object)
{
  VivaSseReader *self = (VivaSseReader *)object;

  g_clear_object (&self->stream);

  G_OBJECT_CLASS (viva_sse_reader_parent_class)->dispose (object);
}

static void
viva_sse_reader_finalize (GObject *object)
{
  VivaSseReader *self = (VivaSseReader *)object;

  g_string_free (self->line, TRUE);
  g_string_free (self->data, TRUE);
  g_free (self->event);
  g_free (self->id);
  g_queue_clear_full (&self->events, (GDestroyNotify)viva_sse_event_free);
  g_clear_error (&self->limit_error);

  G_OBJECT_CLASS (viva_sse_reader_parent_class)->finalize (object);
}

static void
viva_sse_reader_class_init (VivaSseReaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_sse_reader_dispose;
  object_class->finalize = viva_sse_reader_finalize;
}

static void
viva_sse_reader_init (VivaSseReader *self)
{
  self->line = g_string_sized_new (256);
  self->data = g_string_sized_new (256);
  g_queue_init (&self->events);
  self->max_line = VIVA_REPLY_DEFAULT_MAX_LINE;
  self->max_bytes = VIVA_REPLY_DEFAULT_MAX_BYTES;
}

/**
 * viva_sse_reader_new:
 * @stream: (nullable): the body to read; %NULL for a reader fed by hand
 *   with viva_sse_reader_feed()
 * @format: how the body is framed
 *
 * Returns: (transfer full): a new reader
 */
VivaSseReader *
viva_sse_reader_new (GInputStream  *stream,
                     VivaSseFormat  format)
{
  VivaSseReader *self;

  g_return_val_if_fail (!stream || G_IS_INPUT_STREAM (stream), NULL);

  self = g_object_new (VIVA_TYPE_SSE_READER, NULL);
  g_set_object (&self->stream, stream);
  self->format = format;

  return self;
}

/**
 * viva_sse_reader_get_stream:
 *
 * Returns: (transfer none) (nullable): the stream read from
 */
GInputStream *
viva_sse_reader_get_stream (VivaSseReader *self)
{
  g_return_val_if_fail (VIVA_IS_SSE_READER (self), NULL);
  return self->stream;
}

VivaSseFormat
viva_sse_reader_get_format (VivaSseReader *self)
{
  g_return_val_if_fail (VIVA_IS_SSE_READER (self), VIVA_SSE_FORMAT_EVENT_STREAM);
  return self->format;
}

/**
 * viva_sse_reader_set_limits:
 * @max_line: the longest line (or event's data) held, in bytes; 0 for the
 *   default
 * @max_bytes: the most bytes read; 0 for the default
 *
 * The defaults are %VIVA_REPLY_DEFAULT_MAX_LINE and
 * %VIVA_REPLY_DEFAULT_MAX_BYTES.
 */
void
viva_sse_reader_set_limits (VivaSseReader *self,
                            gsize          max_line,
                            guint64        max_bytes)
{
  g_return_if_fail (VIVA_IS_SSE_READER (self));

  self->max_line = max_line > 0 ? max_line : VIVA_REPLY_DEFAULT_MAX_LINE;
  self->max_bytes = max_bytes > 0 ? max_bytes : VIVA_REPLY_DEFAULT_MAX_BYTES;
}

/**
 * viva_sse_reader_get_error:
 *
 * Returns: (transfer none) (nullable): why the reader stopped parsing, a
 *   %VIVA_MODEL_ERROR_REPLY_LIMIT, or %NULL
 */
const GError *
viva_sse_reader_get_error (VivaSseReader *self)
{
  g_return_val_if_fail (VIVA_IS_SSE_READER (self), NULL);
  return self->limit_error;
}

/* Past a limit nothing more is parsed, and what was held is let go of. */
static void
breach (VivaSseReader  *self,
        VivaReplyLimit  limit,
        guint64         value)
{
  if (self->limit_error != NULL)
    return;

  self->limit_error = viva_reply_limit_error_new (limit, value);
  g_string_free (self->line, TRUE);
  g_string_free (self->data, TRUE);
  self->line = g_string_new (NULL);
  self->data = g_string_new (NULL);
  g_clear_pointer (&self->event, g_free);
  self->has_field = FALSE;
}

static void
dispatch (VivaSseReader *self)
{
  VivaSseEvent *event;

  /* Per the spec an event without data is not dispatched. */
  if (self->data->len == 0)
    {
      g_clear_pointer (&self->event, g_free);
      self->has_field = FALSE;
      return;
    }

  if (self->data->str[self->data->len - 1] == '\n')
    g_string_truncate (self->data, self->data->len - 1);

  event = g_new0 (VivaSseEvent, 1);
  event->event = g_steal_pointer (&self->event);
  event->data = g_strndup (self->data->str, self->data->len);
  event->id = g_strdup (self->id);
  g_queue_push_tail (&self->events, event);

  g_string_truncate (self->data, 0);
  self->has_field = FALSE;
}

static void
process_line (VivaSseReader *self,
              const char    *line,
              gsize          length)
{
  const char *colon;
  const char *value;
  gsize name_length;
  gsize value_length;

  if (self->format == VIVA_SSE_FORMAT_NDJSON)
    {
      VivaSseEvent *event;
      gsize start = 0;

      while (start < length && g_ascii_isspace (line[start]))
        start++;
      if (start == length)
        return;

      event = g_new0 (VivaSseEvent, 1);
      event->data = g_strndup (line + start, length - start);
      g_queue_push_tail (&self->events, event);
      return;
    }

  if (length == 0)
    {
      dispatch (self);
      return;
    }

  if (line[0] == ':')
    return;

  if ((colon = memchr (line, ':', length)))
    {
      name_length = colon - line;
      value = colon + 1;
      value_length = length - name_length - 1;
      if (value_length > 0 && value[0] == ' ')
        {
          value++;
          value_length--;
        }
    }
  else
    {
      name_length = length;
      value = "";
      value_length = 0;
    }

#define FIELD_IS(name) (name_length == strlen (name) && memcmp (line, name, name_length) == 0)
  if ((FIELD_IS ("data") || FIELD_IS ("error")) &&
      self->data->len + value_length + 1 > self->max_line)
    return breach (self, VIVA_REPLY_LIMIT_LINE, self->max_line);

  if (FIELD_IS ("data"))
    {
      g_string_append_len (self->data, value, value_length);
      g_string_append_c (self->data, '\n');
      self->has_field = TRUE;
    }
  else if (FIELD_IS ("event"))
    {
      g_free (self->event);
      self->event = g_strndup (value, value_length);
      self->has_field = TRUE;
    }
  else if (FIELD_IS ("id"))
    {
      if (memchr (value, '\0', value_length) == NULL)
        {
          g_free (self->id);
          self->id = g_strndup (value, value_length);
        }
    }
  else if (FIELD_IS ("error"))
    {
      /* HACK: llama-server until September 2025 wrote `error: {json}`
       * instead of `data:` for errors in a stream:
       * https://github.com/ggml-org/llama.cpp/issues/16104 (fixed by
       * https://github.com/ggml-org/llama.cpp/pull/16109) */
      g_free (self->event);
      self->event = g_strdup ("error");
      g_string_append_len (self->data, value, value_length);
      g_string_append_c (self->data, '\n');
      self->has_field = TRUE;
    }
#undef FIELD_IS
}

/**
 * viva_sse_reader_feed:
 * @data: (array length=length): the next bytes of the body
 *
 * Parses the bytes, cut anywhere; complete events are queued for
 * viva_sse_reader_pop_event().
 */
void
viva_sse_reader_feed (VivaSseReader *self,
                      const char    *data,
                      gsize          length)
{
  gsize i = 0;

  g_return_if_fail (VIVA_IS_SSE_READER (self));
  g_return_if_fail (data != NULL || length == 0);
  g_return_if_fail (!self->eof);

  if (self->limit_error != NULL)
    return;

  if (length > self->max_bytes - MIN (self->bytes_read, self->max_bytes))
    return breach (self, VIVA_REPLY_LIMIT_BYTES, self->max_bytes);

  self->bytes_read += length;

  /* The stream may begin with a byte order mark, which the spec skips;
   * it may be cut across feeds like anything else. */
  while (!self->started && i < length)
    {
      static const char bom[] = "\xEF\xBB\xBF";

      if (data[i] == bom[self->bom_matched])
        {
          i++;
          if (++self->bom_matched == 3)
            self->started = TRUE;
        }
      else
        {
          self->started = TRUE;
          g_string_append_len (self->line, bom, self->bom_matched);
        }
    }

  while (i < length)
    {
      gsize start = i;
      char c;

      if (self->last_was_cr)
        {
          self->last_was_cr = FALSE;
          if (data[i] == '\n')
            {
              i++;
              continue;
            }
        }

      while (i < length && data[i] != '\n' && data[i] != '\r')
        i++;

      /* Measured before anything is kept: a line past the limit is never
       * held, however it is cut. */
      if (self->line->len + (i - start) > self->max_line)
        return breach (self, VIVA_REPLY_LIMIT_LINE, self->max_line);

      if (i == length)
        {
          g_string_append_len (self->line, data + start, i - start);
          break;
        }

      c = data[i++];
      if (self->line->len > 0)
        {
          g_string_append_len (self->line, data + start, i - 1 - start);
          process_line (self, self->line->str, self->line->len);
          g_string_truncate (self->line, 0);
        }
      else
        process_line (self, data + start, i - 1 - start);

      if (self->limit_error != NULL)
        return;

      self->last_was_cr = c == '\r';
    }
}

/**
 * viva_sse_reader_feed_eof:
 *
 * Says the body ended. A line or event without its terminator is
 * discarded, and viva_sse_reader_get_discarded() says so.
 */
void
viva_sse_reader_feed_eof (VivaSseReader *self)
{
  g_return_if_fail (VIVA_IS_SSE_READER (self));

  if (self->eof)
    return;

  self->eof = TRUE;
  if (self->line->len > 0 || self->data->len > 0 || self->has_field ||
      (!self->started && self->bom_matched > 0))
    self->discarded = TRUE;

  g_string_truncate (self->line, 0);
  g_string_truncate (self->data, 0);
  g_clear_pointer (&self->event, g_free);
  self->has_field = FALSE;
}

/**
 * viva_sse_reader_pop_event:
 *
 * Returns: (transfer full) (nullable): the next complete event, or %NULL
 */
VivaSseEvent *
viva_sse_reader_pop_event (VivaSseReader *self)
{
  g_return_val_if_fail (VIVA_IS_SSE_READER (self), NULL);
  return g_queue_pop_head (&self->events);
}

gboolean
viva_sse_reader_get_eof (VivaSseReader *self)
{
  g_return_val_if_fail (VIVA_IS_SSE_READER (self), FALSE);
  return self->eof;
}

/**
 * viva_sse_reader_get_discarded:
 *
 * Returns: %TRUE when the body ended in the middle of an event
 */
gboolean
viva_sse_reader_get_discarded (VivaSseReader *self)
{
  g_return_val_if_fail (VIVA_IS_SSE_READER (self), FALSE);
  return self->discarded;
}

guint64
viva_sse_reader_get_bytes_read (VivaSseReader *self)
{
  g_return_val_if_fail (VIVA_IS_SSE_READER (self), 0);
  return self->bytes_read;
}

static void
viva_sse_reader_read_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaSseReader *self = g_task_get_source_object (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  VivaSseEvent *event;

  g_assert (VIVA_IS_SSE_READER (self));

  self->reading = FALSE;

  if (!(bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (g_bytes_get_size (bytes) == 0)
    viva_sse_reader_feed_eof (self);
  else
    viva_sse_reader_feed (self, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  if ((event = viva_sse_reader_pop_event (self)))
    return g_task_return_pointer (task, event, (GDestroyNotify)viva_sse_event_free);

  if (self->limit_error != NULL)
    return g_task_return_error (task, g_error_copy (self->limit_error));

  if (self->eof)
    return g_task_return_pointer (task, NULL, NULL);

  if (g_task_return_error_if_cancelled (task))
    return;

  self->reading = TRUE;
  g_input_stream_read_bytes_async (self->stream, READ_SIZE,
                                   g_task_get_priority (task),
                                   g_task_get_cancellable (task),
                                   viva_sse_reader_read_cb,
                                   g_object_ref (task));
}

/**
 * viva_sse_reader_read_event_async:
 *
 * Reads until the next complete event, or the end of the body. One read
 * at a time; the callback runs on the caller's thread-default context.
 * Past a limit (viva_sse_reader_set_limits()) it fails with
 * %VIVA_MODEL_ERROR_REPLY_LIMIT.
 */
void
viva_sse_reader_read_event_async (VivaSseReader       *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  VivaSseEvent *event;

  g_return_if_fail (VIVA_IS_SSE_READER (self));
  g_return_if_fail (self->stream != NULL);
  g_return_if_fail (!self->reading);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_sse_reader_read_event_async);

  if ((event = viva_sse_reader_pop_event (self)))
    return g_task_return_pointer (task, event, (GDestroyNotify)viva_sse_event_free);

  if (self->limit_error != NULL)
    return g_task_return_error (task, g_error_copy (self->limit_error));

  if (self->eof)
    return g_task_return_pointer (task, NULL, NULL);

  self->reading = TRUE;
  g_input_stream_read_bytes_async (self->stream, READ_SIZE, G_PRIORITY_DEFAULT,
                                   cancellable, viva_sse_reader_read_cb,
                                   g_steal_pointer (&task));
}

/**
 * viva_sse_reader_read_event_finish:
 *
 * Returns: (transfer full) (nullable): the next event, or %NULL at the end
 *   of the body (then @error is unset) or on failure (then it is set)
 */
VivaSseEvent *
viva_sse_reader_read_event_finish (VivaSseReader  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (VIVA_IS_SSE_READER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
