/* viva-pack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-json-bytes.h"
#include "viva-pack-private.h"

/* A pack keeps the JSON object it was read from, so keys this version does
 * not know (a newer Viva's, a teacher's tool's) survive a save. */

#define BUNDLED_PACK RESOURCE_PREFIX "/core/packs/intro-ai.json"

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
  if (json_object_has_member (object, "pass_threshold"))
    viva_problem_set_pass_threshold (problem, json_object_get_int_member (object, "pass_threshold"));

  array = json_object_get_array_member (object, "tests");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *test = json_array_get_object_element (array, i);

      if (json_object_has_member (test, "call"))
        viva_problem_add_structured_test (problem, member_string (test, "name"),
                                          member_string (test, "setup"), member_string (test, "call"),
                                          member_string (test, "check"),
                                          json_object_get_boolean_member_with_default (test, "compare", FALSE),
                                          json_object_get_double_member_with_default (test, "tolerance", 0));
      else
        viva_problem_add_test (problem, member_string (test, "name"), member_string (test, "code"));
    }

  array = json_object_get_array_member (object, "questions");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *question = json_array_get_object_element (array, i);
      JsonArray *points = json_object_get_array_member (question, "points");
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) strv = NULL;

      for (guint j = 0; j < json_array_get_length (points); j++)
        g_strv_builder_add (builder, json_array_get_string_element (points, j));

      strv = g_strv_builder_end (builder);
      viva_problem_add_question (problem, member_string (question, "question"),
                                 (const char * const *)strv);
    }

  _viva_problem_set_source (problem, object);

  return g_steal_pointer (&problem);
}

/**
 * _viva_pack_new_from_node:
 * @root: a tree that passed _viva_pack_validate()
 *
 * Returns: (transfer full): the pack
 */
VivaPack *
_viva_pack_new_from_node (JsonNode *root)
{
  g_autoptr(VivaPack) pack = NULL;
  JsonObject *object;
  JsonArray *problems;

  g_assert (JSON_NODE_HOLDS_OBJECT (root));

  object = json_node_get_object (root);
  pack = viva_pack_new (member_string (object, "id"), member_string (object, "title"));
  pack->author = g_strdup (member_string (object, "author"));
  pack->language = g_strdup (member_string (object, "language"));
  pack->version = g_strdup (member_string (object, "version"));
  pack->source = json_object_ref (object);

  problems = json_object_get_array_member (object, "problems");
  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      g_autoptr(VivaProblem) problem =
        problem_from_json (json_array_get_object_element (problems, i));

      g_list_store_append (pack->problems, problem);
    }

  return g_steal_pointer (&pack);
}

/**
 * viva_pack_new_from_bytes_full:
 * @bytes: the pack's JSON text
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue):
 *   everything wrong with the pack, warnings included, each with its JSON
 *   path; set even when loading fails
 * @error: the first error, with its #VivaPackError code
 *
 * Reads and validates a pack. Any error-level issue fails the load. Never
 * crashes on hostile input: size, binary data, encoding and nesting are
 * checked before the JSON parser sees the text.
 *
 * Returns: (transfer full) (nullable): the pack
 */
VivaPack *
viva_pack_new_from_bytes_full (GBytes     *bytes,
                               GPtrArray **issues,
                               GError    **error)
{
  g_autoptr(GPtrArray) found = viva_pack_issues_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(VivaPack) pack = NULL;
  const char *data;
  gsize len;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (bytes, &len);

  if ((root = _viva_pack_parse (data, len, found)) != NULL &&
      _viva_pack_validate (root, found) &&
      viva_pack_issues_count_errors (found) == 0)
    pack = _viva_pack_new_from_node (root);
  else
    viva_pack_issues_to_error (found, error);

  if (issues != NULL)
    *issues = g_steal_pointer (&found);

  return g_steal_pointer (&pack);
}

/**
 * viva_pack_new_from_bytes:
 * @bytes: the pack's JSON text
 *
 * Like viva_pack_new_from_bytes_full() without the list of issues.
 *
 * Returns: (transfer full): the pack, or %NULL with @error set to a
 *   sentence that says what is wrong
 */
VivaPack *
viva_pack_new_from_bytes (GBytes  *bytes,
                          GError **error)
{
  return viva_pack_new_from_bytes_full (bytes, NULL, error);
}

