/* viva-exam-endpoint.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-endpoint-private.h"
#include "viva-exam-model.h"
#include "viva-exam-session.h"

/* Which mind examines, by one rule for the app, viva-cli and the exam
 * server: `offline` the scripted examiner; `model` the configured model,
 * unchecked; `auto` the model if its server answers and has it, else the
 * offline examiner with one notice saying so. Whether the server answers
 * (reachability) and whether its model is loaded (warmth) are this
 * object's state, kept across defenses and forgotten when the settings
 * name another server or model, so the app can warm a model while the
 * student codes and a defense starts without waiting for a check. The
 * choice itself, and the choices waiting for a check, are
 * viva-exam-endpoint-choice.c. */

G_DEFINE_ENUM_TYPE (VivaExamReach, viva_exam_reach,
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_REACH_UNKNOWN, "unknown"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_REACH_CHECKING, "checking"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_REACH_YES, "yes"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_REACH_NO, "no"))

G_DEFINE_ENUM_TYPE (VivaExamWarmth, viva_exam_warmth,
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_WARMTH_COLD, "cold"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_WARMTH_LOADING, "loading"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_WARMTH_READY, "ready"))


enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_MODE,
  PROP_BASE_URL,
  PROP_REACHABILITY,
  PROP_WARMTH,
  PROP_ERROR_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VivaExamEndpoint, viva_exam_endpoint, G_TYPE_OBJECT)


/* The check and the warm-up hold the endpoint weakly, so a window that
 * goes drops it at once, and its dispose cancels them. */
static gpointer
weak_new (VivaExamEndpoint *self)
{
  GWeakRef *weak = g_new0 (GWeakRef, 1);

  g_weak_ref_init (weak, self);
  return weak;
}

static VivaExamEndpoint *
weak_take (gpointer data)
{
  GWeakRef *weak = data;
  VivaExamEndpoint *self = g_weak_ref_get (weak);

  g_weak_ref_clear (weak);
  g_free (weak);
  return self;
}

static void
set_reach (VivaExamEndpoint *self,
           VivaExamReach     reach,
           const char       *error_message)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (g_strcmp0 (self->error_message, error_message) != 0)
    {
      g_free (self->error_message);
      self->error_message = g_strdup (error_message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
    }
  if (self->reach != reach)
    {
      self->reach = reach;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REACHABILITY]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

static void
set_warmth (VivaExamEndpoint *self,
            VivaExamWarmth    warmth)
{
  if (self->warmth == warmth)
    return;
  self->warmth = warmth;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WARMTH]);
}

static void
warm_up_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaExamEndpoint) self = weak_take (user_data);
  g_autoptr(GError) error = NULL;
  gboolean warm = viva_openai_model_warm_up_finish (VIVA_OPENAI_MODEL (object), result, &error);

  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (!warm)
    g_debug ("examiner: warming the model failed: %s", error->message);

  set_warmth (self, warm ? VIVA_EXAM_WARMTH_READY : VIVA_EXAM_WARMTH_COLD);
}

static void
load (VivaExamEndpoint *self,
      const char       *name)
{
  if (g_strcmp0 (self->warm_model, name) == 0 && self->warmth != VIVA_EXAM_WARMTH_COLD)
    return;

  g_free (self->warm_model);
  self->warm_model = g_strdup (name);
  set_warmth (self, VIVA_EXAM_WARMTH_LOADING);
  viva_openai_model_warm_up_async (self->client, name, self->cancellable, warm_up_cb, weak_new (self));
}

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaExamEndpoint) self = weak_take (user_data);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = viva_openai_model_list_models_finish (VIVA_OPENAI_MODEL (object), result, &error);

  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_reach (self, VIVA_EXAM_REACH_YES, NULL);
  _viva_exam_endpoint_resolve_waiters (self);
  if (names != NULL && names[0] != NULL)
    load (self, names[0]);
}

