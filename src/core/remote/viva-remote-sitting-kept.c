/* viva-remote-sitting-kept.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-json-member.h"
#include "viva-remote-sitting-private.h"

/* What the PC keeps of a sitting on an exam server, for the next start of
 * the app: per problem its own newest copy and what it knows the server
 * holds; the integrity events not yet on the server, with their numbers;
 * the PC's id for them. The front keeps the JSON (a file of the account's,
 * through the file writer); this file builds it, takes it back, and
 * decides at a sign-in whose code a problem opens with.
 *
 * The rule: when the server holds what this PC last had taken (or sent,
 * its answer lost), nobody saved elsewhere since, and this PC's newer copy
 * wins and is sent. When the server holds something else, the student
 * saved from another PC since: the server's copy wins, and this PC's copy,
 * if the server never had it, is given back to be set aside — never
 * silently dropped. */

#define MAX_SENT      8
#define MAX_PROBLEMS  256

static char *
digest (const char *code)
{
  return code ? g_compute_checksum_for_string (G_CHECKSUM_SHA256, code, -1) : NULL;
}

void
_viva_remote_copy_free (VivaRemoteCopy *copy)
{
  g_free (copy->mine);
  g_free (copy->acked);
  g_clear_pointer (&copy->sent, g_ptr_array_unref);
  g_free (copy);
}

VivaRemoteEvent *
_viva_remote_event_new (gint64      seq,
                        JsonObject *event)
{
  VivaRemoteEvent *self = g_new0 (VivaRemoteEvent, 1);
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, event);
  text = json_to_string (node, FALSE);
  self->seq = seq;
  self->event = json_object_ref (event);
  self->bytes = strlen (text);
  return self;
}

void
_viva_remote_event_free (VivaRemoteEvent *event)
{
  g_clear_pointer (&event->event, json_object_unref);
  g_free (event);
}

VivaRemoteCopy *
_viva_remote_sitting_copy (VivaRemoteSitting *self,
                           const char        *problem_id)
{
  VivaRemoteCopy *copy;

  if (!(copy = g_hash_table_lookup (self->copies, problem_id)))
    {
      copy = g_new0 (VivaRemoteCopy, 1);
      copy->sent = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (self->copies, g_strdup (problem_id), copy);
    }
  return copy;
}

/* Whether the server holding code of @sha means it holds this PC's. */
static gboolean
copy_knows (VivaRemoteCopy *copy,
            const char     *sha)
{
  if (g_strcmp0 (copy->acked, sha) == 0)
    return TRUE;
  for (guint i = 0; i < copy->sent->len; i++)
    if (g_str_equal (g_ptr_array_index (copy->sent, i), sha))
      return TRUE;
  return FALSE;
}

void
_viva_remote_sitting_sent (VivaRemoteSitting *self,
                           const char        *problem_id,
                           const char        *code)
{
  VivaRemoteCopy *copy = _viva_remote_sitting_copy (self, problem_id);

  if (copy->sent->len >= MAX_SENT)
    g_ptr_array_remove_index (copy->sent, 0);
  g_ptr_array_add (copy->sent, digest (code));
  _viva_remote_sitting_keep (self);
}

void
_viva_remote_sitting_acked (VivaRemoteSitting *self,
                            const char        *problem_id,
                            const char        *code)
{
  VivaRemoteCopy *copy = _viva_remote_sitting_copy (self, problem_id);

  /* What was sent before it is no longer what the server holds. */
  g_free (copy->acked);
  copy->acked = digest (code);
  g_ptr_array_set_size (copy->sent, 0);
  _viva_remote_sitting_keep (self);
}

