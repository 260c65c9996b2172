/* viva-problem.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  VIVA_PROBLEM_IMPLEMENT,
  VIVA_PROBLEM_DEBUG,
  VIVA_PROBLEM_EXPLAIN,
} VivaProblemType;

/**
 * VivaProblemTest:
 * @name: what the student sees
 * @code: an old unstructured test: Python run after the student's code, in
 *   its process, raising on failure. For a structured test, built from its
 *   parts (setup, `result = call`, check) for the examiner's own probes; the
 *   grade never runs it.
 * @setup: trusted code that builds the inputs (structured tests)
 * @call: the expression whose value is the result; %NULL for an old test
 * @check: assertions on `result`, run in the grader where no student code ran
 * @compare: also compare `result` with the reference solution's value
 * @tolerance: for @compare, the absolute tolerance for numbers
 * @shown: an example the student may see and the examiner may run on the
 *   student's code; every other test is held out (its setup, call, check
 *   and messages never leave the grader)
 */
typedef struct
{
  char     *name;
  char     *code;
  char     *setup;
  char     *call;
  char     *check;
  gboolean  compare;
  double    tolerance;
  gboolean  shown;
} VivaProblemTest;

gboolean viva_problem_test_is_structured (const VivaProblemTest *test);
gboolean viva_problem_test_is_shown      (const VivaProblemTest *test);
gboolean viva_problem_test_convert_legacy (const char  *code,
                                           char       **call,
                                           char       **check);

typedef struct
{
  char  *question;
  char **points;
} VivaProblemQuestion;

#define VIVA_TYPE_PROBLEM (viva_problem_get_type())

G_DECLARE_FINAL_TYPE (VivaProblem, viva_problem, VIVA, PROBLEM, GObject)

VivaProblem       *viva_problem_new               (const char      *id,
                                                   const char      *title);
const char        *viva_problem_get_id            (VivaProblem     *self);
const char        *viva_problem_get_title         (VivaProblem     *self);
void               viva_problem_set_title         (VivaProblem     *self,
                                                   const char      *title);
VivaProblemType    viva_problem_get_problem_type  (VivaProblem     *self);
void               viva_problem_set_problem_type  (VivaProblem     *self,
                                                   VivaProblemType  type);
const char        *viva_problem_get_description   (VivaProblem     *self);
void               viva_problem_set_description   (VivaProblem     *self,
                                                   const char      *description);
const char        *viva_problem_get_starter_code  (VivaProblem     *self);
void               viva_problem_set_starter_code  (VivaProblem     *self,
                                                   const char      *code);
const char        *viva_problem_get_hint          (VivaProblem     *self);
void               viva_problem_set_hint          (VivaProblem     *self,
                                                   const char      *hint);
const char        *viva_problem_get_reference     (VivaProblem     *self);
void               viva_problem_set_reference     (VivaProblem     *self,
                                                   const char      *code);
const char        *viva_problem_get_rubric        (VivaProblem     *self);
void               viva_problem_set_rubric        (VivaProblem     *self,
                                                   const char      *rubric);
guint              viva_problem_get_time_limit    (VivaProblem     *self);
void               viva_problem_set_time_limit    (VivaProblem     *self,
                                                   guint            minutes);
guint              viva_problem_get_n_tests       (VivaProblem     *self);
const VivaProblemTest *viva_problem_get_test      (VivaProblem     *self,
                                                   guint            index);
void               viva_problem_add_test          (VivaProblem     *self,
                                                   const char      *name,
                                                   const char      *code);
void               viva_problem_add_structured_test (VivaProblem   *self,
                                                   const char      *name,
                                                   const char      *setup,
                                                   const char      *call,
                                                   const char      *check,
                                                   gboolean         compare,
                                                   double           tolerance);
void               viva_problem_add_test_copy     (VivaProblem     *self,
                                                   const VivaProblemTest *test);
guint              viva_problem_get_n_in_process_tests (VivaProblem *self);
void               viva_problem_set_test_shown    (VivaProblem     *self,
                                                   guint            index,
                                                   gboolean         shown);
guint              viva_problem_get_n_shown_tests (VivaProblem     *self);
GPtrArray         *viva_problem_get_shown_tests   (VivaProblem     *self);
GPtrArray         *viva_problem_get_held_out_tests (VivaProblem    *self);
guint              viva_problem_get_pass_threshold (VivaProblem    *self);
void               viva_problem_set_pass_threshold (VivaProblem    *self,
                                                   guint            n_tests);
guint              viva_problem_get_n_questions   (VivaProblem     *self);
const VivaProblemQuestion *viva_problem_get_question (VivaProblem  *self,
                                                   guint            index);
void               viva_problem_add_question      (VivaProblem     *self,
                                                   const char      *question,
                                                   const char * const *points);
void               viva_problem_clear_tests       (VivaProblem     *self);
void               viva_problem_clear_questions   (VivaProblem     *self);
const char        *viva_problem_type_to_string    (VivaProblemType  type);
gboolean           viva_problem_type_from_string  (const char      *str,
                                                   VivaProblemType *type);

G_END_DECLS
