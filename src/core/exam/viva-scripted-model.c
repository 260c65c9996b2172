/* viva-scripted-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "viva-chat-reply.h"
#include "viva-exam-private.h"
#include "viva-exam-scorer.h"
#include "viva-problem-grade.h"
#include "viva-scripted-model.h"
#include "viva-scripted-scorer.h"
#include "viva-text.h"

/* The offline examiner. It keeps no state of its own: each reply is
 * decided from the conversation in the request (which tools already
 * answered, and what), so it resumes from a checkpoint like any model and
 * goes through the same engine, tools and protocol checks.
 *
 * A structured hidden test's assertions never enter the student's sandbox
 * or the transcript: its probe runs only the test's setup and call (the
 * inputs the grader hands the student's code anyway), and the verdict comes
 * from grading the code it read through the grader, out of the student's
 * process, as the engine does again at finishDefense. */

struct _VivaScriptedModel
{
  GObject      parent_instance;
  VivaProblem *problem;
};

static void chat_model_iface_init (VivaChatModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaScriptedModel, viva_scripted_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_CHAT_MODEL, chat_model_iface_init))

/* What the conversation so far says was done. */
typedef struct
{
  gboolean   read;
  char      *code;          /* from readStudentCode, line numbers removed */
  gboolean   ran;
  guint      injected;
  guint      valid;
  guint      passed;
  GString   *failed;        /* names of failed tests */
  GPtrArray *evidence;
  gboolean   asked;
  GPtrArray *asked_items;   /* plan items answered */
  JsonArray *plan;          /* the engine's plan, from its message */
  guint      n_assistant;
} Progress;

static void
progress_clear (Progress *progress)
{
  g_free (progress->code);
  if (progress->failed)
    g_string_free (progress->failed, TRUE);
  g_clear_pointer (&progress->evidence, g_ptr_array_unref);
  g_clear_pointer (&progress->asked_items, g_ptr_array_unref);
  g_clear_pointer (&progress->plan, json_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Progress, progress_clear)

static char *
strip_line_numbers (const char *numbered)
{
  g_auto(GStrv) lines = g_strsplit (numbered, "\n", -1);
  g_autoptr(GString) code = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *bar = strstr (lines[i], "| ");

      if (bar == NULL)
        continue;
      g_string_append (code, bar + 2);
      g_string_append_c (code, '\n');
    }

  return g_string_free (g_steal_pointer (&code), FALSE);
}

static const char *
name_of_call (GPtrArray  *messages,
              const char *id)
{
  for (guint i = 0; i < messages->len; i++)
    {
      VivaChatMessage *message = g_ptr_array_index (messages, i);
      GPtrArray *calls = viva_chat_message_get_tool_calls (message);

      for (guint j = 0; calls != NULL && j < calls->len; j++)
        if (g_strcmp0 (viva_tool_call_get_id (g_ptr_array_index (calls, j)), id) == 0)
          return viva_tool_call_get_name (g_ptr_array_index (calls, j));
    }

  return NULL;
}

/* The engine's plan, handed over in its message: a JSON block at its end. */
static JsonArray *
read_plan (const char *content)
{
  const char *start;
  const char *end;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) node = NULL;

  if (content == NULL || !g_str_has_prefix (content, VIVA_EXAM_SYSTEM_PREFIX) ||
      !(start = strstr (content, "```json\n")) || !(end = strstr (start + 8, "\n```")))
    return NULL;

  json = g_strndup (start + 8, end - start - 8);
  node = json_from_string (json, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_array_ref (json_node_get_array (node));
}

/* The first planned item not answered yet. */
static JsonObject *
next_planned (Progress *progress)
{
  for (guint i = 0; progress->plan != NULL && i < json_array_get_length (progress->plan); i++)
    {
      JsonObject *item = json_array_get_object_element (progress->plan, i);
      const char *id = item ? json_object_get_string_member_with_default (item, "item", NULL) : NULL;

      if (id != NULL && !g_ptr_array_find_with_equal_func (progress->asked_items, id, g_str_equal, NULL))
        return item;
    }

  return NULL;
}

