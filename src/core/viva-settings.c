/* viva-settings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-settings.h"

/* The one front door to GSettings: every key is a property of the same
 * name, bound to the key when the schema is installed. Without a schema
 * (viva-cli run from a plain checkout) the properties keep their defaults,
 * so nothing aborts. */

enum {
  PROP_0,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_TEMPERATURE,
  PROP_FIRST_BYTE_TIMEOUT,
  PROP_IDLE_TIMEOUT,
  PROP_CONTEXT_LENGTH,
  PROP_EXAMINER_LANGUAGE,
  PROP_EXAMINER_MODE,
  PROP_WINDOW_WIDTH,
  PROP_WINDOW_HEIGHT,
  PROP_WINDOW_MAXIMIZED,
  PROP_PROBLEM_PANE_POSITION,
  PROP_PROBLEM_PANE_VISIBLE,
  PROP_EXAMINER_PANE_WIDTH,
  PROP_CONSOLE_PANE_POSITION,
  PROP_CODE_FONT_SIZE,
  PROP_LAST_PACK,
  PROP_LAST_PROBLEM,
  PROP_TEACHER_MODE,
  PROP_RUN_WITHOUT_SANDBOX,
  PROP_EXAM_FILE,
  PROP_SCORER_BASE_URL,
  PROP_SCORER_MODEL,
  N_PROPS
};

struct _VivaSettings
{
  GObject    parent_instance;
  GSettings *settings;
  GValue     values[N_PROPS];
  gboolean   fixed[N_PROPS];  /* set by an exam for this run, not stored */
};


G_DEFINE_FINAL_TYPE (VivaSettings, viva_settings, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

#define VALUE(self, prop) (&((VivaSettings *)(self))->values[(prop)])

static const char *
viva_examiner_mode_to_nick (VivaExaminerMode mode)
{
  static const char * const nicks[] = { "auto", "model", "offline" };

  return nicks[CLAMP ((int)mode, 0, 2)];
}

static gboolean
get_examiner_mode (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  const char *nick = g_variant_get_string (variant, NULL);

  if (g_strcmp0 (nick, "model") == 0)
    g_value_set_int (value, VIVA_EXAMINER_MODE_MODEL);
  else if (g_strcmp0 (nick, "offline") == 0)
    g_value_set_int (value, VIVA_EXAMINER_MODE_OFFLINE);
  else
    g_value_set_int (value, VIVA_EXAMINER_MODE_AUTO);

  return TRUE;
}

static GVariant *
set_examiner_mode (const GValue       *value,
                   const GVariantType *type,
                   gpointer            user_data)
{
  return g_variant_new_string (viva_examiner_mode_to_nick (g_value_get_int (value)));
}

static void
viva_settings_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  if (prop_id == 0 || prop_id >= N_PROPS)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }

  g_value_copy (VALUE (object, prop_id), value);
}

static void
viva_settings_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  if (prop_id == 0 || prop_id >= N_PROPS)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }

  if (g_param_values_cmp (pspec, VALUE (object, prop_id), value) == 0 ||
      ((VivaSettings *)object)->fixed[prop_id])
    return;

  g_value_copy (value, VALUE (object, prop_id));
  g_object_notify_by_pspec (object, pspec);
}

static void
viva_settings_constructed (GObject *object)
{
  VivaSettings *self = (VivaSettings *)object;
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  G_OBJECT_CLASS (viva_settings_parent_class)->constructed (object);

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, "io.github.vivaexam.Viva", TRUE);

  if (schema == NULL)
    return;

  self->settings = g_settings_new_full (schema, NULL, NULL);

  for (guint i = 1; i < N_PROPS; i++)
    {
      const char *name = g_param_spec_get_name (properties[i]);

      if (i == PROP_EXAMINER_MODE)
        g_settings_bind_with_mapping (self->settings, name, self, name,
                                      G_SETTINGS_BIND_DEFAULT,
                                      get_examiner_mode, set_examiner_mode,
                                      NULL, NULL);
      else
        g_settings_bind (self->settings, name, self, name, G_SETTINGS_BIND_DEFAULT);
    }
}

