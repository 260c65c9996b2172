/* viva-examiner-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-defense-view.h"
#include "viva-exam-context.h"
#include "viva-exam-conversation.h"
#include "viva-exam-plan.h"
#include "viva-exam-leak-filter.h"
#include "viva-exam-private.h"
#include "viva-exam-protocol.h"
#include "viva-examiner.h"
#include "viva-examiner-grade.h"

G_BEGIN_DECLS

/* What is in flight, so a checkpoint can redo it. */
typedef enum
{
  VIVA_EXAM_PHASE_MODEL,
  VIVA_EXAM_PHASE_TOOL,
  VIVA_EXAM_PHASE_DONE,
} VivaExamPhase;

struct _VivaExaminer
{
  GObject               parent_instance;

  VivaChatModel        *model;
  VivaChatModel        *scorer;     /* scores conceptual answers; NULL: the model */
  VivaProblem          *problem;
  VivaCodeSource       *code_source;
  VivaRunner           *runner;            /* given: the editor's; NULL: the runs' own */
  VivaRunner           *reference_runner;  /* given: a rehearsal's shared one */
  VivaExamRuns         *runs;         /* given, or at prepare VivaExamLocalRuns over the runners above */
  gboolean              owns_runs;    /* built at prepare: stopped at dispose */
  VivaExamGradeFunc     grade_func;   /* NULL: viva_problem_grade_async */
  gpointer              grade_data;
  GDestroyNotify        grade_destroy;
  VivaExamSession      *session;
  VivaExamContext      *context;
  char                 *pack_id;
  char                 *language;

  VivaExaminerState     state;
  char                 *error_message;
  VivaExamVerdict      *verdict;

  /* The objects with a job each: the conversation (messages, prompt,
   * code snapshots, compaction), the protocol (tools, steps, guardrails,
   * limits) and the leak filter over the incremental guard. */
  VivaExamConversation  conversation;
  VivaExamProtocol      protocol;
  VivaExamLeakFilter    leaks;

  char                 *created;
  char                 *problem_hash;
  /* The pack by id and digest (checkpoint `pack_ref`); a copy of the
   * problem (`pack`) only when continuing a checkpoint of an older Viva. */
  JsonObject           *pack_ref;
  JsonNode             *problem_pack;
  JsonObject           *finish_arguments;

  /* What is in flight. */
  VivaExamPhase         phase;
  GTask                *task;
  VivaChatRequest      *request;
  gint64                request_started;
  gint64                first_byte;
  VivaToolCall         *pending_call;
  char                 *pending_step;
  gint64                tool_started;
  GTask                *ask_task;
  char                 *pending_question;
  const VivaExamPlanItem *pending_item;  /* the plan's (the context owns it) */

  gulong                delta_handler;
  gulong                busy_handler;
  gint64                busy_since;   /* when the model went busy, or 0 */
  gulong                code_changed_handler;
  guint                 code_edit_source;
};

/* The examiner's signals are its view's (viva-defense-view.h). */
typedef enum
{
  DELTA         = VIVA_DEFENSE_VIEW_SIGNAL_DELTA,
  REPLY         = VIVA_DEFENSE_VIEW_SIGNAL_REPLY,
  TOOL_STARTED  = VIVA_DEFENSE_VIEW_SIGNAL_TOOL_STARTED,
  TOOL_FINISHED = VIVA_DEFENSE_VIEW_SIGNAL_TOOL_FINISHED,
  QUESTION      = VIVA_DEFENSE_VIEW_SIGNAL_QUESTION,
  ANSWER        = VIVA_DEFENSE_VIEW_SIGNAL_ANSWER,
  MESSAGE       = VIVA_DEFENSE_VIEW_SIGNAL_MESSAGE,
  REFUSED       = VIVA_DEFENSE_VIEW_SIGNAL_REFUSED,
  VERDICT       = VIVA_DEFENSE_VIEW_SIGNAL_VERDICT,
} VivaExamSignal;

void      _viva_examiner_emit                 (VivaExaminer        *self,
                                               VivaExamSignal       signal,
                                               ...);
void      _viva_examiner_set_state            (VivaExaminer        *self,
                                               VivaExaminerState    state);
void      _viva_examiner_set_pending_question (VivaExaminer        *self,
                                               const char          *question);
void      _viva_examiner_set_error_message    (VivaExaminer        *self,
                                               const char          *message);
void      _viva_examiner_set_verdict          (VivaExaminer        *self,
                                               VivaExamVerdict     *verdict);
