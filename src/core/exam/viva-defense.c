/* viva-defense.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-defense-private.h"
#include "viva-exam-error.h"
#include "viva-exam-language.h"
#include "viva-exam-model.h"
#include "viva-exam-pack-ref.h"
#include "viva-scripted-model.h"
#include "viva-timeline.h"

/* One defense, put together the same way whichever front asks: the app's
 * Submit, viva-cli defend and resume, the lab's rehearsal, the eval and the
 * exam server. Before this object each front assembled its own examiner
 * and chose its model by its own rule. */

GParamSpec *_viva_defense_properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VivaDefense, viva_defense, G_TYPE_OBJECT)

static void
endpoint_notify_cb (VivaDefense      *self,
                    GParamSpec       *pspec,
                    VivaExamEndpoint *endpoint)
{
  if (g_str_equal (pspec->name, "reachability"))
    g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_REACHABILITY]);
  else if (g_str_equal (pspec->name, "warmth"))
    g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_WARMTH]);
}

static void
viva_defense_dispose (GObject *object)
{
  VivaDefense *self = (VivaDefense *)object;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  if (self->endpoint != NULL)
    g_signal_handlers_disconnect_by_data (self->endpoint, self);

  G_OBJECT_CLASS (viva_defense_parent_class)->dispose (object);
}

static void
viva_defense_finalize (GObject *object)
{
  VivaDefense *self = (VivaDefense *)object;

  g_clear_object (&self->endpoint);
  g_clear_object (&self->problem);
  g_clear_object (&self->code_source);
  g_clear_object (&self->runner);
  g_clear_object (&self->reference_runner);
  g_clear_pointer (&self->pack_id, g_free);
  g_clear_pointer (&self->pack_ref, json_object_unref);
  g_clear_pointer (&self->pack_language, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->sessions_dir, g_free);
  g_clear_pointer (&self->student_name, g_free);
  g_clear_pointer (&self->student_id, g_free);
  g_clear_pointer (&self->timeline, json_array_unref);
  g_clear_pointer (&self->saved_model, json_object_unref);
  g_clear_pointer (&self->scorer_base_url, g_free);
  g_clear_pointer (&self->scorer_model, g_free);
  g_clear_object (&self->session);
  g_clear_object (&self->examiner);
  g_clear_object (&self->model);
  g_clear_pointer (&self->notice, g_free);
  g_clear_pointer (&self->served_model, g_free);

  G_OBJECT_CLASS (viva_defense_parent_class)->finalize (object);
}