static void
read_progress (VivaScriptedModel *self,
               VivaChatRequest   *request,
               Progress          *progress)
{
  GPtrArray *messages = viva_chat_request_get_messages (request);
  g_autoptr(GPtrArray) shown = viva_problem_get_shown_tests (self->problem);

  progress->failed = g_string_new (NULL);
  progress->evidence = g_ptr_array_new_with_free_func (g_free);
  progress->asked_items = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < messages->len; i++)
    {
      VivaChatMessage *message = g_ptr_array_index (messages, i);
      const char *name;
      g_autoptr(JsonNode) node = NULL;
      JsonObject *result;
      const char *step;

      if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_ASSISTANT)
        progress->n_assistant++;


      if (viva_chat_message_get_role (message) != VIVA_CHAT_ROLE_TOOL)
        continue;

      name = name_of_call (messages, viva_chat_message_get_tool_call_id (message));
      node = json_from_string (viva_chat_message_get_content (message), NULL);
      if (name == NULL || node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      result = json_node_get_object (node);
      step = json_object_get_string_member_with_default (result, "step", NULL);

      /* A call that was refused or not run has no step: it did not happen. */
      if (step == NULL)
        continue;

      if (g_str_equal (name, "readStudentCode"))
        {
          progress->read = TRUE;
          if (progress->plan == NULL)
            progress->plan = read_plan (json_object_get_string_member_with_default (result, "planned_questions", NULL));
          g_free (progress->code);
          progress->code = strip_line_numbers (json_object_get_string_member_with_default (result, "code", ""));
        }
      else if (g_str_equal (name, "runPython"))
        progress->ran = TRUE;
      else if (g_str_equal (name, "injectTestCase"))
        {
          gboolean valid = json_object_get_boolean_member_with_default (result, "valid", TRUE);
          gboolean passed = json_object_get_boolean_member_with_default (result, "passed", FALSE);
          guint index = progress->injected++;

          g_ptr_array_add (progress->evidence, g_strdup (step));
          if (valid)
            {
              progress->valid++;
              progress->passed += passed;
            }
          if (valid && !passed && index < shown->len)
            g_string_append_printf (progress->failed, "%s“%s”", progress->failed->len ? ", " : "",
                                    ((const VivaProblemTest *) g_ptr_array_index (shown, index))->name);
        }
      else if (g_str_equal (name, "askStudent"))
        {
          if (json_object_get_string_member_with_default (result, "item", NULL))
            g_ptr_array_add (progress->asked_items, g_strdup (json_object_get_string_member (result, "item")));
          progress->asked = TRUE;
          g_ptr_array_add (progress->evidence, g_strdup (step));
        }
    }
}

static char *
to_json_text (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  return json_to_string (root, FALSE);
}

