/* viva-server-keys.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <string.h>

#include "viva-file-writer.h"
#include "viva-server-keys.h"

/* The server's keys and its randomness, all through GnuTLS: the library
 * GLib's TLS already runs on, so the server adds no second crypto library.
 * Ed25519 signs reports (small keys and signatures, deterministic, no
 * parameters to get wrong); the TLS certificate is ECDSA P-256, which
 * every TLS client accepts. */

#define CERT_LIFETIME (10 * 365 * 24 * 3600)

static gboolean
check (int          rc,
       const char  *what,
       GError     **error)
{
  if (rc >= 0)
    return TRUE;

  /* @what is a whole sentence up to its colon, so it translates whole. */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s %s", what, gnutls_strerror (rc));
  return FALSE;
}

static gboolean
write_datum (const char      *path,
             gnutls_datum_t  *datum,
             GError         **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new (datum->data, datum->size);

  return viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_NONE, error);
}

static gboolean
export_private (gnutls_x509_privkey_t   key,
                const char             *path,
                GError                **error)
{
  gnutls_datum_t out = { NULL, 0 };
  gboolean ok;

  if (!check (gnutls_x509_privkey_export2_pkcs8 (key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN, &out),
              _("Could not write the private key:"), error))
    return FALSE;
  ok = write_datum (path, &out, error);
  gnutls_free (out.data);
  return ok;
}

static void
add_alt_name (gnutls_x509_crt_t  crt,
              const char        *host)
{
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (host);

  if (address != NULL)
    gnutls_x509_crt_set_subject_alt_name (crt, GNUTLS_SAN_IPADDRESS, g_inet_address_to_bytes (address),
                                          g_inet_address_get_native_size (address), GNUTLS_FSAN_APPEND);
  else
    gnutls_x509_crt_set_subject_alt_name (crt, GNUTLS_SAN_DNSNAME, host, strlen (host), GNUTLS_FSAN_APPEND);
}

/**
 * viva_server_keys_make_tls:
 * @host: the name or address students reach the server at
 *
 * Makes a self-signed certificate for @host (and localhost): students'
 * apps pin its fingerprint from the exam link, so no authority is asked.
 */
gboolean
viva_server_keys_make_tls (const char  *cert_path,
                           const char  *key_path,
                           const char  *host,
                           GError     **error)
{
  gnutls_x509_privkey_t key = NULL;
  gnutls_x509_crt_t crt = NULL;
  gnutls_datum_t out = { NULL, 0 };
  g_autofree char *dn = NULL;
  guchar serial[16];
  time_t now = time (NULL);
  gboolean ok = FALSE;

  gnutls_rnd (GNUTLS_RND_NONCE, serial, sizeof serial);
  serial[0] &= 0x7f;  /* a positive serial number */
  dn = g_strdup_printf ("CN=%s,O=Viva exam server", host);

  if (check (gnutls_x509_privkey_init (&key), _("Could not make the TLS key:"), error) &&
      check (gnutls_x509_privkey_generate (key, GNUTLS_PK_ECDSA,
                                           GNUTLS_CURVE_TO_BITS (GNUTLS_ECC_CURVE_SECP256R1), 0),
             _("Could not make the TLS key:"), error) &&
      check (gnutls_x509_crt_init (&crt), _("Could not make the certificate:"), error) &&
      check (gnutls_x509_crt_set_version (crt, 3), _("Could not make the certificate:"), error) &&
      check (gnutls_x509_crt_set_serial (crt, serial, sizeof serial), _("Could not make the certificate:"), error) &&
      check (gnutls_x509_crt_set_activation_time (crt, now - 24 * 3600), _("Could not make the certificate:"), error) &&
      check (gnutls_x509_crt_set_expiration_time (crt, now + CERT_LIFETIME), _("Could not make the certificate:"), error) &&
      check (gnutls_x509_crt_set_dn (crt, dn, NULL), _("Could not name the certificate:"), error) &&
      check (gnutls_x509_crt_set_key (crt, key), _("Could not make the certificate:"), error) &&
      check (gnutls_x509_crt_set_basic_constraints (crt, 0, -1), _("Could not make the certificate:"), error) &&
      check (gnutls_x509_crt_set_key_usage (crt, GNUTLS_KEY_DIGITAL_SIGNATURE), _("Could not make the certificate:"), error) &&
      check (gnutls_x509_crt_set_key_purpose_oid (crt, GNUTLS_KP_TLS_WWW_SERVER, 0), _("Could not make the certificate:"), error))
    {
      add_alt_name (crt, host);
      if (g_strcmp0 (host, "localhost") != 0)
        add_alt_name (crt, "localhost");
      if (g_strcmp0 (host, "127.0.0.1") != 0)
        add_alt_name (crt, "127.0.0.1");

      ok = check (gnutls_x509_crt_sign2 (crt, crt, key, GNUTLS_DIG_SHA256, 0), _("Could not sign the certificate:"), error) &&
           check (gnutls_x509_crt_export2 (crt, GNUTLS_X509_FMT_PEM, &out), _("Could not write the certificate:"), error) &&
           export_private (key, key_path, error) &&
           write_datum (cert_path, &out, error);
    }

  gnutls_free (out.data);
  if (crt != NULL)
    gnutls_x509_crt_deinit (crt);
  if (key != NULL)
    gnutls_x509_privkey_deinit (key);
  return ok;
}

