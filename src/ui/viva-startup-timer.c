/* viva-startup-timer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "viva-startup-timer.h"

/* With VIVA_DEBUG_STARTUP=1 the app prints how long it took to get from
 * main() to each mark on stderr; the start-up benchmark reads the line
 * "startup: ready". With VIVA_DEBUG_STARTUP=exit it also quits there. */

static gint64 started_at;
static gboolean enabled;

void
viva_startup_timer_begin (void)
{
  const char *env = g_getenv ("VIVA_DEBUG_STARTUP");

  started_at = g_get_monotonic_time ();
  enabled = env != NULL && env[0] != '\0' && !g_str_equal (env, "0");
}

void
viva_startup_timer_mark (const char *what)
{
  if (!enabled)
    return;

  fprintf (stderr, "startup: %s %.1f ms\n", what,
           (g_get_monotonic_time () - started_at) / 1000.0);
  fflush (stderr);
}
