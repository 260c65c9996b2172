/* viva-server-follow.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-server-follow.h"
#include "viva-server-store-live.h"

/* Every node serves every student: a student whose stream reached this
 * node while another node runs the defense is sent its events from the
 * database, in order, each once. A followed defense this node does not
 * run is read after the last number told, when another node says it
 * committed one (NOTIFY on PostgreSQL) and every poll besides; what is
 * read is told through the same callback as the node's own events, so a
 * stream sees one sequence whichever node wrote it. A defense this node
 * runs is told by its examiner, and only its number is noted here. */

#define POLL_MS    1000
#define PAGE       200

typedef struct
{
  guint  refs;
  gint64 told;   /* the last number told */
} Followed;

struct _VivaServerFollow
{
  VivaServerStore       *store;
  VivaServerFollowFunc   func;
  VivaServerIsLocalFunc  is_local;
  gpointer               user_data;
  GHashTable            *followed;   /* id → Followed */
  guint                  poll_id;
  guint                  listen_id;
};

static void
read_new (VivaServerFollow *self,
          const char       *defense_id)
{
  Followed *followed = g_hash_table_lookup (self->followed, defense_id);
  g_autofree char *id = g_strdup (defense_id);
  g_autoptr(JsonArray) events = NULL;
  g_autoptr(GError) error = NULL;

  if (followed == NULL || self->is_local (defense_id, self->user_data))
    return;
  if (!(events = viva_server_store_list_events (self->store, defense_id, followed->told, PAGE, &error)))
    {
      g_debug ("follow %s: %s", defense_id, error->message);
      return;
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      g_autoptr(JsonNode) data = json_from_string (json_object_get_string_member (event, "data"), NULL);
      gint64 seq = json_object_get_int_member (event, "seq");

      if (data == NULL || !JSON_NODE_HOLDS_OBJECT (data))
        continue;
      /* The callback may end the last stream, and with it this entry. */
      followed->told = seq;
      self->func (id, seq, json_object_get_string_member (event, "kind"), json_node_get_object (data),
                  self->user_data);
      if (!(followed = g_hash_table_lookup (self->followed, id)))
        return;
    }
}

static gboolean
poll_cb (gpointer user_data)
{
  VivaServerFollow *self = user_data;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  const char *id;

  /* The keys copied: a stream may end while it is told. */
  g_hash_table_iter_init (&iter, self->followed);
  while (g_hash_table_iter_next (&iter, (gpointer *)&id, NULL))
    g_ptr_array_add (ids, g_strdup (id));
  for (guint i = 0; i < ids->len; i++)
    read_new (self, ids->pdata[i]);
  return G_SOURCE_CONTINUE;
}

static void
told_cb (const char *payload,
         gpointer    user_data)
{
  read_new (user_data, payload);
}

VivaServerFollow *
viva_server_follow_new (VivaServerStore       *store,
                        VivaServerFollowFunc   func,
                        VivaServerIsLocalFunc  is_local,
                        gpointer               user_data)
{
  VivaServerFollow *self = g_new0 (VivaServerFollow, 1);

  self->store = g_object_ref (store);
  self->func = func;
  self->is_local = is_local;
  self->user_data = user_data;
  self->followed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

/**
 * viva_server_follow_add:
 * @after: the last number the new follower has
 *
 * Tells @defense_id's events after @after (for every follower, from the
 * earliest one's place) until as many removes as adds.
 */
void
viva_server_follow_add (VivaServerFollow *self,
                        const char       *defense_id,
                        gint64            after)
{
  Followed *followed = g_hash_table_lookup (self->followed, defense_id);

  if (followed == NULL)
    {
      followed = g_new0 (Followed, 1);
      followed->told = after;
      g_hash_table_insert (self->followed, g_strdup (defense_id), followed);
    }
  followed->refs++;
  followed->told = MIN (followed->told, after);

  if (self->listen_id == 0)
    self->listen_id = viva_server_db_listen (viva_server_store_get_db (self->store), VIVA_SERVER_EVENTS_CHANNEL,
                                             told_cb, self);
  if (self->poll_id == 0)
    self->poll_id = g_timeout_add (POLL_MS, poll_cb, self);
}

void
viva_server_follow_remove (VivaServerFollow *self,
                           const char       *defense_id)
{
  Followed *followed = g_hash_table_lookup (self->followed, defense_id);

  if (followed == NULL || --followed->refs > 0)
    return;
  g_hash_table_remove (self->followed, defense_id);
  if (g_hash_table_size (self->followed) == 0)
    g_clear_handle_id (&self->poll_id, g_source_remove);
}

/* This node told @seq itself (it runs the defense). */
void
viva_server_follow_seen (VivaServerFollow *self,
                         const char       *defense_id,
                         gint64            seq)
{
  Followed *followed = g_hash_table_lookup (self->followed, defense_id);

  if (followed != NULL)
    followed->told = MAX (followed->told, seq);
}

void
viva_server_follow_free (VivaServerFollow *self)
{
  if (self == NULL)
    return;
  g_clear_handle_id (&self->poll_id, g_source_remove);
  viva_server_db_unlisten (viva_server_store_get_db (self->store), self->listen_id);
  g_hash_table_unref (self->followed);
  g_object_unref (self->store);
  g_free (self);
}
