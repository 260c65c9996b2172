/* viva-worker-channel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The worker's side of the private channel (fd 3): events as one JSON
 * line each, written whole under one lock; the program's output -- from
 * print() through _viva.write and from fds 1 and 2, which are pipes read
 * back here -- buffered in the order it was written, capped, and sent as
 * stdout/stderr events built by hand (json-glib strings end at a NUL).
 * What is left at a crash is viva-worker-crash.c's. */

#define _GNU_SOURCE /* pipe2(), as Python.h gives viva-worker.c */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "viva-worker-private.h"

#define FLUSH_SIZE        16384
#define MAX_IMAGES        50

/* Output waiting to be sent, in the order it was written. */
VivaWorkerOutput viva_worker_output;

/* fds 1 and 2 are pipes read back here (C libraries, os.write), so their
 * output takes the same capped, ordered path as print(). The real stderr
 * is kept for faulthandler: a crash report must not wait for a thread. */
VivaWorkerFds viva_worker_fds = { .pipes = { -1, -1 }, .real_stderr = -1 };

GMutex viva_worker_write_lock;

static VivaWorkerOutput *const output = &viva_worker_output;
static VivaWorkerFds *const fds = &viva_worker_fds;

static void
channel_write (const char *data,
               gsize       length)
{
  g_mutex_lock (&viva_worker_write_lock);
  while (length > 0)
    {
      ssize_t n = send (CHANNEL_FD, data, length, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit (0); /* the app is gone, and nobody is left to tell */
      data += n;
      length -= n;
    }
  g_mutex_unlock (&viva_worker_write_lock);
}

void
viva_worker_channel_send (JsonBuilder *builder)
{
  g_autoptr(JsonNode) node = json_builder_get_root (builder);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GString) line = NULL;
  gsize length;
  g_autofree char *text = NULL;

  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, &length);
  line = g_string_new_len (text, length);
  g_string_append_c (line, '\n');
  channel_write (line->str, line->len);
}

JsonBuilder *
viva_worker_event_new (const char *event,
           gint64      id)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "event");
  json_builder_add_string_value (builder, event);
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, id);
  return builder;
}

/* Escapes @length bytes of @data as the inside of a JSON string into
 * @out (at most @out_size bytes, which must be at least 8), and says how
 * many bytes of @data it used. Control bytes and NUL become \u escapes
 * (the app decides how to show them), bytes that are not UTF-8 become
 * U+FFFD. No allocation and no locks: the crash handler uses it too. */
gsize
viva_worker_escape_json (const char *data,
             gsize       length,
             gsize      *consumed,
             char       *out,
             gsize       out_size)
{
  static const char hex[] = "0123456789abcdef";
  gsize i = 0;
  gsize n = 0;

  while (i < length && n + 7 <= out_size)
    {
      guchar c = data[i];

      if (c == '"' || c == '\\')
        {
          out[n++] = '\\';
          out[n++] = c;
          i++;
        }
      else if (c == '\n')
        {
          out[n++] = '\\';
          out[n++] = 'n';
          i++;
        }
      else if (c < 0x20 || c == 0x7f)
        {
          memcpy (out + n, "\\u00", 4);
          out[n + 4] = hex[c >> 4];
          out[n + 5] = hex[c & 15];
          n += 6;
          i++;
        }
      else if (c < 0x80)
        {
          out[n++] = c;
          i++;
        }
      else
        {
          gsize left = length - i;
          gunichar ch = g_utf8_get_char_validated (data + i, MIN (left, 4));
          gsize width;

          if (ch == (gunichar) -1 || ch == (gunichar) -2)
            {
              memcpy (out + n, "\\ufffd", 6);
              n += 6;
              i++;
              continue;
            }
          width = g_utf8_skip[c];
          memcpy (out + n, data + i, width);
          n += width;
          i += width;
        }
    }

  *consumed = i;
  return n;
}

static void
string_append_json (GString    *string,
                    const char *data,
                    gsize       length)
{
  char chunk[4096];

  while (length > 0)
    {
      gsize used;
      gsize n = viva_worker_escape_json (data, length, &used, chunk, sizeof chunk);

      g_string_append_len (string, chunk, n);
      data += used;
      length -= used;
    }
}

/* An output event, built by hand: json-glib strings end at the first NUL. */
static void
send_text (int         stream,
           gint64      id,
           const char *data,
           gsize       length)
{
  g_autoptr(GString) line = g_string_sized_new (length + 64);

  g_string_append_printf (line, "{\"event\":\"%s\",\"id\":%" G_GINT64_FORMAT ",\"text\":\"",
                          stream == 2 ? "stderr" : "stdout", id);
  string_append_json (line, data, length);
  g_string_append (line, "\"}\n");
  channel_write (line->str, line->len);
}

static void
output_flush_locked (void)
{
  if (output->pending->len == 0)
    return;

  send_text (output->stream, output->id, output->pending->str, output->pending->len);
  g_string_truncate (output->pending, 0);
}