typedef struct
{
  GBytes    *bytes;
  JsonNode  *root;
  GPtrArray *issues;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *ld = data;

  g_clear_pointer (&ld->bytes, g_bytes_unref);
  g_clear_pointer (&ld->root, json_node_unref);
  g_clear_pointer (&ld->issues, g_ptr_array_unref);
  g_free (ld);
}

static void
load_parse_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  LoadData *ld = task_data;
  const char *data;
  gsize len;

  data = g_bytes_get_data (ld->bytes, &len);
  if ((ld->root = _viva_pack_parse (data, len, ld->issues)) != NULL)
    _viva_pack_validate (ld->root, ld->issues);

  g_task_return_boolean (task, TRUE);
}

static void
load_parse_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  /* The thread always completes; what it found is in the issues. */
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (!viva_pack_issues_to_error (ld->issues, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  pack = _viva_pack_new_from_node (ld->root);
  _viva_pack_set_file (pack, G_FILE (g_task_get_source_object (task)));
  g_task_return_pointer (task, g_steal_pointer (&pack), g_object_unref);
}

static void
load_contents_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(GTask) parse = NULL;
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &len, NULL, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  ld->bytes = g_bytes_new_take (contents, len);

  /* Parsing a large file takes long enough to stutter the UI. The thread
   * only sees plain data: bytes in, a JsonNode and issues out. */
  parse = g_task_new (NULL, g_task_get_cancellable (task), load_parse_cb, g_object_ref (task));
  g_task_set_source_tag (parse, load_contents_cb);
  g_task_set_task_data (parse, ld, NULL);
  g_task_run_in_thread (parse, load_parse_thread);
}

static void
load_query_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!(info = g_file_query_info_finish (G_FILE (object), result, &error)))
    {
      g_autofree char *name = g_file_get_parse_name (G_FILE (object));

      /* GIO's wording is about "getting information"; say what it means. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                        _("%s does not exist — check the file’s name and folder"), name);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
        return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                                        _("%s cannot be read: permission denied — copy it somewhere you can read, or ask its owner"),
                                        name);
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                                    _("“%s” is a folder — choose a pack’s .json file"),
                                    g_file_info_get_display_name (info));

  /* Refused before reading, so a huge file never fills memory. */
  if (g_file_info_get_size (info) > VIVA_PACK_MAX_SIZE)
    {
      _viva_pack_check_bytes ("", (gsize)VIVA_PACK_MAX_SIZE + 1, ld->issues);
      viva_pack_issues_to_error (ld->issues, &error);
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  cancellable = g_task_get_cancellable (task);
  g_file_load_contents_async (G_FILE (object), cancellable,
                              load_contents_cb, g_steal_pointer (&task));
}

/**
 * viva_pack_new_from_file_async:
 *
 * Reads, parses and validates the pack in @file without blocking the main
 * loop. Files larger than any pack are refused before they are read.
 */
void
viva_pack_new_from_file_async (GFile               *file,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *ld;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  ld = g_new0 (LoadData, 1);
  ld->issues = viva_pack_issues_new ();

  task = g_task_new (file, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_pack_new_from_file_async);
  g_task_set_task_data (task, ld, load_data_free);

  g_file_query_info_async (file,
                           G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                           G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                           G_FILE_ATTRIBUTE_STANDARD_DISPLAY_NAME,
                           G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT, cancellable,
                           load_query_cb, g_steal_pointer (&task));
}

/**
 * viva_pack_new_from_file_finish:
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue):
 *   what validation found, also when it fails; empty when the file could
 *   not be read at all
 *
 * Returns: (transfer full) (nullable): the pack; its #VivaPack:file is the
 *   file it was read from
 */
VivaPack *
viva_pack_new_from_file_finish (GAsyncResult  *result,
                                GPtrArray    **issues,
                                GError       **error)
{
  LoadData *ld;

  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == viva_pack_new_from_file_async, NULL);

  ld = g_task_get_task_data (G_TASK (result));
  if (issues != NULL)
    *issues = g_ptr_array_ref (ld->issues);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_pack_new_bundled:
 *
 * Returns: (transfer full): the "Introduction to AI" pack compiled into the
 *   program. A test validates it, so failing to load it is a bug.
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

/* Builds an object in the order of @source's keys, known keys taking their
 * values from @fresh, then the known keys @source lacked. Unknown keys keep
 * their values and places. */
static JsonObject *
merge_with_source (JsonObject *source,
                   JsonObject *fresh)
{
  g_autoptr(JsonObject) merged = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (source != NULL)
    {
      json_object_iter_init_ordered (&iter, source);
      while (json_object_iter_next_ordered (&iter, &name, &value))
        {
          if (json_object_has_member (fresh, name))
            json_object_set_member (merged, name, json_object_dup_member (fresh, name));
          else if (!g_str_equal (name, "format"))
            json_object_set_member (merged, name, json_node_copy (value));
        }
    }

  json_object_iter_init_ordered (&iter, fresh);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    if (!json_object_has_member (merged, name))
      json_object_set_member (merged, name, json_node_copy (value));

  return g_steal_pointer (&merged);
}

static void
set_optional_string (JsonObject *object,
                     const char *name,
                     const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
}

/* The object a test or question was read from, to keep its unknown keys:
 * the one with the same name, else the one at the same place. */
static JsonObject *
source_element (JsonObject *source,
                const char *array_name,
                const char *key,
                const char *value,
                guint       index)
{
  JsonNode *node;
  JsonArray *array;

  if (source == NULL || (node = json_object_get_member (source, array_name)) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_OBJECT (element) &&
          g_strcmp0 (member_string (json_node_get_object (element), key), value) == 0)
        return json_node_get_object (element);
    }

  if (index < json_array_get_length (array) &&
      JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, index)))
    return json_array_get_object_element (array, index);

  return NULL;
}

