/* viva-markdown-stream.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VIVA_TYPE_MARKDOWN_STREAM (viva_markdown_stream_get_type())

G_DECLARE_FINAL_TYPE (VivaMarkdownStream, viva_markdown_stream, VIVA, MARKDOWN_STREAM, GtkWidget)

GtkWidget  *viva_markdown_stream_new          (void);
void        viva_markdown_stream_append       (VivaMarkdownStream *self,
                                               const char         *text,
                                               gssize              length);
void        viva_markdown_stream_finish       (VivaMarkdownStream *self);
void        viva_markdown_stream_set_markdown (VivaMarkdownStream *self,
                                               const char         *markdown);
gboolean    viva_markdown_stream_get_empty    (VivaMarkdownStream *self);
gsize       viva_markdown_stream_get_length   (VivaMarkdownStream *self);
guint       viva_markdown_stream_get_n_segments (VivaMarkdownStream *self);
char       *viva_markdown_stream_dup_text     (VivaMarkdownStream *self);
void        viva_markdown_stream_flush        (VivaMarkdownStream *self);

G_END_DECLS
