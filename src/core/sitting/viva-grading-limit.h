/* viva-grading-limit.h: how often an exam lets a problem be graded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define VIVA_GRADING_ERROR (viva_grading_error_quark ())

/**
 * VivaGradingError:
 * @VIVA_GRADING_ERROR_LIMITED: the exam's grading limit is reached for now;
 *   the message says when the student may try again
 * @VIVA_GRADING_ERROR_CHECK_FORBIDDEN: the exam does not allow Check
 */
typedef enum
{
  VIVA_GRADING_ERROR_LIMITED,
  VIVA_GRADING_ERROR_CHECK_FORBIDDEN,
} VivaGradingError;

GQuark viva_grading_error_quark (void);

#define VIVA_TYPE_GRADING_LIMIT (viva_grading_limit_get_type ())

G_DECLARE_FINAL_TYPE (VivaGradingLimit, viva_grading_limit, VIVA, GRADING_LIMIT, GObject)

VivaGradingLimit *viva_grading_limit_new      (guint             count,
                                               guint             per_minutes);
gint64            viva_grading_limit_next     (VivaGradingLimit *self,
                                               const char       *problem_id,
                                               gint64            now);
gboolean          viva_grading_limit_take     (VivaGradingLimit *self,
                                               const char       *problem_id,
                                               gint64            now,
                                               GError          **error);
void              viva_grading_limit_save     (VivaGradingLimit *self,
                                               JsonBuilder      *builder);
void              viva_grading_limit_restore  (VivaGradingLimit *self,
                                               JsonObject       *root);

G_END_DECLS
