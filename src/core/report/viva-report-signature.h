/* viva-report-signature.h: an exam server's signature on a report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * VivaReportSignature:
 * @VIVA_REPORT_SIGNATURE_VALID: the report's bytes are what the key signed
 * @VIVA_REPORT_SIGNATURE_MISSING: no signature file beside the report
 * @VIVA_REPORT_SIGNATURE_INVALID: a signature that does not match the
 *   report and the key (edited, or signed by another server), or that is
 *   not a signature file
 */
typedef enum
{
  VIVA_REPORT_SIGNATURE_VALID,
  VIVA_REPORT_SIGNATURE_MISSING,
  VIVA_REPORT_SIGNATURE_INVALID,
} VivaReportSignature;

const char          *viva_report_signature_to_string (VivaReportSignature  status);
/* The report at @json_path against `@json_path.sig` (viva-signature/1).
 * @key_pem: the server's public key as the teacher has it; %NULL checks
 * against the key the signature file carries, which proves the file was
 * not edited since some key signed it, not whose key that was. @message:
 * a sentence saying what was found. */
VivaReportSignature  viva_report_signature_check     (const char           *json_path,
                                                      const char           *key_pem,
                                                      char                **message);
gboolean             viva_report_signature_verify    (const char           *key_pem,
                                                      const char           *data,
                                                      gsize                 length,
                                                      const char           *signature,
                                                      GError              **error);
char                *viva_report_signature_read_key  (const char           *path,
                                                      GError              **error);
char                *viva_report_signature_file      (const char           *json_name,
                                                      const char           *signature,
                                                      const char           *key_pem);
char               **viva_report_signature_page_files (JsonObject          *page);

G_END_DECLS
