/* viva-model-address.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *viva_model_address_complete (const char  *typed,
                                   GError     **error);
GError *viva_model_address_error_new (const char *base_url);

G_END_DECLS
