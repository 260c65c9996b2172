/* viva-eval-card.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "viva-eval-card.h"
#include "viva-json-member.h"

/* The examiner report card: the scripted defenses of one evaluation and
 * the figures they add up to (data/eval/README.md says how each is
 * counted). Its JSON is the `report` event of `viva-cli eval` and the file
 * Preferences keeps per endpoint and model. */

struct _VivaEvalCard
{
  GObject       parent_instance;
  char         *base_url;
  char         *model;
  char         *corpus_id;
  GDateTime    *created;
  gboolean      short_card;
  guint         repeat;
  VivaEvalStop  stop;
  char         *stop_message;
  GPtrArray    *results;
};

G_DEFINE_FINAL_TYPE (VivaEvalCard, viva_eval_card, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (VivaEvalResult, viva_eval_result, viva_eval_result_copy, viva_eval_result_free)

static const char *stop_names[] = { NULL, "no-tools", "server-failed", "cancelled", "engine-failed" };

const char *
viva_eval_stop_to_string (VivaEvalStop stop)
{
  return stop < G_N_ELEMENTS (stop_names) ? stop_names[stop] : NULL;
}

/* Results. */

/**
 * viva_eval_result_new:
 *
 * Returns: (transfer full): a result for @eval_case, not run yet
 */
VivaEvalResult *
viva_eval_result_new (const VivaEvalCase *eval_case,
                      guint               run)
{
  VivaEvalResult *self = g_new0 (VivaEvalResult, 1);

  self->case_id = g_strdup (eval_case->id);
  self->problem_id = g_strdup (eval_case->problem_id);
  self->kind = eval_case->kind;
  self->run = run;
  self->status = g_strdup ("not-run");
  self->score = -1;
  self->expect_pass = eval_case->expect_pass;
  self->score_checked = eval_case->score_min >= 0;
  self->injection = eval_case->injection_marker != NULL;

  return self;
}

VivaEvalResult *
viva_eval_result_copy (const VivaEvalResult *self)
{
  VivaEvalResult *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->case_id = g_strdup (self->case_id);
  copy->problem_id = g_strdup (self->problem_id);
  copy->status = g_strdup (self->status);
  copy->verdict = g_strdup (self->verdict);
  copy->comment = g_strdup (self->comment);
  copy->error = g_strdup (self->error);

  return copy;
}

void
viva_eval_result_free (VivaEvalResult *self)
{
  if (self == NULL)
    return;

  g_free (self->case_id);
  g_free (self->problem_id);
  g_free (self->status);
  g_free (self->verdict);
  g_free (self->comment);
  g_free (self->error);
  g_free (self);
}

/**
 * viva_eval_result_was_run:
 *
 * Returns: whether the defense ran to an end the card can count (finished
 *   or incomplete); failed and not-run ones are left out of the rates
 */
gboolean
viva_eval_result_was_run (const VivaEvalResult *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return g_strcmp0 (self->status, "finished") == 0 || g_strcmp0 (self->status, "incomplete") == 0;
}

static void
set_nullable_string (JsonObject *object,
                     const char *member,
                     const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}

JsonNode *
viva_eval_result_to_json (const VivaEvalResult *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (object, "case", self->case_id);
  json_object_set_string_member (object, "problem", self->problem_id);
  json_object_set_string_member (object, "kind", viva_eval_kind_to_string (self->kind));
  json_object_set_int_member (object, "run", self->run + 1);
  json_object_set_string_member (object, "status", self->status);
  json_object_set_string_member (object, "expected", self->expect_pass ? "pass" : "fail");
  set_nullable_string (object, "verdict", self->verdict);
  if (self->score >= 0)
    json_object_set_int_member (object, "score", self->score);
  else
    json_object_set_null_member (object, "score");
  json_object_set_boolean_member (object, "agrees", self->agrees);
  if (self->score_checked)
    json_object_set_boolean_member (object, "score_in_range", self->score_in_range);
  else
    json_object_set_null_member (object, "score_in_range");
  json_object_set_boolean_member (object, "injection", self->injection);
  json_object_set_boolean_member (object, "injection_obeyed", self->injection_obeyed);
  json_object_set_int_member (object, "leaks", self->leaks);
  json_object_set_int_member (object, "withheld", self->withheld);
  json_object_set_int_member (object, "refused", self->refused);
  json_object_set_int_member (object, "reminders", self->reminders);
  json_object_set_int_member (object, "recovered", self->recovered);
  json_object_set_int_member (object, "turns", self->turns);
  json_object_set_int_member (object, "tool_calls", self->tool_calls);
  json_object_set_int_member (object, "prompt_tokens", self->prompt_tokens);
  json_object_set_int_member (object, "completion_tokens", self->completion_tokens);
  json_object_set_double_member (object, "seconds", round (self->seconds * 1000.0) / 1000.0);
  json_object_set_int_member (object, "conceptual_items", self->conceptual);
  json_object_set_int_member (object, "uncertain_items", self->uncertain);
  set_nullable_string (object, "comment", self->comment);
  set_nullable_string (object, "error", self->error);

  json_node_take_object (node, g_steal_pointer (&object));
  return node;
}

static VivaEvalResult *
result_from_json (JsonObject *object)
{
  VivaEvalResult *self = g_new0 (VivaEvalResult, 1);
  const char *kind = viva_json_member_string (object, "kind");
  JsonNode *in_range = json_object_get_member (object, "score_in_range");
  JsonNode *score = json_object_get_member (object, "score");

  self->case_id = g_strdup (viva_json_member_string (object, "case"));
  self->problem_id = g_strdup (viva_json_member_string (object, "problem"));
  self->kind = g_strcmp0 (kind, "wrong") == 0 ? VIVA_EVAL_KIND_WRONG
             : g_strcmp0 (kind, "cheat") == 0 ? VIVA_EVAL_KIND_CHEAT : VIVA_EVAL_KIND_CORRECT;
  self->run = MAX (json_object_get_int_member_with_default (object, "run", 1), 1) - 1;
  self->status = g_strdup (viva_json_member_string (object, "status") ? viva_json_member_string (object, "status") : "not-run");
  self->verdict = g_strdup (viva_json_member_string (object, "verdict"));
  self->score = score != NULL && JSON_NODE_HOLDS_VALUE (score) ? json_node_get_int (score) : -1;
  self->expect_pass = g_strcmp0 (viva_json_member_string (object, "expected"), "pass") == 0;
  self->agrees = json_object_get_boolean_member_with_default (object, "agrees", FALSE);
  self->score_checked = in_range != NULL && JSON_NODE_HOLDS_VALUE (in_range);
  self->score_in_range = self->score_checked && json_node_get_boolean (in_range);
  self->injection = json_object_get_boolean_member_with_default (object, "injection", FALSE);
  self->injection_obeyed = json_object_get_boolean_member_with_default (object, "injection_obeyed", FALSE);
  self->leaks = json_object_get_int_member_with_default (object, "leaks", 0);
  self->withheld = json_object_get_int_member_with_default (object, "withheld", 0);
  self->refused = json_object_get_int_member_with_default (object, "refused", 0);
  self->reminders = json_object_get_int_member_with_default (object, "reminders", 0);
  self->recovered = json_object_get_int_member_with_default (object, "recovered", 0);
  self->turns = json_object_get_int_member_with_default (object, "turns", 0);
  self->tool_calls = json_object_get_int_member_with_default (object, "tool_calls", 0);
  self->prompt_tokens = json_object_get_int_member_with_default (object, "prompt_tokens", 0);
  self->completion_tokens = json_object_get_int_member_with_default (object, "completion_tokens", 0);
  self->seconds = json_object_get_double_member_with_default (object, "seconds", 0);
  /* A stored card is the teacher's file, but bounded all the same. */
  self->conceptual = CLAMP (json_object_get_int_member_with_default (object, "conceptual_items", 0), 0, 10000);
  self->uncertain = CLAMP (json_object_get_int_member_with_default (object, "uncertain_items", 0), 0, self->conceptual);
  self->comment = g_strdup (viva_json_member_string (object, "comment"));
  self->error = g_strdup (viva_json_member_string (object, "error"));

  return self;
}

/* The card. */

static void
viva_eval_card_finalize (GObject *object)
{
  VivaEvalCard *self = (VivaEvalCard *)object;

  g_free (self->base_url);
  g_free (self->model);
  g_free (self->corpus_id);
  g_clear_pointer (&self->created, g_date_time_unref);
  g_free (self->stop_message);
  g_ptr_array_unref (self->results);

  G_OBJECT_CLASS (viva_eval_card_parent_class)->finalize (object);
}

static void
viva_eval_card_class_init (VivaEvalCardClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_eval_card_finalize;
}

static void
viva_eval_card_init (VivaEvalCard *self)
{
  self->results = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_eval_result_free);
  self->repeat = 1;
}

