/* viva-duration.c: how long something took, as the window shows it
 *
 * The console's "finished in" line and a tool card's run time read the
 * same, so a student comparing them compares like with like.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-duration.h"

/**
 * viva_duration_format:
 * @ms: a duration in milliseconds
 *
 * Returns: (transfer full): whole milliseconds under a second, else seconds
 *   to a tenth
 */
char *
viva_duration_format (double ms)
{
  if (ms < 1000)
    return g_strdup_printf (_("%.0f ms"), ms);
  return g_strdup_printf (_("%.1f s"), ms / 1000.0);
}
