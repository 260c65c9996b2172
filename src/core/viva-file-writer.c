/* viva-file-writer.c: the one way Viva writes a file
 *
 * Every file Viva writes — the student's code, statuses, drafts, packs,
 * checkpoints, reports, exports — goes through here, so each is written the
 * same safe way: a temporary file in the same folder, fsync, rename over the
 * old one (missing folders made first where the caller asks). A crash or a full disk leaves
 * the old file or the new, never half of either.
 *
 * Writes run on a small pool of threads, never on the main loop. Each file
 * has a queue, and one write at a time: a write asked for while the file is
 * being written waits behind it, and when several wait, only the newest is
 * written — it stands for all of them, so each of their callers hears, once
 * it is on disk, that their content or a newer one is. Writes to different
 * files do not wait for each other. viva_file_writer_flush() blocks until
 * every queue is empty; the app calls it on shutdown and viva-cli before it
 * exits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "viva-file-writer-private.h"

/* Enough that a slow file does not hold up the others, few enough that a
 * burst of exports does not start a thread each. */
#define MAX_THREADS 4

typedef struct
{
  gboolean  done;
  GError   *error;
} Waiter;

typedef struct
{
  GBytes              *contents;
  int                  mode;
  VivaFileWriterFlags  flags;
  GTask               *task;     /* an async caller, or NULL */
  Waiter              *waiter;   /* a blocking caller (on its stack), or NULL */
} Request;

/* A file with a write running or waiting. Only plain data crosses to the
 * thread: the path, or for a file with no local path (a remote location
 * picked in a file chooser) the GFile, which GIO itself writes from threads. */
typedef struct
{
  char      *key;
  char      *path;
  GFile     *file;
  GPtrArray *waiting;   /* Request, oldest first */
} Queue;

static GMutex              lock;
static GCond               changed;
static GHashTable         *queues;   /* key → Queue, while it is not empty */
static GThreadPool        *pool;
static VivaFileWriterHook  hook;
static gpointer            hook_data;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_assert (request->task == NULL);
  g_assert (request->waiter == NULL);

  g_bytes_unref (request->contents);
  g_free (request);
}

static void
queue_free (Queue *queue)
{
  g_free (queue->key);
  g_free (queue->path);
  g_clear_object (&queue->file);
  g_ptr_array_unref (queue->waiting);
  g_free (queue);
}

static gboolean
fail (GError    **error,
      const char *path,
      int         saved)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               _("%s could not be written: %s"), path, g_strerror (saved));
  return FALSE;
}

/* A temporary file beside the old one, written, fsynced, renamed over it.
 * Whatever fails, the temporary file goes and the old file stays. */
static gboolean
replace_file (const char  *path,
              const char  *data,
              gsize        size,
              int          mode,
              GError     **error)
{
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);
  gboolean keep_mode;
  GStatBuf st;
  int fd;
  int saved;

  /* A file that exists keeps its permissions, as GIO's replace keeps them. */
  keep_mode = g_stat (path, &st) == 0 && S_ISREG (st.st_mode);

  if ((fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, mode)) < 0)
    return fail (error, path, errno);

  for (gsize done = 0; done < size;)
    {
      gssize n = write (fd, data + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          saved = n < 0 ? errno : ENOSPC;
          close (fd);
          g_unlink (tmp);
          return fail (error, path, saved);
        }
      done += n;
    }

  if ((keep_mode && fchmod (fd, st.st_mode & 07777) != 0) ||
      fsync (fd) != 0)
    {
      saved = errno;
      close (fd);
      g_unlink (tmp);
      return fail (error, path, saved);
    }

  if (close (fd) != 0 || g_rename (tmp, path) != 0)
    {
      saved = errno;
      g_unlink (tmp);
      return fail (error, path, saved);
    }

  return TRUE;
}

static gboolean
write_contents (Queue    *queue,
                Request  *request,
                GError  **error)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (request->contents, &size);

  if (queue->path == NULL)
    return g_file_replace_contents (queue->file, data, size, NULL, FALSE,
                                    G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);

  if (request->flags & VIVA_FILE_WRITER_MAKE_FOLDERS)
    {
      g_autofree char *dir = g_path_get_dirname (queue->path);

      if (g_mkdir_with_parents (dir, 0700) != 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("The folder %s could not be created (%s). Check that you may write there and that the disk is not full."),
                       dir, g_strerror (saved));
          return FALSE;
        }
    }

  return replace_file (queue->path, data, size, request->mode, error);
}

static void
complete (Request      *request,
          const GError *error)
{
  if (request->task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&request->task);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }

  if (request->waiter != NULL)
    {
      g_mutex_lock (&lock);
      request->waiter->error = error ? g_error_copy (error) : NULL;
      request->waiter->done = TRUE;
      request->waiter = NULL;
      g_cond_broadcast (&changed);
      g_mutex_unlock (&lock);
    }
}

