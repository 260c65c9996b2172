/* viva-exam-facts.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

char *viva_exam_facts_message (JsonArray *timeline);

G_END_DECLS
