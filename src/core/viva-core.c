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

      bindtextdomain (GETTEXT_PACKAGE, viva_core_locale_dir ());
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

      g_once_init_leave (&initialized, 1);
    }
}

/**
 * viva_core_locale_dir:
 *
 * Where the translations are: `VIVA_LOCALEDIR` when set (the build tree's
 * `po/` folder, so `meson devenv` and the tests run translated uninstalled),
 * the installed locale folder otherwise.
 *
 * Returns: (transfer none): a folder of `LANG/LC_MESSAGES/viva.mo`
 */
const char *
viva_core_locale_dir (void)
{
  const char *dir = g_getenv ("VIVA_LOCALEDIR");

  return dir && dir[0] ? dir : LOCALEDIR;
}
