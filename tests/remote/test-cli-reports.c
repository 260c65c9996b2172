/* test-cli-reports.c: signed reports checked outside the server —
 * report verify good, tampered, missing, another server's key; class
 * collect flags them; class collect --server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "remote-util.h"
#include "viva-test-cli.h"
#include "viva-test-util.h"

static const char * const one_exam[] = { "exam.json", NULL };

static JsonObject *
last_event (VivaTestCliRun *run)
{
  g_assert_cmpuint (run->events->len, >, 0);
  return g_ptr_array_index (run->events, run->events->len - 1);
}

static char *
write_temp (const char *dir,
            const char *name,
            const char *text)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* s1 defends "double" through viva-cli, to a verdict the server signs. */
static void
defend (ServerFixture *fixture,
        const char    *home,
        const char    *student_id)
{
  g_autoptr(VivaExamServerClient) client = remote_client (fixture, "server-quiz", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *token = remote_sign_in (client, fixture, student_id, &error);
  g_autofree char *link = remote_link_text (fixture, "server-quiz");
  g_autofree char *code = write_temp (home, "double.py", "def double(x):\n    return 2 * x\n");
  g_autofree char *answers = write_temp (home, "answers.json", "[\"It doubles x.\", \"Zero.\", \"Two.\", \"Four.\"]");
  const char *args[] = { "defend", "--server", link, "--token", token, "--problem", "double", "--code", code,
                         "--answers", answers, "--json", NULL };
  g_auto(VivaTestCliRun) run = { 0 };

  g_assert_no_error (error);
  viva_test_cli_run (&run, home, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (last_event (&run), "event"), ==, "verdict");
}

static char *
copy_file (const char *from,
           const char *to)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (from, &text, &length, NULL));
  g_assert_true (g_file_set_contents (to, text, length, NULL));
  return g_strdup (to);
}

static JsonObject *
row_of (VivaTestCliRun *run,
        const char     *suffix)
{
  for (guint i = 0; i < run->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (run->events, i);

      if (g_str_equal (json_object_get_string_member (event, "event"), "row") &&
          g_str_has_suffix (json_object_get_string_member (event, "file"), suffix))
        return event;
    }
  g_assert_not_reached ();
  return NULL;
}

static gboolean
has_flag (JsonObject *row,
          const char *flag)
{
  JsonArray *flags = json_object_get_array_member (row, "flags");

  for (guint i = 0; i < json_array_get_length (flags); i++)
    if (g_str_equal (json_array_get_string_element (flags, i), flag))
      return TRUE;
  return FALSE;
}

