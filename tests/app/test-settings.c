/* test-settings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-settings.h"
#include "viva-test-util.h"

static void
test_create_destroy (void)
{
  VivaSettings *settings = viva_settings_new ();

  g_assert_true (viva_settings_has_schema (settings));
  g_assert_finalize_object (settings);
}

static void
test_defaults (void)
{
  g_autoptr(VivaSettings) settings = viva_settings_new ();

  g_assert_cmpstr (viva_settings_get_base_url (settings), ==, "http://localhost:11434/v1");
  g_assert_cmpstr (viva_settings_get_model (settings), ==, "");
  g_assert_cmpfloat_with_epsilon (viva_settings_get_temperature (settings), 0.2, 1e-9);
  g_assert_cmpuint (viva_settings_get_first_byte_timeout (settings), ==, 180);
  g_assert_cmpuint (viva_settings_get_idle_timeout (settings), ==, 60);
  g_assert_cmpuint (viva_settings_get_context_length (settings), ==, 16384);
  g_assert_cmpint (viva_settings_get_examiner_mode (settings), ==, VIVA_EXAMINER_MODE_AUTO);
  g_assert_cmpstr (viva_settings_get_last_pack (settings), ==, "intro-ai");
  g_assert_cmpstr (viva_settings_get_last_problem (settings), ==, "kmeans");
  g_assert_false (viva_settings_get_teacher_mode (settings));
}

static void
test_notify_once_per_change (void)
{
  g_autoptr(VivaSettings) settings = viva_settings_new ();
  guint count = 0;

  g_signal_connect (settings, "notify::base-url", G_CALLBACK (viva_test_count_notify), &count);

  viva_settings_set_base_url (settings, "http://lab-server:8000/v1");
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpstr (viva_settings_get_base_url (settings), ==, "http://lab-server:8000/v1");

  /* The same value again is not a change. */
  viva_settings_set_base_url (settings, "http://lab-server:8000/v1");
  g_assert_cmpuint (count, ==, 1);
}

static void
test_shared_through_gsettings (void)
{
  g_autoptr(VivaSettings) a = viva_settings_new ();
  g_autoptr(VivaSettings) b = viva_settings_new ();
  guint count = 0;

  g_signal_connect (b, "notify::model", G_CALLBACK (viva_test_count_notify), &count);

  /* Two objects over one backend: a change made through one reaches the
   * other, as a change in Preferences reaches the examiner. */
  viva_settings_set_model (a, "qwen2.5:7b");
  g_assert_cmpstr (viva_settings_get_model (b), ==, "qwen2.5:7b");
  g_assert_cmpuint (count, ==, 1);

  viva_settings_set_examiner_mode (a, VIVA_EXAMINER_MODE_OFFLINE);
  g_assert_cmpint (viva_settings_get_examiner_mode (b), ==, VIVA_EXAMINER_MODE_OFFLINE);

  viva_settings_set_temperature (a, 5.0);
  g_assert_cmpfloat_with_epsilon (viva_settings_get_temperature (b), 2.0, 1e-9);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/settings/create-destroy", test_create_destroy);
  g_test_add_func ("/viva/settings/defaults", test_defaults);
  g_test_add_func ("/viva/settings/notify-once-per-change", test_notify_once_per_change);
  g_test_add_func ("/viva/settings/shared-through-gsettings", test_shared_through_gsettings);

  return g_test_run ();
}
