/* viva-exam-session-writer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "viva-exam-session-private.h"
#include "viva-file-writer.h"

/* Writes go to one thread, in order (a GThreadPool of one): a checkpoint
 * through the file writer, waited for on that thread; a trace line
 * appended. Only plain data crosses: the text to write and a small shared
 * block. A checkpoint job whose generation is older than the newest queued
 * one is skipped, so a slow disk costs writes, never memory or order. */

typedef struct
{
  char   *dir;
  int     trace_fd;
  gint    latest;        /* generation of the newest queued checkpoint */
  GMutex  mutex;
  char   *error;         /* the first write error, for flush */
  gint    writes;
} Shared;

typedef enum
{
  JOB_CHECKPOINT,
  JOB_TRACE,
  JOB_FLUSH,
} JobKind;

typedef struct
{
  JobKind  kind;
  Shared  *shared;
  char    *text;
  gsize    length;
  gint     generation;
  GTask   *task;
} Job;

static void
shared_clear (Shared *shared)
{
  if (shared->trace_fd >= 0)
    close (shared->trace_fd);
  g_free (shared->dir);
  g_free (shared->error);
  g_mutex_clear (&shared->mutex);
}

static void
shared_unref (Shared *shared)
{
  g_atomic_rc_box_release_full (shared, (GDestroyNotify)shared_clear);
}

static void
job_free (Job *job)
{
  g_clear_pointer (&job->shared, shared_unref);
  g_free (job->text);
  g_clear_object (&job->task);
  g_free (job);
}

static void
record_error (Shared     *shared,
              const char *message)
{
  g_mutex_lock (&shared->mutex);
  if (shared->error == NULL)
    shared->error = g_strdup (message);
  g_mutex_unlock (&shared->mutex);
  g_debug ("exam-session: %s", message);
}

static gboolean
ensure_dir (Shared *shared)
{
  if (g_mkdir_with_parents (shared->dir, 0700) != 0)
    {
      int saved = errno;
      g_autofree char *message = g_strdup_printf (_("Could not create the session folder %s: %s"),
                                                  shared->dir, g_strerror (saved));
      record_error (shared, message);
      return FALSE;
    }

  return TRUE;
}

static void
write_job (gpointer data,
           gpointer user_data)
{
  Job *job = data;
  Shared *shared = job->shared;

  switch (job->kind)
    {
    case JOB_CHECKPOINT:
      if (job->generation >= g_atomic_int_get (&shared->latest))
        {
          g_autofree char *path = g_build_filename (shared->dir, "checkpoint.json", NULL);
          g_autoptr(GFile) file = g_file_new_for_path (path);
          g_autoptr(GBytes) bytes = g_bytes_new_static (job->text, job->length);
          g_autoptr(GError) error = NULL;

          /* The file writer's temporary file, fsync, rename: a crash leaves
           * the old or the new checkpoint, never a torn one. Waiting for it
           * here keeps checkpoints and trace lines in the order they came. */
          if (!viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, &error))
            record_error (shared, error->message);
          else
            g_atomic_int_inc (&shared->writes);
        }
      break;

    case JOB_TRACE:
      if (shared->trace_fd < 0 && ensure_dir (shared))
        {
          g_autofree char *path = g_build_filename (shared->dir, "trace.jsonl", NULL);

          shared->trace_fd = g_open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
          if (shared->trace_fd < 0)
            {
              int saved = errno;
              g_autofree char *message = g_strdup_printf (_("Could not open the trace %s: %s"),
                                                          path, g_strerror (saved));
              record_error (shared, message);
            }
        }
      if (shared->trace_fd >= 0)
        {
          /* One write per line: with O_APPEND a killed process leaves whole
           * lines behind, and the kernel has them at once. */
          gsize done = 0;

          while (done < job->length)
            {
              gssize n = write (shared->trace_fd, job->text + done, job->length - done);

              if (n < 0 && errno == EINTR)
                continue;
              if (n <= 0)
                {
                  int saved = errno;
                  g_autofree char *message = g_strdup_printf (_("Could not write the trace: %s"),
                                                              g_strerror (saved));
                  record_error (shared, message);
                  break;
                }
              done += n;
            }
        }
      break;

    case JOB_FLUSH:
      g_mutex_lock (&shared->mutex);
      if (shared->error != NULL)
        g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", shared->error);
      else
        g_task_return_boolean (job->task, TRUE);
      g_mutex_unlock (&shared->mutex);
      break;

    default:
      g_assert_not_reached ();
    }

  job_free (job);
}

struct _VivaExamWriter
{
  GThreadPool *pool;
  Shared      *shared;
  gint         generation;
};

VivaExamWriter *
_viva_exam_writer_new (const char *dir)
{
  VivaExamWriter *writer = g_new0 (VivaExamWriter, 1);

  writer->shared = g_atomic_rc_box_new0 (Shared);
  writer->shared->dir = g_strdup (dir);
  writer->shared->trace_fd = -1;
  g_mutex_init (&writer->shared->mutex);
  writer->pool = g_thread_pool_new (write_job, NULL, 1, FALSE, NULL);

  return writer;
}

void
_viva_exam_writer_free (VivaExamWriter *writer)
{
  if (writer == NULL)
    return;

  /* Queued writes still run; the pool goes away after them, without the
   * main thread waiting. */
  if (writer->pool != NULL)
    g_thread_pool_free (writer->pool, FALSE, FALSE);
  g_clear_pointer (&writer->shared, shared_unref);
  g_free (writer);
}

static void
push (VivaExamWriter *writer,
      JobKind         kind,
      char           *text,
      GTask          *task)
{
  Job *job = g_new0 (Job, 1);

  job->kind = kind;
  job->shared = g_atomic_rc_box_acquire (writer->shared);
  job->text = text;
  job->length = text ? strlen (text) : 0;
  job->task = task;
  if (kind == JOB_CHECKPOINT)
    {
      job->generation = ++writer->generation;
      g_atomic_int_set (&writer->shared->latest, job->generation);
    }

  g_thread_pool_push (writer->pool, job, NULL);
}

/* @text: (transfer full): the whole checkpoint document */
void
_viva_exam_writer_checkpoint (VivaExamWriter *writer,
                              char           *text)
{
  push (writer, JOB_CHECKPOINT, text, NULL);
}

/* @line: (transfer full): one trace line, with its newline */
void
_viva_exam_writer_trace (VivaExamWriter *writer,
                         char           *line)
{
  push (writer, JOB_TRACE, line, NULL);
}

/* @task: (transfer full): returns TRUE, or the first write error */
void
_viva_exam_writer_flush (VivaExamWriter *writer,
                         GTask          *task)
{
  push (writer, JOB_FLUSH, NULL, task);
}

guint64
_viva_exam_writer_get_checkpoint_writes (VivaExamWriter *writer)
{
  return (guint64)g_atomic_int_get (&writer->shared->writes);
}
