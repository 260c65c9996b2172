/* viva-code-source.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define VIVA_TYPE_CODE_SOURCE (viva_code_source_get_type ())

G_DECLARE_INTERFACE (VivaCodeSource, viva_code_source, VIVA, CODE_SOURCE, GObject)

/**
 * VivaCodeSourceInterface:
 * @dup_code: the student's code as it is now
 *
 * A live view of the student's code, so the examiner sees an edit made in
 * the middle of a defense. The window implements it over the editor buffer;
 * the CLI and tests use #VivaTextCodeSource. Implementations emit
 * #VivaCodeSource::changed when the text changes (on every edit is fine:
 * the examiner records at most one edit a second). Main thread only.
 */
struct _VivaCodeSourceInterface
{
  GTypeInterface parent_iface;

  char *(*dup_code) (VivaCodeSource *self);
};

char *viva_code_source_dup_code     (VivaCodeSource *self);
void  viva_code_source_emit_changed (VivaCodeSource *self);

#define VIVA_TYPE_TEXT_CODE_SOURCE (viva_text_code_source_get_type ())

G_DECLARE_FINAL_TYPE (VivaTextCodeSource, viva_text_code_source, VIVA, TEXT_CODE_SOURCE, GObject)

VivaTextCodeSource *viva_text_code_source_new      (const char         *code);
const char         *viva_text_code_source_get_code (VivaTextCodeSource *self);
void                viva_text_code_source_set_code (VivaTextCodeSource *self,
                                                    const char         *code);

G_END_DECLS
