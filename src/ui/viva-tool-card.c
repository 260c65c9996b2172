/* viva-tool-card.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-duration.h"
#include "viva-markdown.h"
#include "viva-exam-tool.h"
#include "viva-tool-card.h"

/* One step of the examiner, as a card: what it does in words a student
 * knows, the code it runs, a spinner while it runs, then what came out,
 * whether it passed and how long it took. Open while it runs, folded once
 * it is done; the student can open it again. */

#define OUTPUT_LIMIT 2000   /* characters of output shown on a card */

struct _VivaToolCard
{
  GtkWidget           parent_instance;

  GtkExpander        *expander;
  GtkImage           *icon;
  GtkLabel           *title_label;
  GtkSpinner         *spinner;
  GtkLabel           *duration_label;
  GtkImage           *status_icon;
  GtkLabel           *args_heading;
  GtkTextView        *args_view;
  GtkLabel           *status_label;
  GtkLabel           *output_heading;
  GtkLabel           *output_label;

  char               *tool_name;
  /* What the tool says about itself; NULL for a tool Viva does not know. */
  const VivaExamToolFacts *facts;
  VivaToolCardStatus  status;
};

enum {
  PROP_0,
  PROP_TOOL_NAME,
  PROP_TITLE,
  PROP_STATUS,
  N_PROPS
};

G_DEFINE_ENUM_TYPE (VivaToolCardStatus, viva_tool_card_status,
                    G_DEFINE_ENUM_VALUE (VIVA_TOOL_CARD_RUNNING, "running"),
                    G_DEFINE_ENUM_VALUE (VIVA_TOOL_CARD_SUCCEEDED, "succeeded"),
                    G_DEFINE_ENUM_VALUE (VIVA_TOOL_CARD_FAILED, "failed"),
                    G_DEFINE_ENUM_VALUE (VIVA_TOOL_CARD_ERROR, "error"),
                    G_DEFINE_ENUM_VALUE (VIVA_TOOL_CARD_CANCELLED, "cancelled"))

G_DEFINE_FINAL_TYPE (VivaToolCard, viva_tool_card, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* The tool's place in the protocol, which says how its result reads. */
static VivaExamProtocolStep
tool_step (VivaToolCard *self)
{
  return self->facts ? self->facts->step : VIVA_EXAM_PROTOCOL_NONE;
}

static void
viva_tool_card_update_accessible (VivaToolCard *self)
{
  const char *state;

  switch (self->status)
    {
    case VIVA_TOOL_CARD_RUNNING: state = _("running"); break;
    case VIVA_TOOL_CARD_SUCCEEDED: state = _("passed"); break;
    case VIVA_TOOL_CARD_FAILED: state = _("failed"); break;
    case VIVA_TOOL_CARD_ERROR: state = _("could not run"); break;
    case VIVA_TOOL_CARD_CANCELLED: state = _("stopped"); break;
    default: g_assert_not_reached ();
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->expander),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, gtk_label_get_label (self->title_label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, state,
                                  -1);
}

static void
viva_tool_card_set_arguments (VivaToolCard *self,
                              JsonObject   *arguments)
{
  const char *code = NULL;

  if (arguments != NULL && json_object_has_member (arguments, "code") &&
      JSON_NODE_HOLDS_VALUE (json_object_get_member (arguments, "code")))
    code = json_object_get_string_member (arguments, "code");

  if (code != NULL)
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->args_view);
      GtkTextIter iter;

      gtk_label_set_label (self->args_heading,
                           tool_step (self) == VIVA_EXAM_PROTOCOL_PROBE ? _("The test") : _("Code"));
      gtk_text_buffer_get_start_iter (buffer, &iter);
      viva_markdown_insert_code (buffer, &iter, code, "python");
      gtk_widget_set_visible (GTK_WIDGET (self->args_heading), TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->args_view), TRUE);
    }
  else if (arguments != NULL && json_object_get_size (arguments) > 0)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), arguments);
      g_autofree char *text = json_to_string (node, TRUE);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->args_view);

      GtkTextIter start, end;

      gtk_label_set_label (self->args_heading, _("Arguments"));
      gtk_text_buffer_set_text (buffer, text, -1);
      gtk_text_buffer_get_bounds (buffer, &start, &end);
      gtk_text_buffer_apply_tag_by_name (buffer, "no-hyphens", &start, &end);
      gtk_widget_set_visible (GTK_WIDGET (self->args_heading), TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->args_view), TRUE);
    }
}

