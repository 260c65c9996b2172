/* viva-window-explain.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-endpoint.h"
#include "viva-exam-language.h"
#include "viva-explainer.h"
#include "viva-settings.h"
#include "viva-timeline.h"
#include "viva-window-private.h"

/* Explain this error (a button in the console after a traceback) and
 * Explain selection (beside Run): practice aids, off in an exam. Both ask
 * the examiner's model through VivaExplainer; without one an error is
 * explained from the offline table and a selection says it needs a model.
 * The answer goes to the console; each request goes on the timeline
 * (`explain`, with `what`), where the examiner may ask about it. */

struct _VivaWindowExplain
{
  VivaRunResult *result;       /* the error offered for explaining */
  char          *code;         /* the code that made it */
  GCancellable  *cancellable;  /* the explanation asked for */
  GtkWidget     *error_button;
};

static gboolean
in_exam (VivaWindow *self)
{
  return _viva_window_exam_under_way (self);
}

static gboolean
busy (VivaWindow *self)
{
  return self->explain->cancellable != NULL;
}

void
_viva_window_update_explain_actions (VivaWindow *self)
{
  gboolean selected = gtk_text_buffer_get_has_selection (GTK_TEXT_BUFFER (viva_editor_get_buffer (self->editor)));
  gboolean exam = in_exam (self);
  const char *tooltip;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "practice.explain-selection",
                                 !exam && selected && !busy (self) && self->code_loaded);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "practice.explain-error",
                                 !exam && !busy (self) && self->explain->result != NULL);

  /* A disabled control says why. */
  if (exam)
    tooltip = _("Explanations are off during an exam");
  else if (busy (self))
    tooltip = _("An explanation is on its way");
  else if (!selected)
    tooltip = _("Select lines of your code to have them explained");
  else
    tooltip = _("Explain what the selected lines do (Ctrl+Shift+X)");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->explain_button), tooltip);
}

static VivaExplainer *
viva_window_explainer_new (VivaWindow *self)
{
  VivaSettings *settings = viva_settings_get_default ();
  VivaExamEndpoint *endpoint = self->endpoint;
  g_autoptr(VivaOpenAIModel) client = NULL;
  g_autofree char *language = NULL;

  /* No model when the examiner is offline or its server did not answer:
   * the offline table then explains an error at once. */
  if (endpoint != NULL && viva_exam_endpoint_get_mode (endpoint) != VIVA_EXAMINER_MODE_OFFLINE &&
      viva_exam_endpoint_get_reachability (endpoint) != VIVA_EXAM_REACH_NO)
    client = viva_exam_endpoint_new_client (endpoint);

  language = viva_exam_language_choose (viva_settings_get_examiner_language (settings),
                                        self->pack ? viva_pack_get_language (self->pack) : NULL);
  return viva_explainer_new (client ? VIVA_CHAT_MODEL (client) : NULL, self->problem, language);
}

static void
explained_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  VivaExplanationSource source = VIVA_EXPLANATION_MODEL;
  const char *from;

  text = viva_explainer_explain_finish (VIVA_EXPLAINER (object), result, &source, &error);

  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->explain->cancellable);

  if (text == NULL)
    {
      shown = g_strdup_printf ("\n%s\n", error->message);
      viva_console_append (self->console, VIVA_CONSOLE_NOTICE, shown);
      viva_console_set_status (self->console, _("No explanation"));
    }
  else
    {
      from = source == VIVA_EXPLANATION_MODEL ? _("Explanation (by the examiner’s model; it does not give the fix):")
           : source == VIVA_EXPLANATION_TABLE ? _("Explanation (from Viva’s table of common errors; no model is set up):")
           : _("Explanation (the model could not be reached, so from Viva’s table of common errors):");
      shown = g_strdup_printf ("\n%s\n%s\n", from, text);
      viva_console_append (self->console, VIVA_CONSOLE_NOTICE, shown);
      viva_console_set_status (self->console, _("Explained"));
    }
  viva_console_follow_end (self->console);
  _viva_window_update_explain_actions (self);
}

static void
viva_window_explain_error_action (GtkWidget  *widget,
                                  const char *action_name,
                                  GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  VivaWindowExplain *explain = self->explain;
  g_autoptr(VivaExplainer) explainer = NULL;
  g_autoptr(JsonObject) event = NULL;
  g_autofree char *detail = NULL;

  if (explain->result == NULL || busy (self) || in_exam (self))
    return;

  detail = viva_run_result_get_error_line (explain->result) > 0
    ? g_strdup_printf ("%s on line %d", viva_run_result_get_error_type (explain->result),
                       viva_run_result_get_error_line (explain->result))
    : g_strdup (viva_run_result_get_error_type (explain->result));
  event = viva_timeline_event_explain (self->problem ? viva_problem_get_id (self->problem) : NULL, "error");
  json_object_set_string_member (event, "error_type", viva_run_result_get_error_type (explain->result));
  json_object_set_string_member (event, "detail", detail);
  viva_timeline_recorder_add (self->timeline, event);

  if (explain->error_button != NULL)
    gtk_widget_set_sensitive (explain->error_button, FALSE);
  explain->cancellable = g_cancellable_new ();
  viva_console_set_status (self->console, _("Asking for an explanation…"));
  explainer = viva_window_explainer_new (self);
  viva_explainer_explain_error_async (explainer, explain->code, explain->result, explain->cancellable,
                                      explained_cb, g_object_ref (self));
  _viva_window_update_explain_actions (self);
}

