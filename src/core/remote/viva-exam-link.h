/* viva-exam-link.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The longest link taken, and the most addresses one may list. */
#define VIVA_EXAM_LINK_MAX_LENGTH    2048
#define VIVA_EXAM_LINK_MAX_ADDRESSES 8

#define VIVA_TYPE_EXAM_LINK (viva_exam_link_get_type())

G_DECLARE_FINAL_TYPE (VivaExamLink, viva_exam_link, VIVA, EXAM_LINK, GObject)

VivaExamLink *viva_exam_link_parse           (const char    *text,
                                              GError       **error);
const char   *viva_exam_link_get_exam_id     (VivaExamLink  *self);
const char   *viva_exam_link_get_fingerprint (VivaExamLink  *self);
guint         viva_exam_link_get_n_addresses (VivaExamLink  *self);
const char   *viva_exam_link_get_host        (VivaExamLink  *self,
                                              guint          index);
guint         viva_exam_link_get_port        (VivaExamLink  *self,
                                              guint          index);
char         *viva_exam_link_dup_base_uri    (VivaExamLink  *self,
                                              guint          index);
char         *viva_exam_link_to_string       (VivaExamLink  *self);

G_END_DECLS
