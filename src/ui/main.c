/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "viva-application.h"
#include "viva-core.h"
#include "viva-resources.h"
#include "viva-startup-timer.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaApplication) app = NULL;

  viva_startup_timer_begin ();

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, viva_core_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* Registered by hand: a static library drops the resource's constructor. */
  g_resources_register (viva_get_resource ());

  app = viva_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
