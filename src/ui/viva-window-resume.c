/* viva-window-resume.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-session.h"
#include "viva-file-writer.h"
#include "viva-window-private.h"

/* When a problem opens, a defense of it that stopped half-way (the app was
 * closed, crashed or the computer went off) is offered back: Continue picks
 * it up where it stopped, with a pending question asked again; Discard
 * leaves it in the history and stops offering it. Discarding writes a
 * marker beside the checkpoint rather than deleting anything. */

#define DISCARDED_MARKER "discarded"

static char *
session_dir_of (const char *id)
{
  g_autofree char *sessions = viva_exam_session_dup_default_dir ();

  return g_build_filename (sessions, id, NULL);
}

static gboolean
is_discarded (const char *id)
{
  g_autofree char *dir = session_dir_of (id);
  g_autofree char *marker = g_build_filename (dir, DISCARDED_MARKER, NULL);

  return g_file_test (marker, G_FILE_TEST_EXISTS);
}

static void
viva_window_offer_resume (VivaWindow *self,
                          const char *id)
{
  g_free (self->resume_id);
  self->resume_id = g_strdup (id);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.continue-defense", id != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.discard-defense", id != NULL);
  gtk_revealer_set_reveal_child (self->resume_revealer, id != NULL);

  /* The offer comes as the problem opens, before the student types: the
   * keyboard goes to Continue (Return, or Alt+C from anywhere), not nine
   * Tab presses away behind an editor where Tab indents. */
  if (id != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->resume_continue));
}

static void
list_unfinished_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) ids = NULL;

  if (!(ids = viva_exam_session_list_unfinished_finish (result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("resume: %s", error->message);
      return;
    }

  for (guint i = 0; ids[i] != NULL; i++)
    {
      VivaExaminer *running = self->examiner;
      VivaExamSession *session = running ? viva_examiner_get_session (running) : NULL;

      if (session != NULL && g_strcmp0 (viva_exam_session_get_id (session), ids[i]) == 0)
        continue;

      if (!is_discarded (ids[i]))
        {
          viva_window_offer_resume (self, ids[i]);
          return;
        }
    }
}

/**
 * _viva_window_resume_problem_opened:
 *
 * Looks for an unfinished defense of the problem just opened and offers
 * it back in a banner.
 */
void
_viva_window_resume_problem_opened (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  viva_window_offer_resume (self, NULL);

  g_cancellable_cancel (self->resume_cancellable);
  g_clear_object (&self->resume_cancellable);

  if (self->problem == NULL)
    return;

  self->resume_cancellable = g_cancellable_new ();
  viva_exam_session_list_unfinished_async (NULL,
                                           self->pack ? viva_pack_get_id (self->pack) : NULL,
                                           viva_problem_get_id (self->problem),
                                           self->resume_cancellable,
                                           list_unfinished_cb,
                                           g_object_ref (self));
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(VivaExamSession) session = NULL;
  g_autoptr(GError) error = NULL;

  if (!(session = viva_exam_session_load_finish (result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      /* The loader has set a damaged checkpoint aside; say so and move on. */
      _viva_window_show_banner (self, error->message);
      viva_window_offer_resume (self, NULL);
      return;
    }

  viva_window_offer_resume (self, NULL);
  _viva_window_resume_defense (self, session);
}

static void
continue_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  g_autofree char *id = g_steal_pointer (&self->resume_id);

  if (id == NULL)
    return;

  /* Hiding or disabling the button inside its own click confuses GTK 4.8's
   * pressed-state accounting, so the banner goes once the session has
   * loaded; taking the id away makes a second click do nothing meanwhile. */
  viva_exam_session_load_async (NULL, id, self->resume_cancellable,
                                load_cb, g_object_ref (self));
}

static void
discard_written_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean written = viva_file_writer_write_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  viva_window_offer_resume (self, NULL);

  if (!written)
    {
      g_autofree char *message =
        g_strdup_printf (_("The unfinished defense could not be set aside (%s); it will be offered again next time."),
                         error->message);
      _viva_window_show_banner (self, message);
    }
}

static void
discard_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  g_autofree char *dir = NULL;
  g_autofree char *marker = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  static const char contents[] = "The student chose not to continue this defense.\n";

  if (self->resume_id == NULL)
    return;

  dir = session_dir_of (self->resume_id);
  marker = g_build_filename (dir, DISCARDED_MARKER, NULL);
  file = g_file_new_for_path (marker);
  bytes = g_bytes_new_static (contents, sizeof contents - 1);
  viva_file_writer_write_async (file, bytes, 0666, VIVA_FILE_WRITER_NONE, self->resume_cancellable,
                                discard_written_cb, g_object_ref (self));

  g_clear_pointer (&self->resume_id, g_free);
  adw_toast_overlay_add_toast (self->toast_overlay,
                               adw_toast_new (_("The unfinished defense stays in Past Defenses")));
}

void
_viva_window_class_init_resume (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, resume_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, resume_label);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, resume_continue);
  gtk_widget_class_install_action (widget_class, "win.continue-defense", NULL, continue_action);
  /* Not a mnemonic: GTK 4.8 reads a mnemonic's underscore into the
   * button's accessible name. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_ALT_MASK, "win.continue-defense", NULL);
  gtk_widget_class_install_action (widget_class, "win.discard-defense", NULL, discard_action);
}