static void
test_verify_and_collect (void)
{
  ServerFixture fixture;
  g_autofree char *home = g_dir_make_tmp ("viva-cli-reports-XXXXXX", NULL);
  g_autofree char *out_dir = g_build_filename (home, "reports", NULL);
  g_autofree char *other_dir = g_build_filename (home, "other-server", NULL);
  g_autofree char *key = g_build_filename (out_dir, "viva-server-signing-key.pem", NULL);
  g_autofree char *other_key = g_build_filename (other_dir, "signing-key.pub.pem", NULL);
  g_autofree char *out = NULL;
  g_autofree char *good = NULL;
  g_autofree char *tampered = NULL;
  g_autofree char *unsigned_copy = NULL;
  g_autofree char *text = NULL;
  g_autofree char *sig = NULL;
  g_auto(GStrv) lines = NULL;

  server_fixture_setup (&fixture, one_exam);
  defend (&fixture, home, "s1");

  /* The teacher's export: NAME.json, NAME.json.sig, the key. */
  {
    const char *args[] = { "reports", "server-quiz", "--output", out_dir, "--json", NULL };

    g_assert_cmpint (server_fixture_run (&fixture, args, &out), ==, 0);
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && good == NULL; i++)
    {
      g_autoptr(JsonNode) node = lines[i][0] ? json_from_string (lines[i], NULL) : NULL;

      if (node != NULL && g_str_equal (json_object_get_string_member (json_node_get_object (node), "event"), "report"))
        good = g_strdup (json_object_get_string_member (json_node_get_object (node), "json"));
    }
  g_assert_nonnull (good);

  /* A copy with its verdict edited, its signature beside it as it was;
   * a copy with no signature at all. */
  g_assert_true (g_file_get_contents (good, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"pass\""));
  {
    GString *edited = g_string_new (text);

    g_string_replace (edited, "\"pass\"", "\"fail\"", 1);
    tampered = write_temp (out_dir, "tampered.json", edited->str);
    g_string_free (edited, TRUE);
  }
  sig = g_strconcat (good, ".sig", NULL);
  g_free (copy_file (sig, g_strconcat (tampered, ".sig", NULL)));
  unsigned_copy = copy_file (good, g_build_filename (out_dir, "unsigned.json", NULL));

  /* report verify: good, tampered, missing; another server's key. */
  {
    const char *args[] = { "report", "verify", good, "--key", key, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (run.events, 0), "signature"), ==, "valid");
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (run.events, 0), "key"), ==, "given");
  }
  {
    const char *args[] = { "report", "verify", tampered, "--key", key, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (run.events, 0), "signature"), ==, "invalid");
    g_assert_nonnull (strstr (json_object_get_string_member (g_ptr_array_index (run.events, 0), "message"),
                              "changed after the server signed it"));
  }
  {
    const char *args[] = { "report", "verify", unsigned_copy, "--key", key, NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.out, "no signature"));
  }
  {
    /* Another exam server's signing key. */
    g_autoptr(GSubprocess) process = NULL;
    const char *argv[] = { server_fixture_binary (), "init", "--state-dir", other_dir, NULL };

    process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, NULL);
    g_assert_true (g_subprocess_wait_check (process, NULL, NULL));
  }
  {
    const char *args[] = { "report", "verify", good, "--key", other_key, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (run.events, 0), "signature"), ==, "invalid");
  }

  /* class collect with the server's key flags both copies, not the report. */
  {
    const char *args[] = { "class", "collect", out_dir, "--server-key", key, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };
    JsonObject *row;

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 0);
    row = row_of (&run, strrchr (good, '/'));
    g_assert_false (has_flag (row, "unsigned"));
    g_assert_false (has_flag (row, "bad-signature"));
    row = row_of (&run, "/tampered.json");
    g_assert_true (has_flag (row, "bad-signature"));
    g_assert_nonnull (strstr (json_object_get_string_member (row, "note"), "changed after the server signed it"));
    row = row_of (&run, "/unsigned.json");
    g_assert_true (has_flag (row, "unsigned"));
  }

  /* Without the key, nothing is said about signatures. */
  {
    const char *args[] = { "class", "collect", out_dir, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_false (has_flag (row_of (&run, "/unsigned.json"), "unsigned"));
  }

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (home);
}