static void
viva_settings_finalize (GObject *object)
{
  VivaSettings *self = (VivaSettings *)object;

  g_clear_object (&self->settings);

  for (guint i = 1; i < N_PROPS; i++)
    g_value_unset (VALUE (self, i));

  G_OBJECT_CLASS (viva_settings_parent_class)->finalize (object);
}

static void
viva_settings_class_init (VivaSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = viva_settings_constructed;
  object_class->finalize = viva_settings_finalize;
  object_class->get_property = viva_settings_get_property;
  object_class->set_property = viva_settings_set_property;

  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, "http://localhost:11434/v1", flags);
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, "", flags);
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, 0, 2, 0.2, flags);
  properties[PROP_FIRST_BYTE_TIMEOUT] =
    g_param_spec_uint ("first-byte-timeout", NULL, NULL, 5, 3600, 180, flags);
  properties[PROP_IDLE_TIMEOUT] =
    g_param_spec_uint ("idle-timeout", NULL, NULL, 5, 3600, 60, flags);
  properties[PROP_CONTEXT_LENGTH] =
    g_param_spec_uint ("context-length", NULL, NULL, 2048, 1048576, 16384, flags);
  properties[PROP_EXAMINER_LANGUAGE] =
    g_param_spec_string ("examiner-language", NULL, NULL, "", flags);
  properties[PROP_EXAMINER_MODE] =
    g_param_spec_int ("examiner-mode", NULL, NULL,
                      VIVA_EXAMINER_MODE_AUTO, VIVA_EXAMINER_MODE_OFFLINE,
                      VIVA_EXAMINER_MODE_AUTO, flags);
  properties[PROP_WINDOW_WIDTH] =
    g_param_spec_int ("window-width", NULL, NULL, 0, G_MAXINT, 1280, flags);
  properties[PROP_WINDOW_HEIGHT] =
    g_param_spec_int ("window-height", NULL, NULL, 0, G_MAXINT, 800, flags);
  properties[PROP_WINDOW_MAXIMIZED] =
    g_param_spec_boolean ("window-maximized", NULL, NULL, FALSE, flags);
  properties[PROP_PROBLEM_PANE_POSITION] =
    g_param_spec_int ("problem-pane-position", NULL, NULL, G_MININT, G_MAXINT, 340, flags);
  properties[PROP_PROBLEM_PANE_VISIBLE] =
    g_param_spec_boolean ("problem-pane-visible", NULL, NULL, TRUE, flags);
  properties[PROP_EXAMINER_PANE_WIDTH] =
    g_param_spec_int ("examiner-pane-width", NULL, NULL, G_MININT, G_MAXINT, 440, flags);
  properties[PROP_CONSOLE_PANE_POSITION] =
    g_param_spec_int ("console-pane-position", NULL, NULL, G_MININT, G_MAXINT, 480, flags);
  properties[PROP_CODE_FONT_SIZE] =
    g_param_spec_int ("code-font-size", NULL, NULL, 0, 48, 0, flags);
  properties[PROP_LAST_PACK] =
    g_param_spec_string ("last-pack", NULL, NULL, "intro-ai", flags);
  properties[PROP_LAST_PROBLEM] =
    g_param_spec_string ("last-problem", NULL, NULL, "kmeans", flags);
  properties[PROP_TEACHER_MODE] =
    g_param_spec_boolean ("teacher-mode", NULL, NULL, FALSE, flags);
  /* Only ever set by hand (gsettings or dconf): code may run without a
   * sandbox when bubblewrap is missing or cannot start. */
  properties[PROP_RUN_WITHOUT_SANDBOX] =
    g_param_spec_boolean ("run-without-sandbox", NULL, NULL, FALSE, flags);
  properties[PROP_EXAM_FILE] =
    g_param_spec_string ("exam-file", NULL, NULL, "", flags);
  /* A second model that scores conceptual answers; empty: the examiner's. */
  properties[PROP_SCORER_BASE_URL] =
    g_param_spec_string ("scorer-base-url", NULL, NULL, "", flags);
  properties[PROP_SCORER_MODEL] =
    g_param_spec_string ("scorer-model", NULL, NULL, "", flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_settings_init (VivaSettings *self)
{
  for (guint i = 1; i < N_PROPS; i++)
    {
      g_value_init (VALUE (self, i), properties[i]->value_type);
      g_param_value_set_default (properties[i], VALUE (self, i));
    }
}

/**
 * viva_settings_new:
 *
 * Returns: (transfer full): settings bound to the `io.github.vivaexam.Viva`
 *   schema when it is installed, defaults otherwise.
 */
VivaSettings *
viva_settings_new (void)
{
  return g_object_new (VIVA_TYPE_SETTINGS, NULL);
}

/**
 * viva_settings_get_default:
 *
 * Returns: (transfer none): the process's shared settings. Main thread only.
 */
VivaSettings *
viva_settings_get_default (void)
{
  static VivaSettings *instance;

  if (instance == NULL)
    {
      instance = viva_settings_new ();
      g_object_add_weak_pointer (G_OBJECT (instance), (gpointer *)&instance);
    }

  return instance;
}

gboolean
viva_settings_has_schema (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), FALSE);

  return self->settings != NULL;
}

