/* viva-core.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <gio/gio.h>
#include <locale.h>

#include "viva-core.h"
#include "viva-core-resources.h"

/**
 * viva_core_init:
 *
 * Registers the core's resources (prompts, the bundled pack) and the
 * translation domain. Both fronts call it once before using the core; it is
 * safe to call again. Main thread only.
 */
void
viva_core_init (void)
{
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      /* Static libraries drop unreferenced objects, so the resource is
       * registered by hand rather than by a constructor. */
      g_resources_register (viva_core_get_resource ());

      bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

      g_once_init_leave (&initialized, 1);
    }
}
