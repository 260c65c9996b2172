/* viva-run-result-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "viva-run-result-json.h"
#include "viva-run-result-private.h"
#include "viva-runner.h"
#include "viva-worker-frame-private.h"

/* A run's result as data, for a run made on another machine (an exam
 * server's grading pool): everything a tool, the console or a report
 * reads of it. Read back, it is as hostile as a worker's frame, since a
 * machine that ran student code wrote it: strict types and known members
 * only, every text made visible as the runner shows a worker's and bounded
 * (the output as the runner bounds a local run's, with its notice), the
 * figures checked as plots are, and the summary written again here, in
 * this machine's words, from the facts (the sender's is never shown). Not
 * carried: the failing frame's variables and a `call`'s value, which only
 * this PC's console and grader read. Thread-safe: no state. */

/* A local run's output may pass its limit by the worker's slack before it
 * is cut, and then holds the runner's notice. */
#define READ_OUTPUT_LIMIT   (VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT + 2 * 65536)
#define MAX_ERROR_TYPE      256
#define MAX_ERROR_MESSAGE   (16 * 1024)
#define MAX_TRACEBACK       (64 * 1024)
#define MAX_SUMMARY         (4 * 1024)
#define MAX_DURATION_MS     1e9

static const char * const run_members[] = {
  "status", "duration_ms", "stdout", "stderr", "output_truncated", "state_reset",
  "error", "traceback", "summary", "signal", "images", "images_dropped", NULL
};
static const char * const error_members[] = { "type", "message", "line", "column", NULL };

/**
 * viva_run_result_to_json:
 *
 * `{"status", "duration_ms", "stdout", "stderr", "output_truncated",
 * "state_reset"}`, and when there is one `"error": {"type", "message",
 * "line", "column"}`, `"traceback"`, `"summary"`, `"signal"`, `"images"`
 * (base64 PNG, the first ones within VIVA_RUN_RESULT_JSON_MAX_IMAGES and
 * its sizes) and `"images_dropped"` (how many were left out).
 *
 * Returns: (transfer full): @self as data
 */
JsonObject *
viva_run_result_to_json (VivaRunResult *self)
{
  JsonObject *object;
  g_autoptr(JsonArray) images = json_array_new ();
  gsize image_bytes = 0;
  guint dropped = 0;

  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "status", viva_run_status_to_string (self->status));
  json_object_set_double_member (object, "duration_ms", self->duration_ms);
  json_object_set_string_member (object, "stdout", self->stdout_text);
  json_object_set_string_member (object, "stderr", self->stderr_text);
  json_object_set_boolean_member (object, "output_truncated", self->output_truncated);
  json_object_set_boolean_member (object, "state_reset", self->state_reset);

  if (self->error_type != NULL || self->error_message != NULL ||
      self->error_line != 0 || self->error_column != 0)
    {
      JsonObject *error = json_object_new ();

      if (self->error_type != NULL)
        json_object_set_string_member (error, "type", self->error_type);
      if (self->error_message != NULL)
        json_object_set_string_member (error, "message", self->error_message);
      json_object_set_int_member (error, "line", self->error_line);
      json_object_set_int_member (error, "column", self->error_column);
      json_object_set_object_member (object, "error", error);
    }

  if (self->traceback != NULL)
    json_object_set_string_member (object, "traceback", self->traceback);
  if (self->summary != NULL)
    json_object_set_string_member (object, "summary", self->summary);
  if (self->signal > 0)
    json_object_set_int_member (object, "signal", self->signal);

  for (guint i = 0; i < self->images->len; i++)
    {
      GBytes *png = g_ptr_array_index (self->images, i);
      gsize size = g_bytes_get_size (png);
      g_autofree char *base64 = NULL;

      if (json_array_get_length (images) >= VIVA_RUN_RESULT_JSON_MAX_IMAGES ||
          size > VIVA_RUN_RESULT_JSON_MAX_IMAGE_BYTES ||
          image_bytes + size > VIVA_RUN_RESULT_JSON_MAX_IMAGES_BYTES)
        {
          dropped++;
          continue;
        }

      image_bytes += size;
      base64 = g_base64_encode (g_bytes_get_data (png, NULL), size);
      json_array_add_string_element (images, base64);
    }
  if (json_array_get_length (images) > 0)
    json_object_set_array_member (object, "images", g_steal_pointer (&images));
  if (dropped > 0)
    json_object_set_int_member (object, "images_dropped", dropped);

  return object;
}

