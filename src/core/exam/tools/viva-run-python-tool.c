/* viva-run-python-tool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-private.h"
#include "viva-run-python-tool.h"

struct _VivaRunPythonTool
{
  VivaExamTool parent_instance;
};

G_DEFINE_FINAL_TYPE (VivaRunPythonTool, viva_run_python_tool, VIVA_TYPE_EXAM_TOOL)

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;

  if (!(run = viva_runner_run_finish (VIVA_RUNNER (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, _viva_run_result_to_json (run), (GDestroyNotify)json_object_unref);
}

static void
viva_run_python_tool_invoke_async (VivaExamTool        *tool,
                                   VivaExamContext     *context,
                                   JsonObject          *arguments,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);

  g_task_set_source_tag (task, viva_run_python_tool_invoke_async);

  viva_runner_run_async (viva_exam_context_get_runner (context),
                         json_object_get_string_member (arguments, "code"),
                         viva_exam_context_get_run_timeout (context),
                         cancellable,
                         run_cb,
                         g_steal_pointer (&task));
}

static void
viva_run_python_tool_class_init (VivaRunPythonToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->name = "runPython";
  tool_class->description =
    "Runs Python code in the student's interpreter, where the globals of earlier runs persist "
    "(to run the student's program, pass its code). Returns the status (ok, error, timeout, "
    "killed, crashed), standard output and error, the exception if any, and the duration.";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {\"code\": {\"type\": \"string\", \"minLength\": 1,"
    "                             \"description\": \"the Python code to run\"}},"
    " \"required\": [\"code\"]}";
  tool_class->kind = VIVA_EXAM_TOOL_KIND_ORDINARY;
  tool_class->invoke_async = viva_run_python_tool_invoke_async;
  tool_class->invoke_finish = _viva_exam_tool_finish_object;
}

static void
viva_run_python_tool_init (VivaRunPythonTool *self)
{
}

VivaExamTool *
viva_run_python_tool_new (void)
{
  return g_object_new (VIVA_TYPE_RUN_PYTHON_TOOL, NULL);
}
