/* viva-defense-props.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-defense-private.h"
#include "viva-exam-pack-ref.h"
#include "viva-scripted-model.h"

/* VivaDefense's configuration, set before it is prepared, and what it
 * made, read after. */

/**
 * viva_defense_set_runner:
 * @runner: (nullable): the student's worker (the app's editor's); by
 *   default the examiner starts its own
 */
void
viva_defense_set_runner (VivaDefense *self,
                         VivaRunner  *runner)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  g_set_object (&self->runner, runner);
}

/**
 * viva_defense_set_reference_runner:
 * @runner: (nullable): a worker for the reference, shared (the lab's)
 */
void
viva_defense_set_reference_runner (VivaDefense *self,
                                   VivaRunner  *runner)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  g_set_object (&self->reference_runner, runner);
}

/**
 * viva_defense_set_pack:
 * @pack: (nullable): the problem's pack
 *
 * The session names the pack by id and digest (never a copy of its hidden
 * tests); a pack that exists only in memory is named by id. The pack's
 * language is the examiner's unless Preferences name one.
 */
void
viva_defense_set_pack (VivaDefense *self,
                       VivaPack    *pack)
{
  g_autoptr(JsonObject) pack_ref = NULL;

  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!pack || VIVA_IS_PACK (pack));

  if (pack == NULL)
    return viva_defense_set_pack_ref (self, NULL, NULL, NULL);

  pack_ref = viva_exam_pack_ref_new_for_pack (pack, NULL);
  viva_defense_set_pack_ref (self, viva_pack_get_id (pack), pack_ref, viva_pack_get_language (pack));
}

/**
 * viva_defense_set_pack_ref:
 * @pack_id: (nullable): the pack's id
 * @pack_ref: (nullable): viva_exam_pack_ref_new() of the pack's file
 * @pack_language: (nullable): the pack's language
 *
 * As viva_defense_set_pack(), for a pack read from a file whose bytes and
 * path the caller has (viva-cli defend --pack).
 */
void
viva_defense_set_pack_ref (VivaDefense *self,
                           const char  *pack_id,
                           JsonObject  *pack_ref,
                           const char  *pack_language)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  g_free (self->pack_id);
  self->pack_id = g_strdup (pack_id);
  g_clear_pointer (&self->pack_ref, json_object_unref);
  self->pack_ref = pack_ref ? json_object_ref (pack_ref) : NULL;
  g_free (self->pack_language);
  self->pack_language = g_strdup (pack_language);
}

/**
 * viva_defense_set_language:
 * @language: (nullable): the language the examiner speaks, whatever the
 *   settings say: the one an exam fixes (the exam server, which runs
 *   several exams under one set of settings); %NULL for the settings'
 *   choice against the pack's language
 */
void
viva_defense_set_language (VivaDefense *self,
                           const char  *language)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  g_free (self->language);
  self->language = g_strdup (language);
}

void
viva_defense_set_limits (VivaDefense          *self,
                         const VivaExamLimits *limits)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  self->has_limits = limits != NULL;
  if (limits != NULL)
    self->limits = *limits;
}

/**
 * viva_defense_set_sessions_dir:
 * @sessions_dir: (nullable): where a new session goes; %NULL for
 *   `$XDG_DATA_HOME/viva/sessions`
 */
void
viva_defense_set_sessions_dir (VivaDefense *self,
                               const char  *sessions_dir)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  g_free (self->sessions_dir);
  self->sessions_dir = g_strdup (sessions_dir);
}

/**
 * viva_defense_set_session:
 * @session: (nullable): a new session to keep the defense in, instead of
 *   one made when it is prepared (not a loaded one: see
 *   viva_defense_new_for_session())
 */
void
viva_defense_set_session (VivaDefense     *self,
                          VivaExamSession *session)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!session || VIVA_IS_EXAM_SESSION (session));
  g_return_if_fail (!self->prepared && !self->resumed);

  if (g_set_object (&self->session, session))
    g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_SESSION]);
}

/**
 * viva_defense_set_student:
 * @name: (nullable): the student's name
 * @id: (nullable): the student's id
 *
 * Stamps the session with who defends (its report and file name carry it).
 */
void
viva_defense_set_student (VivaDefense *self,
                          const char  *name,
                          const char  *id)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));

  g_free (self->student_name);
  self->student_name = g_strdup (name);
  g_free (self->student_id);
  self->student_id = g_strdup (id);

  if (self->prepared && (name != NULL || id != NULL))
    viva_exam_session_set_student (self->session, name, id);
}