const char *
viva_settings_get_base_url (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), NULL);

  return g_value_get_string (VALUE (self, PROP_BASE_URL));
}

void
viva_settings_set_base_url (VivaSettings *self,
                            const char   *base_url)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "base-url", base_url ? base_url : "", NULL);
}

const char *
viva_settings_get_model (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), NULL);

  return g_value_get_string (VALUE (self, PROP_MODEL));
}

void
viva_settings_set_model (VivaSettings *self,
                         const char   *model)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "model", model ? model : "", NULL);
}

const char *
viva_settings_get_scorer_base_url (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), NULL);

  return g_value_get_string (VALUE (self, PROP_SCORER_BASE_URL));
}

void
viva_settings_set_scorer_base_url (VivaSettings *self,
                                   const char   *base_url)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "scorer-base-url", base_url ? base_url : "", NULL);
}

const char *
viva_settings_get_scorer_model (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), NULL);

  return g_value_get_string (VALUE (self, PROP_SCORER_MODEL));
}

void
viva_settings_set_scorer_model (VivaSettings *self,
                                const char   *model)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "scorer-model", model ? model : "", NULL);
}

double
viva_settings_get_temperature (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_double (VALUE (self, PROP_TEMPERATURE));
}

void
viva_settings_set_temperature (VivaSettings *self,
                               double        temperature)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "temperature", CLAMP (temperature, 0.0, 2.0), NULL);
}

guint
viva_settings_get_first_byte_timeout (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_uint (VALUE (self, PROP_FIRST_BYTE_TIMEOUT));
}

guint
viva_settings_get_idle_timeout (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_uint (VALUE (self, PROP_IDLE_TIMEOUT));
}

guint
viva_settings_get_context_length (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_uint (VALUE (self, PROP_CONTEXT_LENGTH));
}

const char *
viva_settings_get_examiner_language (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), NULL);

  return g_value_get_string (VALUE (self, PROP_EXAMINER_LANGUAGE));
}

void
viva_settings_set_examiner_language (VivaSettings *self,
                                     const char   *language)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "examiner-language", language ? language : "", NULL);
}

VivaExaminerMode
viva_settings_get_examiner_mode (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_int (VALUE (self, PROP_EXAMINER_MODE));
}

void
viva_settings_set_examiner_mode (VivaSettings     *self,
                                 VivaExaminerMode  mode)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "examiner-mode", (int)mode, NULL);
}

const char *
viva_settings_get_last_pack (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), NULL);

  return g_value_get_string (VALUE (self, PROP_LAST_PACK));
}

const char *
viva_settings_get_last_problem (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), NULL);

  return g_value_get_string (VALUE (self, PROP_LAST_PROBLEM));
}

void
viva_settings_set_last_problem (VivaSettings *self,
                                const char   *pack_id,
                                const char   *problem_id)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self,
                "last-pack", pack_id ? pack_id : "",
                "last-problem", problem_id ? problem_id : "",
                NULL);
}

