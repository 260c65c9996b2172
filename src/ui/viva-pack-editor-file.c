/* viva-pack-editor-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>

#include "viva-pack-editor-private.h"

/* The pack as a file: new, open (a copy of a library pack, or any file),
 * save (into the library's folder the first time, which the student's
 * window reloads), export, and asking before unsaved changes are dropped. */

/* Lowercase letters, digits and dashes, so an id made from a title is a
 * valid file name and pack id. */
char *
_viva_pack_editor_slugify (const char *text)
{
  g_autofree char *lower = g_utf8_strdown (text ? text : "", -1);
  GString *slug = g_string_new (NULL);

  for (const char *p = lower; *p; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (slug, *p);
      else if (slug->len > 0 && slug->str[slug->len - 1] != '-')
        g_string_append_c (slug, '-');
    }
  while (slug->len > 0 && slug->str[slug->len - 1] == '-')
    g_string_truncate (slug, slug->len - 1);
  if (slug->len > 64)
    g_string_truncate (slug, 64);

  return g_string_free (slug, FALSE);
}

void
_viva_pack_editor_set_pack (VivaPackEditor *self,
          VivaPack       *pack,
          GFile          *file)
{
  GListModel *problems;
  g_autoptr(VivaProblem) first = NULL;

  g_set_object (&self->pack, pack);
  g_set_object (&self->file, file);
  self->problem = NULL;
  g_hash_table_remove_all (self->issues);
  g_hash_table_remove_all (self->checks);

  self->loading = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->pack_title_row), pack ? viva_pack_get_title (pack) : "");
  gtk_editable_set_text (GTK_EDITABLE (self->pack_author_row),
                         pack && viva_pack_get_author (pack) ? viva_pack_get_author (pack) : "");
  self->loading = FALSE;

  _viva_pack_editor_set_dirty (self, FALSE);
  _viva_pack_editor_update_title (self);

  problems = pack ? viva_pack_get_problems (pack) : NULL;
  if (problems != NULL && g_list_model_get_n_items (problems) > 0)
    first = g_list_model_get_item (problems, 0);
  _viva_pack_editor_select_problem (self, first);
}

/* Packs ---------------------------------------------------------------- */

static void
new_pack_response_cb (AdwMessageDialog *dialog,
                      const char       *response,
                      VivaPackEditor   *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  g_autoptr(VivaPack) pack = NULL;
  g_autofree char *slug = NULL;
  g_autofree char *id = NULL;
  const char *title;

  if (!g_str_equal (response, "create"))
    return;

  title = gtk_editable_get_text (entry);
  slug = _viva_pack_editor_slugify (title);
  if (slug[0] == '\0')
    {
      g_free (slug);
      slug = g_strdup ("pack");
    }

  /* The id names the file in the library: it must not take another pack's. */
  id = g_strdup (slug);
  for (guint n = 2; viva_pack_library_find_pack (self->library, id) != NULL; n++)
    {
      g_free (id);
      id = g_strdup_printf ("%s-%u", slug, n);
    }

  pack = viva_pack_new (id, title);
  _viva_pack_editor_set_pack (self, pack, NULL);
  _viva_pack_editor_set_dirty (self, TRUE);
}

static void
new_pack_title_changed_cb (GtkEditable      *entry,
                           AdwMessageDialog *dialog)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "create", text[0] != '\0');
}

