/* viva-code-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define VIVA_TYPE_CODE_STORE (viva_code_store_get_type())

G_DECLARE_FINAL_TYPE (VivaCodeStore, viva_code_store, VIVA, CODE_STORE, GObject)

VivaCodeStore *viva_code_store_new            (const char           *directory);
const char    *viva_code_store_get_directory  (VivaCodeStore        *self);
const char    *viva_code_store_get_error_message (VivaCodeStore     *self);
void           viva_code_store_set_delay      (VivaCodeStore        *self,
                                               guint                 delay_ms);
void           viva_code_store_load_async     (VivaCodeStore        *self,
                                               const char           *pack_id,
                                               const char           *problem_id,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
char          *viva_code_store_load_finish    (VivaCodeStore        *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void           viva_code_store_queue_save     (VivaCodeStore        *self,
                                               const char           *pack_id,
                                               const char           *problem_id,
                                               const char           *text);
gboolean       viva_code_store_has_pending    (VivaCodeStore        *self);
void           viva_code_store_flush_async    (VivaCodeStore        *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
gboolean       viva_code_store_flush_finish   (VivaCodeStore        *self,
                                               GAsyncResult         *result,
                                               GError              **error);

G_END_DECLS
