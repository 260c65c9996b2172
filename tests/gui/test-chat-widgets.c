/* test-chat-widgets.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "viva-chat-view.h"
#include "viva-markdown.h"
#include "viva-markdown-stream.h"
#include "viva-message-row.h"
#include "viva-resources.h"
#include "viva-tool-card.h"
#include "viva-verdict-card.h"

/* The examiner panel's widgets on their own: streamed Markdown comes out
 * as if rendered whole, whatever the chunking; cards show what a tool
 * returned; properties notify. Run under Xvfb (GTK needs a display). */

static const char *sample =
  "## Your solution\n\n"
  "Your `kmeans` alternates the **assignment** and the *update* steps.\n\n"
  "- squared distance, no `sqrt`\n"
  "- ties go to the lower index\n\n"
  "```python\n"
  "def nearest(p, cs):\n"
  "    return min(range(len(cs)), key=lambda c: d(p, cs[c]))\n"
  "```\n\n"
  "What happens when `k` equals the number of points?\n";

static guint
count_notifies (GObject    *object,
                const char *property)
{
  return GPOINTER_TO_UINT (g_object_get_data (object, property));
}

static void
notify_cb (GObject    *object,
           GParamSpec *pspec)
{
  guint n = count_notifies (object, pspec->name);

  g_object_set_data (object, pspec->name, GUINT_TO_POINTER (n + 1));
}

/* The text without its empty lines, which differ only in where blocks
 * were split. */
static char *
non_empty_lines (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_strstrip (lines[i])[0] == '\0')
        continue;
      g_string_append (out, lines[i]);
      g_string_append_c (out, '\n');
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_stream_chunks (void)
{
  g_autoptr(GtkTextBuffer) whole = gtk_text_buffer_new (NULL);
  g_autofree char *expected = NULL;
  g_autofree char *exact = NULL;
  GtkTextIter start, end;

  viva_markdown_render (whole, sample);
  gtk_text_buffer_get_bounds (whole, &start, &end);
  exact = gtk_text_buffer_get_text (whole, &start, &end, FALSE);
  expected = non_empty_lines (exact);

  for (gsize chunk = 1; chunk <= 9; chunk += 2)
    {
      GtkWidget *stream = g_object_ref_sink (viva_markdown_stream_new ());
      g_autofree char *text = NULL;
      g_autofree char *lines = NULL;
      gsize length = strlen (sample);

      g_signal_connect (stream, "notify", G_CALLBACK (notify_cb), NULL);
      g_assert_true (viva_markdown_stream_get_empty (VIVA_MARKDOWN_STREAM (stream)));

      for (gsize i = 0; i < length; i += chunk)
        viva_markdown_stream_append (VIVA_MARKDOWN_STREAM (stream), sample + i, MIN (chunk, length - i));
      viva_markdown_stream_finish (VIVA_MARKDOWN_STREAM (stream));

      g_assert_false (viva_markdown_stream_get_empty (VIVA_MARKDOWN_STREAM (stream)));
      g_assert_cmpuint (count_notifies (G_OBJECT (stream), "empty"), ==, 1);
      g_assert_cmpuint (viva_markdown_stream_get_length (VIVA_MARKDOWN_STREAM (stream)), ==, length);

      text = viva_markdown_stream_dup_text (VIVA_MARKDOWN_STREAM (stream));
      g_assert_null (strstr (text, "**"));
      g_assert_null (strstr (text, "```"));
      g_assert_nonnull (strstr (text, "• ties go to the lower index"));
      lines = non_empty_lines (text);
      g_assert_cmpstr (lines, ==, expected);
      /* Blank lines included: block by block is as the whole. */
      g_assert_cmpstr (text, ==, exact);

      g_assert_finalize_object (stream);
    }
}

static void
test_stream_spaces (void)
{
  GtkWidget *stream = g_object_ref_sink (viva_markdown_stream_new ());
  g_autofree char *text = NULL;

  /* Unmapped, each append is shown at once: the open paragraph is rendered
   * after the first and grows as plain text after the second. */
  viva_markdown_stream_append (VIVA_MARKDOWN_STREAM (stream), "Each *centre* moves to ", -1);
  viva_markdown_stream_append (VIVA_MARKDOWN_STREAM (stream), "the mean", -1);
  text = viva_markdown_stream_dup_text (VIVA_MARKDOWN_STREAM (stream));
  g_assert_cmpstr (text, ==, "Each centre moves to the mean");

  g_assert_finalize_object (stream);
}

