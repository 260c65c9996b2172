/* viva-file-writer-private.h: what the writer's tests may reach
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-file-writer.h"

G_BEGIN_DECLS

/* Called on the writing thread before each write, with the file's key (its
 * path, or its URI when it has none). Lets a test hold one file's write
 * while it watches another's. %NULL removes the hook. */
typedef void (*VivaFileWriterHook) (const char *key,
                                    gpointer    user_data);

void _viva_file_writer_set_hook (VivaFileWriterHook hook,
                                 gpointer           user_data);

G_END_DECLS
