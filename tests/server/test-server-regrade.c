/* test-server-regrade.c: re-grading on the exam server
 *
 * A real viva-server with TLS on 127.0.0.1 and its grading pool's real
 * workers: the teacher's re-grade grades every reported defense again from
 * the code the server holds; each result is a new report revision, signed
 * by the server, saying it was re-graded, when, and what the revision
 * before it said — and the report before it is kept, byte for byte.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <string.h>

#include "server-fixture.h"

static const char * const two_exams[] = { "exam.json", "exam-other.json", NULL };

/* The report's bytes against the server's Ed25519 key, as `report
 * verify` checks them. */
static gboolean
signed_by (const char *pem,
           const char *text,
           const char *signature)
{
  gnutls_pubkey_t key;
  gnutls_datum_t key_data = { (unsigned char *)pem, strlen (pem) };
  gnutls_datum_t data = { (unsigned char *)text, strlen (text) };
  g_autofree guchar *raw = NULL;
  gnutls_datum_t sig;
  gsize length = 0;
  int ret;

  raw = g_base64_decode (signature, &length);
  sig.data = raw;
  sig.size = length;
  g_assert_cmpint (gnutls_pubkey_init (&key), ==, 0);
  g_assert_cmpint (gnutls_pubkey_import (key, &key_data, GNUTLS_X509_FMT_PEM), ==, 0);
  ret = gnutls_pubkey_verify_data2 (key, GNUTLS_SIGN_EDDSA_ED25519, 0, &data, &sig);
  gnutls_pubkey_deinit (key);
  return ret >= 0;
}

