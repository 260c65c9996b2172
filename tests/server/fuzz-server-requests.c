/* fuzz-server-requests.c: random and broken requests against a real viva-server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "server-fixture.h"

/* A GTest-driven fuzzer (reproducible: `-p … --seed=R02S…`): requests
 * made from the API's own routes and bodies, then broken — methods, paths
 * (escapes, NULs, dot segments, huge segments), tokens, content types and
 * bodies (flipped bytes, cuts, deep nesting, wrong types) — each sent to
 * the real server over TLS. Every answer must be a JSON error with a
 * status below 500 or a success, never a crash or a hang, and after every
 * round the server still answers a signed-in student. */

#define ROUNDS 6
#define PER_ROUND 50

SoupMessage *server_fixture_message (ServerFixture *, const char *, const char *, const char *);

static const char * const paths[] = {
  "/api/v1/health",
  "/api/v1/exams/server-quiz/sign-in",
  "/api/v1/exams/server-quiz/sitting",
  "/api/v1/exams/server-quiz/sitting/problems/double/code",
  "/api/v1/exams/server-quiz/sitting/timeline",
  "/api/v1/exams/server-quiz/sitting/problems/double/submit",
  "/api/v1/exams/server-quiz/defenses/DEFENSE",
  "/api/v1/exams/server-quiz/defenses/DEFENSE/events?after=0",
  "/api/v1/exams/server-quiz/defenses/DEFENSE/answer",
  "/api/v1/exams/server-quiz/status",
  "/api/v1/exams/server-quiz/reports",
};

static const char * const bodies[] = {
  "{\"student_id\":\"s1\",\"code\":\"AAAA-BBBB\"}",
  "{\"kind\":\"autosave\",\"code\":\"def double(x):\\n    return x\\n\"}",
  "{\"events\":[{\"kind\":\"paste\",\"problem\":\"double\",\"chars\":41}]}",
  "{\"code\":\"def double(x):\\n    return 2 * x\\n\"}",
  "{\"text\":\"zero\",\"question_seq\":27}",
  "{}",
  "",
};

static const char * const methods[] = { "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD" };

static char *
mutate_path (const char *path,
             const char *defense)
{
  GString *out = g_string_new (path);
  guint what = g_test_rand_int_range (0, 8);

  g_string_replace (out, "DEFENSE", defense, 0);
  switch (what)
    {
    case 0: break;
    case 1: g_string_replace (out, "server-quiz", "other%2Fquiz", 1); break;
    case 2: g_string_replace (out, "double", "..%2F..%2Fetc", 1); break;
    case 3: g_string_append (out, "%00"); break;
    case 4:
      {
        g_autofree char *long_segment = g_strnfill (g_test_rand_int_range (100, 5000), 'x');

        g_string_replace (out, "server-quiz", long_segment, 1);
      }
      break;
    case 5: g_string_append (out, strchr (out->str, '?') ? "&after=-1" : "?after=99999999999999999999"); break;
    case 6: g_string_replace (out, "/api/v1", "/api/v1/", 1); break;
    default: g_string_replace (out, defense, "%E0%80%80", 1); break;
    }
  return g_string_free (out, FALSE);
}

static GBytes *
mutate_body (const char *body)
{
  GString *out = g_string_new (body);
  guint what = g_test_rand_int_range (0, 8);

  switch (what)
    {
    case 0: break;
    case 1:
      for (guint i = 0; i < 4 && out->len > 0; i++)
        out->str[g_test_rand_int_range (0, out->len)] ^= (char)g_test_rand_int_range (1, 256);
      break;
    case 2: if (out->len > 1) g_string_truncate (out, g_test_rand_int_range (0, out->len)); break;
    case 3:
      g_string_truncate (out, 0);
      for (guint i = 0; i < 5000; i++)
        g_string_append_c (out, '[');
      break;
    case 4: g_string_replace (out, "\"", "", 0); break;
    case 5: g_string_replace (out, ":\"", ":[1,{\"a\":null}],\"x\":\"", 1); break;
    case 6: g_string_replace (out, "zero", "\xff\xfe", 0); break;
    default:
      {
        g_autofree char *big = g_strnfill (g_test_rand_int_range (1000, 600000), 'a');

        g_string_printf (out, "{\"code\":\"%s\",\"kind\":\"autosave\",\"text\":\"%s\"}", big, big);
      }
      break;
    }
  return g_string_free_to_bytes (out);
}

