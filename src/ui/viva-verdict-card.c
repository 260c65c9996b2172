/* viva-verdict-card.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-tool.h"
#include "viva-markdown-stream.h"
#include "viva-verdict-card.h"

/* The end of a defense: passed or not, the score, the examiner's comment,
 * the steps that ran, and beside the examiner's claim what the engine
 * recorded itself of every probe, so a student (and a teacher) can see
 * when the two disagree. */

struct _VivaVerdictCard
{
  GtkWidget           parent_instance;

  GtkImage           *icon;
  GtkLabel           *title_label;
  GtkLabel           *subtitle_label;
  GtkWidget          *score_box;
  GtkLabel           *score_label;
  GtkLevelBar        *score_bar;
  VivaMarkdownStream *comment_stream;
  GtkLabel           *warning_label;
  GtkLabel           *steps_label;
  GtkLabel           *facts_heading;
  GtkLabel           *facts_label;

  VivaExamVerdict    *verdict;
};

enum {
  PROP_0,
  PROP_VERDICT,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaVerdictCard, viva_verdict_card, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* What the tool did, as the tool says it. */
static const char *
step_done (const char *tool,
           guint       count)
{
  const VivaExamToolFacts *facts = viva_exam_tool_facts_lookup (tool);

  return facts ? viva_exam_tool_facts_get_done_text (facts, count) : tool;
}

static char *
describe_steps (const char * const *steps)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; steps != NULL && steps[i] != NULL; i++)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, steps[i]));

      if (n == 0)
        g_ptr_array_add (order, (gpointer)steps[i]);
      g_hash_table_insert (counts, (gpointer)steps[i], GUINT_TO_POINTER (n + 1));
    }

  for (guint i = 0; i < order->len; i++)
    {
      const char *tool = g_ptr_array_index (order, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, tool));

      if (text->len > 0)
        g_string_append_c (text, '\n');
      if (n > 1)
        g_string_append_printf (text, "• %s (×%u)", step_done (tool, n), n);
      else
        g_string_append_printf (text, "• %s", step_done (tool, n));
    }

  if (text->len == 0)
    g_string_append (text, _("No step ran."));

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* A probe as the student reads it: its name, or its first line quoted. */
static char *
probe_label (const VivaExamProbe *probe)
{
  g_autofree char *line = NULL;
  const char *code = probe->code ? probe->code : "";
  const char *end;

  if (probe->name != NULL && *probe->name != '\0')
    return g_strdup (probe->name);

  while (*code == '\n')
    code++;
  end = strchr (code, '\n');
  line = end ? g_strndup (code, end - code) : g_strdup (code);
  if (g_utf8_strlen (line, -1) > 60)
    {
      g_autofree char *cut = g_utf8_substring (line, 0, 59);

      return g_strdup_printf ("“%s…”", cut);
    }
  return g_strdup_printf ("“%s”", line);
}

