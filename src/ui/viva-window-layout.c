/* viva-window-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-settings.h"
#include "viva-window-private.h"

/* Who gets the window's width. The editor is where the student works, so
 * it keeps at least half of it while the student codes and a third during
 * a defense: the examiner panel is closed until Submit (or until the
 * student opens it), and the problem pane folds away on a window too
 * narrow for the three; the student can show it again over that. The
 * examiner panel's width and the problem pane's are remembered in
 * GSettings as widths, so they mean the same on any screen. */

#define EDITOR_SHARE_CODING  0.5
#define EDITOR_SHARE_DEFENSE 0.35
#define EDITOR_MIN_COLUMNS   80
#define EXAMINER_MIN_WIDTH   300
#define EXAMINER_MAX_SHARE   0.6

/* Below 80 columns a student's lines wrap or hide under a scrollbar (a
 * lab PC at 1280 px gave the editor 55 during a defense): the panes make
 * room in order, the problem pane folding first, then the examiner panel
 * narrowing to its minimum. Measured in the editor's own font, so a larger
 * code size or Large Text asks for more. */
static int
editor_min_width (VivaWindow *self)
{
  GtkSourceView *view = viva_editor_get_view (self->editor);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (view), "0123456789");
  GtkWidget *gutter = GTK_WIDGET (gtk_source_view_get_gutter (view, GTK_TEXT_WINDOW_LEFT));
  int digits = 0, gutter_width = 0;

  pango_layout_get_pixel_size (layout, &digits, NULL);
  if (gutter != NULL)
    gtk_widget_measure (gutter, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &gutter_width, NULL, NULL);

  /* The margins and the scrollbar. */
  return digits * EDITOR_MIN_COLUMNS / 10 + gutter_width +
         gtk_text_view_get_left_margin (GTK_TEXT_VIEW (view)) +
         gtk_text_view_get_right_margin (GTK_TEXT_VIEW (view)) + 24;
}

static int
editor_needs (VivaWindow *self,
              int         width)
{
  double share = self->examiner_visible ? EDITOR_SHARE_DEFENSE : EDITOR_SHARE_CODING;

  return MAX ((int)(width * share), editor_min_width (self));
}

static int
examiner_width (VivaWindow *self,
                int         width)
{
  int wanted = viva_settings_get_examiner_pane_width (viva_settings_get_default ());
  int minimum = EXAMINER_MIN_WIDTH;

  /* Large text makes the panel's own minimum wider than ours. */
  gtk_widget_measure (GTK_WIDGET (self->examiner_panel), GTK_ORIENTATION_HORIZONTAL, -1,
                      &minimum, NULL, NULL, NULL);
  minimum = MAX (minimum, EXAMINER_MIN_WIDTH);

  /* With the problem pane folded, the examiner gives way to the editor's
   * columns down to its own minimum. */
  wanted = MIN (wanted, width - editor_min_width (self));

  return CLAMP (wanted, minimum, MAX (minimum, (int)(width * EXAMINER_MAX_SHARE)));
}

/* Whether the problem pane leaves the editor too little of @width. */
static gboolean
problem_folds (VivaWindow *self,
               int         width)
{
  int problem = viva_settings_get_problem_pane_position (viva_settings_get_default ());
  int examiner = 0;

  if (self->examiner_visible)
    examiner = CLAMP (viva_settings_get_examiner_pane_width (viva_settings_get_default ()),
                      EXAMINER_MIN_WIDTH, (int)(width * EXAMINER_MAX_SHARE));

  return problem + examiner + editor_needs (self, width) > width;
}

/* HACK: GTK 4.8's paned takes a press where its handle last was even
 * after its start child is hidden (the handle keeps its old bounds), so a
 * strip of the editor under a folded pane's handle ate clicks. A paned's
 * gestures sleep while one of its panes is hidden. The same dead region:
 * https://github.com/xournalpp/xournalpp/pull/2760; the handle's reach:
 * https://gitlab.gnome.org/GNOME/gtk/-/issues/4484 */
static void
set_handle_live (GtkPaned *paned,
                 gboolean  live)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (paned));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
      gpointer phase = g_object_get_data (G_OBJECT (controller), "viva-phase");

      if (!GTK_IS_GESTURE (controller))
        continue;

      if (!live && phase == NULL)
        {
          g_object_set_data (G_OBJECT (controller), "viva-phase",
                             GINT_TO_POINTER (gtk_event_controller_get_propagation_phase (controller) + 1));
          gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_NONE);
        }
      else if (live && phase != NULL)
        {
          gtk_event_controller_set_propagation_phase (controller, GPOINTER_TO_INT (phase) - 1);
          g_object_set_data (G_OBJECT (controller), "viva-phase", NULL);
        }
    }
}

static void
apply_layout (VivaWindow *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self->examiner_paned));
  gboolean was_shown = _viva_window_get_problem_visible (self);
  gboolean folded;
  gboolean problem_shown;

  if (width <= 0)
    return;

  /* Shown first: a hidden panel measures no width. */
  self->layout_busy = TRUE;
  gtk_widget_set_visible (GTK_WIDGET (self->examiner_panel), self->examiner_visible);
  set_handle_live (self->examiner_paned, self->examiner_visible);
  self->layout_busy = FALSE;

  folded = problem_folds (self, width);
  if (folded != self->problem_folded)
    {
      /* Crossing the fold undoes a "show it anyway". */
      self->problem_folded = folded;
      self->problem_unfolded = FALSE;
    }
  problem_shown = self->problem_visible && (!folded || self->problem_unfolded);

  self->layout_busy = TRUE;
  if (problem_shown && !gtk_widget_get_visible (self->problem_box))
    gtk_paned_set_position (self->problem_paned,
                            viva_settings_get_problem_pane_position (viva_settings_get_default ()));
  gtk_widget_set_visible (self->problem_box, problem_shown);
  set_handle_live (self->problem_paned, problem_shown);
  if (self->examiner_visible)
    gtk_paned_set_position (self->examiner_paned, width - examiner_width (self, width));
  self->layout_busy = FALSE;

  self->layout_width = width;
  if (problem_shown != was_shown)
    g_object_notify (G_OBJECT (self), "problem-visible");
}

