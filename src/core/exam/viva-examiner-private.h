/* viva-examiner-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-context.h"
#include "viva-exam-leak-guard.h"
#include "viva-exam-leak-stream.h"
#include "viva-exam-private.h"
#include "viva-examiner.h"

G_BEGIN_DECLS

/* One tool that ran, as the engine recorded it. */
typedef struct
{
  char          *id;
  char          *name;
  char          *arguments;
  JsonObject    *result;
  gboolean       ok;
  double         duration_ms;
  VivaExamProbe *probe;
} VivaExamStep;

void _viva_exam_step_free (VivaExamStep *step);

/* What is in flight, so a checkpoint can redo it. */
typedef enum
{
  VIVA_EXAM_PHASE_MODEL,
  VIVA_EXAM_PHASE_TOOL,
  VIVA_EXAM_PHASE_DONE,
} VivaExamPhase;

struct _VivaExaminer
{
  GObject            parent_instance;

  VivaChatModel     *model;
  VivaProblem       *problem;
  VivaCodeSource    *code_source;
  VivaRunner        *runner;
  VivaRunner        *reference_runner;
  gboolean           owns_runner;
  gboolean           shares_reference_runner;
  VivaExamSession   *session;
  VivaExamContext   *context;
  GPtrArray         *tools;
  char              *pack_id;
  char              *language;
  char              *prompt_template;
  VivaExamLimits     limits;

  VivaExaminerState  state;
  char              *error_message;
  VivaExamVerdict   *verdict;

  /* The conversation without its system prompt, which is rebuilt each turn. */
  GPtrArray         *messages;
  GPtrArray         *steps;
  GPtrArray         *recent_calls;
  guint              iterations;
  guint              replies_without_tool;
  guint              step_counter;
  guint              n_answers;
  char              *code_hash;
  char              *code_snapshot;
  /* The code the conversation last showed the model (a message of its
   * own, so the head of the conversation never changes). */
  char              *sent_code_hash;
  /* Built once per defense: byte-identical in every request. The traced
   * one has the hidden parts withheld. */
  char              *system_prompt;
  char              *system_prompt_traced;
  char              *created;
  char              *problem_hash;
  /* The pack by id and digest (checkpoint `pack_ref`); a copy of the
   * problem (`pack`) only when continuing a checkpoint of an older Viva. */
  JsonObject        *pack_ref;
  JsonNode          *problem_pack;

  /* The leak guard, and the reply streaming through it (content,
   * reasoning): what arrived, how much of it has been shown. */
  VivaExamLeakGuard *leak_guard;
  VivaExamLeakStream *leak_stream[2];
  guint              n_withheld;
  JsonObject        *finish_arguments;

  VivaExamPhase      phase;
  GTask             *task;
  VivaChatRequest   *request;
  gulong             delta_handler;
  gulong             busy_handler;
  gint64             busy_since;   /* when the model went busy, or 0 */
  gint64             request_started;
  gint64             first_byte;
  VivaToolCall      *pending_call;
  char              *pending_step;
  gint64             tool_started;
  GTask             *ask_task;
  gulong             code_changed_handler;
  guint              code_edit_source;
  char              *pending_question;
};

typedef enum
{
  DELTA,
  REPLY,
  TOOL_STARTED,
  TOOL_FINISHED,
  QUESTION,
  ANSWER,
  MESSAGE,
  REFUSED,
  VERDICT,
  N_SIGNALS
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
  PROP_STATE,
  PROP_PENDING_QUESTION,
  PROP_ERROR_MESSAGE,
  PROP_VERDICT,
  PROP_N_STEPS,
  PROP_LANGUAGE,
  PROP_PACK_ID,
  PROP_SESSION,
  PROP_N_WITHHELD,
  PROP_BUSY,
  PROP_BUSY_SINCE,
  N_PROPS
};

extern GParamSpec *_viva_examiner_properties[N_PROPS];

/* The turn loop (viva-examiner-loop.c) */
void          _viva_examiner_trace              (VivaExaminer       *self,
                                                 const char         *event,
                                                 JsonObject         *data);
void          _viva_examiner_checkpoint         (VivaExaminer       *self);
GCancellable *_viva_examiner_cancellable        (VivaExaminer       *self);
void          _viva_examiner_complete           (VivaExaminer       *self,
                                                 VivaExamVerdict    *verdict,
                                                 GError             *error);
char         *_viva_examiner_snapshot_code      (VivaExaminer       *self);
GPtrArray    *_viva_examiner_collect_probes     (VivaExaminer       *self);
GPtrArray    *_viva_examiner_collect_step_names (VivaExaminer       *self);
void          _viva_examiner_end_with           (VivaExaminer       *self,
                                                 VivaExamVerdict    *verdict);
void          _viva_examiner_end_incomplete     (VivaExaminer       *self,
                                                 const char         *reason);
void          _viva_examiner_fail               (VivaExaminer       *self,
                                                 GError             *error);
void          _viva_examiner_cancelled          (VivaExaminer       *self);
VivaChatRequest *_viva_examiner_build_request   (VivaExaminer       *self,
                                                 const char         *system,
                                                 gboolean            with_tools);
void          _viva_examiner_add_usage          (JsonObject         *data,
                                                 const VivaChatUsage *usage);
void          _viva_examiner_next_turn          (VivaExaminer       *self);
const char   *_viva_examiner_get_system_prompt  (VivaExaminer       *self);
void          _viva_examiner_trace_request      (VivaExaminer       *self,
                                                 const char         *event,
                                                 guint               iteration);

/* The leak guard at the edges (viva-examiner-leaks.c) */
void             _viva_examiner_guard_delta     (VivaExaminer        *self,
                                                 const VivaChatDelta *delta);
VivaChatMessage *_viva_examiner_guard_reply     (VivaExaminer        *self,
                                                 VivaChatReply       *reply,
                                                 JsonObject          *trace_json);

/* Tool dispatch (viva-examiner-dispatch.c) */
VivaExamTool *_viva_examiner_find_tool          (VivaExaminer       *self,
                                                 const char         *name);
const VivaExamToolFacts *_viva_examiner_tool_facts (VivaExaminer    *self,
                                                    const char      *name);
void          _viva_examiner_start_call         (VivaExaminer       *self,
                                                 const VivaToolCall *call,
                                                 const char         *redo_step);
void          _viva_examiner_after_call         (VivaExaminer       *self);
void          _viva_examiner_finish_defense     (VivaExaminer       *self,
                                                 JsonObject         *data);

/* Guardrails (viva-examiner-guardrails.c): pure checks, no side effects */
void             _viva_examiner_cap_output      (JsonObject         *object,
                                                 guint               limit);
VivaChatMessage *_viva_examiner_compact_message (VivaChatMessage    *message);
char            *_viva_examiner_call_signature  (const char         *name,
                                                 JsonObject         *arguments);
char            *_viva_examiner_check_repeats   (VivaExaminer       *self,
                                                 const char         *name,
                                                 const char         *signature);
char            *_viva_examiner_check_protocol  (VivaExaminer       *self);
char            *_viva_examiner_check_evidence  (VivaExaminer       *self,
                                                 JsonObject         *arguments);

JsonNode *_viva_examiner_to_checkpoint   (VivaExaminer  *self);
gboolean  _viva_examiner_from_checkpoint (VivaExaminer  *self,
                                          JsonNode      *checkpoint,
                                          GError       **error);
char     *_viva_examiner_problem_hash    (VivaProblem   *problem);


G_END_DECLS
