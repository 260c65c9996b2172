/* viva-exam-error.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define VIVA_EXAM_ERROR (viva_exam_error_quark ())

/**
 * VivaExamError:
 * @VIVA_EXAM_ERROR_INVALID_ARGUMENTS: a tool was called with arguments that do
 *   not match its parameters (the model is told and may correct them)
 * @VIVA_EXAM_ERROR_UNKNOWN_TOOL: the model asked for a tool that does not exist
 * @VIVA_EXAM_ERROR_NOT_WAITING: an answer was given while no question waits
 * @VIVA_EXAM_ERROR_BUSY: the examiner is already running a defense
 * @VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT: a checkpoint is empty, truncated or not
 *   one Viva wrote; it was moved aside
 * @VIVA_EXAM_ERROR_CHECKPOINT_NEWER: a checkpoint was written by a newer Viva;
 *   it was moved aside
 * @VIVA_EXAM_ERROR_NOT_FOUND: no session with that id exists
 * @VIVA_EXAM_ERROR_FINISHED: the defense has already ended; there is nothing
 *   to resume
 * @VIVA_EXAM_ERROR_PACK_MISSING: the pack a session refers to is not where it
 *   was, nor in the library
 * @VIVA_EXAM_ERROR_PROBLEM_CHANGED: the problem differs from the one the
 *   checkpoint was made for
 */
typedef enum
{
  VIVA_EXAM_ERROR_INVALID_ARGUMENTS,
  VIVA_EXAM_ERROR_UNKNOWN_TOOL,
  VIVA_EXAM_ERROR_NOT_WAITING,
  VIVA_EXAM_ERROR_BUSY,
  VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT,
  VIVA_EXAM_ERROR_CHECKPOINT_NEWER,
  VIVA_EXAM_ERROR_NOT_FOUND,
  VIVA_EXAM_ERROR_FINISHED,
  VIVA_EXAM_ERROR_PROBLEM_CHANGED,
  VIVA_EXAM_ERROR_PACK_MISSING,
} VivaExamError;

GQuark viva_exam_error_quark (void);

G_END_DECLS
