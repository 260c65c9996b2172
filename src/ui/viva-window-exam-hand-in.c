/* viva-window-exam-hand-in.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-hand-in.h"
#include "viva-exam-sitting.h"
#include "viva-window-private.h"

/* The window's view of the sitting's VivaExamHandIn (core/sitting/),
 * which holds the rules: what the student has open, types and runs is
 * told to it before the time, and which defense runs; when the time is
 * up, the window opens each problem it hands in with the code it gives
 * (from memory, never from disk) and submits it exactly as the open one
 * is, one defense after another since the window has one examiner panel.
 * When nothing is left, the window ends on a page that lists each
 * problem of the exam with what became of it and its report's file. */

struct _VivaWindowHandIn
{
  VivaExamHandIn *hand_in;      /* the sitting's, whose changes refresh the page */
  VivaExaminer   *ended;        /* weak: the last defense whose end was told */
  GCancellable   *cancellable;  /* reading the saved code at the start */
  GCancellable   *report_cancellable;
  GtkStack       *stack;        /* the work, or the page of what was handed in */
  GtkBox         *list;         /* a box, not a list: the Problems list is the one list of problems */
  GtkLabel       *folder_label;
  GtkWidget      *show_code;
  char           *report_error;
  guint           advance_id;
  guint           time_up : 1;
};

/* The hand-in of the sitting under way, if the student began it. */
static VivaExamHandIn *
core (VivaWindow *self)
{
  if (self->hand_in == NULL || self->sitting == NULL)
    return NULL;

  return viva_exam_sitting_get_hand_in (self->sitting);
}

/* The open problem is the exam's, of the exam's pack. */
static const char *
open_exam_problem (VivaWindow *self)
{
  VivaExamFile *exam = self->sitting ? viva_exam_sitting_get_exam (self->sitting) : NULL;

  if (exam == NULL || self->pack == NULL || self->problem == NULL ||
      g_strcmp0 (viva_pack_get_id (self->pack), viva_pack_get_id (viva_exam_file_get_pack (exam))) != 0 ||
      !viva_exam_file_has_problem (exam, viva_problem_get_id (self->problem)))
    return NULL;

  return viva_problem_get_id (self->problem);
}

/* Tells the hand-in which defense runs: the one shown, from its start
 * until its end was told (a verdict, a failure, a stop). */
static void
sync_defending (VivaWindow *self)
{
  VivaExamHandIn *hand_in = core (self);
  VivaExaminer *examiner = self->examiner;
  VivaExamFile *exam = self->sitting ? viva_exam_sitting_get_exam (self->sitting) : NULL;
  const char *id = NULL;

  if (hand_in == NULL)
    return;

  if (examiner != NULL && examiner != self->hand_in->ended)
    {
      VivaExaminerState state = viva_examiner_get_state (examiner);

      if (state != VIVA_EXAMINER_STATE_CANCELLED && state != VIVA_EXAMINER_STATE_FAILED &&
          viva_exam_file_has_problem (exam, viva_problem_get_id (viva_examiner_get_problem (examiner))))
        id = viva_problem_get_id (viva_examiner_get_problem (examiner));
    }

  viva_exam_hand_in_set_defending (hand_in, id);
}

/**
 * _viva_window_hand_in_code_seen:
 * @code: the open problem's code, as the editor shows it now
 * @worked: whether the student changed it just now
 *
 * Tells the hand-in what the student has, so that time up can hand it in
 * without reading it back from disk. The hand-in ignores it after the
 * time.
 */
void
_viva_window_hand_in_code_seen (VivaWindow *self,
                                const char *code,
                                gboolean    worked)
{
  VivaExamHandIn *hand_in = core (self);
  const char *id = open_exam_problem (self);

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || id == NULL)
    return;

  viva_exam_hand_in_set_open_problem (hand_in, id);
  viva_exam_hand_in_code_seen (hand_in, id, code, worked);
}

/**
 * _viva_window_hand_in_code_run:
 * @code: the open problem's code, as it runs now
 */
