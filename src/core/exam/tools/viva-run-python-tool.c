/* viva-run-python-tool.c
 *
 * The tool that runs code in the student's interpreter, where earlier runs'
 * globals persist.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-private.h"

VIVA_DEFINE_EXAM_TOOL (VivaRunPythonTool, viva_run_python_tool)

static const VivaExamToolFacts facts = {
  .name = "runPython",
  .title = N_("Running your code"),
  .icon_name = "media-playback-start-symbolic",
  .running_text = N_("Running your code…"),
  .done_text = N_("Ran your code"),
  .done_several_text = N_("Ran code several times"),
  .step = VIVA_EXAM_PROTOCOL_RUN,
  .kind = VIVA_EXAM_TOOL_KIND_ORDINARY,
};

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  if (!(run = viva_exam_runs_run_finish (VIVA_EXAM_RUNS (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  /* The output and the exception come from the student's own process,
   * which can make them say anything: the model is told whose words they
   * are. The hidden tests are graded apart, outside that process. */
  reply = _viva_run_result_to_json (run);
  json_object_set_string_member (reply, "reported_by",
                                 "the student's program: stdout, stderr and the error are what it printed "
                                 "and reported from its own process, evidence of what it does rather than "
                                 "facts Viva checked");
  viva_exam_tool_return (task, reply);
}

static void
viva_run_python_tool_invoke (VivaExamTool    *tool,
                             VivaExamContext *context,
                             JsonObject      *arguments,
                             GTask           *task)
{
  viva_exam_runs_run_async (viva_exam_context_get_runs (context),
                            json_object_get_string_member (arguments, "code"),
                            viva_exam_context_get_run_timeout (context),
                            g_task_get_cancellable (task),
                            run_cb,
                            g_object_ref (task));
}

static void
viva_run_python_tool_class_init (VivaRunPythonToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &facts;
  tool_class->description =
    "Runs Python code in the student's interpreter, where the globals of earlier runs persist "
    "(to run the student's program, pass its code). Returns the status (ok, error, timeout, "
    "killed, crashed), standard output and error, the exception if any, and the duration.";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {\"code\": {\"type\": \"string\", \"minLength\": 1,"
    "                             \"description\": \"the Python code to run\"}},"
    " \"required\": [\"code\"]}";
  tool_class->invoke = viva_run_python_tool_invoke;
}
