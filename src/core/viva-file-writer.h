/* viva-file-writer.h: the one way Viva writes a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  VIVA_FILE_WRITER_NONE         = 0,
  VIVA_FILE_WRITER_MAKE_FOLDERS = 1 << 0,
} VivaFileWriterFlags;

void     viva_file_writer_write_async  (GFile                *file,
                                        GBytes               *contents,
                                        int                   mode,
                                        VivaFileWriterFlags   flags,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
gboolean viva_file_writer_write_finish (GAsyncResult         *result,
                                        GError              **error);
gboolean viva_file_writer_write        (GFile                *file,
                                        GBytes               *contents,
                                        int                   mode,
                                        VivaFileWriterFlags   flags,
                                        GError              **error);
void     viva_file_writer_flush        (void);

G_END_DECLS