/**
 * viva_eval_card_new:
 *
 * Returns: (transfer full): an empty card, dated now
 */
VivaEvalCard *
viva_eval_card_new (const char *base_url,
                    const char *model,
                    const char *corpus_id,
                    gboolean    short_card,
                    guint       repeat)
{
  VivaEvalCard *self = g_object_new (VIVA_TYPE_EVAL_CARD, NULL);

  self->base_url = g_strdup (base_url);
  self->model = g_strdup (model);
  self->corpus_id = g_strdup (corpus_id);
  self->created = g_date_time_new_now_utc ();
  self->short_card = short_card;
  self->repeat = MAX (repeat, 1);

  return self;
}

/**
 * viva_eval_card_new_from_json:
 *
 * Returns: (transfer full): the card viva_eval_card_to_json() wrote, or
 *   %NULL with @error set
 */
VivaEvalCard *
viva_eval_card_new_from_json (JsonNode  *node,
                              GError   **error)
{
  g_autoptr(VivaEvalCard) self = NULL;
  JsonObject *object;
  JsonNode *cases;
  const char *stop;
  const char *created;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (node), "format", NULL),
                 "viva-eval-card/1") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("This is not a report card Viva can read; check the model again to make a new one."));
      return NULL;
    }
  object = json_node_get_object (node);

  self = viva_eval_card_new (viva_json_member_string (object, "base_url"), viva_json_member_string (object, "model"),
                             viva_json_member_string (object, "corpus"),
                             json_object_get_boolean_member_with_default (object, "short", FALSE),
                             json_object_get_int_member_with_default (object, "repeat", 1));
  if ((created = viva_json_member_string (object, "created")) != NULL)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_iso8601 (created, NULL);

      if (when != NULL)
        {
          g_date_time_unref (self->created);
          self->created = g_steal_pointer (&when);
        }
    }

  stop = viva_json_member_string (object, "stopped");
  for (guint i = 1; stop != NULL && i < G_N_ELEMENTS (stop_names); i++)
    if (g_str_equal (stop, stop_names[i]))
      self->stop = i;
  self->stop_message = g_strdup (viva_json_member_string (object, "stop_message"));

  cases = json_object_get_member (object, "cases");
  if (cases != NULL && JSON_NODE_HOLDS_ARRAY (cases))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (cases)); i++)
      {
        JsonNode *element = json_array_get_element (json_node_get_array (cases), i);

        if (JSON_NODE_HOLDS_OBJECT (element))
          g_ptr_array_add (self->results, result_from_json (json_node_get_object (element)));
      }

  return g_steal_pointer (&self);
}

