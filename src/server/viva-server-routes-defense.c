/* viva-server-routes-defense.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-server-clock.h"
#include "viva-server-defenses.h"
#include "viva-server-routes-private.h"
#include "viva-server-sitting.h"
#include "viva-server-store-pool.h"

/* Submit, a defense's state, its events and the student's answers. The
 * events go out as Server-Sent Events (`Accept: text/event-stream`: every
 * event after `after`, then each new one as it is committed, `id:` being
 * its sequence number) or as one JSON page (any other Accept) for a client
 * that polls. Either way a client that reconnects with the last number it
 * saw misses nothing and sees nothing twice. A student is sent the
 * student's view of an event (_viva_server_student_event()), never the
 * kept one. */

#define MAX_ANSWER_BYTES (16 * 1024)
#define PAGE_EVENTS 500
#define KEEP_ALIVE_S 15

typedef struct
{
  VivaServerApi     *api;
  SoupServerMessage *msg;
  char              *exam_id;
  char              *student_id;
  char              *defense_id;
  gint64             last_seq;
  guint              keep_alive_id;
  gboolean           done;
  gboolean           following;
} Stream;

typedef struct
{
  GPtrArray *streams;
  gulong     event_id;
} Streams;

static void
stream_free (Stream *stream)
{
  g_clear_handle_id (&stream->keep_alive_id, g_source_remove);
  g_free (stream->exam_id);
  g_free (stream->student_id);
  g_free (stream->defense_id);
  g_free (stream);
}

/**
 * _viva_server_student_event:
 *
 * Returns: (transfer full) (nullable): what a student is sent of a kept
 *   event, %NULL for one they are not sent. Tool calls go without their
 *   arguments and results (a probe's result can hold the reference's
 *   values), with only the facts a card words; a verdict is held while the
 *   exam holds verdicts.
 */
JsonObject *
_viva_server_student_event (VivaServerApi *api,
                            const char    *exam_id,
                            const char    *kind,
                            JsonObject    *data)
{
  JsonObject *out = json_object_new ();

  if (g_str_equal (kind, "tool_call") || g_str_equal (kind, "tool_result"))
    {
      static const char * const facts[] = { "status", "passed", "valid", "lines", "duration_ms", NULL };
      JsonObject *result = json_object_has_member (data, "result") &&
                           JSON_NODE_HOLDS_OBJECT (json_object_get_member (data, "result"))
                           ? json_object_get_object_member (data, "result") : NULL;

      json_object_set_string_member (out, "step", json_object_get_string_member_with_default (data, "step", ""));
      json_object_set_string_member (out, "name", json_object_get_string_member_with_default (data, "name", ""));
      if (json_object_has_member (data, "ok"))
        json_object_set_boolean_member (out, "ok", json_object_get_boolean_member (data, "ok"));
      /* The facts a tool card words ("Ran without errors", "Your code
       * passed this test", "Read 12 lines"), each a scalar of the
       * student's own run, named one by one. */
      for (guint i = 0; result != NULL && facts[i] != NULL; i++)
        {
          JsonNode *value = json_object_get_member (result, facts[i]);

          if (value != NULL && JSON_NODE_HOLDS_VALUE (value) &&
              json_node_get_value_type (value) != G_TYPE_STRING)
            json_object_set_member (out, facts[i], json_node_copy (value));
          else if (value != NULL && g_str_equal (facts[i], "status") && JSON_NODE_HOLDS_VALUE (value))
            {
              const char *status = json_node_get_string (value);
              static const char * const known[] = { "ok", "error", "timeout", "killed", "crashed", "exited", NULL };

              if (status != NULL && g_strv_contains (known, status))
                json_object_set_string_member (out, "status", status);
            }
        }
      return out;
    }

  if (g_str_equal (kind, "verdict") && viva_server_sitting_held (viva_server_api_get_store (api), exam_id))
    {
      json_object_set_boolean_member (out, "held", TRUE);
      json_object_set_string_member (out, "status", "handed_in");
      return out;
    }

  if (g_str_equal (kind, "refused"))
    {
      json_object_set_string_member (out, "name", json_object_get_string_member_with_default (data, "name", ""));
      return out;
    }

  json_object_unref (out);
  return json_object_ref (data);
}

