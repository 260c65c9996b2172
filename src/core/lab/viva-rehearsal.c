/* viva-rehearsal.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "viva-exam-item.h"
#include "viva-exam-model.h"
#include "viva-openai-model.h"
#include "viva-rehearsal.h"
#include "viva-rehearsal-private.h"
#include "viva-runner.h"
#include "viva-scripted-student.h"
#include "viva-settings.h"

/* A lab's exam, before the exam: N scripted students defend at once
 * against the lab's model server, each with a client of its own as every
 * PC has, and what they waited for is measured (VivaMeasuredModel). It
 * asks the server for its models first, so a wrong address is said in one
 * line before any student starts; a server that fails half-way makes
 * failed defenses with their reasons, and the rehearsal still ends with
 * its figures; cancelling ends the defenses and reports what finished.
 *
 * Python workers are shared: students who submit the same code share one
 * (prime and probes are self-contained, and their globals are the same),
 * and one worker per problem checks probes against the reference. So a
 * rehearsal of 64 students on four problems needs 12 workers, not 128. */

typedef struct
{
  VivaRehearsal       *rehearsal;
  guint                index;
  VivaProblem         *problem;
  VivaStudentVariant   variant;
  VivaRunner          *runner;
  VivaRunner          *reference_runner;

  VivaScriptedStudent *student;
  VivaOpenAIModel     *model;
  VivaMeasuredModel   *measured;
  VivaExaminer        *examiner;
  VivaRehearsalTurns   turns;
  gint64               started;
  gulong               busy_id;
  gboolean             busy;
} Student;

G_DEFINE_FINAL_TYPE (VivaRehearsal, viva_rehearsal, G_TYPE_OBJECT)

enum {
  DEFENSE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
failure_free (Failure *failure)
{
  g_free (failure->reason);
  g_free (failure->kind);
  g_free (failure);
}

static void
student_end_defense (Student *student)
{
  g_clear_signal_handler (&student->busy_id, student->model);
  if (student->busy)
    {
      student->busy = FALSE;
      student->rehearsal->n_busy--;
    }
  g_clear_object (&student->examiner);
  g_clear_object (&student->measured);
  g_clear_object (&student->model);
  g_clear_object (&student->student);
  _viva_rehearsal_turns_clear (&student->turns);
}

static void
student_free (Student *student)
{
  student_end_defense (student);
  g_clear_object (&student->problem);
  g_clear_object (&student->runner);
  g_clear_object (&student->reference_runner);
  g_free (student);
}

static void
viva_rehearsal_finalize (GObject *object)
{
  VivaRehearsal *self = (VivaRehearsal *)object;

  g_clear_pointer (&self->students, g_ptr_array_unref);
  g_clear_pointer (&self->runners, g_hash_table_unref);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->failures, g_ptr_array_unref);
  g_clear_pointer (&self->ttft_ms, g_array_unref);
  g_clear_pointer (&self->turn_ms, g_array_unref);
  g_clear_pointer (&self->defense_s, g_array_unref);
  g_clear_pointer (&self->answer_program, g_strfreev);
  g_free (self->base_url);
  g_free (self->model);

  G_OBJECT_CLASS (viva_rehearsal_parent_class)->finalize (object);
}

static void
viva_rehearsal_class_init (VivaRehearsalClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_rehearsal_finalize;

  /**
   * VivaRehearsal::defense:
   * @object: one finished defense's figures (see the CLI's `defense` event)
   *
   * Emitted as each defense ends, completed, failed or cancelled.
   */
  signals[DEFENSE] =
    g_signal_new ("defense", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, JSON_TYPE_OBJECT);
}

static void
viva_rehearsal_init (VivaRehearsal *self)
{
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
  self->students = g_ptr_array_new_with_free_func ((GDestroyNotify)student_free);
  self->runners = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->failures = g_ptr_array_new_with_free_func ((GDestroyNotify)failure_free);
  self->ttft_ms = g_array_new (FALSE, FALSE, sizeof (double));
  self->turn_ms = g_array_new (FALSE, FALSE, sizeof (double));
  self->defense_s = g_array_new (FALSE, FALSE, sizeof (double));
}

