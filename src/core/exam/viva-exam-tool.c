/* viva-exam-tool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-error.h"
#include "viva-exam-private.h"
#include "viva-exam-tool.h"
#include "viva-text.h"

/* The tool contract: a tool's facts, its arguments checked against its
 * schema, the GTask every invocation runs in, and the lookup of a tool's
 * facts by the name a recorded session keeps. */

typedef struct
{
  JsonNode           *parameters;
  VivaToolDefinition *definition;
} VivaExamToolPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (VivaExamTool, viva_exam_tool, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (VivaExamToolKind, viva_exam_tool_kind,
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_TOOL_KIND_ORDINARY, "ordinary"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_TOOL_KIND_SPEAKS, "speaks"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_TOOL_KIND_WAITS, "waits"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_TOOL_KIND_FINISHES, "finishes"))

G_DEFINE_ENUM_TYPE (VivaExamProtocolStep, viva_exam_protocol_step,
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_PROTOCOL_NONE, "none"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_PROTOCOL_READ, "read"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_PROTOCOL_RUN, "run"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_PROTOCOL_PROBE, "probe"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_PROTOCOL_ASK, "ask"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_PROTOCOL_FINISH, "finish"))

static void
viva_exam_tool_constructed (GObject *object)
{
  VivaExamTool *self = VIVA_EXAM_TOOL (object);
  VivaExamToolPrivate *priv = viva_exam_tool_get_instance_private (self);
  VivaExamToolClass *klass = VIVA_EXAM_TOOL_GET_CLASS (self);
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (viva_exam_tool_parent_class)->constructed (object);

  g_assert (klass->facts != NULL && klass->facts->name != NULL);
  g_assert (klass->parameters != NULL);
  g_assert (klass->invoke != NULL);

  /* The schema is ours, in the source: failing to parse it is a bug. */
  priv->parameters = json_from_string (klass->parameters, &error);
  g_assert_no_error (error);
  g_assert (JSON_NODE_HOLDS_OBJECT (priv->parameters));

  priv->definition = viva_tool_definition_new (klass->facts->name, klass->description, priv->parameters);
}

static void
viva_exam_tool_finalize (GObject *object)
{
  VivaExamTool *self = VIVA_EXAM_TOOL (object);
  VivaExamToolPrivate *priv = viva_exam_tool_get_instance_private (self);

  g_clear_pointer (&priv->parameters, json_node_unref);
  g_clear_pointer (&priv->definition, viva_tool_definition_unref);

  G_OBJECT_CLASS (viva_exam_tool_parent_class)->finalize (object);
}

static void
viva_exam_tool_class_init (VivaExamToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = viva_exam_tool_constructed;
  object_class->finalize = viva_exam_tool_finalize;
}

static void
viva_exam_tool_init (VivaExamTool *self)
{
}

const char *
viva_exam_tool_get_name (VivaExamTool *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_TOOL (self), NULL);

  return VIVA_EXAM_TOOL_GET_CLASS (self)->facts->name;
}

const char *
viva_exam_tool_get_description (VivaExamTool *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_TOOL (self), NULL);

  return VIVA_EXAM_TOOL_GET_CLASS (self)->description;
}

VivaExamToolKind
viva_exam_tool_get_kind (VivaExamTool *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_TOOL (self), VIVA_EXAM_TOOL_KIND_ORDINARY);

  return VIVA_EXAM_TOOL_GET_CLASS (self)->facts->kind;
}

/**
 * viva_exam_tool_get_facts:
 *
 * Returns: (transfer none): what the tool says about itself
 */
const VivaExamToolFacts *
viva_exam_tool_get_facts (VivaExamTool *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_TOOL (self), NULL);

  return VIVA_EXAM_TOOL_GET_CLASS (self)->facts;
}

/**
 * viva_exam_tool_get_parameters:
 *
 * Returns: (transfer none): the JSON-schema object of the arguments
 */
