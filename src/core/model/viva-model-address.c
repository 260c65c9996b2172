/* viva-model-address.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <string.h>

#include "viva-model-address.h"
#include "viva-model-error.h"

/* A server address as a person types it: "localhost:11434/v1" or
 * "192.168.1.20:8000/v1" without its scheme. A host that can only be on
 * this computer or the local network gets http://, as a local server
 * speaks it; any other is said to need its scheme, since guessing https
 * or http for a server elsewhere could send a key in clear. The words say
 * what is wrong and how a right address looks, never where to type it:
 * the app and the CLI each know that. */

static gboolean
looks_local (const char *host,
             gsize       length)
{
  g_autofree char *name = g_ascii_strdown (host, length);
  g_autoptr(GInetAddress) address = NULL;

  if (name[0] == '\0')
    return FALSE;

  if (name[0] == '[')
    {
      char *end = strchr (name, ']');

      if (end == NULL)
        return FALSE;
      *end = '\0';
      address = g_inet_address_new_from_string (name + 1);
      return address != NULL && (g_inet_address_get_is_loopback (address) ||
                                 g_inet_address_get_is_site_local (address) ||
                                 g_inet_address_get_is_link_local (address));
    }

  if ((address = g_inet_address_new_from_string (name)))
    return g_inet_address_get_is_loopback (address) || g_inet_address_get_is_site_local (address) ||
           g_inet_address_get_is_link_local (address);

  /* A name without a dot is one on the local network ("gpu-box"), as are
   * the suffixes home routers and mDNS give. */
  return strchr (name, '.') == NULL ||
         g_str_has_suffix (name, ".localhost") || g_str_has_suffix (name, ".local") ||
         g_str_has_suffix (name, ".lan") || g_str_has_suffix (name, ".home") ||
         g_str_has_suffix (name, ".internal") || g_str_has_suffix (name, ".home.arpa");
}

/* The host of an address without scheme: up to its port or path. */
static gsize
host_length (const char *typed)
{
  if (typed[0] == '[')
    {
      const char *end = strchr (typed, ']');

      return end != NULL ? (gsize)(end - typed + 1) : strlen (typed);
    }

  return strcspn (typed, ":/?#");
}

static gboolean
is_server_url (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  return uri != NULL && g_uri_get_host (uri) != NULL && g_uri_get_host (uri)[0] != '\0' &&
         (g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") == 0 ||
          g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0);
}

/**
 * viva_model_address_complete:
 * @typed: an address as typed, trimmed
 *
 * Returns: (transfer full) (nullable): the address to use: @typed, or
 *   @typed with http:// for a host on this computer or the local network;
 *   %NULL with %VIVA_MODEL_ERROR_ADDRESS saying what is wrong
 */
char *
viva_model_address_complete (const char  *typed,
                             GError     **error)
{
  g_autofree char *with_http = NULL;

  g_return_val_if_fail (typed != NULL, NULL);

  if (is_server_url (typed))
    return g_strdup (typed);

  if (strstr (typed, "://") == NULL && typed[0] != '\0' && strpbrk (typed, " \t\n") == NULL)
    {
      with_http = g_strconcat ("http://", typed, NULL);
      if (looks_local (typed, host_length (typed)) && is_server_url (with_http))
        return g_steal_pointer (&with_http);

      if (is_server_url (with_http))
        {
          g_set_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_ADDRESS,
                       _("“%s” needs https:// or http:// at its start — a server elsewhere usually takes https://, as in https://%s."),
                       typed, typed);
          return NULL;
        }
    }

  g_set_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_ADDRESS,
               _("“%s” is not a server address — a model server’s looks like http://localhost:11434/v1 or https://api.example.com/v1."),
               typed);
  return NULL;
}

/* Why @base_url (as configured, not a URL made from it) is no server
 * address, in words that do not say where to change it: the app's
 * Preferences and the CLI's --base-url each add that. */
GError *
viva_model_address_error_new (const char *base_url)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = viva_model_address_complete (base_url, &error);

  if (error != NULL)
    return g_steal_pointer (&error);

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_ADDRESS,
                      _("“%s” is not a server address — a model server’s looks like http://localhost:11434/v1 or https://api.example.com/v1."),
                      base_url);
}