/**
 * viva_rehearsal_new:
 * @base_url: the lab's endpoint, the only place anything is sent
 * @model: (nullable): the model, or %NULL for the endpoint's first
 * @n_students: how many defend at once
 *
 * Returns: (transfer full): a rehearsal; add problems before running it
 */
VivaRehearsal *
viva_rehearsal_new (const char *base_url,
                    const char *model,
                    guint       n_students)
{
  VivaRehearsal *self;

  g_return_val_if_fail (base_url != NULL, NULL);
  g_return_val_if_fail (n_students > 0, NULL);

  self = g_object_new (VIVA_TYPE_REHEARSAL, NULL);
  self->base_url = g_strdup (base_url);
  self->model = model != NULL && *model != '\0' ? g_strdup (model) : NULL;
  self->n_students = n_students;

  return self;
}

/* Students take the problems in turn: student i defends problem i mod P. */
void
viva_rehearsal_add_problem (VivaRehearsal *self,
                            VivaProblem   *problem)
{
  g_return_if_fail (VIVA_IS_REHEARSAL (self));
  g_return_if_fail (VIVA_IS_PROBLEM (problem));

  g_ptr_array_add (self->problems, g_object_ref (problem));
}

/* 0 (the default): one defense each. Otherwise each student starts a new
 * defense when one ends, until @seconds have passed. */
void
viva_rehearsal_set_duration (VivaRehearsal *self,
                             guint          seconds)
{
  g_return_if_fail (VIVA_IS_REHEARSAL (self));

  self->duration = seconds;
}

/* The clients' first retry delay (0: as configured). For tests. */
void
viva_rehearsal_set_retry_delay (VivaRehearsal *self,
                                guint          delay_ms)
{
  g_return_if_fail (VIVA_IS_REHEARSAL (self));

  self->retry_delay = delay_ms;
}

/**
 * viva_rehearsal_set_answer_program:
 * @argv: (array zero-terminated=1) (nullable): a program every student
 *   answers through, as `viva-cli defend --answer-with` runs it; %NULL for
 *   the canned answers
 */
void
viva_rehearsal_set_answer_program (VivaRehearsal      *self,
                                   const char * const *argv)
{
  g_return_if_fail (VIVA_IS_REHEARSAL (self));

  g_clear_pointer (&self->answer_program, g_strfreev);
  self->answer_program = argv ? g_strdupv ((char **)argv) : NULL;
}

/* The model in use: as given, or once running, the endpoint's first. */
const char *
viva_rehearsal_get_model (VivaRehearsal *self)
{
  g_return_val_if_fail (VIVA_IS_REHEARSAL (self), NULL);
  return self->model;
}

guint
viva_rehearsal_get_n_students (VivaRehearsal *self)
{
  g_return_val_if_fail (VIVA_IS_REHEARSAL (self), 0);
  return self->n_students;
}

guint
viva_rehearsal_get_n_running (VivaRehearsal *self)
{
  g_return_val_if_fail (VIVA_IS_REHEARSAL (self), 0);
  return self->n_running;
}

guint
viva_rehearsal_get_n_completed (VivaRehearsal *self)
{
  g_return_val_if_fail (VIVA_IS_REHEARSAL (self), 0);
  return self->n_completed;
}

guint
viva_rehearsal_get_n_failed (VivaRehearsal *self)
{
  g_return_val_if_fail (VIVA_IS_REHEARSAL (self), 0);
  return self->n_failed;
}

/* Defenses whose client waits for a busy server right now. */
guint
viva_rehearsal_get_n_busy (VivaRehearsal *self)
{
  g_return_val_if_fail (VIVA_IS_REHEARSAL (self), 0);
  return self->n_busy;
}

guint
viva_rehearsal_get_n_workers (VivaRehearsal *self)
{
  g_return_val_if_fail (VIVA_IS_REHEARSAL (self), 0);
  return g_hash_table_size (self->runners);
}

/* The end. */

