/* sitting-fixture.h: a three-problem exam for the sitting's tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-file.h"

G_BEGIN_DECLS

#define STARTER_A "def a(x):\n    return x\n"
#define STARTER_B "def b(x):\n    return x\n"
#define STARTER_C "def c(x):\n    return x\n"

VivaExamFile *sitting_fixture_exam (const char *dir,
                                    guint       time_limit);
VivaExamFile *sitting_fixture_exam_graded (const char *dir,
                                           guint       time_limit,
                                           gboolean    check_allowed,
                                           guint       count,
                                           guint       per_minutes);

G_END_DECLS