static void
ask_new_pack (VivaPackEditor *self)
{
  AdwMessageDialog *dialog;
  GtkWidget *entry = gtk_entry_new ();

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("New Pack"),
                                                       _("Students see the pack’s title above its problems.")));
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Title, like “Week 3: Sorting”"));
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("New pack title"), -1);
  adw_message_dialog_set_extra_child (dialog, entry);
  adw_message_dialog_add_responses (dialog, "cancel", _("Cancel"), "create", _("Create"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "create", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "create");
  adw_message_dialog_set_close_response (dialog, "cancel");
  adw_message_dialog_set_response_enabled (dialog, "create", FALSE);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_signal_connect (entry, "changed", G_CALLBACK (new_pack_title_changed_cb), dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (new_pack_response_cb), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

typedef void (*Continuation) (VivaPackEditor *self,
                              gpointer        data);

typedef struct
{
  VivaPackEditor *self;
  Continuation    then;
  gpointer        data;
  GDestroyNotify  destroy;
} Pending;

static void
pending_free (Pending *pending)
{
  if (pending->destroy != NULL)
    pending->destroy (pending->data);
  g_object_unref (pending->self);
  g_free (pending);
}

static void
discard_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     Pending          *pending)
{
  if (g_str_equal (response, "discard"))
    pending->then (pending->self, pending->data);
  pending_free (pending);
}

/* Runs @then now, or after the teacher agrees to drop unsaved changes. */
static void
unless_unsaved (VivaPackEditor *self,
                Continuation    then,
                gpointer        data,
                GDestroyNotify  destroy)
{
  Pending *pending;
  AdwMessageDialog *dialog;

  if (!self->dirty)
    {
      then (self, data);
      if (destroy != NULL)
        destroy (data);
      return;
    }

  pending = g_new0 (Pending, 1);
  pending->self = g_object_ref (self);
  pending->then = then;
  pending->data = data;
  pending->destroy = destroy;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Discard Unsaved Changes?"),
                                                       _("The open pack has changes that are not saved. Cancel and save it first to keep them.")));
  adw_message_dialog_add_responses (dialog, "cancel", _("Cancel"), "discard", _("Discard Changes"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (discard_response_cb), pending);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
new_then (VivaPackEditor *self,
          gpointer        data)
{
  ask_new_pack (self);
}

void
_viva_pack_editor_new_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  unless_unsaved (VIVA_PACK_EDITOR (widget), new_then, NULL, NULL);
}

static void
open_pack_then (VivaPackEditor *self,
                gpointer        data)
{
  VivaPack *pack = data;
  g_autoptr(GBytes) bytes = viva_pack_to_bytes (pack);
  g_autoptr(VivaPack) copy = NULL;
  g_autoptr(GError) error = NULL;

  /* A copy: the student's window keeps showing what is saved. */
  if (!(copy = viva_pack_new_from_bytes (bytes, &error)))
    return _viva_pack_editor_toast (self, error->message);

  _viva_pack_editor_set_pack (self, copy, viva_pack_get_file (pack));
}

void
_viva_pack_editor_open_row_activated_cb (GtkListBox     *list,
                       GtkListBoxRow  *row,
                       VivaPackEditor *self)
{
  VivaPack *pack = g_object_get_data (G_OBJECT (row), "pack");

  gtk_popover_popdown (self->open_popover);
  unless_unsaved (self, open_pack_then, g_object_ref (pack), g_object_unref);
}

void
_viva_pack_editor_rebuild_open_list (VivaPackEditor *self)
{
  GListModel *packs = viva_pack_library_get_packs (self->library);
  GtkWidget *child;
  guint shown = 0;

  while ((child = GTK_WIDGET (gtk_list_box_get_row_at_index (self->open_list, 0))) != NULL)
    gtk_list_box_remove (self->open_list, child);

  for (guint i = 0; i < g_list_model_get_n_items (packs); i++)
    {
      g_autoptr(VivaPack) pack = g_list_model_get_item (packs, i);
      GtkWidget *row;

      if (viva_pack_library_is_bundled (self->library, pack))
        continue;

      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), viva_pack_get_title (pack));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), viva_pack_get_id (pack));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "pack", g_object_ref (pack), g_object_unref);
      gtk_list_box_append (self->open_list, row);
      shown++;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->open_list), shown > 0);
}

static void
open_file_loaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(VivaPackEditor) self = user_data;
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;

  if (!(pack = viva_pack_new_from_file_finish (result, &issues, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _viva_pack_editor_toast (self, error->message);
      return;
    }

  _viva_pack_editor_set_pack (self, pack, viva_pack_get_file (pack));
}

static void
open_file_then (VivaPackEditor *self,
                gpointer        data)
{
  viva_pack_new_from_file_async (G_FILE (data), self->cancellable, open_file_loaded_cb, g_object_ref (self));
}

static void
open_chooser_response_cb (GtkNativeDialog *chooser,
                          int              response,
                          VivaPackEditor  *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL)
    unless_unsaved (self, open_file_then, g_object_ref (file), g_object_unref);

  g_object_unref (chooser);
}

static GtkFileFilter *
json_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Problem packs"));
  gtk_file_filter_add_mime_type (filter, "application/json");
  gtk_file_filter_add_suffix (filter, "json");

  return filter;
}

