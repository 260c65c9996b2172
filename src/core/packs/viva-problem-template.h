/* viva-problem-template.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-problem.h"

G_BEGIN_DECLS

VivaProblem *viva_problem_new_from_template (const char *id);

G_END_DECLS
