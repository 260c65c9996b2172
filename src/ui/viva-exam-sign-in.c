/* viva-exam-sign-in.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-sign-in.h"
#include "viva-settings.h"
#include "viva-sign-in-dialog.h"

/* The sign-in to an exam on an exam server, for a window: the
 * VivaSignInDialog asks the link, the student id and the seat card's
 * code; the client signs in with them; then what this PC kept of the
 * sitting at an earlier start (VivaRemoteKept) is read, and ::signed-in
 * hands the window all it needs to seat the student (viva-window-remote.c).
 * A sign-in refused stays in the dialog, with the server's sentence. */

struct _VivaExamSignIn
{
  GObject               parent_instance;

  VivaSignInDialog     *dialog;        /* while asking; GTK owns it */
  GtkWindow            *parent;        /* while asking; unowned, it owns this */
  VivaExamServerClient *client;        /* while signing in */
  VivaRemoteKept       *kept;          /* this PC's part, read at the sign-in */
  JsonObject           *signed_in;     /* the sitting, while the kept part is read */
  GCancellable         *cancellable;
};

G_DEFINE_FINAL_TYPE (VivaExamSignIn, viva_exam_sign_in, G_TYPE_OBJECT)

enum {
  SIGNED_IN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
kept_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaExamSignIn) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(VivaRemoteKept) kept = NULL;

  state = viva_remote_kept_load_finish (VIVA_REMOTE_KEPT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->signed_in == NULL)
    return;

  /* Unreadable: the server's copy then, as on a PC that kept nothing. */
  if (error != NULL)
    g_debug ("remote: %s not read: %s", viva_remote_kept_get_path (VIVA_REMOTE_KEPT (object)), error->message);
  sitting = g_steal_pointer (&self->signed_in);
  client = g_steal_pointer (&self->client);
  kept = g_steal_pointer (&self->kept);
  g_signal_emit (self, signals[SIGNED_IN], 0, client, sitting, kept, state);
}

static void
signed_in_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(VivaExamSignIn) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) sitting = NULL;
  g_autofree char *token = NULL;

  token = viva_exam_server_client_sign_in_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &sitting, &error);
  if (self->client == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (token == NULL)
    {
      g_clear_object (&self->client);
      if (self->dialog != NULL)
        {
          viva_sign_in_dialog_set_busy (self->dialog, FALSE);
          viva_sign_in_dialog_set_error (self->dialog, error->message);
        }
      return;
    }

  if (self->dialog != NULL)
    {
      VivaSignInDialog *dialog = g_steal_pointer (&self->dialog);

      g_signal_handlers_disconnect_by_data (dialog, self);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }

  /* What this PC kept of the sitting at an earlier start, read first. */
  {
    VivaExamLink *link = viva_exam_server_client_get_link (self->client);
    JsonNode *node = json_object_get_member (sitting, "student");
    JsonObject *student = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

    g_clear_object (&self->kept);
    self->kept = viva_remote_kept_new (NULL, viva_exam_link_get_exam_id (link), viva_exam_link_get_fingerprint (link),
                                       student ? json_object_get_string_member_with_default (student, "id", "") : "");
    g_clear_pointer (&self->signed_in, json_object_unref);
    self->signed_in = g_steal_pointer (&sitting);
    viva_remote_kept_load_async (self->kept, self->cancellable, kept_loaded_cb, g_object_ref (self));
  }
}

static void
dialog_response_cb (VivaExamSignIn   *self,
                    const char       *response,
                    VivaSignInDialog *dialog)
{
  g_autoptr(VivaExamLink) link = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  g_autofree char *code = NULL;

  if (g_strcmp0 (response, "sign-in") != 0)
    {
      self->dialog = NULL;
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
      self->cancellable = g_cancellable_new ();
      g_clear_object (&self->client);
      return;
    }

  text = viva_sign_in_dialog_dup_link (dialog);
  if (!(link = viva_exam_link_parse (text, &error)))
    {
      viva_sign_in_dialog_set_error (dialog, error->message);
      return;
    }

  id = viva_sign_in_dialog_dup_student_id (dialog);
  code = viva_sign_in_dialog_dup_code (dialog);
  g_clear_object (&self->client);
  self->client = viva_exam_server_client_new (link);
  viva_sign_in_dialog_set_busy (dialog, TRUE);
  viva_exam_server_client_sign_in_async (self->client, id, code, self->cancellable,
                                         signed_in_cb, g_object_ref (self));
}

