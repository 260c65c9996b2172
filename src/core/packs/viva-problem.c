/* viva-problem.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-pack-private.h"

struct _VivaProblem
{
  GObject          parent_instance;
  char            *id;
  char            *title;
  char            *description;
  char            *starter_code;
  char            *hint;
  char            *reference;
  char            *rubric;
  GArray          *tests;      /* VivaProblemTest */
  GArray          *questions;  /* VivaProblemQuestion */
  JsonObject      *source;     /* as read, for the keys we do not know */
  VivaProblemType  type;
  guint            time_limit;
  guint            pass_threshold;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_STARTER_CODE,
  PROP_HINT,
  PROP_REFERENCE,
  PROP_RUBRIC,
  PROP_TIME_LIMIT,
  PROP_PASS_THRESHOLD,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaProblem, viva_problem, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static const char * const type_names[] = { "implement", "debug", "explain" };

const char *
viva_problem_type_to_string (VivaProblemType type)
{
  g_return_val_if_fail (type <= VIVA_PROBLEM_EXPLAIN, NULL);

  return type_names[type];
}

gboolean
viva_problem_type_from_string (const char      *str,
                               VivaProblemType *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    {
      if (g_strcmp0 (str, type_names[i]) == 0)
        {
          if (type != NULL)
            *type = i;
          return TRUE;
        }
    }

  return FALSE;
}

static void
clear_test (gpointer data)
{
  VivaProblemTest *test = data;

  g_clear_pointer (&test->name, g_free);
  g_clear_pointer (&test->code, g_free);
  g_clear_pointer (&test->setup, g_free);
  g_clear_pointer (&test->call, g_free);
  g_clear_pointer (&test->check, g_free);
}

static void
clear_question (gpointer data)
{
  VivaProblemQuestion *question = data;

  g_clear_pointer (&question->question, g_free);
  g_clear_pointer (&question->points, g_strfreev);
}

