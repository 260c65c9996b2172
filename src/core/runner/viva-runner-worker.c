/* viva-runner-worker.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "viva-run-result-private.h"
#include "viva-runner-private.h"
#include "viva-settings.h"
#include "viva-worker-frame-private.h"

/* VivaRunner's side of its worker process: starting one (every start tries
 * the sandbox; going without takes the setting), taking what it says --
 * ready, output, plots, results -- into the request that runs, and turning
 * its death into that request's result or an error for all that wait. The
 * queue these feed is viva-runner.c's. Main thread only. */

#define OUTPUT_SLACK     65536
#define MAX_IMAGES       50      /* per run, as the worker's own cap */

static void viva_runner_worker_died (VivaWorkerProcess *worker,
                                     gpointer           user_data);

/* Output */

static void viva_runner_truncated (VivaRunner *self);

static void
viva_runner_take_output (VivaRunner *self,
                         int         stream,
                         const char *text,
                         gsize       length)
{
  Op *op = self->current;

  /* Between requests (a thread of the program still printing) the same
   * cap holds, on what arrives until the next request. */
  if (op == NULL)
    {
      if (self->idle_output + length > (guint64) self->output_limit + OUTPUT_SLACK)
        return;
      self->idle_output += length;
    }
  else
    {
      /* The worker caps what the program prints; this is the backstop for
       * what would get past it, so the app's memory stays bounded. */
      if (op->truncated)
        return;
      if (op->stdout_text->len + op->stderr_text->len + length > (gsize) self->output_limit + OUTPUT_SLACK)
        {
          viva_runner_truncated (self);
          return;
        }
      g_string_append_len (stream == 1 ? op->stdout_text : op->stderr_text, text, length);
    }

  g_signal_emit (self, _viva_runner_signals[stream == 1 ? STDOUT : STDERR], 0, text);
}

static void
viva_runner_truncated (VivaRunner *self)
{
  g_autofree char *size = g_format_size (self->output_limit);
  g_autofree char *notice = NULL;

  if (self->current == NULL || self->current->truncated)
    return;

  notice = g_strdup_printf (_("\n[Output truncated: the program printed more than %s. The rest was dropped; the program went on running.]\n"),
                            size);
  g_string_append (self->current->stderr_text, notice);
  self->current->truncated = TRUE;
  g_signal_emit (self, _viva_runner_signals[STDERR], 0, notice);
}

/* The runner's own notice in the console and in the result's stderr. */
static void
viva_runner_notice (VivaRunner *self,
                    const char *sentence)
{
  g_autofree char *notice = g_strdup_printf ("\n[%s]\n", sentence);

  if (self->current != NULL)
    g_string_append (self->current->stderr_text, notice);
  g_signal_emit (self, _viva_runner_signals[STDERR], 0, notice);
}

static void
viva_runner_take_image (VivaRunner *self,
                        const char *data)
{
  g_autoptr(GBytes) png = NULL;
  g_autofree char *why = NULL;

  if (self->current == NULL || self->current->images->len >= MAX_IMAGES)
    return; /* the worker sends none between requests, nor more than this */

  /* Checked before anything decodes it: a small file can claim a huge
   * picture, and only PNG reaches gdk-pixbuf. */
  if (!(png = _viva_worker_image_check (data, &why)))
    {
      viva_runner_notice (self, why);
      return;
    }

  g_ptr_array_add (self->current->images, g_bytes_ref (png));
  g_signal_emit (self, _viva_runner_signals[IMAGE], 0, png);
}

/* Results, and the barrier behind them.
 *
 * Student code shares the worker's process and its channel, so it can write
 * a result frame of its own: "ok", with made-up output, for a run that then
 * raises. The worker's real result is written by its main thread after the
 * code has returned, so it always comes after any forgery; what the runner
 * cannot know from one result is whether another is on its way. So a result
 * is only held at first, and a `sync` with an unguessable id goes to the
 * worker, which its main thread answers (`synced`) only after the request
 * that runs has ended and its own result is written. A second result for the
 * request, a result for any other, or a `synced` that was not asked for is
 * a forgery, and the worker is killed with a sentence saying so. What stays
 * open is code that reads the sync's id off the socket or out of the
 * worker's memory before the reader thread acts on it and forges the
 * `synced` too: the physics of a shared process, and only the console's and
 * the model's view of a run, never a grade (the grader checks values
 * itself, outside). */

static void
viva_runner_forged (VivaWorkerProcess *worker)
{
  _viva_worker_process_reject (worker, _("The program wrote to Viva’s private channel, so Python was stopped and restarted. Variables from earlier runs are gone."));
}

static void
viva_runner_take_result (VivaRunner        *self,
                         VivaWorkerProcess *worker,
                         JsonObject        *event,
                         gint64             id)
{
  Op *op = self->current;
  g_autoptr(JsonObject) sync = NULL;

  if (op == NULL || op->id != id || op->result != NULL)
    {
      g_debug ("runner: a result out of its place (id %" G_GINT64_FORMAT ")", id);
      viva_runner_forged (worker);
      return;
    }

  op->result = json_object_ref (event);
  /* Above every request id, and not one the code can count its way to. */
  op->sync_id = (G_GINT64_CONSTANT (1) << 40) + (((gint64) g_random_int () << 8) ^ g_random_int_range (0, 256));
  sync = json_object_new ();
  json_object_set_string_member (sync, "op", "sync");
  json_object_set_int_member (sync, "id", op->sync_id);
  _viva_worker_process_send (worker, sync);
}

