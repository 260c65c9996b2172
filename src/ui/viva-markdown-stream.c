/* viva-markdown-stream.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gtksourceview/gtksource.h>

#include "viva-markdown.h"
#include "viva-markdown-stream.h"

/* Markdown that arrives a few characters at a time, rendered so that a
 * delta costs the same at the end of a long reply as at its start.
 *
 * What has arrived is split at block boundaries (a blank line outside a
 * fence, or a closing fence). Completed blocks are rendered once with md4c
 * and never touched again. The open block after them, the tail, is
 * re-rendered as Markdown when one of its lines completes or a fifth of a
 * second has passed, while it is short, and otherwise grows as plain text
 * appended in place; it is rendered properly when it closes. Deltas are only appended to a string
 * and shown after the next frame, at most thirty times a second, so that
 * the frame after that lays out, follows the end and paints once.
 *
 * The text is kept in a column of text views, each holding a few thousand
 * characters: a finished segment is never laid out again, and only the
 * segments inside the scrolled window are snapshotted, so a long reply
 * does not make each frame dearer. */

#define LIVE_LIMIT    1024   /* bytes of open block re-rendered as it grows */
#define SEGMENT_CHARS 4000   /* characters per text view before a new one */
#define FLUSH_INTERVAL_US 33000 /* text shown at most 30 times a second */
#define LIVE_INTERVAL_US 200000 /* a long line's Markdown shown 5 times a second */

struct _VivaMarkdownStream
{
  GtkWidget      parent_instance;

  GtkTextView   *view;        /* the segment being written */
  gboolean       culled;      /* the last snapshot left a segment out */
  GtkTextBuffer *buffer;
  GtkTextMark   *tail_mark;   /* where the tail starts in @buffer */

  GString       *source;      /* all the Markdown received */
  GString       *tail;        /* Markdown of the open block, not committed */
  GString       *pending;     /* received but not shown yet */
  gsize          scan_pos;    /* first byte of @tail not yet split into lines */
  gsize          shown;       /* bytes of @tail shown, rendered or plain */
  guint          n_segments;
  guint          tick_id;
  guint          flush_id;     /* the idle after a frame that shows the text */
  gint64         last_flush;   /* frame time of the last flush */
  GtkAdjustment *vadjustment;  /* of the scrolled window it is in */
  char           fence_char;  /* inside a fence of this character, or 0 */
  guint          fence_len;

  gint64         last_render;  /* when the open block was last rendered */
  guint          tail_rendered : 1;
  guint          segment_full : 1;
  guint          finished : 1;
};

