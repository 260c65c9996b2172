/* viva-exam-file-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-exam-file.h"

G_BEGIN_DECLS

/* The fields, shared by the type (viva-exam-file.c), the reader that fills
 * them from the JSON (viva-exam-file-reader.c) and the loader
 * (viva-exam-file-load.c), which reaches the reader through the type. */
struct _VivaExamFile
{
  GObject           parent_instance;

  char             *path;
  char             *digest;
  char             *id;
  char             *title;
  char             *pack_id;
  VivaPack         *pack;
  gboolean          pack_embedded;
  GStrv             problems;
  guint             time_limit;
  gboolean          hints_allowed;
  double            hint_cost;
  gboolean          followup_allowed;
  gboolean          check_allowed;
  guint             grading_count;       /* 0: gradings are not limited */
  guint             grading_per_minutes;
  gboolean          has_examiner;
  VivaExaminerMode  examiner_mode;
  char             *base_url;
  char             *model;
  char             *language;
  char             *report_folder;
  gboolean          verdict_after_exam;
  /* While reading: the problem ids of the packs installed where the exam
   * is opened, pack id → GStrv, so a missing problem of a pack named by id
   * is one more error of the same pass. */
  GHashTable       *installed;
};

/* viva-exam-file.c */
VivaExamFile *_viva_exam_file_new_from_tree (const char   *path,
                                             const char   *digest,
                                             JsonNode     *root,
                                             GHashTable   *installed,
                                             GPtrArray    *issues);

/* viva-exam-file-reader.c */
void          _viva_exam_file_read_root     (VivaExamFile *self,
                                             JsonNode     *node,
                                             GPtrArray    *issues);

G_END_DECLS
