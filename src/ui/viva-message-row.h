/* viva-message-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * VivaMessageKind:
 * @VIVA_MESSAGE_EXAMINER: the examiner's words, streamed Markdown
 * @VIVA_MESSAGE_STUDENT: what the student wrote, plain text
 * @VIVA_MESSAGE_QUESTION: a question the examiner waits on, shown large
 * @VIVA_MESSAGE_NOTE: a small muted note (a refused step, a stop)
 */
typedef enum
{
  VIVA_MESSAGE_EXAMINER,
  VIVA_MESSAGE_STUDENT,
  VIVA_MESSAGE_QUESTION,
  VIVA_MESSAGE_NOTE,
} VivaMessageKind;

#define VIVA_TYPE_MESSAGE_KIND (viva_message_kind_get_type ())
GType viva_message_kind_get_type (void) G_GNUC_CONST;

#define VIVA_TYPE_MESSAGE_ROW (viva_message_row_get_type())

G_DECLARE_FINAL_TYPE (VivaMessageRow, viva_message_row, VIVA, MESSAGE_ROW, GtkWidget)

GtkWidget       *viva_message_row_new              (VivaMessageKind  kind);
VivaMessageKind  viva_message_row_get_kind         (VivaMessageRow  *self);
void             viva_message_row_set_text         (VivaMessageRow  *self,
                                                    const char      *text);
void             viva_message_row_append_content   (VivaMessageRow  *self,
                                                    const char      *text,
                                                    gssize           length);
void             viva_message_row_append_reasoning (VivaMessageRow  *self,
                                                    const char      *text,
                                                    gssize           length);
void             viva_message_row_finish           (VivaMessageRow  *self);
gboolean         viva_message_row_get_empty        (VivaMessageRow  *self);
gboolean         viva_message_row_get_finished     (VivaMessageRow  *self);
char            *viva_message_row_dup_text         (VivaMessageRow  *self);

G_END_DECLS
