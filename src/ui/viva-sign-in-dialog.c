/* viva-sign-in-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-sign-in-dialog.h"

/* Signing in to an exam server: the exam link (given already when the
 * student opened one, or the lab's `exam-file` setting holds it), the
 * student id and the seat card's code. The dialog only asks: its owner
 * signs in when `response` says "sign-in", and either closes it or shows
 * why not in a sentence under the fields (a wrong code, too many tries, a
 * server that does not answer, a certificate that is not the link's),
 * keeping what was typed. An AdwWindow rather than an AdwMessageDialog,
 * which closes on every response. */

struct _VivaSignInDialog
{
  AdwWindow    parent_instance;

  GtkButton   *cancel_button;
  GtkButton   *sign_in_button;
  GtkSpinner  *spinner;
  AdwEntryRow *link_row;
  AdwEntryRow *id_row;
  AdwEntryRow *code_row;
  GtkLabel    *error_label;

  guint        busy : 1;
  guint        can_cancel : 1;
};

G_DEFINE_FINAL_TYPE (VivaSignInDialog, viva_sign_in_dialog, ADW_TYPE_WINDOW)

enum {
  RESPONSE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
dup_stripped (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

static gboolean
complete (VivaSignInDialog *self)
{
  g_autofree char *link = dup_stripped (self->link_row);
  g_autofree char *id = dup_stripped (self->id_row);
  g_autofree char *code = dup_stripped (self->code_row);

  return link[0] != '\0' && id[0] != '\0' && code[0] != '\0';
}

static void
update (VivaSignInDialog *self)
{
  /* Only the button waits: a focused entry made insensitive warns that it
   * had no focus-out (https://gitlab.gnome.org/GNOME/gtk/-/issues/5845),
   * and what is typed meanwhile is read at the next Sign In. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->sign_in_button), !self->busy && complete (self));
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), self->busy);
  gtk_spinner_set_spinning (self->spinner, self->busy);
}

static void
changed_cb (VivaSignInDialog *self)
{
  update (self);
}

static void
sign_in (VivaSignInDialog *self)
{
  if (self->busy || !complete (self))
    return;

  viva_sign_in_dialog_set_error (self, NULL);
  g_signal_emit (self, signals[RESPONSE], 0, "sign-in");
}

static void
sign_in_clicked_cb (VivaSignInDialog *self)
{
  sign_in (self);
}

/* Enter in a field goes to the next empty one, then signs in. */
static void
activate_cb (VivaSignInDialog *self,
             AdwEntryRow      *row)
{
  AdwEntryRow *rows[] = { self->link_row, self->id_row, self->code_row };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *text = dup_stripped (rows[i]);

      if (text[0] == '\0')
        {
          gtk_widget_grab_focus (GTK_WIDGET (rows[i]));
          return;
        }
    }
  sign_in (self);
}

static void
cancel_clicked_cb (VivaSignInDialog *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
viva_sign_in_dialog_close_request (GtkWindow *window)
{
  VivaSignInDialog *self = VIVA_SIGN_IN_DIALOG (window);

  /* A lab that locks the exam in: there is nothing else to do here. */
  if (!self->can_cancel)
    return TRUE;

  g_signal_emit (self, signals[RESPONSE], 0, "cancel");
  return GTK_WINDOW_CLASS (viva_sign_in_dialog_parent_class)->close_request (window);
}

static void
viva_sign_in_dialog_class_init (VivaSignInDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  window_class->close_request = viva_sign_in_dialog_close_request;

  /**
   * VivaSignInDialog::response:
   * @response: "sign-in", or "cancel" as the dialog closes
   */
  signals[RESPONSE] =
    g_signal_new ("response", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-sign-in-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaSignInDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, VivaSignInDialog, sign_in_button);
  gtk_widget_class_bind_template_child (widget_class, VivaSignInDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, VivaSignInDialog, link_row);
  gtk_widget_class_bind_template_child (widget_class, VivaSignInDialog, id_row);
  gtk_widget_class_bind_template_child (widget_class, VivaSignInDialog, code_row);
  gtk_widget_class_bind_template_child (widget_class, VivaSignInDialog, error_label);
  gtk_widget_class_bind_template_callback (widget_class, changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, sign_in_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
viva_sign_in_dialog_init (VivaSignInDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->can_cancel = TRUE;
}

/**
 * viva_sign_in_dialog_new:
 * @link: (nullable): the exam link, when the student opened one
 * @can_cancel: whether the student may decline (not when a lab locks the
 *   exam in)
 *
 * Returns: (transfer none): the dialog, modal on @parent (GTK keeps it)
 */
VivaSignInDialog *
viva_sign_in_dialog_new (GtkWindow  *parent,
                         const char *link,
                         gboolean    can_cancel)
{
  VivaSignInDialog *self = g_object_new (VIVA_TYPE_SIGN_IN_DIALOG,
                                         "transient-for", parent,
                                         NULL);

  self->can_cancel = !!can_cancel;
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), can_cancel);
  if (link != NULL && link[0] != '\0')
    {
      gtk_editable_set_text (GTK_EDITABLE (self->link_row), link);
      gtk_widget_grab_focus (GTK_WIDGET (self->id_row));
    }
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->link_row));
  update (self);

  return self;
}

/**
 * viva_sign_in_dialog_dup_link:
 *
 * Returns: (transfer full): the exam link as given, without outer spaces
 */
char *
viva_sign_in_dialog_dup_link (VivaSignInDialog *self)
{
  g_return_val_if_fail (VIVA_IS_SIGN_IN_DIALOG (self), NULL);
  return dup_stripped (self->link_row);
}

char *
viva_sign_in_dialog_dup_student_id (VivaSignInDialog *self)
{
  g_return_val_if_fail (VIVA_IS_SIGN_IN_DIALOG (self), NULL);
  return dup_stripped (self->id_row);
}

char *
viva_sign_in_dialog_dup_code (VivaSignInDialog *self)
{
  g_return_val_if_fail (VIVA_IS_SIGN_IN_DIALOG (self), NULL);
  return dup_stripped (self->code_row);
}

/**
 * viva_sign_in_dialog_set_busy:
 *
 * While the server is asked: Sign In waits, with a spinner.
 */
void
viva_sign_in_dialog_set_busy (VivaSignInDialog *self,
                              gboolean          busy)
{
  g_return_if_fail (VIVA_IS_SIGN_IN_DIALOG (self));

  self->busy = !!busy;
  update (self);
}

/**
 * viva_sign_in_dialog_set_error:
 * @message: (nullable): why signing in failed, as a sentence that says
 *   what to do, or %NULL to hide it
 */
void
viva_sign_in_dialog_set_error (VivaSignInDialog *self,
                               const char       *message)
{
  g_return_if_fail (VIVA_IS_SIGN_IN_DIALOG (self));

  if (message != NULL)
    {
      gtk_label_set_label (self->error_label, message);
      /* Said to a screen reader as it appears. */
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->error_label),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message, -1);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}
