/* viva-class-csv-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-class-report.h"

G_BEGIN_DECLS

void        _viva_class_csv_append_cell  (GString         *csv,
                                          const char      *text,
                                          const char      *after);
char       *_viva_class_csv_format_score (double           score);
void        _viva_class_csv_header       (GString         *csv);
void        _viva_class_csv_row          (GString         *csv,
                                          VivaClassReport *report);
JsonObject *_viva_class_csv_row_json     (VivaClassReport *report);

G_END_DECLS