static char *
event_line (VivaServerApi *api,
            const char    *exam_id,
            gint64         seq,
            const char    *kind,
            JsonObject    *data)
{
  g_autoptr(JsonObject) view = _viva_server_student_event (api, exam_id, kind, data);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  json_object_set_int_member (object, "seq", seq);
  json_object_set_string_member (object, "kind", kind);
  json_object_set_object_member (object, "data", g_steal_pointer (&view));
  node = json_node_init_object (json_node_alloc (), object);
  text = json_to_string (node, FALSE);
  return g_strdup_printf ("id: %" G_GINT64_FORMAT "\nevent: %s\ndata: %s\n\n", seq, kind, text);
}

static void
stream_write (Stream     *stream,
              const char *text)
{
  soup_message_body_append (soup_server_message_get_response_body (stream->msg), SOUP_MEMORY_COPY,
                            text, strlen (text));
  soup_server_message_unpause (stream->msg);
}

static void
stream_end (Stream *stream)
{
  if (stream->done)
    return;
  stream->done = TRUE;
  g_clear_handle_id (&stream->keep_alive_id, g_source_remove);
  soup_message_body_complete (soup_server_message_get_response_body (stream->msg));
  soup_server_message_unpause (stream->msg);
}

static Streams *
get_streams (VivaServerApi *api);

/* What came between the stream's last event and @seq, from the database:
 * a defense that moved between nodes (taken over here, or followed here
 * from another node) may be told with a gap, and every event is
 * committed before it is told. */
static void
stream_fill (Stream *stream,
             gint64  seq)
{
  g_autoptr(JsonArray) events = NULL;
  g_autoptr(GError) error = NULL;

  if (seq <= stream->last_seq + 1)
    return;
  if (!(events = viva_server_store_list_events (viva_server_api_get_store (stream->api), stream->defense_id,
                                                stream->last_seq, (guint)MIN (seq - stream->last_seq - 1, PAGE_EVENTS),
                                                &error)))
    {
      g_message ("defense %s: %s", stream->defense_id, error->message);
      return;
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      g_autoptr(JsonNode) data = json_from_string (json_object_get_string_member (event, "data"), NULL);
      g_autofree char *line = NULL;
      gint64 at = json_object_get_int_member (event, "seq");

      if (at >= seq || data == NULL || !JSON_NODE_HOLDS_OBJECT (data))
        break;
      line = event_line (stream->api, stream->exam_id, at, json_object_get_string_member (event, "kind"),
                         json_node_get_object (data));
      stream->last_seq = at;
      stream_write (stream, line);
    }
}

static void
on_event (VivaServerDefenses *defenses,
          const char         *defense_id,
          gint64              seq,
          const char         *kind,
          JsonObject         *data,
          Streams            *streams)
{
  for (guint i = 0; i < streams->streams->len; i++)
    {
      Stream *stream = g_ptr_array_index (streams->streams, i);
      g_autofree char *line = NULL;

      if (stream->done || seq <= stream->last_seq || !g_str_equal (stream->defense_id, defense_id))
        continue;
      stream_fill (stream, seq);
      line = event_line (stream->api, stream->exam_id, seq, kind, data);
      stream->last_seq = seq;
      stream_write (stream, line);
      if (g_str_equal (kind, "finished"))
        stream_end (stream);
    }
}

static void
streams_free (Streams *streams)
{
  g_ptr_array_unref (streams->streams);
  g_free (streams);
}

