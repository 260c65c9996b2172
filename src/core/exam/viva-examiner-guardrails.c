/* viva-examiner-guardrails.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-examiner-private.h"

/* The guardrails, as pure checks on the examiner's record: the protocol
 * table the finishing tool needs, cited evidence, repeated calls, the cap
 * on a tool's output and the compaction of older turns. They decide; the
 * dispatcher and the turn loop act. Each reads a tool's place in the
 * protocol from its facts, never from its name. */

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
step_tool_name (VivaExaminer         *self,
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
_viva_examiner_cap_output (JsonObject *object,
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

/* Older turns shrink when the prompt outgrows about 80% of the context:
 * the system prompt (with the current code) and the last steps stay whole. */
VivaChatMessage *
_viva_examiner_compact_message (VivaChatMessage *message)
{
  const char *content = viva_chat_message_get_content (message);
  gsize len = content ? strlen (content) : 0;

  if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_TOOL && len > 200)
    {
      g_autoptr(JsonNode) node = json_from_string (content, NULL);
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) out = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *text = NULL;
      g_autofree char *note = g_strdup_printf ("older result compacted: %" G_GSIZE_FORMAT
                                               " characters omitted; run the step again if needed", len);

      if (node && JSON_NODE_HOLDS_OBJECT (node) &&
          json_object_has_member (json_node_get_object (node), "step"))
        json_object_set_member (object, "step",
                                json_object_dup_member (json_node_get_object (node), "step"));
      json_object_set_string_member (object, "compacted", note);
      json_node_set_object (out, object);
      text = json_to_string (out, FALSE);

      return viva_chat_message_new_tool (viva_chat_message_get_tool_call_id (message),
                                         viva_chat_message_get_name (message),
                                         text);
    }

  if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_ASSISTANT && len > 400)
    {
      g_autofree char *shortened = g_strdup_printf ("%.*s […]",
                                                    (int)(g_utf8_find_prev_char (content, content + 300) - content),
                                                    content);

      return viva_chat_message_new_assistant (shortened, viva_chat_message_get_tool_calls (message));
    }

  return viva_chat_message_ref (message);
}

char *
_viva_examiner_call_signature (const char *name,
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
_viva_examiner_check_repeats (VivaExaminer *self,
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
_viva_examiner_check_protocol (VivaExaminer *self)
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
          const VivaExamToolFacts *facts = _viva_examiner_tool_facts (self, step->name);

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
_viva_examiner_check_evidence (VivaExaminer *self,
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