static void
viva_tool_card_set_tool_name (VivaToolCard *self,
                              const char   *tool_name)
{
  g_assert (self->tool_name == NULL);

  self->tool_name = g_strdup (tool_name ? tool_name : "");
  self->facts = viva_exam_tool_facts_lookup (self->tool_name);
  gtk_label_set_label (self->title_label, self->facts ? viva_exam_tool_facts_get_title (self->facts) : self->tool_name);
  gtk_image_set_from_icon_name (self->icon, self->facts ? self->facts->icon_name : "system-run-symbolic");
  viva_tool_card_update_accessible (self);
}

/**
 * viva_tool_card_new:
 * @arguments: (nullable): the tool's arguments
 *
 * A card for a tool that has just started.
 */
GtkWidget *
viva_tool_card_new (const char *tool_name,
                    JsonObject *arguments)
{
  VivaToolCard *self;

  g_return_val_if_fail (tool_name != NULL, NULL);

  self = g_object_new (VIVA_TYPE_TOOL_CARD, "tool-name", tool_name, NULL);
  viva_tool_card_set_arguments (self, arguments);

  return GTK_WIDGET (self);
}

const char *
viva_tool_card_get_tool_name (VivaToolCard *self)
{
  g_return_val_if_fail (VIVA_IS_TOOL_CARD (self), NULL);

  return self->tool_name;
}

const char *
viva_tool_card_get_title (VivaToolCard *self)
{
  g_return_val_if_fail (VIVA_IS_TOOL_CARD (self), NULL);

  return gtk_label_get_label (self->title_label);
}

VivaToolCardStatus
viva_tool_card_get_status (VivaToolCard *self)
{
  g_return_val_if_fail (VIVA_IS_TOOL_CARD (self), VIVA_TOOL_CARD_RUNNING);

  return self->status;
}

void
viva_tool_card_set_status (VivaToolCard       *self,
                           VivaToolCardStatus  status)
{
  static const char * const classes[] = { NULL, "success", "error", "warning", "dim-label" };
  static const char * const icons[] = {
    NULL, "emblem-ok-symbolic", "dialog-error-symbolic", "dialog-warning-symbolic", "process-stop-symbolic",
  };

  g_return_if_fail (VIVA_IS_TOOL_CARD (self));

  if (self->status == status)
    return;

  for (guint i = 1; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_icon), classes[i]);

  self->status = status;

  gtk_spinner_set_spinning (self->spinner, status == VIVA_TOOL_CARD_RUNNING);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), status == VIVA_TOOL_CARD_RUNNING);
  gtk_widget_set_visible (GTK_WIDGET (self->status_icon), status != VIVA_TOOL_CARD_RUNNING);
  if (status != VIVA_TOOL_CARD_RUNNING)
    {
      gtk_image_set_from_icon_name (self->status_icon, icons[status]);
      gtk_widget_add_css_class (GTK_WIDGET (self->status_icon), classes[status]);
      /* Done: fold it, so the conversation reads as a list of steps. */
      gtk_expander_set_expanded (self->expander, FALSE);
    }

  viva_tool_card_update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
}

static void
viva_tool_card_show_status (VivaToolCard *self,
                            const char   *text)
{
  gtk_label_set_label (self->status_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && text[0] != '\0');
}