void
_viva_window_hand_in_code_run (VivaWindow *self,
                               const char *code)
{
  VivaExamHandIn *hand_in = core (self);
  const char *id = open_exam_problem (self);

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || id == NULL)
    return;

  viva_exam_hand_in_set_open_problem (hand_in, id);
  viva_exam_hand_in_code_run (hand_in, id, code);
}

static const char *
describe (VivaWindowHandIn    *view,
          VivaExamHandInState  state,
          const char          *report)
{
  switch (state)
    {
    case VIVA_EXAM_HAND_IN_WAITING:
      return _("Waiting for its defense");
    case VIVA_EXAM_HAND_IN_DEFENDING:
      return _("Being defended now");
    case VIVA_EXAM_HAND_IN_DEFENDED:
      if (report != NULL)
        return NULL;
      return view->report_error ? _("Defended, but its report could not be written — tell the teacher")
                                : _("Defended; its report is being written");
    case VIVA_EXAM_HAND_IN_FAILED:
      return _("Its defense failed and it was not handed in — tell the teacher");
    case VIVA_EXAM_HAND_IN_LEFT:
      return _("Not handed in: Viva was closed before its defense");
    case VIVA_EXAM_HAND_IN_NONE:
    default:
      return _("Not handed in: not worked on during the exam");
    }
}

/* The page's lines, again from the hand-in: only their text and icons
 * change, so nothing new needs laying out in the middle of a frame. */
static void
refresh_page (VivaWindow *self)
{
  VivaWindowHandIn *view = self->hand_in;
  VivaExamHandIn *hand_in = core (self);
  VivaExamFile *exam = self->sitting ? viva_exam_sitting_get_exam (self->sitting) : NULL;
  g_autofree char *folder = NULL;

  if (hand_in == NULL || view->list == NULL)
    return;

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (view->list));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      const char *id = g_object_get_data (G_OBJECT (row), "problem-id");
      GtkWidget *icon = gtk_widget_get_first_child (row);
      GtkWidget *line = gtk_widget_get_last_child (gtk_widget_get_last_child (row));
      const char *report = viva_exam_hand_in_get_report (hand_in, id);
      VivaExamHandInState state = viva_exam_hand_in_get_state (hand_in, id);
      g_autofree char *text = NULL;

      if (describe (view, state, report) != NULL)
        text = g_strdup (describe (view, state, report));
      else
        {
          g_autofree char *name = g_path_get_basename (report);
          /* Translators: a problem's line on the page that ends an exam;
           * %s is its report's file name. */
          text = g_strdup_printf (_("Defended — report %s"), name);
        }

      gtk_label_set_label (GTK_LABEL (line), text);
      gtk_image_set_from_icon_name (GTK_IMAGE (icon),
                                    state == VIVA_EXAM_HAND_IN_DEFENDED ? "emblem-ok-symbolic"
                                    : state == VIVA_EXAM_HAND_IN_NONE ? "action-unavailable-symbolic"
                                    : "dialog-warning-symbolic");
      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    }

  /* Translators: under the list of what an exam handed in. */
  folder = g_strdup_printf (_("The reports are in %s"), viva_exam_file_get_report_folder (exam));
  gtk_label_set_label (view->folder_label, folder);
}

/* A line for each of the exam's problems, in the pack's order. */
static void
add_rows (VivaWindow *self)
{
  VivaWindowHandIn *view = self->hand_in;
  VivaExamFile *exam = self->sitting ? viva_exam_sitting_get_exam (self->sitting) : NULL;
  GListModel *problems = viva_pack_get_problems (viva_exam_file_get_pack (exam));

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      GtkWidget *row, *text, *label;

      if (!viva_exam_file_has_problem (exam, viva_problem_get_id (problem)))
        continue;

      row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      gtk_widget_add_css_class (row, "viva-hand-in-row");
      g_object_set_data_full (G_OBJECT (row), "problem-id", g_strdup (viva_problem_get_id (problem)), g_free);
      gtk_box_append (GTK_BOX (row), gtk_image_new ());
      text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      label = gtk_label_new (viva_problem_get_title (problem));
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_box_append (GTK_BOX (text), label);
      label = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (text), label);
      gtk_box_append (GTK_BOX (row), text);
      gtk_box_append (view->list, row);
    }
}