static char *
describe_probes (VivaExamVerdict *verdict)
{
  GPtrArray *probes = viva_exam_verdict_get_probes (verdict);
  g_autoptr(GString) text = g_string_new (NULL);
  VivaGradeReport *grade;

  if (probes == NULL || probes->len == 0)
    g_string_append (text, _("No edge-case test ran."));
  else
    g_string_append_printf (text, _("The examiner's tests: %u ran without an error, %u failed, %u did not count."),
                          viva_exam_verdict_get_n_passed (verdict),
                          viva_exam_verdict_get_n_failed (verdict),
                          viva_exam_verdict_get_n_invalid (verdict));

  /* Each probe by what it tested (the examiner's name for it, else its
   * first line), never by a step id; "ran" or "raised", since a probe is
   * the examiner's evidence, not a pass. */
  for (guint i = 0; probes != NULL && i < probes->len; i++)
    {
      const VivaExamProbe *probe = g_ptr_array_index (probes, i);
      g_autofree char *label = probe_label (probe);

      g_string_append_c (text, '\n');
      if (!probe->valid)
        g_string_append_printf (text, _("– %s did not count: it also fails on the model solution"), label);
      else if (probe->passed)
        g_string_append_printf (text, _("✓ %s ran without an error"), label);
      else if (probe->error_type != NULL)
        g_string_append_printf (text, _("✗ %s raised %s: %s"), label, probe->error_type,
                                probe->error_message ? probe->error_message : "");
      else if (probe->error_message != NULL)
        g_string_append_printf (text, _("✗ %s failed: %s"), label, probe->error_message);
      else
        g_string_append_printf (text, _("✗ %s did not finish (%s)"), label,
                                probe->status ? probe->status : "");
    }

  /* The engine's grade, each hidden test by its name. */
  if ((grade = viva_exam_verdict_get_grade (verdict)) != NULL && viva_grade_report_get_n_tests (grade) > 0)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Hidden tests, run by Viva: %u of %u passed."),
                              viva_grade_report_get_n_passed (grade), viva_grade_report_get_n_tests (grade));
      for (guint i = 0; i < viva_grade_report_get_n_tests (grade); i++)
        {
          const VivaGradeTest *test = viva_grade_report_get_test (grade, i);

          g_string_append_c (text, '\n');
          if (test->passed)
            g_string_append_printf (text, _("✓ %s"), test->name);
          else
            g_string_append_printf (text, _("✗ %s — %s"), test->name, test->message ? test->message : test->status);
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The score part by part: each item's points, what it was, who judged it,
 * and why (a prediction's right answer, now that the defense is over). */
static char *
describe_items (VivaExamVerdict *verdict)
{
  GPtrArray *items = viva_exam_verdict_get_items (verdict);
  g_autoptr(GString) text = g_string_new (NULL);

  if (items->len == 0)
    return NULL;

  if (viva_exam_verdict_get_score (verdict) >= 0)
    /* Translators: the points the items gave, of the maximum; then the examiner's own score of 100 */
    g_string_append_printf (text, _("The score, item by item: %g of %g points (the examiner’s own score: %d)."),
                            viva_exam_verdict_get_points (verdict), viva_exam_verdict_get_max_points (verdict),
                            viva_exam_verdict_get_score (verdict));
  else
    g_string_append_printf (text, _("The score, item by item: %g of %g points."),
                            viva_exam_verdict_get_points (verdict), viva_exam_verdict_get_max_points (verdict));
  if (viva_exam_verdict_get_provisional (verdict))
    g_string_append_printf (text, " %s", _("It is provisional: a teacher will review the items that need it."));
  for (guint i = 0; i < items->len; i++)
    {
      const VivaExamItem *item = g_ptr_array_index (items, i);
      const char *judge = item->judged_by == VIVA_EXAM_JUDGE_ENGINE ? _("judged by Viva")
                        : item->judged_by == VIVA_EXAM_JUDGE_TEACHER ? _("judged by your teacher")
                        : _("scored by the examiner");

      g_string_append_c (text, '\n');
      /* Translators: points, maximum, what the item was, who judged it */
      g_string_append_printf (text, _("%.4g/%.4g — %s (%s)"), item->points, item->max_points,
                              item->title ? item->title : item->id, judge);
      if (item->needs_review)
        g_string_append_printf (text, " — %s", _("needs review"));
      if (item->kind != VIVA_EXAM_ITEM_ENGINE_TEST && item->reason != NULL)
        g_string_append_printf (text, ": %s", item->reason);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
viva_verdict_card_set_verdict (VivaVerdictCard *self,
                               VivaExamVerdict *verdict)
{
  VivaExamStatus status;
  g_autofree char *steps = NULL;
  g_autofree char *facts = NULL;
  g_autofree char *score = NULL;
  g_autofree char *accessible = NULL;
  const char *title, *subtitle, *icon, *css;
  const char *reason;

  g_assert (self->verdict == NULL);

  if (verdict == NULL)
    return;

  self->verdict = g_object_ref (verdict);
  status = viva_exam_verdict_get_status (verdict);
  reason = viva_exam_verdict_get_reason (verdict);

  switch (status)
    {
    case VIVA_EXAM_STATUS_FINISHED:
      if (viva_exam_verdict_get_passed (verdict))
        {
          title = _("Passed");
          icon = "emblem-ok-symbolic";
          css = "success";
        }
      else
        {
          title = _("Not passed");
          icon = "dialog-error-symbolic";
          css = "error";
        }
      /* Graded by the engine: the outcome with the hidden tests' facts,
       * and any contradiction, in words; it is final. */
      subtitle = viva_exam_verdict_get_explanation (verdict)
                 ? viva_exam_verdict_get_explanation (verdict) : _("The examiner’s verdict");
      break;

    case VIVA_EXAM_STATUS_INCOMPLETE:
      title = _("Defense incomplete");
      subtitle = reason ? reason : _("The defense ended before the examiner gave a verdict.");
      icon = "dialog-warning-symbolic";
      css = "warning";
      break;

    case VIVA_EXAM_STATUS_FAILED:
    default:
      title = _("Defense stopped");
      subtitle = reason ? reason : _("The examiner could not go on.");
      icon = "dialog-warning-symbolic";
      css = "warning";
      break;
    }

  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_image_set_from_icon_name (self->icon, icon);
  gtk_widget_add_css_class (GTK_WIDGET (self->icon), css);
  gtk_widget_add_css_class (GTK_WIDGET (self), css);

  if (status == VIVA_EXAM_STATUS_FINISHED)
    {
      /* The score built from items where there are any; else the examiner's. */
      int value = viva_exam_verdict_get_items (verdict)->len > 0
                ? (int)CLAMP (viva_exam_verdict_get_points (verdict) + 0.5, 0, 100)
                : CLAMP (viva_exam_verdict_get_score (verdict), 0, 100);

      score = g_strdup_printf ("%d", value);
      gtk_label_set_label (self->score_label, score);
      gtk_level_bar_set_value (self->score_bar, value);
      accessible = g_strdup_printf (_("Score: %d out of 100"), value);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->score_box),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                      -1);
    }
  gtk_widget_set_visible (self->score_box, status == VIVA_EXAM_STATUS_FINISHED);
  gtk_widget_set_visible (GTK_WIDGET (self->score_bar), status == VIVA_EXAM_STATUS_FINISHED);

  viva_markdown_stream_set_markdown (self->comment_stream, viva_exam_verdict_get_comment (verdict));
  gtk_widget_set_visible (GTK_WIDGET (self->comment_stream),
                          !viva_markdown_stream_get_empty (self->comment_stream));

  if (!viva_exam_verdict_get_consistent (verdict))
    {
      gtk_label_set_label (self->warning_label,
                           viva_exam_verdict_get_model_passed (verdict) && !viva_exam_verdict_get_engine_pass (verdict)
                           ? _("The examiner’s verdict (pass) contradicts the hidden tests, which decide. A teacher will see both.")
                           : viva_exam_verdict_get_model_passed (verdict)
                           ? _("The examiner passed you although one of its tests failed. Look at the failed test below; a teacher will see both.")
                           : _("The hidden tests passed, but the examiner did not pass you. A teacher will see both."));
      gtk_widget_set_visible (GTK_WIDGET (self->warning_label), TRUE);
    }
  else if (status == VIVA_EXAM_STATUS_FINISHED)
    {
      gtk_label_set_label (self->warning_label, _("This verdict is final: nothing said in the follow-up chat changes it."));
      gtk_widget_set_visible (GTK_WIDGET (self->warning_label), TRUE);
    }

  steps = describe_steps (viva_exam_verdict_get_steps (verdict));
  gtk_label_set_label (self->steps_label, steps);
  facts = describe_probes (verdict);
  {
    g_autofree char *items = describe_items (verdict);

    if (items != NULL)
      {
        g_autofree char *joined = g_strconcat (facts, "\n\n", items, NULL);

        g_free (facts);
        facts = g_steal_pointer (&joined);
      }
  }
  gtk_label_set_label (self->facts_label, facts);
}

/**
 * viva_verdict_card_new:
 *
 * A card showing @verdict.
 */
GtkWidget *
viva_verdict_card_new (VivaExamVerdict *verdict)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (verdict), NULL);

  return g_object_new (VIVA_TYPE_VERDICT_CARD, "verdict", verdict, NULL);
}

