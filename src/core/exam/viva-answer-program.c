/* viva-answer-program.c: a program that answers the examiner's questions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "viva-answer-program.h"
#include "viva-examiner.h"

/* For scripts and rehearsals: each question goes to a fresh run of the
 * program as one JSON object on its standard input (`text`, `kind`, and
 * for a prediction the `call` the student reads; `code`, the student's
 * code as the examiner reads it), and its standard output is the answer.
 * Bounded: the answer's size, and the time it may take. `viva-cli defend
 * --answer-with`, the lab's and the eval's scripted students all answer
 * through viva_answer_program_question_for_examiner() and
 * viva_answer_program_run_async(). */

/**
 * viva_answer_program_question:
 * @text: the question as the student reads it
 * @item: (nullable): the plan item it asks (viva_examiner_dup_pending_item())
 *
 * Returns: (transfer full): `{text, kind, item?, call?}`; `kind` is
 *   `prediction`, `conceptual`, or `question` for one outside the plan
 */
JsonObject *
viva_answer_program_question (const char *text,
                              JsonObject *item)
{
  JsonObject *question = json_object_new ();

  json_object_set_string_member (question, "text", text ? text : "");
  json_object_set_string_member (question, "kind",
                                 item ? json_object_get_string_member_with_default (item, "kind", "question")
                                      : "question");
  if (item != NULL && json_object_has_member (item, "item"))
    json_object_set_string_member (question, "item", json_object_get_string_member (item, "item"));
  if (item != NULL && json_object_has_member (item, "call"))
    json_object_set_string_member (question, "call", json_object_get_string_member (item, "call"));

  return question;
}

/**
 * viva_answer_program_question_for_examiner:
 * @examiner: an examiner waiting for the answer to @text
 * @text: the question as the student reads it
 *
 * Returns: (transfer full): viva_answer_program_question() of the
 *   question @examiner waits on, with `code`: the student's code as the
 *   examiner reads it now
 */
JsonObject *
viva_answer_program_question_for_examiner (VivaExaminer *examiner,
                                           const char   *text)
{
  g_autoptr(JsonObject) item = NULL;
  g_autofree char *code = NULL;
  JsonObject *question;
  VivaCodeSource *source;

  g_return_val_if_fail (VIVA_IS_EXAMINER (examiner), NULL);

  item = viva_examiner_dup_pending_item (examiner);
  question = viva_answer_program_question (text, item);
  if ((source = viva_examiner_get_code_source (examiner)) != NULL &&
      (code = viva_code_source_dup_code (source)) != NULL)
    json_object_set_string_member (question, "code", code);

  return question;
}

typedef struct
{
  GSubprocess  *process;
  GSource      *timeout;
  GBytes       *input;
  GByteArray   *output;
  guint         timeout_ms;
  gboolean      timed_out;
  gboolean      too_long;
} Run;

#define READ_CHUNK 8192

static void
run_free (Run *run)
{
  if (run->timeout != NULL)
    g_source_destroy (run->timeout);
  g_clear_pointer (&run->timeout, g_source_unref);
  g_clear_pointer (&run->input, g_bytes_unref);
  g_clear_pointer (&run->output, g_byte_array_unref);
  g_clear_object (&run->process);
  g_free (run);
}

static gboolean
timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);

  run->timed_out = TRUE;
  g_subprocess_force_exit (run->process);

  return G_SOURCE_REMOVE;
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  const char *data;
  gsize size;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (run->timed_out)
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                    _("The answering program took more than %u seconds; make it answer faster."),
                                    run->timeout_ms / 1000);

  data = (const char *)run->output->data;
  size = run->output->len;
  if (run->too_long || memchr (data, '\0', size) != NULL || !g_utf8_validate_len (data, size, NULL))
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                    _("The answering program's output is not an answer (at most 64 KB of UTF-8 text)."));
  if (!g_subprocess_get_successful (G_SUBPROCESS (object)))
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                    _("The answering program failed (exit status %d); check it on the question it was given."),
                                    g_subprocess_get_exit_status (G_SUBPROCESS (object)));

  answer = g_strstrip (g_strndup (data, size));
  g_task_return_pointer (task, g_steal_pointer (&answer), g_free);
}

static void read_more (GTask *task);

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!(bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error)))
    {
      g_subprocess_force_exit (run->process);
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  if (g_bytes_get_size (bytes) > 0)
    {
      g_byte_array_append (run->output, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      /* Bounded while it is read: a program that writes without end is
       * stopped at the limit, never held whole in memory. */
      if (run->output->len <= VIVA_ANSWER_PROGRAM_MAX_BYTES)
        return read_more (g_steal_pointer (&task));
      run->too_long = TRUE;
      g_subprocess_force_exit (run->process);
    }

  cancellable = g_task_get_cancellable (task);
  g_subprocess_wait_async (run->process, cancellable, wait_cb, g_steal_pointer (&task));
}

static void
read_more (GTask *task)
{
  Run *run = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (g_subprocess_get_stdout_pipe (run->process), READ_CHUNK,
                                   G_PRIORITY_DEFAULT, g_task_get_cancellable (task), read_cb, task);
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  /* A program may answer without reading its question: a broken pipe is
   * its choice, not an error. Closing tells it the question is whole. */
  g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, NULL);
  g_output_stream_close (G_OUTPUT_STREAM (object), NULL, NULL);
}

/**
 * viva_answer_program_run_async:
 * @argv: the program and its arguments
 * @question: what viva_answer_program_question() made
 * @timeout_ms: how long one answer may take
 *
 * Runs @argv with @question on its standard input; its standard output is
 * read as it comes, at most %VIVA_ANSWER_PROGRAM_MAX_BYTES, and the
 * program is stopped when it writes more or takes longer than
 * @timeout_ms. Its standard error is the caller's.
 */
void
viva_answer_program_run_async (const char * const  *argv,
                               JsonObject          *question,
                               guint                timeout_ms,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;
  Run *run = g_new0 (Run, 1);
  gsize length;

  g_task_set_source_tag (task, viva_answer_program_run_async);
  g_task_set_task_data (task, run, (GDestroyNotify)run_free);
  run->timeout_ms = timeout_ms;
  run->output = g_byte_array_new ();

  json_node_set_object (node, question);
  text = json_to_string (node, FALSE);
  length = strlen (text) + 1;
  run->input = g_bytes_new_take (g_strconcat (text, "\n", NULL), length);

  run->process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  if (run->process == NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  run->timeout = g_timeout_source_new (timeout_ms);
  g_source_set_callback (run->timeout, timeout_cb, task, NULL);
  g_source_attach (run->timeout, g_main_context_get_thread_default ());

  g_output_stream_write_all_async (g_subprocess_get_stdin_pipe (run->process),
                                   g_bytes_get_data (run->input, NULL), g_bytes_get_size (run->input),
                                   G_PRIORITY_DEFAULT, cancellable, write_cb, g_object_ref (task));
  read_more (g_steal_pointer (&task));
}

/**
 * viva_answer_program_run_finish:
 *
 * Returns: (transfer full): the answer (its output, trimmed), or %NULL
 *   with @error when it could not run, failed, took too long, or wrote
 *   something that is not an answer
 */
char *
viva_answer_program_run_finish (GAsyncResult  *result,
                                GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