int
viva_settings_get_problem_pane_position (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_int (VALUE (self, PROP_PROBLEM_PANE_POSITION));
}

void
viva_settings_set_problem_pane_position (VivaSettings *self,
                                        int          position)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "problem-pane-position", position, NULL);
}

gboolean
viva_settings_get_problem_pane_visible (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_boolean (VALUE (self, PROP_PROBLEM_PANE_VISIBLE));
}

void
viva_settings_set_problem_pane_visible (VivaSettings *self,
                                       gboolean     visible)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "problem-pane-visible", !!visible, NULL);
}

int
viva_settings_get_examiner_pane_width (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_int (VALUE (self, PROP_EXAMINER_PANE_WIDTH));
}

void
viva_settings_set_examiner_pane_width (VivaSettings *self,
                                      int          width)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "examiner-pane-width", width, NULL);
}

int
viva_settings_get_code_font_size (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), 0);

  return g_value_get_int (VALUE (self, PROP_CODE_FONT_SIZE));
}

void
viva_settings_set_code_font_size (VivaSettings *self,
                                 int          size)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "code-font-size", size, NULL);
}

gboolean
viva_settings_get_teacher_mode (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), FALSE);

  return g_value_get_boolean (VALUE (self, PROP_TEACHER_MODE));
}

void
viva_settings_set_teacher_mode (VivaSettings *self,
                                gboolean      teacher_mode)
{
  g_return_if_fail (VIVA_IS_SETTINGS (self));

  g_object_set (self, "teacher-mode", !!teacher_mode, NULL);
}

/**
 * viva_settings_get_run_without_sandbox:
 *
 * Returns: whether code may run without a sandbox when the sandbox cannot
 *   start; off unless someone turned it on
 */
gboolean
viva_settings_get_run_without_sandbox (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), FALSE);

  return g_value_get_boolean (VALUE (self, PROP_RUN_WITHOUT_SANDBOX));
}

/**
 * viva_settings_get_exam_file:
 *
 * Returns: the exam file a lab administrator set for every start, or ""
 */
const char *
viva_settings_get_exam_file (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), NULL);

  return g_value_get_string (VALUE (self, PROP_EXAM_FILE));
}

/**
 * viva_settings_is_exam_file_locked:
 *
 * Returns: whether the `exam-file` key is locked (dconf lockdown), so the
 *   student cannot leave the exam
 */
gboolean
viva_settings_is_exam_file_locked (VivaSettings *self)
{
  g_return_val_if_fail (VIVA_IS_SETTINGS (self), FALSE);

  return self->settings != NULL && !g_settings_is_writable (self->settings, "exam-file");
}

/**
 * viva_settings_fix:
 * @name: a property (a key) of the settings
 * @value: what it is for the rest of this run
 *
 * An exam fixes some settings (the examiner's endpoint, model, mode and
 * language): the property takes @value and stops following GSettings, so
 * the user's own settings are neither used nor overwritten, and
 * viva_settings_is_fixed() tells Preferences to show it read-only. Setting
 * a fixed property later is ignored. Main thread.
 */
void
viva_settings_fix (VivaSettings *self,
                   const char   *name,
                   const GValue *value)
{
  GParamSpec *pspec;

  g_return_if_fail (VIVA_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), name);
  g_return_if_fail (pspec != NULL);

  if (self->settings != NULL && !self->fixed[pspec->param_id])
    g_settings_unbind (self, name);

  /* Set before marking it fixed, so this one change goes through. */
  self->fixed[pspec->param_id] = FALSE;
  g_object_set_property (G_OBJECT (self), name, value);
  self->fixed[pspec->param_id] = TRUE;
}

/**
 * viva_settings_is_fixed:
 *
 * Returns: whether an exam fixed @name with viva_settings_fix()
 */
gboolean
viva_settings_is_fixed (VivaSettings *self,
                        const char   *name)
{
  GParamSpec *pspec;

  g_return_val_if_fail (VIVA_IS_SETTINGS (self), FALSE);

  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), name);
  return pspec != NULL && self->fixed[pspec->param_id];
}
