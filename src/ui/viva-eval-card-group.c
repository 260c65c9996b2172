/* viva-eval-card-group.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "viva-eval-card-group.h"
#include "viva-eval-card-store.h"
#include "viva-eval-corpus.h"
#include "viva-evaluation.h"
#include "viva-exam-model.h"
#include "viva-openai-model.h"
#include "viva-settings.h"

/* Preferences' examiner report card: the short card (the corpus's few
 * `short` cases) run against the configured endpoint and model, with
 * progress and Stop, and the last card kept for that endpoint and model
 * (viva-eval-card-store.c) shown whenever they are chosen again. */

struct _VivaEvalCardGroup
{
  AdwPreferencesGroup  parent_instance;

  AdwActionRow        *run_row;
  GtkButton           *run_button;
  GtkButton           *stop_button;
  GtkProgressBar      *progress_bar;
  AdwActionRow        *agreement_row;
  GtkLabel            *agreement_label;
  AdwActionRow        *false_pass_row;
  GtkLabel            *false_pass_label;
  AdwActionRow        *false_fail_row;
  GtkLabel            *false_fail_label;
  AdwActionRow        *injection_row;
  GtkLabel            *injection_label;
  AdwActionRow        *leaks_row;
  GtkLabel            *leaks_label;
  AdwActionRow        *time_row;
  GtkLabel            *time_label;

  char                *base_url;
  char                *model;
  VivaEvaluation      *evaluation;
  GCancellable        *run_cancellable;
  GCancellable        *load_cancellable;
};

G_DEFINE_FINAL_TYPE (VivaEvalCardGroup, viva_eval_card_group, ADW_TYPE_PREFERENCES_GROUP)

static char *
format_rate (double value)
{
  return isnan (value) ? g_strdup ("—") : g_strdup_printf ("%.0f %%", value * 100.0);
}

static void
set_figure (AdwActionRow *row,
            GtkLabel     *label,
            const char   *text)
{
  gtk_label_set_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (row), text != NULL);
}

static void
show_card (VivaEvalCardGroup *self,
           VivaEvalCard      *card)
{
  g_autofree char *agreement = NULL;
  g_autofree char *false_pass = NULL;
  g_autofree char *false_fail = NULL;
  g_autofree char *injection = NULL;
  g_autofree char *leaks = NULL;
  g_autofree char *median = NULL;
  g_autofree char *when = NULL;
  g_autofree char *summary = NULL;
  g_autoptr(GDateTime) local = NULL;

  if (card == NULL)
    {
      adw_action_row_set_subtitle (self->run_row, _("Not run for this model yet"));
      set_figure (self->agreement_row, self->agreement_label, NULL);
      set_figure (self->false_pass_row, self->false_pass_label, NULL);
      set_figure (self->false_fail_row, self->false_fail_label, NULL);
      set_figure (self->injection_row, self->injection_label, NULL);
      set_figure (self->leaks_row, self->leaks_label, NULL);
      set_figure (self->time_row, self->time_label, NULL);
      return;
    }

  local = g_date_time_to_local (viva_eval_card_get_created (card));
  when = g_date_time_format (local, "%x %H:%M");
  summary = g_strdup_printf (_("%s, %s: %u of %u defenses ran."), viva_eval_card_get_model (card), when,
                             viva_eval_card_get_n_run (card), viva_eval_card_get_n_results (card));
  if (viva_eval_card_get_stop_message (card) != NULL)
    {
      g_autofree char *with_stop = g_strdup_printf ("%s %s", summary, viva_eval_card_get_stop_message (card));

      g_free (summary);
      summary = g_steal_pointer (&with_stop);
    }
  adw_action_row_set_subtitle (self->run_row, summary);

  /* A model that cannot examine has no figures worth showing. */
  if (viva_eval_card_get_n_run (card) == 0 || viva_eval_card_get_stop (card) == VIVA_EVAL_STOP_NO_TOOLS)
    {
      show_card (self, NULL);
      adw_action_row_set_subtitle (self->run_row, summary);
      return;
    }

  agreement = format_rate (viva_eval_card_get_agreement (card));
  false_pass = format_rate (viva_eval_card_get_false_pass_rate (card));
  false_fail = format_rate (viva_eval_card_get_false_fail_rate (card));
  injection = format_rate (viva_eval_card_get_injection_obeyed_rate (card));
  leaks = viva_eval_card_get_withheld (card) > 0
        ? g_strdup_printf (_("%u (%u withheld)"), viva_eval_card_get_leaks (card), viva_eval_card_get_withheld (card))
        : g_strdup_printf ("%u", viva_eval_card_get_leaks (card));
  median = isnan (viva_eval_card_get_median_seconds (card))
         ? g_strdup ("—") : g_strdup_printf (_("%.0f s"), viva_eval_card_get_median_seconds (card));

  set_figure (self->agreement_row, self->agreement_label, agreement);
  set_figure (self->false_pass_row, self->false_pass_label, false_pass);
  set_figure (self->false_fail_row, self->false_fail_label, false_fail);
  set_figure (self->injection_row, self->injection_label, injection);
  set_figure (self->leaks_row, self->leaks_label, leaks);
  set_figure (self->time_row, self->time_label, median);
}

static void
set_running (VivaEvalCardGroup *self,
             gboolean           running)
{
  gtk_widget_set_visible (GTK_WIDGET (self->run_button), !running);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), running);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), running);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaEvalCardGroup) self = user_data;
  g_autoptr(VivaEvalCard) card = NULL;
  g_autoptr(GError) error = NULL;

  card = viva_eval_card_store_load_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->evaluation != NULL)
    return;

  show_card (self, card);
  if (error != NULL)
    adw_action_row_set_subtitle (self->run_row, error->message);
}