static void
viva_window_explain_selection_action (GtkWidget  *widget,
                                      const char *action_name,
                                      GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (viva_editor_get_buffer (self->editor));
  g_autoptr(VivaExplainer) explainer = NULL;
  g_autoptr(JsonObject) event = NULL;
  g_autofree char *code = NULL;
  GtkTextIter start, end;
  guint first, last;

  if (busy (self) || in_exam (self) || !gtk_text_buffer_get_selection_bounds (buffer, &start, &end))
    return;

  first = gtk_text_iter_get_line (&start) + 1;
  /* A selection that ends at the start of a line does not take that line. */
  if (gtk_text_iter_starts_line (&end) && gtk_text_iter_get_line (&end) > gtk_text_iter_get_line (&start))
    gtk_text_iter_backward_line (&end);
  last = gtk_text_iter_get_line (&end) + 1;
  code = viva_editor_dup_text (self->editor);

  event = viva_timeline_event_explain (self->problem ? viva_problem_get_id (self->problem) : NULL, "selection");
  json_object_set_int_member (event, "first_line", first);
  json_object_set_int_member (event, "last_line", last);
  viva_timeline_recorder_add (self->timeline, event);

  self->explain->cancellable = g_cancellable_new ();
  viva_console_set_status (self->console, _("Asking for an explanation…"));
  explainer = viva_window_explainer_new (self);
  viva_explainer_explain_selection_async (explainer, code, first, last, self->explain->cancellable,
                                          explained_cb, g_object_ref (self));
  _viva_window_update_explain_actions (self);
}

/**
 * _viva_window_explain_offer_error:
 * @code: the code that ran
 * @result: its result, an error
 *
 * After a traceback: the console offers Explain this error, in practice.
 */
void
_viva_window_explain_offer_error (VivaWindow    *self,
                                  const char    *code,
                                  VivaRunResult *result)
{
  VivaWindowExplain *explain = self->explain;
  GtkWidget *button;

  g_set_object (&explain->result, result);
  g_free (explain->code);
  explain->code = g_strdup (code ? code : "");
  explain->error_button = NULL;

  if (!in_exam (self))
    {
      button = gtk_button_new_with_mnemonic (_("_Explain This Error"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "practice.explain-error");
      gtk_widget_set_tooltip_text (button, _("Ask what this error means, in your language; the answer never gives the fix"));
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_widget_add_css_class (button, "pill");
      viva_console_append_widget (self->console, button);
      g_object_add_weak_pointer (G_OBJECT (button), (gpointer *) &explain->error_button);
      explain->error_button = button;
    }
  _viva_window_update_explain_actions (self);
}

/* A new run, or another problem: the error offered is gone. */
void
_viva_window_explain_forget (VivaWindow *self)
{
  VivaWindowExplain *explain = self->explain;

  g_clear_object (&explain->result);
  g_clear_pointer (&explain->code, g_free);
  if (explain->error_button != NULL)
    g_object_remove_weak_pointer (G_OBJECT (explain->error_button), (gpointer *) &explain->error_button);
  explain->error_button = NULL;
  g_cancellable_cancel (explain->cancellable);
  g_clear_object (&explain->cancellable);
  _viva_window_update_explain_actions (self);
}

static void
selection_changed_cb (VivaWindow    *self,
                      GParamSpec    *pspec,
                      GtkTextBuffer *buffer)
{
  _viva_window_update_explain_actions (self);
}

void
_viva_window_class_init_explain (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, explain_button);
  gtk_widget_class_install_action (widget_class, "practice.explain-error", NULL, viva_window_explain_error_action);
  gtk_widget_class_install_action (widget_class, "practice.explain-selection", NULL, viva_window_explain_selection_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "practice.explain-selection", NULL);
}

void
_viva_window_init_explain (VivaWindow *self)
{
  self->explain = g_new0 (VivaWindowExplain, 1);
  g_signal_connect_object (viva_editor_get_buffer (self->editor), "notify::has-selection",
                           G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  _viva_window_update_explain_actions (self);
}

void
_viva_window_dispose_explain (VivaWindow *self)
{
  if (self->explain == NULL)
    return;
  _viva_window_explain_forget (self);
  g_clear_pointer (&self->explain, g_free);
}