static VivaChatReply *
decide (VivaScriptedModel  *self,
        VivaChatRequest    *request,
        char              **grade_code,
        GPtrArray         **evidence)
{
  g_auto(Progress) progress = { 0 };
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(VivaChatReply) reply = viva_chat_reply_new ();
  g_autofree char *arguments = NULL;
  g_autofree char *id = NULL;
  char *content = NULL;
  const char *tool = NULL;
  /* It probes with the shown tests only: a held-out test's inputs never
   * reach the student's worker outside a grading, nor its words a message. */
  g_autoptr(GPtrArray) shown = viva_problem_get_shown_tests (self->problem);
  guint n_shown = shown->len;
  JsonObject *planned = NULL;

  viva_chat_reply_set_model (reply, "viva-offline");

  /* A scoring request: the offline examiner only matches words. */
  if (_viva_scripted_scorer_is_asked (request))
    {
      viva_chat_reply_take_content (reply, _viva_scripted_scorer_score (request));
      viva_chat_reply_set_finish_reason (reply, "stop");
      return g_steal_pointer (&reply);
    }

  /* A follow-up question after the verdict: there are no tools to use. */
  if (viva_chat_request_get_tools (request) == NULL || viva_chat_request_get_tools (request)->len == 0)
    {
      viva_chat_reply_take_content (reply,
        g_strdup (_("I am the offline examiner, so I cannot discuss the verdict. It rests on the "
                    "hidden tests shown above; your teacher will see your answers and the "
                    "whole transcript.")));
      viva_chat_reply_set_finish_reason (reply, "stop");
      return g_steal_pointer (&reply);
    }

  read_progress (self, request, &progress);
  json_builder_begin_object (builder);

  if (!progress.read)
    {
      tool = "readStudentCode";
      content = g_strdup (_("I am the offline examiner. First, I will read your code."));
    }
  else if (!progress.ran)
    {
      tool = "runPython";
      content = g_strdup (_("Now I will run it."));
      json_builder_set_member_name (builder, "code");
      json_builder_add_string_value (builder, progress.code && !viva_text_is_blank (progress.code)
                                              ? progress.code : "pass\n");
    }
  else if (progress.injected < MAX (n_shown, 1))
    {
      tool = "injectTestCase";
      if (n_shown == 0)
        {
          content = g_strdup (_("This problem shows no example tests; I will check that your code runs."));
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, _("your code on its own"));
          json_builder_set_member_name (builder, "code");
          json_builder_add_string_value (builder, "pass");
        }
      else
        {
          const VivaProblemTest *test = g_ptr_array_index (shown, progress.injected);

          if (viva_problem_test_is_structured (test))
            {
              /* A shown test whole, judged as the grader judges: the check
               * runs outside the student's process. */
              content = g_strdup_printf (_("Example %u of %u: %s. Your code runs on its input here; "
                                           "the grader judges what it returns outside your code's reach."),
                                         progress.injected + 1, n_shown, test->name);
              json_builder_set_member_name (builder, "name");
              json_builder_add_string_value (builder, test->name);
              json_builder_set_member_name (builder, "setup");
              json_builder_add_string_value (builder, test->setup ? test->setup : "");
              json_builder_set_member_name (builder, "call");
              json_builder_add_string_value (builder, test->call);
              json_builder_set_member_name (builder, "check");
              json_builder_add_string_value (builder, test->check ? test->check : "");
              if (test->compare)
                {
                  json_builder_set_member_name (builder, "compare");
                  json_builder_add_boolean_value (builder, TRUE);
                  json_builder_set_member_name (builder, "tolerance");
                  json_builder_add_double_value (builder, test->tolerance);
                }
            }
          else
            {
              content = g_strdup_printf (_("Example %u of %u: %s."), progress.injected + 1, n_shown, test->name);
              json_builder_set_member_name (builder, "name");
              json_builder_add_string_value (builder, test->name);
              json_builder_set_member_name (builder, "code");
              json_builder_add_string_value (builder, test->code);
            }
        }
    }
  else if (progress.plan != NULL && (planned = next_planned (&progress)) != NULL)
    {
      gboolean prediction = g_strcmp0 (json_object_get_string_member_with_default (planned, "kind", ""),
                                       "prediction") == 0;

      tool = "askStudent";
      content = g_strdup (prediction ? _("A question about what your own code does.")
                                     : _("A question about your solution."));
      json_builder_set_member_name (builder, "item");
      json_builder_add_string_value (builder, json_object_get_string_member (planned, "item"));
      json_builder_set_member_name (builder, "question");
      json_builder_add_string_value (builder, prediction
                                     ? _("What does this call return on your code? Answer with a Python "
                                         "value, such as [1, 2] or 0.5, or say which exception it raises, "
                                         "such as “raises ValueError”.")
                                     : json_object_get_string_member_with_default (planned, "question", ""));
    }
  else if (!progress.asked)
    {
      tool = "askStudent";
      content = g_strdup (_("One question about your solution."));
      json_builder_set_member_name (builder, "question");
      json_builder_add_string_value (builder, viva_problem_get_n_questions (self->problem) > 0
                                              ? viva_problem_get_question (self->problem, 0)->question
                                              : _("Explain in your own words how your solution works, "
                                                  "and why it is correct."));
    }
  else
    {
      /* The verdict waits for the grade: see finish_reply(). */
      *grade_code = g_strdup (progress.code ? progress.code : "");
      *evidence = g_steal_pointer (&progress.evidence);
      return NULL;
    }

  json_builder_end_object (builder);
  arguments = to_json_text (builder);
  id = g_strdup_printf ("offline_%u", progress.n_assistant + 1);

  viva_chat_reply_take_content (reply, content);
  viva_chat_reply_add_tool_call (reply, viva_tool_call_new (id, tool, arguments));
  viva_chat_reply_set_finish_reason (reply, "tool_calls");

  return g_steal_pointer (&reply);
}