static JsonObject *
problem_to_json (VivaProblem *problem)
{
  static const char * const test_keys[] = { "code", "setup", "call", "check", "compare", "tolerance" };
  JsonObject *source = _viva_problem_get_source (problem);
  g_autoptr(JsonObject) fresh = json_object_new ();
  g_autoptr(JsonArray) tests = json_array_new ();
  g_autoptr(JsonArray) questions = json_array_new ();

  set_optional_string (fresh, "id", viva_problem_get_id (problem));
  set_optional_string (fresh, "title", viva_problem_get_title (problem));
  json_object_set_string_member (fresh, "type",
                                 viva_problem_type_to_string (viva_problem_get_problem_type (problem)));
  set_optional_string (fresh, "description", viva_problem_get_description (problem));
  set_optional_string (fresh, "starter_code", viva_problem_get_starter_code (problem));
  set_optional_string (fresh, "hint", viva_problem_get_hint (problem));
  set_optional_string (fresh, "reference_solution", viva_problem_get_reference (problem));

  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);
      g_autoptr(JsonObject) object = json_object_new ();

      JsonObject *merged;

      set_optional_string (object, "name", test->name);
      if (viva_problem_test_is_structured (test))
        {
          json_object_set_string_member (object, "setup", test->setup ? test->setup : "");
          json_object_set_string_member (object, "call", test->call);
          json_object_set_string_member (object, "check", test->check ? test->check : "");
          if (test->compare)
            {
              json_object_set_boolean_member (object, "compare", TRUE);
              if (test->tolerance > 0)
                json_object_set_double_member (object, "tolerance", test->tolerance);
            }
        }
      else
        set_optional_string (object, "code", test->code);

      merged = merge_with_source (source_element (source, "tests", "name", test->name, i), object);
      /* A test that changed form keeps nothing of the other one. */
      for (guint k = 0; k < G_N_ELEMENTS (test_keys); k++)
        if (!json_object_has_member (object, test_keys[k]))
          json_object_remove_member (merged, test_keys[k]);
      json_array_add_object_element (tests, merged);
    }
  json_object_set_array_member (fresh, "tests", g_steal_pointer (&tests));

  for (guint i = 0; i < viva_problem_get_n_questions (problem); i++)
    {
      const VivaProblemQuestion *question = viva_problem_get_question (problem, i);
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonArray) points = json_array_new ();

      set_optional_string (object, "question", question->question);
      for (guint j = 0; question->points && question->points[j]; j++)
        json_array_add_string_element (points, question->points[j]);
      json_object_set_array_member (object, "points", g_steal_pointer (&points));
      json_array_add_object_element (questions,
                                     merge_with_source (source_element (source, "questions", "question",
                                                                        question->question, i),
                                                        object));
    }
  json_object_set_array_member (fresh, "questions", g_steal_pointer (&questions));

  set_optional_string (fresh, "rubric", viva_problem_get_rubric (problem));
  if (viva_problem_get_time_limit (problem) > 0)
    json_object_set_int_member (fresh, "time_limit_minutes", viva_problem_get_time_limit (problem));
  if (viva_problem_get_pass_threshold (problem) > 0)
    json_object_set_int_member (fresh, "pass_threshold", viva_problem_get_pass_threshold (problem));

  {
    JsonObject *merged = merge_with_source (source, fresh);

    if (viva_problem_get_pass_threshold (problem) == 0)
      json_object_remove_member (merged, "pass_threshold");
    return merged;
  }
}