static void
health_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaExamEndpoint) self = weak_take (user_data);
  g_autoptr(GError) error = NULL;
  VivaOpenAIModel *client = VIVA_OPENAI_MODEL (object);
  const char *name = viva_openai_model_get_model (client);
  gboolean healthy = viva_openai_model_check_health_finish (client, result, &error);

  if (self == NULL)
    return;

  if (!healthy)
    {
      /* Cancelled: the settings changed, and a new check may be under way. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      g_debug ("examiner: no model at %s: %s", viva_openai_model_get_base_url (client), error->message);
      set_reach (self, VIVA_EXAM_REACH_NO, error->message);
      _viva_exam_endpoint_resolve_waiters (self);
      return;
    }

  /* The server's first model: which one is that, to load it. */
  if (name == NULL || name[0] == '\0')
    {
      viva_openai_model_list_models_async (client, self->cancellable, list_models_cb, weak_new (self));
      return;
    }

  set_reach (self, VIVA_EXAM_REACH_YES, NULL);
  _viva_exam_endpoint_resolve_waiters (self);
  load (self, name);
}

/**
 * viva_exam_endpoint_warm:
 *
 * Checks that the server answers and has the model (the health check of
 * the model client: the model configured, or any when none is), then has
 * the server load it (Ollama) while nobody waits. The outcome is in
 * #VivaExamEndpoint:reachability and #VivaExamEndpoint:warmth; cheap to
 * call again, and nothing in offline mode.
 */
void
viva_exam_endpoint_warm (VivaExamEndpoint *self)
{
  g_return_if_fail (VIVA_IS_EXAM_ENDPOINT (self));

  if (viva_exam_endpoint_get_mode (self) == VIVA_EXAMINER_MODE_OFFLINE)
    return;

  self->asked = TRUE;
  if (self->reach == VIVA_EXAM_REACH_CHECKING ||
      (self->reach == VIVA_EXAM_REACH_YES && self->warmth != VIVA_EXAM_WARMTH_COLD))
    return;

  set_reach (self, VIVA_EXAM_REACH_CHECKING, NULL);
  viva_openai_model_check_health_async (self->client, self->cancellable, health_cb, weak_new (self));
}

/* What was known was about another server or model. */
static void
settings_changed_cb (VivaExamEndpoint *self,
                     GParamSpec       *pspec,
                     VivaSettings     *settings)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_pointer (&self->warm_model, g_free);

  g_object_freeze_notify (G_OBJECT (self));
  set_reach (self, VIVA_EXAM_REACH_UNKNOWN, NULL);
  set_warmth (self, VIVA_EXAM_WARMTH_COLD);
  if (g_str_equal (pspec->name, "examiner-mode"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
  else if (g_str_equal (pspec->name, "base-url"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASE_URL]);
  g_object_thaw_notify (G_OBJECT (self));

  if (self->asked || self->waiting->len > 0)
    viva_exam_endpoint_warm (self);
  /* Now offline: whoever waited gets the offline examiner. */
  if (self->waiting->len > 0 && viva_exam_endpoint_get_mode (self) == VIVA_EXAMINER_MODE_OFFLINE)
    _viva_exam_endpoint_resolve_waiters (self);
}

/* After the fixed parts are set: the constructors below are the only
 * way to make an endpoint. */
static VivaExamEndpoint *
setup (VivaExamEndpoint *self)
{
  if (self->settings == NULL)
    self->settings = g_object_ref (viva_settings_get_default ());

  self->client = viva_exam_model_new_for_endpoint (self->settings, self->base_url, self->model_name);

  if (self->base_url == NULL)
    g_signal_connect_object (self->settings, "notify::base-url", G_CALLBACK (settings_changed_cb),
                             self, G_CONNECT_SWAPPED);
  if (self->model_name == NULL)
    g_signal_connect_object (self->settings, "notify::model", G_CALLBACK (settings_changed_cb),
                             self, G_CONNECT_SWAPPED);
  if (self->mode < 0)
    g_signal_connect_object (self->settings, "notify::examiner-mode", G_CALLBACK (settings_changed_cb),
                             self, G_CONNECT_SWAPPED);

  return self;
}

static void
viva_exam_endpoint_dispose (GObject *object)
{
  VivaExamEndpoint *self = (VivaExamEndpoint *)object;

  /* A waiter holds the endpoint, so none is left here; cancelled checks
   * return into callbacks that hold their own reference. */
  g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (viva_exam_endpoint_parent_class)->dispose (object);
}

static void
viva_exam_endpoint_finalize (GObject *object)
{
  VivaExamEndpoint *self = (VivaExamEndpoint *)object;

  g_assert (self->waiting->len == 0);

  g_clear_object (&self->settings);
  g_clear_object (&self->client);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->waiting, g_ptr_array_unref);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->model_name, g_free);
  g_clear_pointer (&self->warm_model, g_free);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (viva_exam_endpoint_parent_class)->finalize (object);
}

