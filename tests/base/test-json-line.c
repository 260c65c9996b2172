/* test-json-line.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-json-line.h"

/* One event of a front's --json output: one line, `event` first, the
 * members after it as given, the caller's object untouched. */

static void
test_line (void)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) back = NULL;
  g_autofree char *text = NULL;
  JsonObject *read;

  json_object_set_string_member (object, "text", "two\nlines");
  json_object_set_int_member (object, "seq", 7);
  json_object_set_string_member (object, "event", "not this one");

  text = viva_json_line ("content", object);
  g_assert_null (strchr (text, '\n'));
  g_assert_true (g_str_has_prefix (text, "{\"event\":\"content\","));

  back = json_from_string (text, NULL);
  read = json_node_get_object (back);
  g_assert_cmpstr (json_object_get_string_member (read, "event"), ==, "content");
  g_assert_cmpstr (json_object_get_string_member (read, "text"), ==, "two\nlines");
  g_assert_cmpint (json_object_get_int_member (read, "seq"), ==, 7);
  g_assert_cmpuint (json_object_get_size (read), ==, 3);

  /* The caller's object is as it was. */
  g_assert_cmpuint (json_object_get_size (object), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (object, "event"), ==, "not this one");
}

static void
test_bare (void)
{
  g_autofree char *text = viva_json_line ("done", NULL);

  g_assert_cmpstr (text, ==, "{\"event\":\"done\"}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/json-line/line", test_line);
  g_test_add_func ("/viva/json-line/bare", test_bare);

  return g_test_run ();
}