JsonNode *
viva_exam_tool_get_parameters (VivaExamTool *self)
{
  VivaExamToolPrivate *priv = viva_exam_tool_get_instance_private (self);

  g_return_val_if_fail (VIVA_IS_EXAM_TOOL (self), NULL);

  return priv->parameters;
}

/**
 * viva_exam_tool_get_definition:
 *
 * Returns: (transfer none): the tool as offered to the model
 */
VivaToolDefinition *
viva_exam_tool_get_definition (VivaExamTool *self)
{
  VivaExamToolPrivate *priv = viva_exam_tool_get_instance_private (self);

  g_return_val_if_fail (VIVA_IS_EXAM_TOOL (self), NULL);

  return priv->definition;
}

static gboolean
check_value (const char  *tool,
             const char  *name,
             JsonObject  *schema,
             JsonNode    *value,
             GError     **error)
{
  const char *type = json_object_get_string_member_with_default (schema, "type", NULL);
  gboolean ok = TRUE;

  if (type == NULL)
    return TRUE;

  if (g_str_equal (type, "string"))
    ok = JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING;
  else if (g_str_equal (type, "boolean"))
    ok = JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_BOOLEAN;
  else if (g_str_equal (type, "array"))
    ok = JSON_NODE_HOLDS_ARRAY (value);
  else if (g_str_equal (type, "integer") || g_str_equal (type, "number"))
    {
      GType vtype = JSON_NODE_HOLDS_VALUE (value) ? json_node_get_value_type (value) : G_TYPE_INVALID;

      ok = vtype == G_TYPE_INT64 || vtype == G_TYPE_DOUBLE;
      if (ok && vtype == G_TYPE_DOUBLE && g_str_equal (type, "integer"))
        {
          double d = json_node_get_double (value);
          ok = d == (double)(gint64)d;
        }
    }

  if (!ok)
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_INVALID_ARGUMENTS,
                   _("%s: argument “%s” must be of type %s."), tool, name, type);
      return FALSE;
    }

  if (g_str_equal (type, "integer") || g_str_equal (type, "number"))
    {
      double d = json_node_get_double (value);

      if ((json_object_has_member (schema, "minimum") &&
           d < json_object_get_double_member (schema, "minimum")) ||
          (json_object_has_member (schema, "maximum") &&
           d > json_object_get_double_member (schema, "maximum")))
        {
          g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_INVALID_ARGUMENTS,
                       _("%s: argument “%s” is %g, outside %g to %g."), tool, name, d,
                       json_object_get_double_member_with_default (schema, "minimum", -G_MAXDOUBLE),
                       json_object_get_double_member_with_default (schema, "maximum", G_MAXDOUBLE));
          return FALSE;
        }
    }

  if (g_str_equal (type, "string"))
    {
      const char *s = json_node_get_string (value);
      JsonArray *choices = json_object_has_member (schema, "enum")
                         ? json_object_get_array_member (schema, "enum") : NULL;
      gboolean found = choices == NULL;
      gint64 min_length = json_object_get_int_member_with_default (schema, "minLength", 0);

      for (guint i = 0; choices != NULL && i < json_array_get_length (choices); i++)
        found |= g_strcmp0 (json_array_get_string_element (choices, i), s) == 0;

      if (!found)
        {
          g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_INVALID_ARGUMENTS,
                       _("%s: argument “%s” cannot be “%s”."), tool, name, s);
          return FALSE;
        }

      if (min_length > 0 && (viva_text_is_blank (s) || g_utf8_strlen (s, -1) < min_length))
        {
          g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_INVALID_ARGUMENTS,
                       _("%s: argument “%s” must not be empty."), tool, name);
          return FALSE;
        }
    }

  if (g_str_equal (type, "array") && json_object_has_member (schema, "items"))
    {
      JsonArray *array = json_node_get_array (value);
      JsonObject *items = json_object_get_object_member (schema, "items");

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (!check_value (tool, name, items, json_array_get_element (array, i), error))
          return FALSE;
    }

  return TRUE;
}