static void
viva_exam_endpoint_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  VivaExamEndpoint *self = VIVA_EXAM_ENDPOINT (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_MODE:
      g_value_set_int (value, viva_exam_endpoint_get_mode (self));
      break;

    case PROP_BASE_URL:
      g_value_set_string (value, viva_exam_endpoint_get_base_url (self));
      break;

    case PROP_REACHABILITY:
      g_value_set_enum (value, self->reach);
      break;

    case PROP_WARMTH:
      g_value_set_enum (value, self->warmth);
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, self->error_message);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_exam_endpoint_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  VivaExamEndpoint *self = VIVA_EXAM_ENDPOINT (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_exam_endpoint_class_init (VivaExamEndpointClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_exam_endpoint_dispose;
  object_class->finalize = viva_exam_endpoint_finalize;
  object_class->get_property = viva_exam_endpoint_get_property;
  object_class->set_property = viva_exam_endpoint_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, VIVA_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL, VIVA_EXAMINER_MODE_AUTO, VIVA_EXAMINER_MODE_OFFLINE, VIVA_EXAMINER_MODE_AUTO,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REACHABILITY] =
    g_param_spec_enum ("reachability", NULL, NULL, VIVA_TYPE_EXAM_REACH, VIVA_EXAM_REACH_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WARMTH] =
    g_param_spec_enum ("warmth", NULL, NULL, VIVA_TYPE_EXAM_WARMTH, VIVA_EXAM_WARMTH_COLD,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_exam_endpoint_init (VivaExamEndpoint *self)
{
  self->mode = -1;
  self->cancellable = g_cancellable_new ();
  self->waiting = g_ptr_array_new ();
}

/**
 * viva_exam_endpoint_new:
 * @settings: (nullable): the settings, by default the app's
 *
 * The examiner's endpoint as the settings say (mode, address, model),
 * following them as they change: what the app and the exam server use.
 *
 * Returns: (transfer full): a new endpoint
 */
VivaExamEndpoint *
viva_exam_endpoint_new (VivaSettings *settings)
{
  return setup (g_object_new (VIVA_TYPE_EXAM_ENDPOINT, "settings", settings, NULL));
}

/**
 * viva_exam_endpoint_new_offline:
 *
 * Always the offline examiner (`viva-cli defend --offline`).
 *
 * Returns: (transfer full): a new endpoint
 */
VivaExamEndpoint *
viva_exam_endpoint_new_offline (VivaSettings *settings)
{
  VivaExamEndpoint *self = g_object_new (VIVA_TYPE_EXAM_ENDPOINT, "settings", settings, NULL);

  self->mode = VIVA_EXAMINER_MODE_OFFLINE;
  return setup (self);
}

/**
 * viva_exam_endpoint_new_for_endpoint:
 * @base_url: (nullable): the endpoint, instead of the configured one
 * @model_name: (nullable): the model, instead of the configured one
 *
 * An endpoint named on a command line: with @base_url the model there,
 * unchecked, as `model` mode does (whoever names a server wants that
 * one); with only @model_name the settings' mode and address with that
 * model; with neither, viva_exam_endpoint_new().
 *
 * Returns: (transfer full): a new endpoint
 */
VivaExamEndpoint *
viva_exam_endpoint_new_for_endpoint (VivaSettings *settings,
                                     const char   *base_url,
                                     const char   *model_name)
{
  VivaExamEndpoint *self = g_object_new (VIVA_TYPE_EXAM_ENDPOINT, "settings", settings, NULL);

  self->base_url = g_strdup (base_url);
  self->model_name = g_strdup (model_name);
  if (base_url != NULL)
    self->mode = VIVA_EXAMINER_MODE_MODEL;
  return setup (self);
}

/**
 * viva_exam_endpoint_new_for_session:
 * @session: a loaded session
 * @model_name: (nullable): the model, instead of the one that answered
 *
 * The endpoint a session's checkpoint names (`viva-cli resume`): the
 * offline examiner for a defense it ran, else the model's server (the
 * configured one for a checkpoint without an address) and the model that
 * answered there, named explicitly, so a resume continues with the same
 * mind.
 *
 * Returns: (transfer full): a new endpoint
 */
VivaExamEndpoint *
viva_exam_endpoint_new_for_session (VivaSettings    *settings,
                                    VivaExamSession *session,
                                    const char      *model_name)
{
  JsonNode *checkpoint = viva_exam_session_get_checkpoint (session);
  JsonObject *root = checkpoint && JSON_NODE_HOLDS_OBJECT (checkpoint) ? json_node_get_object (checkpoint) : NULL;
  JsonNode *node = root ? json_object_get_member (root, "model") : NULL;
  JsonObject *model = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *type = model ? json_object_get_string_member_with_default (model, "type", NULL) : NULL;
  const char *base_url, *name;

  if (g_strcmp0 (type, "VivaOpenAIModel") != 0)
    return viva_exam_endpoint_new_offline (settings);

  if (settings == NULL)
    settings = viva_settings_get_default ();
  base_url = json_object_get_string_member_with_default (model, "base_url", NULL);
  name = json_object_get_string_member_with_default (model, "name", NULL);
  if (model_name != NULL)
    name = model_name;

  return viva_exam_endpoint_new_for_endpoint (settings,
                                              base_url ? base_url : viva_settings_get_base_url (settings),
                                              name && name[0] ? name : NULL);
}

VivaSettings *
viva_exam_endpoint_get_settings (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), NULL);
  return self->settings;
}

