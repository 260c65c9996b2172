/* viva-pack-checker.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-pack.h"
#include "viva-runner.h"

G_BEGIN_DECLS

typedef enum
{
  VIVA_PACK_CHECK_REFERENCE,
  VIVA_PACK_CHECK_STARTER,
} VivaPackCheckSubject;

/**
 * VivaPackCheck:
 * @problem_id: the problem's id
 * @problem_index: its place in the pack
 * @subject: whether the reference solution or the starter code ran
 * @test_name: the test's name
 * @test_index: its place in the problem
 * @passed: the test passed: the code and the test ran without an exception
 * @status: how the run ended
 * @error_type: (nullable): the exception's type, like `AssertionError`
 * @error_message: (nullable): its message
 * @error_line: the line in the code or the test, 0 when unknown
 * @duration_ms: how long the run took
 *
 * One run of a subject (reference or starter) with one test, in a fresh
 * namespace. Plain data.
 */
typedef struct
{
  char                 *problem_id;
  guint                 problem_index;
  VivaPackCheckSubject  subject;
  char                 *test_name;
  guint                 test_index;
  gboolean              passed;
  VivaRunStatus         status;
  char                 *error_type;
  char                 *error_message;
  int                   error_line;
  double                duration_ms;
} VivaPackCheck;

#define VIVA_TYPE_PACK_CHECK (viva_pack_check_get_type())

GType          viva_pack_check_get_type             (void) G_GNUC_CONST;
VivaPackCheck *viva_pack_check_copy                 (const VivaPackCheck  *check);
void           viva_pack_check_free                 (VivaPackCheck        *check);
const char    *viva_pack_check_subject_to_string    (VivaPackCheckSubject  subject);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaPackCheck, viva_pack_check_free)

#define VIVA_TYPE_PACK_CHECKER (viva_pack_checker_get_type())

G_DECLARE_FINAL_TYPE (VivaPackChecker, viva_pack_checker, VIVA, PACK_CHECKER, GObject)

VivaPackChecker *viva_pack_checker_new                (VivaRunner           *runner);
VivaRunner      *viva_pack_checker_get_runner         (VivaPackChecker      *self);
guint            viva_pack_checker_get_timeout        (VivaPackChecker      *self);
void             viva_pack_checker_set_timeout        (VivaPackChecker      *self,
                                                       guint                 timeout_ms);
void             viva_pack_checker_check_pack_async   (VivaPackChecker      *self,
                                                       VivaPack             *pack,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
void             viva_pack_checker_check_problem_async (VivaPackChecker     *self,
                                                       VivaProblem          *problem,
                                                       guint                 problem_index,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
GPtrArray       *viva_pack_checker_check_finish       (VivaPackChecker      *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);

G_END_DECLS
