/* viva-json-bytes.c: JSON to the indented text Viva keeps on disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-json-bytes.h"

/**
 * viva_json_to_bytes:
 * @root: the document
 *
 * Packs, drafts, statuses and reports are files a teacher may keep in
 * version control, so they share one shape: two-space indents and a final
 * newline.
 *
 * Returns: (transfer full): @root as indented JSON text ending in a newline
 */
GBytes *
viva_json_to_bytes (JsonNode *root)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  gsize len;

  g_return_val_if_fail (root != NULL, NULL);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, &len);

  return g_bytes_new_take (g_strconcat (text, "\n", NULL), len + 1);
}