void
_viva_pack_editor_open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (widget);
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = json_filter ();

  gtk_popover_popdown (self->open_popover);
  chooser = gtk_file_chooser_native_new (_("Open a Pack"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect (chooser, "response", G_CALLBACK (open_chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
library_reloaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(VivaPackEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_pack_library_load_finish (VIVA_PACK_LIBRARY (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _viva_pack_editor_toast (self, error->message);
      return;
    }

  /* The library loads only valid packs: say so rather than let a teacher
   * think the students have it. */
  if (self->pack != NULL && viva_pack_library_find_pack (VIVA_PACK_LIBRARY (object), viva_pack_get_id (self->pack)) == NULL)
    _viva_pack_editor_toast (self, _("Saved, but students will not see the pack until it is valid: run Validate and fix what it lists."));
}

typedef struct
{
  VivaPackEditor *self;
  GFile          *file;
  gboolean        export;
  gboolean        then_close;
} SaveData;

static void
save_data_free (SaveData *sd)
{
  g_clear_object (&sd->self);
  g_clear_object (&sd->file);
  g_free (sd);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SaveData, save_data_free)

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SaveData) sd = user_data;
  VivaPackEditor *self = sd->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = g_file_get_parse_name (sd->file);
  g_autofree char *message = NULL;
  g_autoptr(GFile) directory = NULL;

  if (!viva_pack_save_finish (VIVA_PACK (object), result, &error))
    {
      message = g_strdup_printf (_("The pack could not be saved to %s: %s"), where, error->message);
      _viva_pack_editor_toast (self, message);
      return;
    }

  if (sd->export)
    {
      message = g_strdup_printf (_("Exported to %s"), where);
      _viva_pack_editor_toast (self, message);
      return;
    }

  g_set_object (&self->file, sd->file);
  self->dirty = TRUE;
  _viva_pack_editor_set_dirty (self, FALSE);
  message = g_strdup_printf (_("Saved “%s”"), viva_pack_get_title (VIVA_PACK (object)));
  _viva_pack_editor_toast (self, message);

  /* A pack in the library's folder shows up in the students' list. */
  directory = g_file_new_for_path (viva_pack_library_get_directory (self->library));
  if (g_file_has_prefix (sd->file, directory))
    viva_pack_library_load_async (self->library, self->cancellable, library_reloaded_cb, g_object_ref (self));

  if (sd->then_close)
    {
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
}

static void
save_to (VivaPackEditor *self,
         GFile          *file,
         gboolean        export,
         gboolean        then_close)
{
  SaveData *sd = g_new0 (SaveData, 1);

  _viva_pack_editor_sync_problem (self);
  sd->self = g_object_ref (self);
  sd->file = g_object_ref (file);
  sd->export = export;
  sd->then_close = then_close;
  viva_pack_save_async (self->pack, file, self->cancellable, saved_cb, sd);
}

void
_viva_pack_editor_save (VivaPackEditor *self,
      gboolean        then_close)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *name = NULL;
  const char *directory;

  if (self->pack == NULL)
    return;

  if (self->file != NULL)
    return save_to (self, self->file, FALSE, then_close);

  directory = viva_pack_library_get_directory (self->library);
  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;
      g_autofree char *message = g_strdup_printf (_("The folder for packs, %s, could not be created: %s"),
                                                  directory, g_strerror (saved_errno));

      return _viva_pack_editor_toast (self, message);
    }

  name = g_strconcat (viva_pack_get_id (self->pack), ".json", NULL);
  file = g_file_new_build_filename (directory, name, NULL);
  save_to (self, file, FALSE, then_close);
}

void
_viva_pack_editor_save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  _viva_pack_editor_save (VIVA_PACK_EDITOR (widget), FALSE);
}

static void
export_chooser_response_cb (GtkNativeDialog *chooser,
                            int              response,
                            VivaPackEditor  *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL)
    save_to (self, file, TRUE, FALSE);

  g_object_unref (chooser);
}

void
_viva_pack_editor_export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (widget);
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = json_filter ();
  g_autofree char *name = g_strconcat (viva_pack_get_id (self->pack), ".json", NULL);

  chooser = gtk_file_chooser_native_new (_("Export the Pack"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (export_chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

