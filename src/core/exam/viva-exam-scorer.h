/* viva-exam-scorer.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-chat-model.h"
#include "viva-problem.h"

G_BEGIN_DECLS

#define VIVA_EXAM_SCORER_THRESHOLD  0.34   /* of an item's points: the k scores' spread that needs a teacher */
#define VIVA_EXAM_SCORER_MARKER     "You score one answer of a student in an oral programming exam."

void     _viva_exam_scorer_score_async  (VivaChatModel       *model,
                                         VivaProblem         *problem,
                                         GPtrArray           *items,
                                         guint                runs,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
gboolean _viva_exam_scorer_score_finish (GAsyncResult        *result,
                                         GError             **error);
char    *_viva_exam_scorer_prompt       (const char          *question,
                                         const char * const  *points,
                                         const char          *answer,
                                         guint                run,
                                         guint                runs);
gboolean _viva_exam_scorer_read_reply   (const char          *content,
                                         guint                n_points,
                                         double              *fraction,
                                         char               **evidence,
                                         gboolean            *unsure);

G_END_DECLS
