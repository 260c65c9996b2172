/* viva-timeline-recorder.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "viva-examiner.h"
#include "viva-pack.h"

G_BEGIN_DECLS

#define VIVA_TYPE_TIMELINE_RECORDER (viva_timeline_recorder_get_type ())

G_DECLARE_FINAL_TYPE (VivaTimelineRecorder, viva_timeline_recorder, VIVA, TIMELINE_RECORDER, GObject)

VivaTimelineRecorder *viva_timeline_recorder_new           (GtkTextBuffer        *buffer);
void                  viva_timeline_recorder_set_problem   (VivaTimelineRecorder *self,
                                                            VivaPack             *pack,
                                                            VivaProblem          *problem);
void                  viva_timeline_recorder_set_examiner  (VivaTimelineRecorder *self,
                                                            VivaExaminer         *examiner);
void                  viva_timeline_recorder_set_quiet     (VivaTimelineRecorder *self,
                                                            gboolean              quiet);
void                  viva_timeline_recorder_set_focused   (VivaTimelineRecorder *self,
                                                            gboolean              focused,
                                                            gboolean              defending_elsewhere);
void                  viva_timeline_recorder_add           (VivaTimelineRecorder *self,
                                                            JsonObject           *event);
void                  viva_timeline_recorder_run           (VivaTimelineRecorder *self,
                                                            const char           *code);
void                  viva_timeline_recorder_check         (VivaTimelineRecorder *self,
                                                            const char           *code,
                                                            guint                 passed,
                                                            guint                 total);
void                  viva_timeline_recorder_hint          (VivaTimelineRecorder *self,
                                                            double                cost);
const char           *viva_timeline_recorder_get_last_run  (VivaTimelineRecorder *self);
JsonArray            *viva_timeline_recorder_take_pending  (VivaTimelineRecorder *self);

G_END_DECLS
