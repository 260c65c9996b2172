/* viva-problem-generator.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-pack-private.h"
#include "viva-problem-generator-private.h"
#include "viva-text.h"
#include "viva-tool-call.h"

/* A small graph: draft → check → (retry → check)* → stop. The model is
 * asked for one problem as JSON (with a JSON schema where the server takes
 * one); the reply is checked the way a careful teaching assistant would —
 * fields, compiling, the reference passing, the starter failing, a hint
 * that does not give the code away — and what failed goes back to the
 * model, at most max-retries times. The result is always a draft for a
 * teacher to approve: one that still fails is returned marked failing with
 * the last errors, never dropped and never added anywhere. Only the model
 * not answering at all is an error. */

#define PROMPT_RESOURCE RESOURCE_PREFIX "/core/prompts/generator.md"

struct _VivaProblemGenerator
{
  GObject          parent_instance;
  VivaChatModel   *model;
  VivaPackChecker *checker;
  GPtrArray       *checks;        /* of the attempt being checked */
  guint            max_retries;
  guint            busy : 1;
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_RUNNER,
  PROP_MAX_RETRIES,
  PROP_BUSY,
  N_PROPS
};

enum {
  PROGRESS,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (VivaProblemGenerator, viva_problem_generator, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

const char *
viva_generator_stage_to_string (VivaGeneratorStage stage)
{
  static const char * const names[] = { "drafting", "checking", "retrying", "passed", "failed" };

  g_return_val_if_fail (stage <= VIVA_GENERATOR_STAGE_FAILED, NULL);
  return names[stage];
}

static void
checked_cb (VivaPackChecker      *checker,
            const VivaPackCheck  *check,
            VivaProblemGenerator *self)
{
  g_ptr_array_add (self->checks, viva_pack_check_copy (check));
}

static void
viva_problem_generator_dispose (GObject *object)
{
  VivaProblemGenerator *self = (VivaProblemGenerator *)object;

  if (self->checker != NULL)
    g_signal_handlers_disconnect_by_func (self->checker, checked_cb, self);
  g_clear_object (&self->checker);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (viva_problem_generator_parent_class)->dispose (object);
}

static void
viva_problem_generator_finalize (GObject *object)
{
  VivaProblemGenerator *self = (VivaProblemGenerator *)object;

  g_clear_pointer (&self->checks, g_ptr_array_unref);

  G_OBJECT_CLASS (viva_problem_generator_parent_class)->finalize (object);
}

static void
viva_problem_generator_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  VivaProblemGenerator *self = VIVA_PROBLEM_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, viva_problem_generator_get_model (self));
      break;

    case PROP_RUNNER:
      g_value_set_object (value, viva_problem_generator_get_runner (self));
      break;