static JsonNode *
build_state (VivaRemoteSitting *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  GHashTableIter iter;
  gpointer key, value;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "viva-remote-kept/1");
  json_builder_set_member_name (builder, "client");
  json_builder_add_string_value (builder, self->client_id);
  json_builder_set_member_name (builder, "next_seq");
  json_builder_add_int_value (builder, self->next_seq);

  json_builder_set_member_name (builder, "problems");
  json_builder_begin_object (builder);
  g_hash_table_iter_init (&iter, self->copies);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      VivaRemoteCopy *copy = value;

      json_builder_set_member_name (builder, key);
      json_builder_begin_object (builder);
      if (copy->mine != NULL)
        {
          json_builder_set_member_name (builder, "mine");
          json_builder_add_string_value (builder, copy->mine);
        }
      if (copy->acked != NULL)
        {
          json_builder_set_member_name (builder, "acked");
          json_builder_add_string_value (builder, copy->acked);
        }
      json_builder_set_member_name (builder, "sent");
      json_builder_begin_array (builder);
      for (guint i = 0; i < copy->sent->len; i++)
        json_builder_add_string_value (builder, g_ptr_array_index (copy->sent, i));
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "events");
  json_builder_begin_array (builder);
  for (GList *l = self->events.head; l != NULL; l = l->next)
    {
      VivaRemoteEvent *event = l->data;
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, event->event);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "seq");
      json_builder_add_int_value (builder, event->seq);
      json_builder_set_member_name (builder, "event");
      json_builder_add_value (builder, node);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* Hands the state to the front, at every change: each is small (a few
 * problems' code, the events of a few seconds), and the file writer
 * keeps only the newest of several waiting writes. */
void
_viva_remote_sitting_keep (VivaRemoteSitting *self)
{
  g_autoptr(JsonNode) state = NULL;

  if (self->keep_func == NULL)
    return;

  state = build_state (self);
  self->keep_func (self, state, self->keep_data);
}

static gboolean
is_sha (const char *text)
{
  return text != NULL && strlen (text) == 64 && strspn (text, "0123456789abcdef") == 64;
}

/* Takes back what an earlier start kept. The file is the student's own,
 * so it is read leniently and bounded, never trusted for more than what
 * this PC sends (which the student controls anyway). */
void
_viva_remote_sitting_restore (VivaRemoteSitting *self,
                              JsonNode          *state)
{
  JsonObject *root = state && JSON_NODE_HOLDS_OBJECT (state) ? json_node_get_object (state) : NULL;
  const char *client = viva_json_member_string (root, "client");
  JsonObject *problems = viva_json_member_object (root, "problems");
  JsonArray *events = viva_json_member_array (root, "events");
  gint64 next_seq;

  if (root == NULL || g_strcmp0 (viva_json_member_string (root, "format"), "viva-remote-kept/1") != 0)
    return;

  if (client != NULL && strlen (client) == 32 && strspn (client, "0123456789abcdef") == 32)
    {
      g_free (self->client_id);
      self->client_id = g_strdup (client);
    }
  if (viva_json_member_integer (root, "next_seq", &next_seq) && next_seq > 0 && next_seq < G_MAXINT64 / 4)
    self->next_seq = next_seq;

  if (problems != NULL && json_object_get_size (problems) <= MAX_PROBLEMS)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *node;

      json_object_iter_init (&iter, problems);
      while (json_object_iter_next (&iter, &name, &node))
        {
          JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
          JsonArray *sent = viva_json_member_array (entry, "sent");
          VivaRemoteCopy *copy;

          if (entry == NULL)
            continue;
          copy = _viva_remote_sitting_copy (self, name);
          copy->mine = g_strdup (viva_json_member_string (entry, "mine"));
          if (is_sha (viva_json_member_string (entry, "acked")))
            copy->acked = g_strdup (viva_json_member_string (entry, "acked"));
          for (guint i = 0; sent != NULL && i < json_array_get_length (sent) && copy->sent->len < MAX_SENT; i++)
            {
              JsonNode *element = json_array_get_element (sent, i);

              if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING &&
                  is_sha (json_node_get_string (element)))
                g_ptr_array_add (copy->sent, g_strdup (json_node_get_string (element)));
            }
        }
    }

  for (guint i = 0; events != NULL && i < json_array_get_length (events) && i < VIVA_REMOTE_MAX_EVENTS; i++)
    {
      JsonNode *element = json_array_get_element (events, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonObject *event = viva_json_member_object (entry, "event");
      VivaRemoteEvent *kept;
      gint64 seq;

      if (event == NULL || !viva_json_member_integer (entry, "seq", &seq) || seq < 1 || seq >= self->next_seq)
        continue;
      kept = _viva_remote_event_new (seq, event);
      g_queue_push_tail (&self->events, kept);
    }
}

