/* test-sse-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-error.h"
#include "viva-reply-limits.h"
#include "viva-sse-reader.h"
#include "viva-test-server.h"

static GPtrArray *
collect (VivaSseReader *reader,
         GPtrArray     *events)
{
  VivaSseEvent *event;

  while ((event = viva_sse_reader_pop_event (reader)))
    g_ptr_array_add (events, event);
  return events;
}

/* Feeds @text cut at @splits (sorted offsets) and returns the events. */
static GPtrArray *
parse (VivaSseFormat  format,
       const char    *text,
       gsize          length,
       const gsize   *splits,
       guint          n_splits,
       gboolean      *discarded)
{
  g_autoptr(VivaSseReader) reader = viva_sse_reader_new (NULL, format);
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_sse_event_free);
  gsize start = 0;

  for (guint i = 0; i <= n_splits; i++)
    {
      gsize end = i < n_splits ? splits[i] : length;

      viva_sse_reader_feed (reader, text + start, end - start);
      collect (reader, events);
      start = end;
    }

  viva_sse_reader_feed_eof (reader);
  collect (reader, events);
  if (discarded != NULL)
    *discarded = viva_sse_reader_get_discarded (reader);
  g_assert_cmpuint (viva_sse_reader_get_bytes_read (reader), ==, length);

  return events;
}

static void
assert_same_events (GPtrArray *a,
                    GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      VivaSseEvent *x = g_ptr_array_index (a, i);
      VivaSseEvent *y = g_ptr_array_index (b, i);

      g_assert_cmpstr (x->event, ==, y->event);
      g_assert_cmpstr (x->data, ==, y->data);
      g_assert_cmpstr (x->id, ==, y->id);
    }
}

static void
test_framing (void)
{
  static const char text[] =
    "\xEF\xBB\xBF: comment\n"
    "event: delta\nid: 7\ndata: a\ndata:b\n\n"
    "data: crlf\r\n\r\n"
    "data: cr\r\r"
    "data\n\n"
    "event: lonely\n\n"
    "retry: 10\nfoo: bar\ndata: last\n\n"
    "error: {\"code\":500}\n\n";
  g_autoptr(GPtrArray) events = parse (VIVA_SSE_FORMAT_EVENT_STREAM, text, strlen (text), NULL, 0, NULL);
  VivaSseEvent *event;

  g_assert_cmpuint (events->len, ==, 6);
  event = g_ptr_array_index (events, 0);
  g_assert_cmpstr (event->event, ==, "delta");
  g_assert_cmpstr (event->id, ==, "7");
  g_assert_cmpstr (event->data, ==, "a\nb");
  g_assert_cmpstr (((VivaSseEvent *)g_ptr_array_index (events, 1))->data, ==, "crlf");
  g_assert_cmpstr (((VivaSseEvent *)g_ptr_array_index (events, 2))->data, ==, "cr");
  /* "data" with no colon is a data field with an empty value. */
  g_assert_cmpstr (((VivaSseEvent *)g_ptr_array_index (events, 3))->data, ==, "");
  g_assert_null (((VivaSseEvent *)g_ptr_array_index (events, 3))->event);
  /* The id persists across events, as the spec says. */
  g_assert_cmpstr (((VivaSseEvent *)g_ptr_array_index (events, 4))->data, ==, "last");
  g_assert_cmpstr (((VivaSseEvent *)g_ptr_array_index (events, 4))->id, ==, "7");
  event = g_ptr_array_index (events, 5);
  g_assert_cmpstr (event->event, ==, "error");
  g_assert_cmpstr (event->data, ==, "{\"code\":500}");
}

static void
test_cut_off (void)
{
  static const char text[] = "data: one\n\ndata: two\n";
  gboolean discarded = FALSE;
  g_autoptr(GPtrArray) events = parse (VIVA_SSE_FORMAT_EVENT_STREAM, text, strlen (text), NULL, 0, &discarded);

  g_assert_cmpuint (events->len, ==, 1);
  g_assert_cmpstr (((VivaSseEvent *)g_ptr_array_index (events, 0))->data, ==, "one");
  g_assert_true (discarded);
}

static void
test_clean_end (void)
{
  static const char text[] = "data: one\n\n";
  gboolean discarded = TRUE;
  g_autoptr(GPtrArray) events = parse (VIVA_SSE_FORMAT_EVENT_STREAM, text, strlen (text), NULL, 0, &discarded);

  g_assert_cmpuint (events->len, ==, 1);
  g_assert_false (discarded);
}