static void
viva_tool_card_show_output (VivaToolCard *self,
                            JsonObject   *result)
{
  g_autoptr(GString) output = g_string_new (NULL);
  const char *names[] = { "stdout", "stderr", "traceback" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *part = json_object_get_string_member_with_default (result, names[i], NULL);

      if (part == NULL || part[0] == '\0')
        continue;
      if (output->len > 0 && output->str[output->len - 1] != '\n')
        g_string_append_c (output, '\n');
      g_string_append (output, part);
    }

  while (output->len > 0 && g_ascii_isspace (output->str[output->len - 1]))
    g_string_truncate (output, output->len - 1);

  if (g_utf8_strlen (output->str, -1) > OUTPUT_LIMIT)
    {
      const char *cut = g_utf8_offset_to_pointer (output->str, OUTPUT_LIMIT);

      g_string_truncate (output, cut - output->str);
      g_string_append (output, "\n…");
    }

  gtk_label_set_label (self->output_label, output->str);
  gtk_widget_set_visible (GTK_WIDGET (self->output_heading), output->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->output_label), output->len > 0);
}

static char *
describe_error (JsonObject *result)
{
  JsonObject *error = NULL;
  const char *type, *message;
  gint64 line;

  if (json_object_has_member (result, "error") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (result, "error")))
    error = json_object_get_object_member (result, "error");
  if (error == NULL)
    return NULL;

  type = json_object_get_string_member_with_default (error, "type", "Error");
  message = json_object_get_string_member_with_default (error, "message", "");
  line = json_object_get_int_member_with_default (error, "line", 0);

  if (line > 0)
    return g_strdup_printf (_("%s on line %d: %s"), type, (int)line, message);
  return g_strdup_printf ("%s: %s", type, message);
}

/**
 * viva_tool_card_set_result:
 * @result: what the tool returned
 * @duration_ms: how long it took, or a negative number to take the
 *   result's own `duration_ms`
 *
 * Shows what came out, and folds the card.
 */
void
viva_tool_card_set_result (VivaToolCard *self,
                           JsonObject   *result,
                           double        duration_ms)
{
  const char *status;
  g_autofree char *error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *duration = NULL;
  VivaToolCardStatus card_status = VIVA_TOOL_CARD_SUCCEEDED;

  g_return_if_fail (VIVA_IS_TOOL_CARD (self));
  g_return_if_fail (result != NULL);

  if (duration_ms < 0)
    duration_ms = json_object_get_int_member_with_default (result, "duration_ms", -1);

  status = json_object_get_string_member_with_default (result, "status", NULL);
  error = describe_error (result);

  if (tool_step (self) == VIVA_EXAM_PROTOCOL_READ)
    {
      gint64 lines = json_object_get_int_member_with_default (result, "lines", 0);

      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Read %d line of your code",
                                           "Read %d lines of your code", lines), (int)lines);
    }
  else if (tool_step (self) == VIVA_EXAM_PROTOCOL_PROBE)
    {
      gboolean passed = json_object_get_boolean_member_with_default (result, "passed", FALSE);
      gboolean valid = json_object_get_boolean_member_with_default (result, "valid", TRUE);

      if (!valid)
        text = g_strdup (_("This test also fails on the model solution, so it does not count against you."));
      else if (passed)
        text = g_strdup (_("Your code passed this test."));
      else if (error != NULL)
        text = g_strdup_printf (_("Your code failed this test — %s"), error);
      else if (g_strcmp0 (status, "exited") == 0)
        text = g_strdup (_("Your code failed this test: it ended the program before the test finished."));
      else if (g_strcmp0 (status, "timeout") == 0 || g_strcmp0 (status, "killed") == 0)
        text = g_strdup (_("Your code failed this test: it ran too long and was stopped."));
      else
        text = g_strdup (_("Your code failed this test."));

      card_status = (passed || !valid) ? VIVA_TOOL_CARD_SUCCEEDED : VIVA_TOOL_CARD_FAILED;
      viva_tool_card_show_output (self, result);
    }
  else if (status != NULL)
    {
      if (g_str_equal (status, "ok"))
        text = g_strdup (_("Ran without errors."));
      else if (error != NULL)
        text = g_strdup_printf (_("Stopped by an error — %s"), error);
      else if (g_str_equal (status, "timeout") || g_str_equal (status, "killed"))
        text = g_strdup (_("Ran too long and was stopped."));
      else if (g_str_equal (status, "crashed"))
        text = g_strdup (_("Python crashed and was restarted."));
      else
        text = g_strdup (status);

      if (!g_str_equal (status, "ok"))
        card_status = VIVA_TOOL_CARD_FAILED;
      viva_tool_card_show_output (self, result);
    }

  viva_tool_card_show_status (self, text);

  if (duration_ms >= 0)
    {
      duration = viva_duration_format (duration_ms);
      gtk_label_set_label (self->duration_label, duration);
      gtk_widget_set_visible (GTK_WIDGET (self->duration_label), TRUE);
    }

  viva_tool_card_set_status (self, card_status);
}

