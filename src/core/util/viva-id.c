/* viva-id.c: the one rule for ids that become file and folder names
 *
 * Pack ids, problem ids and session ids all end up as a path component
 * under the user's data folder, so they share one rule: a file name that
 * cannot climb out of its folder or hide itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-id.h"

/**
 * viva_id_is_valid:
 * @id: (nullable): a pack, problem or session id
 *
 * Letters, digits, `-`, `_` and `.`, at most %VIVA_ID_MAX_LENGTH bytes, not
 * starting with a dot.
 */
gboolean
viva_id_is_valid (const char *id)
{
  if (id == NULL || id[0] == '\0' || id[0] == '.' || strlen (id) > VIVA_ID_MAX_LENGTH)
    return FALSE;

  for (const char *c = id; *c; c++)
    if (!g_ascii_isalnum (*c) && *c != '-' && *c != '_' && *c != '.')
      return FALSE;

  return TRUE;
}