    case PROP_MAX_RETRIES:
      g_value_set_uint (value, viva_problem_generator_get_max_retries (self));
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, viva_problem_generator_get_busy (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_problem_generator_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  VivaProblemGenerator *self = VIVA_PROBLEM_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      self->model = g_value_dup_object (value);
      break;

    case PROP_RUNNER:
      self->checker = viva_pack_checker_new (g_value_get_object (value));
      g_signal_connect (self->checker, "checked", G_CALLBACK (checked_cb), self);
      break;

    case PROP_MAX_RETRIES:
      viva_problem_generator_set_max_retries (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_problem_generator_class_init (VivaProblemGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_problem_generator_dispose;
  object_class->finalize = viva_problem_generator_finalize;
  object_class->get_property = viva_problem_generator_get_property;
  object_class->set_property = viva_problem_generator_set_property;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, VIVA_TYPE_CHAT_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNER] =
    g_param_spec_object ("runner", NULL, NULL, VIVA_TYPE_RUNNER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAX_RETRIES] =
    g_param_spec_uint ("max-retries", NULL, NULL, 0, 10, VIVA_GENERATOR_DEFAULT_MAX_RETRIES,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaProblemGenerator::progress:
   * @stage: a #VivaGeneratorStage
   * @attempt: the attempt, from 1; attempt 2 is the first retry
   * @message: a translated sentence for the teacher
   *
   * Each step of the graph as it starts.
   */
  signals[PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_UINT, G_TYPE_STRING);
}

static void
viva_problem_generator_init (VivaProblemGenerator *self)
{
  self->max_retries = VIVA_GENERATOR_DEFAULT_MAX_RETRIES;
  self->checks = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_pack_check_free);
}

/**
 * viva_problem_generator_new:
 * @model: where drafts come from
 * @runner: (nullable): the worker the checks run in; %NULL for a new one
 *
 * Returns: (transfer full): a generator
 */
VivaProblemGenerator *
viva_problem_generator_new (VivaChatModel *model,
                            VivaRunner    *runner)
{
  g_return_val_if_fail (VIVA_IS_CHAT_MODEL (model), NULL);
  g_return_val_if_fail (runner == NULL || VIVA_IS_RUNNER (runner), NULL);

  return g_object_new (VIVA_TYPE_PROBLEM_GENERATOR, "model", model, "runner", runner, NULL);
}

/**
 * viva_problem_generator_get_model:
 *
 * Returns: (transfer none): the model
 */
VivaChatModel *
viva_problem_generator_get_model (VivaProblemGenerator *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_GENERATOR (self), NULL);
  return self->model;
}

/**
 * viva_problem_generator_get_runner:
 *
 * Returns: (transfer none): the worker the checks run in
 */
VivaRunner *
viva_problem_generator_get_runner (VivaProblemGenerator *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_GENERATOR (self), NULL);
  return viva_pack_checker_get_runner (self->checker);
}

guint
viva_problem_generator_get_max_retries (VivaProblemGenerator *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_GENERATOR (self), 0);
  return self->max_retries;
}

/**
 * viva_problem_generator_set_max_retries:
 * @max_retries: how many times a failing draft goes back to the model
 */
void
viva_problem_generator_set_max_retries (VivaProblemGenerator *self,
                                        guint                 max_retries)
{
  g_return_if_fail (VIVA_IS_PROBLEM_GENERATOR (self));

  if (self->max_retries == max_retries)
    return;

  self->max_retries = max_retries;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_RETRIES]);
}

/**
 * viva_problem_generator_get_busy:
 *
 * Returns: %TRUE while a generation runs
 */
gboolean
viva_problem_generator_get_busy (VivaProblemGenerator *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_GENERATOR (self), FALSE);
  return self->busy;
}

static void
set_busy (VivaProblemGenerator *self,
          gboolean              busy)
{
  if (self->busy == !!busy)
    return;

  self->busy = !!busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
replace (GString    *text,
         const char *placeholder,
         const char *value)
{
  g_string_replace (text, placeholder, value, 0);
}

/**
 * viva_problem_generator_build_prompt:
 *
 * Returns: (transfer full): `prompts/generator.md` filled with what the
 *   teacher asked for in @draft
 */
char *
viva_problem_generator_build_prompt (VivaProblemDraft *draft)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  GString *text;
  const char *difficulty;
  const char *language;

  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (draft), NULL);

  /* The prompt is compiled in: failing to find it is a broken build. */
  bytes = g_resources_lookup_data (PROMPT_RESOURCE, 0, &error);
  g_assert_no_error (error);

  text = g_string_new_len (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  difficulty = viva_problem_draft_get_difficulty (draft);
  language = viva_problem_draft_get_language (draft);
  replace (text, "{{type}}", viva_problem_type_to_string (viva_problem_draft_get_problem_type (draft)));
  replace (text, "{{difficulty}}", difficulty ? difficulty : "your choice, for a first-year course");
  replace (text, "{{language}}", language ? language : "English");
  /* Last, so a topic that says "{{type}}" stays as written. */
  replace (text, "{{topic}}", viva_problem_draft_get_topic (draft));

  return g_string_free (text, FALSE);
}

typedef struct
{
  VivaProblemDraft *draft;
  GPtrArray        *messages;   /* VivaChatMessage: the conversation so far */
  guint             attempt;    /* model calls made, from 1 */
  gboolean          use_schema;
  char             *raw;        /* the last reply */
  VivaProblem      *problem;    /* the last reply that was a problem */
  GPtrArray        *issues;     /* of the last attempt */
  GPtrArray        *compile;    /* (path, code) pairs still to compile */
  gboolean          compile_failed;
} GenerateData;

