/* viva-problem-draft.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-pack-checker.h"
#include "viva-pack-issue.h"
#include "viva-problem.h"

G_BEGIN_DECLS

#define VIVA_DRAFT_FORMAT "viva-draft/1"

#define VIVA_TYPE_PROBLEM_DRAFT (viva_problem_draft_get_type())

G_DECLARE_FINAL_TYPE (VivaProblemDraft, viva_problem_draft, VIVA, PROBLEM_DRAFT, GObject)

VivaProblemDraft *viva_problem_draft_new             (const char        *topic,
                                                      VivaProblemType    type,
                                                      const char        *difficulty,
                                                      const char        *language);
VivaProblemDraft *viva_problem_draft_new_from_json   (JsonNode          *node,
                                                      GError           **error);
JsonNode         *viva_problem_draft_to_json         (VivaProblemDraft  *self);
const char       *viva_problem_draft_get_id          (VivaProblemDraft  *self);
gint64            viva_problem_draft_get_created     (VivaProblemDraft  *self);
const char       *viva_problem_draft_get_topic       (VivaProblemDraft  *self);
VivaProblemType   viva_problem_draft_get_problem_type (VivaProblemDraft *self);
const char       *viva_problem_draft_get_difficulty  (VivaProblemDraft  *self);
const char       *viva_problem_draft_get_language    (VivaProblemDraft  *self);
const char       *viva_problem_draft_get_pack_id     (VivaProblemDraft  *self);
void              viva_problem_draft_set_pack_id     (VivaProblemDraft  *self,
                                                      const char        *pack_id);
VivaProblem      *viva_problem_draft_get_problem     (VivaProblemDraft  *self);
const char       *viva_problem_draft_get_raw_reply   (VivaProblemDraft  *self);
gboolean          viva_problem_draft_get_passed      (VivaProblemDraft  *self);
guint             viva_problem_draft_get_attempts    (VivaProblemDraft  *self);
GPtrArray        *viva_problem_draft_get_issues      (VivaProblemDraft  *self);
GPtrArray        *viva_problem_draft_get_checks      (VivaProblemDraft  *self);
char             *viva_problem_draft_describe_issues (VivaProblemDraft  *self);

void              _viva_problem_draft_set_result     (VivaProblemDraft  *self,
                                                      VivaProblem       *problem,
                                                      const char        *raw_reply,
                                                      guint              attempts,
                                                      GPtrArray         *issues,
                                                      GPtrArray         *checks);

G_END_DECLS
