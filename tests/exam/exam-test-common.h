/* exam-test-common.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-examiner.h"
#include "viva-openai-model.h"
#include "viva-test-server.h"

G_BEGIN_DECLS

/* One tool call of a scripted reply. */
typedef struct
{
  const char *name;
  const char *arguments;
} ExamCall;

VivaTestResponse *exam_reply_new     (const char     *content,
                                      const ExamCall *calls,
                                      guint           n_calls);
void              exam_queue_reply   (VivaTestServer *server,
                                      const char     *content,
                                      const char     *name,
                                      const char     *arguments);
void              exam_queue_calls   (VivaTestServer *server,
                                      const char     *content,
                                      const ExamCall *calls,
                                      guint           n_calls);
VivaProblem      *exam_problem_new   (void);
void              exam_assert_valid_for_strict_openai (VivaTestServer *server);

G_END_DECLS
