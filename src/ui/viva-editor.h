/* viva-editor.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

#define VIVA_TYPE_EDITOR (viva_editor_get_type())

G_DECLARE_FINAL_TYPE (VivaEditor, viva_editor, VIVA, EDITOR, GtkWidget)

GtkSourceBuffer *viva_editor_get_buffer     (VivaEditor *self);
GtkSourceView   *viva_editor_get_view       (VivaEditor *self);
char            *viva_editor_dup_text       (VivaEditor *self);
void             viva_editor_load_text      (VivaEditor *self,
                                             const char *text);
void             viva_editor_replace_text   (VivaEditor *self,
                                             const char *text);
void             viva_editor_mark_line      (VivaEditor *self,
                                             guint       line);
void             viva_editor_jump_to_line   (VivaEditor *self,
                                             guint       line);

G_END_DECLS