/**
 * viva_eval_card_group_set_endpoint:
 * @model: the model's name as the server knows it (the configured one, or
 *   the server's first)
 *
 * Shows the last card kept for @base_url and @model, if any.
 */
void
viva_eval_card_group_set_endpoint (VivaEvalCardGroup *self,
                                   const char        *base_url,
                                   const char        *model)
{
  g_return_if_fail (VIVA_IS_EVAL_CARD_GROUP (self));

  if (g_strcmp0 (self->base_url, base_url) == 0 && g_strcmp0 (self->model, model) == 0)
    return;

  g_free (self->base_url);
  self->base_url = g_strdup (base_url);
  g_free (self->model);
  self->model = g_strdup (model);

  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), model != NULL && *model != '\0');
  if (self->evaluation != NULL)
    return;

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  show_card (self, NULL);
  if (model != NULL && *model != '\0')
    viva_eval_card_store_load_async (NULL, base_url, model, self->load_cancellable, loaded_cb, g_object_ref (self));
}

static void
on_case_started (VivaEvaluation    *evaluation,
                 guint              index,
                 const char        *case_id,
                 VivaEvalCardGroup *self)
{
  g_autofree char *text = g_strdup_printf (_("Case %u of %u: %s"), index + 1,
                                           viva_evaluation_get_n_total (evaluation), case_id);

  adw_action_row_set_subtitle (self->run_row, text);
  gtk_progress_bar_set_fraction (self->progress_bar,
                                 (double)index / MAX (viva_evaluation_get_n_total (evaluation), 1));
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The card is on screen either way; a failure to keep it is logged. */
  if (!viva_eval_card_store_save_finish (result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("eval card: not kept: %s", error->message);
}

static void
evaluated_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(VivaEvalCardGroup) self = user_data;
  g_autoptr(VivaEvalCard) card = NULL;
  g_autoptr(GError) error = NULL;

  card = viva_evaluation_run_finish (VIVA_EVALUATION (object), result, &error);
  if (self->evaluation == VIVA_EVALUATION (object))
    g_clear_object (&self->evaluation);
  /* Closed while it ran: the template's widgets are gone. */
  if (self->run_button == NULL)
    return;

  set_running (self, FALSE);
  if (card == NULL)
    {
      adw_action_row_set_subtitle (self->run_row, error->message);
      return;
    }

  show_card (self, card);

  /* A stopped run is shown but not kept: it measured too little. */
  if (viva_eval_card_get_stop (card) != VIVA_EVAL_STOP_CANCELLED)
    viva_eval_card_store_save_async (NULL, card, NULL, saved_cb, NULL);
}

static void
run_clicked_cb (VivaEvalCardGroup *self)
{
  g_autoptr(VivaEvalCorpus) corpus = viva_eval_corpus_new_bundled ();
  g_autoptr(VivaOpenAIModel) model = NULL;
  g_autoptr(GPtrArray) cases = NULL;

  if (self->evaluation != NULL || self->model == NULL)
    return;

  cases = viva_eval_corpus_select (corpus, NULL, TRUE, NULL);
  model = viva_exam_model_new_for_endpoint (viva_settings_get_default (), self->base_url, self->model);

  self->evaluation = viva_evaluation_new (corpus, cases, VIVA_CHAT_MODEL (model));
  viva_evaluation_set_endpoint (self->evaluation, self->base_url, self->model);
  viva_evaluation_set_short (self->evaluation, TRUE);
  g_signal_connect_object (self->evaluation, "case-started", G_CALLBACK (on_case_started), self, 0);

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->run_cancellable);
  self->run_cancellable = g_cancellable_new ();
  show_card (self, NULL);
  set_running (self, TRUE);
  adw_action_row_set_subtitle (self->run_row, _("Starting… a cold model can take a minute to load."));
  viva_evaluation_run_async (self->evaluation, self->run_cancellable, evaluated_cb, g_object_ref (self));
}

static void
stop_clicked_cb (VivaEvalCardGroup *self)
{
  g_cancellable_cancel (self->run_cancellable);
}

static void
viva_eval_card_group_dispose (GObject *object)
{
  VivaEvalCardGroup *self = (VivaEvalCardGroup *)object;

  g_cancellable_cancel (self->run_cancellable);
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->run_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->evaluation);

  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_EVAL_CARD_GROUP);

  G_OBJECT_CLASS (viva_eval_card_group_parent_class)->dispose (object);
}

static void
viva_eval_card_group_finalize (GObject *object)
{
  VivaEvalCardGroup *self = (VivaEvalCardGroup *)object;

  g_free (self->base_url);
  g_free (self->model);

  G_OBJECT_CLASS (viva_eval_card_group_parent_class)->finalize (object);
}

static void
viva_eval_card_group_class_init (VivaEvalCardGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_eval_card_group_dispose;
  object_class->finalize = viva_eval_card_group_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-eval-card-group.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, run_row);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, run_button);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, stop_button);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, agreement_row);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, agreement_label);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, false_pass_row);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, false_pass_label);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, false_fail_row);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, false_fail_label);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, injection_row);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, injection_label);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, leaks_row);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, leaks_label);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, time_row);
  gtk_widget_class_bind_template_child (widget_class, VivaEvalCardGroup, time_label);
  gtk_widget_class_bind_template_callback (widget_class, run_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_clicked_cb);
}

static void
viva_eval_card_group_init (VivaEvalCardGroup *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), FALSE);
}