/**
 * viva_tool_card_set_error:
 *
 * Shows that the tool could not run, with @message saying why.
 */
void
viva_tool_card_set_error (VivaToolCard *self,
                          const char   *message)
{
  g_return_if_fail (VIVA_IS_TOOL_CARD (self));

  viva_tool_card_show_status (self, message);
  viva_tool_card_set_status (self, VIVA_TOOL_CARD_ERROR);
}

static void
viva_tool_card_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_TOOL_CARD);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (viva_tool_card_parent_class)->dispose (object);
}

static void
viva_tool_card_finalize (GObject *object)
{
  VivaToolCard *self = (VivaToolCard *)object;

  g_clear_pointer (&self->tool_name, g_free);

  G_OBJECT_CLASS (viva_tool_card_parent_class)->finalize (object);
}

static void
viva_tool_card_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  VivaToolCard *self = VIVA_TOOL_CARD (object);

  switch (prop_id)
    {
    case PROP_TOOL_NAME:
      g_value_set_string (value, self->tool_name);
      break;

    case PROP_TITLE:
      g_value_set_string (value, viva_tool_card_get_title (self));
      break;

    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_tool_card_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  VivaToolCard *self = VIVA_TOOL_CARD (object);

  switch (prop_id)
    {
    case PROP_TOOL_NAME:
      viva_tool_card_set_tool_name (self, g_value_get_string (value));
      break;

    case PROP_STATUS:
      viva_tool_card_set_status (self, g_value_get_enum (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_tool_card_class_init (VivaToolCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_tool_card_dispose;
  object_class->finalize = viva_tool_card_finalize;
  object_class->get_property = viva_tool_card_get_property;
  object_class->set_property = viva_tool_card_set_property;

  properties[PROP_TOOL_NAME] =
    g_param_spec_string ("tool-name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL, VIVA_TYPE_TOOL_CARD_STATUS, VIVA_TOOL_CARD_RUNNING,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-tool-card.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, expander);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, icon);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, title_label);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, spinner);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, duration_label);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, status_icon);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, args_heading);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, args_view);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, status_label);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, output_heading);
  gtk_widget_class_bind_template_child (widget_class, VivaToolCard, output_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "toolcard");
}

static void
viva_tool_card_init (VivaToolCard *self)
{
  PangoAttrList *attributes = pango_attr_list_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  /* Code and its output wrap anywhere, but never with an inserted hyphen. */
  gtk_text_buffer_create_tag (gtk_text_view_get_buffer (self->args_view), "no-hyphens",
                              "insert-hyphens", FALSE, NULL);
  pango_attr_list_insert (attributes, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (self->output_label, attributes);
  pango_attr_list_unref (attributes);
}