/**
 * viva_exam_endpoint_get_mode:
 *
 * Returns: the rule in force: fixed, or the settings' `examiner-mode`
 */
VivaExaminerMode
viva_exam_endpoint_get_mode (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), VIVA_EXAMINER_MODE_AUTO);

  if (self->mode >= 0)
    return self->mode;
  return viva_settings_get_examiner_mode (self->settings);
}

/**
 * viva_exam_endpoint_get_explicit:
 *
 * Returns: whether the endpoint was named by whoever made this object (a
 *   `--base-url`), so a resumed defense uses it whatever it used before
 */
gboolean
viva_exam_endpoint_get_explicit (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), FALSE);
  return self->base_url != NULL || self->mode == VIVA_EXAMINER_MODE_OFFLINE;
}

const char *
viva_exam_endpoint_get_base_url (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), NULL);
  return viva_openai_model_get_base_url (self->client);
}

VivaExamReach
viva_exam_endpoint_get_reachability (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), VIVA_EXAM_REACH_UNKNOWN);
  return self->reach;
}

VivaExamWarmth
viva_exam_endpoint_get_warmth (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), VIVA_EXAM_WARMTH_COLD);
  return self->warmth;
}

/**
 * viva_exam_endpoint_get_error_message:
 *
 * Returns: (nullable): why the server is not reachable, in words
 */
const char *
viva_exam_endpoint_get_error_message (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), NULL);
  return self->error_message;
}

/**
 * viva_exam_endpoint_new_client:
 *
 * A model client of its own for one defense, configured as this endpoint
 * is (and following the settings the same way): its `busy` and
 * `served-model` are that defense's alone.
 *
 * Returns: (transfer full): a new client
 */
VivaOpenAIModel *
viva_exam_endpoint_new_client (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), NULL);
  return viva_exam_model_new_for_endpoint (self->settings, self->base_url, self->model_name);
}

/**
 * viva_exam_endpoint_dup_notice:
 *
 * The one wording, in the app's panel and on viva-cli's standard error,
 * of the offline examiner standing in for a server that did not answer.
 *
 * Returns: (transfer full): the notice
 */
char *
viva_exam_endpoint_dup_notice (VivaExamEndpoint *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_ENDPOINT (self), NULL);

  return g_strdup_printf (_("No model answered at %s, so the offline examiner runs this defense. It follows the same five steps with the problem’s own tests and questions."),
                          viva_exam_endpoint_get_base_url (self));
}
