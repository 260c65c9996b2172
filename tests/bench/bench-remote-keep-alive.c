/* bench-remote-keep-alive.c: a kept connection against one per POST
 *
 * A real viva-server with TLS on 127.0.0.1; two students' clients of the
 * core (core/remote), one keeping its connection for every call (as the
 * app does now), one with libsoup's own rule (as before: a connection,
 * and a TLS handshake, of its own for each POST; a PUT reuses one). Each
 * round, interleaved so the machine's load falls on both alike, each
 * client autosaves (PUT …/code) and sends a timeline event (POST
 * …/timeline), the two calls a typing student makes most. Prints the
 * medians side by side, their ratio and the handshakes each client made.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "server-fixture.h"
#include "viva-remote.h"

#define ROUNDS 60

static const char * const one_exam[] = { "exam.json", NULL };

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static VivaExamServerClient *
client_for (ServerFixture *fixture,
            const char    *student_id,
            gboolean       keep_alive)
{
  g_autofree char *text = g_strdup_printf ("viva://127.0.0.1:%u/server-quiz#sha256=%s", fixture->port,
                                           fixture->fingerprint);
  g_autoptr(VivaExamLink) link = viva_exam_link_parse (text, NULL);
  VivaExamServerClient *client = viva_exam_server_client_new (link);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *key = g_strconcat ("server-quiz/", student_id, NULL);

  viva_exam_server_client_set_keep_alive (client, keep_alive);
  viva_exam_server_client_sign_in_async (client, student_id, g_hash_table_lookup (fixture->codes, key), NULL,
                                         store_cb, &result);
  token = viva_exam_server_client_sign_in_finish (client, wait_for (&result), NULL, &error);
  g_assert_no_error (error);
  return client;
}

static double
autosave_ms (VivaExamServerClient *client,
             guint                 round)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *code = g_strdup_printf ("def double(x):\n    return x * 2  # %u\n", round);
  gint64 start = g_get_monotonic_time ();

  viva_exam_server_client_save_code_async (client, "double", code, VIVA_CODE_KIND_AUTOSAVE, NULL, store_cb, &result);
  saved = viva_exam_server_client_save_code_finish (client, wait_for (&result), &error);
  g_assert_no_error (error);
  return (g_get_monotonic_time () - start) / 1000.0;
}

static double
timeline_ms (VivaExamServerClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonArray) events = json_array_new ();
  g_autoptr(JsonObject) event = json_object_new ();
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  json_object_set_string_member (event, "kind", "focus");
  json_array_add_object_element (events, g_steal_pointer (&event));
  viva_exam_server_client_add_timeline_async (client, NULL, 0, events, NULL, store_cb, &result);
  g_assert_true (viva_exam_server_client_add_timeline_finish (client, wait_for (&result), &error));
  return (g_get_monotonic_time () - start) / 1000.0;
}

static int
compare (gconstpointer a,
         gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *times)
{
  g_array_sort (times, compare);
  return g_array_index (times, double, times->len / 2);
}

int
main (int   argc,
      char *argv[])
{
  ServerFixture fixture;
  g_autoptr(VivaExamServerClient) kept = NULL;
  g_autoptr(VivaExamServerClient) before = NULL;
  g_autoptr(GArray) kept_save = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) before_save = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kept_post = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) before_post = g_array_new (FALSE, FALSE, sizeof (double));
  guint kept_start, before_start;
  double ks, bs, kp, bp;

  g_test_init (&argc, &argv, NULL);
  server_fixture_setup (&fixture, one_exam);
  kept = client_for (&fixture, "s1", TRUE);
  before = client_for (&fixture, "s2", FALSE);
  kept_start = viva_exam_server_client_get_handshakes (kept);
  before_start = viva_exam_server_client_get_handshakes (before);

  for (guint i = 0; i < ROUNDS; i++)
    {
      double t;

      /* Who goes first alternates, so neither always meets a warm server. */
      if (i % 2 == 0)
        {
          t = autosave_ms (kept, i), g_array_append_val (kept_save, t);
          t = autosave_ms (before, i), g_array_append_val (before_save, t);
          t = timeline_ms (kept), g_array_append_val (kept_post, t);
          t = timeline_ms (before), g_array_append_val (before_post, t);
        }
      else
        {
          t = autosave_ms (before, i), g_array_append_val (before_save, t);
          t = autosave_ms (kept, i), g_array_append_val (kept_save, t);
          t = timeline_ms (before), g_array_append_val (before_post, t);
          t = timeline_ms (kept), g_array_append_val (kept_post, t);
        }
    }

  ks = median (kept_save);
  bs = median (before_save);
  kp = median (kept_post);
  bp = median (before_post);
  printf ("rounds: %u, each: one autosave (PUT) and one timeline event (POST) per client\n", ROUNDS);
  printf ("autosave PUT, median: kept %.2f ms, before %.2f ms, before/kept %.2f\n", ks, bs, bs / ks);
  printf ("timeline POST, median: kept %.2f ms, before %.2f ms, before/kept %.2f\n", kp, bp, bp / kp);
  printf ("TLS handshakes after the sign-in: kept %u, before %u\n",
          viva_exam_server_client_get_handshakes (kept) - kept_start,
          viva_exam_server_client_get_handshakes (before) - before_start);

  server_fixture_teardown (&fixture);
  return 0;
}
