/* test-exam-link.c: exam links, good and hostile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-remote.h"

#define FP "3f0a9c1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8"

static void
test_good (void)
{
  g_autoptr(VivaExamLink) link = NULL;
  g_autoptr(VivaExamLink) several = NULL;
  g_autoptr(VivaExamLink) v6 = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *uri = NULL;

  link = viva_exam_link_parse ("  viva://lab-server.school.example:8443/midterm-2026#sha256=" FP "\n", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_link_get_exam_id (link), ==, "midterm-2026");
  g_assert_cmpstr (viva_exam_link_get_fingerprint (link), ==, FP);
  g_assert_cmpuint (viva_exam_link_get_n_addresses (link), ==, 1);
  g_assert_cmpstr (viva_exam_link_get_host (link, 0), ==, "lab-server.school.example");
  g_assert_cmpuint (viva_exam_link_get_port (link, 0), ==, 8443);
  uri = viva_exam_link_dup_base_uri (link, 0);
  g_assert_cmpstr (uri, ==, "https://lab-server.school.example:8443");
  text = viva_exam_link_to_string (link);
  g_assert_cmpstr (text, ==, "viva://lab-server.school.example:8443/midterm-2026#sha256=" FP);

  /* Several nodes, tried in turn; an upper-case fingerprint is the same. */
  several = viva_exam_link_parse ("VIVA://10.0.0.5:8443,10.0.0.6:9443/q1#SHA256=3F0A9C1B2D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8",
                                  &error);
  g_assert_no_error (error);
  g_assert_cmpuint (viva_exam_link_get_n_addresses (several), ==, 2);
  g_assert_cmpstr (viva_exam_link_get_host (several, 1), ==, "10.0.0.6");
  g_assert_cmpuint (viva_exam_link_get_port (several, 1), ==, 9443);
  g_assert_cmpstr (viva_exam_link_get_fingerprint (several), ==, FP);

  v6 = viva_exam_link_parse ("viva://[fd00::5]:8443/q1#sha256=" FP, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_link_get_host (v6, 0), ==, "[fd00::5]");
  g_assert_cmpuint (viva_exam_link_get_port (v6, 0), ==, 8443);
}

static void
test_hostile (void)
{
  g_autofree char *long_id = g_strnfill (129, 'a');
  g_autofree char *too_long = g_strnfill (VIVA_EXAM_LINK_MAX_LENGTH + 10, 'a');
  g_autofree char *long_link = g_strdup_printf ("viva://h:1/%s#sha256=" FP, long_id);
  g_autofree char *nine = g_strdup ("viva://a:1,a:2,a:3,a:4,a:5,a:6,a:7,a:8,a:9/q#sha256=" FP);
  const char *bad[] = {
    "",
    "https://127.0.0.1:8443/q1#sha256=" FP,
    "viva://127.0.0.1:8443/q1",
    "viva://127.0.0.1:8443/q1#sha256=abc",
    "viva://127.0.0.1:8443/q1#sha256=" FP "00",
    "viva://127.0.0.1:8443/q1#sha256=zz0a9c1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8",
    "viva://127.0.0.1:8443/q1#md5=" FP,
    "viva://127.0.0.1/q1#sha256=" FP,
    "viva://127.0.0.1:0/q1#sha256=" FP,
    "viva://127.0.0.1:70000/q1#sha256=" FP,
    "viva://127.0.0.1:84x3/q1#sha256=" FP,
    "viva://127.0.0.1:+443/q1#sha256=" FP,
    "viva://:8443/q1#sha256=" FP,
    "viva://127.0.0.1:8443,/q1#sha256=" FP,
    "viva://,127.0.0.1:8443/q1#sha256=" FP,
    "viva://student@127.0.0.1:8443/q1#sha256=" FP,
    "viva://evil_host!:8443/q1#sha256=" FP,
    "viva://[not-v6]:8443/q1#sha256=" FP,
    "viva://127.0.0.1:8443/#sha256=" FP,
    "viva://127.0.0.1:8443/../etc#sha256=" FP,
    "viva://127.0.0.1:8443/q1/x#sha256=" FP,
    "viva://127.0.0.1:8443/q%2F1#sha256=" FP,
    "viva://127.0.0.1:8443/q 1#sha256=" FP,
    "viva://127.0.0.1:8443/q1\t#sha256=" FP,
    "viva://127.0.0.1:8443/q1#sha256=" FP "\x01",
    "viva://127.0.0.1:8443/q\xc3\xa9#sha256=" FP,
    "viva://127.0.0.1:8443/q1#sha256=" FP "\xff",
    long_link,
    too_long,
    nine,
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(VivaExamLink) link = viva_exam_link_parse (bad[i], &error);

      if (link != NULL)
        g_error ("link %u was taken: %s", i, bad[i]);
      g_assert_error (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_INVALID_LINK);
      /* A sentence, never a code. */
      g_assert_cmpuint (strlen (error->message), >, 20);
      g_assert_true (g_str_has_suffix (error->message, ".") || g_str_has_suffix (error->message, "…"));
      g_assert_cmpstr (viva_remote_error_kind (error), ==, "invalid_link");
    }
}

static void
test_fuzz (void)
{
  const char *seed = "viva://127.0.0.1:8443,[::1]:9/q1#sha256=" FP;
  gsize length = strlen (seed);
  GRand *rand = g_rand_new_with_seed (26);

  /* Each cut and each byte flipped is either a link or a sentence. */
  for (guint i = 0; i < 5000; i++)
    {
      g_autofree char *text = g_strdup (seed);
      g_autoptr(GError) error = NULL;
      g_autoptr(VivaExamLink) link = NULL;
      guint at = g_rand_int_range (rand, 0, length);

      if (i % 2)
        text[at] = (char)g_rand_int_range (rand, 1, 256);
      else
        text[at] = '\0';
      link = viva_exam_link_parse (text, &error);
      g_assert_true ((link != NULL) != (error != NULL));
      if (link != NULL)
        {
          g_autofree char *again = viva_exam_link_to_string (link);
          g_autoptr(VivaExamLink) reparsed = viva_exam_link_parse (again, NULL);

          g_assert_nonnull (reparsed);
          g_assert_cmpuint (viva_exam_link_get_n_addresses (reparsed), ==, viva_exam_link_get_n_addresses (link));
        }
    }
  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote/link/good", test_good);
  g_test_add_func ("/viva/remote/link/hostile", test_hostile);
  g_test_add_func ("/viva/remote/link/fuzz", test_fuzz);

  return g_test_run ();
}
