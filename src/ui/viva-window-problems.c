/* viva-window-problems.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-application.h"
#include "viva-history-window.h"
#include "viva-markdown.h"
#include "viva-settings.h"
#include "viva-startup-timer.h"
#include "viva-window-private.h"

/* The window's side of packs: which problem is open, the list of every
 * problem, importing a pack (file chooser or drag-and-drop), the hint and
 * resetting to the starter code. */

static void
viva_window_open_initial_problem (VivaWindow *self)
{
  VivaSettings *settings = viva_settings_get_default ();
  VivaPack *pack;
  VivaProblem *problem = NULL;

  pack = viva_pack_library_find_pack (self->library, viva_settings_get_last_pack (settings));
  if (pack != NULL)
    problem = viva_pack_find_problem (pack, viva_settings_get_last_problem (settings));

  if (problem == NULL)
    {
      /* The last problem's pack was removed: start on the bundled K-Means. */
      pack = viva_pack_library_find_pack (self->library, "intro-ai");
      problem = pack ? viva_pack_find_problem (pack, "kmeans") : NULL;
    }

  if (problem != NULL)
    viva_window_open_problem (self, pack, problem);
}

static void
library_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  viva_startup_timer_mark ("packs loaded");

  if (!viva_pack_library_load_finish (VIVA_PACK_LIBRARY (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      _viva_window_show_banner (self, error->message);
    }

  if (viva_pack_library_get_error_message (self->library) != NULL)
    _viva_window_show_banner (self, viva_pack_library_get_error_message (self->library));

  /* The bundled problem shown before the library loaded stays on screen;
   * only the objects behind it become the library's, so the Problems list
   * and the window agree. */
  if (self->pack != NULL && self->problem != NULL)
    {
      VivaPack *pack = viva_pack_library_find_pack (self->library, viva_pack_get_id (self->pack));
      VivaProblem *problem = pack ? viva_pack_find_problem (pack, viva_problem_get_id (self->problem)) : NULL;

      if (problem != NULL)
        {
          g_set_object (&self->pack, pack);
          g_set_object (&self->problem, problem);
          viva_timeline_recorder_set_problem (self->timeline, pack, problem);
          return;
        }
    }

  viva_window_open_initial_problem (self);
}

static void
status_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  /* A damaged status file costs the list its badges, never the code. */
  if (!viva_status_store_load_finish (VIVA_STATUS_STORE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("status: %s", error->message);
}

static void
viva_window_problem_activated_cb (VivaWindow  *self,
                                  VivaPack    *pack,
                                  VivaProblem *problem)
{
  g_assert (VIVA_IS_WINDOW (self));

  /* The problem already open (perhaps as another copy of its pack):
   * choosing it again only closes the list, and keeps the output and a
   * program that runs. */
  if (viva_problems_popover_is_current (self->problems_popover, pack, problem))
    return;

  /* Opening another problem would stop the defense under way. */
  if (_viva_window_handing_in (self) && problem != self->problem)
    {
      adw_toast_overlay_add_toast (self->toast_overlay,
                                   adw_toast_new (_("Your problems are being handed in; you can open another one when the last defense ends")));
      return;
    }

  viva_window_open_problem (self, pack, problem);
}

static void
import_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;

  pack = viva_pack_library_import_finish (VIVA_PACK_LIBRARY (object), result, &issues, &error);

  if (pack == NULL)
    {
      g_autoptr(GString) body = g_string_new (error->message);
      AdwMessageDialog *dialog;

      if (issues != NULL)
        {
          g_string_append_c (body, '\n');
          for (guint i = 0; i < issues->len && i < 12; i++)
            {
              g_autofree char *line = viva_pack_issue_to_string (g_ptr_array_index (issues, i));
              g_string_append_printf (body, "\n• %s", line);
            }
          if (issues->len > 12)
            g_string_append_printf (body, "\n%s",
                                    _("… and more; run “viva-cli pack validate” on the file to see them all."));
        }

      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                           _("This Pack Cannot Be Imported"),
                                                           body->str));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }

  {
    g_autofree char *message = g_strdup_printf (_("Pack “%s” imported"), viva_pack_get_title (pack));
    VivaProblem *first = NULL;
    g_autoptr(VivaProblem) item = NULL;

    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));

    if (g_list_model_get_n_items (viva_pack_get_problems (pack)) > 0)
      {
        item = g_list_model_get_item (viva_pack_get_problems (pack), 0);
        first = item;
      }

    if (first != NULL)
      viva_window_open_problem (self, pack, first);
  }
}

