/* viva-server-clock.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-clock.h"
#include "viva-server-defenses.h"
#include "viva-text.h"

/* The server owns the clock, and runs the core's sittings to keep it: one
 * VivaExamSitting per student signed in, kept in the database instead of a
 * file (its state in the sitting's row), its clock the wall clock against
 * the sitting's first sign-in, and its VivaExamHandIn told what the student
 * saves, runs and defends. At the sitting's time-up the hand-in's queue is
 * defended at once, with the questions answered for the absent student
 * (defenses still running answer for them too), also when the student's PC
 * is off.
 *
 * The sitting's row is marked handed in in the same pass, so a restart
 * never hands in twice; a server that was down at the time restores each
 * open sitting after it (given first the code it holds, which the student
 * cannot touch: unlike an app's sitting restored after the time, a
 * server's hands that code in) and hands it in then. The server knows no
 * open problem: what it hands in is every problem worked on and not
 * defended, in the exam's order, one defense each. */

struct _VivaServerClock
{
  GObject        parent_instance;
  VivaServerApi *api;       /* unowned: the api owns this */
  GHashTable    *sittings;  /* "exam/student" → VivaExamSitting */
};

G_DEFINE_FINAL_TYPE (VivaServerClock, viva_server_clock, G_TYPE_OBJECT)

typedef struct
{
  VivaServerClock *self;    /* unowned */
  char            *exam_id;
  char            *student_id;
} Keeping;

static void
keeping_free (Keeping *keeping)
{
  g_free (keeping->exam_id);
  g_free (keeping->student_id);
  g_free (keeping);
}

static char *
key_of (const char *exam_id,
        const char *student_id)
{
  return g_strconcat (exam_id, "/", student_id, NULL);
}

static void
keep_cb (VivaExamSitting *sitting,
         JsonNode        *state,
         gpointer         user_data)
{
  Keeping *keeping = user_data;
  g_autofree char *text = json_to_string (state, FALSE);
  g_autoptr(GError) error = NULL;

  if (!viva_server_store_keep_sitting_state (viva_server_api_get_store (keeping->self->api),
                                             keeping->exam_id, keeping->student_id, text, &error))
    g_warning ("sitting %s/%s: state not kept: %s", keeping->exam_id, keeping->student_id, error->message);
}

/* The time is up: the row is handed in, then every problem the hand-in
 * gives out is defended, but one whose defense runs already (started by
 * the student's Submit) is not defended twice. */
static void
hand_in (VivaServerClock *self,
         VivaExamSitting *sitting)
{
  VivaServerStore *store = viva_server_api_get_store (self->api);
  VivaServerDefenses *defenses = viva_server_api_get_defenses (self->api);
  VivaExamHandIn *hand_in = viva_exam_sitting_get_hand_in (sitting);
  const char *exam_id = viva_exam_file_get_id (viva_exam_sitting_get_exam (sitting));
  const char *student_id = viva_exam_sitting_get_student_id (sitting);
  g_autoptr(GError) error = NULL;
  char *problem_id, *code;

  if (!viva_server_store_hand_in (store, exam_id, student_id, &error))
    {
      g_warning ("time-up of %s/%s: %s", exam_id, student_id, error->message);
      return;
    }
  if (defenses == NULL)
    return;

  viva_server_defenses_time_up (defenses, exam_id, student_id);

  while (viva_exam_hand_in_take_next (hand_in, &problem_id, &code))
    {
      g_autofree char *id = NULL;

      if (!viva_server_defenses_is_running (defenses, exam_id, student_id, problem_id) &&
          !(id = viva_server_defenses_start (defenses, exam_id, student_id, problem_id, code, TRUE, &error)))
        {
          g_warning ("time-up of %s/%s, %s: %s", exam_id, student_id, problem_id, error->message);
          g_clear_error (&error);
        }
      g_free (problem_id);
      g_free (code);
    }
}

static void
time_up_cb (VivaExamSitting *sitting,
            VivaServerClock *self)
{
  hand_in (self, sitting);
}