static void
test_stream_segments (void)
{
  GtkWidget *stream = g_object_ref_sink (viva_markdown_stream_new ());
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *shown = NULL;

  for (guint i = 0; i < 400; i++)
    g_string_append_printf (text, "Paragraph %u says something about *centroids*.\n\n", i);

  /* As it streams: unmapped, each append is shown at once. */
  for (gsize i = 0; i < text->len; i += 64)
    viva_markdown_stream_append (VIVA_MARKDOWN_STREAM (stream), text->str + i, MIN (64, text->len - i));
  viva_markdown_stream_finish (VIVA_MARKDOWN_STREAM (stream));

  /* A long reply is kept in several text views. */
  g_assert_cmpuint (viva_markdown_stream_get_n_segments (VIVA_MARKDOWN_STREAM (stream)), >, 3);
  shown = viva_markdown_stream_dup_text (VIVA_MARKDOWN_STREAM (stream));
  g_assert_nonnull (strstr (shown, "Paragraph 0 says"));
  g_assert_nonnull (strstr (shown, "Paragraph 399 says something about centroids."));

  viva_markdown_stream_set_markdown (VIVA_MARKDOWN_STREAM (stream), "Only *this*.");
  g_clear_pointer (&shown, g_free);
  shown = viva_markdown_stream_dup_text (VIVA_MARKDOWN_STREAM (stream));
  g_assert_cmpstr (shown, ==, "Only this.");
  g_assert_cmpuint (viva_markdown_stream_get_n_segments (VIVA_MARKDOWN_STREAM (stream)), ==, 1);

  g_assert_finalize_object (stream);
}

/* The text shown so far, read from the text views without the flush that
 * viva_markdown_stream_dup_text() does first. */
static char *
shown_text (GtkWidget *stream)
{
  GString *text = g_string_new (NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (stream);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (child));
      g_autofree char *part = NULL;
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      part = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      g_string_append (text, part);
    }

  return g_string_free (text, FALSE);
}

static gboolean
deadline_cb (gpointer user_data)
{
  gboolean *passed = user_data;

  *passed = TRUE;
  return G_SOURCE_REMOVE;
}

typedef gboolean (*Condition) (GtkWidget *widget, gconstpointer data);

/* Runs the main loop until @condition holds, or for 20 seconds (a hang,
 * not a speed figure). */
