/* viva-think-splitter-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-model.h"

G_BEGIN_DECLS

typedef enum
{
  THINK_START,    /* no content yet: it may open with <think> */
  THINK_INSIDE,   /* inside <think>: content is reasoning */
  THINK_AFTER,    /* just after </think>: drop the blank lines */
  THINK_NONE,     /* plain content */
} ThinkState;

/* Receives each piece: @kind says content or reasoning; @text is not
 * NUL-terminated. */
typedef void (*VivaThinkSplitterFunc) (VivaChatDeltaKind  kind,
                                       const char        *text,
                                       gsize              length,
                                       gpointer           user_data);

typedef struct
{
  GString               *pending;   /* content held back: maybe a tag */
  ThinkState             state;
  gboolean               began;     /* just after <think>: drop its blank lines */
  gsize                  space;     /* THINK_START: pending's blank start, scanned once */
  VivaThinkSplitterFunc  emit;
  gpointer               user_data;
} VivaThinkSplitter;

void     _viva_think_splitter_init        (VivaThinkSplitter     *self,
                                           VivaThinkSplitterFunc  emit,
                                           gpointer               user_data);
void     _viva_think_splitter_clear       (VivaThinkSplitter     *self);
void     _viva_think_splitter_add         (VivaThinkSplitter     *self,
                                           const char            *text);
void     _viva_think_splitter_flush       (VivaThinkSplitter     *self);
gboolean _viva_think_splitter_get_holding (VivaThinkSplitter     *self);

G_END_DECLS
