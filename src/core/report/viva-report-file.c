/* viva-report-file.c: reading a report file a student handed in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "viva-json-bounded.h"
#include "viva-report-file.h"

/* A report folder is written by students, so whatever is in it is hostile
 * until read: a name ending in `.json` may be a FIFO (opening it would
 * wait for a writer for ever), a link to /dev/zero (endless) or to a file
 * of someone else's, a file of gigabytes, or JSON nested deeper than
 * json-glib's recursion survives. Only a regular file is read, never
 * through a link, up to VIVA_REPORT_FILE_MAX_BYTES, and parsed only once
 * its nesting was measured. Blocking; call from a thread. */

static char *
read_open_file (int      fd,
                gsize   *length,
                GError **error)
{
  g_autoptr(GByteArray) bytes = NULL;
  struct stat st;

  if (fstat (fd, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("The file could not be read: %s."), g_strerror (saved));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                           _("The file is not a regular file (a pipe, a device or a socket); only report files are read."));
      return NULL;
    }
  if (st.st_size > VIVA_REPORT_FILE_MAX_BYTES)
    {
      g_autofree char *size = g_format_size_full (st.st_size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *cap = g_format_size_full (VIVA_REPORT_FILE_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("The file is %s, larger than any report (at most %s); it was not read."), size, cap);
      return NULL;
    }

  /* The size is read again as the bytes come: the file may grow. */
  bytes = g_byte_array_sized_new (st.st_size + 1);
  for (;;)
    {
      guint8 buffer[64 * 1024];
      gssize n = read (fd, buffer, sizeof buffer);

      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("The file could not be read: %s."), g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break;
      if (bytes->len + n > VIVA_REPORT_FILE_MAX_BYTES)
        {
          g_autofree char *cap = g_format_size_full (VIVA_REPORT_FILE_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);

          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       _("The file is larger than any report (at most %s); it was not read."), cap);
          return NULL;
        }
      g_byte_array_append (bytes, buffer, n);
    }

  *length = bytes->len;
  g_byte_array_append (bytes, (const guint8 *)"", 1);

  return (char *)g_byte_array_free (g_steal_pointer (&bytes), FALSE);
}

/**
 * viva_report_file_read:
 * @path: a file in a report folder
 * @length: (out): the bytes read
 * @error: a #GIOError whose message is a sentence for the teacher (it
 *   does not repeat the path)
 *
 * Returns: (transfer full) (nullable): the file's bytes, nul-terminated
 */
char *
viva_report_file_read (const char  *path,
                       gsize       *length,
                       GError     **error)
{
  char *data;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (length != NULL, NULL);

  /* O_NONBLOCK: a FIFO opens at once instead of waiting for a writer,
   * and is then refused as not a regular file. */
  fd = g_open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      int saved = errno;

      if (saved == ELOOP)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS,
                             _("The file is a link, and links in a report folder are not followed; copy the report itself into the folder."));
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                     _("The file could not be opened: %s."), g_strerror (saved));
      return NULL;
    }

  data = read_open_file (fd, length, error);
  close (fd);

  return data;
}

/**
 * viva_report_file_parse:
 * @data: a report file's bytes
 * @length: their length, or -1 when nul-terminated
 * @error: a #JsonParserError
 *
 * Returns: (transfer full) (nullable): the JSON, parsed only when it nests
 *   no deeper than %VIVA_REPORT_FILE_MAX_DEPTH
 */
JsonNode *
viva_report_file_parse (const char  *data,
                        gssize       length,
                        GError     **error)
{
  g_return_val_if_fail (data != NULL, NULL);

  return viva_json_parse_bounded (data, length, VIVA_REPORT_FILE_MAX_DEPTH, error);
}

/**
 * viva_report_file_load:
 * @path: a report's JSON file
 * @error: a #GIOError or a #JsonParserError
 *
 * Reads and parses a report file as viva_report_file_read() and
 * viva_report_file_parse() do. Blocking.
 *
 * Returns: (transfer full) (nullable): the report's JSON
 */
JsonNode *
viva_report_file_load (const char  *path,
                       GError     **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  if (!(data = viva_report_file_read (path, &length, error)))
    return NULL;

  return viva_report_file_parse (data, length, error);
}

/* A report folder is the students': it is walked without following a
 * link (a link to the folder itself would loop, one to /dev/zero named
 * z.json would never end), into folders at most MAX_WALK_DEPTH deep and up
 * to MAX_WALK_FILES report files. A link or anything that is not a
 * regular file with a report's name is still listed, so that its row
 * says why it was not read. */
#define MAX_WALK_DEPTH 8
#define MAX_WALK_FILES 100000

static void
walk_folder (int         dir_fd,
             const char *path,
             GPtrArray  *files,
             guint       depth)
{
  DIR *dir;
  struct dirent *entry;

  if (!(dir = fdopendir (dir_fd)))
    {
      close (dir_fd);
      return;
    }

  while ((entry = readdir (dir)) != NULL && files->len < MAX_WALK_FILES)
    {
      const char *name = entry->d_name;
      g_autofree char *child = NULL;
      struct stat st;
      int child_fd;

      /* Hidden entries, and . and .. */
      if (name[0] == '.')
        continue;
      if (fstatat (dirfd (dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        continue;

      child = g_build_filename (path, name, NULL);
      if (S_ISDIR (st.st_mode))
        {
          if (depth >= MAX_WALK_DEPTH)
            continue;
          child_fd = openat (dirfd (dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
          if (child_fd >= 0)
            walk_folder (child_fd, child, files, depth + 1);
        }
      else if (g_str_has_suffix (name, ".json"))
        g_ptr_array_add (files, g_steal_pointer (&child));
    }

  closedir (dir);
}

/**
 * viva_report_file_list:
 * @path: a path the teacher named
 * @files: (element-type filename): where the report files' paths go
 *
 * Lists the report files at @path: a folder is followed even through a
 * link (the teacher chose it) and walked as above; a file is listed
 * whatever its name, to be read by viva_report_file_read(), which reads
 * regular files only. Blocking.
 */
void
viva_report_file_list (const char *path,
                       GPtrArray  *files)
{
  struct stat st;
  int fd;

  if (g_stat (path, &st) == 0 && S_ISDIR (st.st_mode) &&
      (fd = g_open (path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC, 0)) >= 0)
    walk_folder (fd, path, files, 0);
  else
    g_ptr_array_add (files, g_strdup (path));
}
