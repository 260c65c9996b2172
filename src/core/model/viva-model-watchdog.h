/* viva-model-watchdog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-sse-reader.h"

G_BEGIN_DECLS

/* One attempt's watchdog: it ticks through the attempt and cancels it when
 * no byte came for the first-byte limit (before the first byte) or the
 * idle timeout (after it), or when the whole reply passed its deadline. */
typedef struct _VivaModelWatchdog VivaModelWatchdog;

typedef enum
{
  /* Bytes came: the server is not (or no longer) queueing us. */
  VIVA_MODEL_WATCHDOG_PROGRESS,
  /* No first byte for a while: waiting in the server's queue, as far as
   * anyone can tell. Said on every tick until the first byte. */
  VIVA_MODEL_WATCHDOG_SLOW_START,
} VivaModelWatchdogEvent;

typedef void (*VivaModelWatchdogFunc) (VivaModelWatchdogEvent event,
                                       gpointer               user_data);

VivaModelWatchdog *viva_model_watchdog_new              (GMainContext          *context,
                                                         GCancellable          *attempt,
                                                         guint                  first_byte_limit_ms,
                                                         guint                  idle_timeout_ms,
                                                         guint                  max_reply_time_ms,
                                                         VivaModelWatchdogFunc  func,
                                                         gpointer               user_data,
                                                         GDestroyNotify         notify);
void               viva_model_watchdog_free             (VivaModelWatchdog     *self);
void               viva_model_watchdog_watch            (VivaModelWatchdog     *self,
                                                         VivaSseReader         *reader);
gboolean           viva_model_watchdog_got_first_byte   (VivaModelWatchdog     *self);
gboolean           viva_model_watchdog_timed_out        (VivaModelWatchdog     *self);
gboolean           viva_model_watchdog_past_time_limit  (VivaModelWatchdog     *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaModelWatchdog, viva_model_watchdog_free)

G_END_DECLS