void
viva_eval_card_add_result (VivaEvalCard         *self,
                           const VivaEvalResult *result)
{
  g_return_if_fail (VIVA_IS_EVAL_CARD (self));
  g_return_if_fail (result != NULL);

  g_ptr_array_add (self->results, viva_eval_result_copy (result));
}

void
viva_eval_card_set_stop (VivaEvalCard *self,
                         VivaEvalStop  stop,
                         const char   *message)
{
  g_return_if_fail (VIVA_IS_EVAL_CARD (self));

  self->stop = stop;
  g_free (self->stop_message);
  self->stop_message = g_strdup (message);
}

const char *
viva_eval_card_get_base_url (VivaEvalCard *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NULL);
  return self->base_url;
}

const char *
viva_eval_card_get_model (VivaEvalCard *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NULL);
  return self->model;
}

GDateTime *
viva_eval_card_get_created (VivaEvalCard *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NULL);
  return self->created;
}

gboolean
viva_eval_card_get_short (VivaEvalCard *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), FALSE);
  return self->short_card;
}

guint
viva_eval_card_get_repeat (VivaEvalCard *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), 1);
  return self->repeat;
}

VivaEvalStop
viva_eval_card_get_stop (VivaEvalCard *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), VIVA_EVAL_STOP_NONE);
  return self->stop;
}

const char *
viva_eval_card_get_stop_message (VivaEvalCard *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NULL);
  return self->stop_message;
}

guint
viva_eval_card_get_n_results (VivaEvalCard *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), 0);
  return self->results->len;
}

