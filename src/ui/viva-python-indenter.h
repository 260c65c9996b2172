/* viva-python-indenter.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

#define VIVA_TYPE_PYTHON_INDENTER (viva_python_indenter_get_type ())

G_DECLARE_FINAL_TYPE (VivaPythonIndenter, viva_python_indenter, VIVA, PYTHON_INDENTER, GObject)

GtkSourceIndenter *viva_python_indenter_new            (void);
guint              viva_python_indenter_columns_after (const char *line,
                                                       guint       indent_width);

G_END_DECLS