static gboolean
set_string (char       **field,
            const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;

  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static void
viva_problem_finalize (GObject *object)
{
  VivaProblem *self = (VivaProblem *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->starter_code, g_free);
  g_clear_pointer (&self->hint, g_free);
  g_clear_pointer (&self->reference, g_free);
  g_clear_pointer (&self->rubric, g_free);
  g_clear_pointer (&self->tests, g_array_unref);
  g_clear_pointer (&self->questions, g_array_unref);
  g_clear_pointer (&self->source, json_object_unref);

  G_OBJECT_CLASS (viva_problem_parent_class)->finalize (object);
}

static void
viva_problem_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  VivaProblem *self = VIVA_PROBLEM (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_STARTER_CODE:
      g_value_set_string (value, self->starter_code);
      break;

    case PROP_HINT:
      g_value_set_string (value, self->hint);
      break;

    case PROP_REFERENCE:
      g_value_set_string (value, self->reference);
      break;

    case PROP_RUBRIC:
      g_value_set_string (value, self->rubric);
      break;

    case PROP_TIME_LIMIT:
      g_value_set_uint (value, self->time_limit);
      break;

    case PROP_PASS_THRESHOLD:
      g_value_set_uint (value, self->pass_threshold);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_problem_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  VivaProblem *self = VIVA_PROBLEM (object);

  switch (prop_id)
    {
    case PROP_ID:
      self->id = g_value_dup_string (value);
      break;

    case PROP_TITLE:
      viva_problem_set_title (self, g_value_get_string (value));
      break;

    case PROP_DESCRIPTION:
      viva_problem_set_description (self, g_value_get_string (value));
      break;

    case PROP_STARTER_CODE:
      viva_problem_set_starter_code (self, g_value_get_string (value));
      break;

    case PROP_HINT:
      viva_problem_set_hint (self, g_value_get_string (value));
      break;

    case PROP_REFERENCE:
      viva_problem_set_reference (self, g_value_get_string (value));
      break;

    case PROP_RUBRIC:
      viva_problem_set_rubric (self, g_value_get_string (value));
      break;

    case PROP_TIME_LIMIT:
      viva_problem_set_time_limit (self, g_value_get_uint (value));
      break;

    case PROP_PASS_THRESHOLD:
      viva_problem_set_pass_threshold (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_problem_class_init (VivaProblemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = viva_problem_finalize;
  object_class->get_property = viva_problem_get_property;
  object_class->set_property = viva_problem_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, flags);
  properties[PROP_STARTER_CODE] = g_param_spec_string ("starter-code", NULL, NULL, NULL, flags);
  properties[PROP_HINT] = g_param_spec_string ("hint", NULL, NULL, NULL, flags);
  properties[PROP_REFERENCE] = g_param_spec_string ("reference", NULL, NULL, NULL, flags);
  properties[PROP_RUBRIC] = g_param_spec_string ("rubric", NULL, NULL, NULL, flags);
  properties[PROP_TIME_LIMIT] = g_param_spec_uint ("time-limit", NULL, NULL, 0, G_MAXUINT, 0, flags);
  /* How many hidden tests must pass; 0 for all of them. */
  properties[PROP_PASS_THRESHOLD] = g_param_spec_uint ("pass-threshold", NULL, NULL, 0, G_MAXUINT, 0, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_problem_init (VivaProblem *self)
{
  self->tests = g_array_new (FALSE, TRUE, sizeof (VivaProblemTest));
  g_array_set_clear_func (self->tests, clear_test);
  self->questions = g_array_new (FALSE, TRUE, sizeof (VivaProblemQuestion));
  g_array_set_clear_func (self->questions, clear_question);
}

/**
 * viva_problem_new:
 *
 * Returns: (transfer full): an empty problem
 */
VivaProblem *
viva_problem_new (const char *id,
                  const char *title)
{
  return g_object_new (VIVA_TYPE_PROBLEM, "id", id, "title", title, NULL);
}

const char *
viva_problem_get_id (VivaProblem *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), NULL);

  return self->id;
}

#define DEFINE_STRING_ACCESSORS(field, PROP)                                  \
const char *                                                                  \
viva_problem_get_##field (VivaProblem *self)                                  \
{                                                                             \
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), NULL);                        \
  return self->field;                                                         \
}                                                                             \
                                                                              \
void                                                                          \
viva_problem_set_##field (VivaProblem *self,                                  \
                          const char  *value)                                 \
{                                                                             \
  g_return_if_fail (VIVA_IS_PROBLEM (self));                                  \
  if (set_string (&self->field, value))                                       \
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP]);             \
}

DEFINE_STRING_ACCESSORS (title, PROP_TITLE)
DEFINE_STRING_ACCESSORS (description, PROP_DESCRIPTION)
DEFINE_STRING_ACCESSORS (starter_code, PROP_STARTER_CODE)
DEFINE_STRING_ACCESSORS (hint, PROP_HINT)
DEFINE_STRING_ACCESSORS (reference, PROP_REFERENCE)
DEFINE_STRING_ACCESSORS (rubric, PROP_RUBRIC)

#undef DEFINE_STRING_ACCESSORS

VivaProblemType
viva_problem_get_problem_type (VivaProblem *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), 0);

  return self->type;
}

void
viva_problem_set_problem_type (VivaProblem     *self,
                               VivaProblemType  type)
{
  g_return_if_fail (VIVA_IS_PROBLEM (self));

  self->type = type;
}

guint
viva_problem_get_time_limit (VivaProblem *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), 0);

  return self->time_limit;
}

void
viva_problem_set_time_limit (VivaProblem *self,
                             guint        minutes)
{
  g_return_if_fail (VIVA_IS_PROBLEM (self));

  if (self->time_limit == minutes)
    return;

  self->time_limit = minutes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_LIMIT]);
}

guint
viva_problem_get_pass_threshold (VivaProblem *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), 0);

  return self->pass_threshold;
}

/**
 * viva_problem_set_pass_threshold:
 * @n_tests: how many hidden tests must pass, 0 for all of them
 */
void
viva_problem_set_pass_threshold (VivaProblem *self,
                                 guint        n_tests)
{
  g_return_if_fail (VIVA_IS_PROBLEM (self));

  if (self->pass_threshold == n_tests)
    return;

  self->pass_threshold = n_tests;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PASS_THRESHOLD]);
}