/* Runs on a pool thread until the file's queue is empty. */
static void
drain (gpointer data,
       gpointer user_data)
{
  Queue *queue = data;

  for (;;)
    {
      g_autoptr(GPtrArray) batch = NULL;
      g_autoptr(GError) error = NULL;
      VivaFileWriterHook before = NULL;
      gpointer before_data = NULL;

      g_mutex_lock (&lock);
      if (queue->waiting->len == 0)
        {
          g_hash_table_remove (queues, queue->key);
          g_cond_broadcast (&changed);
          g_mutex_unlock (&lock);
          queue_free (queue);
          return;
        }
      batch = g_steal_pointer (&queue->waiting);
      queue->waiting = g_ptr_array_new_with_free_func (request_free);
      before = hook;
      before_data = hook_data;
      g_mutex_unlock (&lock);

      if (before != NULL)
        before (queue->key, before_data);

      /* The newest content stands for every older one still waiting. */
      write_contents (queue, g_ptr_array_index (batch, batch->len - 1), &error);
      if (error != NULL)
        g_debug ("file-writer: %s", error->message);

      for (guint i = 0; i < batch->len; i++)
        complete (g_ptr_array_index (batch, i), error);
    }
}

static void
enqueue (GFile   *file,
         Request *request)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *key = path ? g_strdup (path) : g_file_get_uri (file);
  Queue *queue;

  g_mutex_lock (&lock);

  if (queues == NULL)
    {
      queues = g_hash_table_new (g_str_hash, g_str_equal);
      pool = g_thread_pool_new (drain, NULL, MAX_THREADS, FALSE, NULL);
    }

  if ((queue = g_hash_table_lookup (queues, key)) != NULL)
    {
      g_ptr_array_add (queue->waiting, request);
    }
  else
    {
      queue = g_new0 (Queue, 1);
      queue->key = g_steal_pointer (&key);
      queue->path = g_steal_pointer (&path);
      if (queue->path == NULL)
        queue->file = g_object_ref (file);
      queue->waiting = g_ptr_array_new_with_free_func (request_free);
      g_ptr_array_add (queue->waiting, request);
      g_hash_table_insert (queues, queue->key, queue);
      g_thread_pool_push (pool, queue, NULL);
    }

  g_mutex_unlock (&lock);
}

static Request *
request_new (GBytes              *contents,
             int                  mode,
             VivaFileWriterFlags  flags)
{
  Request *request = g_new0 (Request, 1);

  request->contents = g_bytes_ref (contents);
  request->mode = mode;
  request->flags = flags;

  return request;
}

/**
 * viva_file_writer_write_async:
 * @file: the file to replace (or create)
 * @contents: what it is to hold
 * @mode: the permissions of a file that is created, as for open(): 0600 for
 *   the student's data, 0666 (less the umask) for a document the user
 *   chose; a file replaced keeps its own
 * @flags: %VIVA_FILE_WRITER_MAKE_FOLDERS to make missing folders (private,
 *   0700) for Viva's own files; without it a missing folder is an error, as
 *   for a file the user named
 * @cancellable: (nullable): a cancelled @cancellable does not stop the
 *   write, which is queued already; the callback then reports
 *   %G_IO_ERROR_CANCELLED, so a caller that went away hears nothing else
 *
 * Queues a write of @contents to @file, off the main loop, behind any write
 * to the same file. Completes once @contents, or something queued for the
 * same file after it, is on disk, or with the error that stopped the write
 * (in %G_IO_ERROR; the old file is then untouched). Any thread.
 */
void
viva_file_writer_write_async (GFile               *file,
                              GBytes              *contents,
                              int                  mode,
                              VivaFileWriterFlags  flags,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  Request *request;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (contents != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  request = request_new (contents, mode, flags);
  request->task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (request->task, viva_file_writer_write_async);
  enqueue (file, request);
}

gboolean
viva_file_writer_write_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == viva_file_writer_write_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * viva_file_writer_write:
 *
 * viva_file_writer_write_async(), blocking until it completes: for
 * viva-cli and for code already on a thread of its own. It queues behind
 * other writes to @file like any write. Never on the main loop of the app.
 *
 * Returns: %TRUE once @contents (or newer) is on disk
 */
gboolean
viva_file_writer_write (GFile               *file,
                        GBytes              *contents,
                        int                  mode,
                        VivaFileWriterFlags  flags,
                        GError             **error)
{
  Waiter waiter = { FALSE, NULL };
  Request *request;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  request = request_new (contents, mode, flags);
  request->waiter = &waiter;
  enqueue (file, request);

  g_mutex_lock (&lock);
  while (!waiter.done)
    g_cond_wait (&changed, &lock);
  g_mutex_unlock (&lock);

  if (waiter.error != NULL)
    {
      g_propagate_error (error, waiter.error);
      return FALSE;
    }

  return TRUE;
}

/**
 * viva_file_writer_flush:
 *
 * Blocks until every write queued so far is on disk or has failed. Their
 * callbacks run later, on their main contexts. Called by the app's
 * shutdown and before viva-cli exits, so nothing queued is lost.
 */
void
viva_file_writer_flush (void)
{
  g_mutex_lock (&lock);
  while (queues != NULL && g_hash_table_size (queues) > 0)
    g_cond_wait (&changed, &lock);
  g_mutex_unlock (&lock);
}

void
_viva_file_writer_set_hook (VivaFileWriterHook hook_func,
                            gpointer           user_data)
{
  g_mutex_lock (&lock);
  hook = hook_func;
  hook_data = user_data;
  g_mutex_unlock (&lock);
}
