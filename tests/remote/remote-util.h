/* remote-util.h: the exam server's client, waited on in a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-remote.h"
#include "server-fixture.h"

G_BEGIN_DECLS

/* Runs the main loop until *slot holds the result a callback stored. */
void                  remote_store_result (GObject       *object,
                                           GAsyncResult  *result,
                                           gpointer       user_data);
GAsyncResult         *remote_wait         (GAsyncResult **slot);
char                 *remote_link_text    (ServerFixture *fixture,
                                           const char    *exam_id);
VivaExamServerClient *remote_client       (ServerFixture *fixture,
                                           const char    *exam_id,
                                           const char    *token);
char                 *remote_sign_in      (VivaExamServerClient *client,
                                           ServerFixture *fixture,
                                           const char    *student_id,
                                           GError       **error);
void                  remote_iterate_until (gboolean     (*done) (gpointer data),
                                            gpointer       data);

G_END_DECLS
