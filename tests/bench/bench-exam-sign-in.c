/* bench-exam-sign-in.c: N students sign in at once through the core's
 * exam server client (pinned TLS, a client each, as N PCs would)
 *
 *   bench-exam-sign-in LINK CODES.jsonl N
 *
 * Prints one JSON line: n, ok, wall_ms (first request to last answer),
 * p50_ms, p95_ms, max_ms, and the errors by kind. Driven by
 * bench_exam_server.py.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "viva-remote.h"

typedef struct
{
  VivaExamServerClient *client;
  gint64                started;
  double                ms;
  gboolean              ok;
  char                 *kind;
  guint                *left;
} SignIn;

static void
signed_in_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  SignIn *one = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = viva_exam_server_client_sign_in_finish (one->client, result, NULL, &error);

  one->ms = (g_get_monotonic_time () - one->started) / 1000.0;
  one->ok = token != NULL;
  if (error != NULL)
    one->kind = g_strdup (viva_remote_error_kind (error));
  (*one->left)--;
}

static int
compare (gconstpointer a,
         gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaExamLink) link = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GHashTable) kinds = g_hash_table_new (g_str_hash, g_str_equal);
  SignIn *all;
  guint n, left, ok = 0;
  gint64 start;
  GString *out;

  if (argc != 4 || !(link = viva_exam_link_parse (argv[1], &error)) ||
      !g_file_get_contents (argv[2], &text, NULL, &error) || (n = atoi (argv[3])) == 0)
    {
      fprintf (stderr, "usage: bench-exam-sign-in LINK CODES.jsonl N (%s)\n", error ? error->message : "");
      return 2;
    }

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = lines[i][0] ? json_from_string (lines[i], NULL) : NULL;
      JsonObject *object;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
          g_strcmp0 (json_object_get_string_member_with_default ((object = json_node_get_object (node)), "event", ""), "code") != 0)
        continue;
      {
        char *pair[] = { (char *)json_object_get_string_member (object, "student_id"),
                         (char *)json_object_get_string_member (object, "code"), NULL };

        g_ptr_array_add (pairs, g_strdupv (pair));
      }
    }
  n = MIN (n, pairs->len);

  all = g_new0 (SignIn, n);
  left = n;
  for (guint i = 0; i < n; i++)
    {
      all[i].client = viva_exam_server_client_new (link);
      all[i].left = &left;
    }

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      char **pair = g_ptr_array_index (pairs, i);

      all[i].started = g_get_monotonic_time ();
      viva_exam_server_client_sign_in_async (all[i].client, pair[0], pair[1], NULL, signed_in_cb, &all[i]);
    }
  while (left > 0)
    g_main_context_iteration (NULL, TRUE);

  for (guint i = 0; i < n; i++)
    {
      g_array_append_val (times, all[i].ms);
      if (all[i].ok)
        ok++;
      else
        g_hash_table_insert (kinds, all[i].kind,
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (kinds, all[i].kind)) + 1));
    }
  g_array_sort (times, compare);

  out = g_string_new (NULL);
  g_string_append_printf (out, "{\"n\": %u, \"ok\": %u, \"wall_ms\": %.1f, \"p50_ms\": %.1f, \"p95_ms\": %.1f, \"max_ms\": %.1f, \"errors\": {",
                          n, ok, (g_get_monotonic_time () - start) / 1000.0,
                          g_array_index (times, double, (n - 1) / 2),
                          g_array_index (times, double, MIN (n - 1, (guint)(n * 0.95))),
                          g_array_index (times, double, n - 1));
  {
    GHashTableIter iter;
    gpointer key, value;
    gboolean first = TRUE;

    g_hash_table_iter_init (&iter, kinds);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        g_string_append_printf (out, "%s\"%s\": %u", first ? "" : ", ", (char *)key, GPOINTER_TO_UINT (value));
        first = FALSE;
      }
  }
  g_string_append (out, "}}");
  printf ("%s\n", out->str);
  g_string_free (out, TRUE);

  for (guint i = 0; i < n; i++)
    {
      g_clear_object (&all[i].client);
      g_free (all[i].kind);
    }
  g_free (all);
  return ok == n ? 0 : 1;
}