/* The last step: a verdict bound to the grade of the code it read. */
static VivaChatReply *
finish_reply (VivaScriptedModel *self,
              VivaGradeReport   *grade,
              GPtrArray         *evidence,
              guint              n_assistant)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(VivaChatReply) reply = viva_chat_reply_new ();
  g_autoptr(GString) failed = g_string_new (NULL);
  g_autofree char *comment = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *id = NULL;
  guint n_tests = viva_problem_get_n_tests (self->problem);
  guint total = grade ? viva_grade_report_get_n_tests (grade) : 0;
  guint passed = grade ? viva_grade_report_get_n_passed (grade) : 0;
  gboolean pass = n_tests > 0 && grade != NULL && viva_grade_report_get_passed (grade);
  int score = total > 0 ? (int)(100.0 * passed / total + 0.5) : 0;
  const char *recorded = _("Your answers are recorded for your teacher; the offline examiner "
                           "scores them only by matching their words, item by item.");

  for (guint i = 0; i < total; i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (grade, i);

      if (!test->passed)
        g_string_append_printf (failed, "%s“%s”", failed->len ? ", " : "", test->name);
    }

  if (n_tests == 0)
    comment = g_strdup_printf ("%s %s", _("This problem has no hidden tests, so the offline "
                                          "examiner cannot pass it; your teacher will grade it."),
                               recorded);
  else if (grade == NULL)
    comment = g_strdup_printf ("%s %s", _("The hidden tests could not be run, so the offline "
                                          "examiner cannot pass this defense."), recorded);
  else if (pass && passed == total && total == 1)
    comment = g_strdup_printf (_("The hidden test passed. %s"), recorded);
  else if (pass && passed == total)
    comment = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "All %u hidden test passed. %s",
                                            "All %u hidden tests passed. %s",
                                            total),
                               total, recorded);
  else
    comment = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u of %u hidden test passed; a pass needs all of them. Failed: %s. %s",
                                            "%u of %u hidden tests passed; a pass needs all of them. Failed: %s. %s",
                                            total),
                               passed, total, failed->len ? failed->str : "—", recorded);

  viva_chat_reply_set_model (reply, "viva-offline");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "verdict");
  json_builder_add_string_value (builder, pass ? "pass" : "fail");
  json_builder_set_member_name (builder, "score");
  json_builder_add_int_value (builder, score);
  json_builder_set_member_name (builder, "comment");
  json_builder_add_string_value (builder, comment);
  json_builder_set_member_name (builder, "evidence");
  json_builder_begin_array (builder);
  for (guint i = 0; evidence != NULL && i < evidence->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (evidence, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  arguments = to_json_text (builder);
  id = g_strdup_printf ("offline_%u", n_assistant + 1);
  viva_chat_reply_take_content (reply, g_strdup (_("That completes the defense.")));
  viva_chat_reply_add_tool_call (reply, viva_tool_call_new (id, "finishDefense", arguments));
  viva_chat_reply_set_finish_reason (reply, "tool_calls");

  return g_steal_pointer (&reply);
}

static void
emit_reply (VivaScriptedModel *self,
            VivaChatRequest   *request,
            VivaChatReply     *reply)
{
  GPtrArray *calls = viva_chat_reply_get_tool_calls (reply);
  VivaChatDelta delta = { 0 };

  if (viva_chat_reply_get_content (reply) != NULL)
    {
      delta.kind = VIVA_CHAT_DELTA_CONTENT;
      delta.text = viva_chat_reply_get_content (reply);
      viva_chat_model_emit_delta (VIVA_CHAT_MODEL (self), request, &delta);
    }

  for (guint i = 0; calls != NULL && i < calls->len; i++)
    {
      const VivaToolCall *call = g_ptr_array_index (calls, i);

      delta.kind = VIVA_CHAT_DELTA_TOOL_CALL;
      delta.index = i;
      delta.id = viva_tool_call_get_id (call);
      delta.name = viva_tool_call_get_name (call);
      delta.text = viva_tool_call_get_arguments (call);
      viva_chat_model_emit_delta (VIVA_CHAT_MODEL (self), request, &delta);
    }
}

/* One reply in flight: the source that sends it and the one that
 * notices a cancel, whichever runs first removes the other. */
typedef struct
{
  VivaChatRequest *request;
  GSource         *reply_source;
  GSource         *cancel_source;
  GPtrArray       *evidence;      /* while the last step waits for its grade */
  guint            n_assistant;
} Pending;

static void
pending_drop_sources (Pending *pending)
{
  if (pending->reply_source != NULL)
    g_source_destroy (pending->reply_source);
  if (pending->cancel_source != NULL)
    g_source_destroy (pending->cancel_source);
}

static void
pending_free (Pending *pending)
{
  pending_drop_sources (pending);
  g_clear_pointer (&pending->reply_source, g_source_unref);
  g_clear_pointer (&pending->cancel_source, g_source_unref);
  g_clear_pointer (&pending->request, viva_chat_request_unref);
  g_clear_pointer (&pending->evidence, g_ptr_array_unref);
  g_free (pending);
}

static guint
count_assistant (VivaChatRequest *request)
{
  GPtrArray *messages = viva_chat_request_get_messages (request);
  guint n = 0;

  for (guint i = 0; i < messages->len; i++)
    n += viva_chat_message_get_role (g_ptr_array_index (messages, i)) == VIVA_CHAT_ROLE_ASSISTANT;

  return n;
}

static void
grade_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaScriptedModel *self = g_task_get_source_object (task);
  Pending *pending = g_task_get_task_data (task);
  g_autoptr(VivaGradeReport) grade = NULL;
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  grade = viva_problem_grade_finish (VIVA_PROBLEM (object), result, &error);

  /* A cancel may have returned the task already. */
  if (g_task_had_error (task) || g_task_get_completed (task))
    return;
  if (g_task_return_error_if_cancelled (task))
    return;

  if (grade == NULL)
    g_debug ("offline examiner: grading failed: %s", error->message);

  reply = finish_reply (self, grade, pending->evidence, pending->n_assistant);
  emit_reply (self, pending->request, reply);
  g_task_return_pointer (task, g_steal_pointer (&reply), (GDestroyNotify)viva_chat_reply_unref);
}

