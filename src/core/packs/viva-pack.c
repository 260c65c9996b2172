/* viva-pack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-pack-private.h"

/* VivaPack, the type: its properties and its list of problems. Reading and
 * writing its JSON is viva-pack-json.c, loading it from bytes or a file
 * viva-pack-load.c, saving it viva-pack-save.c. */

/* A pack keeps the JSON object it was read from, so keys this version does
 * not know (a newer Viva's, a teacher's tool's) survive a save. */

struct _VivaPack
{
  GObject     parent_instance;
  char       *id;
  char       *title;
  char       *author;
  char       *language;
  char       *version;
  GFile      *file;
  JsonObject *source;
  GListStore *problems;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_AUTHOR,
  PROP_LANGUAGE,
  PROP_VERSION,
  PROP_FILE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaPack, viva_pack, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
viva_pack_finalize (GObject *object)
{
  VivaPack *self = (VivaPack *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->author, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->version, g_free);
  g_clear_pointer (&self->source, json_object_unref);
  g_clear_object (&self->file);
  g_clear_object (&self->problems);

  G_OBJECT_CLASS (viva_pack_parent_class)->finalize (object);
}

static void
viva_pack_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  VivaPack *self = VIVA_PACK (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, viva_pack_get_id (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, viva_pack_get_title (self));
      break;

    case PROP_AUTHOR:
      g_value_set_string (value, viva_pack_get_author (self));
      break;

    case PROP_LANGUAGE:
      g_value_set_string (value, viva_pack_get_language (self));
      break;

    case PROP_VERSION:
      g_value_set_string (value, viva_pack_get_version (self));
      break;

    case PROP_FILE:
      g_value_set_object (value, viva_pack_get_file (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  VivaPack *self = VIVA_PACK (object);

  switch (prop_id)
    {
    case PROP_ID:
      self->id = g_value_dup_string (value);
      break;

    case PROP_TITLE:
      viva_pack_set_title (self, g_value_get_string (value));
      break;

    case PROP_AUTHOR:
      viva_pack_set_author (self, g_value_get_string (value));
      break;

    case PROP_LANGUAGE:
      viva_pack_set_language (self, g_value_get_string (value));
      break;

    case PROP_VERSION:
      viva_pack_set_version (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_class_init (VivaPackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = viva_pack_finalize;
  object_class->get_property = viva_pack_get_property;
  object_class->set_property = viva_pack_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  properties[PROP_AUTHOR] = g_param_spec_string ("author", NULL, NULL, NULL, flags);
  properties[PROP_LANGUAGE] = g_param_spec_string ("language", NULL, NULL, NULL, flags);
  properties[PROP_VERSION] = g_param_spec_string ("version", NULL, NULL, NULL, flags);
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_pack_init (VivaPack *self)
{
  self->problems = g_list_store_new (VIVA_TYPE_PROBLEM);
}

/**
 * viva_pack_new:
 *
 * Returns: (transfer full): an empty pack, for the editor to fill
 */
VivaPack *
viva_pack_new (const char *id,
               const char *title)
{
  return g_object_new (VIVA_TYPE_PACK, "id", id, "title", title, NULL);
}


const char *
viva_pack_get_id (VivaPack *self)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  return self->id;
}

#define DEFINE_STRING_ACCESSORS(field, PROP)                                  \
const char *                                                                  \
viva_pack_get_##field (VivaPack *self)                                        \
{                                                                             \
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);                           \
  return self->field;                                                         \
}                                                                             \
                                                                              \
void                                                                          \
viva_pack_set_##field (VivaPack   *self,                                      \
                       const char *value)                                     \
{                                                                             \
  g_return_if_fail (VIVA_IS_PACK (self));                                     \
  if (g_strcmp0 (self->field, value) == 0)                                    \
    return;                                                                   \
  g_free (self->field);                                                       \
  self->field = g_strdup (value);                                             \
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP]);               \
}

DEFINE_STRING_ACCESSORS (title, PROP_TITLE)
DEFINE_STRING_ACCESSORS (author, PROP_AUTHOR)
DEFINE_STRING_ACCESSORS (language, PROP_LANGUAGE)
DEFINE_STRING_ACCESSORS (version, PROP_VERSION)

#undef DEFINE_STRING_ACCESSORS

/**
 * viva_pack_get_file:
 *
 * Returns: (transfer none) (nullable): the file the pack was read from;
 *   %NULL for the bundled pack and for packs built in memory
 */
GFile *
viva_pack_get_file (VivaPack *self)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  return self->file;
}

void
_viva_pack_set_file (VivaPack *self,
                     GFile    *file)
{
  g_assert (VIVA_IS_PACK (self));

  if (g_set_object (&self->file, file))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
}

/**
 * viva_pack_get_problems:
 *
 * Returns: (transfer none): a #GListModel of #VivaProblem
 */
GListModel *
viva_pack_get_problems (VivaPack *self)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  return G_LIST_MODEL (self->problems);
}

/**
 * viva_pack_find_problem:
 *
 * Returns: (transfer none) (nullable): the problem with @problem_id
 */
VivaProblem *
viva_pack_find_problem (VivaPack   *self,
                        const char *problem_id)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->problems)); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (G_LIST_MODEL (self->problems), i);

      if (g_strcmp0 (viva_problem_get_id (problem), problem_id) == 0)
        return problem;
    }

  return NULL;
}

void
viva_pack_add_problem (VivaPack    *self,
                       VivaProblem *problem)
{
  g_return_if_fail (VIVA_IS_PACK (self));
  g_return_if_fail (VIVA_IS_PROBLEM (problem));

  g_list_store_append (self->problems, problem);
}

/**
 * viva_pack_insert_problem:
 * @position: where to put it; past the end appends
 *
 * Puts @problem at @position, shifting the following ones.
 */
void
viva_pack_insert_problem (VivaPack    *self,
                          guint        position,
                          VivaProblem *problem)
{
  g_return_if_fail (VIVA_IS_PACK (self));
  g_return_if_fail (VIVA_IS_PROBLEM (problem));

  position = MIN (position, g_list_model_get_n_items (G_LIST_MODEL (self->problems)));
  g_list_store_insert (self->problems, position, problem);
}

void
viva_pack_remove_problem (VivaPack *self,
                          guint     position)
{
  g_return_if_fail (VIVA_IS_PACK (self));
  g_return_if_fail (position < g_list_model_get_n_items (G_LIST_MODEL (self->problems)));

  g_list_store_remove (self->problems, position);
}

/**
 * _viva_pack_get_source:
 *
 * Returns: (transfer none) (nullable): the JSON object the pack was read
 *   from, whose unknown keys a save keeps
 */
JsonObject *
_viva_pack_get_source (VivaPack *self)
{
  g_assert (VIVA_IS_PACK (self));

  return self->source;
}

void
_viva_pack_set_source (VivaPack   *self,
                       JsonObject *source)
{
  g_assert (VIVA_IS_PACK (self));

  g_clear_pointer (&self->source, json_object_unref);
  if (source != NULL)
    self->source = json_object_ref (source);
}