static void
viva_runner_take_synced (VivaRunner        *self,
                         VivaWorkerProcess *worker,
                         gint64             id)
{
  Op *op = self->current;
  g_autoptr(JsonObject) event = NULL;

  if (op == NULL || op->result == NULL || op->sync_id != id)
    {
      g_debug ("runner: a sync out of its place (id %" G_GINT64_FORMAT ")", id);
      viva_runner_forged (worker);
      return;
    }

  event = g_steal_pointer (&op->result);
  if (op->kind == OP_RESET)
    _viva_runner_complete_current (self, NULL);
  else
    _viva_runner_complete_current (self, _viva_run_result_new_from_event (event, op->timeout_ms));
}

/* A pause's report. Only the pauser thread, which holds the GIL while
 * the program is frozen, knows the token the request carried; a `paused`
 * without it, or one nobody asked for, is the program's forgery. One for
 * a pause resumed before it came is dropped. */
static void
viva_runner_take_paused (VivaRunner        *self,
                         VivaWorkerProcess *worker,
                         JsonObject        *event,
                         gint64             id)
{
  Op *op = self->current;
  gint64 token = json_object_get_int_member_with_default (event, "token", 0);

  if (op != NULL && op->id == id && token != 0 && token == op->stale_token)
    {
      op->stale_token = 0;
      return;
    }

  if (op == NULL || op->id != id || op->pause_token == 0 || op->pause_token != token ||
      op->paused || strlen (json_object_get_string_member (event, "stack")) > VIVA_RUN_STACK_MAX_TEXT)
    {
      g_debug ("runner: a pause report out of its place (id %" G_GINT64_FORMAT ")", id);
      viva_runner_forged (worker);
      return;
    }

  _viva_runner_take_paused (self, event);
}

/* Events from the worker */

static void
viva_runner_handle_event (VivaWorkerProcess *worker,
                          JsonObject        *event,
                          gpointer           user_data)
{
  VivaRunner *self = user_data;
  const char *name;
  gint64 id;

  g_assert (self->worker == worker);

  name = json_object_get_string_member_with_default (event, "event", "");
  id = json_object_get_int_member_with_default (event, "id", 0);

  if (g_str_equal (name, "ready"))
    {
      const char *version = json_object_get_string_member_with_default (event, "python", NULL);
      VivaRunnerSandbox sandbox = _viva_worker_process_get_sandbox (worker);

      if (g_strcmp0 (self->python_version, version) != 0)
        {
          g_free (self->python_version);
          self->python_version = g_strdup (version);
          g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_PYTHON_VERSION]);
        }
      if (self->sandbox != sandbox)
        {
          self->sandbox = sandbox;
          g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_SANDBOX]);
        }
      if (sandbox != VIVA_RUNNER_SANDBOX_NONE && self->sandbox_message != NULL)
        {
          /* Sandboxed again: the warning goes. */
          g_clear_pointer (&self->sandbox_message, g_free);
          self->warned = FALSE;
          g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_SANDBOX_MESSAGE]);
        }
      _viva_runner_next (self);
    }
  else if (g_str_equal (name, "stdout") || g_str_equal (name, "stderr"))
    {
      const char *text = json_object_get_string_member_with_default (event, "text", "");

      viva_runner_take_output (self, name[3] == 'o' ? 1 : 2, text, strlen (text));
    }
  else if (g_str_equal (name, "image"))
    viva_runner_take_image (self, json_object_get_string_member_with_default (event, "data", ""));
  else if (g_str_equal (name, "truncated"))
    viva_runner_truncated (self);
  else if (g_str_equal (name, "result"))
    viva_runner_take_result (self, worker, event, id);
  else if (g_str_equal (name, "synced"))
    viva_runner_take_synced (self, worker, id);
  else if (g_str_equal (name, "paused"))
    viva_runner_take_paused (self, worker, event, id);
}

static void
viva_runner_worker_output (VivaWorkerProcess *worker,
                           int                fd,
                           const char        *text,
                           gpointer           user_data)
{
  VivaRunner *self = user_data;

  g_assert (self->worker == worker);
  viva_runner_take_output (self, fd, text, strlen (text));
}

void
_viva_runner_discard_worker (VivaRunner *self)
{
  _viva_worker_process_discard (g_steal_pointer (&self->worker));
}

static void
viva_runner_start_failed (VivaWorkerProcess *worker,
                          const GError      *error,
                          gpointer           user_data)
{
  VivaRunner *self = user_data;

  /* The worker discarded itself: it is only forgotten here. */
  g_assert (self->worker == worker);
  self->worker = NULL;
  _viva_runner_fail_all (self, (GError *) error);
}