enum {
  PROP_0,
  PROP_EMPTY,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaMarkdownStream, viva_markdown_stream, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static void
viva_markdown_stream_new_segment (VivaMarkdownStream *self)
{
  GtkWidget *view = gtk_text_view_new ();
  GtkTextIter end;

  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (view, "viva-markdown");
  viva_markdown_attach_links (GTK_TEXT_VIEW (view));
  gtk_widget_set_parent (view, GTK_WIDGET (self));

  self->view = GTK_TEXT_VIEW (view);
  self->buffer = gtk_text_view_get_buffer (self->view);
  gtk_text_buffer_get_end_iter (self->buffer, &end);
  self->tail_mark = gtk_text_buffer_create_mark (self->buffer, NULL, &end, TRUE);
  self->n_segments++;
}

static void
viva_markdown_stream_delete_tail (VivaMarkdownStream *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_iter_at_mark (self->buffer, &start, self->tail_mark);
  gtk_text_buffer_get_end_iter (self->buffer, &end);
  if (!gtk_text_iter_equal (&start, &end))
    gtk_text_buffer_delete (self->buffer, &start, &end);
}

/* Removes the newlines at the end of the buffer, after the tail mark
 * unless @whole: a last line that is empty only adds height. */
static void
viva_markdown_stream_trim_end (VivaMarkdownStream *self,
                               gboolean            whole)
{
  GtkTextIter iter, end, tail;

  if (whole)
    gtk_text_buffer_get_start_iter (self->buffer, &tail);
  else
    gtk_text_buffer_get_iter_at_mark (self->buffer, &tail, self->tail_mark);
  gtk_text_buffer_get_end_iter (self->buffer, &end);
  iter = end;
  while (gtk_text_iter_compare (&iter, &tail) > 0)
    {
      GtkTextIter prev = iter;

      gtk_text_iter_backward_char (&prev);
      if (gtk_text_iter_get_char (&prev) != '\n')
        break;
      iter = prev;
    }
  if (gtk_text_iter_compare (&iter, &end) < 0)
    gtk_text_buffer_delete (self->buffer, &iter, &end);
}

/* Renders @markdown in place of the tail. A @live rendering of an open
 * block ends where its text does, so that plain text appended next goes
 * on the same line: its closing newline goes, and the spaces Markdown
 * drops at the end of a paragraph come back. */
static void
viva_markdown_stream_render_tail (VivaMarkdownStream *self,
                                  const char         *markdown,
                                  gsize               length,
                                  gboolean            live)
{
  GtkTextIter iter;
  gsize spaces = 0;

  viva_markdown_stream_delete_tail (self);
  gtk_text_buffer_get_iter_at_mark (self->buffer, &iter, self->tail_mark);
  viva_markdown_insert (self->buffer, &iter, markdown, length);

  if (!live)
    return;

  viva_markdown_stream_trim_end (self, FALSE);
  while (spaces < length && markdown[length - spaces - 1] == ' ')
    spaces++;
  if (spaces > 0 && spaces < length && markdown[length - spaces - 1] != '\n')
    {
      gtk_text_buffer_get_end_iter (self->buffer, &iter);
      gtk_text_buffer_insert (self->buffer, &iter, markdown + length - spaces, spaces);
    }
  self->last_render = g_get_monotonic_time ();
}

static void
viva_markdown_stream_insert_plain (VivaMarkdownStream *self,
                                   const char         *text,
                                   gsize               length)
{
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (self->buffer, &end);
  /* The open block starts on a line of its own. */
  if (self->shown == 0 && gtk_text_buffer_get_char_count (self->buffer) > 0 &&
      !gtk_text_iter_starts_line (&end))
    gtk_text_buffer_insert (self->buffer, &end, "\n", 1);
  gtk_text_buffer_insert (self->buffer, &end, text, length);
}

static gboolean
is_blank (const char *line,
          gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
      return FALSE;

  return TRUE;
}

/* Whether the complete line @line ends a block. */
static gboolean
viva_markdown_stream_ends_block (VivaMarkdownStream *self,
                                 const char         *line,
                                 gsize               length)
{
  gsize i = 0, run = 0;
  char c;

  while (i < length && i < 3 && line[i] == ' ')
    i++;
  c = i < length ? line[i] : '\0';
  if (c == '`' || c == '~')
    while (i + run < length && line[i + run] == c)
      run++;

  if (self->fence_char != '\0')
    {
      if (c == self->fence_char && run >= self->fence_len &&
          is_blank (line + i + run, length - i - run))
        {
          self->fence_char = '\0';
          return TRUE;
        }
      return FALSE;
    }

  if (run >= 3)
    {
      self->fence_char = c;
      self->fence_len = run;
      return FALSE;
    }

  return is_blank (line, length);
}

/* The end of the last complete block in the tail, or 0. */
static gsize
viva_markdown_stream_scan (VivaMarkdownStream *self)
{
  gsize boundary = 0;

  for (;;)
    {
      const char *start = self->tail->str + self->scan_pos;
      const char *nl = memchr (start, '\n', self->tail->len - self->scan_pos);

      if (nl == NULL)
        break;

      self->scan_pos = nl - self->tail->str + 1;
      if (viva_markdown_stream_ends_block (self, start, nl - start))
        boundary = self->scan_pos;
    }

  return boundary;
}

/* Shows what arrived of the open block: re-rendered as Markdown when a
 * line of it completes (or it starts) while it is short, appended as plain
 * text otherwise, so a frame costs at most one short block's rendering. */
static void
viva_markdown_stream_show_tail (VivaMarkdownStream *self)
{
  const char *fresh = self->tail->str + self->shown;
  gsize n_fresh = self->tail->len - self->shown;

  if (self->tail->len == 0)
    {
      viva_markdown_stream_delete_tail (self);
      self->tail_rendered = FALSE;
      self->shown = 0;
      return;
    }

  if (n_fresh == 0)
    return;

  /* The previous text view is full: the open block starts a new one. */
  if (self->segment_full)
    {
      viva_markdown_stream_trim_end (self, TRUE);
      viva_markdown_stream_new_segment (self);
      self->segment_full = FALSE;
    }

  if (self->tail->len <= LIVE_LIMIT &&
      (self->shown == 0 || memchr (fresh, '\n', n_fresh) != NULL ||
       g_get_monotonic_time () - self->last_render >= LIVE_INTERVAL_US))
    {
      viva_markdown_stream_render_tail (self, self->tail->str, self->tail->len, TRUE);
      self->tail_rendered = TRUE;
    }
  else if (self->tail->len > LIVE_LIMIT && self->tail_rendered)
    {
      viva_markdown_stream_delete_tail (self);
      self->shown = 0;
      viva_markdown_stream_insert_plain (self, self->tail->str, self->tail->len);
      self->tail_rendered = FALSE;
    }
  else
    {
      viva_markdown_stream_insert_plain (self, fresh, n_fresh);
    }

  self->shown = self->tail->len;
}

static void
viva_markdown_stream_commit (VivaMarkdownStream *self,
                             gsize               length)
{
  GtkTextIter end;

  viva_markdown_stream_render_tail (self, self->tail->str, length, FALSE);
  gtk_text_buffer_get_end_iter (self->buffer, &end);
  gtk_text_buffer_move_mark (self->buffer, self->tail_mark, &end);

  g_string_erase (self->tail, 0, length);
  self->scan_pos -= length;
  self->tail_rendered = FALSE;
  self->shown = 0;

  if (gtk_text_buffer_get_char_count (self->buffer) >= SEGMENT_CHARS)
    self->segment_full = TRUE;
}

static void
viva_markdown_stream_cancel_tick (VivaMarkdownStream *self)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  g_clear_handle_id (&self->flush_id, g_source_remove);
}