static Streams *
get_streams (VivaServerApi *api)
{
  Streams *streams = g_object_get_data (G_OBJECT (api), "viva-streams");

  if (streams == NULL)
    {
      streams = g_new0 (Streams, 1);
      streams->streams = g_ptr_array_new_with_free_func ((GDestroyNotify)stream_free);
      g_object_set_data_full (G_OBJECT (api), "viva-streams", streams, (GDestroyNotify)streams_free);
      streams->event_id = g_signal_connect (viva_server_api_get_defenses (api), "event",
                                            G_CALLBACK (on_event), streams);
    }
  return streams;
}

/* The earlier PC of a student who signed in again is told so, and its
 * streams end. */
void
_viva_server_streams_sign_out (VivaServerApi *api,
                               const char    *exam_id,
                               const char    *student_id)
{
  Streams *streams = g_object_get_data (G_OBJECT (api), "viva-streams");

  for (guint i = 0; streams != NULL && i < streams->streams->len; i++)
    {
      Stream *stream = g_ptr_array_index (streams->streams, i);

      if (stream->done || !g_str_equal (stream->exam_id, exam_id) || !g_str_equal (stream->student_id, student_id))
        continue;
      stream_write (stream, "event: signed_out\ndata: {\"reason\":\"signed in elsewhere\"}\n\n");
      stream_end (stream);
    }
}

static void
stream_finished_cb (SoupServerMessage *msg,
                    Stream            *stream)
{
  Streams *streams = g_object_get_data (G_OBJECT (stream->api), "viva-streams");

  if (stream->following && viva_server_api_get_defenses (stream->api) != NULL)
    viva_server_defenses_unfollow (viva_server_api_get_defenses (stream->api), stream->defense_id);

  if (streams != NULL)
    g_ptr_array_remove (streams->streams, stream);
}

static gboolean
keep_alive_cb (gpointer user_data)
{
  Stream *stream = user_data;

  stream_write (stream, ": keep-alive\n\n");
  return G_SOURCE_CONTINUE;
}

/* The defense in the path, if it is the caller's; replies and returns
 * NULL when not (another student's defense is "not found", as one that
 * does not exist). */
static JsonObject *
own_defense (VivaServerRequest *request)
{
  const char *id = g_hash_table_lookup (request->params, "defense");
  g_autoptr(GError) error = NULL;
  JsonObject *row = viva_server_store_get_defense (viva_server_api_get_store (request->api), id, &error);

  if (row == NULL || !g_str_equal (json_object_get_string_member (row, "exam_id"), request->exam_id) ||
      !g_str_equal (json_object_get_string_member (row, "student_id"), request->student_id))
    {
      if (error != NULL)
        viva_server_reply_db_error (request, error);
      else
        viva_server_reply_error (request, SOUP_STATUS_NOT_FOUND, "no_defense", "%s",
                                 _("You have no such defense."));
      g_clear_pointer (&row, json_object_unref);
      return NULL;
    }
  return row;
}

static JsonObject *
describe_defense (VivaServerApi *api,
                  JsonObject    *row)
{
  JsonObject *out = json_object_new ();
  const char *id = json_object_get_string_member (row, "id");
  gint64 seq = 0;
  g_autofree char *pending = viva_server_defenses_dup_pending (viva_server_api_get_defenses (api), id, &seq);

  json_object_set_string_member (out, "id", id);
  json_object_set_string_member (out, "problem", json_object_get_string_member (row, "problem_id"));
  json_object_set_string_member (out, "state", json_object_get_string_member (row, "state"));
  json_object_set_int_member (out, "last_seq", json_object_get_int_member (row, "last_seq"));
  if (pending != NULL)
    {
      json_object_set_string_member (out, "pending_question", pending);
      json_object_set_int_member (out, "question_seq", seq);
    }
  else
    json_object_set_null_member (out, "pending_question");
  return out;
}