guint
viva_problem_get_n_tests (VivaProblem *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), 0);

  return self->tests->len;
}

const VivaProblemTest *
viva_problem_get_test (VivaProblem *self,
                       guint        index)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), NULL);
  g_return_val_if_fail (index < self->tests->len, NULL);

  return &g_array_index (self->tests, VivaProblemTest, index);
}

void
viva_problem_add_test (VivaProblem *self,
                       const char  *name,
                       const char  *code)
{
  VivaProblemTest test;

  g_return_if_fail (VIVA_IS_PROBLEM (self));

  memset (&test, 0, sizeof test);
  test.name = g_strdup (name);
  test.code = g_strdup (code);
  g_array_append_val (self->tests, test);
}

/**
 * viva_problem_test_is_structured:
 *
 * Returns: whether @test is judged by the grader outside the student's
 *   process (it has a call), rather than run inside it
 */
gboolean
viva_problem_test_is_structured (const VivaProblemTest *test)
{
  g_return_val_if_fail (test != NULL, FALSE);

  return test->call != NULL;
}

/* The in-process equivalent of a structured test, for the examiner's own
 * probes: the same setup, call and check, run after the student's code. */
static char *
structured_code (const char *setup,
                 const char *call,
                 const char *check)
{
  GString *code = g_string_new (NULL);

  if (setup != NULL && setup[0] != '\0')
    g_string_append_printf (code, "%s%s", setup, g_str_has_suffix (setup, "\n") ? "" : "\n");
  g_string_append_printf (code, "result = (%s)\n", call);
  if (check != NULL && check[0] != '\0')
    g_string_append_printf (code, "%s%s", check, g_str_has_suffix (check, "\n") ? "" : "\n");
  return g_string_free (code, FALSE);
}

/**
 * viva_problem_add_structured_test:
 * @setup: (nullable): trusted code that builds the inputs
 * @call: the expression evaluated in the student's process
 * @check: (nullable): assertions on `result`, run in the grader
 * @compare: whether `result` must also equal the reference's value
 * @tolerance: for @compare, the absolute tolerance for numbers
 */
void
viva_problem_add_structured_test (VivaProblem *self,
                                  const char  *name,
                                  const char  *setup,
                                  const char  *call,
                                  const char  *check,
                                  gboolean     compare,
                                  double       tolerance)
{
  VivaProblemTest test;

  g_return_if_fail (VIVA_IS_PROBLEM (self));
  g_return_if_fail (call != NULL);

  memset (&test, 0, sizeof test);
  test.name = g_strdup (name);
  test.setup = g_strdup (setup ? setup : "");
  test.call = g_strdup (call);
  test.check = g_strdup (check ? check : "");
  test.compare = compare;
  test.tolerance = tolerance;
  test.code = structured_code (setup, call, check);
  g_array_append_val (self->tests, test);
}

/**
 * viva_problem_add_test_copy:
 *
 * Appends a copy of @test, structured or not (for editors copying a problem).
 */
void
viva_problem_add_test_copy (VivaProblem           *self,
                            const VivaProblemTest *test)
{
  g_return_if_fail (VIVA_IS_PROBLEM (self));
  g_return_if_fail (test != NULL);

  if (viva_problem_test_is_structured (test))
    viva_problem_add_structured_test (self, test->name, test->setup, test->call, test->check,
                                      test->compare, test->tolerance);
  else
    viva_problem_add_test (self, test->name, test->code);
  viva_problem_set_test_shown (self, self->tests->len - 1, test->shown);
}

/**
 * viva_problem_test_is_shown:
 *
 * Returns: whether @test is an example the student may see and the examiner
 *   may run on the student's code. Every other test is held out: only its
 *   name and its pass/fail may leave the grader.
 */
gboolean
viva_problem_test_is_shown (const VivaProblemTest *test)
{
  g_return_val_if_fail (test != NULL, FALSE);

  return test->shown;
}

