/* viva-pack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "viva-pack.h"

#define BUNDLED_PACK RESOURCE_PREFIX "/core/packs/intro-ai.json"
#define MAX_PACK_SIZE (16 * 1024 * 1024)

struct _VivaPack
{
  GObject     parent_instance;
  char       *id;
  char       *title;
  char       *author;
  char       *language;
  char       *version;
  GListStore *problems;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaPack, viva_pack, G_TYPE_OBJECT)
G_DEFINE_QUARK (viva-pack-error-quark, viva_pack_error)

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
      g_value_set_string (value, self->id);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
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
      self->title = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_class_init (VivaPackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_pack_finalize;
  object_class->get_property = viva_pack_get_property;
  object_class->set_property = viva_pack_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_pack_init (VivaPack *self)
{
  self->problems = g_list_store_new (VIVA_TYPE_PROBLEM);
}

VivaPack *
viva_pack_new (const char *id,
               const char *title)
{
  return g_object_new (VIVA_TYPE_PACK, "id", id, "title", title, NULL);
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static VivaProblem *
problem_from_json (JsonObject *object)
{
  g_autoptr(VivaProblem) problem = viva_problem_new (member_string (object, "id"),
                                                     member_string (object, "title"));
  VivaProblemType type = VIVA_PROBLEM_IMPLEMENT;
  JsonArray *array;

  if (viva_problem_type_from_string (member_string (object, "type"), &type))
    viva_problem_set_problem_type (problem, type);

  viva_problem_set_description (problem, member_string (object, "description"));
  viva_problem_set_starter_code (problem, member_string (object, "starter_code"));
  viva_problem_set_hint (problem, member_string (object, "hint"));
  viva_problem_set_reference (problem, member_string (object, "reference_solution"));
  viva_problem_set_rubric (problem, member_string (object, "rubric"));

  if (json_object_has_member (object, "time_limit_minutes"))
    viva_problem_set_time_limit (problem, json_object_get_int_member (object, "time_limit_minutes"));

  if ((array = json_object_get_array_member (object, "tests")))
    {
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonObject *test = json_array_get_object_element (array, i);
          viva_problem_add_test (problem, member_string (test, "name"), member_string (test, "code"));
        }
    }

  if ((array = json_object_get_array_member (object, "questions")))
    {
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonObject *question = json_array_get_object_element (array, i);
          JsonArray *points = json_object_get_array_member (question, "points");
          g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
          g_auto(GStrv) strv = NULL;

          for (guint j = 0; points && j < json_array_get_length (points); j++)
            g_strv_builder_add (builder, json_array_get_string_element (points, j));

          strv = g_strv_builder_end (builder);
          viva_problem_add_question (problem, member_string (question, "question"),
                                     (const char * const *)strv);
        }
    }

  return g_steal_pointer (&problem);
}

/**
 * viva_pack_new_from_bytes:
 * @bytes: the pack's JSON text
 *
 * Returns: (transfer full): the pack, or %NULL with @error set to a
 *   sentence that says what is wrong
 */
VivaPack *
viva_pack_new_from_bytes (GBytes  *bytes,
                          GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonObject *root;
  JsonArray *problems;
  const char *format;
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  if (len > MAX_PACK_SIZE)
    {
      g_set_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_TOO_LARGE,
                   _("The pack is too large to be a problem pack (%" G_GSIZE_FORMAT " bytes)"), len);
      return NULL;
    }

  if (!json_parser_load_from_data (parser, data, len, &local_error))
    {
      g_set_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_INVALID,
                   _("The pack is not valid JSON: %s"), local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_INVALID,
                   _("The pack must be a JSON object"));
      return NULL;
    }

  root = json_node_get_object (json_parser_get_root (parser));
  format = member_string (root, "format");

  if (g_strcmp0 (format, VIVA_PACK_FORMAT) != 0)
    {
      g_set_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_FORMAT,
                   _("format: expected “%s”, found “%s” — this file is not a Viva pack this version can read"),
                   VIVA_PACK_FORMAT, format ? format : "");
      return NULL;
    }

  pack = viva_pack_new (member_string (root, "id"), member_string (root, "title"));
  pack->author = g_strdup (member_string (root, "author"));
  pack->language = g_strdup (member_string (root, "language"));
  pack->version = g_strdup (member_string (root, "version"));

  if ((problems = json_object_get_array_member (root, "problems")))
    {
      for (guint i = 0; i < json_array_get_length (problems); i++)
        {
          g_autoptr(VivaProblem) problem =
            problem_from_json (json_array_get_object_element (problems, i));
          g_list_store_append (pack->problems, problem);
        }
    }

  return g_steal_pointer (&pack);
}

/**
 * viva_pack_new_bundled:
 *
 * Returns: (transfer full): the "Introduction to AI" pack compiled into the
 *   program. It is checked at build time, so failing to load it is a bug.
 */
VivaPack *
viva_pack_new_bundled (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  VivaPack *pack;

  bytes = g_resources_lookup_data (BUNDLED_PACK, 0, &error);
  g_assert_no_error (error);

  pack = viva_pack_new_from_bytes (bytes, &error);
  g_assert_no_error (error);

  return pack;
}

const char *
viva_pack_get_id (VivaPack *self)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  return self->id;
}

const char *
viva_pack_get_title (VivaPack *self)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  return self->title;
}

const char *
viva_pack_get_author (VivaPack *self)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  return self->author;
}

const char *
viva_pack_get_language (VivaPack *self)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  return self->language;
}

const char *
viva_pack_get_version (VivaPack *self)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  return self->version;
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
