/* viva-run-stack.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * VivaRunLocal:
 * @name: the variable's name
 * @type_name: its Python type's name
 * @value: a short description of its value: Python's repr() for builtin
 *   values, `<Foo object>` for the rest, at most a line long
 *
 * One local variable of a frame, as plain text the worker wrote. It comes
 * from the student's process: show it as the program's own data.
 */
typedef struct
{
  char *name;
  char *type_name;
  char *value;
} VivaRunLocal;

/**
 * VivaRunFrame:
 * @file: `<code>` for the student's code, `<test>` for an injected test
 * @line: the line it is on (1-based), 0 when unknown
 * @function: the function's name, `<module>` at the top level
 * @locals: (element-type VivaRunLocal): its variables
 */
typedef struct
{
  char      *file;
  int        line;
  char      *function;
  GPtrArray *locals;
} VivaRunFrame;

#define VIVA_RUN_STACK_MAX_FRAMES 32
#define VIVA_RUN_STACK_MAX_LOCALS 50
#define VIVA_RUN_STACK_MAX_TEXT   (256 * 1024)

#define VIVA_TYPE_RUN_STACK (viva_run_stack_get_type ())

G_DECLARE_FINAL_TYPE (VivaRunStack, viva_run_stack, VIVA, RUN_STACK, GObject)

VivaRunStack       *viva_run_stack_parse         (const char   *text,
                                                  int           line,
                                                  guint         depth);
int                 viva_run_stack_get_line      (VivaRunStack *self);
guint               viva_run_stack_get_depth     (VivaRunStack *self);
guint               viva_run_stack_get_n_frames  (VivaRunStack *self);
const VivaRunFrame *viva_run_stack_get_frame     (VivaRunStack *self,
                                                  guint         index);
char               *viva_run_frame_to_text       (const VivaRunFrame *frame);

G_END_DECLS
