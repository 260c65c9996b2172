/* viva-json-line.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-json-line.h"

/* The shape every front's --json output has (viva-cli's, viva-server's):
 * one JSON object a line, its `event` member first, so that a script reads
 * a pipe line by line and knows each line by its first key. */

/**
 * viva_json_line:
 * @event: the value of the `event` member
 * @object: (nullable): the event's other members, copied after it
 *
 * Returns: (transfer full): the event as one line of JSON, without the
 *   newline (a newline in a value is escaped, so the line stays one)
 */
char *
viva_json_line (const char *event,
                JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonObject) line = json_object_new ();

  g_return_val_if_fail (event != NULL, NULL);

  json_object_set_string_member (line, "event", event);

  if (object != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, object);
      while (json_object_iter_next (&iter, &name, &value))
        if (!g_str_equal (name, "event"))
          json_object_set_member (line, name, json_node_copy (value));
    }

  json_node_set_object (node, line);
  return json_to_string (node, FALSE);
}
