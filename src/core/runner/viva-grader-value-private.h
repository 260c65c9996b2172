/* viva-grader-value-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Bounds on a value crossing from a student's process; the worker's encoder
 * (viva-worker-boot.py) keeps to the same ones, but nothing here trusts it. */
#define VIVA_GRADER_VALUE_MAX_BYTES (1u << 20)
#define VIVA_GRADER_VALUE_MAX_DEPTH 32
#define VIVA_GRADER_VALUE_MAX_NODES 100000

typedef enum
{
  VIVA_GRADER_VALUE_OK,
  VIVA_GRADER_VALUE_TOO_LARGE,
  VIVA_GRADER_VALUE_NOT_PLAIN,
} VivaGraderValueStatus;

VivaGraderValueStatus _viva_grader_value_check (const char  *text,
                                                char       **canonical);

G_END_DECLS