/**
 * viva_run_text_make_visible:
 * @text: text from another machine's run
 * @max_bytes: how long it may be, in bytes
 *
 * As the runner shows what a worker wrote: NUL and control characters as
 * their pictures, cut to at most @max_bytes (never inside a character)
 * with an ellipsis when longer.
 *
 * Returns: (transfer full): valid UTF-8, at most @max_bytes and the
 *   ellipsis long
 */
char *
viva_run_text_make_visible (const char *text,
                            gsize       max_bytes)
{
  g_autofree char *visible = NULL;
  const char *end;
  gsize length;

  g_return_val_if_fail (text != NULL, NULL);

  visible = _viva_worker_text_make_visible (text, strlen (text));
  if ((length = strlen (visible)) <= max_bytes)
    return g_steal_pointer (&visible);

  /* Back to the start of the character that crosses the bound. */
  end = visible + max_bytes;
  while (end > visible && ((guchar)*end & 0xc0) == 0x80)
    end--;

  visible[end - visible] = '\0';
  return g_strconcat (visible, "…", NULL);
}

static gboolean
fail_form (const char  *member,
           GError     **error)
{
  /* Translators: %s names a part of the run's data, such as “stdout” */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("A run came back from another machine with its “%s” not in the form Viva writes; run the code again."),
               member);
  return FALSE;
}

static gboolean
only_known (JsonObject          *object,
            const char * const  *known,
            GError             **error)
{
  g_autoptr(GList) names = json_object_get_members (object);

  for (const GList *l = names; l != NULL; l = l->next)
    if (!g_strv_contains (known, l->data))
      {
        /* Not named: the name is the sender's text. */
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             _("A run came back from another machine with data Viva does not know; run the code again."));
        return FALSE;
      }

  return TRUE;
}

static gboolean
holds (JsonNode *node,
       GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

/* @member's text, visible and bounded; absent is %NULL when not required. */
static gboolean
read_text (JsonObject  *object,
           const char  *member,
           gboolean     required,
           gsize        max_bytes,
           char       **text,
           GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *text = NULL;
  if (node == NULL && !required)
    return TRUE;
  if (!holds (node, G_TYPE_STRING))
    return fail_form (member, error);

  *text = viva_run_text_make_visible (json_node_get_string (node), max_bytes);
  return TRUE;
}

static gboolean
read_int (JsonObject  *object,
          const char  *member,
          gint64       max,
          int         *value,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *value = 0;
  if (node == NULL)
    return TRUE;
  if (!holds (node, G_TYPE_INT64) || json_node_get_int (node) < 0 || json_node_get_int (node) > max)
    return fail_form (member, error);

  *value = (int)json_node_get_int (node);
  return TRUE;
}

static gboolean
read_boolean (JsonObject  *object,
              const char  *member,
              gboolean    *value,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (!holds (node, G_TYPE_BOOLEAN))
    return fail_form (member, error);

  *value = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
read_duration (JsonObject  *object,
               double      *value,
               GError     **error)
{
  JsonNode *node = json_object_get_member (object, "duration_ms");

  if (holds (node, G_TYPE_INT64))
    *value = json_node_get_int (node);
  else if (holds (node, G_TYPE_DOUBLE))
    *value = json_node_get_double (node);
  else
    return fail_form ("duration_ms", error);

  if (!isfinite (*value) || *value < 0 || *value > MAX_DURATION_MS)
    return fail_form ("duration_ms", error);

  return TRUE;
}

static gboolean
read_status (JsonObject     *object,
             VivaRunStatus  *status,
             GError        **error)
{
  JsonNode *node = json_object_get_member (object, "status");
  const char *text;

  if (!holds (node, G_TYPE_STRING))
    return fail_form ("status", error);

  text = json_node_get_string (node);
  for (VivaRunStatus s = VIVA_RUN_STATUS_OK; s <= VIVA_RUN_STATUS_CRASHED; s++)
    if (g_str_equal (text, viva_run_status_to_string (s)))
      {
        *status = s;
        return TRUE;
      }

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("A run came back from another machine with a status Viva does not know; run the code again."));
  return FALSE;
}

static gboolean
read_output (VivaRunResult  *result,
             JsonObject     *object,
             GError        **error)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gsize out_length, err_length;

  if (!read_text (object, "stdout", TRUE, G_MAXSIZE, &out, error) ||
      !read_text (object, "stderr", TRUE, G_MAXSIZE, &err, error))
    return FALSE;

  out_length = strlen (out);
  err_length = strlen (err);
  if (out_length + err_length > READ_OUTPUT_LIMIT)
    {
      g_autofree char *size = g_format_size (VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT);
      g_autofree char *notice = NULL;
      char *cut;

      /* The runner's own notice: what the student sees of a local run. */
      notice = g_strdup_printf (_("\n[Output truncated: the program printed more than %s. The rest was dropped; the program went on running.]\n"),
                                size);
      cut = viva_run_text_make_visible (out, MIN (out_length, VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT));
      g_free (out);
      out = g_strconcat (cut, notice, NULL);
      g_free (cut);

      cut = viva_run_text_make_visible (err, VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT - MIN (out_length, VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT));
      g_free (err);
      err = cut;
      result->output_truncated = TRUE;
    }

  g_free (result->stdout_text);
  result->stdout_text = g_steal_pointer (&out);
  g_free (result->stderr_text);
  result->stderr_text = g_steal_pointer (&err);
  return TRUE;
}

