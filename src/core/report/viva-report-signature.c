/* viva-report-signature.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <string.h>

#include "viva-report-file.h"
#include "viva-report-signature.h"

/* An exam server signs each report over its exact bytes with Ed25519
 * (src/server/viva-server-keys.c) and hands it out as NAME.json beside
 * NAME.json.sig, a small JSON file: {"format": "viva-signature/1",
 * "algorithm": "ed25519", "file": NAME.json, "signature": base64,
 * "public_key": PEM}. Checking needs only GnuTLS, the library GLib's TLS
 * already runs on. Both files come from wherever the teacher got them, so
 * they are read as hostile input: regular files only, bounded, and a key
 * or signature that does not parse is "invalid", never a crash. */

#define MAX_SIGNATURE_FILE (64 * 1024)
#define MAX_KEY_FILE (16 * 1024)

const char *
viva_report_signature_to_string (VivaReportSignature status)
{
  switch (status)
    {
    case VIVA_REPORT_SIGNATURE_VALID:
      return "valid";
    case VIVA_REPORT_SIGNATURE_MISSING:
      return "missing";
    case VIVA_REPORT_SIGNATURE_INVALID:
    default:
      return "invalid";
    }
}

/**
 * viva_report_signature_verify:
 * @key_pem: an Ed25519 public key, PEM
 * @signature: the base64 signature
 *
 * Returns: %TRUE when @signature is @key_pem's over @data
 */
gboolean
viva_report_signature_verify (const char  *key_pem,
                              const char  *data,
                              gsize        length,
                              const char  *signature,
                              GError     **error)
{
  gnutls_pubkey_t pub = NULL;
  gnutls_datum_t key, message, sig;
  g_autofree guchar *raw = NULL;
  gsize raw_length = 0;
  int rc;

  g_return_val_if_fail (key_pem != NULL, FALSE);
  g_return_val_if_fail (signature != NULL, FALSE);

  raw = g_base64_decode (signature, &raw_length);
  if (raw_length != 64)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The signature is not an Ed25519 signature (64 bytes in base64)."));
      return FALSE;
    }

  key.data = (unsigned char *)key_pem;
  key.size = strlen (key_pem);
  message.data = (unsigned char *)data;
  message.size = length;
  sig.data = raw;
  sig.size = raw_length;

  if (gnutls_pubkey_init (&pub) < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("GnuTLS could not start."));
      return FALSE;
    }
  if (gnutls_pubkey_import (pub, &key, GNUTLS_X509_FMT_PEM) < 0 ||
      gnutls_pubkey_get_pk_algorithm (pub, NULL) != GNUTLS_PK_EDDSA_ED25519)
    {
      gnutls_pubkey_deinit (pub);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The key is not an Ed25519 public key in PEM: use the server’s viva-server-signing-key.pem."));
      return FALSE;
    }
  rc = gnutls_pubkey_verify_data2 (pub, GNUTLS_SIGN_EDDSA_ED25519, 0, &message, &sig);
  gnutls_pubkey_deinit (pub);
  if (rc < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The signature does not match: the report was changed after the server signed it, or another key signed it."));
      return FALSE;
    }
  return TRUE;
}

/**
 * viva_report_signature_read_key:
 *
 * Returns: (transfer full): the PEM text of a key file (bounded, regular)
 */
char *
viva_report_signature_read_key (const char  *path,
                                GError     **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  if (!(text = viva_report_file_read (path, &length, error)))
    return NULL;
  if (length > MAX_KEY_FILE || memchr (text, '\0', length) != NULL ||
      strstr (text, "-----BEGIN PUBLIC KEY-----") == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not a public key in PEM: use the server’s viva-server-signing-key.pem."), path);
      return NULL;
    }
  return g_steal_pointer (&text);
}

static char *
read_signature_file (const char  *path,
                     char       **key_pem,
                     GError     **error)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  gsize length = 0;
  const char *signature, *key;

  if (!(text = viva_report_file_read (path, &length, error)))
    return NULL;
  if (length > MAX_SIGNATURE_FILE || !(node = viva_report_file_parse (text, length, NULL)) ||
      !JSON_NODE_HOLDS_OBJECT (node) ||
      g_strcmp0 (json_object_get_string_member_with_default ((object = json_node_get_object (node)), "format", NULL),
                 "viva-signature/1") != 0 ||
      g_strcmp0 (json_object_get_string_member_with_default (object, "algorithm", NULL), "ed25519") != 0 ||
      !(signature = json_object_get_string_member_with_default (object, "signature", NULL)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The signature file is not a viva-signature/1 Ed25519 signature."));
      return NULL;
    }
  key = json_object_get_string_member_with_default (object, "public_key", NULL);
  *key_pem = g_strdup (key);
  return g_strdup (signature);
}