gboolean
viva_server_keys_make_signing (const char  *key_path,
                               const char  *pub_path,
                               GError     **error)
{
  gnutls_privkey_t key = NULL;
  gnutls_x509_privkey_t x509 = NULL;
  gnutls_pubkey_t pub = NULL;
  gnutls_datum_t out = { NULL, 0 };
  gboolean ok;

  ok = check (gnutls_privkey_init (&key), _("Could not make the signing key:"), error) &&
       check (gnutls_privkey_generate2 (key, GNUTLS_PK_EDDSA_ED25519, 0, 0, NULL, 0),
              _("Could not make the signing key:"), error) &&
       check (gnutls_privkey_export_x509 (key, &x509), _("Could not make the signing key:"), error) &&
       export_private (x509, key_path, error) &&
       check (gnutls_pubkey_init (&pub), _("Could not make the signing key:"), error) &&
       check (gnutls_pubkey_import_privkey (pub, key, 0, 0), _("Could not make the signing key:"), error) &&
       check (gnutls_pubkey_export2 (pub, GNUTLS_X509_FMT_PEM, &out), _("Could not write the public key:"), error) &&
       write_datum (pub_path, &out, error);

  gnutls_free (out.data);
  if (pub != NULL)
    gnutls_pubkey_deinit (pub);
  if (x509 != NULL)
    gnutls_x509_privkey_deinit (x509);
  if (key != NULL)
    gnutls_privkey_deinit (key);
  return ok;
}

/**
 * viva_server_keys_fingerprint:
 *
 * Returns: (transfer full): the SHA-256 of the certificate's DER, as 64
 *   lowercase hex digits: what an exam link carries after `#sha256=`
 */
char *
viva_server_keys_fingerprint (GTlsCertificate *certificate)
{
  g_autoptr(GByteArray) der = NULL;

  g_return_val_if_fail (G_IS_TLS_CERTIFICATE (certificate), NULL);

  g_object_get (certificate, "certificate", &der, NULL);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, der->data, der->len);
}

/**
 * viva_server_keys_sign:
 *
 * Returns: (transfer full): the Ed25519 signature of @data, in base64
 */
