/* viva-exam-limits.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-limits.h"

/**
 * viva_exam_limits_init_default:
 *
 * Fills @limits with the defaults documented on #VivaExamLimits.
 */
void
viva_exam_limits_init_default (VivaExamLimits *limits)
{
  g_return_if_fail (limits != NULL);

  limits->max_iterations = 30;
  limits->max_replies_without_tool = 2;
  limits->repeat_limit = 4;
  limits->repeat_window = 10;
  limits->tool_output_limit = 4000;
  limits->context_length = 8192;
  limits->keep_recent_steps = 4;
  limits->run_timeout_ms = 10000;
  limits->score_runs = 3;
}