/**
 * viva_exam_tool_parse_arguments:
 * @arguments: (nullable): the arguments as the JSON text the model wrote
 *
 * Parses @arguments and checks them against the tool's parameters: an
 * object, every required member present, each of its declared type, within
 * its range and among its choices.
 *
 * Returns: (transfer full): the arguments, or %NULL with
 *   %VIVA_EXAM_ERROR_INVALID_ARGUMENTS and a message the model can act on
 */
JsonObject *
viva_exam_tool_parse_arguments (VivaExamTool  *self,
                                const char    *arguments,
                                GError       **error)
{
  VivaExamToolPrivate *priv = viva_exam_tool_get_instance_private (self);
  const char *name = viva_exam_tool_get_name (self);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonObject *schema;
  JsonObject *properties;
  JsonArray *required;
  JsonObject *object;

  g_return_val_if_fail (VIVA_IS_EXAM_TOOL (self), NULL);

  /* Some servers send no arguments at all for a tool without parameters. */
  if (viva_text_is_blank (arguments))
    arguments = "{}";

  if (!(node = json_from_string (arguments, &local_error)) || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_INVALID_ARGUMENTS,
                   _("%s: the arguments are not a JSON object (%s). Send one JSON object with "
                     "the tool’s parameters."),
                   name, local_error ? local_error->message : _("another JSON value"));
      return NULL;
    }

  schema = json_node_get_object (priv->parameters);
  object = json_node_get_object (node);
  properties = json_object_has_member (schema, "properties")
             ? json_object_get_object_member (schema, "properties") : NULL;
  required = json_object_has_member (schema, "required")
           ? json_object_get_array_member (schema, "required") : NULL;

  for (guint i = 0; required != NULL && i < json_array_get_length (required); i++)
    {
      const char *member = json_array_get_string_element (required, i);

      if (!json_object_has_member (object, member) ||
          JSON_NODE_HOLDS_NULL (json_object_get_member (object, member)))
        {
          g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_INVALID_ARGUMENTS,
                       _("%s: the required argument “%s” is missing."), name, member);
          return NULL;
        }
    }

  /* "anyOf": [{"required": [...]}, ...]: one of the forms is given whole. */
  if (json_object_has_member (schema, "anyOf"))
    {
      JsonArray *forms = json_object_get_array_member (schema, "anyOf");
      const char *missing = NULL;
      gboolean given = FALSE;

      for (guint f = 0; !given && f < json_array_get_length (forms); f++)
        {
          JsonArray *members = json_object_get_array_member (json_array_get_object_element (forms, f), "required");
          const char *absent = NULL;

          for (guint i = 0; absent == NULL && i < json_array_get_length (members); i++)
            if (!json_object_has_member (object, json_array_get_string_element (members, i)) ||
                JSON_NODE_HOLDS_NULL (json_object_get_member (object, json_array_get_string_element (members, i))))
              absent = json_array_get_string_element (members, i);
          given = absent == NULL;
          if (missing == NULL)
            missing = absent;
        }

      if (!given)
        {
          g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_INVALID_ARGUMENTS,
                       _("%s: the required argument “%s” is missing."), name, missing);
          return NULL;
        }
    }

  if (properties != NULL)
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *value;

      json_object_iter_init (&iter, object);
      while (json_object_iter_next (&iter, &member, &value))
        {
          JsonObject *property;

          if (!json_object_has_member (properties, member))
            continue;
          property = json_object_get_object_member (properties, member);
          if (!check_value (name, member, property, value, error))
            return NULL;
        }
    }

  return json_object_ref (object);
}

/**
 * viva_exam_tool_invoke_async:
 * @arguments: arguments from viva_exam_tool_parse_arguments()
 *
 * Runs the tool. It reads only @context and @arguments.
 */
void
viva_exam_tool_invoke_async (VivaExamTool        *self,
                             VivaExamContext     *context,
                             JsonObject          *arguments,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_EXAM_TOOL (self));
  g_return_if_fail (VIVA_IS_EXAM_CONTEXT (context));
  g_return_if_fail (arguments != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_tool_invoke_async);

  VIVA_EXAM_TOOL_GET_CLASS (self)->invoke (self, context, arguments, task);
}