static void
viva_defense_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  VivaDefense *self = VIVA_DEFENSE (object);

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      g_value_set_object (value, self->endpoint);
      break;

    case PROP_PROBLEM:
      g_value_set_object (value, self->problem);
      break;

    case PROP_CODE_SOURCE:
      g_value_set_object (value, self->code_source);
      break;

    case PROP_RESUMED:
      g_value_set_boolean (value, self->resumed);
      break;

    case PROP_EXAMINER:
      g_value_set_object (value, self->examiner);
      break;

    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;

    case PROP_OFFLINE:
      g_value_set_boolean (value, viva_defense_get_offline (self));
      break;

    case PROP_NOTICE:
      g_value_set_string (value, self->notice);
      break;

    case PROP_SERVED_MODEL:
      g_value_set_string (value, self->served_model);
      break;

    case PROP_REACHABILITY:
      g_value_set_enum (value, viva_defense_get_reachability (self));
      break;

    case PROP_WARMTH:
      g_value_set_enum (value, viva_defense_get_warmth (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_defense_class_init (VivaDefenseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_defense_dispose;
  object_class->finalize = viva_defense_finalize;
  object_class->get_property = viva_defense_get_property;

  _viva_defense_properties[PROP_ENDPOINT] =
    g_param_spec_object ("endpoint", NULL, NULL, VIVA_TYPE_EXAM_ENDPOINT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  _viva_defense_properties[PROP_PROBLEM] =
    g_param_spec_object ("problem", NULL, NULL, VIVA_TYPE_PROBLEM,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  _viva_defense_properties[PROP_CODE_SOURCE] =
    g_param_spec_object ("code-source", NULL, NULL, VIVA_TYPE_CODE_SOURCE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  _viva_defense_properties[PROP_RESUMED] =
    g_param_spec_boolean ("resumed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* NULL until prepared. */
  _viva_defense_properties[PROP_EXAMINER] =
    g_param_spec_object ("examiner", NULL, NULL, VIVA_TYPE_EXAMINER,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_defense_properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, VIVA_TYPE_EXAM_SESSION,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_defense_properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, VIVA_TYPE_CHAT_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_defense_properties[PROP_OFFLINE] =
    g_param_spec_boolean ("offline", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Set when the offline examiner stands in for a server that did not
   * answer: the words both fronts show. */
  _viva_defense_properties[PROP_NOTICE] =
    g_param_spec_string ("notice", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_defense_properties[PROP_SERVED_MODEL] =
    g_param_spec_string ("served-model", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The endpoint's, relayed. */
  _viva_defense_properties[PROP_REACHABILITY] =
    g_param_spec_enum ("reachability", NULL, NULL, VIVA_TYPE_EXAM_REACH, VIVA_EXAM_REACH_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_defense_properties[PROP_WARMTH] =
    g_param_spec_enum ("warmth", NULL, NULL, VIVA_TYPE_EXAM_WARMTH, VIVA_EXAM_WARMTH_COLD,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, _viva_defense_properties);
}

static void
viva_defense_init (VivaDefense *self)
{
  self->timeline = json_array_new ();
}

static VivaDefense *
defense_new (VivaExamEndpoint *endpoint,
             VivaProblem      *problem,
             VivaCodeSource   *code_source)
{
  VivaDefense *self = g_object_new (VIVA_TYPE_DEFENSE, NULL);

  self->endpoint = endpoint ? g_object_ref (endpoint) : NULL;
  self->problem = g_object_ref (problem);
  self->code_source = g_object_ref (code_source);
  if (endpoint != NULL)
    g_signal_connect_object (endpoint, "notify", G_CALLBACK (endpoint_notify_cb), self, G_CONNECT_SWAPPED);

  return self;
}

/**
 * viva_defense_new:
 * @endpoint: (nullable): which model examines (viva_exam_endpoint_new()
 *   for the settings), shared by every defense of a window or a server;
 *   %NULL only for a defense given its model by viva_defense_assemble()
 * @problem: the problem defended
 * @code_source: the student's code, live
 *
 * A new defense, not started: a session of its own is made when it is
 * prepared (in viva_defense_set_sessions_dir()'s folder, or the default),
 * unless one is given with viva_defense_set_session().
 *
 * Returns: (transfer full): a new defense
 */
VivaDefense *
viva_defense_new (VivaExamEndpoint *endpoint,
                  VivaProblem      *problem,
                  VivaCodeSource   *code_source)
{
  g_return_val_if_fail (!endpoint || VIVA_IS_EXAM_ENDPOINT (endpoint), NULL);
  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);
  g_return_val_if_fail (VIVA_IS_CODE_SOURCE (code_source), NULL);

  return defense_new (endpoint, problem, code_source);
}

/**
 * viva_defense_new_for_session:
 * @endpoint: (nullable): which model continues; %NULL for the one the
 *   checkpoint names (its endpoint and the model that answered, or the
 *   offline examiner)
 * @session: a loaded session (viva_exam_session_load())
 * @problem: (nullable): the session's problem as the caller has it (the
 *   app's open problem, already matched to the session); %NULL to read it
 *   again from the pack the checkpoint names
 * @code_source: (nullable): the student's code now; %NULL for the code the
 *   checkpoint last saw
 *
 * A defense that continues @session where it stopped, with the examiner it
 * was started with: a session of the offline examiner stays offline unless
 * @endpoint names a server explicitly; a model's session continues with
 * @endpoint's model (with %NULL, the one the checkpoint names), unchecked.
 *
 * Returns: (transfer full) (nullable): a new defense, or %NULL with @error
 *   set when the pack is missing or changed
 */
VivaDefense *
viva_defense_new_for_session (VivaExamEndpoint  *endpoint,
                              VivaExamSession   *session,
                              VivaProblem       *problem,
                              VivaCodeSource    *code_source,
                              GError           **error)
{
  g_autoptr(VivaProblem) read = NULL;
  g_autoptr(VivaCodeSource) code = NULL;
  g_autoptr(VivaExamEndpoint) saved = NULL;
  JsonNode *checkpoint;
  JsonObject *root, *model = NULL, *snapshot = NULL;
  JsonNode *node;
  VivaDefense *self;

  g_return_val_if_fail (!endpoint || VIVA_IS_EXAM_ENDPOINT (endpoint), NULL);
  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (session), NULL);
  g_return_val_if_fail (!problem || VIVA_IS_PROBLEM (problem), NULL);
  g_return_val_if_fail (!code_source || VIVA_IS_CODE_SOURCE (code_source), NULL);

  if (problem == NULL && !(problem = read = viva_exam_session_dup_problem (session, error)))
    return NULL;

  checkpoint = viva_exam_session_get_checkpoint (session);
  root = checkpoint && JSON_NODE_HOLDS_OBJECT (checkpoint) ? json_node_get_object (checkpoint) : NULL;
  if (root && (node = json_object_get_member (root, "model")) && JSON_NODE_HOLDS_OBJECT (node))
    model = json_node_get_object (node);
  if (root && (node = json_object_get_member (root, "code")) && JSON_NODE_HOLDS_OBJECT (node))
    snapshot = json_node_get_object (node);

  if (code_source == NULL)
    code = VIVA_CODE_SOURCE (viva_text_code_source_new (snapshot ? json_object_get_string_member_with_default (snapshot, "text", "") : ""));
  else
    code = g_object_ref (code_source);

  if (endpoint == NULL)
    endpoint = saved = viva_exam_endpoint_new_for_session (NULL, session, NULL);

  self = defense_new (endpoint, problem, code);
  self->resumed = TRUE;
  self->session = g_object_ref (session);
  self->pack_id = g_strdup (viva_exam_session_get_pack_id (session));
  if (model != NULL)
    {
      g_autoptr(JsonNode) copy = json_node_copy (json_object_get_member (root, "model"));
      self->saved_model = json_object_ref (json_node_get_object (copy));
    }

  return self;
}

/* Preparing */

static void
served_model_cb (VivaDefense     *self,
                 GParamSpec      *pspec,
                 VivaOpenAIModel *model)
{
  const char *name = viva_openai_model_get_served_model (model);

  if (name == NULL || g_strcmp0 (name, self->served_model) == 0)
    return;

  g_free (self->served_model);
  self->served_model = g_strdup (name);
  if (self->session != NULL)
    viva_exam_session_set_served_model (self->session, name);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_SERVED_MODEL]);
}

/* Every defense is checkpointed after each step, so a crash or a restart
 * loses nothing; the timeline ends with the code submitted, and the trace
 * records whether the hint was used. */
static void
start_session (VivaDefense *self)
{
  g_autofree char *code = viva_code_source_dup_code (self->code_source);
  g_autoptr(JsonObject) submit = viva_timeline_event_code ("submit", code ? code : "");

  if (self->session == NULL)
    self->session = viva_exam_session_new (self->sessions_dir);

  if (self->student_name != NULL || self->student_id != NULL)
    viva_exam_session_set_student (self->session, self->student_name, self->student_id);
  for (guint i = 0; i < json_array_get_length (self->timeline); i++)
    viva_exam_session_add_timeline_event (self->session, json_array_get_object_element (self->timeline, i));
  viva_exam_session_add_timeline_event (self->session, submit);

  if (self->hint_used)
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_string_member (data, "problem", viva_problem_get_id (self->problem));
      viva_exam_session_trace (self->session, "hint", data);
    }

  viva_examiner_set_session (self->examiner, self->session);
}

/* A second model may score the conceptual answers (k times each): the
 * scorer's endpoint and model, each empty for the examiner's own. Only
 * beside a model: the offline examiner scores by its own words, and a
 * lab's or an eval's model is what they measure. */
static void
choose_scorer (VivaDefense   *self,
               VivaSettings  *settings,
               VivaChatModel *model)
{
  const char *base_url = self->scorer_base_url ? self->scorer_base_url : viva_settings_get_scorer_base_url (settings);
  const char *name = self->scorer_model ? self->scorer_model : viva_settings_get_scorer_model (settings);
  g_autoptr(VivaOpenAIModel) scorer = NULL;

  if (!VIVA_IS_OPENAI_MODEL (model) || ((base_url == NULL || *base_url == '\0') && (name == NULL || *name == '\0')))
    return;

  scorer = viva_exam_model_new_for_endpoint (settings,
                                             base_url && *base_url ? base_url
                                                                   : viva_openai_model_get_base_url (VIVA_OPENAI_MODEL (model)),
                                             name && *name ? name
                                                           : viva_openai_model_get_model (VIVA_OPENAI_MODEL (model)));
  viva_examiner_set_scorer (self->examiner, VIVA_CHAT_MODEL (scorer));
}

static void
assemble (VivaDefense   *self,
          VivaChatModel *model,
          char          *notice)
{
  VivaSettings *settings = self->endpoint ? viva_exam_endpoint_get_settings (self->endpoint) : viva_settings_get_default ();
  g_autofree char *language = NULL;

  self->model = model;
  self->notice = notice;
  self->examiner = viva_examiner_new (model, self->problem, self->code_source);

  if (self->runner != NULL)
    viva_examiner_set_runner (self->examiner, self->runner);
  if (self->reference_runner != NULL)
    viva_examiner_set_reference_runner (self->examiner, self->reference_runner);
  if (self->pack_id != NULL)
    viva_examiner_set_pack_id (self->examiner, self->pack_id);
  if (self->pack_ref != NULL)
    viva_examiner_set_pack_ref (self->examiner, self->pack_ref);
  if (self->has_limits)
    viva_examiner_set_limits (self->examiner, &self->limits);
  if (self->language != NULL)
    language = g_strdup (self->language);
  else
    language = viva_exam_language_choose (viva_settings_get_examiner_language (settings), self->pack_language);
  viva_examiner_set_language (self->examiner, language);
  choose_scorer (self, settings, model);

  if (self->resumed)
    {
      if (self->student_name != NULL || self->student_id != NULL)
        viva_exam_session_set_student (self->session, self->student_name, self->student_id);
      self->served_model = g_strdup (viva_exam_session_get_served_model (self->session));
    }
  else if (!self->unrecorded)
    start_session (self);

  if (VIVA_IS_OPENAI_MODEL (model))
    g_signal_connect_object (model, "notify::served-model", G_CALLBACK (served_model_cb),
                             self, G_CONNECT_SWAPPED);

  self->prepared = TRUE;

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_MODEL]);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_OFFLINE]);
  if (self->notice != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_NOTICE]);
  if (self->served_model != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_SERVED_MODEL]);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_SESSION]);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_defense_properties[PROP_EXAMINER]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The examiner a resumed session was started with. */
