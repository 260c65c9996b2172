/* examiner-fixture.h: the examiner on the scripted server and the real
 * worker, as a GTest fixture for the examiner's tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "exam-test-common.h"
#include "viva-core.h"

G_BEGIN_DECLS

/* The student's code, right from the start. */
#define GOOD_CODE "def add(a, b):\n    return a + b\n"

typedef struct
{
  VivaTestServer     *server;
  VivaSecrets        *secrets;
  VivaOpenAIModel    *model;
  VivaProblem        *problem;
  VivaTextCodeSource *code;
  VivaExaminer       *examiner;
  GCancellable       *cancellable;
  GString            *events;                 /* "S1:readStudentCode question refused:… " */
  GAsyncResult       *result;
  gboolean            answer_questions;       /* else a question cancels */
  const char         *edit_after_first_step;  /* the code after edit_step (or S1) */
  const char         *edit_step;
} ExaminerFixture;

void             examiner_fixture_on_question      (VivaExaminer     *examiner,
                                                    const char       *step,
                                                    const char       *question,
                                                    ExaminerFixture  *fixture);
void             examiner_fixture_setup            (ExaminerFixture  *fixture,
                                                    gconstpointer     data);
void             examiner_fixture_teardown         (ExaminerFixture  *fixture,
                                                    gconstpointer     data);
VivaExamVerdict *examiner_fixture_run              (ExaminerFixture  *fixture,
                                                    GError          **error);
void             examiner_fixture_queue_protocol   (ExaminerFixture  *fixture,
                                                    const char       *evidence);
JsonArray       *examiner_fixture_request_messages (ExaminerFixture  *fixture,
                                                    guint             nth,
                                                    JsonNode        **keep);

G_END_DECLS