/**
 * viva_markdown_stream_flush:
 *
 * Shows what was appended since the last frame now. Appended text is
 * otherwise shown once per frame.
 */
void
viva_markdown_stream_flush (VivaMarkdownStream *self)
{
  gsize boundary;

  g_return_if_fail (VIVA_IS_MARKDOWN_STREAM (self));

  viva_markdown_stream_cancel_tick (self);

  if (self->pending->len == 0)
    return;

  g_string_append_len (self->tail, self->pending->str, self->pending->len);
  g_string_truncate (self->pending, 0);

  if ((boundary = viva_markdown_stream_scan (self)) > 0)
    viva_markdown_stream_commit (self, boundary);

  viva_markdown_stream_show_tail (self);
}

static gboolean
viva_markdown_stream_flush_cb (gpointer user_data)
{
  VivaMarkdownStream *self = VIVA_MARKDOWN_STREAM (user_data);

  self->flush_id = 0;
  viva_markdown_stream_flush (self);

  return G_SOURCE_REMOVE;
}

static gboolean
viva_markdown_stream_tick_cb (GtkWidget     *widget,
                              GdkFrameClock *clock,
                              gpointer       user_data)
{
  VivaMarkdownStream *self = VIVA_MARKDOWN_STREAM (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);

  /* A fast stream would otherwise lay out and draw every frame; a
   * thirtieth of a second reads as smoothly at a fraction of the cost. */
  if (now - self->last_flush < FLUSH_INTERVAL_US)
    return G_SOURCE_CONTINUE;

  /* Shown after this frame rather than in it: GtkTextView lays out new
   * lines in an idle after the text changes, which then runs before the
   * next frame, so that frame lays out, follows the end and paints once.
   * Text flushed here was painted twice, before its layout and again
   * after it, in a frame of its own, and each time the whole panel
   * moved. An idle rather than the frame's after-paint: the main loop
   * polls between the two, so a click or a key is answered after the
   * paint instead of waiting for the Markdown to render too. It runs
   * before GtkTextView's layout idle and the next frame, after input. */
  self->tick_id = 0;
  self->last_flush = now;
  self->flush_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 10, viva_markdown_stream_flush_cb, self, NULL);

  return G_SOURCE_REMOVE;
}

/**
 * viva_markdown_stream_append:
 * @length: bytes of @text, or -1 when nul-terminated
 *
 * Adds @text to the Markdown shown. Costs a string append now and a
 * bounded amount of work at the next frame, however long the text is.
 */
void
viva_markdown_stream_append (VivaMarkdownStream *self,
                             const char         *text,
                             gssize              length)
{
  gboolean was_empty;

  g_return_if_fail (VIVA_IS_MARKDOWN_STREAM (self));
  g_return_if_fail (text != NULL || length == 0);

  if (length < 0)
    length = strlen (text);
  if (length == 0)
    return;

  was_empty = self->source->len == 0;
  self->finished = FALSE;
  g_string_append_len (self->source, text, length);
  g_string_append_len (self->pending, text, length);

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    viva_markdown_stream_flush (self);
  else if (self->tick_id == 0 && self->flush_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), viva_markdown_stream_tick_cb,
                                                  NULL, NULL);

  if (was_empty)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMPTY]);
}