static const VivaWorkerProcessCallbacks worker_callbacks = {
  .event = viva_runner_handle_event,
  .output = viva_runner_worker_output,
  .died = viva_runner_worker_died,
  .start_failed = viva_runner_start_failed,
};

gboolean
_viva_runner_spawn (VivaRunner  *self,
                   GError     **error)
{
  VivaRunnerSandbox sandbox;

  g_assert (self->worker == NULL);

  if (self->launch == NULL && !(self->launch = _viva_runner_launch_new (error)))
    return FALSE;

  /* Every start tries the sandbox; going without it takes the
   * run-without-sandbox setting, and counts for that one start. */
  sandbox = self->launch->sandbox;
  if (sandbox == VIVA_RUNNER_SANDBOX_BUBBLEWRAP && self->bwrap_failed)
    sandbox = VIVA_RUNNER_SANDBOX_NONE;
  self->bwrap_failed = FALSE;

  if (sandbox == VIVA_RUNNER_SANDBOX_NONE && self->launch->bwrap_missing &&
      !viva_settings_get_run_without_sandbox (viva_settings_get_default ()))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("Code cannot run: bubblewrap, the sandbox Viva runs code in, is not installed. Install the “bubblewrap” package, or turn on the run-without-sandbox setting to run code unprotected."));
      return FALSE;
    }

  if (sandbox == VIVA_RUNNER_SANDBOX_NONE && self->sandbox_message == NULL)
    {
      self->sandbox_message = _viva_runner_launch_why_unsandboxed (self->launch);
      g_message ("%s", self->sandbox_message);
      g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_SANDBOX_MESSAGE]);
    }

  self->worker = _viva_worker_process_spawn (self->launch, sandbox, self->memory_limit,
                                             &worker_callbacks, self, error);
  return self->worker != NULL;
}


static void
viva_runner_worker_died (VivaWorkerProcess *worker,
                         gpointer           user_data)
{
  /* Held to the end: the request it completes may drop the last other
   * reference from its callback (a runner of one request's life). */
  g_autoptr(VivaRunner) self = g_object_ref (user_data);
  GSubprocess *process = _viva_worker_process_get_subprocess (worker);
  gboolean never_ready = !_viva_worker_process_get_ready (worker);
  gboolean bwrap = _viva_worker_process_get_sandbox (worker) == VIVA_RUNNER_SANDBOX_BUBBLEWRAP;
  gboolean setup_failed = g_subprocess_get_if_exited (process) &&
                          g_subprocess_get_exit_status (process) == 1;
  gboolean killed = _viva_worker_process_get_killed (worker);
  g_autofree char *why = g_strstrip (g_strdup (_viva_worker_process_get_early_stderr (worker)));

  g_assert (self->worker == worker);

  _viva_worker_process_ref (worker);
  _viva_runner_discard_worker (self);

  if (never_ready && bwrap && setup_failed && !killed)
    {
      /* Bubblewrap could not set up its namespaces (Ubuntu's AppArmor
       * forbids them, for one): the code does not run, unless the
       * setting allows this one start without it. */
      g_autofree char *first = g_strdup (why);
      char *newline = strchr (first, '\n');

      if (newline != NULL)
        *newline = '\0';
      if (!viva_settings_get_run_without_sandbox (viva_settings_get_default ()))
        {
          g_autoptr(GError) error = NULL;

          error = g_error_new (G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                               _("The sandbox could not start (%s), so the code did not run. Ask for bubblewrap to be allowed on this computer, or turn on the run-without-sandbox setting to run code unprotected."),
                               first[0] ? first : _("bubblewrap failed"));
          _viva_runner_fail_all (self, error);
          _viva_worker_process_unref (worker);
          return;
        }
      self->bwrap_failed = TRUE;
      g_free (self->sandbox_message);
      self->sandbox_message = g_strdup_printf (_("The sandbox could not start (%s), so code runs without it: it can read and change your files and use the network."),
                                               first[0] ? first : _("bubblewrap failed"));
      g_message ("%s", self->sandbox_message);
      g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_SANDBOX_MESSAGE]);
      _viva_worker_process_unref (worker);
      _viva_runner_next (self);
      return;
    }

  if (never_ready)
    {
      g_autoptr(GError) error = NULL;

      error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Python could not start: %s"),
                           why[0] ? why : _("the worker ended without a word"));
      _viva_runner_fail_all (self, error);
      _viva_worker_process_unref (worker);
      return;
    }

  g_debug ("runner: worker died%s", killed ? " (killed)" : "");

  if (self->current != NULL)
    {
      if (self->current->kind == OP_RESET)
        _viva_runner_complete_current (self, NULL);
      else
        {
          VivaRunResult *result = _viva_run_result_new_for_death (process,
                                                                  _viva_worker_process_get_sandbox (worker),
                                                                  killed,
                                                                  self->current->started_us);
          const char *violation = _viva_worker_process_get_violation (worker);

          /* Killed for what it sent: that is the reason to show. */
          if (violation != NULL)
            {
              g_free (result->summary);
              result->summary = g_strdup (violation);
              result->forged = TRUE;
            }
          _viva_runner_complete_current (self, result);
        }
    }

  _viva_worker_process_unref (worker);
  _viva_runner_next (self);
}
