/* viva-pack-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-pack.h"
#include "viva-pack-json.h"
#include "viva-pack-parser.h"
#include "viva-pack-validator.h"

G_BEGIN_DECLS

/* No real pack comes near these: the bundled one is about 60 kB and four
 * levels deep. They keep a hostile file from using the memory or the stack
 * of the app. */
#define VIVA_PACK_MAX_SIZE  (16 * 1024 * 1024)
#define VIVA_PACK_MAX_DEPTH 32

/* Thread-safe: they touch no shared state and no GObject leaves them. The
 * format's two passes are units of their own: viva-pack-parser.h (the
 * bytes) and viva-pack-validator.h (the tree). */
void        _viva_problem_exam_check      (JsonObject   *problem,
                                           const char   *path,
                                           GPtrArray    *issues);
void        _viva_problem_template_check  (JsonObject   *problem,
                                           const char   *path,
                                           GPtrArray    *issues);

/* viva-pack.c: what the format's codec (viva-pack-json.h) and the loader
 * keep on a pack beside its public properties. */
void        _viva_pack_set_file           (VivaPack     *self,
                                           GFile        *file);
JsonObject *_viva_pack_get_source         (VivaPack     *self);
void        _viva_pack_set_source         (VivaPack     *self,
                                           JsonObject   *source);

JsonObject *_viva_problem_get_source      (VivaProblem  *self);
void        _viva_problem_set_source      (VivaProblem  *self,
                                           JsonObject   *source);

G_END_DECLS
