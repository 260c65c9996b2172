/* viva-preferences-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-eval-card-group.h"
#include "viva-model-address.h"
#include "viva-model-check.h"
#include "viva-exam-model.h"
#include "viva-openai-model.h"
#include "viva-preferences-window.h"
#include "viva-settings.h"

/* The examiner's settings. Besides the plain settings, it talks to the
 * endpoint: Test Connection says whether a model answers there and lists
 * its models for the drop-down, the API key goes to the keyring through the
 * model client's VivaSecrets, and Check This Model runs a short
 * qualification so a teacher knows before the lab. */

struct _VivaPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;
  AdwEntryRow          *base_url_row;
  AdwActionRow         *connection_row;
  GtkSpinner           *connection_spinner;
  GtkButton            *test_button;
  AdwComboRow          *model_row;
  AdwEntryRow          *scorer_model_row;
  AdwEntryRow          *scorer_base_url_row;
  GtkStringList        *model_list;
  AdwPasswordEntryRow  *api_key_row;
  AdwActionRow         *check_row;
  GtkSpinner           *check_spinner;
  GtkButton            *check_button;
  GtkAdjustment        *temperature_adjustment;
  AdwComboRow          *mode_row;
  GtkAdjustment        *code_size_adjustment;
  AdwComboRow          *language_row;
  VivaEvalCardGroup    *eval_card_group;

  VivaOpenAIModel      *model;
  GCancellable         *cancellable;
  char                 *first_model;     /* the server's, when it listed one */
  guint                 filling : 1;
};

G_DEFINE_FINAL_TYPE (VivaPreferencesWindow, viva_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static void viva_preferences_window_test_connection (VivaPreferencesWindow *self);

/* Index in language_row ↔ locale name stored in settings. */
static const char * const languages[] = { "", "en", "zh_CN", "vi" };

/* The scorer: a model name and an address, each empty for the
 * examiner's. An address is completed as the examiner's is ("localhost:8000/v1"
 * gets its http://); one that is no address is marked and not saved. */
static void
scorer_apply_cb (VivaPreferencesWindow *self,
                 AdwEntryRow           *row)
{
  VivaSettings *settings = viva_settings_get_default ();
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  if (row == self->scorer_model_row)
    {
      viva_settings_set_scorer_model (settings, text);
      return;
    }

  if (text[0] != '\0')
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *completed = viva_model_address_complete (text, &error);

      if (completed == NULL)
        {
          gtk_widget_add_css_class (GTK_WIDGET (row), "error");
          gtk_widget_set_tooltip_text (GTK_WIDGET (row), error->message);
          return;
        }
      g_free (text);
      text = g_steal_pointer (&completed);
      gtk_editable_set_text (GTK_EDITABLE (row), text);
    }
  gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (row), NULL);
  viva_settings_set_scorer_base_url (settings, text);
}

static void
base_url_apply_cb (VivaPreferencesWindow *self,
                   AdwEntryRow           *row)
{
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  g_autoptr(GError) error = NULL;
  g_autofree char *completed = NULL;

  if (url[0] == '\0')
    {
      g_clear_pointer (&url, g_free);
      url = g_strdup ("http://localhost:11434/v1");
    }

  /* "localhost:11434/v1" becomes what it means, in the field too; what is
   * no address is said beside the field, and not saved. */
  if (!(completed = viva_model_address_complete (url, &error)))
    {
      g_cancellable_cancel (self->cancellable);
      gtk_spinner_set_spinning (self->connection_spinner, FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), TRUE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->connection_row), _("Not a server address"));
      adw_action_row_set_subtitle (self->connection_row, error->message);
      return;
    }

  if (g_strcmp0 (completed, gtk_editable_get_text (GTK_EDITABLE (row))) != 0)
    {
      gtk_editable_set_text (GTK_EDITABLE (row), completed);
      /* Applied already: the row's apply button would offer it again. */
      adw_entry_row_set_show_apply_button (row, FALSE);
      adw_entry_row_set_show_apply_button (row, TRUE);
    }

  viva_settings_set_base_url (viva_settings_get_default (), completed);
  viva_preferences_window_test_connection (self);
}

/* The drop-down: the server's first model, then the server's models, and
 * the configured one even when the server does not list it. */
static void
viva_preferences_window_fill_models (VivaPreferencesWindow *self,
                                     const char * const    *names)
{
  const char *configured = viva_settings_get_model (viva_settings_get_default ());
  g_autoptr(GPtrArray) items = g_ptr_array_new ();
  guint selected = 0;

  g_ptr_array_add (items, (gpointer)_("The server’s first model"));
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    g_ptr_array_add (items, (gpointer)names[i]);
  if (configured != NULL && configured[0] != '\0' &&
      (names == NULL || !g_strv_contains (names, configured)))
    g_ptr_array_add (items, (gpointer)configured);
  g_ptr_array_add (items, NULL);

  for (guint i = 1; items->pdata[i] != NULL; i++)
    if (g_strcmp0 (items->pdata[i], configured) == 0)
      selected = i;

  self->filling = TRUE;
  gtk_string_list_splice (self->model_list, 0, g_list_model_get_n_items (G_LIST_MODEL (self->model_list)),
                          (const char * const *)items->pdata);
  adw_combo_row_set_selected (self->model_row, selected);
  self->filling = FALSE;
}