static VivaChatModel *
resumed_model (VivaDefense *self)
{
  const char *type = self->saved_model ? json_object_get_string_member_with_default (self->saved_model, "type", NULL) : NULL;
  VivaExamEndpoint *endpoint = self->endpoint;

  if (viva_exam_endpoint_get_mode (endpoint) == VIVA_EXAMINER_MODE_OFFLINE && viva_exam_endpoint_get_explicit (endpoint))
    return VIVA_CHAT_MODEL (viva_scripted_model_new (self->problem));
  if (g_strcmp0 (type, "VivaScriptedModel") == 0 && !viva_exam_endpoint_get_explicit (endpoint))
    return VIVA_CHAT_MODEL (viva_scripted_model_new (self->problem));

  return VIVA_CHAT_MODEL (viva_exam_endpoint_new_client (endpoint));
}

static void
choose_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaDefense *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  char *notice = NULL;
  VivaChatModel *model;

  self->preparing = FALSE;

  if (!(model = viva_exam_endpoint_choose_finish (VIVA_EXAM_ENDPOINT (object), result, &notice, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  assemble (self, model, notice);
  g_task_return_boolean (task, TRUE);
}

/**
 * viva_defense_assemble:
 * @model: the examiner's model, chosen by the caller: a lab's measuring
 *   wrapper around viva_exam_endpoint_new_client(), an eval's model
 *
 * Assembles the defense at once with @model instead of the endpoint's
 * choice, as viva_defense_prepare_async() does otherwise. Once.
 *
 * Returns: (transfer none): the examiner
 */
VivaExaminer *
viva_defense_assemble (VivaDefense   *self,
                       VivaChatModel *model)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  g_return_val_if_fail (VIVA_IS_CHAT_MODEL (model), NULL);
  g_return_val_if_fail (!self->prepared && !self->preparing, NULL);

  assemble (self, g_object_ref (model), NULL);
  return self->examiner;
}

/**
 * viva_defense_prepare_now:
 *
 * Prepares at once when the choice needs no wait (offline or model mode,
 * auto mode with the endpoint's check made, a resume), so a front can show
 * the defense in the same moment as the Submit; else use
 * viva_defense_prepare_async().
 *
 * Returns: whether the defense is prepared
 */
gboolean
viva_defense_prepare_now (VivaDefense *self)
{
  VivaChatModel *model;
  char *notice = NULL;

  g_return_val_if_fail (VIVA_IS_DEFENSE (self), FALSE);

  if (self->prepared)
    return TRUE;
  if (self->preparing || self->endpoint == NULL)
    return FALSE;

  if (self->resumed)
    model = resumed_model (self);
  else if (!(model = viva_exam_endpoint_choose_now (self->endpoint, self->problem, &notice)))
    return FALSE;

  assemble (self, model, notice);
  return TRUE;
}

/**
 * viva_defense_prepare_async:
 *
 * Chooses the model (in auto mode waiting for the endpoint's check, which
 * a Stop cancels) and assembles the examiner and the session: when this
 * completes, #VivaDefense:examiner, #VivaDefense:session,
 * #VivaDefense:model and #VivaDefense:notice are set (and notified, the
 * examiner last). Nothing is asked of the model yet. Once prepared, the
 * configuration setters may no longer be called.
 */
void
viva_defense_prepare_async (VivaDefense         *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_DEFENSE (self));
  g_return_if_fail (!self->preparing);
  g_return_if_fail (self->prepared || self->endpoint != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_defense_prepare_async);

  if (self->prepared)
    return g_task_return_boolean (task, TRUE);

  if (self->resumed)
    {
      assemble (self, resumed_model (self), NULL);
      return g_task_return_boolean (task, TRUE);
    }

  self->preparing = TRUE;
  viva_exam_endpoint_choose_async (self->endpoint, self->problem, cancellable, choose_cb, g_steal_pointer (&task));
}

