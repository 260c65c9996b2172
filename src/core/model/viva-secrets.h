/* viva-secrets.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define VIVA_TYPE_SECRETS (viva_secrets_get_type())

G_DECLARE_FINAL_TYPE (VivaSecrets, viva_secrets, VIVA, SECRETS, GObject)

VivaSecrets *viva_secrets_new_in_memory (void);
VivaSecrets *viva_secrets_get_default   (void);
gboolean     viva_secrets_get_in_memory (VivaSecrets          *self);
void         viva_secrets_lookup_async  (VivaSecrets          *self,
                                         const char           *base_url,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
char        *viva_secrets_lookup_finish (VivaSecrets          *self,
                                         GAsyncResult         *result,
                                         GError              **error);
void         viva_secrets_store_async   (VivaSecrets          *self,
                                         const char           *base_url,
                                         const char           *api_key,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
gboolean     viva_secrets_store_finish  (VivaSecrets          *self,
                                         GAsyncResult         *result,
                                         GError              **error);

G_END_DECLS
