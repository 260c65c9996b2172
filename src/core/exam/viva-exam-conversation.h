/* viva-exam-conversation.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-reply.h"
#include "viva-chat-request.h"
#include "viva-exam-limits.h"
#include "viva-problem.h"

G_BEGIN_DECLS

/* The conversation of one defense, a record the examiner keeps and its
 * checkpoint saves: the messages without the system prompt, the system
 * prompt (built once, byte-identical in every request), the code as last
 * seen and as last sent to the model. */
typedef struct
{
  GPtrArray *messages;
  char      *prompt_template;
  char      *system_prompt;
  char      *system_prompt_traced;   /* the hidden parts withheld */
  char      *code_hash;              /* of the last snapshot */
  char      *code_snapshot;
  char      *sent_code_hash;         /* the code last shown the model */
} VivaExamConversation;

void             _viva_exam_conversation_init          (VivaExamConversation *self);
void             _viva_exam_conversation_clear         (VivaExamConversation *self);
const char      *_viva_exam_conversation_system_prompt (VivaExamConversation *self,
                                                        VivaProblem          *problem,
                                                        const char           *language);
const char      *_viva_exam_conversation_snapshot      (VivaExamConversation *self,
                                                        const char           *code,
                                                        JsonObject          **data);
void             _viva_exam_conversation_send_code     (VivaExamConversation *self);
VivaChatRequest *_viva_exam_conversation_request       (VivaExamConversation *self,
                                                        const char           *system,
                                                        GPtrArray            *tools,
                                                        const VivaExamLimits *limits,
                                                        JsonObject          **compacted);
JsonObject      *_viva_exam_conversation_trace_request (VivaExamConversation *self,
                                                        VivaChatRequest      *request,
                                                        guint                 iteration);
void             _viva_exam_conversation_add_usage     (JsonObject           *data,
                                                        const VivaChatUsage  *usage);

G_END_DECLS
