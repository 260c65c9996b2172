/* viva-explainer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-error-table.h"
#include "viva-exam-language.h"
#include "viva-exam-leak-guard.h"
#include "viva-exam-private.h"
#include "viva-explainer.h"

/* Explain this error, Explain selection: practice aids that ask the
 * examiner's model to explain, never to solve (prompts/explainer.md).
 *
 * The request carries the problem's public text, the student's code, and
 * the traceback with the failing frame's variables (an error) or the lines
 * selected (a selection); never the reference, the checks or a held-out
 * test. The reply's reasoning is dropped and its content goes through the
 * exam's leak guard, as the examiner's words do, so a passage of the
 * reference or a hidden test is withheld before the student sees it.
 * Without a model an error is explained from the offline table
 * (viva-error-table.c); a selection is not, and the error says so. The
 * front decides whether these are allowed at all (off in exams). */

struct _VivaExplainer
{
  GObject        parent_instance;
  VivaChatModel *model;
  VivaProblem   *problem;
  char          *language;
  char          *prompt;
};

G_DEFINE_FINAL_TYPE (VivaExplainer, viva_explainer, G_TYPE_OBJECT)

typedef struct
{
  char          *code;
  char          *offline;  /* the table's explanation, for an error */
} Explain;

static void
explain_free (Explain *explain)
{
  g_free (explain->code);
  g_free (explain->offline);
  g_free (explain);
}

static void
viva_explainer_finalize (GObject *object)
{
  VivaExplainer *self = (VivaExplainer *) object;

  g_clear_object (&self->model);
  g_clear_object (&self->problem);
  g_free (self->language);
  g_free (self->prompt);
  G_OBJECT_CLASS (viva_explainer_parent_class)->finalize (object);
}

static void
viva_explainer_class_init (VivaExplainerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_explainer_finalize;
}

static void
viva_explainer_init (VivaExplainer *self)
{
}

/**
 * viva_explainer_new:
 * @model: (nullable): the examiner's model, or %NULL for none (offline)
 * @problem: (nullable): the problem practised, whose public text the
 *   model is given and whose reference the leak guard keeps out
 * @language: (nullable): the language to answer in (a locale name)
 *
 * Returns: (transfer full): an explainer
 */
VivaExplainer *
viva_explainer_new (VivaChatModel *model,
                    VivaProblem   *problem,
                    const char    *language)
{
  VivaExplainer *self = g_object_new (VIVA_TYPE_EXPLAINER, NULL);

  g_return_val_if_fail (model == NULL || VIVA_IS_CHAT_MODEL (model), self);

  g_set_object (&self->model, model);
  g_set_object (&self->problem, problem);
  self->language = g_strdup (language && *language ? language : "en");
  return self;
}

static char *
bounded (const char *text,
         gsize       limit)
{
  gsize length = text ? strlen (text) : 0;
  const char *end;

  if (length <= limit)
    return g_strdup (text ? text : "");
  g_utf8_validate (text, limit, &end);
  return g_strdup_printf ("%.*s\n[…]", (int) (end - text), text);
}

static char *
system_prompt (VivaExplainer *self,
               const char    *task)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GString) text = NULL;

  /* Ours, compiled in: viva_core_init() registers it. */
  bytes = g_resources_lookup_data (RESOURCE_PREFIX "/core/prompts/explainer.md", 0, NULL);
  g_assert (bytes != NULL);
  text = g_string_new_len (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_string_replace (text, "{{language}}", viva_exam_language_name (self->language), 0);
  g_string_replace (text, "{{task}}", task, 0);
  g_string_replace (text, "{{title}}", self->problem ? viva_problem_get_title (self->problem) : "(free practice)", 0);
  g_string_replace (text, "{{description}}",
                    self->problem && viva_problem_get_description (self->problem)
                      ? viva_problem_get_description (self->problem) : "(none)", 0);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static gboolean
is_blank (const char *text)
{
  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

static void
stream_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExplainer *self = g_task_get_source_object (task);
  Explain *explain = g_task_get_task_data (task);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaExamLeakGuard) guard = NULL;
  g_autoptr(GArray) ranges = NULL;
  const char *content;
  char *shown;

  reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (object), result, &error);
  content = reply ? viva_chat_reply_get_content (reply) : NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (error != NULL || content == NULL || is_blank (content))
    {
      /* An error explains itself from the table when the model cannot. */
      if (explain->offline != NULL)
        {
          g_debug ("explainer: the model failed (%s): the offline table answers",
                   error ? error->message : "no content");
          g_object_set_data (G_OBJECT (task), "source", GINT_TO_POINTER (VIVA_EXPLANATION_TABLE_FALLBACK));
          g_task_return_pointer (task, g_strdup (explain->offline), g_free);
        }
      else if (error != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                 _("The model answered nothing. Try again, or ask your teacher."));
      return;
    }

  /* The leak guard, as on the examiner's words: the student's own code may
   * be quoted, the reference and a hidden test may not. */
  guard = _viva_exam_leak_guard_new (self->problem);
  ranges = _viva_exam_leak_guard_find (guard, content, strlen (content), explain->code);
  shown = ranges->len > 0 ? _viva_exam_leak_guard_apply (content, strlen (content), ranges) : g_strdup (content);
  g_object_set_data (G_OBJECT (task), "source", GINT_TO_POINTER (VIVA_EXPLANATION_MODEL));
  g_task_return_pointer (task, shown, g_free);
}