/**
 * viva_remote_sitting_reconcile:
 * @problem_id: a problem of the sitting
 * @server_code: (nullable): the problem's code as the server holds it
 *   (the sign-in's sitting), %NULL when it holds none
 * @code: (out) (optional) (transfer full) (nullable): the code the problem
 *   opens with, %NULL for its starter code
 * @aside: (out) (optional) (transfer full) (nullable): with
 *   %VIVA_REMOTE_CHOICE_SERVER_NEWER, this PC's code the server never had,
 *   for the front to set aside where the student finds it
 *
 * At a sign-in (the app started again, or this PC back after another),
 * decides whose code @problem_id opens with, from what this PC kept: see
 * #VivaRemoteChoice. With %VIVA_REMOTE_CHOICE_MINE this PC's code is
 * queued to be sent.
 *
 * Returns: whose code it is
 */
VivaRemoteChoice
viva_remote_sitting_reconcile (VivaRemoteSitting  *self,
                               const char         *problem_id,
                               const char         *server_code,
                               char              **code,
                               char              **aside)
{
  g_autofree char *server_sha = NULL;
  g_autofree char *mine_sha = NULL;
  g_autofree char *set_aside = NULL;
  VivaRemoteChoice choice;
  VivaRemoteCopy *copy;

  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), VIVA_REMOTE_CHOICE_SERVER);
  g_return_val_if_fail (problem_id != NULL, VIVA_REMOTE_CHOICE_SERVER);

  copy = _viva_remote_sitting_copy (self, problem_id);
  server_sha = digest (server_code);

  if (copy->mine != NULL &&
      (server_code == NULL || (!g_str_equal (copy->mine, server_code) && copy_knows (copy, server_sha))))
    {
      /* The server holds nothing, or what this PC had saved: this PC's
       * copy is the newer one. */
      g_autofree char *mine = g_strdup (copy->mine);

      if (code != NULL)
        *code = g_strdup (mine);
      if (aside != NULL)
        *aside = NULL;
      viva_remote_sitting_queue_code (self, problem_id, mine, VIVA_CODE_KIND_AUTOSAVE);
      return VIVA_REMOTE_CHOICE_MINE;
    }

  choice = VIVA_REMOTE_CHOICE_SERVER;
  if (copy->mine != NULL && server_code != NULL && !g_str_equal (copy->mine, server_code))
    {
      /* Saved from another PC since. What the server said it took is no
       * loss; anything else is set aside (also code sent without an
       * answer: it may never have arrived, and a copy too many is no
       * harm). */
      mine_sha = digest (copy->mine);
      if (g_strcmp0 (copy->acked, mine_sha) != 0)
        {
          set_aside = g_strdup (copy->mine);
          choice = VIVA_REMOTE_CHOICE_SERVER_NEWER;
        }
    }

  g_free (copy->mine);
  copy->mine = g_strdup (server_code);
  g_free (copy->acked);
  copy->acked = g_steal_pointer (&server_sha);
  g_ptr_array_set_size (copy->sent, 0);
  _viva_remote_sitting_keep (self);

  if (code != NULL)
    *code = g_strdup (server_code);
  if (aside != NULL)
    *aside = g_steal_pointer (&set_aside);
  return choice;
}
