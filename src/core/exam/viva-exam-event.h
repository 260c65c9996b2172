/* viva-exam-event.h: the examiner's signals as the events fronts send on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-exam-verdict.h"
#include "viva-examiner.h"

G_BEGIN_DECLS

JsonObject *viva_exam_event_state       (VivaExaminerState  state);
JsonObject *viva_exam_event_tool_call   (const char        *step,
                                         const char        *name,
                                         const char        *arguments);
JsonObject *viva_exam_event_tool_result (const char        *step,
                                         const char        *name,
                                         JsonNode          *result,
                                         gboolean           ok);
JsonObject *viva_exam_event_refused     (const char        *name,
                                         const char        *reason);
JsonObject *viva_exam_event_message     (const char        *text);
JsonObject *viva_exam_event_verdict     (VivaExamVerdict   *verdict);

G_END_DECLS
