/* viva-exam-pack-ref.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-pack.h"

G_BEGIN_DECLS

/**
 * A session's reference to its pack, instead of a copy of the problem's
 * hidden tests and reference: `{"id", "digest" (sha256 of the pack file's
 * bytes), "path" (null for the pack bundled with Viva)}`.
 */
JsonObject  *viva_exam_pack_ref_new          (const char  *id,
                                              GBytes      *pack_bytes,
                                              const char  *path);
JsonObject  *viva_exam_pack_ref_new_for_pack (VivaPack    *pack,
                                              GError     **error);
VivaProblem *viva_exam_pack_ref_load_problem (JsonObject  *pack_ref,
                                              const char  *problem_id,
                                              const char  *library_dir,
                                              GError     **error);

G_END_DECLS