static void
finish (VivaRehearsal *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  GHashTableIter iter;
  gpointer runner;

  g_hash_table_iter_init (&iter, self->runners);
  while (g_hash_table_iter_next (&iter, NULL, &runner))
    viva_runner_stop (runner);

  if (self->cancelled_id != 0)
    g_cancellable_disconnect (g_task_get_cancellable (task), self->cancelled_id);
  self->cancelled_id = 0;

  g_task_return_pointer (task, _viva_rehearsal_summary (self, g_cancellable_is_cancelled (self->cancellable)),
                         (GDestroyNotify)json_object_unref);
}

static void start_defense (Student *student);

static void
defense_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Student *student = user_data;
  VivaRehearsal *self = student->rehearsal;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) event = json_object_new ();
  double seconds = (g_get_monotonic_time () - student->started) / (double)G_USEC_PER_SEC;
  guint retries = viva_openai_model_get_n_retries (student->model);
  const char *status;

  verdict = viva_scripted_student_defend_finish (VIVA_SCRIPTED_STUDENT (object), result, &error);

  if (verdict != NULL && viva_exam_verdict_get_status (verdict) != VIVA_EXAM_STATUS_FINISHED)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_FAILED,
                         viva_exam_verdict_get_reason (verdict) != NULL
                         ? viva_exam_verdict_get_reason (verdict)
                         : _("The defense ended without a verdict."));

  if (error == NULL)
    {
      status = "completed";
      self->n_completed++;
      g_array_append_val (self->defense_s, seconds);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      status = "cancelled";
      self->n_cancelled++;
    }
  else
    {
      status = "failed";
      self->n_failed++;
      _viva_rehearsal_count_failure (self, error->message, viva_model_error_kind (error));
    }

  self->n_defenses++;
  self->tokens += student->turns.tokens;
  self->turns += student->turns.turn_ms->len;
  self->retries += retries;
  self->largest_prompt = MAX (self->largest_prompt, student->turns.largest_prompt);
  g_array_append_vals (self->ttft_ms, student->turns.ttft_ms->data, student->turns.ttft_ms->len);
  g_array_append_vals (self->turn_ms, student->turns.turn_ms->data, student->turns.turn_ms->len);

  json_object_set_int_member (event, "student", student->index);
  json_object_set_string_member (event, "problem", viva_problem_get_id (student->problem));
  json_object_set_string_member (event, "variant", viva_student_variant_to_string (student->variant));
  json_object_set_string_member (event, "status", status);
  if (error == NULL)
    {
      GPtrArray *items = viva_exam_verdict_get_items (verdict);
      JsonArray *array = json_array_new ();

      json_object_set_string_member (event, "verdict", viva_exam_verdict_get_model_passed (verdict) ? "pass" : "fail");
      /* The score built from items, and the items: what a scripted
       * student's answers earned (lab rehearse --answer-with). */
      json_object_set_double_member (event, "points", _viva_rehearsal_rounded (viva_exam_verdict_get_points (verdict), 1));
      for (guint i = 0; items != NULL && i < items->len; i++)
        json_array_add_object_element (array, viva_exam_item_to_json (g_ptr_array_index (items, i)));
      json_object_set_array_member (event, "items", array);
    }
  else
    json_object_set_null_member (event, "verdict");
  json_object_set_int_member (event, "turns", student->turns.turn_ms->len);
  json_object_set_double_member (event, "duration_s", _viva_rehearsal_rounded (seconds, 1));
  json_object_set_object_member (event, "ttft_ms", _viva_rehearsal_percentiles (student->turns.ttft_ms, 1, 0));
  json_object_set_object_member (event, "turn_ms", _viva_rehearsal_percentiles (student->turns.turn_ms, 1, 0));
  json_object_set_int_member (event, "tokens", student->turns.tokens);
  json_object_set_double_member (event, "tokens_per_s",
                                 student->turns.generating_s > 0
                                 ? _viva_rehearsal_rounded (student->turns.tokens / student->turns.generating_s, 1) : 0);
  json_object_set_int_member (event, "retries", retries);
  json_object_set_int_member (event, "largest_prompt_tokens", student->turns.largest_prompt);
  if (error != NULL && !g_str_equal (status, "cancelled"))
    {
      JsonObject *failure = json_object_new ();

      json_object_set_string_member (failure, "kind", viva_model_error_kind (error));
      json_object_set_string_member (failure, "message", error->message);
      json_object_set_object_member (event, "error", failure);
    }

  student_end_defense (student);
  self->n_running--;

  g_signal_emit (self, signals[DEFENSE], 0, event);

  if (self->duration > 0 && !g_cancellable_is_cancelled (self->cancellable) &&
      g_get_monotonic_time () - self->started < (gint64)self->duration * G_USEC_PER_SEC)
    return start_defense (student);

  if (self->n_running == 0)
    finish (self);
}