static void
generate_data_free (gpointer data)
{
  GenerateData *gd = data;

  g_clear_object (&gd->draft);
  g_clear_pointer (&gd->messages, g_ptr_array_unref);
  g_clear_pointer (&gd->raw, g_free);
  g_clear_object (&gd->problem);
  g_clear_pointer (&gd->issues, g_ptr_array_unref);
  g_clear_pointer (&gd->compile, g_ptr_array_unref);
  g_free (gd);
}

static void
progress (GTask              *task,
          VivaGeneratorStage  stage,
          const char         *message)
{
  VivaProblemGenerator *self = g_task_get_source_object (task);
  GenerateData *gd = g_task_get_task_data (task);

  g_signal_emit (self, signals[PROGRESS], 0, (int)stage, gd->attempt, message);
}

static void
generate_fail (GTask  *task,
               GError *error)
{
  g_autoptr(GTask) owned = task;
  VivaProblemGenerator *self = g_task_get_source_object (task);

  set_busy (self, FALSE);
  g_task_return_error (owned, error);
}

static void
generate_finish_draft (GTask *task)
{
  g_autoptr(GTask) owned = task;
  VivaProblemGenerator *self = g_task_get_source_object (task);
  GenerateData *gd = g_task_get_task_data (task);

  _viva_problem_draft_set_result (gd->draft, gd->problem, gd->raw, gd->attempt,
                                  gd->issues, self->checks);
  set_busy (self, FALSE);
  g_task_return_pointer (owned, g_object_ref (gd->draft), g_object_unref);
}

static void ask (GTask *task);

/* The end of the checks: passed, or back to the model, or out of retries. */
static void
checks_done (GTask *task)
{
  VivaProblemGenerator *self = g_task_get_source_object (task);
  GenerateData *gd = g_task_get_task_data (task);
  g_autoptr(GString) feedback = NULL;
  g_autoptr(VivaChatMessage) message = NULL;
  g_autofree char *text = NULL;
  guint n_errors;

  if (gd->problem != NULL && viva_pack_issues_count_errors (gd->issues) == 0)
    {
      text = g_strdup_printf (_("Attempt %u passed every check."), gd->attempt);
      progress (task, VIVA_GENERATOR_STAGE_PASSED, text);
      return generate_finish_draft (task);
    }

  if (gd->attempt > self->max_retries)
    {
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "The draft still fails after %u retry; it is kept, marked as failing.",
                                           "The draft still fails after %u retries; it is kept, marked as failing.",
                                           self->max_retries),
                              self->max_retries);
      progress (task, VIVA_GENERATOR_STAGE_FAILED, text);
      return generate_finish_draft (task);
    }

  /* The model gets what failed in the words a person would read, with the
   * field each error is about. */
  feedback = g_string_new ("Your problem failed these checks:\n");
  for (guint i = 0; i < gd->issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (gd->issues, i);

      if (issue->level != VIVA_PACK_ISSUE_ERROR)
        continue;
      if (issue->path[0] != '\0')
        g_string_append_printf (feedback, "- %s: %s\n", issue->path, issue->message);
      else
        g_string_append_printf (feedback, "- %s\n", issue->message);
    }
  g_string_append (feedback, "Fix them and send the whole corrected problem again as one JSON object, nothing else.");

  message = viva_chat_message_new_user (feedback->str);
  g_ptr_array_add (gd->messages, g_steal_pointer (&message));
  n_errors = viva_pack_issues_count_errors (gd->issues);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Attempt %u failed %u check; asking the model to fix it.",
                                       "Attempt %u failed %u checks; asking the model to fix them.",
                                       n_errors),
                          gd->attempt, n_errors);
  progress (task, VIVA_GENERATOR_STAGE_RETRYING, text);

  ask (task);
}

