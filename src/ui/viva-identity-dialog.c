/* viva-identity-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-identity-dialog.h"

/* Who sits the exam: the student's name and id, asked once at its start
 * and stamped on every defense and report. Start is offered only when both
 * are given. */

struct _VivaIdentityDialog
{
  AdwMessageDialog  parent_instance;

  AdwEntryRow      *name_row;
  AdwEntryRow      *id_row;
};

G_DEFINE_FINAL_TYPE (VivaIdentityDialog, viva_identity_dialog, ADW_TYPE_MESSAGE_DIALOG)

static char *
dup_stripped (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

static void
changed_cb (VivaIdentityDialog *self)
{
  g_autofree char *name = dup_stripped (self->name_row);
  g_autofree char *id = dup_stripped (self->id_row);

  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "start",
                                           name[0] != '\0' && id[0] != '\0');
}

static void
viva_identity_dialog_class_init (VivaIdentityDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-identity-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaIdentityDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, VivaIdentityDialog, id_row);
  gtk_widget_class_bind_template_callback (widget_class, changed_cb);
}

static void
viva_identity_dialog_init (VivaIdentityDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static char *
format_limit (guint seconds)
{
  if (seconds >= 3600 && seconds % 3600 == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u hour", "%u hours", seconds / 3600), seconds / 3600);
  if (seconds >= 60 && seconds % 60 == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u minute", "%u minutes", seconds / 60), seconds / 60);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u second", "%u seconds", seconds), seconds);
}

/**
 * viva_identity_dialog_new:
 * @exam_title: the exam's title
 * @time_limit: its limit in seconds, 0 for none
 * @can_cancel: whether the student may decline (not when a lab locks the
 *   exam in)
 *
 * Returns: (transfer none): the dialog, modal on @parent (GTK keeps it)
 */
VivaIdentityDialog *
viva_identity_dialog_new (GtkWindow  *parent,
                          const char *exam_title,
                          guint       time_limit,
                          gboolean    can_cancel)
{
  VivaIdentityDialog *self = g_object_new (VIVA_TYPE_IDENTITY_DIALOG,
                                           "transient-for", parent,
                                           "modal", TRUE,
                                           NULL);
  g_autofree char *body = NULL;

  if (time_limit > 0)
    {
      g_autofree char *limit = format_limit (time_limit);

      body = g_strdup_printf (_("“%s” lasts %s from now. Give your name and student id: they are written on every defense and report of this exam."),
                              exam_title, limit);
    }
  else
    body = g_strdup_printf (_("“%s” has no time limit. Give your name and student id: they are written on every defense and report of this exam."),
                            exam_title);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self), body);

  /* Cancel first, so it sits on the left of Start. */
  if (can_cancel)
    {
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (self), "cancel", _("_Cancel"));
      adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (self), "cancel");
    }
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (self), "start", _("_Start Exam"));
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (self), "start", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "start", FALSE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (self), "start");

  return self;
}

/**
 * viva_identity_dialog_dup_name:
 *
 * Returns: (transfer full): the name as given, without outer spaces
 */
char *
viva_identity_dialog_dup_name (VivaIdentityDialog *self)
{
  g_return_val_if_fail (VIVA_IS_IDENTITY_DIALOG (self), NULL);
  return dup_stripped (self->name_row);
}

/**
 * viva_identity_dialog_dup_student_id:
 *
 * Returns: (transfer full): the student id as given, without outer spaces
 */
char *
viva_identity_dialog_dup_student_id (VivaIdentityDialog *self)
{
  g_return_val_if_fail (VIVA_IS_IDENTITY_DIALOG (self), NULL);
  return dup_stripped (self->id_row);
}