/**
 * viva_markdown_stream_finish:
 *
 * Renders the open block as Markdown: the text is complete.
 */
void
viva_markdown_stream_finish (VivaMarkdownStream *self)
{
  g_return_if_fail (VIVA_IS_MARKDOWN_STREAM (self));

  viva_markdown_stream_flush (self);

  if (self->tail->len > 0)
    viva_markdown_stream_commit (self, self->tail->len);
  viva_markdown_stream_trim_end (self, TRUE);

  self->scan_pos = 0;
  self->fence_char = '\0';
  self->finished = TRUE;
}

static void
viva_markdown_stream_clear (VivaMarkdownStream *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  self->view = NULL;
  self->buffer = NULL;
  self->tail_mark = NULL;
  self->n_segments = 0;
}

/**
 * viva_markdown_stream_set_markdown:
 *
 * Replaces the contents with @markdown, rendered at once.
 */
void
viva_markdown_stream_set_markdown (VivaMarkdownStream *self,
                                   const char         *markdown)
{
  gboolean was_empty;

  g_return_if_fail (VIVA_IS_MARKDOWN_STREAM (self));

  was_empty = self->source->len == 0;

  viva_markdown_stream_cancel_tick (self);
  viva_markdown_stream_clear (self);
  g_string_truncate (self->source, 0);
  g_string_truncate (self->tail, 0);
  g_string_truncate (self->pending, 0);
  self->scan_pos = 0;
  self->shown = 0;
  self->fence_char = '\0';
  self->tail_rendered = FALSE;
  self->segment_full = FALSE;
  viva_markdown_stream_new_segment (self);

  if (markdown != NULL && markdown[0] != '\0')
    {
      g_string_append (self->source, markdown);
      g_string_append (self->tail, markdown);
      viva_markdown_stream_commit (self, self->tail->len);
      viva_markdown_stream_trim_end (self, TRUE);
      self->segment_full = FALSE;
    }
  self->finished = TRUE;

  if (was_empty != (self->source->len == 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMPTY]);
}

gboolean
viva_markdown_stream_get_empty (VivaMarkdownStream *self)
{
  g_return_val_if_fail (VIVA_IS_MARKDOWN_STREAM (self), TRUE);

  return self->source->len == 0;
}

/**
 * viva_markdown_stream_get_length:
 *
 * Returns: the bytes of Markdown received
 */
gsize
viva_markdown_stream_get_length (VivaMarkdownStream *self)
{
  g_return_val_if_fail (VIVA_IS_MARKDOWN_STREAM (self), 0);

  return self->source->len;
}

guint
viva_markdown_stream_get_n_segments (VivaMarkdownStream *self)
{
  g_return_val_if_fail (VIVA_IS_MARKDOWN_STREAM (self), 0);

  return self->n_segments;
}

/**
 * viva_markdown_stream_dup_text:
 *
 * Returns: (transfer full): the text as shown, without the Markdown marks
 */
char *
viva_markdown_stream_dup_text (VivaMarkdownStream *self)
{
  GString *text;

  g_return_val_if_fail (VIVA_IS_MARKDOWN_STREAM (self), NULL);

  viva_markdown_stream_flush (self);
  text = g_string_new (NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (child));
      g_autofree char *part = NULL;
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      part = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      if (text->len > 0 && part[0] != '\0')
        g_string_append_c (text, '\n');
      g_string_append (text, part);
    }

  return g_string_free (text, FALSE);
}

static void
viva_markdown_stream_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t visible;

  VivaMarkdownStream *self = VIVA_MARKDOWN_STREAM (widget);

  self->culled = FALSE;

  /* Like a list view: segments scrolled out of sight are not drawn. */
  if (scroller == NULL || !gtk_widget_compute_bounds (scroller, widget, &visible))
    {
      GTK_WIDGET_CLASS (viva_markdown_stream_parent_class)->snapshot (widget, snapshot);
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;

      if (gtk_widget_compute_bounds (child, widget, &bounds) &&
          graphene_rect_intersection (&bounds, &visible, NULL))
        gtk_widget_snapshot_child (widget, child, snapshot);
      else
        self->culled = TRUE;
    }
}

