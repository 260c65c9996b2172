/* viva-server-roster.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-server-roster.h"

/* A class roster as a spreadsheet saves it: CSV with a header row
 * `student_id,name`, fields quoted when they hold a comma, a quote or a
 * line break. Strict, as the exam reader is: a roster with a duplicate id
 * or a blank name does not load, since it would lock a student out. */

#define MAX_STUDENTS 5000

static GPtrArray *
next_record (const char **cursor,
             const char  *end,
             GError     **error,
             guint        line)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  const char *p = *cursor;
  gboolean quoted = FALSE, was_quoted = FALSE;

  while (p < end)
    {
      char c = *p++;

      if (quoted)
        {
          if (c == '"' && p < end && *p == '"')
            {
              g_string_append_c (field, '"');
              p++;
            }
          else if (c == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, c);
          continue;
        }

      if (c == '"' && field->len == 0 && !was_quoted)
        quoted = was_quoted = TRUE;
      else if (c == ',')
        {
          g_ptr_array_add (fields, g_string_free (g_steal_pointer (&field), FALSE));
          field = g_string_new (NULL);
          was_quoted = FALSE;
        }
      else if (c == '\n' || c == '\r')
        {
          if (c == '\r' && p < end && *p == '\n')
            p++;
          break;
        }
      else
        g_string_append_c (field, c);
    }

  if (quoted)
    {
      g_string_free (field, TRUE);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("Line %u of the roster opens a quote it never closes: close it with another \"."), line);
      return NULL;
    }

  g_ptr_array_add (fields, g_string_free (field, FALSE));
  *cursor = p;
  return g_steal_pointer (&fields);
}

/**
 * viva_server_roster_parse:
 *
 * Returns: (transfer full): objects with `student_id` and `name`
 */
JsonArray *
viva_server_roster_parse (const char  *text,
                          gssize       length,
                          GError     **error)
{
  g_autoptr(JsonArray) roster = json_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *cursor = text, *end;
  gboolean header = TRUE;
  guint line = 0;

  if (length < 0)
    length = strlen (text);
  end = text + length;

  if (!g_utf8_validate (text, length, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The roster is not UTF-8 text: save it from the spreadsheet as “CSV UTF-8”."));
      return NULL;
    }
  if (length >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    cursor += 3;

  while (cursor < end)
    {
      g_autoptr(GPtrArray) fields = NULL;
      const char *id, *name;
      JsonObject *student;

      line++;
      if (!(fields = next_record (&cursor, end, error, line)))
        return NULL;
      if (fields->len == 1 && g_strstrip ((char *)g_ptr_array_index (fields, 0))[0] == '\0')
        continue;

      for (guint i = 0; i < fields->len; i++)
        g_strstrip (g_ptr_array_index (fields, i));

      if (header)
        {
          if (fields->len < 2 ||
              g_ascii_strcasecmp (g_ptr_array_index (fields, 0), "student_id") != 0 ||
              g_ascii_strcasecmp (g_ptr_array_index (fields, 1), "name") != 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The roster’s first line must be the header “student_id,name”."));
              return NULL;
            }
          header = FALSE;
          continue;
        }

      if (fields->len < 2)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Line %u of the roster has no name: write “student_id,name”."), line);
          return NULL;
        }

      id = g_ptr_array_index (fields, 0);
      name = g_ptr_array_index (fields, 1);
      if (id[0] == '\0' || name[0] == '\0' || strlen (id) > 64 || strlen (name) > 200 ||
          strpbrk (id, "/\\ \t") != NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Line %u of the roster needs a student id (no spaces or slashes, at most 64 characters) and a name."),
                       line);
          return NULL;
        }
      if (g_hash_table_contains (seen, id))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Line %u of the roster repeats the student id “%s”: list each student once."), line, id);
          return NULL;
        }
      if (json_array_get_length (roster) >= MAX_STUDENTS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The roster lists more than %u students: split the class into several exams."), MAX_STUDENTS);
          return NULL;
        }

      g_hash_table_add (seen, g_strdup (id));
      student = json_object_new ();
      json_object_set_string_member (student, "student_id", id);
      json_object_set_string_member (student, "name", name);
      json_array_add_object_element (roster, student);
    }

  if (json_array_get_length (roster) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The roster lists no students: add a line “student_id,name” for each."));
      return NULL;
    }

  return g_steal_pointer (&roster);
}
