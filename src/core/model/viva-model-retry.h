/* viva-model-retry.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* One stream's retry policy: which attempt this is, how long a busy
 * server has been waited for, how long the first byte may take, and
 * whether (and after what delay) a failed attempt is tried again. Plain
 * data with no I/O: the stream does what it decides. */
typedef struct _VivaModelRetry VivaModelRetry;

typedef enum
{
  VIVA_MODEL_RETRY_GIVE_UP,
  /* A busy server was waited for as long as max-busy-wait allows. */
  VIVA_MODEL_RETRY_STILL_BUSY,
  VIVA_MODEL_RETRY_AGAIN,
} VivaModelRetryStep;

VivaModelRetry     *viva_model_retry_new                 (guint           max_attempts,
                                                          guint           retry_delay_ms,
                                                          guint           max_busy_wait_ms,
                                                          guint           first_byte_timeout_ms);
void                viva_model_retry_free                (VivaModelRetry *self);
guint               viva_model_retry_begin_attempt       (VivaModelRetry *self);
void                viva_model_retry_uncount_attempt     (VivaModelRetry *self);
guint               viva_model_retry_get_attempt         (VivaModelRetry *self);
guint               viva_model_retry_get_first_byte_limit (VivaModelRetry *self);
guint               viva_model_retry_get_max_busy_wait   (VivaModelRetry *self);
void                viva_model_retry_busy_began          (VivaModelRetry *self);
VivaModelRetryStep  viva_model_retry_next                (VivaModelRetry *self,
                                                          gboolean        retryable,
                                                          gboolean        busy,
                                                          guint           retry_after_ms,
                                                          gboolean        no_first_byte_in_time,
                                                          gboolean        cancelled,
                                                          guint64        *delay_ms);
guint               viva_model_retry_after               (SoupMessage    *message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaModelRetry, viva_model_retry_free)

G_END_DECLS
