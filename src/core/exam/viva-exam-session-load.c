/* viva-exam-session-load.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "viva-chat-message.h"
#include "viva-exam-error.h"
#include "viva-exam-session-private.h"
#include "viva-id.h"
#include "viva-json-strict.h"
#include "viva-exam-verdict.h"
#include "viva-tool-call.h"

/* Reading sessions back: validating a checkpoint (never crashing, whatever
 * the file holds), loading one, moving a bad one aside, and listing the
 * defenses that can be continued. */

static gboolean
corrupt (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
corrupt (GError     **error,
         const char  *format,
         ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, message);
  return FALSE;
}

/* The checkpoint's reader, built from the strict pieces the pack checker
 * is made of (util's viva-json-strict.c): a member of the kind expected,
 * or the first thing wrong said by its JSON path, what it is and what it
 * should be (“steps[2].name” is a number, not text). A checkpoint is one
 * defense's own file, so the first wrong member is enough to say why it
 * cannot be continued. */

static gboolean
wrong (GError     **error,
       const char  *path,
       JsonNode    *node,
       const char  *expected)
{
  if (node == NULL)
    return corrupt (error, _("“%s” is missing"), path);
  return corrupt (error, _("“%s” is %s, not %s"), path, viva_json_check_describe (node), expected);
}

/* @key of @object in *@out when it is of @kind; an optional one absent
 * (or null, where @null_ok) is *@out %NULL. FALSE with @error otherwise. */
static gboolean
member (JsonObject         *object,
        const char         *parent,
        const char         *key,
        gboolean            required,
        gboolean            null_ok,
        VivaJsonCheckKind   kind,
        const char         *expected,
        JsonNode          **out,
        GError            **error)
{
  g_autofree char *path = viva_json_check_path (parent, key);
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL)
    return required ? wrong (error, path, NULL, expected) : TRUE;
  if (null_ok && JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!kind (node))
    return wrong (error, path, node, expected);

  *out = node;
  return TRUE;
}

#define TEXT    viva_json_check_is_string, _("text")
#define OBJECT  viva_json_check_is_object, _("an object")
#define LIST    viva_json_check_is_array, _("a list")

/* The optional text members of @object (at @parent). */
static gboolean
optional_texts (JsonObject         *object,
                const char         *parent,
                const char * const *keys,
                GError            **error)
{
  JsonNode *node;

  for (guint i = 0; keys[i] != NULL; i++)
    if (!member (object, parent, keys[i], FALSE, FALSE, TEXT, &node, error))
      return FALSE;
  return TRUE;
}

/* Every element of @array (at @path) of @kind. */
static gboolean
elements (JsonArray          *array,
          const char         *path,
          VivaJsonCheckKind   kind,
          const char         *expected,
          GError            **error)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!kind (element))
        {
          g_autofree char *at = viva_json_check_path_index (path, i);

          return wrong (error, at, element, expected);
        }
    }
  return TRUE;
}

