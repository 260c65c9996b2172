/* viva-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-test-util.h"

/* A notify handler that counts into the guint at its user data. */
void
viva_test_count_notify (GObject    *object,
                        GParamSpec *pspec,
                        guint      *count)
{
  (*count)++;
}

/**
 * viva_test_assert_notify:
 * @value: a value different from the property's current one
 *
 * Sets @property to @value and asserts exactly one notification, then sets
 * it again and asserts none, and that it reads back as @value.
 */
void
viva_test_assert_notify (gpointer      object,
                         const char   *property,
                         const GValue *value)
{
  g_autofree char *signal = g_strconcat ("notify::", property, NULL);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), property);
  g_auto(GValue) read = G_VALUE_INIT;
  guint count = 0;
  gulong id;

  g_assert_nonnull (pspec);
  g_assert_true (pspec->flags & G_PARAM_EXPLICIT_NOTIFY);

  id = g_signal_connect (object, signal, G_CALLBACK (viva_test_count_notify), &count);
  g_object_set_property (object, property, value);
  g_assert_cmpuint (count, ==, 1);
  g_object_set_property (object, property, value);
  g_assert_cmpuint (count, ==, 1);
  g_signal_handler_disconnect (object, id);

  g_value_init (&read, G_VALUE_TYPE (value));
  g_object_get_property (object, property, &read);
  g_assert_cmpint (g_param_values_cmp (pspec, value, &read), ==, 0);
}

/**
 * viva_test_assert_finalize_soon:
 * @object: (transfer full): the last reference
 *
 * Drops the reference and asserts @object is finalized within a second:
 * a GTask run in a thread may drop its reference on the source object a
 * moment after its callback ran, so finalization is awaited, briefly.
 */
void
viva_test_assert_finalize_soon (gpointer object)
{
  gpointer weak = object;
  gint64 deadline = g_get_monotonic_time () + G_USEC_PER_SEC;

  g_object_add_weak_pointer (G_OBJECT (object), &weak);
  g_object_unref (object);

  while (weak != NULL && g_get_monotonic_time () < deadline)
    {
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }

  if (weak != NULL)
    g_error ("%s was not finalized", G_OBJECT_TYPE_NAME (weak));
}

/* Iterates the default main context until *@flag is set. */
void
viva_test_run_until (gboolean *flag)
{
  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
}

/* Iterates until *@result is set by a GAsyncReadyCallback that stores it
 * (g_object_ref'd); returns it. */
gpointer
viva_test_run_until_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

/**
 * viva_test_store_result:
 * @user_data: a `GAsyncResult **`, %NULL until the call completes
 *
 * The callback of an async call a test waits on with
 * viva_test_run_until_result(): it keeps a reference to the result.
 */
void
viva_test_store_result (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

/**
 * viva_test_remove_tree:
 * @path: a file or a folder a test made
 *
 * Removes @path and everything below it; a link is removed, never followed.
 */
void
viva_test_remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          viva_test_remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}