static void
viva_window_import_file (VivaWindow *self,
                         GFile      *file)
{
  viva_pack_library_import_async (self->library, file, self->cancellable,
                                  import_cb, g_object_ref (self));
}

static void
chooser_response_cb (VivaWindow           *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        viva_window_import_file (self, file);
    }

  g_object_unref (chooser);
}

static void
import_pack_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  gtk_file_filter_set_name (filter, _("Viva packs (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_mime_type (filter, "application/json");

  chooser = gtk_file_chooser_native_new (_("Import a Pack"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Import"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         VivaWindow    *self)
{
  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = g_value_get_boxed (value);

      for (const GSList *l = files; l; l = l->next)
        viva_window_import_file (self, l->data);
      return files != NULL;
    }

  if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    {
      viva_window_import_file (self, g_value_get_object (value));
      return TRUE;
    }

  return FALSE;
}

static void
undo_reset_cb (AdwToast   *toast,
               VivaWindow *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (viva_editor_get_buffer (self->editor));

  if (gtk_text_buffer_get_can_undo (buffer))
    gtk_text_buffer_undo (buffer);
}

static void
reset_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   VivaWindow       *self)
{
  AdwToast *toast;

  if (g_strcmp0 (response, "reset") != 0 || self->problem == NULL)
    return;

  _viva_window_replace_code (self, viva_problem_get_starter_code (self->problem));

  toast = adw_toast_new (_("Your code was replaced by the starter code"));
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (undo_reset_cb), self, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
reset_code_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  AdwMessageDialog *dialog;

  if (self->problem == NULL)
    return;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                       _("Reset to the Starter Code?"),
                                                       _("Your code for this problem is replaced by the starter code. You can undo this afterwards.")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "reset", _("_Reset"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "reset", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (reset_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/**
 * _viva_window_update_hint_button:
 *
 * In an exam whose hints cost points, the Hint button says what it costs
 * before the student presses it.
 */
void
_viva_window_update_hint_button (VivaWindow *self)
{
  double cost = _viva_window_hint_cost (self);
  g_autofree char *label = NULL;
  g_autofree char *tooltip = NULL;

  g_assert (VIVA_IS_WINDOW (self));

  if (cost > 0 && !_viva_window_hint_used (self))
    {
      label = g_strdup_printf (_("Hint (−%g points)"), cost);
      tooltip = g_strdup_printf (_("Show the problem’s hint; in this exam it costs %g points of 100, once for this problem"), cost);
    }
  else
    {
      label = g_strdup (_("Hint"));
      tooltip = g_strdup (cost > 0 ? _("Show the problem’s hint again; it has been counted once already")
                                   : _("Show the problem’s hint; your teacher sees that you used it"));
    }

  /* This runs with every change of the window's actions, some of them in
   * the middle of a frame: a label set again, even to the same text,
   * resizes the button and GTK 4.8 warns of a widget drawn unallocated. */
  if (g_strcmp0 (adw_button_content_get_label (self->hint_button_content), label) != 0)
    adw_button_content_set_label (self->hint_button_content, label);
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->hint_button)), tooltip) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->hint_button), tooltip);
}

static void
hint_cost_response_cb (AdwMessageDialog *dialog,
                       const char       *response,
                       VivaWindow       *self)
{
  if (g_strcmp0 (response, "show") != 0 || self->problem == NULL)
    return;

  self->hint_cost_accepted = TRUE;
  _viva_window_set_hint_visible (self, TRUE);
  self->hint_cost_accepted = FALSE;
}

/* A hint that costs points is shown only once the student has said yes to
 * its cost: pressing Hint to see what it is must not cost anything. Later
 * showings of the same problem's hint cost nothing more, so they are not
 * asked. */
static gboolean
confirm_hint_cost (VivaWindow *self)
{
  double cost = _viva_window_hint_cost (self);
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;
  g_autofree char *show = NULL;

  if (cost <= 0 || _viva_window_hint_used (self) || self->hint_cost_accepted)
    return TRUE;

  body = g_strdup_printf (_("In this exam the hint costs %g points of 100 for this problem. It is counted once, however often you look at it."),
                          cost);
  show = g_strdup_printf (_("_Show Hint (−%g)"), cost);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Use the Hint?"), body));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "show", show,
                                    NULL);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (hint_cost_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));

  return FALSE;
}