gboolean
viva_defense_prepare_finish (VivaDefense   *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Running */

static void
examiner_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *examiner = VIVA_EXAMINER (object);
  g_autoptr(GError) error = NULL;
  VivaExamVerdict *verdict;

  if (g_task_get_source_tag (G_TASK (result)) == viva_examiner_resume_async)
    verdict = viva_examiner_resume_finish (examiner, result, &error);
  else
    verdict = viva_examiner_run_finish (examiner, result, &error);

  if (verdict == NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, verdict, g_object_unref);
}

static void
run_prepared (GTask *task)
{
  VivaDefense *self = g_task_get_source_object (task);

  if (self->resumed)
    viva_examiner_resume_async (self->examiner, self->session, g_task_get_cancellable (task),
                                examiner_done_cb, task);
  else
    viva_examiner_run_async (self->examiner, g_task_get_cancellable (task), examiner_done_cb, task);
}

static void
prepared_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_defense_prepare_finish (VIVA_DEFENSE (object), result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  run_prepared (g_steal_pointer (&task));
}

/**
 * viva_defense_run_async:
 *
 * Runs the whole defense (preparing it first if that was not done): a new
 * one from the start, a resumed one from its checkpoint. Cancelled, the
 * defense stays resumable from its checkpoint. Once.
 */
void
viva_defense_run_async (VivaDefense         *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_DEFENSE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_defense_run_async);

  if (self->prepared)
    return run_prepared (g_steal_pointer (&task));

  viva_defense_prepare_async (self, cancellable, prepared_cb, g_steal_pointer (&task));
}

/**
 * viva_defense_run_finish:
 *
 * Returns: (transfer full): the verdict (finished, or incomplete), or
 *   %NULL with @error set (the model failed: the examiner is in state
 *   `failed` and the defense can be resumed; or cancelled)
 */
VivaExamVerdict *
viva_defense_run_finish (VivaDefense   *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
