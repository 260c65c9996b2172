/* viva-defense-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "viva-exam-verdict.h"
#include "viva-examiner.h"

G_BEGIN_DECLS

#define VIVA_TYPE_DEFENSE_VIEW (viva_defense_view_get_type ())

G_DECLARE_INTERFACE (VivaDefenseView, viva_defense_view, VIVA, DEFENSE_VIEW, GObject)

/**
 * VivaDefenseViewInterface:
 * @get_state: #VivaDefenseView:state
 * @get_pending_question: #VivaDefenseView:pending-question
 * @get_error_message: #VivaDefenseView:error-message
 * @get_verdict: #VivaDefenseView:verdict
 * @get_busy: #VivaDefenseView:busy
 * @get_busy_since: g_get_monotonic_time() when it became busy, or 0
 * @answer: answers the pending question
 *
 * What a front shows of a defense, whoever runs it: a #VivaExaminer on
 * this PC, or a #VivaRemoteDefense told by the exam server's stream. The
 * examiner panel shows one of these and nothing else, so both kinds of
 * defense show the same cards, questions and verdict. Main thread only.
 */
struct _VivaDefenseViewInterface
{
  GTypeInterface parent_iface;

  VivaExaminerState  (*get_state)            (VivaDefenseView  *self);
  const char        *(*get_pending_question) (VivaDefenseView  *self);
  const char        *(*get_error_message)    (VivaDefenseView  *self);
  VivaExamVerdict   *(*get_verdict)          (VivaDefenseView  *self);
  gboolean           (*get_busy)             (VivaDefenseView  *self);
  gint64             (*get_busy_since)       (VivaDefenseView  *self);
  gboolean           (*answer)               (VivaDefenseView  *self,
                                              const char       *text,
                                              GError          **error);
};

/* The view's signals, for its implementations to emit. */
typedef enum
{
  VIVA_DEFENSE_VIEW_SIGNAL_DELTA,
  VIVA_DEFENSE_VIEW_SIGNAL_REPLY,
  VIVA_DEFENSE_VIEW_SIGNAL_TOOL_STARTED,
  VIVA_DEFENSE_VIEW_SIGNAL_TOOL_FINISHED,
  VIVA_DEFENSE_VIEW_SIGNAL_QUESTION,
  VIVA_DEFENSE_VIEW_SIGNAL_ANSWER,
  VIVA_DEFENSE_VIEW_SIGNAL_MESSAGE,
  VIVA_DEFENSE_VIEW_SIGNAL_REFUSED,
  VIVA_DEFENSE_VIEW_SIGNAL_VERDICT,
  VIVA_DEFENSE_VIEW_N_SIGNALS
} VivaDefenseViewSignal;

/* The view's properties, in this order from @first_prop_id. */
typedef enum
{
  VIVA_DEFENSE_VIEW_PROP_STATE,
  VIVA_DEFENSE_VIEW_PROP_PENDING_QUESTION,
  VIVA_DEFENSE_VIEW_PROP_ERROR_MESSAGE,
  VIVA_DEFENSE_VIEW_PROP_VERDICT,
  VIVA_DEFENSE_VIEW_PROP_BUSY,
  VIVA_DEFENSE_VIEW_N_PROPS
} VivaDefenseViewProperty;

VivaExaminerState  viva_defense_view_get_state            (VivaDefenseView        *self);
const char        *viva_defense_view_get_pending_question (VivaDefenseView        *self);
const char        *viva_defense_view_get_error_message    (VivaDefenseView        *self);
VivaExamVerdict   *viva_defense_view_get_verdict          (VivaDefenseView        *self);
gboolean           viva_defense_view_get_busy             (VivaDefenseView        *self);
gint64             viva_defense_view_get_busy_since       (VivaDefenseView        *self);
gboolean           viva_defense_view_answer               (VivaDefenseView        *self,
                                                           const char             *text,
                                                           GError                **error);

/* For implementations */
void               viva_defense_view_override_properties  (GObjectClass           *klass,
                                                           guint                   first_prop_id,
                                                           GParamSpec            **pspecs);
void               viva_defense_view_emit_valist          (VivaDefenseView        *self,
                                                           VivaDefenseViewSignal   signal,
                                                           va_list                 args);
void               viva_defense_view_emit                 (VivaDefenseView        *self,
                                                           VivaDefenseViewSignal   signal,
                                                           ...);

G_END_DECLS
