/* viva-teacher-scores.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "viva-file-writer.h"
#include "viva-json-bounded.h"
#include "viva-teacher-scores-private.h"

/* A teacher's own scores, kept beside the examiner's and never over them.
 * They live in the teacher's data ($XDG_DATA_HOME/viva/teacher-scores.json,
 * written through the file writer), never in a report folder: students
 * write those, and a score there would be one a student could set. A
 * teacher CSV (viva-teacher-csv.c) adds scores for a run of the CLI only.
 *
 * A score set in the window names its report's session, so a second
 * defense of the same problem is not scored by it; a CSV's names the
 * student and problem only, as a gradebook does. */

#define STORE_FORMAT    "viva-teacher-scores/1"
#define STORE_MAX_DEPTH 8

struct _VivaTeacherScores
{
  GObject    parent_instance;

  GPtrArray  *scores;
  GHashTable *by_key;     /* key () → a score of scores */
};

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (VivaTeacherScores, viva_teacher_scores, G_TYPE_OBJECT)

void
_viva_teacher_score_free (VivaTeacherScore *score)
{
  if (score == NULL)
    return;

  g_free (score->student_id);
  g_free (score->problem);
  g_free (score->session);
  g_free (score->item);
  g_free (score->note);
  g_free (score);
}

static void
viva_teacher_scores_finalize (GObject *object)
{
  VivaTeacherScores *self = (VivaTeacherScores *)object;

  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_clear_pointer (&self->scores, g_ptr_array_unref);

  G_OBJECT_CLASS (viva_teacher_scores_parent_class)->finalize (object);
}

static void
viva_teacher_scores_class_init (VivaTeacherScoresClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_teacher_scores_finalize;

  /**
   * VivaTeacherScores::changed:
   *
   * A score was set, removed, or scores were loaded.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
viva_teacher_scores_init (VivaTeacherScores *self)
{
  self->scores = g_ptr_array_new_with_free_func ((GDestroyNotify)_viva_teacher_score_free);
  self->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

VivaTeacherScores *
viva_teacher_scores_new (void)
{
  return g_object_new (VIVA_TYPE_TEACHER_SCORES, NULL);
}

/**
 * viva_teacher_scores_default_file:
 *
 * Returns: (transfer full): where the window keeps the teacher's scores
 */
GFile *
viva_teacher_scores_default_file (void)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "viva", "teacher-scores.json", NULL);

  return g_file_new_for_path (path);
}

guint
viva_teacher_scores_get_n_scores (VivaTeacherScores *self)
{
  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), 0);

  return self->scores->len;
}

const VivaTeacherScore *
viva_teacher_scores_get_score (VivaTeacherScores *self,
                               guint              position)
{
  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), NULL);
  g_return_val_if_fail (position < self->scores->len, NULL);

  return g_ptr_array_index (self->scores, position);
}

/* The unit separator ends each part: no part can hold one (a CSV cell
 * could, but then it names no report). A missing session or item is
 * empty, which no session or item id is. */
static char *
key (const char *student_id,
     const char *problem,
     const char *session,
     const char *item)
{
  return g_strdup_printf ("%s\x1f%s\x1f%s\x1f%s\x1f%s", student_id, problem, session ? "s" : "-",
                          session ? session : "", item ? item : "");
}

/**
 * viva_teacher_scores_lookup:
 * @session: (nullable): the report's session
 * @item: (nullable): an item's id, or %NULL for the whole defense
 *
 * Returns: (transfer none) (nullable): the teacher's score of that
 *   defense (or item): the one set on the session when there is one, else
 *   the student's problem's (a CSV's)
 */
const VivaTeacherScore *
viva_teacher_scores_lookup (VivaTeacherScores *self,
                            const char        *student_id,
                            const char        *problem,
                            const char        *session,
                            const char        *item)
{
  const VivaTeacherScore *score = NULL;

  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), NULL);

  if (student_id == NULL || student_id[0] == '\0' || problem == NULL)
    return NULL;

  if (session != NULL)
    {
      g_autofree char *with_session = key (student_id, problem, session, item);

      score = g_hash_table_lookup (self->by_key, with_session);
    }
  if (score == NULL)
    {
      g_autofree char *without = key (student_id, problem, NULL, item);

      score = g_hash_table_lookup (self->by_key, without);
    }

  return score;
}

/* Takes @score, replacing one of the same key. */
void
_viva_teacher_scores_take (VivaTeacherScores *self,
                           VivaTeacherScore  *score)
{
  g_autofree char *k = key (score->student_id, score->problem, score->session, score->item);
  VivaTeacherScore *old = g_hash_table_lookup (self->by_key, k);

  if (old != NULL)
    {
      guint position;

      g_assert_true (g_ptr_array_find (self->scores, old, &position));
      self->scores->pdata[position] = score;
      _viva_teacher_score_free (old);
    }
  else
    g_ptr_array_add (self->scores, score);

  g_hash_table_insert (self->by_key, g_steal_pointer (&k), score);
}