VivaReportSignature
viva_report_signature_check (const char  *json_path,
                             const char  *key_pem,
                             char       **message)
{
  g_autofree char *sig_path = NULL;
  g_autofree char *data = NULL;
  g_autofree char *signature = NULL;
  g_autofree char *embedded = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  g_return_val_if_fail (json_path != NULL, VIVA_REPORT_SIGNATURE_INVALID);

  sig_path = g_strconcat (json_path, ".sig", NULL);
  if (!g_file_test (sig_path, G_FILE_TEST_EXISTS) && !g_file_test (sig_path, G_FILE_TEST_IS_SYMLINK))
    {
      if (message != NULL)
        *message = g_strdup (_("The report has no signature beside it (NAME.json.sig): it did not come from the exam server as it is."));
      return VIVA_REPORT_SIGNATURE_MISSING;
    }

  if (!(signature = read_signature_file (sig_path, &embedded, &error)) ||
      !(data = viva_report_file_read (json_path, &length, &error)))
    {
      if (message != NULL)
        *message = g_strdup (error->message);
      return VIVA_REPORT_SIGNATURE_INVALID;
    }

  if (key_pem == NULL && embedded == NULL)
    {
      if (message != NULL)
        *message = g_strdup (_("The signature file names no key: give the server’s key."));
      return VIVA_REPORT_SIGNATURE_INVALID;
    }

  if (!viva_report_signature_verify (key_pem ? key_pem : embedded, data, length, signature, &error))
    {
      if (message != NULL)
        *message = g_strdup (error->message);
      return VIVA_REPORT_SIGNATURE_INVALID;
    }

  if (message != NULL)
    *message = g_strdup (key_pem != NULL
                         ? _("The report is exactly what the exam server signed with the key given.")
                         : _("The report matches the key in its signature file; give the server’s key (--key) to know that key is the server’s."));
  return VIVA_REPORT_SIGNATURE_VALID;
}

/**
 * viva_report_signature_file:
 *
 * Returns: (transfer full): the text of a `NAME.json.sig` file
 */
char *
viva_report_signature_file (const char *json_name,
                            const char *signature,
                            const char *key_pem)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) node = NULL;

  json_object_set_string_member (object, "format", "viva-signature/1");
  json_object_set_string_member (object, "algorithm", "ed25519");
  json_object_set_string_member (object, "file", json_name);
  json_object_set_string_member (object, "signature", signature);
  json_object_set_string_member (object, "public_key", key_pem);
  node = json_node_init_object (json_node_alloc (), object);
  return json_to_string (node, TRUE);
}

/* A file name part from a server's text: letters, digits, dot, dash. */
static void
append_safe (GString    *out,
             const char *text)
{
  gsize n = 0;

  for (const char *p = text; *p && n < 64; p++, n++)
    g_string_append_c (out, g_ascii_isalnum (*p) || *p == '-' || *p == '.' ? *p : '_');
  if (n == 0)
    g_string_append_c (out, '_');
}

/**
 * viva_report_signature_page_files:
 * @page: an exam server's reports page (`reports`, `public_key`)
 *
 * The files a teacher keeps of the page (Class Results and `viva-cli
 * class collect --server` alike): the server's key as
 * `viva-server-signing-key.pem`, then each report byte for byte as signed
 * and its signature beside it, named `STUDENT-PROBLEM-DEFENSE.json` and
 * `.json.sig`, each part made safe for a file name. An entry without a
 * report or a signature is passed over.
 *
 * Returns: (transfer full) (nullable): names and texts, alternately, the
 *   key's first; %NULL when @page is not the server's API
 */
char **
viva_report_signature_page_files (JsonObject *page)
{
  g_autoptr(GStrvBuilder) files = NULL;
  JsonArray *reports;
  const char *key;

  g_return_val_if_fail (page != NULL, NULL);

  if (!json_object_has_member (page, "reports") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (page, "reports")) ||
      !(key = json_object_get_string_member_with_default (page, "public_key", NULL)))
    return NULL;

  files = g_strv_builder_new ();
  g_strv_builder_add (files, "viva-server-signing-key.pem");
  g_strv_builder_add (files, key);

  reports = json_object_get_array_member (page, "reports");
  for (guint i = 0; i < json_array_get_length (reports); i++)
    {
      JsonNode *element = json_array_get_element (reports, i);
      JsonObject *entry;
      const char *text, *signature;
      g_autoptr(GString) name = g_string_new (NULL);
      g_autofree char *sig_name = NULL;
      g_autofree char *sig = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element) ||
          !(text = json_object_get_string_member_with_default ((entry = json_node_get_object (element)), "report", NULL)) ||
          !(signature = json_object_get_string_member_with_default (entry, "signature", NULL)))
        continue;

      append_safe (name, json_object_get_string_member_with_default (entry, "student_id", ""));
      g_string_append_c (name, '-');
      append_safe (name, json_object_get_string_member_with_default (entry, "problem", ""));
      g_string_append_c (name, '-');
      append_safe (name, json_object_get_string_member_with_default (entry, "defense", ""));
      g_string_append (name, ".json");
      sig_name = g_strconcat (name->str, ".sig", NULL);
      sig = viva_report_signature_file (name->str, signature, key);

      g_strv_builder_add (files, name->str);
      g_strv_builder_add (files, text);
      g_strv_builder_add (files, sig_name);
      g_strv_builder_add (files, sig);
    }
  return g_strv_builder_end (files);
}