static gboolean
validate (JsonNode  *root,
          GError   **error)
{
  static const char * const required[] = { "session", "problem_id", "problem_sha256", "state", "phase", NULL };
  static const char * const student_keys[] = { "name", "id", NULL };
  static const char * const code_keys[] = { "sha256", "text", "sent_sha256", NULL };
  static const char * const ref_keys[] = { "id", "digest", NULL };
  JsonObject *object;
  JsonArray *array;
  JsonNode *node;
  const char *phase;
  gint64 version;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    return corrupt (error, _("it is not a JSON object"));
  object = json_node_get_object (root);

  node = json_object_get_member (object, "format");
  if (node == NULL || !viva_json_check_is_string (node) ||
      g_strcmp0 (json_node_get_string (node), VIVA_EXAM_CHECKPOINT_FORMAT) != 0)
    return corrupt (error, _("it is not a Viva checkpoint (its “format” is not “%s”)"), VIVA_EXAM_CHECKPOINT_FORMAT);

  node = json_object_get_member (object, "version");
  if (node == NULL || !viva_json_check_is_number (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return corrupt (error, _("its “version” is missing"));
  version = json_node_get_int (node);
  if (version > VIVA_EXAM_CHECKPOINT_VERSION)
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_CHECKPOINT_NEWER,
                   _("it was written by a newer Viva (format version %" G_GINT64_FORMAT
                     ", this one reads up to %d); update Viva to continue it"),
                   version, VIVA_EXAM_CHECKPOINT_VERSION);
      return FALSE;
    }
  if (version < 1)
    return corrupt (error, _("its “version” %" G_GINT64_FORMAT " is not valid"), version);

  for (guint i = 0; required[i] != NULL; i++)
    if (!member (object, NULL, required[i], TRUE, FALSE, TEXT, &node, error))
      return FALSE;

  phase = json_object_get_string_member (object, "phase");
  if (!g_str_equal (phase, "model") && !g_str_equal (phase, "tool") && !g_str_equal (phase, "done"))
    return corrupt (error, _("its phase “%s” is unknown"), phase);

  /* The pack by reference; older checkpoints carry a copy of the problem;
   * a defense of a problem made in memory has neither. */
  if (!member (object, NULL, "pack", FALSE, FALSE, OBJECT, &node, error) ||
      !member (object, NULL, "pack_ref", FALSE, FALSE, OBJECT, &node, error))
    return FALSE;
  if (node != NULL)
    {
      JsonObject *ref = json_node_get_object (node);

      for (guint i = 0; ref_keys[i] != NULL; i++)
        if (!member (ref, "pack_ref", ref_keys[i], TRUE, FALSE, TEXT, &node, error))
          return FALSE;
      if (!member (ref, "pack_ref", "path", FALSE, TRUE, TEXT, &node, error))
        return FALSE;
    }

  if (!member (object, NULL, "counters", TRUE, FALSE, OBJECT, &node, error) ||
      !member (object, NULL, "messages", TRUE, FALSE, LIST, &node, error))
    return FALSE;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(VivaChatMessage) message = viva_chat_message_new_from_json (json_array_get_element (array, i), &local);

      if (message == NULL)
        return corrupt (error, _("message %u is not valid: %s"), i, local->message);
    }

  if (!member (object, NULL, "steps", TRUE, FALSE, LIST, &node, error))
    return FALSE;
  array = json_node_get_array (node);
  if (!elements (array, "steps", OBJECT, error))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *at = viva_json_check_path_index ("steps", i);
      JsonObject *step = json_array_get_object_element (array, i);

      if (!member (step, at, "id", TRUE, FALSE, TEXT, &node, error) ||
          !member (step, at, "name", TRUE, FALSE, TEXT, &node, error))
        return FALSE;
    }

  if (!member (object, NULL, "recent_calls", FALSE, FALSE, LIST, &node, error) ||
      (node != NULL && !elements (json_node_get_array (node), "recent_calls", TEXT, error)))
    return FALSE;

  if (!member (object, NULL, "pending", FALSE, TRUE, OBJECT, &node, error))
    return FALSE;
  if (node != NULL)
    {
      JsonObject *pending = json_node_get_object (node);
      g_autoptr(GError) local = NULL;
      g_autoptr(VivaToolCall) call = NULL;

      if (!member (pending, "pending", "step", TRUE, FALSE, TEXT, &node, error))
        return FALSE;
      if (!(call = viva_tool_call_new_from_json (json_object_get_member (pending, "call"), &local)))
        return corrupt (error, _("the pending step is not valid"));
    }

  node = json_object_get_member (object, "verdict");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(VivaExamVerdict) verdict = viva_exam_verdict_new_from_json (node, &local);

      if (verdict == NULL)
        return corrupt (error, "%s", local->message);
    }

  if (!member (object, NULL, "student", FALSE, FALSE, OBJECT, &node, error) ||
      (node != NULL && !optional_texts (json_node_get_object (node), "student", student_keys, error)))
    return FALSE;

  if (!member (object, NULL, "timeline", FALSE, FALSE, LIST, &node, error) ||
      (node != NULL && !elements (json_node_get_array (node), "timeline", OBJECT, error)))
    return FALSE;

  if (!member (object, NULL, "code", FALSE, FALSE, OBJECT, &node, error) ||
      (node != NULL && !optional_texts (json_node_get_object (node), "code", code_keys, error)))
    return FALSE;

  return TRUE;
}

#undef TEXT
#undef OBJECT
#undef LIST

