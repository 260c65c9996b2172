/* viva-exam-verdict-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-verdict.h"
#include "viva-grade-report.h"

G_BEGIN_DECLS

/* The fields, shared by the verdict (viva-exam-verdict.c) and its JSON
 * (viva-exam-verdict-json.c). */
struct _VivaExamVerdict
{
  GObject         parent_instance;

  VivaExamStatus  status;
  gboolean        passed;
  int             score;
  char           *comment;
  char           *reason;
  GStrv           steps;
  GStrv           evidence;
  GPtrArray      *probes;
  guint           n_withheld;

  /* The engine's facts: every hidden test through the grader. */
  gboolean        graded;         /* the grader ran (grade may still be NULL: it failed) */
  VivaGradeReport *grade;
  char           *grade_error;
  gboolean        model_passed;   /* what the examiner said, beside the outcome */
  char           *explanation;    /* the outcome in words a student understands */
  GPtrArray      *items;          /* VivaExamItem: the score, part by part */
};

G_END_DECLS