static gboolean
wait_for (Condition      condition,
          GtkWidget     *widget,
          gconstpointer  data)
{
  gboolean passed = FALSE;
  guint deadline = g_timeout_add_seconds (20, deadline_cb, &passed);

  while (!condition (widget, data))
    {
      if (passed)
        return FALSE;
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (deadline);

  return TRUE;
}

static gboolean
shows (GtkWidget     *stream,
       gconstpointer  needle)
{
  g_autofree char *text = shown_text (stream);

  return strstr (text, needle) != NULL;
}

/* The chat view has grown past two pages and shows its end. */
static gboolean
at_long_end (GtkWidget     *view,
             gconstpointer  unused)
{
  GtkWidget *scroller = gtk_widget_get_first_child (view);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  double page = gtk_adjustment_get_page_size (adjustment);
  double upper = gtk_adjustment_get_upper (adjustment);

  return page > 0 && upper > 2 * page && gtk_adjustment_get_value (adjustment) >= upper - page - 1;
}

static void
test_stream_mapped (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = viva_chat_view_new ();
  GtkWidget *stream = viva_markdown_stream_new ();
  g_autoptr(GString) text = g_string_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 420, 500);
  gtk_window_set_child (GTK_WINDOW (window), view);
  viva_chat_view_append (VIVA_CHAT_VIEW (view), stream);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (stream))
    g_main_context_iteration (NULL, TRUE);

  /* In sight, text is shown at the next frames, not at each append, and
   * without waiting for the reply to finish; the view follows its end. */
  for (guint i = 0; i < 60; i++)
    g_string_append_printf (text, "Paragraph %u says something about *centroids*.\n\n", i);
  for (gsize i = 0; i < text->len; i += 16)
    {
      viva_markdown_stream_append (VIVA_MARKDOWN_STREAM (stream), text->str + i, MIN (16, text->len - i));
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_true (wait_for (shows, stream, "Paragraph 59 says something about centroids."));
  g_assert_true (wait_for (at_long_end, view, NULL));
  g_assert_true (viva_chat_view_get_follow (VIVA_CHAT_VIEW (view)));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_message_row (void)
{
  GtkWidget *examiner = g_object_ref_sink (viva_message_row_new (VIVA_MESSAGE_EXAMINER));
  GtkWidget *student = g_object_ref_sink (viva_message_row_new (VIVA_MESSAGE_STUDENT));
  g_autofree char *text = NULL;
  g_autofree char *said = NULL;

  g_signal_connect (examiner, "notify", G_CALLBACK (notify_cb), NULL);
  g_assert_true (viva_message_row_get_empty (VIVA_MESSAGE_ROW (examiner)));

  viva_message_row_append_reasoning (VIVA_MESSAGE_ROW (examiner), "Let me think.", -1);
  g_assert_false (viva_message_row_get_empty (VIVA_MESSAGE_ROW (examiner)));
  viva_message_row_append_content (VIVA_MESSAGE_ROW (examiner), "The **answer**", -1);
  viva_message_row_append_content (VIVA_MESSAGE_ROW (examiner), " is 42.", -1);
  viva_message_row_finish (VIVA_MESSAGE_ROW (examiner));
  viva_message_row_finish (VIVA_MESSAGE_ROW (examiner));
  g_assert_true (viva_message_row_get_finished (VIVA_MESSAGE_ROW (examiner)));
  g_assert_cmpuint (count_notifies (G_OBJECT (examiner), "finished"), ==, 1);

  /* The reasoning is not part of the answer. */
  text = viva_message_row_dup_text (VIVA_MESSAGE_ROW (examiner));
  g_assert_cmpstr (text, ==, "The answer is 42.");

  /* What a student types is shown as typed. */
  viva_message_row_set_text (VIVA_MESSAGE_ROW (student), "a **b** c");
  said = viva_message_row_dup_text (VIVA_MESSAGE_ROW (student));
  g_assert_cmpstr (said, ==, "a **b** c");
  g_assert_cmpint (viva_message_row_get_kind (VIVA_MESSAGE_ROW (student)), ==, VIVA_MESSAGE_STUDENT);

  g_assert_finalize_object (examiner);
  g_assert_finalize_object (student);
}

static JsonObject *
object_from (const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

static void
test_tool_card (void)
{
  g_autoptr(JsonObject) arguments = object_from ("{\"code\": \"assert kmeans([(0, 0)], 1)[1] == [0]\"}");
  g_autoptr(JsonObject) passed = object_from ("{\"status\": \"ok\", \"passed\": true, \"valid\": true, \"stdout\": \"\"}");
  g_autoptr(JsonObject) failed = object_from ("{\"status\": \"error\", \"passed\": false, \"valid\": true,"
                                              " \"error\": {\"type\": \"AssertionError\", \"message\": \"\", \"line\": 3}}");
  GtkWidget *card = g_object_ref_sink (viva_tool_card_new ("injectTestCase", arguments));
  GtkWidget *other = g_object_ref_sink (viva_tool_card_new ("runPython", NULL));
  GtkWidget *unknown = g_object_ref_sink (viva_tool_card_new ("somethingNew", NULL));

  g_signal_connect (card, "notify", G_CALLBACK (notify_cb), NULL);

  g_assert_cmpstr (viva_tool_card_get_title (VIVA_TOOL_CARD (card)), ==, "Testing an edge case");
  g_assert_cmpstr (viva_tool_card_get_tool_name (VIVA_TOOL_CARD (card)), ==, "injectTestCase");
  g_assert_cmpstr (viva_tool_card_get_title (VIVA_TOOL_CARD (unknown)), ==, "somethingNew");
  g_assert_cmpint (viva_tool_card_get_status (VIVA_TOOL_CARD (card)), ==, VIVA_TOOL_CARD_RUNNING);

  viva_tool_card_set_result (VIVA_TOOL_CARD (card), passed, 12);
  g_assert_cmpint (viva_tool_card_get_status (VIVA_TOOL_CARD (card)), ==, VIVA_TOOL_CARD_SUCCEEDED);
  g_assert_cmpuint (count_notifies (G_OBJECT (card), "status"), ==, 1);

  /* Setting the same status again does not notify. */
  viva_tool_card_set_status (VIVA_TOOL_CARD (card), VIVA_TOOL_CARD_SUCCEEDED);
  g_assert_cmpuint (count_notifies (G_OBJECT (card), "status"), ==, 1);

  viva_tool_card_set_result (VIVA_TOOL_CARD (card), failed, -1);
  g_assert_cmpint (viva_tool_card_get_status (VIVA_TOOL_CARD (card)), ==, VIVA_TOOL_CARD_FAILED);
  g_assert_cmpuint (count_notifies (G_OBJECT (card), "status"), ==, 2);

  viva_tool_card_set_error (VIVA_TOOL_CARD (other), "The arguments were not valid.");
  g_assert_cmpint (viva_tool_card_get_status (VIVA_TOOL_CARD (other)), ==, VIVA_TOOL_CARD_ERROR);

  g_assert_finalize_object (card);
  g_assert_finalize_object (other);
  g_assert_finalize_object (unknown);
}

static void
test_verdict_card (void)
{
  g_autoptr(JsonNode) node = json_from_string (
    "{\"status\": \"finished\", \"verdict\": \"pass\", \"score\": 85, \"comment\": \"Good **work**.\","
    " \"steps\": [\"readStudentCode\", \"runPython\", \"injectTestCase\", \"injectTestCase\", \"askStudent\"],"
    " \"evidence\": [\"S3\"],"
    " \"probes\": [{\"step\": \"S3\", \"code\": \"assert True\", \"passed\": true, \"valid\": true, \"status\": \"ok\"},"
    "              {\"step\": \"S4\", \"code\": \"assert False\", \"passed\": false, \"valid\": true, \"status\": \"error\","
    "               \"error_type\": \"AssertionError\", \"error_message\": \"\"}]}", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaExamVerdict) verdict = viva_exam_verdict_new_from_json (node, &error);
  GtkWidget *card;

  g_assert_no_error (error);
  g_assert_false (viva_exam_verdict_get_consistent (verdict));

  card = g_object_ref_sink (viva_verdict_card_new (verdict));
  g_assert_true (viva_verdict_card_get_verdict (VIVA_VERDICT_CARD (card)) == verdict);
  /* A pass with a failed probe is marked for what it is. */
  g_assert_true (gtk_widget_has_css_class (card, "success"));
  g_assert_finalize_object (card);
}

static void
test_chat_view (void)
{
  GtkWidget *view = g_object_ref_sink (viva_chat_view_new ());
  GtkWidget *row = viva_message_row_new (VIVA_MESSAGE_NOTE);

  g_signal_connect (view, "notify", G_CALLBACK (notify_cb), NULL);
  g_assert_cmpuint (viva_chat_view_get_n_rows (VIVA_CHAT_VIEW (view)), ==, 0);
  g_assert_true (viva_chat_view_get_follow (VIVA_CHAT_VIEW (view)));

  viva_chat_view_append (VIVA_CHAT_VIEW (view), row);
  viva_chat_view_append (VIVA_CHAT_VIEW (view), viva_message_row_new (VIVA_MESSAGE_STUDENT));
  g_assert_cmpuint (viva_chat_view_get_n_rows (VIVA_CHAT_VIEW (view)), ==, 2);
  g_assert_true (viva_chat_view_get_last_row (VIVA_CHAT_VIEW (view)) != row);

  viva_chat_view_remove (VIVA_CHAT_VIEW (view), row);
  g_assert_cmpuint (viva_chat_view_get_n_rows (VIVA_CHAT_VIEW (view)), ==, 1);
  viva_chat_view_clear (VIVA_CHAT_VIEW (view));
  g_assert_cmpuint (viva_chat_view_get_n_rows (VIVA_CHAT_VIEW (view)), ==, 0);
  g_assert_null (viva_chat_view_get_last_row (VIVA_CHAT_VIEW (view)));
  g_assert_cmpuint (count_notifies (G_OBJECT (view), "n-rows"), ==, 4);

  g_assert_finalize_object (view);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_resources_register (viva_get_resource ());

  g_test_add_func ("/viva/chat-widgets/markdown-stream/chunks", test_stream_chunks);
  g_test_add_func ("/viva/chat-widgets/markdown-stream/segments", test_stream_segments);
  g_test_add_func ("/viva/chat-widgets/markdown-stream/spaces", test_stream_spaces);
  g_test_add_func ("/viva/chat-widgets/markdown-stream/mapped", test_stream_mapped);
  g_test_add_func ("/viva/chat-widgets/message-row", test_message_row);
  g_test_add_func ("/viva/chat-widgets/tool-card", test_tool_card);
  g_test_add_func ("/viva/chat-widgets/verdict-card", test_verdict_card);
  g_test_add_func ("/viva/chat-widgets/chat-view", test_chat_view);

  return g_test_run ();
}