VivaExamVerdict *
viva_verdict_card_get_verdict (VivaVerdictCard *self)
{
  g_return_val_if_fail (VIVA_IS_VERDICT_CARD (self), NULL);

  return self->verdict;
}

static void
viva_verdict_card_dispose (GObject *object)
{
  VivaVerdictCard *self = (VivaVerdictCard *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_VERDICT_CARD);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);
  g_clear_object (&self->verdict);

  G_OBJECT_CLASS (viva_verdict_card_parent_class)->dispose (object);
}

static void
viva_verdict_card_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  VivaVerdictCard *self = VIVA_VERDICT_CARD (object);

  switch (prop_id)
    {
    case PROP_VERDICT:
      g_value_set_object (value, self->verdict);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_verdict_card_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  VivaVerdictCard *self = VIVA_VERDICT_CARD (object);

  switch (prop_id)
    {
    case PROP_VERDICT:
      viva_verdict_card_set_verdict (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_verdict_card_class_init (VivaVerdictCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_verdict_card_dispose;
  object_class->get_property = viva_verdict_card_get_property;
  object_class->set_property = viva_verdict_card_set_property;

  properties[PROP_VERDICT] =
    g_param_spec_object ("verdict", NULL, NULL, VIVA_TYPE_EXAM_VERDICT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-verdict-card.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, icon);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, title_label);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, score_box);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, score_label);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, score_bar);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, comment_stream);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, warning_label);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, steps_label);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, facts_heading);
  gtk_widget_class_bind_template_child (widget_class, VivaVerdictCard, facts_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "verdictcard");

  g_type_ensure (VIVA_TYPE_MARKDOWN_STREAM);
}

static void
viva_verdict_card_init (VivaVerdictCard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
