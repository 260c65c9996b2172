/* viva-class-report-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-class-report.h"

G_BEGIN_DECLS

/* One row's fields, shared by viva-class-report.c (reading a report, the
 * re-grade) and viva-class-report-score.c (the score with the hints' cost
 * taken off, and the teacher's exam file). */
struct _VivaClassReport
{
  GObject     parent_instance;

  char       *path;
  gboolean    readable;
  char       *student_name;
  char       *student_id;
  char       *pack_id;
  char       *problem_id;
  char       *problem_title;
  char       *session;
  char       *exam_id;        /* the exam the report names, if any */
  char       *started;
  char       *status;
  char       *verdict;
  double      score;          /* the final score: the examiner's less the hints' cost */
  double      model_score;    /* the examiner's, as the verdict gave it */
  int         hidden_passed;
  int         hidden_total;
  int         regraded_passed;
  int         regraded_total;
  int         duration;
  guint       hints;
  double      hint_cost;      /* the teacher's exam file's, when given, else the recorded */
  double      recorded_hint_cost;
  gboolean    claims_pass;
  gboolean    inconsistent;
  GPtrArray  *flags;
  GPtrArray  *flag_notes;     /* each flag's sentence, or NULL */
  char       *flags_text;
  char       *note;           /* the flags' sentences, joined */
  char       *code;
  JsonArray  *recorded_tests;
  JsonArray  *regraded_tests;
  gboolean    server_regrade; /* the re-grade is the report's own (an exam server's revision) */
  GStrv       questions;
  double      teacher_score;  /* the teacher's own, beside the examiner's; -1 when none */
  int         teacher_verdict;
  char       *teacher_note;
  GPtrArray  *items;          /* VivaExamItem: the verdict's, as the report has them */
  gboolean    provisional;
  double      items_max_points;
  GHashTable *teacher_items;  /* item id → the teacher's TeacherItem */
  char       *teacher_items_note;
  double      item_points;    /* the verdict's score built from items; -1 without items */
  int         items_review;   /* its items that need a teacher's look; -1 without items */
};

/* viva-class-report.c */
void _viva_class_report_add_flag              (VivaClassReport *self,
                                               const char      *flag,
                                               const char      *note);
void _viva_class_report_remove_flag           (VivaClassReport *self,
                                               const char      *flag);
void _viva_class_report_notify_score          (VivaClassReport *self);
void _viva_class_report_notify_flags          (VivaClassReport *self);
void _viva_class_report_notify_regrade        (VivaClassReport *self);
void _viva_class_report_update_contradiction  (VivaClassReport *self);
int  _viva_class_report_get_count             (JsonObject      *object,
                                               const char      *name);

/* viva-class-report-teacher.c */
void _viva_class_report_read_items   (VivaClassReport *self,
                                      JsonObject      *verdict);
void _viva_class_report_put_teacher  (VivaClassReport *self,
                                      JsonObject      *root);

/* viva-class-report-score.c */
void _viva_class_report_read_score   (VivaClassReport *self,
                                      JsonObject      *root);

G_END_DECLS
