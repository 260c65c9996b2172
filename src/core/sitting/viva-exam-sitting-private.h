/* viva-exam-sitting-private.h: what the sitting's two files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-sitting.h"
#include "viva-grading-limit.h"

G_BEGIN_DECLS

struct _VivaExamSitting
{
  GObject         parent_instance;

  VivaExamFile   *exam;
  VivaExamHandIn *hand_in;
  VivaGradingLimit *grading_limit;  /* NULL: the exam sets none */
  char           *state_path;     /* NULL for a sitting kept elsewhere */
  VivaExamSittingKeepFunc keep_func;
  gpointer        keep_data;
  GDestroyNotify  keep_destroy;
  char           *student_name;
  char           *student_id;
  GDateTime      *started;
  gint64          time_left;
  guint           tick_id;
  guint           time_up : 1;
};

/* The main file's. */
void _viva_exam_sitting_start_clock (VivaExamSitting *self);

/* viva-exam-sitting-state.c */
void _viva_exam_sitting_save        (VivaExamSitting *self);

G_END_DECLS