static void
show_code_cb (GtkButton  *button,
              VivaWindow *self)
{
  gtk_stack_set_visible_child_name (self->hand_in->stack, "work");
}

/* Made once, the first time it is shown. */
static void
build_page (VivaWindow *self)
{
  VivaWindowHandIn *view = self->hand_in;
  GtkWidget *scrolled, *clamp, *box, *title, *body, *button;

  if (view->list != NULL)
    return;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (box, 36);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);

  title = gtk_label_new (_("Your Exam Was Handed In"));
  gtk_widget_add_css_class (title, "title-1");
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_box_append (GTK_BOX (box), title);

  body = gtk_label_new (_("The time is up. What became of each problem of the exam:"));
  gtk_label_set_wrap (GTK_LABEL (body), TRUE);
  gtk_box_append (GTK_BOX (box), body);

  view->list = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 0));
  gtk_widget_add_css_class (GTK_WIDGET (view->list), "card");
  gtk_widget_add_css_class (GTK_WIDGET (view->list), "viva-hand-in-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (view->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Problems handed in"), -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (view->list));

  view->folder_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (GTK_LABEL (view->folder_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (view->folder_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (view->folder_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (view->folder_label), "dim-label");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (view->folder_label));

  button = view->show_code = gtk_button_new_with_mnemonic (_("_Show Your Code"));
  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "pill");
  g_signal_connect_object (button, "clicked", G_CALLBACK (show_code_cb), self, 0);
  gtk_box_append (GTK_BOX (box), button);

  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 600);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  gtk_stack_add_named (view->stack, scrolled, "handed-in");
  add_rows (self);
}

/* Nothing more runs or waits after the time: the window ends on the page
 * of what was handed in, and the panel shows the last defense whole. */
static void
viva_window_hand_in_over (VivaWindow *self)
{
  build_page (self);
  refresh_page (self);
  gtk_stack_set_visible_child_name (self->hand_in->stack, "handed-in");
  /* On the button rather than a selectable line, which focus would
   * select whole. */
  gtk_widget_grab_focus (self->hand_in->show_code);

  /* The panel's conversation was laid out while the window moved from
   * problem to problem; lay it out and draw it again now that it rests. */
  gtk_widget_queue_resize (GTK_WIDGET (self->examiner_panel));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  _viva_window_update_actions (self);
}

/**
 * _viva_window_hand_in_problem_shown:
 *
 * The student chose a problem after the exam: its code is shown, not the
 * page of what was handed in.
 */
void
_viva_window_hand_in_problem_shown (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (self->hand_in != NULL)
    gtk_stack_set_visible_child_name (self->hand_in->stack, "work");
}

static void
hand_in_changed_cb (VivaWindow *self)
{
  if (gtk_stack_get_child_by_name (self->hand_in->stack, "handed-in") != NULL)
    refresh_page (self);
}

/**
 * _viva_window_hand_in_exam_began:
 *
 * The sitting runs: the hand-in is told what the open problem shows now
 * and reads, once, the saved code of each problem worked on before Viva
 * was last started. Reopened after the time, the window shows what was
 * handed in.
 */
