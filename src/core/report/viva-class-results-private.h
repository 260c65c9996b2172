/* viva-class-results-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-class-results.h"

G_BEGIN_DECLS

/* viva-class-claims.c: flags `duplicate-claim` over the whole class
 * (main thread). */
void _viva_class_results_update_claims (GListModel *reports);

G_END_DECLS
