/* viva-server-worker.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <libsoup/soup.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "viva-server-jobs.h"
#include "viva-server-keys.h"
#include "viva-server-store-pool.h"
#include "viva-server-util.h"

/* viva-server worker --server LINK --worker-token T [--kind run|grade]: a
 * machine of the pool, for the defenses' code runs and the gradings. It speaks only the server's HTTPS API (pinned to the link's
 * certificate, as the app is), with a token that reaches one exam's jobs:
 * no database credentials, no other exam. It claims a job, renews its
 * lease three times per lease while the job runs in fresh sandboxed
 * workers, and posts the result; a lost claim (it stalled past its lease
 * and another took the job) drops the job. An idle worker's claim waits on
 * the server for a job (up to CLAIM_WAIT_MS: answered as soon as one is
 * enqueued), so a job does not wait for a poll. While the server does not
 * answer it waits calmly and asks again.
 *
 * viva-server worker-token EXAM-ID prints a new worker token (kept as its
 * hash, as every token is). */

#define IDLE_POLL_MS  200
/* Half the session's 30 s timeout: the claim's answer always comes first. */
#define CLAIM_WAIT_MS 15000
#define RETRY_WAIT_MS 1000

typedef struct
{
  gboolean      json;
  SoupSession  *session;
  GMainLoop    *loop;
  char         *base;         /* https://host:port/api/v1/exams/EXAM */
  char         *fingerprint;
  char         *token;
  char         *name;
  char         *kind;         /* --kind: only jobs of this kind, or NULL */
  int           jobs_left;    /* --jobs: stop after this many; <= 0 never */
  /* The job running, if any. */
  char         *job_id;
  char         *claim_id;
  guint         lease_ms;
  guint         renew_id;
  GCancellable *cancellable;
  JsonObject   *result;       /* posted, not yet acknowledged */
} Worker;

typedef void (*CallDone) (Worker     *self,
                          guint       status,
                          JsonObject *answer,
                          GError     *error);

typedef struct
{
  Worker      *self;
  SoupMessage *msg;
  CallDone     done;
} Call;

static void claim (Worker *self);
static void post_result (Worker *self);

static void
event (Worker     *self,
       const char *kind,
       const char *job_id,
       const char *text)
{
  if (self->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      if (job_id != NULL)
        json_object_set_string_member (object, "job", job_id);
      if (text != NULL)
        json_object_set_string_member (object, "message", text);
      viva_server_print_event (kind, object);
    }
  else if (text != NULL)
    printf ("%s\n", text);
  fflush (stdout);
}

static gboolean
accept_certificate_cb (SoupMessage          *msg,
                       GTlsCertificate      *certificate,
                       GTlsCertificateFlags  errors,
                       Worker               *self)
{
  g_autoptr(GByteArray) der = NULL;
  g_autofree char *fingerprint = NULL;

  /* Pinned: this certificate and no other, whatever authority signed it. */
  g_object_get (certificate, "certificate", &der, NULL);
  fingerprint = g_compute_checksum_for_data (G_CHECKSUM_SHA256, der->data, der->len);
  return g_ascii_strcasecmp (fingerprint, self->fingerprint) == 0;
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Call *call = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  guint status = 0;

  if ((bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error)))
    {
      status = soup_message_get_status (call->msg);
      node = json_from_string (g_bytes_get_data (bytes, NULL), NULL);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("The exam server answered %u without JSON: is the link an exam server’s?"), status);
    }
  call->done (call->self, status, error ? NULL : json_node_get_object (node), error);
  g_object_unref (call->msg);
  g_free (call);
}

static void
call (Worker     *self,
      const char *path,
      JsonObject *body,
      CallDone    done)
{
  g_autofree char *uri = g_strconcat (self->base, path, NULL);
  g_autofree char *header = g_strconcat ("Bearer ", self->token, NULL);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), body);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  Call *pending = g_new0 (Call, 1);

  pending->self = self;
  pending->done = done;
  pending->msg = soup_message_new ("POST", uri);
  /* libsoup opens a new connection (a TLS handshake, ~50 ms here) for
   * every POST unless told it may repeat it. Each of these may: a result
   * names its claim and is recorded once, a renewal is a renewal, and a
   * claim whose answer was lost leaves its job to the lease's end. */
  soup_message_add_flags (pending->msg, SOUP_MESSAGE_IDEMPOTENT);
  g_signal_connect (pending->msg, "accept-certificate", G_CALLBACK (accept_certificate_cb), self);
  soup_message_headers_replace (soup_message_get_request_headers (pending->msg), "Authorization", header);
  soup_message_set_request_body_from_bytes (pending->msg, "application/json", bytes);
  soup_session_send_and_read_async (self->session, pending->msg, G_PRIORITY_DEFAULT, NULL, call_cb, pending);
}

static gboolean
claim_cb (gpointer user_data)
{
  claim (user_data);
  return G_SOURCE_REMOVE;
}

static gboolean
post_result_cb (gpointer user_data)
{
  post_result (user_data);
  return G_SOURCE_REMOVE;
}