void
_viva_window_hand_in_exam_began (VivaWindow *self)
{
  VivaWindowHandIn *view = self->hand_in;
  VivaExamHandIn *hand_in = core (self);

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL)
    return;

  if (view->hand_in != NULL)
    g_signal_handlers_disconnect_by_func (view->hand_in, hand_in_changed_cb, self);
  g_set_object (&view->hand_in, hand_in);
  g_signal_connect_object (view->hand_in, "changed", G_CALLBACK (hand_in_changed_cb), self, G_CONNECT_SWAPPED);

  if (viva_exam_hand_in_is_closed (hand_in))
    {
      viva_window_hand_in_over (self);
      return;
    }

  if (self->code_loaded && open_exam_problem (self) != NULL)
    {
      g_autofree char *code = viva_editor_dup_text (self->editor);
      _viva_window_hand_in_code_seen (self, code, FALSE);
    }

  viva_exam_hand_in_read_saved_async (hand_in, self->code_store, self->hand_in->cancellable, NULL, NULL);
}

static void viva_window_hand_in_advance (VivaWindow *self);

static void
viva_window_hand_in_next (VivaWindow *self)
{
  VivaExamHandIn *hand_in = core (self);
  VivaExamFile *exam = self->sitting ? viva_exam_sitting_get_exam (self->sitting) : NULL;
  g_autofree char *id = NULL;
  g_autofree char *code = NULL;
  g_autofree char *shown = NULL;
  VivaPack *pack;
  VivaProblem *problem;

  if (hand_in == NULL)
    return;

  if (!viva_exam_hand_in_take_next (hand_in, &id, &code))
    {
      if (!viva_exam_hand_in_is_active (hand_in))
        viva_window_hand_in_over (self);
      return;
    }

  pack = viva_exam_file_get_pack (exam);
  if ((problem = viva_pack_find_problem (pack, id)) == NULL)
    {
      viva_exam_hand_in_defense_ended (hand_in, id, FALSE);
      viva_window_hand_in_advance (self);
      return;
    }

  /* The open problem is defended as the hand-in has it (its code as last
   * run); any other is shown with its code from memory, never loaded from
   * disk. The editor stays read-only, so the defense reads that code. */
  if (g_strcmp0 (open_exam_problem (self), id) == 0)
    {
      shown = viva_editor_dup_text (self->editor);
      if (g_strcmp0 (shown, code) != 0)
        _viva_window_replace_code (self, code);
    }
  else
    _viva_window_open_problem_with_code (self, pack, problem, code);
  _viva_window_submit_now (self);

  /* Said by the header bar (which problem, and which defense of how
   * many), not a toast: toasts queue, and would name it after the fact. */
  _viva_window_update_actions (self);
}

static gboolean
advance_cb (gpointer user_data)
{
  VivaWindow *self = VIVA_WINDOW (user_data);

  self->hand_in->advance_id = 0;
  viva_window_hand_in_next (self);

  return G_SOURCE_REMOVE;
}

/* From an idle: the defense that ended is still finishing its callback. */
static void
viva_window_hand_in_advance (VivaWindow *self)
{
  if (self->hand_in->advance_id == 0)
    self->hand_in->advance_id = g_idle_add (advance_cb, self);
}

/**
 * _viva_window_hand_in_time_up:
 *
 * The sitting's time ran out and its hand-in queued what it hands in:
 * says so, and starts the first defense unless one runs already.
 */
void
_viva_window_hand_in_time_up (VivaWindow *self)
{
  VivaExamHandIn *hand_in = core (self);
  const char *open = open_exam_problem (self);
  gboolean open_first;
  guint n, others;

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || self->hand_in->time_up)
    return;

  self->hand_in->time_up = TRUE;
  g_cancellable_cancel (self->hand_in->cancellable);
  sync_defending (self);

  n = viva_exam_hand_in_get_n_waiting (hand_in);
  open_first = n > 0 && open != NULL && g_strcmp0 (viva_exam_hand_in_get_waiting (hand_in, 0, NULL), open) == 0;
  others = n - (open_first ? 1 : 0);

  /* One problem alone reads as it always did. */
  if (others == 0 && open_first)
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Time is up: your code as last run was submitted for defense")));
  else if (others == 0)
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Time is up: the defense goes on with what you have typed")));
  else
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "Time is up: %u problem submitted for defense",
                                                            "Time is up: %u problems submitted for defense", n),
                                               n);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
    }

  /* A defense under way goes first; the next starts when it ends. */
  if (viva_exam_hand_in_get_defending (hand_in) == NULL)
    viva_window_hand_in_next (self);
}

