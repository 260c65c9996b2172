/* viva-tool-card.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * VivaToolCardStatus:
 * @VIVA_TOOL_CARD_RUNNING: the tool runs
 * @VIVA_TOOL_CARD_SUCCEEDED: it ran, and what it ran passed
 * @VIVA_TOOL_CARD_FAILED: it ran, and what it ran raised or failed
 * @VIVA_TOOL_CARD_ERROR: the tool itself could not run
 * @VIVA_TOOL_CARD_CANCELLED: the defense stopped while it ran
 */
typedef enum
{
  VIVA_TOOL_CARD_RUNNING,
  VIVA_TOOL_CARD_SUCCEEDED,
  VIVA_TOOL_CARD_FAILED,
  VIVA_TOOL_CARD_ERROR,
  VIVA_TOOL_CARD_CANCELLED,
} VivaToolCardStatus;

#define VIVA_TYPE_TOOL_CARD_STATUS (viva_tool_card_status_get_type ())
GType viva_tool_card_status_get_type (void) G_GNUC_CONST;

#define VIVA_TYPE_TOOL_CARD (viva_tool_card_get_type())

G_DECLARE_FINAL_TYPE (VivaToolCard, viva_tool_card, VIVA, TOOL_CARD, GtkWidget)

GtkWidget          *viva_tool_card_new             (const char         *tool_name,
                                                    JsonObject         *arguments);
const char         *viva_tool_card_get_tool_name   (VivaToolCard       *self);
const char         *viva_tool_card_get_title       (VivaToolCard       *self);
VivaToolCardStatus  viva_tool_card_get_status      (VivaToolCard       *self);
void                viva_tool_card_set_status      (VivaToolCard       *self,
                                                    VivaToolCardStatus  status);
void                viva_tool_card_set_result      (VivaToolCard       *self,
                                                    JsonObject         *result,
                                                    double              duration_ms);
void                viva_tool_card_set_error       (VivaToolCard       *self,
                                                    const char         *message);

G_END_DECLS