static void
run_checks_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GenerateData *gd = g_task_get_task_data (task);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return set_busy (g_task_get_source_object (task), FALSE);

  if (!(issues = viva_pack_checker_check_finish (VIVA_PACK_CHECKER (object), result, &error)))
    return generate_fail (g_steal_pointer (&task), g_steal_pointer (&error));

  _viva_problem_generator_add_issues (gd->issues, issues);
  checks_done (g_steal_pointer (&task));
}

static void compile_next (GTask *task);

static void
compile_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GenerateData *gd = g_task_get_task_data (task);
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  const char *path;

  if (g_task_return_error_if_cancelled (task))
    return set_busy (g_task_get_source_object (task), FALSE);

  if (!(run = viva_runner_check_finish (VIVA_RUNNER (object), result, &error)))
    return generate_fail (g_steal_pointer (&task), g_steal_pointer (&error));

  path = g_ptr_array_index (gd->compile, 0);
  if (viva_run_result_get_status (run) != VIVA_RUN_STATUS_OK)
    viva_pack_issues_add (gd->issues, VIVA_PACK_ERROR_INVALID, VIVA_PACK_ISSUE_ERROR, path,
                          _("does not compile: %s: %s (line %d)"),
                          viva_run_result_get_error_type (run) ?: "SyntaxError",
                          viva_run_result_get_error_message (run) ?: "",
                          viva_run_result_get_error_line (run));

  gd->compile_failed |= viva_run_result_get_status (run) != VIVA_RUN_STATUS_OK;
  g_ptr_array_remove_range (gd->compile, 0, 2);
  compile_next (g_steal_pointer (&task));
}

static void
compile_next (GTask *task)
{
  VivaProblemGenerator *self = g_task_get_source_object (task);
  GenerateData *gd = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (gd->compile->len > 0)
    return viva_runner_check_async (viva_pack_checker_get_runner (self->checker),
                                    g_ptr_array_index (gd->compile, 1),
                                    cancellable, compile_cb, task);

  /* Running code that does not compile would only repeat the error. */
  if (gd->compile_failed)
    return checks_done (task);

  viva_pack_checker_check_problem_async (self->checker, gd->problem, 0, cancellable,
                                         run_checks_cb, task);
}

static void
check_reply (GTask *task)
{
  VivaProblemGenerator *self = g_task_get_source_object (task);
  GenerateData *gd = g_task_get_task_data (task);
  g_autofree char *message = g_strdup_printf (_("Checking attempt %u…"), gd->attempt);
  g_autoptr(VivaProblem) problem = NULL;

  progress (task, VIVA_GENERATOR_STAGE_CHECKING, message);
  g_ptr_array_set_size (gd->issues, 0);
  g_ptr_array_set_size (self->checks, 0);

  problem = _viva_problem_generator_read_reply (gd->raw, viva_problem_draft_get_problem_type (gd->draft),
                                                gd->issues);
  if (problem == NULL)
    return checks_done (task);

  g_set_object (&gd->problem, problem);
  g_clear_pointer (&gd->compile, g_ptr_array_unref);
  gd->compile = _viva_problem_generator_pieces (problem);
  gd->compile_failed = FALSE;
  compile_next (task);
}

/* What the model answered, as text to read as a draft. Some servers send
 * the JSON as a tool call's arguments when a schema is asked for, and a
 * thinking model may answer only in its reasoning: what the teacher is
 * shown as the model's last reply is never empty when it said anything. */
static char *
reply_text (VivaChatReply *reply)
{
  const char *content = viva_chat_reply_get_content (reply);
  GPtrArray *calls = viva_chat_reply_get_tool_calls (reply);
  const char *reasoning = viva_chat_reply_get_reasoning (reply);

  if (content != NULL && !viva_text_is_blank (content))
    return g_strdup (content);

  for (guint i = 0; calls != NULL && i < calls->len; i++)
    {
      const char *arguments = viva_tool_call_get_arguments (g_ptr_array_index (calls, i));

      if (arguments != NULL && !viva_text_is_blank (arguments))
        return g_strdup (arguments);
    }

  if (reasoning != NULL && !viva_text_is_blank (reasoning))
    return g_strdup (reasoning);

  return g_strdup ("");
}