static void
on_busy (VivaOpenAIModel *model,
         GParamSpec      *pspec,
         Student         *student)
{
  gboolean busy = viva_openai_model_get_busy (model);

  if (busy == student->busy)
    return;

  student->busy = busy;
  if (busy)
    student->rehearsal->n_busy++;
  else
    student->rehearsal->n_busy--;
}

static void
start_defense (Student *student)
{
  VivaRehearsal *self = student->rehearsal;

  student->student = viva_scripted_student_new (student->problem, student->variant);
  viva_scripted_student_set_answer_program (student->student, (const char * const *)self->answer_program);
  /* One client per student, as every PC has its own, with the timeouts
   * the settings give (so a lab's own settings are what is rehearsed). */
  student->model = viva_exam_model_new_for_endpoint (viva_settings_get_default (),
                                                     self->base_url, self->model);
  if (self->retry_delay > 0)
    viva_openai_model_set_retry_delay (student->model, self->retry_delay);
  student->busy_id = g_signal_connect (student->model, "notify::busy", G_CALLBACK (on_busy), student);

  _viva_rehearsal_turns_init (&student->turns);
  student->measured = _viva_measured_model_new (VIVA_CHAT_MODEL (student->model), &student->turns);
  student->examiner = viva_scripted_student_new_examiner (student->student, VIVA_CHAT_MODEL (student->measured));
  viva_examiner_set_runner (student->examiner, student->runner);
  viva_examiner_set_reference_runner (student->examiner, student->reference_runner);

  student->started = g_get_monotonic_time ();
  self->n_running++;
  viva_scripted_student_defend_async (student->student, student->examiner, self->cancellable,
                                      defense_cb, student);
}

static void
start_students (VivaRehearsal *self)
{
  self->started = g_get_monotonic_time ();

  for (guint i = 0; i < self->students->len; i++)
    start_defense (g_ptr_array_index (self->students, i));
}

static void
runner_started_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(VivaRehearsal) self = user_data;
  g_autoptr(GError) error = NULL;

  self->n_starting--;

  if (!viva_runner_start_finish (VIVA_RUNNER (object), result, &error) && self->task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->task);

      if (self->cancelled_id != 0)
        g_cancellable_disconnect (g_task_get_cancellable (task), self->cancelled_id);
      self->cancelled_id = 0;
      g_cancellable_cancel (self->cancellable);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return g_task_return_error (task, g_steal_pointer (&error));
      return g_task_return_new_error (task, error->domain, error->code,
                                      _("The Python worker the students need could not start: %s"),
                                      error->message);
    }

  if (self->n_starting == 0 && self->task != NULL)
    start_students (self);
}

static VivaRunner *
shared_runner (VivaRehearsal *self,
               const char    *key)
{
  VivaRunner *runner = g_hash_table_lookup (self->runners, key);

  if (runner == NULL)
    {
      runner = viva_runner_new ();
      g_hash_table_insert (self->runners, g_strdup (key), runner);
      self->n_starting++;
      viva_runner_start_async (runner, self->cancellable, runner_started_cb, g_object_ref (self));
    }

  return g_object_ref (runner);
}