/**
 * viva_exam_checkpoint_parse:
 * @data: the bytes of a `checkpoint.json`
 * @length: their length, or -1 if nul-terminated
 *
 * Parses and validates a checkpoint: never crashes, whatever @data holds.
 * Any thread.
 *
 * Returns: (transfer full): the checkpoint, or %NULL with
 *   %VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT or %VIVA_EXAM_ERROR_CHECKPOINT_NEWER
 *   and a message saying what is wrong
 */
JsonNode *
viva_exam_checkpoint_parse (const char  *data,
                            gssize       length,
                            GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local = NULL;
  JsonNode *root;

  if (length < 0)
    length = data ? strlen (data) : 0;

  if (length == 0)
    {
      corrupt (error, _("the file is empty"));
      return NULL;
    }

  if (!g_utf8_validate (data, length, NULL))
    {
      corrupt (error, _("it is not UTF-8 text"));
      return NULL;
    }

  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      corrupt (error, _("it is not valid JSON (%s); it may have been cut short"), local->message);
      return NULL;
    }

  /* Blank text parses to no value at all. */
  if ((root = json_parser_get_root (parser)) == NULL)
    {
      corrupt (error, _("the file holds no JSON value"));
      return NULL;
    }

  if (!validate (root, error))
    return NULL;

  return json_node_ref (root);
}

typedef struct
{
  char     *sessions_dir;
  char     *id;
  JsonNode *checkpoint;
} Load;

static void
load_free (Load *load)
{
  g_free (load->sessions_dir);
  g_free (load->id);
  g_clear_pointer (&load->checkpoint, json_node_unref);
  g_free (load);
}

/* Reads, validates, and moves a bad checkpoint aside (never deleting it).
 * Plain data only: runs on a worker thread for the async variant. */
static JsonNode *
load_checkpoint (const char  *sessions_dir,
                 const char  *id,
                 GError     **error)
{
  g_autofree char *path = g_build_filename (sessions_dir, id, "checkpoint.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) local = NULL;
  gsize length;
  JsonNode *node;

  if (!viva_id_is_valid (id))
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_FOUND,
                   _("“%s” is not a session id."), id ? id : "");
      return NULL;
    }

  if (!g_file_get_contents (path, &contents, &length, &local))
    {
      if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_FOUND,
                     _("There is no saved defense “%s” in %s."), id, sessions_dir);
      else
        g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_FOUND,
                     _("The saved defense “%s” could not be read: %s"), id, local->message);
      return NULL;
    }

  if (!(node = viva_exam_checkpoint_parse (contents, length, &local)))
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
      g_autofree char *aside = g_strdup_printf ("%s.%s-%s", path,
                                                local->code == VIVA_EXAM_ERROR_CHECKPOINT_NEWER ? "newer" : "corrupt",
                                                stamp);

      if (g_rename (path, aside) != 0)
        {
          int saved = errno;
          g_set_error (error, VIVA_EXAM_ERROR, local->code,
                       _("The saved defense “%s” cannot be continued: %s. Moving it aside to %s failed too (%s)."),
                       id, local->message, aside, g_strerror (saved));
        }
      else
        g_set_error (error, VIVA_EXAM_ERROR, local->code,
                     _("The saved defense “%s” cannot be continued: %s. The file was kept as %s."),
                     id, local->message, aside);
      return NULL;
    }

  return node;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Load *load = task_data;
  GError *error = NULL;

  if (!(load->checkpoint = load_checkpoint (load->sessions_dir, load->id, &error)))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * viva_exam_session_load_async:
 * @sessions_dir: (nullable): the folder of sessions, or %NULL for the default
 * @id: the session's id
 *
 * Reads and validates a session's checkpoint on a worker thread. A corrupt
 * or newer-format checkpoint is moved aside (`checkpoint.json.corrupt-…`)
 * and reported with %VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT or
 * %VIVA_EXAM_ERROR_CHECKPOINT_NEWER.
 */
