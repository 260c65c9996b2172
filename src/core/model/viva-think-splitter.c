/* viva-think-splitter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-think-splitter-private.h"

/* A model's `<think>…</think>` at the start of its content, left there by
 * a server without a reasoning parser (llama-server without
 * --reasoning-format, older Ollama), moved to the reasoning: content goes
 * in as it streams, pieces of content and reasoning come out, and a tag
 * cut across deltas is held back until it is whole. Used by
 * VivaReplyAssembler; no I/O. */

#define OPEN_TAG "<think>"
#define CLOSE_TAG "</think>"

void
_viva_think_splitter_init (VivaThinkSplitter     *self,
                           VivaThinkSplitterFunc  emit,
                           gpointer               user_data)
{
  self->pending = g_string_new (NULL);
  self->state = THINK_START;
  self->began = FALSE;
  self->space = 0;
  self->emit = emit;
  self->user_data = user_data;
}

void
_viva_think_splitter_clear (VivaThinkSplitter *self)
{
  g_string_free (self->pending, TRUE);
  self->pending = NULL;
}

static gsize
leading_space (const GString *text)
{
  gsize n = 0;

  while (n < text->len && g_ascii_isspace (text->str[n]))
    n++;
  return n;
}

/* The length of the longest end of @text that could begin @tag. */
static gsize
partial_tag_length (const GString *text,
                    const char    *tag)
{
  gsize tag_length = strlen (tag);

  for (gsize n = MIN (text->len, tag_length - 1); n > 0; n--)
    if (memcmp (text->str + text->len - n, tag, n) == 0)
      return n;

  return 0;
}

/* Runs the held-back content through the <think> states. */
static void
flow (VivaThinkSplitter *self)
{
  GString *pending = self->pending;

  while (pending->len > 0)
    {
      switch (self->state)
        {
        case THINK_START:
          {
            gsize skip = self->space;

            /* Only what came since is scanned: a stream of blank deltas
             * costs each its own length, not the whole held start. */
            while (skip < pending->len && g_ascii_isspace (pending->str[skip]))
              skip++;
            self->space = skip;
            if (skip == pending->len)
              return;

            if (pending->len - skip >= strlen (OPEN_TAG))
              {
                if (memcmp (pending->str + skip, OPEN_TAG, strlen (OPEN_TAG)) == 0)
                  {
                    g_string_erase (pending, 0, skip + strlen (OPEN_TAG));
                    self->state = THINK_INSIDE;
                    self->began = TRUE;
                    continue;
                  }
              }
            else if (memcmp (pending->str + skip, OPEN_TAG, pending->len - skip) == 0)
              return;

            self->state = THINK_NONE;
          }
          break;

        case THINK_INSIDE:
          {
            const char *close;
            gsize keep;

            /* The reasoning starts at its first word, not the tag's newline. */
            if (self->began)
              {
                g_string_erase (pending, 0, leading_space (pending));
                if (pending->len == 0)
                  return;
                self->began = FALSE;
              }

            close = g_strstr_len (pending->str, pending->len, CLOSE_TAG);
            if (close != NULL)
              {
                self->emit (VIVA_CHAT_DELTA_REASONING, pending->str, close - pending->str, self->user_data);
                g_string_erase (pending, 0, close - pending->str + strlen (CLOSE_TAG));
                self->state = THINK_AFTER;
                continue;
              }

            keep = partial_tag_length (pending, CLOSE_TAG);
            self->emit (VIVA_CHAT_DELTA_REASONING, pending->str, pending->len - keep, self->user_data);
            g_string_erase (pending, 0, pending->len - keep);
            return;
          }

        case THINK_AFTER:
          g_string_erase (pending, 0, leading_space (pending));
          if (pending->len == 0)
            return;
          self->state = THINK_NONE;
          break;

        case THINK_NONE:
        default:
          self->emit (VIVA_CHAT_DELTA_CONTENT, pending->str, pending->len, self->user_data);
          g_string_truncate (pending, 0);
          return;
        }
    }
}

/* Content text, not empty: passed on as it is once the start is past. */
void
_viva_think_splitter_add (VivaThinkSplitter *self,
                          const char        *text)
{
  if (self->state == THINK_NONE)
    return self->emit (VIVA_CHAT_DELTA_CONTENT, text, strlen (text), self->user_data);

  g_string_append (self->pending, text);
  flow (self);
}

/* What is still held back when the stream ends. */
void
_viva_think_splitter_flush (VivaThinkSplitter *self)
{
  if (self->state == THINK_INSIDE)
    self->emit (VIVA_CHAT_DELTA_REASONING, self->pending->str, self->pending->len, self->user_data);
  else if (self->state == THINK_START)
    self->emit (VIVA_CHAT_DELTA_CONTENT, self->pending->str, self->pending->len, self->user_data);

  g_string_truncate (self->pending, 0);
  self->state = THINK_NONE;
}

gboolean
_viva_think_splitter_get_holding (VivaThinkSplitter *self)
{
  return self->pending->len > 0;
}