/* What the student's code was, told to the hand-in again, oldest first. */
static void
tell_code (VivaExamSitting *sitting,
           const char      *problem_id,
           const char      *kind,
           const char      *code)
{
  VivaExamHandIn *hand_in = viva_exam_sitting_get_hand_in (sitting);
  VivaExamFile *exam = viva_exam_sitting_get_exam (sitting);
  VivaProblem *problem = viva_pack_find_problem (viva_exam_file_get_pack (exam), problem_id);

  if (problem == NULL)
    return;

  if (g_str_equal (kind, "run"))
    viva_exam_hand_in_code_run (hand_in, problem_id, code);
  else
    viva_exam_hand_in_code_seen (hand_in, problem_id, code,
                                 !viva_text_is_blank (code) &&
                                 g_strcmp0 (code, viva_problem_get_starter_code (problem)) != 0);
}

static VivaExamSitting *
load (VivaServerClock  *self,
      const char       *exam_id,
      const char       *student_id,
      GError          **error)
{
  VivaServerStore *store = viva_server_api_get_store (self->api);
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(JsonObject) student = NULL;
  g_autoptr(JsonArray) history = NULL;
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(GDateTime) started = NULL;
  g_autoptr(GError) local = NULL;
  VivaExamSitting *sitting;
  VivaExamFile *exam;
  Keeping *keeping;
  const char *text;

  if (!(exam = viva_server_api_get_exam (self->api, exam_id, error)))
    return NULL;
  if (!(row = viva_server_store_get_sitting (store, exam_id, student_id, &local)) ||
      !(student = viva_server_store_get_student (store, exam_id, student_id, &local)) ||
      !(history = viva_server_store_code_history (store, exam_id, student_id, &local)))
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     _("This student has no sitting yet: sign in first."));
      return NULL;
    }

  keeping = g_new0 (Keeping, 1);
  keeping->self = self;
  keeping->exam_id = g_strdup (exam_id);
  keeping->student_id = g_strdup (student_id);
  sitting = viva_exam_sitting_new_kept (exam, keep_cb, keeping, (GDestroyNotify)keeping_free);

  for (guint i = 0; i < json_array_get_length (history); i++)
    {
      JsonObject *saved = json_array_get_object_element (history, i);

      tell_code (sitting, json_object_get_string_member (saved, "problem_id"),
                 json_object_get_string_member (saved, "kind"), json_object_get_string_member (saved, "code"));
    }

  if ((text = json_object_get_string_member_with_default (row, "state_json", NULL)))
    state = json_from_string (text, NULL);
  if (!viva_exam_sitting_restore_state (sitting, state))
    {
      /* Signed in before the sitting kept its state: begun at its first
       * sign-in. */
      gint64 ms = json_object_get_int_member (row, "started_at");
      g_autoptr(GDateTime) second = g_date_time_new_from_unix_utc (ms / 1000);

      started = g_date_time_add (second, (ms % 1000) * G_TIME_SPAN_MILLISECOND);
      viva_exam_sitting_begin (sitting, json_object_get_string_member (student, "name"), student_id, started);
    }

  g_signal_connect_object (sitting, "time-up", G_CALLBACK (time_up_cb), self, 0);
  g_hash_table_insert (self->sittings, key_of (exam_id, student_id), sitting);
  return sitting;
}

/**
 * viva_server_clock_get_sitting:
 *
 * The student's sitting, read from the database the first time (begun at
 * the first sign-in, which made its row). Reading it never hands it in:
 * viva_server_clock_restore_all() and its clock do.
 *
 * Returns: (transfer none) (nullable): the sitting, or %NULL with @error
 *   set
 */
VivaExamSitting *
viva_server_clock_get_sitting (VivaServerClock  *self,
                               const char       *exam_id,
                               const char       *student_id,
                               GError          **error)
{
  g_autofree char *key = key_of (exam_id, student_id);
  VivaExamSitting *sitting;

  g_return_val_if_fail (VIVA_IS_SERVER_CLOCK (self), NULL);

  if ((sitting = g_hash_table_lookup (self->sittings, key)))
    return sitting;
  return load (self, exam_id, student_id, error);
}

/**
 * viva_server_clock_restore_all:
 *
 * At the start, after the defenses continued: takes back every sitting
 * not handed in, and hands in those whose time passed while the server
 * was down.
 *
 * Returns: how many sittings were handed in
 */
