/* viva-editor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "viva-editor.h"
#include "viva-python-indenter.h"

/* The code editor: a GtkSourceView set up for Python (indenting as IDLE
 * does, and Tab/Shift+Tab indenting a selection), with a style scheme that
 * follows the desktop's light or dark preference. */

struct _VivaEditor
{
  GtkWidget          parent_instance;
  GtkScrolledWindow *scroller;
  GtkSourceView     *view;
  GtkSourceBuffer   *buffer;
  GtkTextTag        *paused_tag;
};

G_DEFINE_FINAL_TYPE (VivaEditor, viva_editor, GTK_TYPE_WIDGET)

static void
viva_editor_update_scheme (VivaEditor *self)
{
  GtkSourceStyleSchemeManager *manager = gtk_source_style_scheme_manager_get_default ();
  AdwStyleManager *style_manager = adw_style_manager_get_default ();
  const char *id = adw_style_manager_get_dark (style_manager) ? "Adwaita-dark" : "Adwaita";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (manager, id);

  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (manager,
                                                         adw_style_manager_get_dark (style_manager) ? "classic-dark" : "classic");

  gtk_source_buffer_set_style_scheme (self->buffer, scheme);
}

static void
viva_editor_dispose (GObject *object)
{
  VivaEditor *self = (VivaEditor *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), VIVA_TYPE_EDITOR);

  G_OBJECT_CLASS (viva_editor_parent_class)->dispose (object);
}

static gboolean
viva_editor_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (VIVA_EDITOR (widget)->view));
}

static void
viva_editor_class_init (VivaEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_editor_dispose;
  widget_class->grab_focus = viva_editor_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaEditor, scroller);
  gtk_widget_class_bind_template_child (widget_class, VivaEditor, view);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
viva_editor_init (VivaEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  g_autoptr(GtkSourceIndenter) indenter = NULL;

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)));
  gtk_source_buffer_set_language (self->buffer,
                                  gtk_source_language_manager_get_language (languages, "python3"));
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, TRUE);
  indenter = viva_python_indenter_new ();
  gtk_source_view_set_indenter (self->view, indenter);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (viva_editor_update_scheme), self,
                           G_CONNECT_SWAPPED);
  viva_editor_update_scheme (self);
}

/**
 * viva_editor_get_buffer:
 *
 * Returns: (transfer none): the buffer holding the student's code
 */
GtkSourceBuffer *
viva_editor_get_buffer (VivaEditor *self)
{
  g_return_val_if_fail (VIVA_IS_EDITOR (self), NULL);

  return self->buffer;
}

/**
 * viva_editor_get_view:
 *
 * Returns: (transfer none): the source view
 */
GtkSourceView *
viva_editor_get_view (VivaEditor *self)
{
  g_return_val_if_fail (VIVA_IS_EDITOR (self), NULL);

  return self->view;
}

/**
 * viva_editor_dup_text:
 *
 * Returns: (transfer full): the whole code
 */
char *
viva_editor_dup_text (VivaEditor *self)
{
  GtkTextIter begin, end;

  g_return_val_if_fail (VIVA_IS_EDITOR (self), NULL);

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &begin, &end);

  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &begin, &end, TRUE);
}

/**
 * viva_editor_load_text:
 *
 * Shows another problem's code: not undoable, since undo must not cross
 * from one problem into another.
 */
void
viva_editor_load_text (VivaEditor *self,
                       const char *text)
{
  GtkTextIter begin;

  g_return_if_fail (VIVA_IS_EDITOR (self));

  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text ? text : "", -1);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), FALSE);

  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &begin);
  gtk_text_buffer_select_range (GTK_TEXT_BUFFER (self->buffer), &begin, &begin);
}

/**
 * viva_editor_replace_text:
 *
 * Replaces the code as one undoable step (Reset to starter code).
 */
void
viva_editor_replace_text (VivaEditor *self,
                          const char *text)
{
  GtkTextBuffer *buffer;
  GtkTextIter begin, end;

  g_return_if_fail (VIVA_IS_EDITOR (self));

  buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &begin, &end);
  gtk_text_buffer_delete (buffer, &begin, &end);
  gtk_text_buffer_insert (buffer, &begin, text ? text : "", -1);
  gtk_text_buffer_end_user_action (buffer);
}

/**
 * viva_editor_mark_line:
 * @line: a 1-based line number, or 0 to take the mark away
 *
 * Highlights the line a paused program is on, scrolls it into view and
 * puts the cursor there, without taking the focus from where it is.
 */
void
viva_editor_mark_line (VivaEditor *self,
                       guint       line)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_if_fail (VIVA_IS_EDITOR (self));

  buffer = GTK_TEXT_BUFFER (self->buffer);
  if (self->paused_tag == NULL)
    self->paused_tag = gtk_text_buffer_create_tag (buffer, NULL,
                                                   "paragraph-background", "rgba(229,165,10,0.30)",
                                                   NULL);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->paused_tag, &start, &end);
  if (line == 0 || line > (guint) gtk_text_buffer_get_line_count (buffer))
    return;

  gtk_text_buffer_get_iter_at_line (buffer, &start, line - 1);
  end = start;
  gtk_text_iter_forward_line (&end);
  gtk_text_buffer_apply_tag (buffer, self->paused_tag, &start, &end);
  gtk_text_buffer_place_cursor (buffer, &start);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &start, 0.2, FALSE, 0, 0);
}

/**
 * viva_editor_jump_to_line:
 * @line: a 1-based line number, as Python reports them
 */
void
viva_editor_jump_to_line (VivaEditor *self,
                          guint       line)
{
  GtkTextIter iter;

  g_return_if_fail (VIVA_IS_EDITOR (self));

  if (line == 0)
    return;

  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (self->buffer), &iter, line - 1);
  gtk_text_buffer_select_range (GTK_TEXT_BUFFER (self->buffer), &iter, &iter);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &iter, 0.2, FALSE, 0, 0);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}
