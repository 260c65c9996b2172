/* viva-scripted-scorer.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-request.h"

G_BEGIN_DECLS

gboolean  _viva_scripted_scorer_is_asked (VivaChatRequest *request);
char     *_viva_scripted_scorer_score    (VivaChatRequest *request);

G_END_DECLS
