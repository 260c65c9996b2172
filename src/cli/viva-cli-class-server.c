/* viva-cli-class-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "viva-cli-class-server.h"
#include "viva-cli-remote.h"
#include "viva-cli-util.h"
#include "viva-file-writer.h"
#include "viva-report-signature.h"

/* class collect --server: the exam's signed reports fetched over the
 * pinned connection with the teacher token and written as a server's
 * `reports` command writes them (NAME.json byte for byte as signed,
 * NAME.json.sig, the key), so the usual collect reads them and checks
 * each signature. */

static gboolean
write_file (const char  *dir,
            const char  *name,
            const char  *text,
            GError     **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return viva_cli_write_text (path, text, error);
}

/**
 * viva_cli_class_fetch:
 * @dir: the folder the reports are written to (made if missing)
 * @key_pem: (out): the server's public key, as the pinned server gave it
 *
 * Returns: the number of reports written, or -1 with @error
 */
int
viva_cli_class_fetch (const char  *link,
                      const char  *teacher_token,
                      const char  *dir,
                      char       **key_pem,
                      GError     **error)
{
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_auto(GStrv) files = NULL;

  if (!(client = viva_cli_remote_client (link, teacher_token, error)))
    return -1;

  viva_exam_server_client_get_reports_async (client, NULL, viva_cli_remote_store, &result);
  if (!(answer = viva_exam_server_client_get_reports_finish (client, viva_cli_remote_wait (&result), error)))
    return -1;

  if (!(files = viva_report_signature_page_files (answer)))
    {
      g_set_error_literal (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL,
                           _("The exam server’s answer is not the exam server’s API: check the exam link."));
      return -1;
    }
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   _("Could not make the folder %s: %s"), dir, g_strerror (errno));
      return -1;
    }
  for (guint i = 0; files[i] != NULL; i += 2)
    if (!write_file (dir, files[i], files[i + 1], error))
      return -1;

  *key_pem = g_strdup (files[1]);
  return json_array_get_length (json_object_get_array_member (answer, "reports"));
}

/* How long class collect --regrade waits for the server's re-grade: a
 * class's gradings run on the server's pool, a few seconds each. */
#define REGRADE_WAIT_S (30 * 60)
#define REGRADE_POLL_US (250 * 1000)

/**
 * viva_cli_class_regrade_on_server:
 * @regrade: (out): the finished re-grade, as the server describes it
 *
 * Re-grades every report on the exam server (its grading pool, from the
 * code it holds) and waits until each is done or failed: the reports
 * fetched after it are their new signed revisions.
 *
 * Returns: %FALSE with @error when the server could not be asked or the
 *   re-grade did not finish
 */
gboolean
viva_cli_class_regrade_on_server (const char   *link,
                                  const char   *teacher_token,
                                  JsonObject  **regrade,
                                  GError      **error)
{
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autofree char *id = NULL;
  gint64 until = g_get_monotonic_time () + (gint64)REGRADE_WAIT_S * G_USEC_PER_SEC;

  if (!(client = viva_cli_remote_client (link, teacher_token, error)))
    return FALSE;

  viva_exam_server_client_regrade_async (client, NULL, viva_cli_remote_store, &result);
  if (!(answer = viva_exam_server_client_regrade_finish (client, viva_cli_remote_wait (&result), error)))
    return FALSE;
  if (!(id = g_strdup (json_object_get_string_member_with_default (answer, "id", NULL))))
    {
      g_set_error_literal (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL,
                           _("The exam server’s answer is not the exam server’s API: check the exam link."));
      return FALSE;
    }

  while (!json_object_get_boolean_member_with_default (answer, "finished", FALSE))
    {
      if (g_get_monotonic_time () > until)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       _("The exam server has not finished re-grading after %u minutes: see its status, then collect again."),
                       REGRADE_WAIT_S / 60);
          return FALSE;
        }
      g_usleep (REGRADE_POLL_US);
      g_clear_pointer (&answer, json_object_unref);
      g_clear_object (&result);
      viva_exam_server_client_get_regrade_async (client, id, NULL, viva_cli_remote_store, &result);
      if (!(answer = viva_exam_server_client_get_regrade_finish (client, viva_cli_remote_wait (&result), error)))
        return FALSE;
    }

  *regrade = g_steal_pointer (&answer);
  return TRUE;
}

/* The folder holds only what viva_cli_class_fetch() wrote: regular files. */
void
viva_cli_temp_folder_clear (VivaCliTempFolder *folder)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (folder->path == NULL)
    return;

  viva_file_writer_flush ();
  if ((dir = g_dir_open (folder->path, 0, NULL)))
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *child = g_build_filename (folder->path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_REGULAR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          g_unlink (child);
      }
  g_rmdir (folder->path);
  g_clear_pointer (&folder->path, g_free);
}
