/* viva-openai-model-stream-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-openai-model-private.h"
#include "viva-reply-assembler.h"
#include "viva-sse-reader.h"

G_BEGIN_DECLS

/* One stream's state, the task data of its GTask, shared by the stream
 * (viva-openai-model-stream.c) and what follows a failed attempt
 * (viva-openai-model-retry.c). Every function below that takes the task
 * takes its reference (the callbacks own theirs and hand it on), except
 * _viva_openai_stream_end_attempt, _busy and _not_busy, which borrow. */
typedef struct
{
  VivaChatRequest    *request;
  char               *api_key;
  char               *model;
  gboolean            native;

  guint               attempt;
  gboolean            dropped_temperature;
  gboolean            dropped_stream_options;

  GCancellable       *attempt_cancellable;
  gulong              cancelled_id;
  SoupMessage        *message;
  VivaSseReader      *reader;
  VivaReplyAssembler *assembler;
  GSource            *watchdog;
  GSource            *delay;
  GSource            *delay_cancel;
  gint64              attempt_started;
  gint64              last_progress;
  guint64             last_bytes;
  gboolean            got_first_byte;
  gboolean            timed_out;
  gboolean            past_time_limit;

  guint               first_byte_limit;
  gboolean            busy;
  gint64              busy_started;
  guint               busy_retries;
} StreamData;

/* viva-openai-model-stream.c */
void     _viva_openai_stream_end_attempt    (GTask      *task);
GError  *_viva_openai_stream_cancelled_error (void);
void     _viva_openai_stream_fail           (GTask      *task,
                                             GError     *error);
void     _viva_openai_stream_succeed        (GTask      *task,
                                             gboolean    cut_off);
void     _viva_openai_stream_start_attempt  (GTask      *task);
void     _viva_openai_stream_resolve_model  (GTask      *task);

/* viva-openai-model-retry.c */
void     _viva_openai_stream_busy           (GTask      *task,
                                             guint       wait_s);
void     _viva_openai_stream_not_busy       (GTask      *task);
void     _viva_openai_stream_fault          (GTask      *task,
                                             GError     *error,
                                             gboolean    retryable,
                                             gboolean    busy,
                                             guint       retry_after_ms);
void     _viva_openai_stream_read_failed    (GTask      *task,
                                             GError     *error);
void     _viva_openai_stream_error_body_cb  (GObject      *object,
                                             GAsyncResult *result,
                                             gpointer      user_data);

G_END_DECLS