static void
send_one (ServerFixture *fixture,
          const char    *token,
          const char    *defense)
{
  const char *method = methods[g_test_rand_int_range (0, G_N_ELEMENTS (methods))];
  g_autofree char *path = mutate_path (paths[g_test_rand_int_range (0, G_N_ELEMENTS (paths))], defense);
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint status;
  const char *tokens[] = { token, NULL, "garbage", "" };
  const char *types[] = { "application/json", "text/plain", "application/json; charset=utf-8", "multipart/form-data" };

  msg = server_fixture_message (fixture, method, path,
                                tokens[g_test_rand_int_range (0, G_N_ELEMENTS (tokens))]);
  if (msg == NULL)
    return;
  if (g_test_rand_bit () && !g_str_equal (method, "GET") && !g_str_equal (method, "HEAD"))
    {
      g_autoptr(GBytes) body = mutate_body (bodies[g_test_rand_int_range (0, G_N_ELEMENTS (bodies))]);

      soup_message_set_request_body_from_bytes (msg, types[g_test_rand_int_range (0, G_N_ELEMENTS (types))], body);
    }

  if (g_test_verbose ())
    g_printerr ("%s %.120s\n", method, path);
  reply = soup_session_send_and_read (fixture->session, msg, NULL, &error);
  status = soup_message_get_status (msg);
  if (error != NULL)
    {
      /* Refused before its body was read: the server closes the connection
       * after answering, which a client may see as a write error. */
      g_assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE) ||
                     g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
                     g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) ||
                     error->domain == G_TLS_ERROR);
      return;
    }

  if (status >= 500)
    g_error ("%s %.200s got %u: %.300s", method, path, status, (const char *)g_bytes_get_data (reply, NULL));
  if (status >= 400 && !g_str_equal (method, "HEAD"))
    {
      g_autofree char *text = g_strndup (g_bytes_get_size (reply) ? g_bytes_get_data (reply, NULL) : "",
                                         g_bytes_get_size (reply));
      g_autoptr(JsonNode) node = text[0] ? json_from_string (text, NULL) : NULL;

      /* A clear error: JSON with a code and a sentence; but for a request
       * libsoup cannot parse at all (a NUL in the path), which it refuses
       * with a bare 400 before any handler sees it. */
      if (node == NULL && status == SOUP_STATUS_BAD_REQUEST && text[0] == '\0')
        return;
      if (node == NULL)
        g_error ("%s %.200s got %u with no JSON: “%.200s”", method, path, status, text);
      g_assert_true (json_object_has_member (json_object_get_object_member (json_node_get_object (node), "error"),
                                             "message"));
    }
}

static void
test_requests (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *defense = NULL;

  server_fixture_setup (&fixture, exams);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s2");
  defense = server_fixture_submit (&fixture, token, "server-quiz", "square", "def square(x):\n    return x * x\n");

  for (guint round = 0; round < ROUNDS; round++)
    {
      g_autoptr(JsonNode) sitting = NULL;
      guint status = 0;

      for (guint i = 0; i < PER_ROUND; i++)
        send_one (&fixture, token, defense);

      /* Still serving; the rate limit may ask to wait, never fail. */
      for (guint tries = 0; tries < 50; tries++)
        {
          g_clear_pointer (&sitting, json_node_unref);
          g_clear_object (&fixture.session);
          fixture.session = soup_session_new_with_options ("timeout", 30, NULL);
          sitting = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", token, NULL,
                                            &status, NULL);
          if (status != 429)
            break;
          g_usleep (200 * 1000);
        }
      g_assert_cmpuint (status, ==, 200);
    }

  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/server/fuzz/requests", test_requests);

  return g_test_run ();
}