/**
 * viva_teacher_scores_set:
 * @session: (nullable): the report's session
 * @item: (nullable): the item, or %NULL for the whole defense
 * @note: (nullable): the teacher's note
 *
 * Sets (or replaces) the teacher's score of a defense or an item.
 */
void
viva_teacher_scores_set (VivaTeacherScores      *self,
                         const char             *student_id,
                         const char             *problem,
                         const char             *session,
                         const char             *item,
                         double                  score,
                         VivaCalibrationVerdict  verdict,
                         const char             *note)
{
  VivaTeacherScore *entry;

  g_return_if_fail (VIVA_IS_TEACHER_SCORES (self));
  g_return_if_fail (student_id != NULL && problem != NULL);
  g_return_if_fail (isfinite (score) && score >= 0);

  entry = g_new0 (VivaTeacherScore, 1);
  entry->student_id = g_strdup (student_id);
  entry->problem = g_strdup (problem);
  entry->session = g_strdup (session);
  entry->item = g_strdup (item);
  entry->score = score;
  entry->verdict = verdict;
  entry->note = note != NULL && note[0] != '\0' ? g_strdup (note) : NULL;
  _viva_teacher_scores_take (self, entry);

  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * viva_teacher_scores_remove:
 *
 * Returns: whether there was such a score to remove
 */
gboolean
viva_teacher_scores_remove (VivaTeacherScores *self,
                            const char        *student_id,
                            const char        *problem,
                            const char        *session,
                            const char        *item)
{
  g_autofree char *k = NULL;
  VivaTeacherScore *score;

  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), FALSE);

  k = key (student_id, problem, session, item);
  if (!(score = g_hash_table_lookup (self->by_key, k)))
    return FALSE;

  g_hash_table_remove (self->by_key, k);
  g_ptr_array_remove (self->scores, score);
  g_signal_emit (self, signals[CHANGED], 0);

  return TRUE;
}

/**
 * _viva_teacher_scores_read_file:
 *
 * Reads a regular file of at most VIVA_TEACHER_SCORES_MAX_BYTES (a FIFO
 * or device named by mistake must not hang or fill memory). Blocking.
 *
 * Returns: (transfer full) (nullable): the bytes, nul-terminated
 */
char *
_viva_teacher_scores_read_file (const char  *path,
                                gsize       *length,
                                GError     **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  struct stat st;
  int fd;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("“%s” could not be read: %s."), path, g_strerror (saved));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("“%s” is not a regular file; name the file itself."), path);
      return NULL;
    }

  for (;;)
    {
      guint8 buffer[64 * 1024];
      gssize n = read (fd, buffer, sizeof buffer);

      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0)
        {
          int saved = errno;

          close (fd);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("“%s” could not be read: %s."), path, g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break;
      if (bytes->len + n > VIVA_TEACHER_SCORES_MAX_BYTES)
        {
          g_autofree char *cap = g_format_size_full (VIVA_TEACHER_SCORES_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);

          close (fd);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       _("“%s” is larger than a class’s scores can be (at most %s); check that it is the right file."),
                       path, cap);
          return NULL;
        }
      g_byte_array_append (bytes, buffer, n);
    }
  close (fd);

  *length = bytes->len;
  g_byte_array_append (bytes, (const guint8 *)"", 1);

  return (char *)g_byte_array_free (g_steal_pointer (&bytes), FALSE);
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

/* Reads the store's scores into @scores; blocking. A missing file is an
 * empty store. */
static gboolean
read_store (GFile      *file,
            GPtrArray  *scores,
            GError    **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *data = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonArray *array;
  gsize length;

  if (!(data = _viva_teacher_scores_read_file (path, &length, &local_error)))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  if (!(root = viva_json_parse_bounded (data, length, STORE_MAX_DEPTH, NULL)) ||
      !JSON_NODE_HOLDS_OBJECT (root) ||
      g_strcmp0 (member_string (object = json_node_get_object (root), "format"), STORE_FORMAT) != 0 ||
      !json_object_has_member (object, "scores") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, "scores")))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("Your scores in “%s” could not be read; move the file away to start again."), path);
      return FALSE;
    }

  array = json_object_get_array_member (object, "scores");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *entry;
      JsonNode *score;
      const char *verdict;
      VivaTeacherScore *out;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      entry = json_node_get_object (node);
      score = json_object_get_member (entry, "score");
      if (member_string (entry, "student_id") == NULL || member_string (entry, "problem") == NULL ||
          score == NULL || !JSON_NODE_HOLDS_VALUE (score) ||
          (json_node_get_value_type (score) != G_TYPE_DOUBLE && json_node_get_value_type (score) != G_TYPE_INT64) ||
          !isfinite (json_node_get_double (score)) || json_node_get_double (score) < 0)
        continue;

      out = g_new0 (VivaTeacherScore, 1);
      out->student_id = g_strdup (member_string (entry, "student_id"));
      out->problem = g_strdup (member_string (entry, "problem"));
      out->session = g_strdup (member_string (entry, "session"));
      out->item = g_strdup (member_string (entry, "item"));
      out->note = g_strdup (member_string (entry, "note"));
      out->score = json_node_get_double (score);
      verdict = member_string (entry, "verdict");
      out->verdict = g_strcmp0 (verdict, "pass") == 0 ? VIVA_CALIBRATION_PASS
                   : g_strcmp0 (verdict, "fail") == 0 ? VIVA_CALIBRATION_FAIL
                   : VIVA_CALIBRATION_UNKNOWN;
      g_ptr_array_add (scores, out);
    }

  return TRUE;
}