/**
 * _viva_window_set_hint_visible:
 *
 * Shows or hides the open problem's hint. Showing it is remembered for the
 * problem, because the defense's record says whether the hint was used.
 */
void
_viva_window_set_hint_visible (VivaWindow *self,
                               gboolean    visible)
{
  g_assert (VIVA_IS_WINDOW (self));

  visible = !!visible && self->problem != NULL;
  if (self->hint_visible == visible)
    return;

  if (visible && !confirm_hint_cost (self))
    {
      /* The toggle button went down with the press: up again until the
       * student agrees. */
      g_object_notify (G_OBJECT (self), "hint-visible");
      return;
    }

  self->hint_visible = visible;
  if (visible)
    {
      if (_viva_window_hint_cost (self) > 0)
        {
          g_autofree char *text = g_strdup_printf (_("%s\n\nThis hint costs %g points of 100 in this exam."),
                                                   viva_problem_get_hint (self->problem),
                                                   _viva_window_hint_cost (self));
          gtk_label_set_label (self->hint_label, text);
        }
      else
        gtk_label_set_label (self->hint_label, viva_problem_get_hint (self->problem));
      viva_timeline_recorder_hint (self->timeline, _viva_window_hint_cost (self));
      g_hash_table_add (self->hints_used,
                        g_strdup_printf ("%s/%s", viva_pack_get_id (self->pack),
                                         viva_problem_get_id (self->problem)));
      _viva_window_update_hint_button (self);
    }
  gtk_revealer_set_reveal_child (self->hint_revealer, visible);
  g_object_notify (G_OBJECT (self), "hint-visible");
}

static void
show_problems_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  gtk_menu_button_popup (VIVA_WINDOW (widget)->problems_button);
}

static void
show_history_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  VivaHistoryWindow *history;

  if (self->problem == NULL)
    return;

  history = viva_history_window_new (GTK_WINDOW (self), NULL,
                                     viva_pack_get_id (self->pack),
                                     viva_problem_get_id (self->problem),
                                     viva_problem_get_title (self->problem));
  gtk_window_present (GTK_WINDOW (history));
}

void
_viva_window_class_init_problems (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, problem_view);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, hint_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, hint_label);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, hint_button);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, hint_button_content);
  gtk_widget_class_install_action (widget_class, "win.show-history", NULL, show_history_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, GDK_CONTROL_MASK, "win.show-history", NULL);
  gtk_widget_class_install_action (widget_class, "win.import-pack", NULL, import_pack_action);
  gtk_widget_class_install_action (widget_class, "win.reset-code", NULL, reset_code_action);
  gtk_widget_class_install_property_action (widget_class, "win.show-hint", "hint-visible");
  gtk_widget_class_install_action (widget_class, "win.show-problems", NULL, show_problems_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.show-problems", NULL);
  gtk_widget_class_bind_template_callback_full (widget_class, "problem_activated_cb",
                                                G_CALLBACK (viva_window_problem_activated_cb));
}

void
_viva_window_init_problems (VivaWindow *self)
{
  GtkDropTarget *drop;
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };

  self->hints_used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* Windows exist only in the application, which owns the library. */
  self->library = g_object_ref (viva_application_get_pack_library (VIVA_APPLICATION (g_application_get_default ())));
  self->status = viva_status_store_new (NULL);
  viva_problems_popover_set_stores (self->problems_popover, self->library, self->status);

  drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop, types, G_N_ELEMENTS (types));
  g_signal_connect_object (drop, "drop", G_CALLBACK (drop_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  /* The bundled pack is in the binary: its problem can be in the first
   * frame, while the user's packs load from disk. */
  if (g_strcmp0 (viva_settings_get_last_pack (viva_settings_get_default ()), "intro-ai") == 0)
    {
      g_autoptr(VivaPack) bundled = viva_pack_new_bundled ();
      VivaProblem *problem = viva_pack_find_problem (bundled, viva_settings_get_last_problem (viva_settings_get_default ()));

      if (problem == NULL)
        problem = viva_pack_find_problem (bundled, "kmeans");
      if (problem != NULL)
        viva_window_open_problem (self, bundled, problem);
    }

  viva_status_store_load_async (self->status, self->cancellable, status_loaded_cb, g_object_ref (self));
  viva_pack_library_load_async (self->library, self->cancellable, library_loaded_cb, g_object_ref (self));
}
