/* viva-exam-link.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-link.h"
#include "viva-remote-error.h"

/* An exam link, `viva://HOST:PORT[,HOST:PORT…]/EXAM-ID#sha256=FINGERPRINT`:
 * where the server is (several addresses are tried in turn, for a lab
 * with more than one node), which exam, and the SHA-256 of the server's
 * certificate, which the client pins. A link is typed, pasted or read
 * from a lab's settings, so it is hostile input: its length, the number
 * of addresses, each host, port and id are bounded, and what is wrong is
 * said in a sentence. Nothing is percent-decoded: no part may need it. */

#define MAX_HOST 253
#define MAX_EXAM_ID 128

typedef struct
{
  char  *host;
  guint  port;
} Address;

struct _VivaExamLink
{
  GObject  parent_instance;

  Address  addresses[VIVA_EXAM_LINK_MAX_ADDRESSES];
  guint    n_addresses;
  char    *exam_id;
  char    *fingerprint;
};

G_DEFINE_FINAL_TYPE (VivaExamLink, viva_exam_link, G_TYPE_OBJECT)

static void
viva_exam_link_finalize (GObject *object)
{
  VivaExamLink *self = (VivaExamLink *)object;

  for (guint i = 0; i < self->n_addresses; i++)
    g_free (self->addresses[i].host);
  g_free (self->exam_id);
  g_free (self->fingerprint);

  G_OBJECT_CLASS (viva_exam_link_parent_class)->finalize (object);
}

static void
viva_exam_link_class_init (VivaExamLinkClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_exam_link_finalize;
}

static void
viva_exam_link_init (VivaExamLink *self)
{
}

static gboolean
fail (GError     **error,
      const char  *message)
{
  g_set_error_literal (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_INVALID_LINK, message);
  return FALSE;
}

/* A host name or an IPv4 address (letters, digits, dots, dashes), or an
 * IPv6 address in brackets. */
static VivaExamLink *
invalid (GError     **error,
         const char  *message)
{
  fail (error, message);
  return NULL;
}

static gboolean
host_ok (const char *host,
         gsize       length)
{
  if (length == 0 || length > MAX_HOST)
    return FALSE;
  if (host[0] == '[')
    {
      g_autofree char *inner = NULL;

      if (length < 3 || host[length - 1] != ']')
        return FALSE;
      inner = g_strndup (host + 1, length - 2);
      return g_hostname_is_ip_address (inner) && strchr (inner, ':') != NULL;
    }
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (host[i]) && host[i] != '.' && host[i] != '-')
      return FALSE;
  return host[0] != '-' && host[0] != '.';
}

static gboolean
parse_address (VivaExamLink  *self,
               const char    *text,
               gsize          length,
               GError       **error)
{
  const char *colon = NULL;
  g_autofree char *port_text = NULL;
  guint64 port = 0;

  /* The port follows the last colon that is not inside an IPv6 address. */
  for (gsize i = length; i > 0; i--)
    {
      if (text[i - 1] == ']')
        break;
      if (text[i - 1] == ':')
        {
          colon = text + i - 1;
          break;
        }
    }
  if (colon == NULL)
    return fail (error, _("The exam link has an address without a port: it is written HOST:PORT, as the teacher’s server printed it."));
  if (!host_ok (text, colon - text))
    return fail (error, _("The exam link’s server address is not a host name or an IP address: copy the link again from the teacher."));

  port_text = g_strndup (colon + 1, length - (colon + 1 - text));
  if (port_text[0] == '\0' || strlen (port_text) > 5 ||
      !g_ascii_string_to_unsigned (port_text, 10, 1, 65535, &port, NULL))
    return fail (error, _("The exam link’s port is not a number from 1 to 65535: copy the link again from the teacher."));

  self->addresses[self->n_addresses].host = g_strndup (text, colon - text);
  self->addresses[self->n_addresses].port = port;
  self->n_addresses++;
  return TRUE;
}

static gboolean
parse_addresses (VivaExamLink  *self,
                 const char    *text,
                 gsize          length,
                 GError       **error)
{
  const char *start = text;
  const char *end = text + length;

  if (length == 0)
    return fail (error, _("The exam link names no server: it begins viva://HOST:PORT/."));

  while (start <= end)
    {
      const char *comma = memchr (start, ',', end - start);
      const char *stop = comma ? comma : end;

      if (self->n_addresses == VIVA_EXAM_LINK_MAX_ADDRESSES)
        return fail (error, _("The exam link lists too many servers (at most 8)."));
      if (stop == start)
        return fail (error, _("The exam link has an empty server address between commas."));
      if (!parse_address (self, start, stop - start, error))
        return FALSE;
      if (comma == NULL)
        break;
      start = comma + 1;
    }
  return TRUE;
}

static gboolean
exam_id_ok (const char *id,
            gsize       length)
{
  if (length == 0 || length > MAX_EXAM_ID)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (id[i]) && id[i] != '-' && id[i] != '_' && id[i] != '.')
      return FALSE;
  return id[0] != '.';
}

/**
 * viva_exam_link_parse:
 * @text: a link as typed or pasted (spaces around it are ignored)
 *
 * Returns: (transfer full): the link, or %NULL with
 *   %VIVA_REMOTE_ERROR_INVALID_LINK saying what is wrong
 */