static void
test_collect_server (void)
{
  ServerFixture fixture;
  g_autofree char *home = g_dir_make_tmp ("viva-cli-reports-XXXXXX", NULL);
  g_autofree char *saved = g_build_filename (home, "fetched", NULL);
  g_autofree char *link = NULL;
  const char *teacher;
  guint rows = 0;

  server_fixture_setup (&fixture, one_exam);
  defend (&fixture, home, "s1");
  defend (&fixture, home, "s2");
  link = remote_link_text (&fixture, "server-quiz");
  teacher = g_hash_table_lookup (fixture.teacher_tokens, "server-quiz");

  {
    const char *args[] = { "class", "collect", "--server", link, "--teacher-token", teacher,
                           "--save-reports", saved, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };
    JsonObject *summary;

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 0);
    for (guint i = 0; i < run.events->len; i++)
      {
        JsonObject *event = g_ptr_array_index (run.events, i);

        if (!g_str_equal (json_object_get_string_member (event, "event"), "row"))
          continue;
        rows++;
        g_assert_false (has_flag (event, "unsigned"));
        g_assert_false (has_flag (event, "bad-signature"));
        g_assert_cmpstr (json_object_get_string_member (event, "verdict"), ==, "pass");
        g_assert_cmpstr (json_object_get_string_member (event, "problem"), ==, "double");
      }
    g_assert_cmpuint (rows, ==, 2);
    summary = last_event (&run);
    g_assert_cmpstr (json_object_get_string_member (summary, "event"), ==, "summary");
    g_assert_cmpint (json_object_get_int_member (summary, "students"), ==, 2);
  }

  /* --regrade with --server re-grades on the server: each report comes
   * back as its new signed revision, the re-grade's figures in the row,
   * the defense's verdict and the previous revision's kept. */
  {
    g_autofree char *again = g_build_filename (home, "regraded", NULL);
    const char *args[] = { "class", "collect", "--server", link, "--teacher-token", teacher, "--regrade",
                           "--save-reports", again, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };
    g_autoptr(GDir) dir = NULL;
    JsonObject *regrade = NULL;
    const char *name;
    guint revised = 0;

    rows = 0;
    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 0);
    for (guint i = 0; i < run.events->len; i++)
      {
        JsonObject *event = g_ptr_array_index (run.events, i);
        const char *kind = json_object_get_string_member (event, "event");

        if (g_str_equal (kind, "regrade"))
          regrade = event;
        if (!g_str_equal (kind, "row"))
          continue;
        rows++;
        g_assert_false (has_flag (event, "unsigned"));
        g_assert_false (has_flag (event, "bad-signature"));
        g_assert_false (has_flag (event, "regrade-mismatch"));
        g_assert_cmpstr (json_object_get_string_member (event, "verdict"), ==, "pass");
        g_assert_cmpint (json_object_get_int_member (event, "regraded_total"), ==, 2);
        g_assert_cmpint (json_object_get_int_member (event, "regraded_passed"), ==, 2);
      }
    g_assert_cmpuint (rows, ==, 2);
    g_assert_nonnull (regrade);
    g_assert_cmpint (json_object_get_int_member (regrade, "total"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (regrade, "done"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (regrade, "failed"), ==, 0);

    /* What was written is the server's revision 2, saying when and what
     * the report said before. */
    dir = g_dir_open (again, 0, NULL);
    g_assert_nonnull (dir);
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *path = g_build_filename (again, name, NULL);
        g_autoptr(JsonParser) parser = json_parser_new ();
        JsonObject *root, *re, *previous;

        if (!g_str_has_suffix (name, ".json") || g_str_has_prefix (name, "viva-server"))
          continue;
        g_assert_true (json_parser_load_from_file (parser, path, NULL));
        root = json_node_get_object (json_parser_get_root (parser));
        g_assert_cmpint (json_object_get_int_member (root, "revision"), ==, 2);
        re = json_object_get_object_member (root, "regrade");
        g_assert_nonnull (re);
        g_assert_true (strlen (json_object_get_string_member (re, "regraded_at")) > 0);
        g_assert_true (json_object_get_boolean_member (re, "engine_pass"));
        previous = json_object_get_object_member (re, "previous");
        g_assert_cmpint (json_object_get_int_member (previous, "revision"), ==, 1);
        g_assert_cmpstr (json_object_get_string_member (previous, "verdict"), ==, "pass");
        revised++;
      }
    g_assert_cmpuint (revised, ==, 2);

    /* A revision edited by hand — its re-grade made to say more — is
     * flagged, and its re-grade no longer counts. */
    {
      g_autoptr(GDir) again_dir = g_dir_open (again, 0, NULL);
      g_autofree char *key = g_build_filename (again, "viva-server-signing-key.pem", NULL);
      const char *edited = NULL;
      const char *collect[] = { "class", "collect", again, "--server-key", key, "--json", NULL };
      g_auto(VivaTestCliRun) check = { 0 };
      guint bad = 0, good = 0;

      while ((edited = g_dir_read_name (again_dir)))
        if (g_str_has_suffix (edited, ".json") && !g_str_has_prefix (edited, "viva-server"))
          break;
      g_assert_nonnull (edited);
      {
        g_autofree char *path = g_build_filename (again, edited, NULL);
        g_autofree char *text = NULL;
        g_autoptr(GString) forged = NULL;

        g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
        forged = g_string_new (text);
        g_assert_cmpuint (g_string_replace (forged, "\"regraded_at\"", "\"regraded_at \"", 1), ==, 1);
        g_assert_true (g_file_set_contents (path, forged->str, -1, NULL));
      }
      viva_test_cli_run (&check, home, collect);
      for (guint i = 0; i < check.events->len; i++)
        {
          JsonObject *event = g_ptr_array_index (check.events, i);

          if (!g_str_equal (json_object_get_string_member (event, "event"), "row"))
            continue;
          if (has_flag (event, "bad-signature"))
            {
              bad++;
              g_assert_true (json_object_get_null_member (event, "regraded_total"));
            }
          else
            {
              good++;
              g_assert_cmpint (json_object_get_int_member (event, "regraded_total"), ==, 2);
            }
        }
      g_assert_cmpuint (bad, ==, 1);
      g_assert_cmpuint (good, ==, 1);
    }
  }

  /* A student's token is not the teacher's: refused, exit 1. */
  {
    g_autoptr(VivaExamServerClient) client = remote_client (&fixture, "server-quiz", NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *token = remote_sign_in (client, &fixture, "s3", &error);
    const char *args[] = { "class", "collect", "--server", link, "--teacher-token", token, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_cmpstr (json_object_get_string_member (last_event (&run), "kind"), ==, "rejected");
  }

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (home);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote/reports/verify-and-collect", test_verify_and_collect);
  g_test_add_func ("/viva/remote/reports/collect-server", test_collect_server);

  return g_test_run ();
}