/* Two of three students submit the reference, every third a buggy one. */
static void
make_students (VivaRehearsal *self)
{
  guint n_problems = self->problems->len;

  for (guint i = 0; i < self->n_students; i++)
    {
      Student *student = g_new0 (Student, 1);
      g_autoptr(VivaScriptedStudent) scripted = NULL;
      const char *reference;

      student->rehearsal = self;
      student->index = i + 1;
      student->problem = g_object_ref (g_ptr_array_index (self->problems, i % n_problems));
      student->variant = (i / n_problems) % 3 == 2 ? VIVA_STUDENT_VARIANT_BUGGY : VIVA_STUDENT_VARIANT_REFERENCE;

      scripted = viva_scripted_student_new (student->problem, student->variant);
      student->variant = viva_scripted_student_get_variant (scripted);
      student->runner = shared_runner (self, viva_scripted_student_get_code (scripted));

      reference = viva_problem_get_reference (student->problem);
      if (reference != NULL && *reference != '\0')
        {
          g_autofree char *key = g_strconcat ("reference\n", viva_problem_get_id (student->problem), NULL);

          student->reference_runner = shared_runner (self, key);
        }

      g_ptr_array_add (self->students, student);
    }
}

static gboolean
has_model (GStrv       names,
           const char *model)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (g_str_equal (names[i], model))
      return TRUE;

  return FALSE;
}

static void
models_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaRehearsal) self = user_data;
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  if (!(names = viva_openai_model_list_models_finish (VIVA_OPENAI_MODEL (object), result, &error)))
    {
      if (self->cancelled_id != 0)
        g_cancellable_disconnect (g_task_get_cancellable (task), self->cancelled_id);
      self->cancelled_id = 0;
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  if (names[0] == NULL || (self->model != NULL && !has_model (names, self->model)))
    {
      g_autofree char *listed = g_strjoinv (", ", names);

      if (self->cancelled_id != 0)
        g_cancellable_disconnect (g_task_get_cancellable (task), self->cancelled_id);
      self->cancelled_id = 0;
      if (names[0] == NULL)
        return g_task_return_new_error (task, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NO_MODEL,
                                        _("The server at %s lists no model — load one there before the rehearsal."),
                                        self->base_url);
      return g_task_return_new_error (task, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
                                      _("The server at %s has no model “%s” — it has: %s."),
                                      self->base_url, self->model, listed);
    }

  if (self->model == NULL)
    self->model = g_strdup (names[0]);

  self->task = g_steal_pointer (&task);
  make_students (self);
}

static void
cancelled_cb (GCancellable  *cancellable,
              VivaRehearsal *self)
{
  g_cancellable_cancel (self->cancellable);
}

/**
 * viva_rehearsal_run_async:
 * @cancellable: (nullable): ends every defense; the rehearsal still
 *   reports what finished, with `interrupted` set
 *
 * Asks the endpoint for its models, starts the workers, then every
 * student at once. Fails before any student starts when the endpoint does
 * not answer, lacks the model or a worker cannot start; otherwise the
 * result is the summary, whatever the defenses did. Main thread only.
 */
void
viva_rehearsal_run_async (VivaRehearsal       *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(VivaOpenAIModel) probe = NULL;

  g_return_if_fail (VIVA_IS_REHEARSAL (self));
  g_return_if_fail (self->task == NULL && self->started == 0);
  g_return_if_fail (self->problems->len > 0);

  self->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, viva_rehearsal_run_async);
  /* Cancelled after the students started, the result is still the report. */
  g_task_set_check_cancellable (self->task, FALSE);
  self->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    self->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), self, NULL);

  probe = viva_openai_model_new (self->base_url);
  viva_openai_model_list_models_async (probe, self->cancellable, models_cb, g_object_ref (self));
}

/**
 * viva_rehearsal_run_finish:
 *
 * Returns: (transfer full): the summary (see the CLI's `rehearsal` event)
 */
JsonObject *
viva_rehearsal_run_finish (VivaRehearsal  *self,
                           GAsyncResult   *result,
                           GError        **error)
{
  g_return_val_if_fail (VIVA_IS_REHEARSAL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
