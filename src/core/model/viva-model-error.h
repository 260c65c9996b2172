/* viva-model-error.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define VIVA_MODEL_ERROR (viva_model_error_quark ())

/**
 * VivaModelError:
 * @VIVA_MODEL_ERROR_NOT_RUNNING: nothing listens at the endpoint (connection refused)
 * @VIVA_MODEL_ERROR_CONNECTION: the connection failed or broke (DNS, reset, TLS)
 * @VIVA_MODEL_ERROR_MODEL_NOT_FOUND: the server does not have the requested model
 * @VIVA_MODEL_ERROR_UNAUTHORIZED: the server rejected the API key (401/403)
 * @VIVA_MODEL_ERROR_BAD_REQUEST: the server rejected the request (400/422)
 * @VIVA_MODEL_ERROR_RATE_LIMITED: too many requests (429), even after retrying
 * @VIVA_MODEL_ERROR_SERVER: the server failed (5xx, or an error inside the stream)
 * @VIVA_MODEL_ERROR_TIMEOUT: no first byte, or no byte for the idle timeout
 * @VIVA_MODEL_ERROR_TRUNCATED: the reply ended before the server said it was done
 * @VIVA_MODEL_ERROR_INVALID_RESPONSE: the server answered something that is not its protocol
 * @VIVA_MODEL_ERROR_NO_MODEL: no model is configured and the server lists none
 * @VIVA_MODEL_ERROR_BUSY: the server stayed busy (503, or waiting its turn)
 *   longer than the model waits
 * @VIVA_MODEL_ERROR_REPLY_LIMIT: the reply passed one of the model's limits
 *   (bytes, line length, pieces, tool calls or time; viva-reply-limits.h),
 *   so it was not read further
 * @VIVA_MODEL_ERROR_ADDRESS: the endpoint is not a server address (no
 *   http:// or https://, or not a URL at all)
 *
 * Cancellation is reported as %G_IO_ERROR_CANCELLED, as everywhere in GIO.
 */
typedef enum
{
  VIVA_MODEL_ERROR_NOT_RUNNING,
  VIVA_MODEL_ERROR_CONNECTION,
  VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
  VIVA_MODEL_ERROR_UNAUTHORIZED,
  VIVA_MODEL_ERROR_BAD_REQUEST,
  VIVA_MODEL_ERROR_RATE_LIMITED,
  VIVA_MODEL_ERROR_SERVER,
  VIVA_MODEL_ERROR_TIMEOUT,
  VIVA_MODEL_ERROR_TRUNCATED,
  VIVA_MODEL_ERROR_INVALID_RESPONSE,
  VIVA_MODEL_ERROR_NO_MODEL,
  VIVA_MODEL_ERROR_BUSY,
  VIVA_MODEL_ERROR_REPLY_LIMIT,
  VIVA_MODEL_ERROR_ADDRESS,
} VivaModelError;

GQuark      viva_model_error_quark (void);
const char *viva_model_error_kind  (const GError *error);

G_END_DECLS
