/* viva-remote-error.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define VIVA_REMOTE_ERROR (viva_remote_error_quark ())

/**
 * VivaRemoteError:
 * @VIVA_REMOTE_ERROR_INVALID_LINK: the text is not an exam link
 * @VIVA_REMOTE_ERROR_OFFLINE: no address of the link answered, or the
 *   connection broke: the work is kept, try again
 * @VIVA_REMOTE_ERROR_CERTIFICATE: the server's certificate is not the one
 *   the link names; nothing was sent to it
 * @VIVA_REMOTE_ERROR_SIGNED_OUT: the token is not valid any more (the
 *   student signed in elsewhere): sign in again
 * @VIVA_REMOTE_ERROR_REJECTED: the server refused the request (wrong code,
 *   no such exam or problem, not allowed, bad request)
 * @VIVA_REMOTE_ERROR_BUSY: the server is busy or rate-limits: try later
 * @VIVA_REMOTE_ERROR_TIME_UP: the sitting is handed in or past its
 *   deadline, or the problem was defended already: nothing more is taken
 * @VIVA_REMOTE_ERROR_PROTOCOL: the server answered something that is not
 *   the exam server's API (or too much of it)
 *
 * Cancellation is %G_IO_ERROR_CANCELLED, as everywhere in GIO.
 */
typedef enum
{
  VIVA_REMOTE_ERROR_INVALID_LINK,
  VIVA_REMOTE_ERROR_OFFLINE,
  VIVA_REMOTE_ERROR_CERTIFICATE,
  VIVA_REMOTE_ERROR_SIGNED_OUT,
  VIVA_REMOTE_ERROR_REJECTED,
  VIVA_REMOTE_ERROR_BUSY,
  VIVA_REMOTE_ERROR_TIME_UP,
  VIVA_REMOTE_ERROR_PROTOCOL,
} VivaRemoteError;

GQuark      viva_remote_error_quark     (void);
const char *viva_remote_error_kind      (const GError *error);
gboolean    viva_remote_error_is_retryable (const GError *error);

G_END_DECLS