/**
 * viva_problem_set_test_shown:
 * @shown: whether the test at @index is shown; tests are held out until
 *   said otherwise, so a pack that says nothing keeps them all secret
 */
void
viva_problem_set_test_shown (VivaProblem *self,
                             guint        index,
                             gboolean     shown)
{
  g_return_if_fail (VIVA_IS_PROBLEM (self));
  g_return_if_fail (index < self->tests->len);

  g_array_index (self->tests, VivaProblemTest, index).shown = !!shown;
}

guint
viva_problem_get_n_shown_tests (VivaProblem *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_PROBLEM (self), 0);

  for (guint i = 0; i < self->tests->len; i++)
    n += g_array_index (self->tests, VivaProblemTest, i).shown ? 1 : 0;
  return n;
}

static GPtrArray *
tests_shown (VivaProblem *self,
             gboolean     shown)
{
  GPtrArray *tests = g_ptr_array_new ();

  for (guint i = 0; i < self->tests->len; i++)
    {
      VivaProblemTest *test = &g_array_index (self->tests, VivaProblemTest, i);

      if (!test->shown == !shown)
        g_ptr_array_add (tests, test);
    }
  return tests;
}

/**
 * viva_problem_get_shown_tests:
 *
 * Returns: (transfer container) (element-type VivaProblemTest): the tests
 *   a student may see, in the pack's order; they stay owned by @self
 */
GPtrArray *
viva_problem_get_shown_tests (VivaProblem *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), NULL);

  return tests_shown (self, TRUE);
}

/**
 * viva_problem_get_held_out_tests:
 *
 * Returns: (transfer container) (element-type VivaProblemTest): the tests
 *   of which only the name and pass/fail may leave the grader
 */
GPtrArray *
viva_problem_get_held_out_tests (VivaProblem *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), NULL);

  return tests_shown (self, FALSE);
}

/**
 * viva_problem_get_n_in_process_tests:
 *
 * Returns: how many tests are of the old kind, run inside the student's
 *   process, so a grade says they were not judged outside it
 */
guint
viva_problem_get_n_in_process_tests (VivaProblem *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_PROBLEM (self), 0);

  for (guint i = 0; i < self->tests->len; i++)
    n += viva_problem_test_is_structured (&g_array_index (self->tests, VivaProblemTest, i)) ? 0 : 1;
  return n;
}

guint
viva_problem_get_n_questions (VivaProblem *self)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), 0);

  return self->questions->len;
}

const VivaProblemQuestion *
viva_problem_get_question (VivaProblem *self,
                           guint        index)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (self), NULL);
  g_return_val_if_fail (index < self->questions->len, NULL);

  return &g_array_index (self->questions, VivaProblemQuestion, index);
}

void
viva_problem_add_question (VivaProblem        *self,
                           const char         *question,
                           const char * const *points)
{
  VivaProblemQuestion q;

  g_return_if_fail (VIVA_IS_PROBLEM (self));

  q.question = g_strdup (question);
  q.points = g_strdupv ((char **)points);
  g_array_append_val (self->questions, q);
}

/**
 * viva_problem_clear_tests:
 *
 * Removes every test, for an editor that adds them back in its own order.
 */
void
viva_problem_clear_tests (VivaProblem *self)
{
  g_return_if_fail (VIVA_IS_PROBLEM (self));

  g_array_set_size (self->tests, 0);
}

/**
 * viva_problem_clear_questions:
 *
 * Removes every question, for an editor that adds them back in its own order.
 */
void
viva_problem_clear_questions (VivaProblem *self)
{
  g_return_if_fail (VIVA_IS_PROBLEM (self));

  g_array_set_size (self->questions, 0);
}

JsonObject *
_viva_problem_get_source (VivaProblem *self)
{
  g_assert (VIVA_IS_PROBLEM (self));

  return self->source;
}

void
_viva_problem_set_source (VivaProblem *self,
                          JsonObject  *source)
{
  g_assert (VIVA_IS_PROBLEM (self));

  if (source != NULL)
    json_object_ref (source);
  g_clear_pointer (&self->source, json_object_unref);
  self->source = source;
}