guint
viva_server_clock_restore_all (VivaServerClock  *self,
                               GError          **error)
{
  g_autoptr(JsonArray) open = NULL;
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_SERVER_CLOCK (self), 0);

  if (!(open = viva_server_store_list_open_sittings (viva_server_api_get_store (self->api), error)))
    return 0;

  for (guint i = 0; i < json_array_get_length (open); i++)
    {
      JsonObject *row = json_array_get_object_element (open, i);
      const char *exam_id = json_object_get_string_member (row, "exam_id");
      const char *student_id = json_object_get_string_member (row, "student_id");
      g_autoptr(GError) local = NULL;
      VivaExamSitting *sitting;

      if (!(sitting = viva_server_clock_get_sitting (self, exam_id, student_id, &local)))
        g_warning ("sitting %s/%s could not continue: %s", exam_id, student_id, local->message);
      else if (viva_exam_sitting_get_time_up (sitting))
        {
          hand_in (self, sitting);
          n++;
        }
    }
  return n;
}

static VivaExamHandIn *
loaded_hand_in (VivaServerClock *self,
                const char      *exam_id,
                const char      *student_id)
{
  g_autofree char *key = key_of (exam_id, student_id);
  VivaExamSitting *sitting = g_hash_table_lookup (self->sittings, key);

  return sitting ? viva_exam_sitting_get_hand_in (sitting) : NULL;
}

/**
 * viva_server_clock_code_saved:
 * @kind: `autosave`, `run` or `submit`, as the snapshot was kept
 *
 * The student's code as the server now holds it: what the time hands in.
 */
void
viva_server_clock_code_saved (VivaServerClock *self,
                              const char      *exam_id,
                              const char      *student_id,
                              const char      *problem_id,
                              const char      *kind,
                              const char      *code)
{
  g_autoptr(GError) error = NULL;
  VivaExamSitting *sitting;

  g_return_if_fail (VIVA_IS_SERVER_CLOCK (self));

  if (!(sitting = viva_server_clock_get_sitting (self, exam_id, student_id, &error)))
    g_warning ("sitting %s/%s: %s", exam_id, student_id, error->message);
  else
    tell_code (sitting, problem_id, kind, code);
}

void
viva_server_clock_defense_started (VivaServerClock *self,
                                   const char      *exam_id,
                                   const char      *student_id,
                                   const char      *problem_id)
{
  VivaExamHandIn *hand_in;

  g_return_if_fail (VIVA_IS_SERVER_CLOCK (self));

  if ((hand_in = loaded_hand_in (self, exam_id, student_id)))
    viva_exam_hand_in_set_defending (hand_in, problem_id);
}

/**
 * viva_server_clock_defense_ended:
 * @reported: whether it reached a verdict
 *
 * Told before the defense's end is committed, so that a defended problem
 * is in the sitting's kept state before its defense is off the list of
 * those a restart continues.
 */
void
viva_server_clock_defense_ended (VivaServerClock *self,
                                 const char      *exam_id,
                                 const char      *student_id,
                                 const char      *problem_id,
                                 gboolean         reported)
{
  VivaExamHandIn *hand_in;

  g_return_if_fail (VIVA_IS_SERVER_CLOCK (self));

  if ((hand_in = loaded_hand_in (self, exam_id, student_id)))
    viva_exam_hand_in_defense_ended (hand_in, problem_id, reported);
}

static void
viva_server_clock_finalize (GObject *object)
{
  VivaServerClock *self = (VivaServerClock *)object;

  g_clear_pointer (&self->sittings, g_hash_table_unref);

  G_OBJECT_CLASS (viva_server_clock_parent_class)->finalize (object);
}

static void
viva_server_clock_class_init (VivaServerClockClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_server_clock_finalize;
}

static void
viva_server_clock_init (VivaServerClock *self)
{
  self->sittings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

VivaServerClock *
viva_server_clock_new (VivaServerApi *api)
{
  VivaServerClock *self = g_object_new (VIVA_TYPE_SERVER_CLOCK, NULL);

  self->api = api;
  return self;
}