static void
scrolled_cb (VivaMarkdownStream *self)
{
  /* GTK keeps the last render node while only the scroll position moves:
   * a stream drawn while partly or wholly out of sight (a row appended
   * below the fold, then scrolled to) must draw again, or it stays blank. */
  if (self->n_segments > 1 || self->culled)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
viva_markdown_stream_root (GtkWidget *widget)
{
  VivaMarkdownStream *self = VIVA_MARKDOWN_STREAM (widget);
  GtkWidget *scroller;

  GTK_WIDGET_CLASS (viva_markdown_stream_parent_class)->root (widget);

  /* What is in sight changes with the scrolling, not with the text. */
  scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  if (scroller != NULL)
    {
      g_set_object (&self->vadjustment, gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)));
      g_signal_connect_object (self->vadjustment, "value-changed", G_CALLBACK (scrolled_cb),
                               self, G_CONNECT_SWAPPED);
    }
}

static void
viva_markdown_stream_unroot (GtkWidget *widget)
{
  VivaMarkdownStream *self = VIVA_MARKDOWN_STREAM (widget);

  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, scrolled_cb, self);
  g_clear_object (&self->vadjustment);

  GTK_WIDGET_CLASS (viva_markdown_stream_parent_class)->unroot (widget);
}

static void
viva_markdown_stream_unmap (GtkWidget *widget)
{
  VivaMarkdownStream *self = VIVA_MARKDOWN_STREAM (widget);

  /* Ticks stop with the map; show what is waiting now. */
  viva_markdown_stream_flush (self);

  GTK_WIDGET_CLASS (viva_markdown_stream_parent_class)->unmap (widget);
}

static void
viva_markdown_stream_dispose (GObject *object)
{
  VivaMarkdownStream *self = (VivaMarkdownStream *)object;

  viva_markdown_stream_cancel_tick (self);
  viva_markdown_stream_clear (self);

  G_OBJECT_CLASS (viva_markdown_stream_parent_class)->dispose (object);
}

static void
viva_markdown_stream_finalize (GObject *object)
{
  VivaMarkdownStream *self = (VivaMarkdownStream *)object;

  g_string_free (self->source, TRUE);
  g_string_free (self->tail, TRUE);
  g_string_free (self->pending, TRUE);

  G_OBJECT_CLASS (viva_markdown_stream_parent_class)->finalize (object);
}

static void
viva_markdown_stream_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  VivaMarkdownStream *self = VIVA_MARKDOWN_STREAM (object);

  switch (prop_id)
    {
    case PROP_EMPTY:
      g_value_set_boolean (value, viva_markdown_stream_get_empty (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_markdown_stream_class_init (VivaMarkdownStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_markdown_stream_dispose;
  object_class->finalize = viva_markdown_stream_finalize;
  object_class->get_property = viva_markdown_stream_get_property;
  widget_class->unmap = viva_markdown_stream_unmap;
  widget_class->snapshot = viva_markdown_stream_snapshot;
  widget_class->root = viva_markdown_stream_root;
  widget_class->unroot = viva_markdown_stream_unroot;

  properties[PROP_EMPTY] =
    g_param_spec_boolean ("empty", NULL, NULL, TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "markdownstream");

  /* GtkSourceView drops a language's parsed definitions when the last
   * buffer using it goes, and viva_markdown_insert_code() highlights with a
   * scratch buffer per block: without a buffer that keeps Python's
   * definitions alive, every code block would parse its .lang files again
   * (tens of milliseconds a block). */
  {
    GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
    GtkSourceBuffer *keeper = gtk_source_buffer_new (NULL);
    GtkTextIter start, end;

    gtk_source_buffer_set_language (keeper, gtk_source_language_manager_get_language (languages, "python3"));
    gtk_text_buffer_set_text (GTK_TEXT_BUFFER (keeper), "pass\n", -1);
    gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (keeper), &start, &end);
    gtk_source_buffer_ensure_highlight (keeper, &start, &end);
    g_object_set_data_full (G_OBJECT (languages), "viva-language-keeper", keeper, g_object_unref);
  }
}

static void
viva_markdown_stream_init (VivaMarkdownStream *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->source = g_string_new (NULL);
  self->tail = g_string_new (NULL);
  self->pending = g_string_new (NULL);
  viva_markdown_stream_new_segment (self);
}

GtkWidget *
viva_markdown_stream_new (void)
{
  return g_object_new (VIVA_TYPE_MARKDOWN_STREAM, NULL);
}
