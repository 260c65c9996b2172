/* viva-cli-problem.h: the problem a command works on, from --pack, --problem and --code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "viva-pack.h"

G_BEGIN_DECLS

/* The options `check` and `defend` share, and what they load. */
typedef struct
{
  /* Set by the options */
  char         *pack_path;
  char         *problem_id;
  char         *code_path;
  /* Set by viva_cli_problem_load() */
  GBytes       *pack_bytes;
  VivaPack     *pack;
  VivaProblem  *problem;   /* the pack's */
  char         *code;

  GOptionEntry  entries[4];
} VivaCliProblem;

void      viva_cli_problem_add_entries (VivaCliProblem  *self,
                                        GOptionContext  *context);
gboolean  viva_cli_problem_check_usage (VivaCliProblem  *self,
                                        GOptionContext  *context,
                                        int              argc);
gboolean  viva_cli_problem_load        (VivaCliProblem  *self);
void      viva_cli_problem_clear       (VivaCliProblem  *self);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VivaCliProblem, viva_cli_problem_clear)

G_END_DECLS