void
viva_worker_output_flush (void)
{
  g_mutex_lock (&output->lock);
  output_flush_locked ();
  g_mutex_unlock (&output->lock);
}

void
viva_worker_output_init (void)
{
  output->pending = g_string_sized_new (FLUSH_SIZE);
  output->limit = 1 << 20;
}

/* A request starts: what threads printed since the last one goes first,
 * then the cap counts afresh. */
void
viva_worker_output_begin (gint64  id,
                          guint64 limit)
{
  g_mutex_lock (&output->lock);
  output_flush_locked (); /* what threads printed since the last run */
  output->id = id;
  output->limit = limit;
  output->written = 0;
  output->n_images = 0;
  output->truncated = FALSE;
  output->stream = 1;
  g_mutex_unlock (&output->lock);
}

static void
output_truncate_locked (void)
{
  g_autoptr(JsonBuilder) builder = NULL;

  output_flush_locked ();
  output->truncated = TRUE;
  builder = viva_worker_event_new ("truncated", output->id);
  json_builder_end_object (builder);
  viva_worker_channel_send (builder);
}

void
viva_worker_output_append (int         stream,
               const char *data,
               gsize       length)
{
  gboolean over = FALSE;

  g_mutex_lock (&output->lock);

  if (output->truncated)
    {
      g_mutex_unlock (&output->lock);
      return;
    }

  if (output->written + length > output->limit)
    {
      length = output->limit - output->written;
      /* Never cut a character in two: the channel carries UTF-8. */
      while (length > 0 && ((guchar) data[length] & 0xC0) == 0x80)
        length--;
      over = TRUE;
    }

  if (stream != output->stream)
    output_flush_locked ();
  output->stream = stream;
  g_string_append_len (output->pending, data, length);
  output->written += length;

  if (over)
    output_truncate_locked ();
  else if (output->pending->len >= FLUSH_SIZE)
    output_flush_locked ();

  g_mutex_unlock (&output->lock);
}

void
viva_worker_output_image (const guint8 *data,
              gsize         length)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autofree char *encoded = NULL;

  g_mutex_lock (&output->lock);

  if (output->truncated)
    ;
  else if (output->n_images >= MAX_IMAGES)
    output_truncate_locked ();
  else
    {
      output_flush_locked ();
      output->n_images++;
      encoded = g_base64_encode (data, length);
      builder = viva_worker_event_new ("image", output->id);
      json_builder_set_member_name (builder, "mime");
      json_builder_add_string_value (builder, "image/png");
      json_builder_set_member_name (builder, "data");
      json_builder_add_string_value (builder, encoded);
      json_builder_end_object (builder);
      viva_worker_channel_send (builder);
    }

  g_mutex_unlock (&output->lock);
}

/* fds 1 and 2 */

/* Reads what is waiting on fd 1 or 2 (index 0 or 1) without blocking. A
 * character cut at the end of a read is kept for the next one. */
void
viva_worker_fds_drain (int index)
{
  char buffer[8192 + 4];

  g_mutex_lock (&fds->lock);

  for (;;)
    {
      gsize carried = fds->n_carry[index];
      ssize_t n;
      const char *end;
      gsize length;

      memcpy (buffer, fds->carry[index], carried);
      n = read (fds->pipes[index], buffer + carried, sizeof buffer - 4);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;

      length = carried + n;
      fds->n_carry[index] = 0;
      if (!g_utf8_validate (buffer, length, &end) &&
          length - (end - buffer) < 4 &&
          g_utf8_get_char_validated (end, length - (end - buffer)) == (gunichar) -2)
        {
          fds->n_carry[index] = length - (end - buffer);
          memcpy (fds->carry[index], end, fds->n_carry[index]);
          length = end - buffer;
        }

      viva_worker_output_append (index + 1, buffer, length);
    }

  g_mutex_unlock (&fds->lock);
}

gpointer
viva_worker_fds_thread (gpointer data)
{
  struct pollfd polls[2] = {
    { .fd = fds->pipes[0], .events = POLLIN },
    { .fd = fds->pipes[1], .events = POLLIN },
  };

  for (;;)
    {
      if (poll (polls, 2, -1) < 0)
        continue;
      for (int i = 0; i < 2; i++)
        if (polls[i].revents & (POLLIN | POLLHUP))
          viva_worker_fds_drain (i);
    }

  return NULL;
}

gboolean
viva_worker_fds_redirect (GError **error)
{
  for (int i = 0; i < 2; i++)
    {
      int pipe_fds[2];

      if (pipe2 (pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0 ||
          dup2 (pipe_fds[1], i + 1) < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "cannot capture fd %d: %s", i + 1, g_strerror (saved_errno));
          return FALSE;
        }

      /* Writers block when the pipe is full; only our end is non-blocking. */
      fcntl (i + 1, F_SETFL, fcntl (i + 1, F_GETFL) & ~O_NONBLOCK);
      close (pipe_fds[1]);
      fds->pipes[i] = pipe_fds[0];
    }

  return TRUE;
}