static JsonObject *
parse (const char *text)
{
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

static JsonNode *
reports (ServerFixture *fixture,
         const char    *teacher)
{
  guint status = 0;
  JsonNode *page = server_fixture_request (fixture, "GET", "/api/v1/exams/server-quiz/reports", teacher, NULL,
                                           &status, NULL);

  g_assert_cmpuint (status, ==, 200);
  return page;
}

/* Starts a re-grade and asks until every job is done or failed. */
static JsonObject *
regrade (ServerFixture *fixture,
         const char    *teacher)
{
  g_autoptr(JsonNode) started = NULL;
  g_autofree char *path = NULL;
  JsonObject *object;
  guint status = 0;

  started = server_fixture_request (fixture, "POST", "/api/v1/exams/server-quiz/regrades", teacher, NULL,
                                    &status, NULL);
  g_assert_cmpuint (status, ==, 202);
  object = json_node_get_object (started);
  path = g_strdup_printf ("/api/v1/exams/server-quiz/regrades/%s", json_object_get_string_member (object, "id"));

  for (;;)
    {
      g_autoptr(JsonNode) page = server_fixture_request (fixture, "GET", path, teacher, NULL, &status, NULL);

      g_assert_cmpuint (status, ==, 200);
      if (json_object_get_boolean_member (json_node_get_object (page), "finished"))
        return json_object_ref (json_node_get_object (page));
      g_usleep (100 * 1000);
    }
}

static void
test_regrade (void)
{
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *original = NULL;
  g_autofree char *original_signature = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) finished = NULL;
  g_autoptr(JsonObject) done = NULL;
  g_autoptr(JsonObject) again = NULL;
  g_autoptr(JsonNode) page = NULL;
  g_autoptr(JsonObject) revised = NULL;
  const char *teacher, *other_teacher, *key;
  JsonObject *entry, *re, *previous, *item;
  JsonArray *earlier;
  gint64 after = 0;
  guint status = 0;

  server_fixture_setup (&fixture, two_exams);
  teacher = g_hash_table_lookup (fixture.teacher_tokens, "server-quiz");
  other_teacher = g_hash_table_lookup (fixture.teacher_tokens, "other-quiz");

  /* A wrong answer, defended to its verdict: fail, 0 of 2 hidden tests. */
  token = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  defense = server_fixture_submit (&fixture, token, "server-quiz", "double", "def double(x):\n    return x + 1\n");
  question = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "question", &after, NULL);
  {
    g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);
    g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                             json_object_get_int_member (question, "seq"));
    g_autoptr(JsonNode) answer = server_fixture_request (&fixture, "POST", path, token, body, &status, NULL);

    g_assert_cmpuint (status, ==, 200);
  }
  finished = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "finished", &after, NULL);

  page = reports (&fixture, teacher);
  entry = json_array_get_object_element (json_object_get_array_member (json_node_get_object (page), "reports"), 0);
  g_assert_cmpint (json_object_get_int_member (entry, "revision"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (page), "earlier")), ==, 0);
  original = g_strdup (json_object_get_string_member (entry, "report"));
  original_signature = g_strdup (json_object_get_string_member (entry, "signature"));
  g_clear_pointer (&page, json_node_unref);

  /* The student's token and another exam's teacher may not re-grade. */
  {
    g_autoptr(JsonNode) a = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/regrades", token,
                                                    NULL, &status, NULL);
    g_assert_cmpuint (status, ==, 403);
  }
  {
    g_autoptr(JsonNode) b = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/regrades",
                                                    other_teacher, NULL, &status, NULL);
    g_assert_cmpuint (status, ==, 403);
  }

  /* The re-grade, run by the server's pool. */
  done = regrade (&fixture, teacher);
  g_assert_cmpint (json_object_get_int_member (done, "total"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (done, "done"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (done, "failed"), ==, 0);
  item = json_array_get_object_element (json_object_get_array_member (done, "items"), 0);
  g_assert_cmpstr (json_object_get_string_member (item, "defense"), ==, defense);
  g_assert_cmpstr (json_object_get_string_member (item, "student_id"), ==, "s1");
  g_assert_cmpint (json_object_get_int_member (item, "revision"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (item, "passed"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (item, "total"), ==, 2);
  {
    /* Another exam's teacher cannot read it either. */
    g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/regrades/%s",
                                             json_object_get_string_member (done, "id"));
    g_autoptr(JsonNode) c = server_fixture_request (&fixture, "GET", path, other_teacher, NULL, &status, NULL);

    g_assert_cmpuint (status, ==, 403);
  }

  /* The report is now its revision 2, signed; revision 1 is kept as it was. */
  page = reports (&fixture, teacher);
  key = json_object_get_string_member (json_node_get_object (page), "public_key");
  entry = json_array_get_object_element (json_object_get_array_member (json_node_get_object (page), "reports"), 0);
  g_assert_cmpint (json_object_get_int_member (entry, "revision"), ==, 2);
  g_assert_true (signed_by (key, json_object_get_string_member (entry, "report"),
                            json_object_get_string_member (entry, "signature")));
  g_assert_false (signed_by (key, original, json_object_get_string_member (entry, "signature")));
  earlier = json_object_get_array_member (json_node_get_object (page), "earlier");
  g_assert_cmpuint (json_array_get_length (earlier), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (earlier, 0), "report"), ==, original);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (earlier, 0), "signature"), ==,
                   original_signature);
  g_assert_true (signed_by (key, original, original_signature));

  revised = parse (json_object_get_string_member (entry, "report"));
  g_assert_cmpint (json_object_get_int_member (revised, "revision"), ==, 2);
  /* The defense's verdict stands; the re-grade is beside it. */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (revised, "verdict"), "verdict"), ==,
                   "fail");
  re = json_object_get_object_member (revised, "regrade");
  g_assert_nonnull (re);
  g_assert_cmpint (json_object_get_int_member (re, "revision"), ==, 2);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (re, "regraded_at"), "20"));
  g_assert_false (json_object_get_boolean_member (re, "engine_pass"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (re, "hidden_tests"), "total"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (re, "grade"), "total"), ==, 2);
  previous = json_object_get_object_member (re, "previous");
  g_assert_cmpint (json_object_get_int_member (previous, "revision"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (previous, "verdict"), ==, "fail");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (previous, "hidden_tests"), "passed"), ==, 0);
  g_clear_pointer (&page, json_node_unref);
  g_clear_pointer (&revised, json_object_unref);

  /* Again: revision 3, whose previous is revision 2; both earlier kept. */
  again = regrade (&fixture, teacher);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (again, "items"), 0),
                                               "revision"), ==, 3);
  page = reports (&fixture, teacher);
  entry = json_array_get_object_element (json_object_get_array_member (json_node_get_object (page), "reports"), 0);
  g_assert_cmpint (json_object_get_int_member (entry, "revision"), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (page), "earlier")), ==, 2);
  revised = parse (json_object_get_string_member (entry, "report"));
  previous = json_object_get_object_member (json_object_get_object_member (revised, "regrade"), "previous");
  g_assert_cmpint (json_object_get_int_member (previous, "revision"), ==, 2);

  /* `viva-server reports` writes the newest revision, as signed. */
  {
    g_autofree char *output = g_build_filename (fixture.state_dir, "out", NULL);
    const char *args[] = { "reports", "server-quiz", "--output", output, "--json", NULL };
    g_autofree char *out = NULL;
    g_autoptr(GDir) dir = NULL;
    const char *name;
    guint written = 0;

    g_assert_cmpint (server_fixture_run (&fixture, args, &out), ==, 0);
    dir = g_dir_open (output, 0, NULL);
    g_assert_nonnull (dir);
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *path = g_build_filename (output, name, NULL);
        g_autofree char *text = NULL;

        if (!g_str_has_suffix (name, ".json") || g_str_has_prefix (name, "viva-server"))
          continue;
        g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
        g_assert_cmpstr (text, ==, json_object_get_string_member (entry, "report"));
        written++;
      }
    g_assert_cmpuint (written, ==, 1);
  }

  /* A re-grade the exam does not have. */
  {
    g_autoptr(JsonNode) d = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/regrades/nothing",
                                                    teacher, NULL, &status, NULL);
    g_assert_cmpuint (status, ==, 404);
  }

  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (server_fixture_engine_skip () != 0)
    return 77;

  g_test_add_func ("/viva/server/regrade/revisions", test_regrade);

  return g_test_run ();
}
