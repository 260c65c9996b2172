/* viva-chat-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VIVA_TYPE_CHAT_VIEW (viva_chat_view_get_type())

G_DECLARE_FINAL_TYPE (VivaChatView, viva_chat_view, VIVA, CHAT_VIEW, GtkWidget)

GtkWidget *viva_chat_view_new          (void);
void       viva_chat_view_append       (VivaChatView *self,
                                        GtkWidget    *row);
void       viva_chat_view_remove       (VivaChatView *self,
                                        GtkWidget    *row);
void       viva_chat_view_clear        (VivaChatView *self);
guint      viva_chat_view_get_n_rows   (VivaChatView *self);
GtkWidget *viva_chat_view_get_last_row (VivaChatView *self);
gboolean   viva_chat_view_get_follow   (VivaChatView *self);
void       viva_chat_view_scroll_to_end (VivaChatView *self);

G_END_DECLS
