/* viva-tool-call-recovery.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-private.h"
#include "viva-tool-call.h"

/* Small local models often write a tool call as text instead of using the
 * tools channel. When the request offered tools, the assembler asks here
 * whether the text holds one; recovered calls are marked as such, so the
 * trace shows it. */

static gboolean
offered (const char * const *tool_names,
         const char         *name)
{
  return name != NULL && g_strv_contains (tool_names, name);
}

/* Reads `{"name": …, "arguments": {…}}` (or `parameters`) from text. */
static VivaToolCall *
parse_text_call (const char * const *tool_names,
                 const char         *text,
                 gsize               length)
{
  g_autoptr(JsonNode) node = _viva_json_parse (text, length, NULL);
  g_autofree char *arguments_text = NULL;
  VivaToolCall *call;
  JsonObject *object;
  JsonNode *arguments;
  const char *name;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  object = json_node_get_object (node);
  /* Some models wrap it in {"function": {…}} or {"tool": …}. */
  if (viva_json_member_object (object, "function") != NULL)
    object = viva_json_member_object (object, "function");

  name = viva_json_member_string (object, "name");
  if (!offered (tool_names, name))
    return NULL;

  arguments = json_object_get_member (object, "arguments");
  if (arguments == NULL)
    arguments = json_object_get_member (object, "parameters");

  if (arguments != NULL && JSON_NODE_HOLDS_OBJECT (arguments))
    arguments_text = json_to_string (arguments, FALSE);
  else if (arguments != NULL && json_node_get_value_type (arguments) == G_TYPE_STRING)
    arguments_text = g_strdup (json_node_get_string (arguments));
  else if (arguments != NULL && !JSON_NODE_HOLDS_NULL (arguments))
    return NULL;

  call = viva_tool_call_new (NULL, name, arguments_text);
  viva_tool_call_set_recovered (call, TRUE);
  return call;
}

/**
 * _viva_recover_tool_calls:
 * @content: an assistant's text
 * @tool_names: the tools the request offered
 * @calls: (element-type VivaToolCall): where recovered calls are added
 *
 * Finds tool calls a model wrote as text instead of using the tools
 * channel: `<tool_call>{…}</tool_call>` blocks (Qwen and Hermes templates),
 * else fenced JSON blocks, else the whole text being one object with
 * `name` and `arguments` (or `parameters`). Only offered tools count.
 *
 * Returns: (transfer full) (nullable): the text left around the calls
 *   (maybe empty), or %NULL when none was found
 */
char *
_viva_recover_tool_calls (const char         *content,
                          const char * const *tool_names,
                          GPtrArray          *calls)
{
  g_autoptr(GString) rest = g_string_new (NULL);
  const char *p = content;
  const char *start;

  /* `<tool_call>{…}</tool_call>` blocks, as Qwen and Hermes templates write. */
  while ((start = strstr (p, "<tool_call>")))
    {
      const char *body = start + strlen ("<tool_call>");
      const char *end = strstr (body, "</tool_call>");
      const char *next = end != NULL ? end + strlen ("</tool_call>") : body + strlen (body);
      VivaToolCall *call = parse_text_call (tool_names, body, (end != NULL ? end : next) - body);

      if (call == NULL)
        break;

      g_ptr_array_add (calls, call);
      g_string_append_len (rest, p, start - p);
      p = next;
    }

  /* Else fenced JSON blocks, or the whole content being the object. */
  if (calls->len == 0)
    {
      while ((start = strstr (p, "```")))
        {
          const char *body = start + 3;
          const char *end;
          VivaToolCall *call;

          while (g_ascii_isalnum (*body))
            body++;
          if (!(end = strstr (body, "```")))
            break;

          if ((call = parse_text_call (tool_names, body, end - body)))
            {
              g_ptr_array_add (calls, call);
              g_string_append_len (rest, p, start - p);
            }
          else
            g_string_append_len (rest, p, end + 3 - p);
          p = end + 3;
        }
    }

  if (calls->len == 0)
    {
      VivaToolCall *call = parse_text_call (tool_names, content, strlen (content));

      if (call == NULL)
        return NULL;
      g_ptr_array_add (calls, call);
      return g_strdup ("");
    }

  g_string_append (rest, p);
  return g_strstrip (g_string_free (g_steal_pointer (&rest), FALSE));
}
