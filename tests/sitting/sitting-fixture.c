/* sitting-fixture.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sitting-fixture.h"

static void
add_problem (JsonBuilder *builder,
             const char  *id,
             const char  *starter)
{
  g_autofree char *title = g_strdup_printf ("Problem %s", id);
  g_autofree char *reference = g_strdup_printf ("def %s(x):\n    return 2 * x\n", id);
  g_autofree char *check = g_strdup_printf ("assert %s(3) == 6, '%s(3) must be 6'\n", id, id);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, id);
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, title);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "implement");
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, "Double a number.");
  json_builder_set_member_name (builder, "starter_code");
  json_builder_add_string_value (builder, starter);
  json_builder_set_member_name (builder, "hint");
  json_builder_add_string_value (builder, "Multiply by two.");
  json_builder_set_member_name (builder, "reference_solution");
  json_builder_add_string_value (builder, reference);
  json_builder_set_member_name (builder, "tests");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, "small numbers");
  json_builder_set_member_name (builder, "setup");
  json_builder_add_string_value (builder, "");
  json_builder_set_member_name (builder, "call");
  json_builder_add_string_value (builder, "0");
  json_builder_set_member_name (builder, "check");
  json_builder_add_string_value (builder, check);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "questions");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "question");
  json_builder_add_string_value (builder, "What does it return for 0?");
  json_builder_set_member_name (builder, "points");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "0");
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/* An exam of the problems "a", "b" and "c", in that order, embedding its
 * pack, with its report folder "reports" beside the file in @dir. */
VivaExamFile *
sitting_fixture_exam (const char *dir,
                      guint       time_limit)
{
  return sitting_fixture_exam_graded (dir, time_limit, TRUE, 0, 0);
}

/* The same exam, with its `check` key when @check_allowed is FALSE and a
 * `grading_limit` of @count in @per_minutes when @count is not 0. */
VivaExamFile *
sitting_fixture_exam_graded (const char *dir,
                             guint       time_limit,
                             gboolean    check_allowed,
                             guint       count,
                             guint       per_minutes)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, "exam.json", NULL);
  g_autofree char *limit = g_strdup_printf ("%us", time_limit);
  g_autofree char *text = NULL;
  VivaExamFile *exam;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "viva-exam/1");
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "three");
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, "Three problems");
  json_builder_set_member_name (builder, "pack");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "viva-pack/1");
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "abc");
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, "A, B and C");
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, "1");
  json_builder_set_member_name (builder, "language");
  json_builder_add_string_value (builder, "en");
  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  add_problem (builder, "a", STARTER_A);
  add_problem (builder, "b", STARTER_B);
  add_problem (builder, "c", STARTER_C);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "a");
  json_builder_add_string_value (builder, "b");
  json_builder_add_string_value (builder, "c");
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "time_limit");
  json_builder_add_string_value (builder, limit);
  json_builder_set_member_name (builder, "examiner");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, "offline");
  json_builder_set_member_name (builder, "language");
  json_builder_add_string_value (builder, "vi");
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "report_folder");
  json_builder_add_string_value (builder, "reports");
  if (!check_allowed)
    {
      json_builder_set_member_name (builder, "check");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "allowed");
      json_builder_add_boolean_value (builder, FALSE);
      json_builder_end_object (builder);
    }
  if (count > 0)
    {
      json_builder_set_member_name (builder, "grading_limit");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, count);
      json_builder_set_member_name (builder, "per_minutes");
      json_builder_add_int_value (builder, per_minutes);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  bytes = g_bytes_new (text, strlen (text));
  exam = viva_exam_file_new_from_bytes (bytes, path, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (viva_exam_file_get_pack (exam));

  return exam;
}