void
viva_exam_session_load_async (const char          *sessions_dir,
                              const char          *id,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Load *load = g_new0 (Load, 1);

  g_return_if_fail (id != NULL);

  load->sessions_dir = sessions_dir ? g_strdup (sessions_dir) : viva_exam_session_dup_default_dir ();
  load->id = g_strdup (id);
  g_task_set_source_tag (task, viva_exam_session_load_async);
  g_task_set_task_data (task, load, (GDestroyNotify)load_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * viva_exam_session_load_finish:
 *
 * Returns: (transfer full): the session, its checkpoint loaded
 */
VivaExamSession *
viva_exam_session_load_finish (GAsyncResult  *result,
                               GError       **error)
{
  Load *load;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;

  load = g_task_get_task_data (G_TASK (result));

  return _viva_exam_session_new_loaded (load->sessions_dir, load->id, load->checkpoint);
}

/**
 * viva_exam_session_load:
 *
 * The blocking variant of viva_exam_session_load_async(), for the CLI.
 *
 * Returns: (transfer full): the session, its checkpoint loaded
 */
VivaExamSession *
viva_exam_session_load (const char  *sessions_dir,
                        const char  *id,
                        GError     **error)
{
  g_autofree char *dir = sessions_dir ? g_strdup (sessions_dir) : viva_exam_session_dup_default_dir ();
  g_autoptr(JsonNode) checkpoint = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  if (!(checkpoint = load_checkpoint (dir, id, error)))
    return NULL;

  return _viva_exam_session_new_loaded (dir, id, checkpoint);
}

typedef struct
{
  char *sessions_dir;
  char *pack_id;
  char *problem_id;
} List;

static void
list_free (List *list)
{
  g_free (list->sessions_dir);
  g_free (list->pack_id);
  g_free (list->problem_id);
  g_free (list);
}

static int
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)b, *(const char * const *)a);
}

static void
list_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  List *list = task_data;
  g_autoptr(GDir) dir = g_dir_open (list->sessions_dir, 0, NULL);
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (list->sessions_dir, name, "checkpoint.json", NULL);
      g_autofree char *contents = NULL;
      g_autoptr(JsonNode) node = NULL;
      JsonObject *object;
      gsize length;

      if (g_task_return_error_if_cancelled (task))
        return;

      /* Only a readable checkpoint counts; a bad one is reported when the
       * user tries to open it, not here. */
      if (!g_file_get_contents (path, &contents, &length, NULL) ||
          !(node = viva_exam_checkpoint_parse (contents, length, NULL)))
        continue;

      object = json_node_get_object (node);
      if (g_str_equal (json_object_get_string_member (object, "phase"), "done") ||
          g_strcmp0 (json_object_get_string_member (object, "problem_id"), list->problem_id) != 0 ||
          (list->pack_id != NULL &&
           g_strcmp0 (json_object_get_string_member_with_default (object, "pack_id", NULL), list->pack_id) != 0))
        continue;

      g_ptr_array_add (ids, g_strdup (name));
    }

  /* Ids start with their UTC time: newest first. */
  g_ptr_array_sort (ids, compare_newest_first);
  g_ptr_array_add (ids, NULL);
  g_task_return_pointer (task, g_ptr_array_steal (ids, NULL), (GDestroyNotify)g_strfreev);
}

/**
 * viva_exam_session_list_unfinished_async:
 * @sessions_dir: (nullable): the folder of sessions, or %NULL for the default
 * @pack_id: (nullable): only sessions of this pack
 * @problem_id: only sessions of this problem
 *
 * Finds the defenses of a problem that can be continued, for the
 * "unfinished defense" banner. Reads on a worker thread.
 */
void
viva_exam_session_list_unfinished_async (const char          *sessions_dir,
                                         const char          *pack_id,
                                         const char          *problem_id,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  List *list = g_new0 (List, 1);

  g_return_if_fail (problem_id != NULL);

  list->sessions_dir = sessions_dir ? g_strdup (sessions_dir) : viva_exam_session_dup_default_dir ();
  list->pack_id = g_strdup (pack_id);
  list->problem_id = g_strdup (problem_id);
  g_task_set_source_tag (task, viva_exam_session_list_unfinished_async);
  g_task_set_task_data (task, list, (GDestroyNotify)list_free);
  g_task_run_in_thread (task, list_thread);
}

/**
 * viva_exam_session_list_unfinished_finish:
 *
 * Returns: (transfer full): session ids, newest first (maybe empty)
 */
GStrv
viva_exam_session_list_unfinished_finish (GAsyncResult  *result,
                                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
