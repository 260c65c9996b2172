/* viva-cli-commands.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

G_BEGIN_DECLS

/* One function per subcommand, each in its own viva-cli-<name>.c. argv[0]
 * is the subcommand's name. */

int viva_cli_check (int    argc,
                    char **argv);
int viva_cli_pack (int    argc,
                   char **argv);
int viva_cli_run  (int    argc,
                   char **argv);

int viva_cli_chat   (int    argc,
                    char **argv);
int viva_cli_models (int    argc,
                    char **argv);

int viva_cli_defend (int    argc,
                     char **argv);
int viva_cli_defend_server (int    argc,
                            char **argv);
int viva_cli_resume (int    argc,
                     char **argv);

int viva_cli_eval (int    argc,
                   char **argv);

int viva_cli_report (int    argc,
                     char **argv);
int viva_cli_report_verify (int    argc,
                            char **argv);

int viva_cli_lab (int    argc,
                  char **argv);
int viva_cli_lab_rehearse_server (int    argc,
                                  char **argv);

int viva_cli_class (int    argc,
                    char **argv);

int viva_cli_calibrate (int    argc,
                        char **argv);

int viva_cli_exam (int    argc,
                   char **argv);

G_END_DECLS
