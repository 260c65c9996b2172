/* viva-problems-popover.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "viva-pack-library.h"
#include "viva-status-store.h"

G_BEGIN_DECLS

#define VIVA_TYPE_PROBLEMS_POPOVER (viva_problems_popover_get_type())

G_DECLARE_FINAL_TYPE (VivaProblemsPopover, viva_problems_popover, VIVA, PROBLEMS_POPOVER, GtkPopover)

void  viva_problems_popover_set_stores   (VivaProblemsPopover *self,
                                          VivaPackLibrary     *library,
                                          VivaStatusStore     *status);
char *viva_problems_popover_status_text  (VivaStatusStore     *status,
                                          const char          *pack_id,
                                          const char          *problem_id);

void     viva_problems_popover_set_exam    (VivaProblemsPopover *self,
                                            VivaPack            *pack,
                                            const char * const  *problems);
void     viva_problems_popover_set_current (VivaProblemsPopover *self,
                                            const char          *pack_id,
                                            const char          *problem_id);
gboolean viva_problems_popover_is_current  (VivaProblemsPopover *self,
                                            VivaPack            *pack,
                                            VivaProblem         *problem);

G_END_DECLS
