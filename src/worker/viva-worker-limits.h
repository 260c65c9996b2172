/* viva-worker-limits.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void     viva_worker_set_limits        (guint64  memory_limit);
void     viva_worker_set_cpu_budget    (guint    seconds);
gboolean viva_worker_forbid_processes  (GError **error);

G_END_DECLS
