/* viva-exam-session-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-session.h"

G_BEGIN_DECLS

/* The writer thread (viva-exam-session-writer.c): checkpoints replaced and
 * trace lines appended in order, off the main loop. Plain data only. */
typedef struct _VivaExamWriter VivaExamWriter;

VivaExamWriter  *_viva_exam_writer_new                   (const char     *dir);
void             _viva_exam_writer_free                  (VivaExamWriter *writer);
void             _viva_exam_writer_checkpoint            (VivaExamWriter *writer,
                                                          char           *text);
void             _viva_exam_writer_trace                 (VivaExamWriter *writer,
                                                          char           *line);
void             _viva_exam_writer_flush                 (VivaExamWriter *writer,
                                                          GTask          *task);
guint64          _viva_exam_writer_get_checkpoint_writes (VivaExamWriter *writer);

/* Loading (viva-exam-session-load.c) makes a session around a checkpoint
 * it has read. */
VivaExamSession *_viva_exam_session_new_loaded           (const char     *sessions_dir,
                                                          const char     *id,
                                                          JsonNode       *checkpoint);

G_END_DECLS