static void
report_handed_in_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  VivaExamSitting *sitting = VIVA_EXAM_SITTING (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = viva_exam_sitting_hand_in_report_finish (sitting, result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->hand_in == NULL)
    return;

  if (path == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Your report could not be written to %s: %s. Tell the teacher before you leave."),
                                                  viva_exam_file_get_report_folder (viva_exam_sitting_get_exam (sitting)),
                                                  error->message);
      _viva_window_show_banner (self, message);
      g_free (self->hand_in->report_error);
      self->hand_in->report_error = g_strdup (error->message);
      hand_in_changed_cb (self);
      return;
    }

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Your report was handed in to the exam’s folder")));
}

/**
 * _viva_window_hand_in_defense_ended:
 * @examiner: the defense that ended
 * @reported: whether it reached a verdict, so that its report is handed in
 *
 * Called for every defense that ends, with a verdict, failed or stopped:
 * one with a verdict has its report (HTML and JSON) handed in to the
 * exam's report folder by the sitting; the hand-in is told; after the time, the next problem waiting is
 * submitted (a failed one does not hold the others back), and after the
 * last the window shows what was handed in.
 */
void
_viva_window_hand_in_defense_ended (VivaWindow   *self,
                                    VivaExaminer *examiner,
                                    gboolean      reported)
{
  VivaExamHandIn *hand_in = core (self);
  VivaExamFile *exam = self->sitting ? viva_exam_sitting_get_exam (self->sitting) : NULL;
  VivaProblem *problem;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (VIVA_IS_EXAMINER (examiner));

  if (reported && self->sitting != NULL && viva_examiner_get_session (examiner) != NULL)
    viva_exam_sitting_hand_in_report_async (self->sitting, viva_examiner_get_session (examiner),
                                            viva_problem_get_id (viva_examiner_get_problem (examiner)),
                                            self->hand_in->report_cancellable, report_handed_in_cb,
                                            g_object_ref (self));

  if (hand_in == NULL)
    return;

  problem = viva_examiner_get_problem (examiner);
  g_set_weak_pointer (&self->hand_in->ended, examiner);
  if (viva_exam_file_has_problem (exam, viva_problem_get_id (problem)))
    viva_exam_hand_in_defense_ended (hand_in, viva_problem_get_id (problem), reported);
  sync_defending (self);

  if (!self->hand_in->time_up || _viva_window_defense_busy (self))
    return;

  /* The panel moves on, so the failure is said here, short enough for a
   * toast's one line (its trace keeps the error); a toast's title is
   * markup, the problem's title text. */
  if (viva_examiner_get_state (examiner) == VIVA_EXAMINER_STATE_FAILED)
    {
      g_autofree char *title = g_markup_escape_text (viva_problem_get_title (problem), -1);
      g_autofree char *note = g_strdup_printf (_("The defense of “%s” failed and was not handed in; tell the teacher"),
                                               title);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (note));
    }

  viva_window_hand_in_advance (self);
}

/**
 * _viva_window_hand_in_is_active:
 *
 * Returns: whether the time-up hand-in still has a defense running or
 *   waiting; meanwhile the open problem stays the one defended.
 */
gboolean
_viva_window_hand_in_is_active (VivaWindow *self)
{
  VivaExamHandIn *hand_in = core (self);

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || !self->hand_in->time_up)
    return FALSE;

  return viva_exam_hand_in_is_active (hand_in) || self->hand_in->advance_id != 0;
}

/**
 * _viva_window_hand_in_dup_state:
 *
 * Returns: (transfer full) (nullable): where a hand-in of several
 *   problems stands, for the header bar, or %NULL
 */
