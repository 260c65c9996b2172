/* viva-error-table.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "viva-run-stack.h"

G_BEGIN_DECLS

char *viva_error_table_explain      (const char         *error_type,
                                     const char         *message,
                                     int                 line,
                                     const VivaRunFrame *frame);
char *viva_error_table_did_you_mean (const char         *name,
                                     const VivaRunFrame *frame);

G_END_DECLS