void
_viva_server_submit (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  VivaServerDefenses *defenses = viva_server_api_get_defenses (request->api);
  const char *problem_id = g_hash_table_lookup (request->params, "problem");
  g_autoptr(JsonArray) existing = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *job_id = NULL;
  const char *code;

  if (!(code = _viva_server_body_string (request, "code", 512 * 1024)))
    return;
  if (!_viva_server_check_problem (request, problem_id) || !_viva_server_check_open (request))
    return;

  if (!(existing = viva_server_store_list_defenses (store, request->exam_id, request->student_id, &error)))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  /* One defense per problem: a second Submit (another PC, a retry after a
   * dropped answer) attaches to the one that runs. */
  for (guint i = 0; i < json_array_get_length (existing); i++)
    {
      JsonObject *defense = json_array_get_object_element (existing, i);
      const char *state = json_object_get_string_member (defense, "state");

      if (!g_str_equal (json_object_get_string_member (defense, "problem_id"), problem_id) ||
          g_str_equal (state, "restarted") || g_str_equal (state, "failed"))
        continue;

      if (g_str_equal (state, "finished"))
        {
          viva_server_reply_error (request, SOUP_STATUS_CONFLICT, "defended", "%s",
                                   _("This problem was defended already."));
          return;
        }

      json_object_set_object_member (object, "defense", describe_defense (request->api, defense));
      json_object_set_boolean_member (object, "attached", TRUE);
      viva_server_reply_json (request, SOUP_STATUS_OK, object);
      return;
    }

  /* The submission, its grading job and the defense naming that job as
   * its grade: one transaction, so a Submit retried after this node died
   * finds either nothing (and starts afresh) or the defense with its job
   * (and attaches): graded once either way. */
  if (!(id = viva_server_defenses_start_submitted (defenses, request->exam_id, request->student_id, problem_id,
                                                   code, &job_id, &error)) ||
      !(row = viva_server_store_get_defense (store, id, &error)))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  json_object_set_object_member (object, "defense", describe_defense (request->api, row));
  json_object_set_boolean_member (object, "attached", FALSE);
  json_object_set_string_member (object, "grading_job", job_id);
  viva_server_reply_json (request, SOUP_STATUS_CREATED, object);
}

void
_viva_server_get_defense (VivaServerRequest *request)
{
  g_autoptr(JsonObject) row = own_defense (request);
  g_autoptr(JsonObject) object = NULL;

  if (row == NULL)
    return;
  object = describe_defense (request->api, row);
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

static gboolean
parse_after (VivaServerRequest *request,
             gint64            *after)
{
  const char *text = request->query ? g_hash_table_lookup (request->query, "after") : NULL;
  const char *header = soup_message_headers_get_one (soup_server_message_get_request_headers (request->msg),
                                                     "Last-Event-ID");
  guint64 value = 0;

  /* An EventSource that reconnects says where it was in Last-Event-ID. */
  if (text == NULL)
    text = header;
  if (text != NULL && !g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &value, NULL))
    {
      viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request", "%s",
                               _("“after” is the sequence number of the last event you have, a whole number."));
      return FALSE;
    }
  *after = value;
  return TRUE;
}

