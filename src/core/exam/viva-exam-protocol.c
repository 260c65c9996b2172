/* viva-exam-protocol.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-exam-protocol.h"

/* The protocol of one defense: the tools the model may call, the steps
 * that ran, the recent calls and counts, the limits; and the guardrails, as
 * pure checks on that record: the protocol table the finishing tool needs,
 * cited evidence, repeated calls, the cap on a tool's output. They decide;
 * the examiner acts. Each reads a tool's place in the protocol from its
 * facts, never from its name. */

void
_viva_exam_step_free (VivaExamStep *step)
{
  if (step == NULL)
    return;

  g_free (step->id);
  g_free (step->name);
  g_free (step->arguments);
  g_clear_pointer (&step->result, json_object_unref);
  g_clear_pointer (&step->probe, viva_exam_probe_free);
  g_free (step);
}

void
_viva_exam_protocol_init (VivaExamProtocol *protocol)
{
  memset (protocol, 0, sizeof *protocol);
  protocol->tools = viva_exam_tools_new_default ();
  protocol->steps = g_ptr_array_new_with_free_func ((GDestroyNotify)_viva_exam_step_free);
  protocol->recent_calls = g_ptr_array_new_with_free_func (g_free);
  viva_exam_limits_init_default (&protocol->limits);
}

void
_viva_exam_protocol_clear (VivaExamProtocol *protocol)
{
  g_clear_pointer (&protocol->tools, g_ptr_array_unref);
  g_clear_pointer (&protocol->steps, g_ptr_array_unref);
  g_clear_pointer (&protocol->recent_calls, g_ptr_array_unref);
}

VivaExamTool *
_viva_exam_protocol_find_tool (VivaExamProtocol *self,
                               const char       *name)
{
  for (guint i = 0; i < self->tools->len; i++)
    {
      VivaExamTool *tool = g_ptr_array_index (self->tools, i);

      if (g_strcmp0 (viva_exam_tool_get_name (tool), name) == 0)
        return tool;
    }

  return NULL;
}

/* Returns: (nullable): the facts of the examiner's tool called @name, which
 * is what every decision about a recorded step reads */
const VivaExamToolFacts *
_viva_exam_protocol_tool_facts (VivaExamProtocol *self,
                                const char       *name)
{
  VivaExamTool *tool = _viva_exam_protocol_find_tool (self, name);

  return tool ? viva_exam_tool_get_facts (tool) : NULL;
}

GPtrArray *
_viva_exam_protocol_collect_probes (VivaExamProtocol *self)
{
  GPtrArray *probes = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_probe_free);

  for (guint i = 0; i < self->steps->len; i++)
    {
      VivaExamStep *step = g_ptr_array_index (self->steps, i);

      if (step->probe != NULL)
        g_ptr_array_add (probes, viva_exam_probe_copy (step->probe));
    }

  return probes;
}

GPtrArray *
_viva_exam_protocol_collect_step_names (VivaExamProtocol *self)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < self->steps->len; i++)
    g_ptr_array_add (names, ((VivaExamStep *)g_ptr_array_index (self->steps, i))->name);

  return names;
}

/* The protocol: the steps that must have run before the one that
 * finishes, in order. */
static const VivaExamProtocolStep required_steps[] = {
  VIVA_EXAM_PROTOCOL_READ,
  VIVA_EXAM_PROTOCOL_RUN,
  VIVA_EXAM_PROTOCOL_PROBE,
  VIVA_EXAM_PROTOCOL_ASK,
};

/* The name of the examiner's tool that holds @step, for the model. */
static const char *
step_tool_name (VivaExamProtocol     *self,
                VivaExamProtocolStep  step)
{
  for (guint i = 0; i < self->tools->len; i++)
    {
      const VivaExamToolFacts *facts = viva_exam_tool_get_facts (g_ptr_array_index (self->tools, i));

      if (facts->step == step)
        return facts->name;
    }

  return NULL;
}

/* Long strings in a tool's data are cut in the middle, with a note of how
 * much was cut, so one flood of output cannot fill the model's context. */
