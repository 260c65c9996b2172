/* viva-model-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "viva-model-error.h"

G_DEFINE_QUARK (viva-model-error-quark, viva_model_error)

/**
 * viva_model_error_kind:
 * @error: an error from a model call
 *
 * A short stable name for @error's code, as the CLI prints it in the
 * `kind` member of its `error` event: `not-running`, `connection`,
 * `model-not-found`, `unauthorized`, `bad-request`, `rate-limited`,
 * `server`, `timeout`, `truncated`, `invalid-response`, `no-model`,
 * `cancelled`, or `other`.
 *
 * Returns: (transfer none): a static string
 */
const char *
viva_model_error_kind (const GError *error)
{
  static const char * const kinds[] = {
    [VIVA_MODEL_ERROR_NOT_RUNNING] = "not-running",
    [VIVA_MODEL_ERROR_CONNECTION] = "connection",
    [VIVA_MODEL_ERROR_MODEL_NOT_FOUND] = "model-not-found",
    [VIVA_MODEL_ERROR_UNAUTHORIZED] = "unauthorized",
    [VIVA_MODEL_ERROR_BAD_REQUEST] = "bad-request",
    [VIVA_MODEL_ERROR_RATE_LIMITED] = "rate-limited",
    [VIVA_MODEL_ERROR_SERVER] = "server",
    [VIVA_MODEL_ERROR_TIMEOUT] = "timeout",
    [VIVA_MODEL_ERROR_TRUNCATED] = "truncated",
    [VIVA_MODEL_ERROR_INVALID_RESPONSE] = "invalid-response",
    [VIVA_MODEL_ERROR_NO_MODEL] = "no-model",
  };

  g_return_val_if_fail (error != NULL, "other");

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "cancelled";

  if (error->domain == VIVA_MODEL_ERROR &&
      error->code >= 0 && error->code < (int)G_N_ELEMENTS (kinds))
    return kinds[error->code];

  return "other";
}
