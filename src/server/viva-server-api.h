/* viva-server-api.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>
#include <json-glib/json-glib.h>

#include "viva-exam-file.h"
#include "viva-server-store.h"

G_BEGIN_DECLS

/* Who may call a route. */
typedef enum
{
  VIVA_SERVER_AUTH_NONE,
  VIVA_SERVER_AUTH_STUDENT,
  VIVA_SERVER_AUTH_TEACHER,
  VIVA_SERVER_AUTH_WORKER,
} VivaServerAuth;

const char *viva_server_auth_to_string (VivaServerAuth auth);

#define VIVA_TYPE_SERVER_API (viva_server_api_get_type ())

G_DECLARE_FINAL_TYPE (VivaServerApi, viva_server_api, VIVA, SERVER_API, GObject)

typedef struct _VivaServerDefenses VivaServerDefenses;
typedef struct _VivaServerClock VivaServerClock;

/* One request, as a handler sees it: the path's parameters, who called,
 * the parsed body. */
typedef struct
{
  VivaServerApi     *api;
  SoupServerMessage *msg;
  GHashTable        *params;      /* name → value, from the path */
  GHashTable        *query;       /* may be NULL */
  JsonObject        *body;        /* NULL unless the route takes one */
  const char        *client;      /* the peer's address */
  const char        *exam_id;     /* the token's exam */
  const char        *student_id;  /* the token's student, NULL for a teacher */
} VivaServerRequest;

typedef void (*VivaServerHandler) (VivaServerRequest *request);

typedef struct
{
  const char        *method;
  const char        *path;     /* `/api/v1/exams/{exam}/…` */
  VivaServerAuth     auth;
  gboolean           has_body;
  VivaServerHandler  handler;
} VivaServerRoute;

const VivaServerRoute *viva_server_routes_get      (guint             *n_routes);

VivaServerApi   *viva_server_api_new               (const char        *state_dir,
                                                    VivaServerStore   *store,
                                                    GTlsCertificate   *certificate,
                                                    GError           **error);
gboolean         viva_server_api_listen            (VivaServerApi     *self,
                                                    const char        *host,
                                                    guint              port,
                                                    GError           **error);
guint            viva_server_api_get_port          (VivaServerApi     *self);
VivaServerStore *viva_server_api_get_store         (VivaServerApi     *self);
const char      *viva_server_api_get_state_dir     (VivaServerApi     *self);
VivaExamFile    *viva_server_api_get_exam          (VivaServerApi     *self,
                                                    const char        *exam_id,
                                                    GError           **error);
VivaServerDefenses *viva_server_api_get_defenses   (VivaServerApi     *self);
void             viva_server_api_set_defenses      (VivaServerApi     *self,
                                                    VivaServerDefenses *defenses);
VivaServerClock *viva_server_api_get_clock         (VivaServerApi     *self);
void             viva_server_api_set_clock         (VivaServerApi     *self,
                                                    VivaServerClock   *clock);

/* Answers, always JSON. */
void viva_server_reply_json   (VivaServerRequest *request,
                               guint              status,
                               JsonObject        *object);
void viva_server_reply_error  (VivaServerRequest *request,
                               guint              status,
                               const char        *code,
                               const char        *format,
                               ...) G_GNUC_PRINTF (4, 5);
void viva_server_reply_db_error (VivaServerRequest *request,
                                 GError            *error);
void viva_server_message_error (SoupServerMessage *msg,
                                guint              status,
                                const char        *code,
                                const char        *message);

G_END_DECLS