const VivaEvalResult *
viva_eval_card_get_result (VivaEvalCard *self,
                           guint         index)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NULL);
  g_return_val_if_fail (index < self->results->len, NULL);
  return g_ptr_array_index (self->results, index);
}

#define FOR_RUN(self, r) \
  for (guint _i = 0; _i < (self)->results->len; _i++) \
    for (const VivaEvalResult *r = g_ptr_array_index ((self)->results, _i); \
         r != NULL && viva_eval_result_was_run (r); r = NULL)

guint
viva_eval_card_get_n_run (VivaEvalCard *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), 0);

  FOR_RUN (self, r)
    n++;
  return n;
}

static double
share (guint part,
       guint whole)
{
  return whole > 0 ? (double)part / whole : NAN;
}

/**
 * viva_eval_card_get_agreement:
 *
 * Returns: the share of defenses run whose verdict was the expected one,
 *   NAN when none ran (and likewise for the other rates)
 */
double
viva_eval_card_get_agreement (VivaEvalCard *self)
{
  guint n = 0, agree = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NAN);

  FOR_RUN (self, r)
    {
      n++;
      agree += r->agrees;
    }
  return share (agree, n);
}

double
viva_eval_card_get_false_pass_rate (VivaEvalCard *self)
{
  guint n = 0, passed = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NAN);

  FOR_RUN (self, r)
    if (r->kind != VIVA_EVAL_KIND_CORRECT)
      {
        n++;
        passed += g_strcmp0 (r->verdict, "pass") == 0;
      }
  return share (passed, n);
}

double
viva_eval_card_get_false_fail_rate (VivaEvalCard *self)
{
  guint n = 0, failed = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NAN);

  FOR_RUN (self, r)
    if (r->kind == VIVA_EVAL_KIND_CORRECT && r->expect_pass)
      {
        n++;
        failed += g_strcmp0 (r->verdict, "pass") != 0;
      }
  return share (failed, n);
}

double
viva_eval_card_get_injection_obeyed_rate (VivaEvalCard *self)
{
  guint n = 0, obeyed = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NAN);

  FOR_RUN (self, r)
    if (r->injection)
      {
        n++;
        obeyed += r->injection_obeyed;
      }
  return share (obeyed, n);
}

static double
get_score_in_range (VivaEvalCard *self)
{
  guint n = 0, in_range = 0;

  FOR_RUN (self, r)
    if (r->score_checked)
      {
        n++;
        in_range += r->score_in_range;
      }
  return share (in_range, n);
}

/**
 * viva_eval_card_get_uncertain_share:
 *
 * Returns: of the conceptual items in the defenses that ran, the share the
 *   model marked uncertain (its k scorings spread, so a teacher should
 *   look); NAN when no defense had a conceptual item
 */
double
viva_eval_card_get_uncertain_share (VivaEvalCard *self)
{
  guint n = 0, uncertain = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NAN);

  FOR_RUN (self, r)
    {
      n += r->conceptual;
      uncertain += r->uncertain;
    }
  return share (uncertain, n);
}

/* Leaks count wherever the examiner spoke, also in a defense that failed
 * later: the student saw them. */
guint
viva_eval_card_get_leaks (VivaEvalCard *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), 0);

  for (guint i = 0; i < self->results->len; i++)
    n += ((VivaEvalResult *)g_ptr_array_index (self->results, i))->leaks;
  return n;
}

guint
viva_eval_card_get_withheld (VivaEvalCard *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), 0);

  for (guint i = 0; i < self->results->len; i++)
    n += ((VivaEvalResult *)g_ptr_array_index (self->results, i))->withheld;
  return n;
}

/**
 * viva_eval_card_get_consistency:
 *
 * Returns: among cases run more than once, the share whose verdict was the
 *   same every time; NAN when no case ran twice
 */
double
viva_eval_card_get_consistency (VivaEvalCard *self)
{
  g_autoptr(GHashTable) first = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) counted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) differ = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NAN);

  FOR_RUN (self, r)
    {
      const VivaEvalResult *seen = g_hash_table_lookup (first, r->case_id);

      if (seen == NULL)
        {
          g_hash_table_insert (first, r->case_id, (gpointer)r);
          continue;
        }
      if (g_hash_table_add (counted, r->case_id))
        n++;
      if (g_strcmp0 (seen->verdict, r->verdict) != 0)
        g_hash_table_add (differ, r->case_id);
    }

  return share (n - g_hash_table_size (differ), n);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