static gboolean
read_error (VivaRunResult  *result,
            JsonObject     *object,
            GError        **error)
{
  JsonNode *node = json_object_get_member (object, "error");
  JsonObject *failure;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail_form ("error", error);

  failure = json_node_get_object (node);
  return only_known (failure, error_members, error) &&
         read_text (failure, "type", FALSE, MAX_ERROR_TYPE, &result->error_type, error) &&
         read_text (failure, "message", FALSE, MAX_ERROR_MESSAGE, &result->error_message, error) &&
         read_int (failure, "line", G_MAXINT, &result->error_line, error) &&
         read_int (failure, "column", G_MAXINT, &result->error_column, error);
}

static gboolean
read_images (VivaRunResult  *result,
             JsonObject     *object,
             GError        **error)
{
  JsonNode *node = json_object_get_member (object, "images");
  JsonArray *array;
  gsize total = 0;
  int dropped;

  if (!read_int (object, "images_dropped", 1000, &dropped, error))
    return FALSE;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (array = json_node_get_array (node)) > VIVA_RUN_RESULT_JSON_MAX_IMAGES)
    return fail_form ("images", error);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autoptr(GBytes) png = NULL;
      g_autofree char *why = NULL;

      /* Measured before anything decodes it, then checked as a plot is. */
      if (!holds (element, G_TYPE_STRING) ||
          strlen (json_node_get_string (element)) / 4 * 3 > VIVA_RUN_RESULT_JSON_MAX_IMAGE_BYTES ||
          !(png = _viva_worker_image_check (json_node_get_string (element), &why)) ||
          (total += g_bytes_get_size (png)) > VIVA_RUN_RESULT_JSON_MAX_IMAGES_BYTES)
        return fail_form ("images", error);

      g_ptr_array_add (result->images, g_steal_pointer (&png));
    }

  return TRUE;
}

/**
 * viva_run_result_new_from_json:
 * @object: what viva_run_result_to_json() wrote, from another machine
 * @timeout_ms: the run's time limit, for the summary of a timeout
 *
 * Reads a run's result back as hostile input (see the top of this file). A
 * run that was killed or crashed always lost its variables.
 *
 * Returns: (transfer full): the result, or %NULL with @error
 */
VivaRunResult *
viva_run_result_new_from_json (JsonObject  *object,
                               guint        timeout_ms,
                               GError     **error)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autofree char *summary = NULL;
  VivaRunStatus status;

  g_return_val_if_fail (object != NULL, NULL);

  if (!only_known (object, run_members, error) || !read_status (object, &status, error))
    return NULL;

  /* The sender's summary is its words, in its language: only its form is
   * checked, and this machine writes its own from the facts. */
  result = _viva_run_result_new (status);
  if (!read_duration (object, &result->duration_ms, error) ||
      !read_boolean (object, "output_truncated", &result->output_truncated, error) ||
      !read_boolean (object, "state_reset", &result->state_reset, error) ||
      !read_output (result, object, error) ||
      !read_error (result, object, error) ||
      !read_text (object, "traceback", FALSE, MAX_TRACEBACK, &result->traceback, error) ||
      !read_text (object, "summary", FALSE, MAX_SUMMARY, &summary, error) ||
      !read_int (object, "signal", 128, &result->signal, error) ||
      !read_images (result, object, error))
    return NULL;

  if (status == VIVA_RUN_STATUS_KILLED || status == VIVA_RUN_STATUS_CRASHED)
    result->state_reset = TRUE;
  _viva_run_result_describe (result, timeout_ms);

  return g_steal_pointer (&result);
}