/* The report card follows the model the examiner would use: the chosen
 * one, or the server's first. */
static void
viva_preferences_window_update_card (VivaPreferencesWindow *self)
{
  VivaSettings *settings = viva_settings_get_default ();
  const char *model = viva_settings_get_model (settings);

  if (model == NULL || *model == '\0')
    model = self->first_model;
  viva_eval_card_group_set_endpoint (self->eval_card_group, viva_settings_get_base_url (settings), model);
}

static void
model_selected_cb (VivaPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->model_row);

  if (self->filling || selected == GTK_INVALID_LIST_POSITION)
    return;

  viva_settings_set_model (viva_settings_get_default (),
                           selected == 0 ? "" : gtk_string_list_get_string (self->model_list, selected));
  viva_preferences_window_update_card (self);
}

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *status = NULL;
  VivaOpenAIModel *model = VIVA_OPENAI_MODEL (object);
  guint n;

  names = viva_openai_model_list_models_finish (model, result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  gtk_spinner_set_spinning (self->connection_spinner, FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), TRUE);

  if (names == NULL)
    {
      g_autofree char *here = NULL;

      /* The model's words send the user to Preferences, where they are:
       * here the address is the field just above. */
      if (g_error_matches (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING))
        here = g_strdup_printf (_("No model server is running at %s — start it, or correct the address above."),
                                viva_openai_model_get_base_url (model));
      else if (g_error_matches (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION))
        here = g_strdup_printf (_("Cannot reach the model server at %s — correct the address above, or check the network."),
                                viva_openai_model_get_base_url (model));
      adw_action_row_set_subtitle (self->connection_row, here != NULL ? here : error->message);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->connection_row), _("Connection failed"));
      return;
    }

  n = g_strv_length (names);
  if (viva_openai_model_get_server_kind (model) == VIVA_SERVER_KIND_OLLAMA)
    status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Ollama %s answers, with %u model.",
                                           "Ollama %s answers, with %u models.", n),
                              viva_openai_model_get_server_version (model) ?: "", n);
  else
    status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The server answers, with %u model.",
                                           "The server answers, with %u models.", n), n);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->connection_row), _("Connected"));
  adw_action_row_set_subtitle (self->connection_row, status);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->model_row), n > 0 ? "" : _("The server has no model yet: pull one, for example “ollama pull qwen2.5:7b”."));
  viva_preferences_window_fill_models (self, (const char * const *)names);
  g_free (self->first_model);
  self->first_model = g_strdup (names[0]);
  viva_preferences_window_update_card (self);
}

static void
detect_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  viva_openai_model_detect_server_finish (VIVA_OPENAI_MODEL (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* A failure is reported by the listing, in the same words. */
  viva_openai_model_list_models_async (VIVA_OPENAI_MODEL (object), self->cancellable,
                                       list_models_cb, g_object_ref (self));
}

static void
viva_preferences_window_test_connection (VivaPreferencesWindow *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_clear_pointer (&self->first_model, g_free);
  viva_preferences_window_update_card (self);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->connection_row), _("Connection"));
  adw_action_row_set_subtitle (self->connection_row, _("Asking the server…"));
  gtk_spinner_set_spinning (self->connection_spinner, TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), FALSE);

  /* Which server it is first, for the status; then its models. */
  viva_openai_model_detect_server_async (self->model, self->cancellable, detect_cb, g_object_ref (self));
}

static void
test_clicked_cb (VivaPreferencesWindow *self)
{
  viva_preferences_window_test_connection (self);
}

static void
check_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(VivaPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  VivaModelCheckResult verdict;

  verdict = viva_model_check_finish (VIVA_CHAT_MODEL (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  gtk_spinner_set_spinning (self->check_spinner, FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->check_button), TRUE);
  if (error == NULL && verdict == VIVA_MODEL_CHECK_CAN_EXAMINE)
    {
      g_autofree char *text = g_strdup_printf ("%s %s", viva_model_check_describe (verdict),
                                               _("Run the short report card on the Report Card page to see how well it examines."));

      adw_action_row_set_subtitle (self->check_row, text);
      return;
    }
  adw_action_row_set_subtitle (self->check_row,
                               error != NULL ? error->message : viva_model_check_describe (verdict));
}

static void
check_clicked_cb (VivaPreferencesWindow *self)
{
  adw_action_row_set_subtitle (self->check_row, _("Checking… a cold model can take a minute to load."));
  gtk_spinner_set_spinning (self->check_spinner, TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->check_button), FALSE);

  viva_model_check_async (VIVA_CHAT_MODEL (self->model), self->cancellable, check_cb, g_object_ref (self));
}

