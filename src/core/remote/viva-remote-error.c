/* viva-remote-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "viva-remote-error.h"

G_DEFINE_QUARK (viva-remote-error-quark, viva_remote_error)

/**
 * viva_remote_error_kind:
 *
 * Returns: the error's kind as a word for `--json` (`offline`,
 *   `signed_out`, …), `cancelled`, or `error` for another domain
 */
const char *
viva_remote_error_kind (const GError *error)
{
  static const char * const kinds[] = {
    [VIVA_REMOTE_ERROR_INVALID_LINK] = "invalid_link",
    [VIVA_REMOTE_ERROR_OFFLINE] = "offline",
    [VIVA_REMOTE_ERROR_CERTIFICATE] = "certificate",
    [VIVA_REMOTE_ERROR_SIGNED_OUT] = "signed_out",
    [VIVA_REMOTE_ERROR_REJECTED] = "rejected",
    [VIVA_REMOTE_ERROR_BUSY] = "busy",
    [VIVA_REMOTE_ERROR_TIME_UP] = "time_up",
    [VIVA_REMOTE_ERROR_PROTOCOL] = "protocol",
  };

  g_return_val_if_fail (error != NULL, NULL);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "cancelled";
  if (error->domain != VIVA_REMOTE_ERROR || error->code < 0 || (gsize)error->code >= G_N_ELEMENTS (kinds))
    return "error";
  return kinds[error->code];
}

/* What a queue sends again later: the server away or busy. A refusal, a
 * sign-out, a time-up or a wrong certificate do not go away by waiting. */
gboolean
viva_remote_error_is_retryable (const GError *error)
{
  return g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_OFFLINE) ||
         g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_BUSY);
}