char *
viva_server_keys_sign (const char  *key_path,
                       const char  *data,
                       gsize        length,
                       GError     **error)
{
  g_autofree char *pem = NULL;
  gsize pem_length;
  gnutls_privkey_t key = NULL;
  gnutls_datum_t in, message, signature = { NULL, 0 };
  char *result = NULL;

  if (!g_file_get_contents (key_path, &pem, &pem_length, error))
    return NULL;

  in.data = (unsigned char *)pem;
  in.size = pem_length;
  message.data = (unsigned char *)data;
  message.size = length;

  if (check (gnutls_privkey_init (&key), _("Could not read the signing key:"), error) &&
      check (gnutls_privkey_import_x509_raw (key, &in, GNUTLS_X509_FMT_PEM, NULL, 0), _("Could not read the signing key:"), error) &&
      check (gnutls_privkey_sign_data2 (key, GNUTLS_SIGN_EDDSA_ED25519, 0, &message, &signature),
             _("Could not sign the report:"), error))
    result = g_base64_encode (signature.data, signature.size);

  gnutls_free (signature.data);
  if (key != NULL)
    gnutls_privkey_deinit (key);
  return result;
}

gboolean
viva_server_keys_verify (const char  *pub_pem,
                         const char  *data,
                         gsize        length,
                         const char  *signature,
                         GError     **error)
{
  gnutls_pubkey_t pub = NULL;
  gnutls_datum_t in, message, sig;
  g_autofree guchar *raw = NULL;
  gsize raw_length = 0;
  gboolean ok;

  raw = g_base64_decode (signature, &raw_length);
  in.data = (unsigned char *)pub_pem;
  in.size = strlen (pub_pem);
  message.data = (unsigned char *)data;
  message.size = length;
  sig.data = raw;
  sig.size = raw_length;

  ok = check (gnutls_pubkey_init (&pub), _("Could not read the public key:"), error) &&
       check (gnutls_pubkey_import (pub, &in, GNUTLS_X509_FMT_PEM), _("Could not read the public key:"), error) &&
       check (gnutls_pubkey_verify_data2 (pub, GNUTLS_SIGN_EDDSA_ED25519, 0, &message, &sig),
              _("Could not verify the signature:"), error);

  if (pub != NULL)
    gnutls_pubkey_deinit (pub);
  return ok;
}

static char *
random_base64url (gsize n_bytes)
{
  g_autofree guchar *bytes = g_malloc (n_bytes);
  g_autofree char *text = NULL;

  if (gnutls_rnd (GNUTLS_RND_KEY, bytes, n_bytes) < 0)
    g_error ("The system has no randomness for a token");
  text = g_base64_encode (bytes, n_bytes);
  g_strdelimit (text, "+", '-');
  g_strdelimit (text, "/", '_');
  g_strdelimit (text, "=", '\0');
  return g_strdup (text);
}

/**
 * viva_server_keys_random_token:
 *
 * Returns: (transfer full): 256 random bits, base64url: a bearer token
 */
char *
viva_server_keys_random_token (void)
{
  return random_base64url (32);
}

/**
 * viva_server_keys_random_id:
 *
 * Returns: (transfer full): 96 random bits, base64url: an id nobody guesses
 */
char *
viva_server_keys_random_id (void)
{
  return random_base64url (12);
}

/**
 * viva_server_keys_random_code:
 *
 * Returns: (transfer full): a seat card's sign-in code, `XXXX-XXXX` in
 *   letters and digits nobody misreads (no 0/O, 1/I): 40 bits
 */
char *
viva_server_keys_random_code (void)
{
  static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  guchar bytes[8];
  GString *code = g_string_new (NULL);

  G_STATIC_ASSERT (sizeof alphabet - 1 == 32);

  if (gnutls_rnd (GNUTLS_RND_KEY, bytes, sizeof bytes) < 0)
    g_error ("The system has no randomness for a code");
  for (guint i = 0; i < sizeof bytes; i++)
    {
      if (i == 4)
        g_string_append_c (code, '-');
      g_string_append_c (code, alphabet[bytes[i] & 31]);
    }
  return g_string_free (code, FALSE);
}

char *
viva_server_keys_hash_token (const char *token)
{
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, token, -1);
}

/* Compares two secrets in time that does not depend on where they differ. */
gboolean
viva_server_keys_equal (const char *a,
                        const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  guchar diff = la != lb;

  for (gsize i = 0; i < MAX (la, lb); i++)
    diff |= (guchar)(i < la ? a[i] : 0) ^ (guchar)(i < lb ? b[i] : 0);
  return diff == 0;
}