char *
_viva_window_hand_in_dup_state (VivaWindow *self)
{
  VivaExamHandIn *hand_in = core (self);
  guint position, total;

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || !_viva_window_hand_in_is_active (self))
    return NULL;

  position = viva_exam_hand_in_get_position (hand_in);
  total = viva_exam_hand_in_get_total (hand_in);
  if (total < 2 || position == 0)
    return NULL;

  return g_strdup_printf (_("Time is up: defense %u of %u"), position, total);
}

/**
 * _viva_window_update_hand_in_actions:
 *
 * The hand-in's part of _viva_window_update_actions(), called whenever a
 * defense starts, changes state or ends: the hand-in learns which defense
 * runs, and while problems wait the one under way cannot be stopped,
 * since nothing could submit them after it.
 */
void
_viva_window_update_hand_in_actions (VivaWindow *self)
{
  VivaExamHandIn *hand_in = core (self);

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL)
    return;

  sync_defending (self);
  if (viva_exam_hand_in_get_n_waiting (hand_in) > 0)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.stop", FALSE);
}

static void
close_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   VivaWindow       *self)
{
  VivaExamHandIn *hand_in;

  if (g_strcmp0 (response, "close") != 0 || self->hand_in == NULL || (hand_in = core (self)) == NULL)
    return;

  /* The student chose to leave them: nothing hands them in again. */
  viva_exam_hand_in_leave_waiting (hand_in);
  gtk_window_close (GTK_WINDOW (self));
}

/**
 * _viva_window_hand_in_hold_close:
 *
 * Asks before the window closes with problems still waiting for their
 * defense: after the time they cannot be submitted again.
 *
 * Returns: %TRUE if the close waits for the student's answer
 */
gboolean
_viva_window_hand_in_hold_close (VivaWindow *self)
{
  VivaExamHandIn *hand_in = core (self);
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;
  guint n;

  g_assert (VIVA_IS_WINDOW (self));

  if (hand_in == NULL || (n = viva_exam_hand_in_get_n_waiting (hand_in)) == 0)
    return FALSE;

  body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u more problem waits for its defense. If you close Viva now, it is not handed in, and after the time it cannot be.",
                                       "%u more problems wait for their defense. If you close Viva now, they are not handed in, and after the time they cannot be.",
                                       n),
                          n);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Your Exam Is Still Being Handed In"), body));
  adw_message_dialog_add_responses (dialog,
                                    "wait", _("_Keep Viva Open"),
                                    "close", _("_Close Anyway"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "close", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "wait");
  adw_message_dialog_set_close_response (dialog, "wait");
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));

  return TRUE;
}

void
_viva_window_init_hand_in (VivaWindow *self)
{
  VivaWindowHandIn *view;
  GtkWidget *work;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->hand_in == NULL);

  view = self->hand_in = g_new0 (VivaWindowHandIn, 1);
  view->cancellable = g_cancellable_new ();
  view->report_cancellable = g_cancellable_new ();

  /* The problem, editor and console share the start of the examiner's
   * pane with the page that ends an exam. */
  work = gtk_paned_get_start_child (self->examiner_paned);
  g_object_ref (work);
  gtk_paned_set_start_child (self->examiner_paned, NULL);
  view->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (view->stack, work, "work");
  gtk_paned_set_start_child (self->examiner_paned, GTK_WIDGET (view->stack));
  g_object_unref (work);
}

void
_viva_window_dispose_hand_in (VivaWindow *self)
{
  VivaWindowHandIn *view = g_steal_pointer (&self->hand_in);

  if (view == NULL)
    return;

  g_cancellable_cancel (view->cancellable);
  g_cancellable_cancel (view->report_cancellable);
  g_clear_handle_id (&view->advance_id, g_source_remove);
  g_clear_weak_pointer (&view->ended);
  if (view->hand_in != NULL)
    g_signal_handlers_disconnect_by_func (view->hand_in, hand_in_changed_cb, self);
  g_clear_object (&view->hand_in);
  g_clear_object (&view->cancellable);
  g_clear_object (&view->report_cancellable);
  g_clear_pointer (&view->report_error, g_free);
  g_free (view);
}