static void
test_ndjson (void)
{
  static const char text[] = "{\"a\":1}\n\n  {\"b\":2}\r\n{\"c\":";
  gboolean discarded = FALSE;
  g_autoptr(GPtrArray) events = parse (VIVA_SSE_FORMAT_NDJSON, text, strlen (text), NULL, 0, &discarded);

  g_assert_cmpuint (events->len, ==, 2);
  g_assert_cmpstr (((VivaSseEvent *)g_ptr_array_index (events, 0))->data, ==, "{\"a\":1}");
  g_assert_cmpstr (((VivaSseEvent *)g_ptr_array_index (events, 1))->data, ==, "{\"b\":2}");
  g_assert_true (discarded);
}

static void
check_all_splits (VivaSseFormat  format,
                  const char    *text,
                  gsize          length)
{
  g_autoptr(GPtrArray) whole = parse (format, text, length, NULL, 0, NULL);
  g_autofree gsize *bytes = g_new (gsize, length);

  g_assert_cmpuint (whole->len, >, 0);

  for (gsize split = 1; split < length; split++)
    {
      g_autoptr(GPtrArray) events = parse (format, text, length, &split, 1, NULL);

      assert_same_events (whole, events);
    }

  for (gsize i = 0; i + 1 < length; i++)
    bytes[i] = i + 1;
  {
    g_autoptr(GPtrArray) events = parse (format, text, length, bytes, length > 0 ? length - 1 : 0, NULL);

    assert_same_events (whole, events);
  }
}

/* Every fixture gives the same events however its bytes are cut: at each
 * single split point, and one byte at a time. */
static void
test_fixture_splits (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "model", "fixtures", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize length;

      if (!g_str_has_suffix (name, ".sse") && !g_str_has_suffix (name, ".ndjson"))
        continue;

      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      check_all_splits (g_str_has_suffix (name, ".sse") ? VIVA_SSE_FORMAT_EVENT_STREAM : VIVA_SSE_FORMAT_NDJSON,
                        contents, length);
      n++;
    }

  g_assert_cmpuint (n, >=, 20);
}

