/* test-json-member.c: a report's or a checkpoint's members read leniently
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-json-member.h"

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
test_number (void)
{
  /* A score written as 85 or 85.5 is a number either way; a score edited
   * into a string, or a missing member, is none, and the reader says so
   * rather than answering 0 (a real score). */
  g_autoptr(JsonObject) object = parse_object ("{\"int\": 85, \"double\": 85.5, \"text\": \"85\","
                                               " \"null\": null, \"list\": [85]}");
  double value = -1;

  g_assert_true (viva_json_member_number (object, "int", &value));
  g_assert_cmpfloat (value, ==, 85);
  g_assert_true (viva_json_member_number (object, "double", &value));
  g_assert_cmpfloat (value, ==, 85.5);

  value = -1;
  g_assert_false (viva_json_member_number (object, "text", &value));
  g_assert_false (viva_json_member_number (object, "null", &value));
  g_assert_false (viva_json_member_number (object, "list", &value));
  g_assert_false (viva_json_member_number (object, "missing", &value));
  g_assert_false (viva_json_member_number (NULL, "int", &value));
  g_assert_cmpfloat (value, ==, -1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/json-member/number", test_number);

  return g_test_run ();
}
