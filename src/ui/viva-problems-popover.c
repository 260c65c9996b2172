/* viva-problems-popover.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "viva-problems-popover.h"

/* Every problem of every installed pack, grouped by pack, each with where
 * the student stands on it. The lists are a few dozen rows, so a change
 * rebuilds them rather than patching rows in place. */

struct _VivaProblemsPopover
{
  GtkPopover       parent_instance;
  GtkListBox      *list_box;
  VivaPackLibrary *library;
  VivaStatusStore *status;
  VivaPack        *exam_pack;      /* in exam mode, only its problems… */
  GStrv            exam_problems;  /* …these ones, in this order (NULL: all) */
  char            *current_pack;   /* the problem open in the window */
  char            *current_problem;
};

enum {
  PROBLEM_ACTIVATED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (VivaProblemsPopover, viva_problems_popover, GTK_TYPE_POPOVER)

static guint signals[N_SIGNALS];

/**
 * viva_problems_popover_status_text:
 *
 * Returns: (transfer full): where the student stands on a problem, in words
 */
char *
viva_problems_popover_status_text (VivaStatusStore *status,
                                   const char      *pack_id,
                                   const char      *problem_id)
{
  double score = 0;
  gboolean passed = FALSE;

  switch (viva_status_store_get_status (status, pack_id, problem_id))
    {
    case VIVA_PROBLEM_STATUS_RUNS:
      return g_strdup (_("Runs — not defended yet"));

    case VIVA_PROBLEM_STATUS_DEFENDED:
      viva_status_store_get_verdict (status, pack_id, problem_id, &score, &passed);
      return passed ? g_strdup_printf (_("Defended — passed, %.0f/100"), score)
                    : g_strdup_printf (_("Defended — failed, %.0f/100"), score);

    case VIVA_PROBLEM_STATUS_NOT_STARTED:
    default:
      return g_strdup (_("Not started"));
    }
}

static void
header_func (GtkListBoxRow *row,
             GtkListBoxRow *before,
             gpointer       user_data)
{
  VivaPack *pack = g_object_get_data (G_OBJECT (row), "viva-pack");
  VivaPack *before_pack = before ? g_object_get_data (G_OBJECT (before), "viva-pack") : NULL;
  GtkWidget *label;

  if (pack == before_pack)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }

  label = gtk_label_new (viva_pack_get_title (pack));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_top (label, before ? 12 : 6);
  gtk_widget_set_margin_bottom (label, 3);
  gtk_widget_add_css_class (label, "heading");
  gtk_list_box_row_set_header (row, label);
}

static gboolean
is_current (VivaProblemsPopover *self,
            VivaPack            *pack,
            VivaProblem         *problem)
{
  return g_strcmp0 (self->current_pack, viva_pack_get_id (pack)) == 0 &&
         g_strcmp0 (self->current_problem, viva_problem_get_id (problem)) == 0;
}

static void
viva_problems_popover_add_row (VivaProblemsPopover *self,
                               VivaPack            *pack,
                               VivaProblem         *problem)
{
  g_autofree char *status = viva_problems_popover_status_text (self->status,
                                                               viva_pack_get_id (pack),
                                                               viva_problem_get_id (problem));
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), viva_problem_get_title (problem));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), status);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_set_data_full (G_OBJECT (row), "viva-pack", g_object_ref (pack), g_object_unref);
  g_object_set_data_full (G_OBJECT (row), "viva-problem", g_object_ref (problem), g_object_unref);

  /* Every row has the mark, shown on the open problem's only: opening
   * another problem from the list happens while the list is still on
   * screen, and rebuilding it then left GTK a viewport to draw that it
   * had not laid out. */
  {
    GtkWidget *mark = gtk_image_new_from_icon_name ("object-select-symbolic");

    gtk_widget_set_tooltip_text (mark, _("Open now"));
    gtk_accessible_update_property (GTK_ACCESSIBLE (mark),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Open now"),
                                    -1);
    gtk_widget_set_visible (mark, is_current (self, pack, problem));
    adw_action_row_add_suffix (ADW_ACTION_ROW (row), mark);
    g_object_set_data (G_OBJECT (row), "viva-mark", mark);
  }

  gtk_list_box_append (self->list_box, row);
}

