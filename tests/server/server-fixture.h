/* server-fixture.h: a real viva-server on 127.0.0.1 with TLS, for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  char        *state_dir;
  char        *database;        /* a postgresql:// link, NULL on SQLite */
  const char * const *serve_args; /* more options for serve, or NULL */
  GSubprocess *process;
  guint        port;
  char        *fingerprint;
  JsonObject  *listening;       /* serve's "listening" event: node, resumed */
  SoupSession *session;
  GHashTable  *teacher_tokens;  /* exam id → token */
  GHashTable  *codes;           /* "exam/student" → seat code */
  GHashTable  *links;           /* exam id → link */
} ServerFixture;

void        server_fixture_setup     (ServerFixture      *fixture,
                                      const char * const *exam_files);
void        server_fixture_setup_full (ServerFixture     *fixture,
                                      const char * const *exam_files,
                                      const char * const *serve_args);
void        server_fixture_start     (ServerFixture      *fixture);
void        server_fixture_kill      (ServerFixture      *fixture);
void        server_fixture_teardown  (ServerFixture      *fixture);
int         server_fixture_run       (ServerFixture      *fixture,
                                      const char * const *args,
                                      char              **out);
JsonNode   *server_fixture_request   (ServerFixture      *fixture,
                                      const char         *method,
                                      const char         *path,
                                      const char         *token,
                                      const char         *body,
                                      guint              *status,
                                      char              **raw);
char       *server_fixture_sign_in   (ServerFixture      *fixture,
                                      const char         *exam_id,
                                      const char         *student_id);
JsonObject *server_fixture_wait_for  (ServerFixture      *fixture,
                                      const char         *token,
                                      const char         *exam_id,
                                      const char         *defense_id,
                                      const char         *kind,
                                      gint64             *after,
                                      GString            *seen);
char       *server_fixture_submit    (ServerFixture      *fixture,
                                      const char         *token,
                                      const char         *exam_id,
                                      const char         *problem_id,
                                      const char         *code);
JsonObject *server_fixture_defend    (ServerFixture      *fixture,
                                      const char         *token,
                                      const char         *exam_id,
                                      const char         *defense_id);

/* A `viva-server worker` of one exam, pulling its jobs over HTTPS. */
typedef struct
{
  GSubprocess      *process;
  GDataInputStream *lines;
} ServerWorker;

char         *server_fixture_worker_token (ServerFixture      *fixture,
                                           const char         *exam_id);
ServerWorker *server_fixture_start_worker (ServerFixture      *fixture,
                                           const char         *exam_id,
                                           const char         *token,
                                           const char         *name,
                                           const char         *kind);
char         *server_worker_wait          (ServerWorker       *worker,
                                           const char         *kind);
void          server_worker_kill          (ServerWorker       *worker);

const char *server_fixture_binary    (void);
int         server_fixture_engine_skip (void);

G_END_DECLS