void
_viva_exam_protocol_cap_output (JsonObject *object,
                           guint       limit)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  g_autoptr(GPtrArray) cut = g_ptr_array_new_with_free_func (g_free);

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &value))
    if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING &&
        strlen (json_node_get_string (value)) > limit)
      g_ptr_array_add (cut, g_strdup (name));

  for (guint i = 0; i < cut->len; i++)
    {
      const char *member = g_ptr_array_index (cut, i);
      const char *text = json_object_get_string_member (object, member);
      gsize len = strlen (text);
      const char *head_end = g_utf8_find_prev_char (text, text + limit * 2 / 3 + 1);
      const char *tail = g_utf8_find_next_char (text + len - limit / 3 - 1, NULL);
      g_autofree char *capped = NULL;

      if (head_end == NULL)
        head_end = text;
      if (tail == NULL)
        tail = text + len;
      capped = g_strdup_printf ("%.*s\n[… %" G_GSIZE_FORMAT " characters cut …]\n%s",
                                (int)(head_end - text), text,
                                (gsize)(tail - head_end), tail);
      json_object_set_string_member (object, member, capped);
    }
}

char *
_viva_exam_protocol_call_signature (const char *name,
                               JsonObject *arguments)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, arguments);
  text = json_to_string (node, FALSE);

  return g_strconcat (name, "\n", text, NULL);
}

/* Returns: (nullable): why this call must not run again so soon */
char *
_viva_exam_protocol_check_repeats (VivaExamProtocol *self,
                              const char   *name,
                              const char   *signature)
{
  guint repeats = 0;

  for (guint i = 0; i < self->recent_calls->len; i++)
    repeats += g_str_equal (g_ptr_array_index (self->recent_calls, i), signature);

  if (repeats + 1 < self->limits.repeat_limit)
    return NULL;

  return g_strdup_printf ("Not run: %s with these same arguments already ran %u times in the last "
                          "%u steps. Try something different.",
                          name, repeats, self->limits.repeat_window);
}

/* Returns: (nullable): why finishDefense cannot run yet */
char *
_viva_exam_protocol_check_protocol (VivaExamProtocol *self)
{
  g_autoptr(GString) missing = g_string_new (NULL);

  const char *finish = step_tool_name (self, VIVA_EXAM_PROTOCOL_FINISH);

  for (guint r = 0; r < G_N_ELEMENTS (required_steps); r++)
    {
      const char *name = step_tool_name (self, required_steps[r]);
      gboolean done = name == NULL;

      for (guint i = 0; i < self->steps->len && !done; i++)
        {
          VivaExamStep *step = g_ptr_array_index (self->steps, i);
          const VivaExamToolFacts *facts = _viva_exam_protocol_tool_facts (self, step->name);

          done = step->ok && facts != NULL && facts->step == required_steps[r];
        }

      if (!done)
        g_string_append_printf (missing, "%s%s", missing->len ? ", " : "", name);
    }

  if (missing->len == 0)
    return NULL;

  return g_strdup_printf ("%s refused: these required steps have not run yet: %s. "
                          "Run them first, then call %s again.", finish, missing->str, finish);
}

char *
_viva_exam_protocol_check_evidence (VivaExamProtocol *self,
                               JsonObject   *arguments)
{
  JsonArray *evidence = json_object_get_array_member (arguments, "evidence");
  const char *finish = step_tool_name (self, VIVA_EXAM_PROTOCOL_FINISH);
  g_autoptr(GString) probes = g_string_new (NULL);
  gboolean cites_probe = FALSE;

  for (guint i = 0; i < self->steps->len; i++)
    {
      VivaExamStep *step = g_ptr_array_index (self->steps, i);

      if (step->probe != NULL)
        g_string_append_printf (probes, "%s%s", probes->len ? ", " : "", step->id);
    }

  for (guint e = 0; e < json_array_get_length (evidence); e++)
    {
      const char *id = json_array_get_string_element (evidence, e);
      VivaExamStep *found = NULL;

      for (guint i = 0; i < self->steps->len && !found; i++)
        if (g_str_equal (((VivaExamStep *)g_ptr_array_index (self->steps, i))->id, id))
          found = g_ptr_array_index (self->steps, i);

      if (found == NULL)
        return g_strdup_printf ("%s refused: evidence cites %s, which is not a step of "
                                "this defense. Cite the step ids shown in the tool results.", finish, id);
      cites_probe |= found->probe != NULL;
    }

  if (!cites_probe)
    return g_strdup_printf ("%s refused: the evidence must include at least one "
                            "%s step (%s).", finish, step_tool_name (self, VIVA_EXAM_PROTOCOL_PROBE), probes->str);

  return NULL;
}