static gboolean
reply_cb (gpointer user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);
  VivaScriptedModel *self = g_task_get_source_object (task);
  Pending *pending = g_task_get_task_data (task);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autofree char *code = NULL;

  /* Destroying a source drops its task reference: ours keeps it alive. */
  pending_drop_sources (pending);

  if (g_task_return_error_if_cancelled (task))
    return G_SOURCE_REMOVE;

  reply = decide (self, pending->request, &code, &pending->evidence);
  if (reply == NULL)
    {
      pending->n_assistant = count_assistant (pending->request);
      viva_problem_grade_async (self->problem, code, g_task_get_cancellable (task),
                                grade_cb, g_object_ref (task));
      return G_SOURCE_REMOVE;
    }

  emit_reply (self, pending->request, reply);
  g_task_return_pointer (task, g_steal_pointer (&reply), (GDestroyNotify)viva_chat_reply_unref);

  return G_SOURCE_REMOVE;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);
  Pending *pending = g_task_get_task_data (task);

  pending_drop_sources (pending);
  g_task_return_error_if_cancelled (task);

  return G_SOURCE_REMOVE;
}

static void
viva_scripted_model_stream_async (VivaChatModel       *model,
                                  VivaChatRequest     *request,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (model, cancellable, callback, user_data);
  GMainContext *context = g_main_context_get_thread_default ();
  Pending *pending = g_new0 (Pending, 1);

  g_task_set_source_tag (task, viva_scripted_model_stream_async);
  pending->request = viva_chat_request_ref (request);
  g_task_set_task_data (task, pending, (GDestroyNotify)pending_free);

  /* Deltas then the result from the main loop, as a streaming model does.
   * Not at idle priority: on a software renderer a spinner's frames can take
   * longer than their interval, and redraws (GDK_PRIORITY_REDRAW) would
   * starve an idle source for as long as the spinner turns, with the
   * defense stuck at its first step. */
  pending->reply_source = g_idle_source_new ();
  g_source_set_priority (pending->reply_source, G_PRIORITY_DEFAULT);
  g_source_set_callback (pending->reply_source, reply_cb, g_object_ref (task), g_object_unref);
  g_source_attach (pending->reply_source, context);

  /* Stop must not wait for the reply's turn: a cancel returns at once. */
  if (cancellable != NULL)
    {
      pending->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_priority (pending->cancel_source, G_PRIORITY_DEFAULT);
      g_source_set_callback (pending->cancel_source, G_SOURCE_FUNC (cancelled_cb),
                             g_object_ref (task), g_object_unref);
      g_source_attach (pending->cancel_source, context);
    }
}