/**
 * viva_defense_set_timeline:
 * @events: (nullable): integrity events recorded on the problem before
 *   the Submit (viva-timeline.h), handed to the new session before its
 *   `submit` event
 */
void
viva_defense_set_timeline (VivaDefense *self,
                           JsonArray   *events)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  g_clear_pointer (&self->timeline, json_array_unref);
  self->timeline = events ? json_array_ref (events) : json_array_new ();
}

/**
 * viva_defense_set_hint_used:
 *
 * Whether the student saw the problem's hint: the session's trace says so.
 */
void
viva_defense_set_hint_used (VivaDefense *self,
                            gboolean     hint_used)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  self->hint_used = !!hint_used;
}

/**
 * viva_defense_set_recorded:
 * @recorded: %FALSE for a defense nobody keeps (a lab's rehearsal, an
 *   eval's scripted students): no session, no files
 */
void
viva_defense_set_recorded (VivaDefense *self,
                           gboolean     recorded)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared && !self->resumed);

  self->unrecorded = !recorded;
}

/**
 * viva_defense_set_scorer:
 * @base_url: (nullable): the scorer's endpoint; "" for the examiner's,
 *   %NULL for the settings' `scorer-base-url`
 * @model_name: (nullable): the scorer's model; "" for the examiner's,
 *   %NULL for the settings' `scorer-model`
 *
 * Which model scores the conceptual answers when a model examines
 * (`viva-cli defend --scorer-model`); the offline examiner scores its own.
 */
void
viva_defense_set_scorer (VivaDefense *self,
                         const char  *base_url,
                         const char  *model_name)
{
  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->prepared);

  g_free (self->scorer_base_url);
  self->scorer_base_url = g_strdup (base_url);
  g_free (self->scorer_model);
  self->scorer_model = g_strdup (model_name);
}

/**
 * viva_defense_get_endpoint:
 *
 * Returns: (transfer none) (nullable): the endpoint
 */
VivaExamEndpoint *
viva_defense_get_endpoint (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  return self->endpoint;
}

VivaProblem *
viva_defense_get_problem (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  return self->problem;
}

VivaCodeSource *
viva_defense_get_code_source (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  return self->code_source;
}

/**
 * viva_defense_get_resumed:
 *
 * Returns: whether this defense continues a checkpointed session
 */
gboolean
viva_defense_get_resumed (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), FALSE);
  return self->resumed;
}

/**
 * viva_defense_get_examiner:
 *
 * Returns: (transfer none) (nullable): the examiner, once prepared
 */
VivaExaminer *
viva_defense_get_examiner (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  return self->examiner;
}

/**
 * viva_defense_get_session:
 *
 * Returns: (transfer none) (nullable): the session, once prepared (or
 *   given, or resumed)
 */
VivaExamSession *
viva_defense_get_session (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  return self->session;
}

/**
 * viva_defense_get_model:
 *
 * Returns: (transfer none) (nullable): the examiner's model, once prepared:
 *   a #VivaOpenAIModel of its own, or the offline #VivaScriptedModel
 */
VivaChatModel *
viva_defense_get_model (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  return self->model;
}

/**
 * viva_defense_get_offline:
 *
 * Returns: whether the offline examiner runs this defense
 */
gboolean
viva_defense_get_offline (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), FALSE);
  return self->model != NULL && VIVA_IS_SCRIPTED_MODEL (self->model);
}

/**
 * viva_defense_get_notice:
 *
 * Returns: (nullable): set when the offline examiner stands in for a
 *   server that did not answer (auto mode), in the words to show
 */
const char *
viva_defense_get_notice (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  return self->notice;
}

/**
 * viva_defense_get_served_model:
 *
 * Returns: (nullable): the model the server answered with, once it has
 *   (a resumed session's: the one it recorded)
 */
const char *
viva_defense_get_served_model (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  return self->served_model;
}

VivaExamReach
viva_defense_get_reachability (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), VIVA_EXAM_REACH_UNKNOWN);
  return self->endpoint ? viva_exam_endpoint_get_reachability (self->endpoint) : VIVA_EXAM_REACH_UNKNOWN;
}

VivaExamWarmth
viva_defense_get_warmth (VivaDefense *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), VIVA_EXAM_WARMTH_COLD);
  return self->endpoint ? viva_exam_endpoint_get_warmth (self->endpoint) : VIVA_EXAM_WARMTH_COLD;
}