/**
 * viva_exam_tool_invoke_finish:
 *
 * Returns: (transfer full): the data for the model, or %NULL with @error
 *   (%VIVA_EXAM_ERROR_INVALID_ARGUMENTS for a call the model can fix)
 */
JsonObject *
viva_exam_tool_invoke_finish (VivaExamTool  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_TOOL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_exam_tool_return:
 * @task: the task an invocation was given
 * @data: (transfer full): the data for the model
 *
 * Completes a tool's invocation with its data.
 */
void
viva_exam_tool_return (GTask      *task,
                       JsonObject *data)
{
  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (data != NULL);

  g_task_return_pointer (task, data, (GDestroyNotify)json_object_unref);
}

static const VivaExamToolFacts *
lookup_in (GType       type,
           const char *name)
{
  g_autofree GType *children = NULL;
  guint n_children = 0;

  if (!G_TYPE_IS_ABSTRACT (type))
    {
      VivaExamToolClass *klass = g_type_class_peek (type);

      /* Kept for the life of the process, as a static type's class is. */
      if (klass == NULL)
        klass = g_type_class_ref (type);
      if (klass->facts != NULL && g_strcmp0 (klass->facts->name, name) == 0)
        return klass->facts;
    }

  children = g_type_children (type, &n_children);
  for (guint i = 0; i < n_children; i++)
    {
      const VivaExamToolFacts *facts = lookup_in (children[i], name);

      if (facts != NULL)
        return facts;
    }

  return NULL;
}

/**
 * viva_exam_tool_facts_lookup:
 * @name: a tool's name, as the model calls it (and a session records it)
 *
 * Finds a tool's facts by its name, among the default tools and any other
 * tool type registered so far.
 *
 * Returns: (nullable) (transfer none): the facts, or %NULL for a tool
 *   Viva does not know. Any thread.
 */
const VivaExamToolFacts *
viva_exam_tool_facts_lookup (const char *name)
{
  if (name == NULL)
    return NULL;

  _viva_exam_tools_ensure_types ();

  return lookup_in (VIVA_TYPE_EXAM_TOOL, name);
}

/**
 * viva_exam_tool_facts_get_title:
 *
 * Returns: what the tool does, in the student's words, translated
 */
const char *
viva_exam_tool_facts_get_title (const VivaExamToolFacts *facts)
{
  g_return_val_if_fail (facts != NULL, NULL);

  return facts->title ? _(facts->title) : facts->name;
}

/**
 * viva_exam_tool_facts_get_running_text:
 *
 * Returns: what the panel says while the tool runs, translated
 */
const char *
viva_exam_tool_facts_get_running_text (const VivaExamToolFacts *facts)
{
  g_return_val_if_fail (facts != NULL, NULL);

  return facts->running_text ? _(facts->running_text) : _("Working…");
}

/**
 * viva_exam_tool_facts_get_done_text:
 * @count: how many times the tool ran
 *
 * Returns: what the tool did, for the list of a defense's steps, translated
 */
const char *
viva_exam_tool_facts_get_done_text (const VivaExamToolFacts *facts,
                                    guint                    count)
{
  g_return_val_if_fail (facts != NULL, NULL);

  if (count > 1 && facts->done_several_text != NULL)
    return _(facts->done_several_text);

  return facts->done_text ? _(facts->done_text) : facts->name;
}

/**
 * viva_exam_tool_title:
 * @name: a tool's name, as a session records it
 *
 * Returns: the tool's title, translated, or @name for a tool Viva does not
 *   know (a session from another version)
 */
const char *
viva_exam_tool_title (const char *name)
{
  const VivaExamToolFacts *facts = viva_exam_tool_facts_lookup (name);

  return facts ? viva_exam_tool_facts_get_title (facts) : name;
}
