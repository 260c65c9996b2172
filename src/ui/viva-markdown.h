/* viva-markdown.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void viva_markdown_render        (GtkTextBuffer *buffer,
                                  const char    *markdown);
void viva_markdown_insert        (GtkTextBuffer *buffer,
                                  GtkTextIter   *iter,
                                  const char    *markdown,
                                  gssize         length);
void viva_markdown_insert_code   (GtkTextBuffer *buffer,
                                  GtkTextIter   *iter,
                                  const char    *code,
                                  const char    *language);
void viva_markdown_attach_links  (GtkTextView   *view);

G_END_DECLS