void
_viva_server_get_events (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  g_autoptr(JsonObject) row = own_defense (request);
  g_autoptr(JsonArray) events = NULL;
  g_autoptr(GError) error = NULL;
  const char *accept;
  gboolean live;
  gint64 after = 0;

  if (row == NULL || !parse_after (request, &after))
    return;

  if (!(events = viva_server_store_list_events (store, json_object_get_string_member (row, "id"), after,
                                                PAGE_EVENTS, &error)))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  live = viva_server_defenses_is_live (viva_server_api_get_defenses (request->api),
                                       json_object_get_string_member (row, "id"));
  accept = soup_message_headers_get_one (soup_server_message_get_request_headers (request->msg), "Accept");

  if (accept != NULL && strstr (accept, "text/event-stream") != NULL)
    {
      Stream *stream = g_new0 (Stream, 1);
      SoupMessageHeaders *headers = soup_server_message_get_response_headers (request->msg);

      stream->api = request->api;
      stream->msg = request->msg;
      stream->exam_id = g_strdup (request->exam_id);
      stream->student_id = g_strdup (request->student_id);
      stream->defense_id = g_strdup (json_object_get_string_member (row, "id"));
      stream->last_seq = after;

      soup_server_message_set_status (request->msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
      soup_message_headers_replace (headers, "Cache-Control", "no-store");
      soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
      soup_message_body_set_accumulate (soup_server_message_get_response_body (request->msg), FALSE);

      g_ptr_array_add (get_streams (request->api)->streams, stream);
      g_signal_connect (request->msg, "finished", G_CALLBACK (stream_finished_cb), stream);

      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *event = json_array_get_object_element (events, i);
          g_autoptr(JsonNode) data = json_from_string (json_object_get_string_member (event, "data"), NULL);
          g_autofree char *line = event_line (request->api, request->exam_id,
                                              json_object_get_int_member (event, "seq"),
                                              json_object_get_string_member (event, "kind"),
                                              json_node_get_object (data));

          stream->last_seq = json_object_get_int_member (event, "seq");
          soup_message_body_append (soup_server_message_get_response_body (request->msg), SOUP_MEMORY_COPY,
                                    line, strlen (line));
        }

      /* A defense that ended has nothing more to send once the page is
       * out; a longer history is sent in pages, the client asking again. */
      if (!live || json_array_get_length (events) == PAGE_EVENTS)
        {
          stream->done = TRUE;
          soup_message_body_complete (soup_server_message_get_response_body (request->msg));
        }
      else
        {
          /* Told as they come, whichever node runs the defense. */
          stream->keep_alive_id = g_timeout_add_seconds (KEEP_ALIVE_S, keep_alive_cb, stream);
          stream->following = TRUE;
          viva_server_defenses_follow (viva_server_api_get_defenses (request->api), stream->defense_id,
                                       stream->last_seq);
        }
      return;
    }

  {
    g_autoptr(JsonObject) object = json_object_new ();
    JsonArray *out = json_array_new ();

    for (guint i = 0; i < json_array_get_length (events); i++)
      {
        JsonObject *event = json_array_get_object_element (events, i);
        g_autoptr(JsonNode) data = json_from_string (json_object_get_string_member (event, "data"), NULL);
        const char *kind = json_object_get_string_member (event, "kind");
        JsonObject *entry = json_object_new ();

        json_object_set_int_member (entry, "seq", json_object_get_int_member (event, "seq"));
        json_object_set_string_member (entry, "kind", kind);
        json_object_set_object_member (entry, "data",
                                       _viva_server_student_event (request->api, request->exam_id, kind,
                                                                   json_node_get_object (data)));
        json_array_add_object_element (out, entry);
      }

    json_object_set_array_member (object, "events", out);
    json_object_set_object_member (object, "defense", describe_defense (request->api, row));
    json_object_set_boolean_member (object, "live", live);
    json_object_set_boolean_member (object, "more", json_array_get_length (events) == PAGE_EVENTS);
    viva_server_reply_json (request, SOUP_STATUS_OK, object);
  }
}

void
_viva_server_answer (VivaServerRequest *request)
{
  g_autoptr(JsonObject) row = own_defense (request);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(GError) error = NULL;
  const char *text;
  gint64 question_seq = 0;

  if (row == NULL || !(text = _viva_server_body_string (request, "text", MAX_ANSWER_BYTES)))
    return;
  if (json_object_has_member (request->body, "question_seq"))
    {
      JsonNode *node = json_object_get_member (request->body, "question_seq");

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
        {
          viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request", "%s",
                                   _("“question_seq” is the question event’s sequence number."));
          return;
        }
      question_seq = json_node_get_int (node);
    }

  if (!viva_server_defenses_answer (viva_server_api_get_defenses (request->api),
                                    json_object_get_string_member (row, "id"), text, question_seq, &error))
    {
      viva_server_reply_error (request, SOUP_STATUS_CONFLICT, "no_question", "%s", error->message);
      return;
    }

  json_object_set_boolean_member (object, "accepted", TRUE);
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}
