/* viva-settings.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  VIVA_EXAMINER_MODE_AUTO,
  VIVA_EXAMINER_MODE_MODEL,
  VIVA_EXAMINER_MODE_OFFLINE,
} VivaExaminerMode;

#define VIVA_TYPE_SETTINGS (viva_settings_get_type())

G_DECLARE_FINAL_TYPE (VivaSettings, viva_settings, VIVA, SETTINGS, GObject)

VivaSettings     *viva_settings_new                    (void);
VivaSettings     *viva_settings_get_default            (void);
gboolean          viva_settings_has_schema             (VivaSettings     *self);
const char       *viva_settings_get_base_url           (VivaSettings     *self);
void              viva_settings_set_base_url           (VivaSettings     *self,
                                                        const char       *base_url);
const char       *viva_settings_get_model              (VivaSettings     *self);
void              viva_settings_set_model              (VivaSettings     *self,
                                                        const char       *model);
const char       *viva_settings_get_scorer_base_url    (VivaSettings     *self);
void              viva_settings_set_scorer_base_url    (VivaSettings     *self,
                                                        const char       *base_url);
const char       *viva_settings_get_scorer_model       (VivaSettings     *self);
void              viva_settings_set_scorer_model       (VivaSettings     *self,
                                                        const char       *model);
double            viva_settings_get_temperature        (VivaSettings     *self);
void              viva_settings_set_temperature        (VivaSettings     *self,
                                                        double            temperature);
guint             viva_settings_get_first_byte_timeout (VivaSettings     *self);
guint             viva_settings_get_idle_timeout       (VivaSettings     *self);
guint             viva_settings_get_context_length     (VivaSettings     *self);
const char       *viva_settings_get_examiner_language  (VivaSettings     *self);
void              viva_settings_set_examiner_language  (VivaSettings     *self,
                                                        const char       *language);
VivaExaminerMode  viva_settings_get_examiner_mode      (VivaSettings     *self);
void              viva_settings_set_examiner_mode      (VivaSettings     *self,
                                                        VivaExaminerMode  mode);
const char       *viva_settings_get_last_pack          (VivaSettings     *self);
const char       *viva_settings_get_last_problem       (VivaSettings     *self);
void              viva_settings_set_last_problem       (VivaSettings     *self,
                                                        const char       *pack_id,
                                                        const char       *problem_id);
int               viva_settings_get_problem_pane_position (VivaSettings  *self);
void              viva_settings_set_problem_pane_position (VivaSettings  *self,
                                                        int               position);
gboolean          viva_settings_get_problem_pane_visible (VivaSettings   *self);
void              viva_settings_set_problem_pane_visible (VivaSettings   *self,
                                                        gboolean          visible);
int               viva_settings_get_examiner_pane_width (VivaSettings    *self);
void              viva_settings_set_examiner_pane_width (VivaSettings    *self,
                                                        int               width);
int               viva_settings_get_code_font_size     (VivaSettings     *self);
void              viva_settings_set_code_font_size     (VivaSettings     *self,
                                                        int               size);
const char       *viva_settings_get_exam_file          (VivaSettings     *self);
gboolean          viva_settings_is_exam_file_locked    (VivaSettings     *self);
void              viva_settings_fix                    (VivaSettings     *self,
                                                        const char       *name,
                                                        const GValue     *value);
gboolean          viva_settings_is_fixed               (VivaSettings     *self,
                                                        const char       *name);
gboolean          viva_settings_get_teacher_mode       (VivaSettings     *self);
gboolean          viva_settings_get_run_without_sandbox (VivaSettings    *self);
void              viva_settings_set_teacher_mode       (VivaSettings     *self,
                                                        gboolean          teacher_mode);

G_END_DECLS
