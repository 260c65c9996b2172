/* server-fixture-store.h: what a test reads of a server's database beside its API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "server-fixture.h"
#include "viva-server-store.h"

G_BEGIN_DECLS

VivaServerStore *server_fixture_open_store  (ServerFixture *fixture);
JsonObject      *server_fixture_job         (ServerFixture *fixture,
                                             const char    *job_id);
const char      *server_fixture_job_state   (ServerFixture *fixture,
                                             const char    *job_id);
JsonArray       *server_fixture_run_jobs    (ServerFixture *fixture);
void             server_fixture_queue_of    (ServerFixture *fixture,
                                             const char    *exam_id,
                                             const char    *kind,
                                             gint64        *waiting,
                                             gint64        *running);
char            *server_fixture_status_text (ServerFixture *fixture,
                                             const char    *exam_id);

G_END_DECLS
