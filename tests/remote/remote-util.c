/* remote-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "remote-util.h"

void
remote_store_result (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  g_assert_null (*slot);
  *slot = g_object_ref (result);
}

/* No timed assertion: a test that hangs is ended by meson's timeout. */
GAsyncResult *
remote_wait (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

void
remote_iterate_until (gboolean (*done) (gpointer data),
                      gpointer   data)
{
  while (!done (data))
    g_main_context_iteration (NULL, TRUE);
}

/* The link as the teacher hands it out, with the port serve took. */
char *
remote_link_text (ServerFixture *fixture,
                  const char    *exam_id)
{
  return g_strdup_printf ("viva://127.0.0.1:%u/%s#sha256=%s", fixture->port, exam_id, fixture->fingerprint);
}

VivaExamServerClient *
remote_client (ServerFixture *fixture,
               const char    *exam_id,
               const char    *token)
{
  g_autofree char *text = remote_link_text (fixture, exam_id);
  g_autoptr(VivaExamLink) link = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamServerClient *client;

  link = viva_exam_link_parse (text, &error);
  g_assert_no_error (error);
  client = viva_exam_server_client_new (link);
  viva_exam_server_client_set_token (client, token);
  return client;
}

char *
remote_sign_in (VivaExamServerClient  *client,
                ServerFixture         *fixture,
                const char            *student_id,
                GError               **error)
{
  g_autofree char *key = g_strconcat (viva_exam_server_client_get_exam_id (client), "/", student_id, NULL);
  const char *code = g_hash_table_lookup (fixture->codes, key);
  g_autoptr(GAsyncResult) result = NULL;

  g_assert_nonnull (code);
  viva_exam_server_client_sign_in_async (client, student_id, code, NULL, remote_store_result, &result);
  return viva_exam_server_client_sign_in_finish (client, remote_wait (&result), NULL, error);
}