static GtkWidget *
current_row (VivaProblemsPopover *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      VivaPack *pack = g_object_get_data (G_OBJECT (row), "viva-pack");
      VivaProblem *problem = g_object_get_data (G_OBJECT (row), "viva-problem");

      if (pack != NULL && problem != NULL && is_current (self, pack, problem))
        return row;
    }

  return NULL;
}

static void viva_problems_popover_fill (VivaProblemsPopover *self);

/* The lists are rebuilt when a status changes, which may happen while the
 * popover is open: the focus goes back to the row it was on, so that
 * Return still opens what the student is looking at. */
static void
viva_problems_popover_rebuild (VivaProblemsPopover *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  g_autofree char *focus_pack = NULL;
  g_autofree char *focus_problem = NULL;

  if (focus != NULL && gtk_widget_get_parent (focus) == GTK_WIDGET (self->list_box) &&
      g_object_get_data (G_OBJECT (focus), "viva-problem") != NULL)
    {
      focus_pack = g_strdup (viva_pack_get_id (g_object_get_data (G_OBJECT (focus), "viva-pack")));
      focus_problem = g_strdup (viva_problem_get_id (g_object_get_data (G_OBJECT (focus), "viva-problem")));
    }

  viva_problems_popover_fill (self);

  if (focus_problem != NULL)
    for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box));
         row != NULL;
         row = gtk_widget_get_next_sibling (row))
      {
        VivaPack *pack = g_object_get_data (G_OBJECT (row), "viva-pack");
        VivaProblem *problem = g_object_get_data (G_OBJECT (row), "viva-problem");

        if (pack != NULL && g_str_equal (viva_pack_get_id (pack), focus_pack) &&
            g_str_equal (viva_problem_get_id (problem), focus_problem))
          {
            gtk_widget_grab_focus (row);
            break;
          }
      }
}

static void
viva_problems_popover_fill (VivaProblemsPopover *self)
{
  GtkWidget *child;
  GListModel *packs;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))))
    gtk_list_box_remove (self->list_box, child);

  /* An exam lists its own problems and nothing else. */
  if (self->exam_pack != NULL)
    {
      GListModel *problems = viva_pack_get_problems (self->exam_pack);

      if (self->exam_problems != NULL)
        {
          for (guint i = 0; self->exam_problems[i] != NULL; i++)
            {
              VivaProblem *problem = viva_pack_find_problem (self->exam_pack, self->exam_problems[i]);

              if (problem != NULL)
                viva_problems_popover_add_row (self, self->exam_pack, problem);
            }
        }
      else
        for (guint j = 0; j < g_list_model_get_n_items (problems); j++)
          {
            g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, j);
            viva_problems_popover_add_row (self, self->exam_pack, problem);
          }
      return;
    }

  if (self->library == NULL)
    return;

  packs = viva_pack_library_get_packs (self->library);

  for (guint i = 0; i < g_list_model_get_n_items (packs); i++)
    {
      g_autoptr(VivaPack) pack = g_list_model_get_item (packs, i);
      GListModel *problems = viva_pack_get_problems (pack);

      for (guint j = 0; j < g_list_model_get_n_items (problems); j++)
        {
          g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, j);
          viva_problems_popover_add_row (self, pack, problem);
        }
    }
}

static void
row_activated_cb (VivaProblemsPopover *self,
                  GtkListBoxRow       *row)
{
  VivaPack *pack = g_object_get_data (G_OBJECT (row), "viva-pack");
  VivaProblem *problem = g_object_get_data (G_OBJECT (row), "viva-problem");

  gtk_popover_popdown (GTK_POPOVER (self));
  g_signal_emit (self, signals[PROBLEM_ACTIVATED], 0, pack, problem);
}

/* The student opens the list to switch, from the problem they are on:
 * the keyboard starts there, and Return on it just closes the list. */
static void
viva_problems_popover_map (GtkWidget *widget)
{
  VivaProblemsPopover *self = VIVA_PROBLEMS_POPOVER (widget);
  GtkWidget *row;

  GTK_WIDGET_CLASS (viva_problems_popover_parent_class)->map (widget);

  if ((row = current_row (self)) != NULL)
    gtk_widget_grab_focus (row);
}

static void
viva_problems_popover_dispose (GObject *object)
{
  VivaProblemsPopover *self = (VivaProblemsPopover *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), VIVA_TYPE_PROBLEMS_POPOVER);
  g_clear_object (&self->library);
  g_clear_object (&self->status);
  g_clear_object (&self->exam_pack);
  g_clear_pointer (&self->exam_problems, g_strfreev);
  g_clear_pointer (&self->current_pack, g_free);
  g_clear_pointer (&self->current_problem, g_free);

  G_OBJECT_CLASS (viva_problems_popover_parent_class)->dispose (object);
}

