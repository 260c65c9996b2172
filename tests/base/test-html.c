/* test-html.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-html.h"
#include "viva-json-bounded.h"

/* The one HTML escaper (report, class page, eval card) and the depth check
 * every reader of someone else's JSON goes through. */

static char *
escaped (const char *text,
         gssize      length)
{
  GString *html = g_string_new ("<p>");

  viva_html_append_escaped (html, text, length);
  return g_string_free (html, FALSE);
}

static void
test_escape (void)
{
  g_autofree char *all = escaped ("<script>alert(\"x\" & 'y')</script>", -1);
  g_autofree char *part = escaped ("a<b>c", 2);
  g_autofree char *none = escaped (NULL, -1);
  g_autofree char *plain = escaped ("Nguyễn Văn An — 75/100", -1);

  g_assert_cmpstr (all, ==, "<p>&lt;script&gt;alert(&quot;x&quot; &amp; &apos;y&apos;)&lt;/script&gt;");
  g_assert_cmpstr (part, ==, "<p>a&lt;");
  g_assert_cmpstr (none, ==, "<p>");
  g_assert_cmpstr (plain, ==, "<p>Nguyễn Văn An — 75/100");
}

static void
test_depth (void)
{
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 300000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 300000; i++)
    g_string_append_c (deep, ']');

  g_assert_false (viva_json_depth_ok (deep->str, deep->len, 256));
  node = viva_json_parse_bounded (deep->str, deep->len, 256, &error);
  g_assert_null (node);
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* Brackets in strings do not count; a length stops the scan. */
  g_assert_true (viva_json_depth_ok ("{\"a\": \"[[[[[[\\\"[[[[\"}", -1, 1));
  g_assert_true (viva_json_depth_ok ("[[[[", 2, 2));
  g_assert_false (viva_json_depth_ok ("[[[[", 3, 2));

  node = viva_json_parse_bounded ("{\"a\": [[1]]}", -1, 3, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/base/html/escape", test_escape);
  g_test_add_func ("/viva/base/json-bounded/depth", test_depth);

  return g_test_run ();
}