static void
clear_job (Worker *self)
{
  g_clear_handle_id (&self->renew_id, g_source_remove);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->job_id, g_free);
  g_clear_pointer (&self->claim_id, g_free);
  g_clear_pointer (&self->result, json_object_unref);
}

static void
next (Worker *self)
{
  clear_job (self);
  if (self->jobs_left > 0 && --self->jobs_left == 0)
    g_main_loop_quit (self->loop);
  else
    claim (self);
}

/* Is this answer the server saying "not now"? Then wait and ask again. */
static gboolean
server_away (Worker *self,
             guint   status,
             GError *error)
{
  if (error == NULL && status != SOUP_STATUS_SERVICE_UNAVAILABLE && status != 429)
    return FALSE;
  event (self, "waiting", self->job_id,
         error ? error->message : _("The exam server is busy; asking again in a moment."));
  return TRUE;
}

static void
result_done (Worker     *self,
             guint       status,
             JsonObject *answer,
             GError     *error)
{
  if (server_away (self, status, error))
    {
      g_timeout_add (RETRY_WAIT_MS, post_result_cb, self);
      return;
    }
  if (status == SOUP_STATUS_OK)
    event (self, "recorded", self->job_id, NULL);
  else
    event (self, "lost", self->job_id, _("The job went to another worker; this result was not kept."));
  next (self);
}

static void
post_result (Worker *self)
{
  g_autofree char *path = g_strdup_printf ("/jobs/%s/result", self->job_id);
  g_autoptr(JsonObject) body = json_object_new ();

  json_object_set_string_member (body, "claim_id", self->claim_id);
  json_object_set_object_member (body, "result", json_object_ref (self->result));
  call (self, path, body, result_done);
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Worker *self = user_data;
  g_autoptr(GError) error = NULL;
  JsonObject *out;

  if (!(out = viva_server_job_run_finish (result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          next (self);
          return;
        }
      out = json_object_new ();
      json_object_set_string_member (out, "error", error->message);
    }
  g_clear_handle_id (&self->renew_id, g_source_remove);
  self->result = out;
  post_result (self);
}

static void
renew_done (Worker     *self,
            guint       status,
            JsonObject *answer,
            GError     *error)
{
  /* The server away: the next renewal tries again, within the lease. */
  if (error != NULL || status != SOUP_STATUS_CONFLICT || self->cancellable == NULL)
    return;
  event (self, "lost", self->job_id, _("The job went to another worker; dropping it."));
  g_cancellable_cancel (self->cancellable);
}

static gboolean
renew_cb (gpointer user_data)
{
  Worker *self = user_data;
  g_autofree char *path = g_strdup_printf ("/jobs/%s/renew", self->job_id);
  g_autoptr(JsonObject) body = json_object_new ();

  json_object_set_string_member (body, "claim_id", self->claim_id);
  call (self, path, body, renew_done);
  return G_SOURCE_CONTINUE;
}

static void
claim_done (Worker     *self,
            guint       status,
            JsonObject *answer,
            GError     *error)
{
  JsonObject *job;

  if (server_away (self, status, error))
    {
      g_timeout_add (RETRY_WAIT_MS, claim_cb, self);
      return;
    }
  if (status != SOUP_STATUS_OK)
    {
      JsonObject *said = json_object_get_object_member (answer, "error");

      event (self, "refused", NULL, said ? json_object_get_string_member (said, "message") : NULL);
      g_main_loop_quit (self->loop);
      return;
    }
  if (json_object_get_null_member (answer, "job"))
    {
      g_timeout_add (IDLE_POLL_MS, claim_cb, self);
      return;
    }

  job = json_object_get_object_member (answer, "job");
  self->job_id = g_strdup (json_object_get_string_member (job, "id"));
  self->claim_id = g_strdup (json_object_get_string_member (job, "claim_id"));
  self->lease_ms = json_object_get_int_member (job, "lease_ms");
  self->cancellable = g_cancellable_new ();
  self->renew_id = g_timeout_add (MAX (self->lease_ms / 3, 50), renew_cb, self);
  event (self, "claimed", self->job_id, NULL);
  viva_server_job_run_async (json_object_get_object_member (answer, "pack"),
                             json_object_get_string_member (job, "kind"),
                             json_object_get_object_member (job, "payload"),
                             self->cancellable, run_cb, self);
}

static void
claim (Worker *self)
{
  g_autoptr(JsonObject) body = json_object_new ();

  json_object_set_string_member (body, "worker", self->name);
  if (self->kind != NULL)
    json_object_set_string_member (body, "kind", self->kind);
  json_object_set_int_member (body, "wait_ms", CLAIM_WAIT_MS);
  call (self, "/jobs/claim", body, claim_done);
}

/* viva://HOST:PORT/EXAM-ID#sha256=FINGERPRINT, as `exam add` prints it. */
static gboolean
parse_link (const char  *link,
            char       **base,
            char       **fingerprint)
{
  g_autofree char *rest = NULL;
  const char *slash, *hash;

  if (!g_str_has_prefix (link, "viva://"))
    return FALSE;
  rest = g_strdup (link + strlen ("viva://"));
  if (!(slash = strchr (rest, '/')) || !(hash = strstr (slash, "#sha256=")) || hash == slash + 1 ||
      strlen (hash + strlen ("#sha256=")) != 64)
    return FALSE;
  *base = g_strdup_printf ("https://%.*s/api/v1/exams/%.*s", (int)(slash - rest), rest,
                           (int)(hash - slash - 1), slash + 1);
  *fingerprint = g_strdup (hash + strlen ("#sha256="));
  return TRUE;
}

static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

int
viva_server_worker_command (int    argc,
                            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  g_autofree char *link = NULL;
  g_autofree char *token = NULL;
  g_autofree char *name = NULL;
  g_autofree char *kind = NULL;
  Worker self = { 0 };
  guint term_id, int_id;
  int jobs = 0;
  int status;
  GOptionEntry entries[] = {
    { "server", 0, 0, G_OPTION_ARG_STRING, &link, N_("The exam’s link, as exam add printed it"), N_("LINK") },
    { "worker-token", 0, 0, G_OPTION_ARG_STRING, &token, N_("A token from viva-server worker-token"), N_("T") },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, N_("This worker’s name in status (default: host and process)"), N_("NAME") },
    { "jobs", 0, 0, G_OPTION_ARG_INT, &jobs, N_("Stop after this many jobs (default: never)"), N_("N") },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind, N_("Only jobs of this kind: run (the defenses’ code runs) or grade (default: both, runs first)"), N_("KIND") },
    { NULL }
  };

  context = g_option_context_new (_("— grade an exam’s submissions for its server, over HTTPS"));
  viva_server_common_add_entries (&common, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;

  if (argc != 1 || link == NULL || token == NULL)
    {
      viva_server_usage_error (context, "%s", _("Give --server LINK and --worker-token T."));
      return VIVA_SERVER_EXIT_USAGE;
    }
  if (!parse_link (link, &self.base, &self.fingerprint))
    {
      viva_server_usage_error (context, _("“%s” is not an exam link: copy it as exam add printed it, viva://HOST:PORT/EXAM#sha256=…"),
                               link);
      return VIVA_SERVER_EXIT_USAGE;
    }

  if (kind != NULL && !g_str_equal (kind, "run") && !g_str_equal (kind, "grade"))
    {
      viva_server_usage_error (context, "%s", _("--kind is run or grade."));
      return VIVA_SERVER_EXIT_USAGE;
    }

  self.json = common.json;
  self.kind = kind;
  self.token = token;
  self.name = name ? g_strdup (name) : g_strdup_printf ("%s-%d", g_get_host_name (), (int)getpid ());
  self.jobs_left = jobs;
  self.session = soup_session_new_with_options ("timeout", 30, NULL);
  self.loop = g_main_loop_new (NULL, FALSE);

  event (&self, "started", NULL, self.json ? NULL : _("Waiting for jobs…"));
  claim (&self);
  term_id = g_unix_signal_add (SIGTERM, quit_cb, self.loop);
  int_id = g_unix_signal_add (SIGINT, quit_cb, self.loop);
  g_main_loop_run (self.loop);
  g_source_remove (term_id);
  g_source_remove (int_id);

  clear_job (&self);
  g_clear_object (&self.session);
  g_clear_pointer (&self.loop, g_main_loop_unref);
  g_free (self.base);
  g_free (self.fingerprint);
  g_free (self.name);
  return VIVA_SERVER_EXIT_OK;
}

