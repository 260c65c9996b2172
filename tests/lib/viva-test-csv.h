/* viva-test-csv.h: reading the CSV files Viva writes, as a spreadsheet would
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

GPtrArray  *viva_test_parse_csv  (const char *text);
const char *viva_test_csv_cell   (GPtrArray  *rows,
                                  GPtrArray  *row,
                                  const char *column);

G_END_DECLS
