/* test-exam-settings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What an exam fixes: the setting takes the exam's value for the run, a
 * change to it is ignored, and the student's own stored setting is left
 * as it was. The lab's exam-file key is read like any other.
 */

#include "config.h"

#include "viva-settings.h"

static void
test_fix (void)
{
  g_autoptr(VivaSettings) settings = viva_settings_new ();
  g_autoptr(GSettings) stored = g_settings_new ("io.github.vivaexam.Viva");
  g_autofree char *kept = NULL;
  g_auto(GValue) value = G_VALUE_INIT;

  g_assert_true (viva_settings_has_schema (settings));
  viva_settings_set_base_url (settings, "http://students-own:11434/v1");
  g_assert_false (viva_settings_is_fixed (settings, "base-url"));

  g_value_init (&value, G_TYPE_STRING);
  g_value_set_string (&value, "http://10.0.0.5:11434/v1");
  viva_settings_fix (settings, "base-url", &value);

  g_assert_true (viva_settings_is_fixed (settings, "base-url"));
  g_assert_false (viva_settings_is_fixed (settings, "model"));
  g_assert_cmpstr (viva_settings_get_base_url (settings), ==, "http://10.0.0.5:11434/v1");

  /* Preferences cannot change it, and the student's own is untouched. */
  viva_settings_set_base_url (settings, "http://elsewhere/v1");
  g_assert_cmpstr (viva_settings_get_base_url (settings), ==, "http://10.0.0.5:11434/v1");
  kept = g_settings_get_string (stored, "base-url");
  g_assert_cmpstr (kept, ==, "http://students-own:11434/v1");
}

static void
test_exam_file_key (void)
{
  g_autoptr(VivaSettings) settings = viva_settings_new ();
  g_autoptr(GSettings) stored = g_settings_new ("io.github.vivaexam.Viva");

  g_assert_cmpstr (viva_settings_get_exam_file (settings), ==, "");
  g_settings_set_string (stored, "exam-file", "/srv/exams/midterm.json");
  g_assert_cmpstr (viva_settings_get_exam_file (settings), ==, "/srv/exams/midterm.json");
  /* The memory backend locks nothing. */
  g_assert_false (viva_settings_is_exam_file_locked (settings));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/exam-settings/fix", test_fix);
  g_test_add_func ("/viva/exam-settings/exam-file-key", test_exam_file_key);

  return g_test_run ();
}