/* CR LF cut between the two bytes is one line end, not two. */
static void
test_crlf_split (void)
{
  static const char text[] = "data: a\r\n\r\ndata: b\r\n\r\n";
  gsize split = 8;
  g_autoptr(GPtrArray) events = parse (VIVA_SSE_FORMAT_EVENT_STREAM, text, strlen (text), &split, 1, NULL);

  g_assert_cmpuint (events->len, ==, 2);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static void
test_async (void)
{
  static const char text[] = ": ping\n\ndata: one\n\ndata: two\n\ndata: thr";
  g_autoptr(GInputStream) stream = g_memory_input_stream_new ();
  g_autoptr(VivaSseReader) reader = NULL;
  const char *expected[] = { "one", "two" };

  /* Many small buffers, so events span reads. */
  for (gsize i = 0; i < strlen (text); i += 3)
    g_memory_input_stream_add_data (G_MEMORY_INPUT_STREAM (stream),
                                    g_strndup (text + i, MIN (3, strlen (text) - i)), -1, g_free);

  reader = viva_sse_reader_new (stream, VIVA_SSE_FORMAT_EVENT_STREAM);
  g_assert_true (viva_sse_reader_get_stream (reader) == stream);
  g_assert_cmpint (viva_sse_reader_get_format (reader), ==, VIVA_SSE_FORMAT_EVENT_STREAM);

  for (guint i = 0; i <= G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(VivaSseEvent) event = NULL;
      g_autoptr(GError) error = NULL;

      viva_sse_reader_read_event_async (reader, NULL, read_cb, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);

      event = viva_sse_reader_read_event_finish (reader, result, &error);
      g_assert_no_error (error);
      if (i < G_N_ELEMENTS (expected))
        g_assert_cmpstr (event->data, ==, expected[i]);
      else
        g_assert_null (event);
    }

  g_assert_true (viva_sse_reader_get_eof (reader));
  g_assert_true (viva_sse_reader_get_discarded (reader));
}

static void
test_async_cancelled (void)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data ("data: x", 7, NULL);
  g_autoptr(VivaSseReader) reader = viva_sse_reader_new (stream, VIVA_SSE_FORMAT_EVENT_STREAM);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaSseEvent *event;

  g_cancellable_cancel (cancellable);
  viva_sse_reader_read_event_async (reader, cancellable, read_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  event = viva_sse_reader_read_event_finish (reader, result, &error);
  g_assert_null (event);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_create_destroy (void)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new ();
  VivaSseReader *reader = viva_sse_reader_new (stream, VIVA_SSE_FORMAT_NDJSON);
  VivaSseEvent event = { (char *)"e", (char *)"d", (char *)"i" };
  g_autoptr(VivaSseEvent) copy = viva_sse_event_copy (&event);

  g_assert_cmpstr (copy->data, ==, "d");
  viva_sse_reader_feed (reader, "{}\n{", 4);
  g_assert_finalize_object (reader);
  g_assert_finalize_object (g_steal_pointer (&stream));
}

/* One endless line, in pieces as a socket gives it: past the limit the
 * reader stops and lets go, whatever the cut, in either format. */
static void
test_line_limit (void)
{
  static const char piece[] = "data: {\"choices\":[{\"delta\":{\"content\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

  for (guint format = VIVA_SSE_FORMAT_EVENT_STREAM; format <= VIVA_SSE_FORMAT_NDJSON; format++)
    {
      g_autoptr(VivaSseReader) reader = viva_sse_reader_new (NULL, format);
      g_autofree char *chunk = g_strnfill (8192, 'a');
      guint fed = 0;

      viva_sse_reader_set_limits (reader, 64 * 1024, 0);
      viva_sse_reader_feed (reader, piece, strlen (piece));
      while (viva_sse_reader_get_error (reader) == NULL && fed < 1000)
        {
          viva_sse_reader_feed (reader, chunk, 8192);
          fed++;
        }

      g_assert_error ((GError *)viva_sse_reader_get_error (reader), VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_cmpuint (fed, ==, 8);
      g_assert_nonnull (strstr (viva_sse_reader_get_error (reader)->message, "64.0"));
      g_assert_nonnull (strstr (viva_sse_reader_get_error (reader)->message, "KiB"));
      g_assert_null (viva_sse_reader_pop_event (reader));
      /* More bytes change nothing. */
      viva_sse_reader_feed (reader, "\n\n", 2);
      g_assert_null (viva_sse_reader_pop_event (reader));
    }
}

/* Many short data: lines of one event count together. */
static void
test_event_limit (void)
{
  g_autoptr(VivaSseReader) reader = viva_sse_reader_new (NULL, VIVA_SSE_FORMAT_EVENT_STREAM);
  g_autoptr(GString) text = g_string_new ("data: ok\n\n");

  for (guint i = 0; i < 200; i++)
    g_string_append (text, "data: 0123456789012345678901234567890123456789\n");
  viva_sse_reader_set_limits (reader, 4096, 0);
  viva_sse_reader_feed (reader, text->str, text->len);

  /* What came before the breach is still read. */
  g_assert_cmpstr (viva_sse_reader_pop_event (reader)->data, ==, "ok");
  g_assert_error ((GError *)viva_sse_reader_get_error (reader), VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
}

/* An endless stream of keep-alive comments: no event, no long line, but
 * the reply's bytes end it. */
static void
test_bytes_limit (void)
{
  g_autoptr(VivaSseReader) reader = viva_sse_reader_new (NULL, VIVA_SSE_FORMAT_EVENT_STREAM);
  guint fed = 0;

  g_assert_cmpuint (VIVA_REPLY_DEFAULT_MAX_LINE, ==, 1024 * 1024);
  g_assert_cmpuint (VIVA_REPLY_DEFAULT_MAX_BYTES, ==, 32 * 1024 * 1024);
  viva_sse_reader_set_limits (reader, 0, 100 * 1000);
  while (viva_sse_reader_get_error (reader) == NULL && fed < 100000)
    {
      viva_sse_reader_feed (reader, ": keep-alive\n", 13);
      fed++;
    }

  g_assert_error ((GError *)viva_sse_reader_get_error (reader), VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
  g_assert_cmpuint (viva_sse_reader_get_bytes_read (reader), <=, 100 * 1000);
  g_assert_cmpuint (fed, ==, 100 * 1000 / 13 + 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/model/sse-reader/create-destroy", test_create_destroy);
  g_test_add_func ("/viva/model/sse-reader/framing", test_framing);
  g_test_add_func ("/viva/model/sse-reader/cut-off", test_cut_off);
  g_test_add_func ("/viva/model/sse-reader/clean-end", test_clean_end);
  g_test_add_func ("/viva/model/sse-reader/ndjson", test_ndjson);
  g_test_add_func ("/viva/model/sse-reader/crlf-split", test_crlf_split);
  g_test_add_func ("/viva/model/sse-reader/fixture-splits", test_fixture_splits);
  g_test_add_func ("/viva/model/sse-reader/async", test_async);
  g_test_add_func ("/viva/model/sse-reader/async-cancelled", test_async_cancelled);
  g_test_add_func ("/viva/model/sse-reader/line-limit", test_line_limit);
  g_test_add_func ("/viva/model/sse-reader/event-limit", test_event_limit);
  g_test_add_func ("/viva/model/sse-reader/bytes-limit", test_bytes_limit);

  return g_test_run ();
}
