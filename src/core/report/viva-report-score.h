/* viva-report-score.h: a defense's score with the exam's hint cost taken off
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * VivaReportScore:
 * @examiner: the examiner's score (0–100), or -1 when there is none
 * @hints: how many hints the student viewed
 * @hint_cost: points of 100 one hint costs; 0 when hints cost nothing
 *
 * What a teacher's grade is made of. The final score is
 * @examiner − @hints × @hint_cost, never below 0.
 */
typedef struct
{
  double examiner;
  guint  hints;
  double hint_cost;
} VivaReportScore;

/**
 * VivaReportScoreRecords:
 * @hints: the most hints any record counts
 * @hint_cost: the highest cost any record names
 * @agree: whether the records agree with each other; meaningful for a
 *   finished report only (one being built has no `score` yet)
 *
 * What a session or report recorded of its hints. A report sits in the
 * student's account before it is handed in, so where its records differ
 * the count and the cost that cost the student most are taken, and
 * @agree says that they were edited.
 */
typedef struct
{
  guint    hints;
  double   hint_cost;
  gboolean agree;
} VivaReportScoreRecords;

double      viva_report_score_final         (const VivaReportScore  *score);
gboolean    viva_report_score_has_cost      (const VivaReportScore  *score);
char       *viva_report_score_describe      (const VivaReportScore  *score);
JsonObject *viva_report_score_to_json       (const VivaReportScore  *score);
void        viva_report_score_read_records  (JsonObject             *root,
                                             VivaReportScoreRecords *records);

G_END_DECLS
