/* viva-exam-session-draft.c
 *
 * The answer a student is typing to a pending question, kept beside the
 * session's checkpoint: a defense that waits for an answer survives a
 * crash or a kill, and so should the half of the answer already typed.
 * The draft is not part of the checkpoint (it changes with every key and
 * is not the defense's state), nor of the trace or the report: it is the
 * student's own text, until it is sent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-session.h"
#include "viva-file-writer.h"

#define DRAFT_FILE "answer-draft.txt"
/* Longer than any answer a student types; a bigger file was not written
 * by Viva. */
#define MAX_DRAFT_BYTES (256 * 1024)

static GFile *
draft_file (VivaExamSession *self)
{
  g_autofree char *path = g_build_filename (viva_exam_session_get_dir (self), DRAFT_FILE, NULL);

  return g_file_new_for_path (path);
}

/**
 * viva_exam_session_save_answer_draft:
 * @text: what the answer box holds; empty once the answer is sent
 *
 * Queues @text as the draft of the answer to the pending question, on the
 * file writer's threads: the newest draft asked for is the one kept.
 */
void
viva_exam_session_save_answer_draft (VivaExamSession *self,
                                     const char      *text)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SESSION (self));
  g_return_if_fail (text != NULL);

  if (viva_exam_session_get_dir (self) == NULL)
    return;

  file = draft_file (self);
  bytes = g_bytes_new (text, strnlen (text, MAX_DRAFT_BYTES));
  viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_NONE, NULL, NULL, NULL);
}

/**
 * viva_exam_session_dup_answer_draft:
 *
 * Reads the draft back, after a restart. Blocking, but one small file.
 *
 * Returns: (transfer full) (nullable): the draft, or %NULL when there is
 *   none, or it is not a draft Viva wrote
 */
char *
viva_exam_session_dup_answer_draft (VivaExamSession *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  g_return_val_if_fail (VIVA_IS_EXAM_SESSION (self), NULL);

  if (viva_exam_session_get_dir (self) == NULL)
    return NULL;

  file = draft_file (self);
  if (!g_file_load_contents (file, NULL, &text, &length, NULL, NULL))
    return NULL;

  if (length == 0 || length > MAX_DRAFT_BYTES || !g_utf8_validate_len (text, length, NULL))
    return NULL;

  return g_steal_pointer (&text);
}
