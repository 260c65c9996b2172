/* viva-problem-generator-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-problem-generator.h"

G_BEGIN_DECLS

/* The model's reply (viva-problem-generator-reply.c), for the loop in
 * viva-problem-generator.c. */
JsonNode    *_viva_problem_generator_response_schema  (void);
VivaProblem *_viva_problem_generator_read_reply       (const char      *raw,
                                                       VivaProblemType  wanted,
                                                       GPtrArray       *issues);
GPtrArray   *_viva_problem_generator_pieces           (VivaProblem     *problem);
void         _viva_problem_generator_add_issues       (GPtrArray       *into,
                                                       GPtrArray       *issues);

G_END_DECLS
