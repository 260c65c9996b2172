/* test-exam-language.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The examiner speaks the student's language: Preferences, then the pack,
 * then the interface; and the prompt names it so a model follows it. */

#include "config.h"

#include <glib.h>

#include "viva-exam-language.h"

static void
set_ui_language (const char *language)
{
  g_setenv ("LANGUAGE", language, TRUE);
  g_setenv ("LC_ALL", "", TRUE);
  g_setenv ("LC_MESSAGES", "", TRUE);
  g_setenv ("LANG", "C.UTF-8", TRUE);
}

static void
test_choose (void)
{
  struct { const char *preference, *pack, *ui, *expected; } cases[] = {
    { "vi", "en", "zh_CN", "vi" },          /* Preferences win */
    { "", "zh-CN", "vi", "zh_CN" },          /* then the pack, as packs write it */
    { NULL, NULL, "vi_VN.UTF-8", "vi_VN" },  /* then the interface */
    { "", "", "zh_CN:en", "zh_CN" },
    { "", " ", "C", "en" },                  /* and English when nothing says */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *chosen = NULL;

      set_ui_language (cases[i].ui);
      chosen = viva_exam_language_choose (cases[i].preference, cases[i].pack);
      g_assert_cmpstr (chosen, ==, cases[i].expected);
    }
}

static void
test_name (void)
{
  g_assert_cmpstr (viva_exam_language_name ("zh_CN"), ==, "Simplified Chinese (简体中文)");
  g_assert_cmpstr (viva_exam_language_name ("zh-CN"), ==, "Simplified Chinese (简体中文)");
  g_assert_cmpstr (viva_exam_language_name ("zh_CN.UTF-8"), ==, "Simplified Chinese (简体中文)");
  g_assert_cmpstr (viva_exam_language_name ("zh_TW"), ==, "Traditional Chinese (繁體中文)");
  g_assert_cmpstr (viva_exam_language_name ("vi"), ==, "Vietnamese (Tiếng Việt)");
  g_assert_cmpstr (viva_exam_language_name ("vi_VN"), ==, "Vietnamese (Tiếng Việt)");
  g_assert_cmpstr (viva_exam_language_name ("en_GB"), ==, "English");
  g_assert_cmpstr (viva_exam_language_name ("pt-BR"), ==, "Brazilian Portuguese (português do Brasil)");
  g_assert_cmpstr (viva_exam_language_name ("pt_PT"), ==, "Portuguese (português)");
  /* Callers that already say a language's name keep it. */
  g_assert_cmpstr (viva_exam_language_name ("English"), ==, "English");
  g_assert_cmpstr (viva_exam_language_name ("Klingon"), ==, "Klingon");
  g_assert_cmpstr (viva_exam_language_name (NULL), ==, "English");
  g_assert_cmpstr (viva_exam_language_name (""), ==, "English");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/i18n/examiner-language/choose", test_choose);
  g_test_add_func ("/viva/i18n/examiner-language/name", test_name);

  return g_test_run ();
}
