/* viva-eval-card-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-eval-card.h"

G_BEGIN_DECLS

char         *viva_eval_card_store_default_path (void);
void          viva_eval_card_store_load_async   (const char           *path,
                                                 const char           *base_url,
                                                 const char           *model,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
VivaEvalCard *viva_eval_card_store_load_finish  (GAsyncResult         *result,
                                                 GError              **error);
void          viva_eval_card_store_save_async   (const char           *path,
                                                 VivaEvalCard         *card,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
gboolean      viva_eval_card_store_save_finish  (GAsyncResult         *result,
                                                 GError              **error);

G_END_DECLS