static gboolean
apply_layout_idle (gpointer user_data)
{
  VivaWindow *self = user_data;

  self->layout_source = 0;
  apply_layout (self);

  return G_SOURCE_REMOVE;
}

/* Widths change during an allocation: lay out again before the next frame,
 * not inside this one. */
static void
queue_layout (VivaWindow *self)
{
  if (self->layout_source == 0)
    self->layout_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, apply_layout_idle, self, NULL);
}

/**
 * _viva_window_layout_allocated:
 *
 * The window got its size: lay the panes out again if its width changed.
 */
void
_viva_window_layout_allocated (VivaWindow *self)
{
  if (gtk_widget_get_width (GTK_WIDGET (self->examiner_paned)) != self->layout_width)
    queue_layout (self);
}

static void
examiner_paned_position_cb (VivaWindow *self,
                            GParamSpec *pspec,
                            GtkPaned   *paned)
{
  int width = gtk_widget_get_width (GTK_WIDGET (paned));

  /* The student dragged the handle: remember the panel's width. A window
   * resized keeps the panel's width, so this stores the same again. */
  if (!self->layout_busy && self->examiner_visible && width > 0 && width == self->layout_width &&
      gtk_widget_get_visible (GTK_WIDGET (self->examiner_panel)))
    viva_settings_set_examiner_pane_width (viva_settings_get_default (),
                                           width - gtk_paned_get_position (paned));
}

static void
problem_paned_position_cb (VivaWindow *self,
                           GParamSpec *pspec,
                           GtkPaned   *paned)
{
  int position = gtk_paned_get_position (paned);

  if (self->layout_busy || position <= 0 || !gtk_widget_get_visible (self->problem_box))
    return;

  viva_settings_set_problem_pane_position (viva_settings_get_default (), position);
}

/**
 * _viva_window_set_examiner_visible:
 *
 * Opens or closes the examiner panel; Submit opens it.
 */
void
_viva_window_set_examiner_visible (VivaWindow *self,
                                   gboolean    visible)
{
  g_assert (VIVA_IS_WINDOW (self));

  visible = !!visible;
  if (self->examiner_visible == visible)
    return;

  self->examiner_visible = visible;
  apply_layout (self);
  g_object_notify (G_OBJECT (self), "examiner-visible");
}

/**
 * _viva_window_set_problem_visible:
 *
 * Shows or hides the problem pane. Shown on a folded window, it stays
 * until the window's width crosses the fold again.
 */
void
_viva_window_set_problem_visible (VivaWindow *self,
                                  gboolean    visible)
{
  VivaSettings *settings = viva_settings_get_default ();

  g_assert (VIVA_IS_WINDOW (self));

  visible = !!visible;
  if (_viva_window_get_problem_visible (self) == visible)
    return;

  self->problem_unfolded = visible && self->problem_folded;
  if (!self->problem_folded || visible)
    viva_settings_set_problem_pane_visible (settings, visible);
  self->problem_visible = viva_settings_get_problem_pane_visible (settings);
  apply_layout (self);
  g_object_notify (G_OBJECT (self), "problem-visible");
}

/**
 * _viva_window_get_problem_visible:
 *
 * Returns: whether the problem pane shows now
 */
gboolean
_viva_window_get_problem_visible (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return self->problem_visible && (!self->problem_folded || self->problem_unfolded);
}

/* The window's size and the panes as the student left them. */
void
_viva_window_init_layout (VivaWindow *self)
{
  VivaSettings *settings = viva_settings_get_default ();
  int width, height;
  gboolean maximized;

  g_object_get (settings,
                "window-width", &width,
                "window-height", &height,
                "window-maximized", &maximized,
                NULL);
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (maximized)
    gtk_window_maximize (GTK_WINDOW (self));

  self->problem_visible = viva_settings_get_problem_pane_visible (settings);
  gtk_paned_set_position (self->problem_paned, viva_settings_get_problem_pane_position (settings));
  g_object_bind_property (settings, "console-pane-position", self->console_paned, "position",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);

  gtk_widget_set_visible (GTK_WIDGET (self->examiner_panel), FALSE);

  g_signal_connect_object (self->examiner_paned, "notify::position",
                           G_CALLBACK (examiner_paned_position_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->problem_paned, "notify::position",
                           G_CALLBACK (problem_paned_position_cb), self, G_CONNECT_SWAPPED);
  /* Larger code needs more width for the same columns. */
  g_signal_connect_object (settings, "notify::code-font-size",
                           G_CALLBACK (queue_layout), self, G_CONNECT_SWAPPED);
}

void
_viva_window_dispose_layout (VivaWindow *self)
{
  g_clear_handle_id (&self->layout_source, g_source_remove);
}

void
_viva_window_save_layout (VivaWindow *self)
{
  VivaSettings *settings = viva_settings_get_default ();
  gboolean maximized = gtk_window_is_maximized (GTK_WINDOW (self));

  g_object_set (settings, "window-maximized", maximized, NULL);
  if (!maximized)
    {
      int width, height;

      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      g_object_set (settings, "window-width", width, "window-height", height, NULL);
    }
}
