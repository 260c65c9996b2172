/* viva-draft-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-problem-draft.h"

G_BEGIN_DECLS

#define VIVA_TYPE_DRAFT_STORE (viva_draft_store_get_type())

G_DECLARE_FINAL_TYPE (VivaDraftStore, viva_draft_store, VIVA, DRAFT_STORE, GObject)

VivaDraftStore   *viva_draft_store_new            (const char           *directory);
const char       *viva_draft_store_get_directory  (VivaDraftStore       *self);
GListModel       *viva_draft_store_get_drafts     (VivaDraftStore       *self);
VivaProblemDraft *viva_draft_store_find           (VivaDraftStore       *self,
                                                   const char           *draft_id);
void              viva_draft_store_load_async     (VivaDraftStore       *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean          viva_draft_store_load_finish    (VivaDraftStore       *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
void              viva_draft_store_save_async     (VivaDraftStore       *self,
                                                   VivaProblemDraft     *draft,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean          viva_draft_store_save_finish    (VivaDraftStore       *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
void              viva_draft_store_remove_async   (VivaDraftStore       *self,
                                                   VivaProblemDraft     *draft,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean          viva_draft_store_remove_finish  (VivaDraftStore       *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
GBytes           *viva_problem_draft_to_bytes     (VivaProblemDraft     *draft);

G_END_DECLS