static void
take_all (VivaTeacherScores *self,
          GPtrArray         *scores)
{
  for (guint i = 0; i < scores->len; i++)
    _viva_teacher_scores_take (self, g_steal_pointer (&scores->pdata[i]));
  g_ptr_array_set_size (scores, 0);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* Moves every score of @from into @self, with one ::changed. */
void
_viva_teacher_scores_take_all (VivaTeacherScores *self,
                               VivaTeacherScores *from)
{
  g_hash_table_remove_all (from->by_key);
  g_ptr_array_set_free_func (from->scores, NULL);
  take_all (self, from->scores);
  g_ptr_array_set_free_func (from->scores, (GDestroyNotify)_viva_teacher_score_free);
}

/**
 * viva_teacher_scores_load:
 * @file: the store (viva_teacher_scores_default_file())
 *
 * Adds the scores kept in @file; a missing file adds none. Blocking: the
 * CLI's; the window uses viva_teacher_scores_load_async().
 */
gboolean
viva_teacher_scores_load (VivaTeacherScores  *self,
                          GFile              *file,
                          GError            **error)
{
  g_autoptr(GPtrArray) scores = g_ptr_array_new_with_free_func ((GDestroyNotify)_viva_teacher_score_free);

  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!read_store (file, scores, error))
    return FALSE;
  take_all (self, scores);

  return TRUE;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_autoptr(GPtrArray) scores = g_ptr_array_new_with_free_func ((GDestroyNotify)_viva_teacher_score_free);
  GError *error = NULL;

  if (!read_store (task_data, scores, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&scores), (GDestroyNotify)g_ptr_array_unref);
}

void
viva_teacher_scores_load_async (VivaTeacherScores   *self,
                                GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_TEACHER_SCORES (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_teacher_scores_load_async);
  /* A GFile is thread-safe: the thread only reads its path. */
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

/**
 * viva_teacher_scores_load_finish:
 *
 * Adds the scores read, on the caller's (main) thread.
 */
gboolean
viva_teacher_scores_load_finish (VivaTeacherScores  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_autoptr(GPtrArray) scores = NULL;

  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!(scores = g_task_propagate_pointer (G_TASK (result), error)))
    return FALSE;
  take_all (self, scores);

  return TRUE;
}

static GBytes *
to_bytes (VivaTeacherScores *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  char *text;
  gsize length;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, STORE_FORMAT);
  json_builder_set_member_name (builder, "scores");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->scores->len; i++)
    {
      const VivaTeacherScore *score = g_ptr_array_index (self->scores, i);

      /* A CSV's scores were the CLI's for one run; the store keeps the
       * window's, which name a session. */
      if (score->session == NULL)
        continue;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "student_id");
      json_builder_add_string_value (builder, score->student_id);
      json_builder_set_member_name (builder, "problem");
      json_builder_add_string_value (builder, score->problem);
      json_builder_set_member_name (builder, "session");
      json_builder_add_string_value (builder, score->session);
      if (score->item != NULL)
        {
          json_builder_set_member_name (builder, "item");
          json_builder_add_string_value (builder, score->item);
        }
      json_builder_set_member_name (builder, "score");
      json_builder_add_double_value (builder, score->score);
      if (score->verdict != VIVA_CALIBRATION_UNKNOWN)
        {
          json_builder_set_member_name (builder, "verdict");
          json_builder_add_string_value (builder, score->verdict == VIVA_CALIBRATION_PASS ? "pass" : "fail");
        }
      if (score->note != NULL)
        {
          json_builder_set_member_name (builder, "note");
          json_builder_add_string_value (builder, score->note);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &length);

  return g_bytes_new_take (text, length);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!viva_file_writer_write_finish (result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * viva_teacher_scores_save_async:
 * @file: the store (viva_teacher_scores_default_file())
 *
 * Writes the scores set on sessions (the window's) through the file
 * writer, readable by the teacher only.
 */
void
viva_teacher_scores_save_async (VivaTeacherScores   *self,
                                GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_if_fail (VIVA_IS_TEACHER_SCORES (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_teacher_scores_save_async);
  bytes = to_bytes (self);
  viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, cancellable,
                                save_cb, g_steal_pointer (&task));
}

gboolean
viva_teacher_scores_save_finish (VivaTeacherScores  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