static void
viva_problems_popover_class_init (VivaProblemsPopoverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_problems_popover_dispose;
  widget_class->map = viva_problems_popover_map;

  /**
   * VivaProblemsPopover::problem-activated:
   * @pack: the problem's #VivaPack
   * @problem: the #VivaProblem the student chose
   */
  signals[PROBLEM_ACTIVATED] =
    g_signal_new ("problem-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, VIVA_TYPE_PACK, VIVA_TYPE_PROBLEM);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-problems-popover.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaProblemsPopover, list_box);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
viva_problems_popover_init (VivaProblemsPopover *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_list_box_set_header_func (self->list_box, header_func, NULL, NULL);
}

/**
 * viva_problems_popover_set_stores:
 *
 * Lists @library's packs with the statuses kept in @status, and follows
 * both as they change.
 */
void
viva_problems_popover_set_stores (VivaProblemsPopover *self,
                                  VivaPackLibrary     *library,
                                  VivaStatusStore     *status)
{
  g_return_if_fail (VIVA_IS_PROBLEMS_POPOVER (self));
  g_return_if_fail (VIVA_IS_PACK_LIBRARY (library));
  g_return_if_fail (VIVA_IS_STATUS_STORE (status));

  g_set_object (&self->library, library);
  g_set_object (&self->status, status);

  g_signal_connect_object (viva_pack_library_get_packs (library), "items-changed",
                           G_CALLBACK (viva_problems_popover_rebuild), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (status, "changed",
                           G_CALLBACK (viva_problems_popover_rebuild), self, G_CONNECT_SWAPPED);

  viva_problems_popover_rebuild (self);
}

/**
 * viva_problems_popover_set_exam:
 * @pack: (nullable): the exam's pack, or %NULL to list the library again
 * @problems: (nullable): the exam's problem ids in order, or %NULL for all
 *   of @pack's
 *
 * In exam mode only the exam's problems are listed.
 */
void
viva_problems_popover_set_exam (VivaProblemsPopover *self,
                                VivaPack            *pack,
                                const char * const  *problems)
{
  g_return_if_fail (VIVA_IS_PROBLEMS_POPOVER (self));
  g_return_if_fail (pack == NULL || VIVA_IS_PACK (pack));

  g_set_object (&self->exam_pack, pack);
  g_clear_pointer (&self->exam_problems, g_strfreev);
  self->exam_problems = g_strdupv ((char **)problems);
  viva_problems_popover_rebuild (self);
}

/**
 * viva_problems_popover_set_current:
 * @pack_id: (nullable): the pack of the problem open in the window
 * @problem_id: (nullable): that problem
 *
 * Marks the problem the window shows, so the student sees where they are.
 */
void
viva_problems_popover_set_current (VivaProblemsPopover *self,
                                   const char          *pack_id,
                                   const char          *problem_id)
{
  g_return_if_fail (VIVA_IS_PROBLEMS_POPOVER (self));

  if (g_strcmp0 (self->current_pack, pack_id) == 0 &&
      g_strcmp0 (self->current_problem, problem_id) == 0)
    return;

  g_free (self->current_pack);
  g_free (self->current_problem);
  self->current_pack = g_strdup (pack_id);
  self->current_problem = g_strdup (problem_id);

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      VivaPack *pack = g_object_get_data (G_OBJECT (row), "viva-pack");
      VivaProblem *problem = g_object_get_data (G_OBJECT (row), "viva-problem");
      GtkWidget *mark = g_object_get_data (G_OBJECT (row), "viva-mark");

      if (mark != NULL)
        gtk_widget_set_visible (mark, pack != NULL && problem != NULL && is_current (self, pack, problem));
    }
}

/**
 * viva_problems_popover_is_current:
 *
 * Returns: whether @problem of @pack is the one marked open
 */
gboolean
viva_problems_popover_is_current (VivaProblemsPopover *self,
                                  VivaPack            *pack,
                                  VivaProblem         *problem)
{
  g_return_val_if_fail (VIVA_IS_PROBLEMS_POPOVER (self), FALSE);

  return is_current (self, pack, problem);
}