static gboolean
present_dialog_idle_cb (gpointer user_data)
{
  g_autoptr(VivaExamSignIn) self = user_data;

  if (self->dialog != NULL)
    gtk_window_present (GTK_WINDOW (self->dialog));
  return G_SOURCE_REMOVE;
}

/* Once the window has come up and shown itself, so the dialog is above. */
static void
present_dialog_cb (VivaExamSignIn *self)
{
  if (self->parent != NULL)
    g_signal_handlers_disconnect_by_func (self->parent, present_dialog_cb, self);
  g_idle_add_full (G_PRIORITY_LOW, present_dialog_idle_cb, g_object_ref (self), NULL);
}

/**
 * viva_exam_sign_in_ask:
 * @parent: the window the exam is to be sat in
 * @link: (nullable): an exam link, `viva://HOST:PORT/EXAM-ID#sha256=…`,
 *   or %NULL to ask for one
 *
 * Asks the student id and the seat card's code (and the link, unless
 * given) in a dialog above @parent, and signs in: ::signed-in once the
 * server let the student in. The dialog is presented again when it is
 * already asking.
 */
void
viva_exam_sign_in_ask (VivaExamSignIn *self,
                       GtkWindow      *parent,
                       const char     *link)
{
  g_return_if_fail (VIVA_IS_EXAM_SIGN_IN (self));
  g_return_if_fail (GTK_IS_WINDOW (parent));

  if (self->dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->dialog));
      return;
    }

  self->parent = parent;
  self->dialog = viva_sign_in_dialog_new (parent, link,
                                          !viva_settings_is_exam_file_locked (viva_settings_get_default ()));
  g_signal_connect_object (self->dialog, "response", G_CALLBACK (dialog_response_cb), self, G_CONNECT_SWAPPED);
  /* At start (`viva --exam LINK`, the lab's setting) the window comes up
   * (and is presented again by the application's activation) after this:
   * the dialog comes once it is, above it. */
  if (gtk_widget_get_mapped (GTK_WIDGET (parent)))
    present_dialog_cb (self);
  else
    g_signal_connect_object (parent, "map", G_CALLBACK (present_dialog_cb), self, G_CONNECT_SWAPPED);
}

static void
viva_exam_sign_in_dispose (GObject *object)
{
  VivaExamSignIn *self = (VivaExamSignIn *)object;

  g_cancellable_cancel (self->cancellable);
  if (self->dialog != NULL)
    g_signal_handlers_disconnect_by_data (self->dialog, self);
  self->dialog = NULL;
  if (self->parent != NULL)
    g_signal_handlers_disconnect_by_func (self->parent, present_dialog_cb, self);
  self->parent = NULL;
  g_clear_object (&self->kept);
  g_clear_pointer (&self->signed_in, json_object_unref);
  g_clear_object (&self->client);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (viva_exam_sign_in_parent_class)->dispose (object);
}

static void
viva_exam_sign_in_class_init (VivaExamSignInClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_exam_sign_in_dispose;

  /**
   * VivaExamSignIn::signed-in:
   * @client: the client signed in to the exam
   * @sitting: the sitting the server answered
   * @kept: where this PC keeps its part of the sitting
   * @kept_state: (nullable): what @kept held, %NULL when nothing (or
   *   nothing readable)
   *
   * The student is in: the window seats them.
   */
  signals[SIGNED_IN] =
    g_signal_new ("signed-in", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                  VIVA_TYPE_EXAM_SERVER_CLIENT, JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE,
                  VIVA_TYPE_REMOTE_KEPT, JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
viva_exam_sign_in_init (VivaExamSignIn *self)
{
  self->cancellable = g_cancellable_new ();
}

VivaExamSignIn *
viva_exam_sign_in_new (void)
{
  return g_object_new (VIVA_TYPE_EXAM_SIGN_IN, NULL);
}