static void
ask (VivaExplainer *self,
     GTask         *task,
     const char    *how,
     const char    *question)
{
  g_autoptr(VivaChatRequest) request = viva_chat_request_new ();
  g_autofree char *prompt = system_prompt (self, how);
  g_autoptr(VivaChatMessage) system = viva_chat_message_new_system (prompt);
  g_autoptr(VivaChatMessage) user = viva_chat_message_new_user (question);

  viva_chat_request_add_message (request, system);
  viva_chat_request_add_message (request, user);
  viva_chat_request_set_max_tokens (request, VIVA_EXPLAINER_MAX_TOKENS);
  viva_chat_model_stream_async (self->model, request, g_task_get_cancellable (task),
                                stream_cb, task);
}

/**
 * viva_explainer_explain_error_async:
 * @code: the code that ran
 * @result: its run's result, an error with a traceback
 *
 * Explains the error: with the model, given the traceback and the failing
 * frame's variables, in the explainer's language; without one, or when the
 * model fails, from the offline table.
 */
void
viva_explainer_explain_error_async (VivaExplainer       *self,
                                    const char          *code,
                                    VivaRunResult       *result,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GString) question = g_string_new (NULL);
  g_autofree char *numbered = NULL;
  g_autofree char *traceback = NULL;
  const VivaRunFrame *frame;
  Explain *explain;

  g_return_if_fail (VIVA_IS_EXPLAINER (self));
  g_return_if_fail (VIVA_IS_RUN_RESULT (result));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_explainer_explain_error_async);

  if (viva_run_result_get_error_type (result) == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("There is no error to explain: run your code first."));
      return;
    }

  frame = viva_run_result_get_error_frame (result);
  explain = g_new0 (Explain, 1);
  explain->code = bounded (code, VIVA_EXPLAINER_MAX_CODE);
  explain->offline = viva_error_table_explain (viva_run_result_get_error_type (result),
                                               viva_run_result_get_error_message (result),
                                               viva_run_result_get_error_line (result), frame);
  g_task_set_task_data (task, explain, (GDestroyNotify) explain_free);

  if (self->model == NULL)
    {
      g_object_set_data (G_OBJECT (task), "source", GINT_TO_POINTER (VIVA_EXPLANATION_TABLE));
      g_task_return_pointer (task, g_strdup (explain->offline), g_free);
      return;
    }

  numbered = _viva_exam_number_lines (explain->code);
  traceback = bounded (viva_run_result_get_traceback (result), VIVA_EXPLAINER_MAX_TRACEBACK);
  g_string_append_printf (question, "## My code\n\n```python\n%s```\n\n", numbered);
  g_string_append_printf (question, "## What Python said when I ran it\n\n```\n%s\n```\n\n",
                          traceback[0] ? traceback : viva_run_result_get_error_type (result));
  if (frame != NULL && frame->locals->len > 0)
    {
      g_autofree char *variables = viva_run_frame_to_text (frame);

      g_string_append_printf (question, "## The variables of `%s` (line %d) at that moment\n\n```\n%s```\n\n",
                              frame->function, frame->line, variables);
    }
  g_string_append (question, "Explain this error to me. Do not write the fix.");

  ask (self, g_steal_pointer (&task),
       "Explain what the error means and why it happened in this code, on this line.",
       question->str);
}

/**
 * viva_explainer_explain_selection_async:
 * @code: the whole code in the editor
 * @first_line: the first selected line, 1-based
 * @last_line: the last selected line
 *
 * Explains what the selected lines do, never how to finish the exercise.
 * Needs a model: without one it fails with %G_IO_ERROR_NOT_CONNECTED and a
 * sentence saying so.
 */
void
viva_explainer_explain_selection_async (VivaExplainer       *self,
                                        const char          *code,
                                        guint                first_line,
                                        guint                last_line,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GString) question = g_string_new (NULL);
  g_autofree char *numbered = NULL;
  g_auto(GStrv) lines = NULL;
  Explain *explain;

  g_return_if_fail (VIVA_IS_EXPLAINER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_explainer_explain_selection_async);

  if (self->model == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                               _("Explaining a selection needs a model, and none is set up or reachable. Choose one in Preferences, or ask your teacher."));
      return;
    }

  explain = g_new0 (Explain, 1);
  explain->code = bounded (code, VIVA_EXPLAINER_MAX_CODE);
  g_task_set_task_data (task, explain, (GDestroyNotify) explain_free);

  lines = g_strsplit (explain->code, "\n", -1);
  last_line = MIN (last_line, g_strv_length (lines));
  first_line = CLAMP (first_line, 1, MAX (last_line, 1));

  numbered = _viva_exam_number_lines (explain->code);
  g_string_append_printf (question, "## My code\n\n```python\n%s```\n\n", numbered);
  g_string_append_printf (question, "## The lines I selected (%u–%u)\n\n```python\n", first_line, last_line);
  for (guint i = first_line; i <= last_line && lines[i - 1] != NULL; i++)
    g_string_append_printf (question, "%s\n", lines[i - 1]);
  g_string_append (question, "```\n\nExplain what these lines do. Do not tell me how to finish the exercise.");

  ask (self, g_steal_pointer (&task),
       "Explain what the selected lines do and how they fit into the rest of the code; do not say what is missing or how to finish the exercise.",
       question->str);
}

/**
 * viva_explainer_explain_finish:
 * @source: (out) (optional): where the explanation came from
 *
 * Returns: (transfer full): the explanation, with any passage of the
 *   reference or a hidden test withheld, or %NULL with @error set
 */
char *
viva_explainer_explain_finish (VivaExplainer          *self,
                               GAsyncResult           *result,
                               VivaExplanationSource  *source,
                               GError                **error)
{
  char *text;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  text = g_task_propagate_pointer (G_TASK (result), error);
  if (source != NULL)
    *source = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (result), "source"));
  return text;
}