/**
 * _viva_problem_to_json:
 *
 * Returns: (transfer full): @problem as an element of a pack's `problems`
 */
JsonObject *
_viva_problem_to_json (VivaProblem *problem)
{
  g_assert (VIVA_IS_PROBLEM (problem));

  return problem_to_json (problem);
}

/**
 * _viva_problem_new_from_json:
 * @object: a problem that passed validation (inside a pack)
 *
 * Returns: (transfer full): the problem
 */
VivaProblem *
_viva_problem_new_from_json (JsonObject *object)
{
  g_assert (object != NULL);

  return problem_from_json (object);
}

/**
 * viva_pack_to_json:
 *
 * Returns: (transfer full): the pack as a `viva-pack/1` document, with the
 *   keys this version does not know kept from the file it was read from
 */
JsonNode *
viva_pack_to_json (VivaPack *self)
{
  g_autoptr(JsonObject) fresh = json_object_new ();
  g_autoptr(JsonArray) problems = json_array_new ();
  g_autoptr(JsonObject) merged = NULL;
  JsonNode *node;
  guint n;

  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  /* The format comes first whatever the source said, so a reader can tell
   * what the file is from its first line. */
  json_object_set_string_member (fresh, "format", VIVA_PACK_FORMAT);
  set_optional_string (fresh, "id", self->id);
  set_optional_string (fresh, "title", self->title);
  set_optional_string (fresh, "author", self->author);
  set_optional_string (fresh, "language", self->language);
  set_optional_string (fresh, "version", self->version);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->problems));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (G_LIST_MODEL (self->problems), i);

      json_array_add_object_element (problems, problem_to_json (problem));
    }
  json_object_set_array_member (fresh, "problems", g_steal_pointer (&problems));

  merged = json_object_new ();
  json_object_set_string_member (merged, "format", VIVA_PACK_FORMAT);
  {
    g_autoptr(JsonObject) rest = merge_with_source (self->source, fresh);
    JsonObjectIter iter;
    const char *name;
    JsonNode *value;

    json_object_iter_init_ordered (&iter, rest);
    while (json_object_iter_next_ordered (&iter, &name, &value))
      if (!g_str_equal (name, "format"))
        json_object_set_member (merged, name, json_node_copy (value));
  }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, g_steal_pointer (&merged));

  return node;
}

/**
 * viva_pack_to_bytes:
 *
 * Returns: (transfer full): the pack as indented JSON text ending in a
 *   newline, the way a teacher would keep it in version control
 */
GBytes *
viva_pack_to_bytes (VivaPack *self)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  root = viva_pack_to_json (self);

  return viva_json_to_bytes (root);
}

/**
 * viva_pack_validate:
 *
 * Checks a pack built or edited in memory against the same rules as a
 * loaded one. Main thread.
 *
 * Returns: (transfer full) (element-type VivaPackIssue): what is wrong,
 *   empty when nothing is
 */
GPtrArray *
viva_pack_validate (VivaPack *self)
{
  g_autoptr(GPtrArray) issues = viva_pack_issues_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (VIVA_IS_PACK (self), NULL);

  root = viva_pack_to_json (self);
  _viva_pack_validate (root, issues);

  return g_steal_pointer (&issues);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_boolean (task, TRUE);
}

/**
 * viva_pack_save_async:
 * @file: where to write the pack
 *
 * Writes the pack as JSON. The text goes to a temporary file that replaces
 * @file only once complete, so a crash or a full disk leaves the old file
 * whole. The pack is serialized at the call; later edits are not saved.
 */
void
viva_pack_save_async (VivaPack            *self,
                      GFile               *file,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_if_fail (VIVA_IS_PACK (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_pack_save_async);

  bytes = viva_pack_to_bytes (self);
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE,
                                       G_FILE_CREATE_REPLACE_DESTINATION,
                                       cancellable, save_cb, g_steal_pointer (&task));
}

gboolean
viva_pack_save_finish (VivaPack      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
