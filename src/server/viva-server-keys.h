/* viva-server-keys.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The files of the state folder that hold keys, all private to the
 * server's user. */
#define VIVA_SERVER_TLS_CERT_FILE    "tls-cert.pem"
#define VIVA_SERVER_TLS_KEY_FILE     "tls-key.pem"
#define VIVA_SERVER_SIGNING_KEY_FILE "signing-key.pem"
#define VIVA_SERVER_SIGNING_PUB_FILE "signing-key.pub.pem"

gboolean  viva_server_keys_make_tls         (const char  *cert_path,
                                             const char  *key_path,
                                             const char  *host,
                                             GError     **error);
gboolean  viva_server_keys_make_signing     (const char  *key_path,
                                             const char  *pub_path,
                                             GError     **error);
char     *viva_server_keys_fingerprint      (GTlsCertificate *certificate);
char     *viva_server_keys_sign             (const char  *key_path,
                                             const char  *data,
                                             gsize        length,
                                             GError     **error);
gboolean  viva_server_keys_verify           (const char  *pub_pem,
                                             const char  *data,
                                             gsize        length,
                                             const char  *signature,
                                             GError     **error);
char     *viva_server_keys_random_token     (void);
char     *viva_server_keys_random_code      (void);
char     *viva_server_keys_random_id        (void);
char     *viva_server_keys_hash_token       (const char  *token);
gboolean  viva_server_keys_equal            (const char  *a,
                                             const char  *b);

G_END_DECLS