static VivaChatReply *
viva_scripted_model_stream_finish (VivaChatModel  *model,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, model), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
chat_model_iface_init (VivaChatModelInterface *iface)
{
  iface->stream_async = viva_scripted_model_stream_async;
  iface->stream_finish = viva_scripted_model_stream_finish;
}

static void
viva_scripted_model_dispose (GObject *object)
{
  VivaScriptedModel *self = (VivaScriptedModel *)object;

  g_clear_object (&self->problem);

  G_OBJECT_CLASS (viva_scripted_model_parent_class)->dispose (object);
}

/* VivaChatModel:busy, its only property: it answers at once, never busy. */
static void
viva_scripted_model_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  g_value_set_boolean (value, FALSE);
}

static void
viva_scripted_model_class_init (VivaScriptedModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_scripted_model_dispose;
  object_class->get_property = viva_scripted_model_get_property;

  g_object_class_override_property (object_class, 1, "busy");
}

static void
viva_scripted_model_init (VivaScriptedModel *self)
{
}

/**
 * viva_scripted_model_new:
 * @problem: the problem whose hidden tests and questions it plays
 *
 * Returns: (transfer full): the offline examiner for @problem
 */
VivaScriptedModel *
viva_scripted_model_new (VivaProblem *problem)
{
  VivaScriptedModel *self;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);

  self = g_object_new (VIVA_TYPE_SCRIPTED_MODEL, NULL);
  self->problem = g_object_ref (problem);

  return self;
}

VivaProblem *
viva_scripted_model_get_problem (VivaScriptedModel *self)
{
  g_return_val_if_fail (VIVA_IS_SCRIPTED_MODEL (self), NULL);

  return self->problem;
}
