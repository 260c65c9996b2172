/* viva-file-writer.h: the one way Viva writes a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void     viva_file_writer_write_async  (GFile                *file,
                                        GBytes               *contents,
                                        int                   mode,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
gboolean viva_file_writer_write_finish (GAsyncResult         *result,
                                        GError              **error);
gboolean viva_file_writer_write        (GFile                *file,
                                        GBytes               *contents,
                                        int                   mode,
                                        GError              **error);
void     viva_file_writer_flush        (void);

G_END_DECLS