VivaExamLink *
viva_exam_link_parse (const char  *text,
                      GError     **error)
{
  g_autoptr(VivaExamLink) self = NULL;
  g_autofree char *stripped = NULL;
  const char *rest, *slash, *hash, *fingerprint;
  gsize length;

  g_return_val_if_fail (text != NULL, NULL);

  length = strnlen (text, VIVA_EXAM_LINK_MAX_LENGTH + 1);
  if (length > VIVA_EXAM_LINK_MAX_LENGTH)
    return invalid (error, _("The exam link is too long to be one: copy it again from the teacher."));
  if (!g_utf8_validate (text, length, NULL))
    return invalid (error, _("The exam link is not text: copy it again from the teacher."));

  stripped = g_strstrip (g_strndup (text, length));
  for (const char *p = stripped; *p; p++)
    if ((guchar)*p <= ' ' || (guchar)*p >= 0x7f)
      return invalid (error, _("The exam link has a space or a character a link cannot have: copy it again from the teacher."));

  if (g_ascii_strncasecmp (stripped, "viva://", 7) != 0)
    return invalid (error, _("An exam link begins with viva:// — this looks like something else. Ask the teacher for the exam link."));

  self = g_object_new (VIVA_TYPE_EXAM_LINK, NULL);
  rest = stripped + 7;
  if (!(slash = strchr (rest, '/')))
    return invalid (error, _("The exam link names no exam: it is written viva://HOST:PORT/EXAM-ID#sha256=FINGERPRINT."));
  if (memchr (rest, '@', slash - rest) != NULL)
    return invalid (error, _("The exam link carries a user name, which an exam link never does: ask the teacher for the exam link."));
  if (!parse_addresses (self, rest, slash - rest, error))
    return NULL;

  if (!(hash = strchr (slash + 1, '#')))
    return invalid (error, _("The exam link has no certificate fingerprint (#sha256=…), so the server could not be checked: copy the whole link."));
  if (!exam_id_ok (slash + 1, hash - (slash + 1)))
    return invalid (error, _("The exam link’s exam id is empty, too long or has characters an id cannot have: copy the link again."));
  self->exam_id = g_strndup (slash + 1, hash - (slash + 1));

  if (g_ascii_strncasecmp (hash + 1, "sha256=", 7) != 0)
    return invalid (error, _("The exam link’s fingerprint is not written #sha256=…: copy the whole link again."));
  fingerprint = hash + 8;
  if (strlen (fingerprint) != 64)
    return invalid (error, _("The exam link’s fingerprint is not 64 hexadecimal digits: copy the whole link again."));
  for (guint i = 0; i < 64; i++)
    if (!g_ascii_isxdigit (fingerprint[i]))
      return invalid (error, _("The exam link’s fingerprint is not 64 hexadecimal digits: copy the whole link again."));
  self->fingerprint = g_ascii_strdown (fingerprint, -1);

  return g_steal_pointer (&self);
}

const char *
viva_exam_link_get_exam_id (VivaExamLink *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_LINK (self), NULL);

  return self->exam_id;
}

/**
 * viva_exam_link_get_fingerprint:
 *
 * Returns: the certificate's SHA-256, 64 lower-case hexadecimal digits
 */
const char *
viva_exam_link_get_fingerprint (VivaExamLink *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_LINK (self), NULL);

  return self->fingerprint;
}

guint
viva_exam_link_get_n_addresses (VivaExamLink *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_LINK (self), 0);

  return self->n_addresses;
}

const char *
viva_exam_link_get_host (VivaExamLink *self,
                         guint         index)
{
  g_return_val_if_fail (VIVA_IS_EXAM_LINK (self), NULL);
  g_return_val_if_fail (index < self->n_addresses, NULL);

  return self->addresses[index].host;
}

guint
viva_exam_link_get_port (VivaExamLink *self,
                         guint         index)
{
  g_return_val_if_fail (VIVA_IS_EXAM_LINK (self), 0);
  g_return_val_if_fail (index < self->n_addresses, 0);

  return self->addresses[index].port;
}

/**
 * viva_exam_link_dup_base_uri:
 *
 * Returns: (transfer full): `https://HOST:PORT` of the @index-th address
 */
char *
viva_exam_link_dup_base_uri (VivaExamLink *self,
                             guint         index)
{
  g_return_val_if_fail (VIVA_IS_EXAM_LINK (self), NULL);
  g_return_val_if_fail (index < self->n_addresses, NULL);

  return g_strdup_printf ("https://%s:%u", self->addresses[index].host, self->addresses[index].port);
}

/**
 * viva_exam_link_to_string:
 *
 * Returns: (transfer full): the link written back, in its one form
 */
char *
viva_exam_link_to_string (VivaExamLink *self)
{
  GString *out;

  g_return_val_if_fail (VIVA_IS_EXAM_LINK (self), NULL);

  out = g_string_new ("viva://");
  for (guint i = 0; i < self->n_addresses; i++)
    g_string_append_printf (out, "%s%s:%u", i ? "," : "", self->addresses[i].host, self->addresses[i].port);
  g_string_append_printf (out, "/%s#sha256=%s", self->exam_id, self->fingerprint);
  return g_string_free (out, FALSE);
}