void      _viva_examiner_notify_n_steps       (VivaExaminer        *self);
void      _viva_examiner_code_changed_cb      (VivaExaminer        *self);
void      _viva_examiner_model_busy_cb        (VivaExaminer        *self);
void      _viva_examiner_model_delta_cb       (VivaChatModel       *model,
                                               VivaChatRequest     *request,
                                               const VivaChatDelta *delta,
                                               VivaExaminer        *self);

/* The properties (viva-examiner.c), notified from the setters in
 * viva-examiner-props.c too. */
enum {
  PROP_0,
  PROP_MODEL,
  PROP_PROBLEM,
  PROP_CODE_SOURCE,
  PROP_N_STEPS,
  PROP_LANGUAGE,
  PROP_PACK_ID,
  PROP_SESSION,
  PROP_N_WITHHELD,
  PROP_BUSY_SINCE,
  N_OWN_PROPS,
  /* #VivaDefenseView's, in its order */
  PROP_STATE = N_OWN_PROPS,
  PROP_PENDING_QUESTION,
  PROP_ERROR_MESSAGE,
  PROP_VERDICT,
  PROP_BUSY,
  N_PROPS
};

extern GParamSpec *_viva_examiner_properties[N_PROPS];

/* Shared by every file of the examiner. */
static inline void
_viva_examiner_trace (VivaExaminer *self,
                      const char   *event,
                      JsonObject   *data)
{
  g_autoptr(JsonObject) owned = data;

  if (self->session != NULL)
    viva_exam_session_trace (self->session, event, owned);
}

static inline GCancellable *
_viva_examiner_cancellable (VivaExaminer *self)
{
  return self->task ? g_task_get_cancellable (self->task) : NULL;
}

/* Its life (viva-examiner.c): what every part of it reports to */
void          _viva_examiner_checkpoint         (VivaExaminer       *self);
void          _viva_examiner_complete           (VivaExaminer       *self,
                                                 VivaExamVerdict    *verdict,
                                                 GError             *error);
void          _viva_examiner_end_with           (VivaExaminer       *self,
                                                 VivaExamVerdict    *verdict);
void          _viva_examiner_end_incomplete     (VivaExaminer       *self,
                                                 const char         *reason);
void          _viva_examiner_fail               (VivaExaminer       *self,
                                                 GError             *error);
void          _viva_examiner_cancelled          (VivaExaminer       *self);
char         *_viva_examiner_snapshot_code      (VivaExaminer       *self);
VivaChatRequest *_viva_examiner_build_request   (VivaExaminer       *self,
                                                 gboolean            with_tools);
void          _viva_examiner_trace_request      (VivaExaminer       *self,
                                                 const char         *event,
                                                 guint               iteration);
VivaChatMessage *_viva_examiner_guard_reply     (VivaExaminer        *self,
                                                 VivaChatReply       *reply,
                                                 JsonObject          *trace_json);
void          _viva_examiner_continue           (VivaExaminer       *self);
void          _viva_examiner_after_reply        (VivaExaminer       *self,
                                                 VivaChatMessage    *message);
void          _viva_examiner_primed             (VivaExaminer       *self);
gboolean      _viva_examiner_restore            (VivaExaminer       *self,
                                                 VivaExamSession    *session,
                                                 GError            **error);

/* GObject's side of the properties (viva-examiner-props.c) */
void          _viva_examiner_install_properties (GObjectClass       *object_class);
void          _viva_examiner_get_property       (GObject            *object,
                                                 guint               prop_id,
                                                 GValue             *value,
                                                 GParamSpec         *pspec);
void          _viva_examiner_set_property       (GObject            *object,
                                                 guint               prop_id,
                                                 const GValue       *value,
                                                 GParamSpec         *pspec);

/* The turn (viva-examiner-loop.c): request, reply */
void          _viva_examiner_next_turn          (VivaExaminer       *self);

/* The call (viva-examiner-dispatch.c): check, run as a step, record */
void          _viva_examiner_start_call         (VivaExaminer       *self,
                                                 const VivaToolCall *call,
                                                 const char         *redo_step);
void          _viva_examiner_finish_defense     (VivaExaminer       *self,
                                                 JsonObject         *data);

/* The checkpoint (viva-examiner-checkpoint.c) */
JsonNode *_viva_examiner_to_checkpoint   (VivaExaminer  *self);
gboolean  _viva_examiner_from_checkpoint (VivaExaminer  *self,
                                          JsonNode      *checkpoint,
                                          GError       **error);
char     *_viva_examiner_problem_hash    (VivaProblem   *problem);


G_END_DECLS
