/* viva-exam-limits.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * VivaExamLimits:
 * @max_iterations: model replies in one defense before it ends as incomplete (30)
 * @max_replies_without_tool: consecutive replies without a tool call; the
 *   first earns a reminder, reaching this ends the defense as incomplete (2)
 * @repeat_limit: the same tool with the same arguments this many times… (4)
 * @repeat_window: …within this many steps is not run (10)
 * @tool_output_limit: characters of a tool's output the model sees (4000)
 * @context_length: the model's context in tokens; older turns are compacted
 *   past about 80% of it (8192)
 * @keep_recent_steps: steps kept whole when compacting (4)
 * @run_timeout_ms: time limit of one runPython or injectTestCase (10000)
 * @score_runs: k, how many times the scorer scores each conceptual answer
 *   (3); 0 leaves them to a teacher
 *
 * Every guardrail threshold of the examiner, in one place.
 */
typedef struct
{
  guint max_iterations;
  guint max_replies_without_tool;
  guint repeat_limit;
  guint repeat_window;
  guint tool_output_limit;
  guint context_length;
  guint keep_recent_steps;
  guint run_timeout_ms;
  guint score_runs;
} VivaExamLimits;

void viva_exam_limits_init_default (VivaExamLimits *limits);

G_END_DECLS
