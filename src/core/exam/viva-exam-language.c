/* viva-exam-language.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Which language the examiner speaks, and how the prompt names it.
 *
 * The examiner speaks the student's language: the one chosen in
 * Preferences, else the pack's (its problems are written in it), else the
 * one the interface is shown in. The prompt names it in English with the
 * language's own name beside it, which models follow more reliably than a
 * bare locale code. */

#include "config.h"

#include <string.h>

#include "viva-exam-language.h"

static const struct
{
  const char *code;
  const char *name;
} names[] = {
  { "en", "English" },
  { "zh_CN", "Simplified Chinese (简体中文)" },
  { "zh_SG", "Simplified Chinese (简体中文)" },
  { "zh_Hans", "Simplified Chinese (简体中文)" },
  { "zh_TW", "Traditional Chinese (繁體中文)" },
  { "zh_HK", "Traditional Chinese (繁體中文)" },
  { "zh_Hant", "Traditional Chinese (繁體中文)" },
  { "zh", "Simplified Chinese (简体中文)" },
  { "vi", "Vietnamese (Tiếng Việt)" },
  { "ar", "Arabic (العربية)" },
  { "de", "German (Deutsch)" },
  { "es", "Spanish (español)" },
  { "fr", "French (français)" },
  { "hi", "Hindi (हिन्दी)" },
  { "id", "Indonesian (Bahasa Indonesia)" },
  { "it", "Italian (italiano)" },
  { "ja", "Japanese (日本語)" },
  { "ko", "Korean (한국어)" },
  { "pt_BR", "Brazilian Portuguese (português do Brasil)" },
  { "pt", "Portuguese (português)" },
  { "ru", "Russian (русский)" },
  { "th", "Thai (ไทย)" },
  { "tr", "Turkish (Türkçe)" },
  { "uk", "Ukrainian (українська)" },
};

/* "zh-CN", "zh_CN.UTF-8", "zh_CN@x" → "zh_CN"; NULL for no language. */
static char *
normalize (const char *language)
{
  g_autofree char *code = NULL;
  char *end;

  if (language == NULL)
    return NULL;

  code = g_strstrip (g_strdup (language));
  if ((end = strpbrk (code, ".@")))
    *end = '\0';
  g_strdelimit (code, "-", '_');

  if (code[0] == '\0' || g_str_equal (code, "C") || g_str_equal (code, "POSIX"))
    return NULL;

  return g_steal_pointer (&code);
}

/**
 * viva_exam_language_choose:
 * @preference: (nullable): the examiner language chosen in Preferences, a
 *   locale name, or empty for none
 * @pack_language: (nullable): the pack's language, as the pack states it
 *
 * Returns: (transfer full): the language the examiner should speak, as a
 *   locale name such as `zh_CN` (`en` when nothing says otherwise)
 */
char *
viva_exam_language_choose (const char *preference,
                           const char *pack_language)
{
  const char * const *ui = g_get_language_names ();
  char *code;

  if ((code = normalize (preference)) || (code = normalize (pack_language)))
    return code;

  for (guint i = 0; ui[i] != NULL; i++)
    if ((code = normalize (ui[i])))
      return code;

  return g_strdup ("en");
}

/**
 * viva_exam_language_name:
 * @language: (nullable): a locale name, or already a language's name
 *
 * Returns: (transfer none): how the examiner's prompt names @language:
 *   in English with its own name beside it for the languages Viva knows,
 *   @language itself otherwise, and English for %NULL or empty
 */
const char *
viva_exam_language_name (const char *language)
{
  g_autofree char *code = normalize (language);

  if (code == NULL)
    return "English";

  /* The full locale first (pt_BR), then the language alone (pt). */
  for (guint pass = 0; pass < 2; pass++)
    {
      if (pass == 1)
        {
          char *territory = strchr (code, '_');

          if (territory == NULL)
            break;
          *territory = '\0';
        }
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (g_ascii_strcasecmp (code, names[i].code) == 0)
          return names[i].name;
    }

  return language;
}