static void
reply_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GenerateData *gd = g_task_get_task_data (task);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(VivaChatMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return set_busy (g_task_get_source_object (task), FALSE);

  if (!(reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (object), result, &error)))
    {
      /* A server without structured output may refuse the schema; the
       * prompt alone asks for JSON, so ask again without it. */
      if (gd->use_schema && g_error_matches (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BAD_REQUEST))
        {
          g_debug ("generator: the server refused the response schema (%s); asking without it",
                   error->message);
          gd->use_schema = FALSE;
          gd->attempt--;
          return ask (g_steal_pointer (&task));
        }

      return generate_fail (g_steal_pointer (&task), g_steal_pointer (&error));
    }

  g_free (gd->raw);
  gd->raw = reply_text (reply);
  message = viva_chat_message_new_assistant (gd->raw, NULL);
  g_ptr_array_add (gd->messages, g_steal_pointer (&message));

  check_reply (g_steal_pointer (&task));
}

static void
ask (GTask *task)
{
  VivaProblemGenerator *self = g_task_get_source_object (task);
  GenerateData *gd = g_task_get_task_data (task);
  g_autoptr(VivaChatRequest) request = viva_chat_request_new ();
  g_autofree char *message = NULL;

  gd->attempt++;
  message = gd->attempt == 1
    ? g_strdup (_("Asking the model for a draft…"))
    : g_strdup_printf (_("Asking the model for attempt %u of %u…"), gd->attempt, self->max_retries + 1);
  progress (task, VIVA_GENERATOR_STAGE_DRAFTING, message);

  for (guint i = 0; i < gd->messages->len; i++)
    viva_chat_request_add_message (request, g_ptr_array_index (gd->messages, i));

  if (gd->use_schema)
    {
      g_autoptr(JsonNode) schema = _viva_problem_generator_response_schema ();

      viva_chat_request_set_response_schema (request, "viva_problem", schema);
    }

  viva_chat_model_stream_async (self->model, request, g_task_get_cancellable (task),
                                reply_cb, task);
}

/**
 * viva_problem_generator_generate_async:
 * @draft: what the teacher asked for (viva_problem_draft_new()); its result
 *   is filled in
 *
 * Drafts a problem with the model, checks it, and feeds what failed back
 * up to #VivaProblemGenerator:max-retries times, emitting ::progress at
 * each step. One generation at a time.
 */
void
viva_problem_generator_generate_async (VivaProblemGenerator *self,
                                       VivaProblemDraft     *draft,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(VivaChatMessage) system = NULL;
  g_autoptr(VivaChatMessage) user = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *ask_text = NULL;
  GenerateData *gd;

  g_return_if_fail (VIVA_IS_PROBLEM_GENERATOR (self));
  g_return_if_fail (VIVA_IS_PROBLEM_DRAFT (draft));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_problem_generator_generate_async);

  if (self->busy)
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_BUSY,
                                    _("A problem is being drafted already; wait for it to finish."));

  gd = g_new0 (GenerateData, 1);
  gd->draft = g_object_ref (draft);
  gd->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_chat_message_unref);
  gd->issues = viva_pack_issues_new ();
  gd->use_schema = TRUE;
  g_task_set_task_data (task, gd, generate_data_free);

  prompt = viva_problem_generator_build_prompt (draft);
  system = viva_chat_message_new_system (prompt);
  ask_text = g_strdup_printf ("Write the problem about: %s", viva_problem_draft_get_topic (draft));
  user = viva_chat_message_new_user (ask_text);
  g_ptr_array_add (gd->messages, g_steal_pointer (&system));
  g_ptr_array_add (gd->messages, g_steal_pointer (&user));

  set_busy (self, TRUE);
  ask (g_steal_pointer (&task));
}

/**
 * viva_problem_generator_generate_finish:
 *
 * Returns: (transfer full): the draft, passed or marked failing with the
 *   last attempt's errors; %NULL with @error set only when the model
 *   could not be asked (unreachable, no model, cancelled) or the checks
 *   could not run
 */
VivaProblemDraft *
viva_problem_generator_generate_finish (VivaProblemGenerator  *self,
                                        GAsyncResult          *result,
                                        GError               **error)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM_GENERATOR (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
