/* viva-rehearsal-figures.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "viva-rehearsal-private.h"

/* What a rehearsal measured, summed up: the failures by reason, and the
 * percentiles of first words, turns and defenses the lab reads. */

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;

  return x < y ? -1 : x > y;
}

/* Nearest rank; 0 for no values. */
static double
percentile (GArray *values,
            double  p)
{
  g_autoptr(GArray) sorted = NULL;
  guint rank;

  if (values->len == 0)
    return 0;

  sorted = g_array_copy (values);
  g_array_sort (sorted, compare_doubles);
  rank = (guint)ceil (p * sorted->len);
  return g_array_index (sorted, double, CLAMP (rank, 1, sorted->len) - 1);
}

/* The median and the 95th percentile of @values times @scale, with @decimals. */
JsonObject *
_viva_rehearsal_percentiles (GArray *values,
                             double  scale,
                             guint   decimals)
{
  JsonObject *object = json_object_new ();
  double factor = pow (10, decimals);

  json_object_set_double_member (object, "p50", round (percentile (values, 0.50) * scale * factor) / factor);
  json_object_set_double_member (object, "p95", round (percentile (values, 0.95) * scale * factor) / factor);
  return object;
}

double
_viva_rehearsal_rounded (double value,
                         guint  decimals)
{
  double factor = pow (10, decimals);

  return round (value * factor) / factor;
}

/* One more defense failed for @reason; the same reasons are counted together. */
void
_viva_rehearsal_count_failure (VivaRehearsal *self,
                               const char    *reason,
                               const char    *kind)
{
  Failure *failure;

  for (guint i = 0; i < self->failures->len; i++)
    {
      failure = g_ptr_array_index (self->failures, i);
      if (g_str_equal (failure->reason, reason))
        {
          failure->count++;
          return;
        }
    }

  failure = g_new0 (Failure, 1);
  failure->reason = g_strdup (reason);
  failure->kind = g_strdup (kind);
  failure->count = 1;
  g_ptr_array_add (self->failures, failure);
}

/* Returns: (transfer full): the figures, as the CLI's `rehearsal` event has them */
JsonObject *
_viva_rehearsal_summary (VivaRehearsal *self,
                         gboolean       interrupted)
{
  JsonObject *object = json_object_new ();
  JsonArray *failures = json_array_new ();
  double wall = self->started > 0 ? (g_get_monotonic_time () - self->started) / (double)G_USEC_PER_SEC : 0;

  json_object_set_string_member (object, "base_url", self->base_url);
  json_object_set_string_member (object, "model", self->model);
  json_object_set_int_member (object, "students", self->n_students);
  json_object_set_int_member (object, "defenses", self->n_defenses);
  json_object_set_int_member (object, "completed", self->n_completed);
  json_object_set_int_member (object, "failed", self->n_failed);
  json_object_set_int_member (object, "cancelled", self->n_cancelled);
  json_object_set_boolean_member (object, "interrupted", interrupted);
  json_object_set_boolean_member (object, "held", !interrupted && self->n_failed == 0 && self->n_completed > 0);
  json_object_set_object_member (object, "ttft_ms", _viva_rehearsal_percentiles (self->ttft_ms, 1, 0));
  json_object_set_object_member (object, "turn_ms", _viva_rehearsal_percentiles (self->turn_ms, 1, 0));
  json_object_set_object_member (object, "defense_s", _viva_rehearsal_percentiles (self->defense_s, 1, 1));
  json_object_set_int_member (object, "turns", self->turns);
  json_object_set_int_member (object, "tokens", self->tokens);
  json_object_set_double_member (object, "tokens_per_s", wall > 0 ? _viva_rehearsal_rounded (self->tokens / wall, 1) : 0);
  json_object_set_int_member (object, "retries", self->retries);
  json_object_set_int_member (object, "largest_prompt_tokens", self->largest_prompt);
  json_object_set_int_member (object, "workers", g_hash_table_size (self->runners));
  json_object_set_double_member (object, "duration_s", _viva_rehearsal_rounded (wall, 1));

  for (guint i = 0; i < self->failures->len; i++)
    {
      Failure *failure = g_ptr_array_index (self->failures, i);
      JsonObject *item = json_object_new ();

      json_object_set_string_member (item, "reason", failure->reason);
      json_object_set_string_member (item, "kind", failure->kind);
      json_object_set_int_member (item, "count", failure->count);
      json_array_add_object_element (failures, item);
    }
  json_object_set_array_member (object, "failures", failures);

  return object;
}
