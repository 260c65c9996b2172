/* viva-buffer-code-source.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "viva-code-source.h"

G_BEGIN_DECLS

#define VIVA_TYPE_BUFFER_CODE_SOURCE (viva_buffer_code_source_get_type())

G_DECLARE_FINAL_TYPE (VivaBufferCodeSource, viva_buffer_code_source, VIVA, BUFFER_CODE_SOURCE, GObject)

VivaBufferCodeSource *viva_buffer_code_source_new        (GtkTextBuffer        *buffer);
GtkTextBuffer        *viva_buffer_code_source_get_buffer (VivaBufferCodeSource *self);

G_END_DECLS