double
viva_eval_card_get_median_seconds (VivaEvalCard *self)
{
  g_autoptr(GArray) seconds = g_array_new (FALSE, FALSE, sizeof (double));

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NAN);

  FOR_RUN (self, r)
    g_array_append_val (seconds, r->seconds);
  if (seconds->len == 0)
    return NAN;

  g_array_sort (seconds, compare_doubles);
  if (seconds->len % 2 == 1)
    return g_array_index (seconds, double, seconds->len / 2);
  return (g_array_index (seconds, double, seconds->len / 2 - 1) +
          g_array_index (seconds, double, seconds->len / 2)) / 2.0;
}

static void
set_rate (JsonObject *object,
          const char *member,
          double      value,
          double      scale)
{
  if (isnan (value))
    json_object_set_null_member (object, member);
  else
    json_object_set_double_member (object, member, round (value * scale) / scale);
}

/**
 * viva_eval_card_to_json:
 *
 * Returns: (transfer full): the card, format `viva-eval-card/1`
 */
JsonNode *
viva_eval_card_to_json (VivaEvalCard *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) protocol = json_object_new ();
  g_autoptr(JsonArray) cases = json_array_new ();
  g_autofree char *created = NULL;
  guint n_run = 0, refused = 0, reminders = 0, recovered = 0, turns = 0;
  gint64 prompt = 0, completion = 0;
  JsonNode *node;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NULL);

  FOR_RUN (self, r)
    {
      n_run++;
      refused += r->refused;
      reminders += r->reminders;
      recovered += r->recovered;
      turns += r->turns;
      prompt += r->prompt_tokens;
      completion += r->completion_tokens;
    }

  created = g_date_time_format_iso8601 (self->created);
  json_object_set_string_member (object, "format", "viva-eval-card/1");
  set_nullable_string (object, "model", self->model);
  set_nullable_string (object, "base_url", self->base_url);
  set_nullable_string (object, "corpus", self->corpus_id);
  json_object_set_string_member (object, "created", created);
  json_object_set_boolean_member (object, "short", self->short_card);
  json_object_set_int_member (object, "repeat", self->repeat);
  json_object_set_int_member (object, "cases_total", self->results->len);
  json_object_set_int_member (object, "cases_run", n_run);
  json_object_set_int_member (object, "cases_not_run", self->results->len - n_run);
  set_nullable_string (object, "stopped", viva_eval_stop_to_string (self->stop));
  set_nullable_string (object, "stop_message", self->stop_message);
  set_rate (object, "agreement", viva_eval_card_get_agreement (self), 1e4);
  set_rate (object, "false_pass_rate", viva_eval_card_get_false_pass_rate (self), 1e4);
  set_rate (object, "false_fail_rate", viva_eval_card_get_false_fail_rate (self), 1e4);
  set_rate (object, "injection_obeyed_rate", viva_eval_card_get_injection_obeyed_rate (self), 1e4);
  json_object_set_int_member (object, "leaks", viva_eval_card_get_leaks (self));
  json_object_set_int_member (object, "leaks_withheld", viva_eval_card_get_withheld (self));
  set_rate (object, "score_in_range", get_score_in_range (self), 1e4);
  set_rate (object, "consistency", viva_eval_card_get_consistency (self), 1e4);
  set_rate (object, "uncertain_share", viva_eval_card_get_uncertain_share (self), 1e4);
  set_rate (object, "median_defense_s", viva_eval_card_get_median_seconds (self), 1e3);
  set_rate (object, "mean_prompt_tokens", n_run ? (double)prompt / n_run : NAN, 1);
  set_rate (object, "mean_completion_tokens", n_run ? (double)completion / n_run : NAN, 1);
  json_object_set_int_member (protocol, "refused", refused);
  json_object_set_int_member (protocol, "reminders", reminders);
  json_object_set_int_member (protocol, "recovered_tool_calls", recovered);
  set_rate (protocol, "turns_per_defense", n_run ? (double)turns / n_run : NAN, 100);
  json_object_set_object_member (object, "protocol", g_steal_pointer (&protocol));

  for (guint i = 0; i < self->results->len; i++)
    json_array_add_element (cases, viva_eval_result_to_json (g_ptr_array_index (self->results, i)));
  json_object_set_array_member (object, "cases", g_steal_pointer (&cases));

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, g_steal_pointer (&object));
  return node;
}
