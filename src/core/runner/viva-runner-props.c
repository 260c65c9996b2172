/* viva-runner-props.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-runner-private.h"

/* VivaRunner's public getters and setters, and GObject's side of its
 * properties (their specs, and get and set, which forward to those
 * accessors). The state they read is changed by the queue and the worker
 * half (viva-runner.c, viva-runner-worker.c). */

GParamSpec *_viva_runner_properties[N_PROPS];

gboolean
viva_runner_get_busy (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), FALSE);
  return self->busy;
}

/**
 * viva_runner_get_python_version:
 *
 * Returns: (nullable): the worker's Python version, such as `3.11.2`, once a
 *   worker has started
 */
const char *
viva_runner_get_python_version (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), NULL);
  return self->python_version;
}

/**
 * viva_runner_get_sandbox:
 *
 * Returns: the sandbox the last started worker runs in
 */
VivaRunnerSandbox
viva_runner_get_sandbox (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), VIVA_RUNNER_SANDBOX_NONE);
  return self->sandbox;
}

/**
 * viva_runner_get_sandbox_message:
 *
 * Returns: (nullable): when code runs without a sandbox, a sentence saying
 *   why and what to do; %NULL while it is sandboxed
 */
const char *
viva_runner_get_sandbox_message (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), NULL);
  return self->sandbox_message;
}

guint64
viva_runner_get_memory_limit (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), 0);
  return self->memory_limit;
}

/**
 * viva_runner_set_memory_limit:
 * @bytes: address space for the worker, 0 for no limit
 *
 * Takes effect when the next worker starts.
 */
void
viva_runner_set_memory_limit (VivaRunner *self,
                              guint64     bytes)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));

  if (self->memory_limit == bytes)
    return;

  self->memory_limit = bytes;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_MEMORY_LIMIT]);
}

guint
viva_runner_get_output_limit (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), 0);
  return self->output_limit;
}

/**
 * viva_runner_set_output_limit:
 * @bytes: how much one run may print before the rest is dropped
 */
void
viva_runner_set_output_limit (VivaRunner *self,
                              guint       bytes)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (bytes > 0);

  if (self->output_limit == bytes)
    return;

  self->output_limit = bytes;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_OUTPUT_LIMIT]);
}

/**
 * viva_runner_get_paused:
 *
 * Returns: whether the run in progress is paused, or a pause was asked for
 */
gboolean
viva_runner_get_paused (VivaRunner *self)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), FALSE);
  return self->paused;
}

static void
viva_runner_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  VivaRunner *self = VIVA_RUNNER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, viva_runner_get_busy (self));
      break;

    case PROP_PYTHON_VERSION:
      g_value_set_string (value, viva_runner_get_python_version (self));
      break;

    case PROP_SANDBOX:
      g_value_set_enum (value, viva_runner_get_sandbox (self));
      break;

    case PROP_SANDBOX_MESSAGE:
      g_value_set_string (value, viva_runner_get_sandbox_message (self));
      break;

    case PROP_MEMORY_LIMIT:
      g_value_set_uint64 (value, viva_runner_get_memory_limit (self));
      break;

    case PROP_OUTPUT_LIMIT:
      g_value_set_uint (value, viva_runner_get_output_limit (self));
      break;

    case PROP_PAUSED:
      g_value_set_boolean (value, viva_runner_get_paused (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_runner_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  VivaRunner *self = VIVA_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MEMORY_LIMIT:
      viva_runner_set_memory_limit (self, g_value_get_uint64 (value));
      break;

    case PROP_OUTPUT_LIMIT:
      viva_runner_set_output_limit (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Installs the properties and their get and set on @object_class. */
void
_viva_runner_install_properties (GObjectClass *object_class)
{
  object_class->get_property = viva_runner_get_property;
  object_class->set_property = viva_runner_set_property;

  /**
   * VivaRunner:busy:
   *
   * Whether a request (run, inject, check, reset) is running or waiting:
   * the Run button shows Stop. Starting the worker alone is not busy.
   */
  _viva_runner_properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  _viva_runner_properties[PROP_PYTHON_VERSION] =
    g_param_spec_string ("python-version", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  _viva_runner_properties[PROP_SANDBOX] =
    g_param_spec_enum ("sandbox", NULL, NULL,
                       VIVA_TYPE_RUNNER_SANDBOX, VIVA_RUNNER_SANDBOX_NONE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * VivaRunner:sandbox-message:
   *
   * Set when code runs without a sandbox, saying why: bind it to a banner.
   */
  _viva_runner_properties[PROP_SANDBOX_MESSAGE] =
    g_param_spec_string ("sandbox-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  _viva_runner_properties[PROP_MEMORY_LIMIT] =
    g_param_spec_uint64 ("memory-limit", NULL, NULL,
                         0, G_MAXUINT64, VIVA_RUNNER_DEFAULT_MEMORY_LIMIT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  _viva_runner_properties[PROP_OUTPUT_LIMIT] =
    g_param_spec_uint ("output-limit", NULL, NULL,
                       1, G_MAXUINT, VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * VivaRunner:paused:
   *
   * Whether the run in progress is paused or pausing (viva_runner_pause()):
   * the Pause button shows Resume.
   */
  _viva_runner_properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, _viva_runner_properties);
}
