/* viva-test-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void      viva_test_assert_notify        (gpointer       object,
                                          const char    *property,
                                          const GValue  *value);
void      viva_test_assert_finalize_soon (gpointer       object);
void      viva_test_run_until            (gboolean      *flag);
gpointer  viva_test_run_until_result     (GAsyncResult **result);
void      viva_test_remove_tree          (const char    *path);
void      viva_test_count_notify         (GObject       *object,
                                          GParamSpec    *pspec,
                                          guint         *count);
void      viva_test_store_result         (GObject       *object,
                                          GAsyncResult  *result,
                                          gpointer       user_data);

G_END_DECLS
