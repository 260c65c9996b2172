/* viva-answer-program.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-examiner.h"

G_BEGIN_DECLS

#define VIVA_ANSWER_PROGRAM_TIMEOUT_MS 30000
#define VIVA_ANSWER_PROGRAM_MAX_BYTES  (64 * 1024)

JsonObject *viva_answer_program_question    (const char           *text,
                                             JsonObject           *item);
JsonObject *viva_answer_program_question_for_examiner (VivaExaminer *examiner,
                                                       const char   *text);
void        viva_answer_program_run_async   (const char * const   *argv,
                                             JsonObject           *question,
                                             guint                 timeout_ms,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
char       *viva_answer_program_run_finish  (GAsyncResult         *result,
                                             GError              **error);

G_END_DECLS
