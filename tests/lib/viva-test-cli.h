/* viva-test-cli.h: the real viva-cli ($VIVA_CLI) run from a test.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What one run of viva-cli printed and how it ended. */
typedef struct
{
  char      *out;
  char      *err;
  int        status;   /* the exit status */
  GPtrArray *events;   /* JsonObject, one a stdout line with --json */
} VivaTestCliRun;

int   viva_test_cli            (const char * const  *args,
                                char               **out,
                                char               **err);
void  viva_test_cli_run        (VivaTestCliRun      *run,
                                const char          *data_home,
                                const char * const  *args);
void  viva_test_cli_run_with_settings (VivaTestCliRun *run,
                                       const char     *data_home,
                                       const char     *config_home,
                                       const char * const *args);
void  viva_test_cli_run_clear  (VivaTestCliRun      *run);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VivaTestCliRun, viva_test_cli_run_clear)

G_END_DECLS
