/* viva-exam-hand-in-private.h: what the hand-in's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-hand-in.h"

G_BEGIN_DECLS

struct _VivaExamHandIn
{
  GObject       parent_instance;

  VivaExamFile *exam;
  GHashTable   *seen;       /* problem id → the code the student had, before the time */
  GHashTable   *last_run;   /* problem id → the code last run, before the time */
  GHashTable   *worked;     /* problem ids run or changed in this sitting */
  GHashTable   *defended;   /* problem ids with a verdict in this sitting */
  GHashTable   *reports;    /* problem id → its report's file */
  GHashTable   *failed;     /* handed in at the time, the defense failed */
  GHashTable   *left;       /* handed in at the time, left when Viva closed */
  GPtrArray    *queue;      /* Item, waiting for their defense */
  GPtrArray    *handed_in;  /* problem ids handed in at the time, NULL-terminated */
  char         *open_problem;
  char         *defending;
  guint         position;   /* the hand-in's defense under way, from 1 */
  guint         total;      /* the hand-in's defenses, with the one under way at the time */
  guint         closed : 1;
};

GPtrArray *_viva_exam_hand_in_exam_problems (VivaExamHandIn *self);

G_END_DECLS
