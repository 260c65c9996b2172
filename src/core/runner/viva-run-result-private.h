/* viva-run-result-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-run-result.h"
#include "viva-run-stack.h"
#include "viva-runner.h"

G_BEGIN_DECLS

struct _VivaRunResult
{
  GObject        parent_instance;
  VivaRunStatus  status;
  double         duration_ms;
  char          *error_type;
  char          *error_message;
  int            error_line;
  int            error_column;
  char          *traceback;
  char          *summary;
  int            signal;
  gboolean       state_reset;
  gboolean       output_truncated;
  char          *stdout_text;
  char          *stderr_text;
  GPtrArray     *images;
  char          *error_where;  /* the worker's "where": for the grader, why a value could not be sent */
  char          *value;        /* a `call`'s value as the worker sent it: untrusted text */
  gboolean       forged;       /* the worker was killed for what it wrote on its channel */
  VivaRunStack  *frame;        /* the failing frame and its variables, as the worker said */
};

VivaRunResult *_viva_run_result_new            (VivaRunStatus      status);
VivaRunResult *_viva_run_result_new_from_event (JsonObject        *event,
                                                guint              timeout_ms);
VivaRunResult *_viva_run_result_new_for_death  (GSubprocess       *process,
                                                VivaRunnerSandbox  sandbox,
                                                gboolean           killed,
                                                gint64             started_us);
void           _viva_run_result_describe       (VivaRunResult     *result,
                                                guint              timeout_ms);

G_END_DECLS