static void
store_key_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(VivaPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdwToast) toast = NULL;

  if (!viva_secrets_store_finish (VIVA_SECRETS (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      toast = adw_toast_new (error->message);
    }
  else
    {
      toast = adw_toast_new (_("The API key is kept in the keyring"));
    }

  adw_toast_set_timeout (toast, 4);
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), g_steal_pointer (&toast));
}

static void
api_key_apply_cb (VivaPreferencesWindow *self)
{
  const char *key = gtk_editable_get_text (GTK_EDITABLE (self->api_key_row));

  viva_secrets_store_async (viva_openai_model_get_secrets (self->model),
                            viva_openai_model_get_base_url (self->model),
                            key, self->cancellable, store_key_cb, g_object_ref (self));
}

static void
lookup_key_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(VivaPreferencesWindow) self = user_data;
  g_autofree char *key = NULL;

  /* No keyring, or no key: the field stays empty. */
  key = viva_secrets_lookup_finish (VIVA_SECRETS (object), result, NULL);
  if (key != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->api_key_row), key);
      memset (key, 0, strlen (key));
    }
}

static void
language_selected_cb (VivaPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->language_row);

  if (selected < G_N_ELEMENTS (languages))
    viva_settings_set_examiner_language (viva_settings_get_default (), languages[selected]);
}

static void
viva_preferences_window_dispose (GObject *object)
{
  VivaPreferencesWindow *self = (VivaPreferencesWindow *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->model);
  g_clear_pointer (&self->first_model, g_free);

  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (viva_preferences_window_parent_class)->dispose (object);
}

static void
viva_preferences_window_class_init (VivaPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, base_url_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, code_size_adjustment);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, connection_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, connection_spinner);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, test_button);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, model_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, model_list);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, scorer_model_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, scorer_base_url_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, api_key_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, check_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, check_spinner);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, check_button);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, temperature_adjustment);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, mode_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, language_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, eval_card_group);
  gtk_widget_class_bind_template_callback (widget_class, base_url_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, scorer_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, test_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, check_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, api_key_apply_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

/* What an exam fixes stays visible, read-only, saying why. */
static void
viva_preferences_window_show_fixed (VivaPreferencesWindow *self)
{
  VivaSettings *settings = viva_settings_get_default ();
  const struct { GtkWidget *row; const char *key; } rows[] = {
    { GTK_WIDGET (self->base_url_row), "base-url" },
    { GTK_WIDGET (self->model_row), "model" },
    { GTK_WIDGET (self->scorer_model_row), "scorer-model" },
    { GTK_WIDGET (self->scorer_base_url_row), "scorer-base-url" },
    { GTK_WIDGET (self->mode_row), "examiner-mode" },
    { GTK_WIDGET (self->language_row), "examiner-language" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (viva_settings_is_fixed (settings, rows[i].key))
      {
        gtk_widget_set_sensitive (rows[i].row, FALSE);
        gtk_widget_set_tooltip_text (rows[i].row, _("Set by the exam; it cannot be changed until the exam ends"));
        if (ADW_IS_ACTION_ROW (rows[i].row))
          adw_action_row_set_subtitle (ADW_ACTION_ROW (rows[i].row), _("Set by the exam"));
      }
}

static void
viva_preferences_window_init (VivaPreferencesWindow *self)
{
  VivaSettings *settings = viva_settings_get_default ();
  const char *language;

  g_type_ensure (VIVA_TYPE_EVAL_CARD_GROUP);
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_editable_set_text (GTK_EDITABLE (self->base_url_row), viva_settings_get_base_url (settings));
  gtk_editable_set_text (GTK_EDITABLE (self->scorer_model_row), viva_settings_get_scorer_model (settings));
  gtk_editable_set_text (GTK_EDITABLE (self->scorer_base_url_row), viva_settings_get_scorer_base_url (settings));

  self->model = viva_exam_model_new_for_settings (settings);
  self->cancellable = g_cancellable_new ();
  viva_preferences_window_fill_models (self, NULL);
  g_signal_connect_object (self->model_row, "notify::selected",
                           G_CALLBACK (model_selected_cb), self, G_CONNECT_SWAPPED);
  viva_secrets_lookup_async (viva_openai_model_get_secrets (self->model),
                             viva_openai_model_get_base_url (self->model),
                             self->cancellable, lookup_key_cb, g_object_ref (self));
  /* Say at once whether a model answers, and list the models. */
  viva_preferences_window_test_connection (self);

  g_object_bind_property (settings, "temperature", self->temperature_adjustment, "value",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (settings, "examiner-mode", self->mode_row, "selected",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (settings, "code-font-size", self->code_size_adjustment, "value",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);

  language = viva_settings_get_examiner_language (settings);
  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    if (g_strcmp0 (language, languages[i]) == 0)
      adw_combo_row_set_selected (self->language_row, i);
  g_signal_connect_object (self->language_row, "notify::selected",
                           G_CALLBACK (language_selected_cb), self, G_CONNECT_SWAPPED);

  viva_preferences_window_show_fixed (self);
}

VivaPreferencesWindow *
viva_preferences_window_new (void)
{
  return g_object_new (VIVA_TYPE_PREFERENCES_WINDOW, NULL);
}
