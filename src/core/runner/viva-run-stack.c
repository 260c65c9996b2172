/* viva-run-stack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-run-stack.h"

/* Where a paused program stands, or the frame an exception came from: the
 * worker writes it as flat lines of tab-separated fields ("F file line
 * function", then "L name type value" per variable; viva-worker-pause.c).
 * The text comes from the student's process, so it is read as hostile
 * data: bounded in size, frames, variables and field length, no recursion,
 * anything else skipped. */

#define MAX_FIELD 400

struct _VivaRunStack
{
  GObject    parent_instance;
  GPtrArray *frames;
  int        line;
  guint      depth;
};

G_DEFINE_FINAL_TYPE (VivaRunStack, viva_run_stack, G_TYPE_OBJECT)

static void
local_free (VivaRunLocal *local)
{
  g_free (local->name);
  g_free (local->type_name);
  g_free (local->value);
  g_free (local);
}

static void
frame_free (VivaRunFrame *frame)
{
  g_free (frame->file);
  g_free (frame->function);
  g_ptr_array_unref (frame->locals);
  g_free (frame);
}

static char *
field (const char *text)
{
  if (g_utf8_strlen (text, MAX_FIELD + 1) <= MAX_FIELD)
    return g_strdup (text);
  return g_utf8_substring (text, 0, MAX_FIELD);
}

static void
viva_run_stack_finalize (GObject *object)
{
  VivaRunStack *self = (VivaRunStack *) object;

  g_ptr_array_unref (self->frames);
  G_OBJECT_CLASS (viva_run_stack_parent_class)->finalize (object);
}

static void
viva_run_stack_class_init (VivaRunStackClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_run_stack_finalize;
}

static void
viva_run_stack_init (VivaRunStack *self)
{
  self->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) frame_free);
}

/**
 * viva_run_stack_parse:
 * @text: the worker's lines, innermost frame first
 * @line: the line the innermost frame is on, as the worker said
 * @depth: how many frames of the student's code there were in all
 *
 * Returns: (transfer full): the stack; frames past
 *   %VIVA_RUN_STACK_MAX_FRAMES and variables past
 *   %VIVA_RUN_STACK_MAX_LOCALS are left out, and so is what is not a line
 *   of the form
 */
VivaRunStack *
viva_run_stack_parse (const char *text,
                      int         line,
                      guint       depth)
{
  VivaRunStack *self = g_object_new (VIVA_TYPE_RUN_STACK, NULL);
  g_autofree char *copy = NULL;
  VivaRunFrame *frame = NULL;
  char *save = NULL;

  g_return_val_if_fail (text != NULL, self);

  copy = g_strndup (text, VIVA_RUN_STACK_MAX_TEXT);
  for (char *row = strtok_r (copy, "\n", &save); row != NULL; row = strtok_r (NULL, "\n", &save))
    {
      g_auto(GStrv) fields = g_strsplit (row, "\t", 5);

      if (g_strv_length (fields) != 4)
        continue;

      if (g_str_equal (fields[0], "F"))
        {
          gint64 number = 0;

          frame = NULL;
          if (self->frames->len >= VIVA_RUN_STACK_MAX_FRAMES)
            continue;
          g_ascii_string_to_signed (fields[2], 10, 0, G_MAXINT, &number, NULL);
          frame = g_new0 (VivaRunFrame, 1);
          frame->file = field (fields[1]);
          frame->line = number;
          frame->function = field (fields[3]);
          frame->locals = g_ptr_array_new_with_free_func ((GDestroyNotify) local_free);
          g_ptr_array_add (self->frames, frame);
        }
      else if (g_str_equal (fields[0], "L") && frame != NULL &&
               frame->locals->len < VIVA_RUN_STACK_MAX_LOCALS)
        {
          VivaRunLocal *local = g_new0 (VivaRunLocal, 1);

          local->name = field (fields[1]);
          local->type_name = field (fields[2]);
          local->value = field (fields[3]);
          g_ptr_array_add (frame->locals, local);
        }
    }

  self->line = MAX (line, 0);
  self->depth = MAX (depth, self->frames->len);
  return self;
}

/**
 * viva_run_stack_get_line:
 *
 * Returns: the line of the student's code the program is on, 0 when it is
 *   outside the student's code
 */
int
viva_run_stack_get_line (VivaRunStack *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_STACK (self), 0);
  return self->line;
}

/**
 * viva_run_stack_get_depth:
 *
 * Returns: how many frames of the student's code there were, including
 *   those left out
 */
guint
viva_run_stack_get_depth (VivaRunStack *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_STACK (self), 0);
  return self->depth;
}

guint
viva_run_stack_get_n_frames (VivaRunStack *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_STACK (self), 0);
  return self->frames->len;
}

/**
 * viva_run_stack_get_frame:
 * @index: 0 for the innermost frame
 *
 * Returns: (transfer none) (nullable): the frame
 */
const VivaRunFrame *
viva_run_stack_get_frame (VivaRunStack *self,
                          guint         index)
{
  g_return_val_if_fail (VIVA_IS_RUN_STACK (self), NULL);

  if (index >= self->frames->len)
    return NULL;
  return g_ptr_array_index (self->frames, index);
}

/**
 * viva_run_frame_to_text:
 *
 * Returns: (transfer full): the frame's variables as lines of
 *   `name (type) = value`, for a model's prompt or a log
 */
char *
viva_run_frame_to_text (const VivaRunFrame *frame)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (frame != NULL, g_string_free (out, FALSE));

  for (guint i = 0; i < frame->locals->len; i++)
    {
      const VivaRunLocal *local = g_ptr_array_index (frame->locals, i);

      g_string_append_printf (out, "%s (%s) = %s\n", local->name, local->type_name, local->value);
    }
  return g_string_free (out, FALSE);
}