int
viva_server_worker_token_command (int    argc,
                                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) exam = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *hash = NULL;
  int status;

  context = g_option_context_new (_("EXAM-ID — a new token for a grading worker of this exam"));
  viva_server_common_add_entries (&common, context);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;
  if (argc != 2)
    {
      viva_server_usage_error (context, "%s", _("Give exactly one EXAM-ID."));
      return VIVA_SERVER_EXIT_USAGE;
    }
  if (!(store = viva_server_open_store (&common)))
    return VIVA_SERVER_EXIT_FAILED;
  if (!(exam = viva_server_store_get_exam (store, argv[1], &error)))
    {
      viva_server_fail (&common, "%s", error ? error->message : _("This server holds no such exam."));
      return VIVA_SERVER_EXIT_FAILED;
    }

  token = viva_server_keys_random_token ();
  hash = viva_server_keys_hash_token (token);
  if (!viva_server_store_add_worker_token (store, argv[1], hash, &error))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (common.json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "exam", argv[1]);
      json_object_set_string_member (object, "worker_token", token);
      viva_server_print_event ("worker_token", object);
    }
  else
    {
      printf (_("Worker token for %s (shown once; it reaches this exam’s grading jobs only):\n%s\n"), argv[1], token);
      printf (_("On the grading machine: viva-server worker --server LINK --worker-token TOKEN\n"));
    }
  return VIVA_SERVER_EXIT_OK;
}
