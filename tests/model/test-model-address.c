/* test-model-address.c: an endpoint as a person types it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-address.h"
#include "viva-model-error.h"
#include "viva-openai-model.h"

/* A host on this computer or the local network gets http://. */
static void
test_completed (void)
{
  static const char * const cases[][2] = {
    { "localhost:11434/v1", "http://localhost:11434/v1" },
    { "127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1" },
    { "192.168.1.20:8000/v1", "http://192.168.1.20:8000/v1" },
    { "10.0.0.5/v1", "http://10.0.0.5/v1" },
    { "172.20.1.1:11434/v1", "http://172.20.1.1:11434/v1" },
    { "gpu-box:8000/v1", "http://gpu-box:8000/v1" },
    { "ollama.local:11434/v1", "http://ollama.local:11434/v1" },
    { "[::1]:11434/v1", "http://[::1]:11434/v1" },
    { "http://localhost:11434/v1", "http://localhost:11434/v1" },
    { "https://api.openai.com/v1", "https://api.openai.com/v1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *url = viva_model_address_complete (cases[i][0], &error);

      g_assert_no_error (error);
      g_assert_cmpstr (url, ==, cases[i][1]);
    }
}

/* Anything else says what is wrong, and never where to change it. */
static void
test_refused (void)
{
  static const char * const cases[][2] = {
    { "api.openai.com/v1", "https://api.openai.com/v1" },
    { "8.8.8.8:80/v1", "https://8.8.8.8:80/v1" },
    { "ftp://models.example.com/v1", "http://localhost:11434/v1" },
    { "http://", "http://localhost:11434/v1" },
    { "not an address", "http://localhost:11434/v1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *url = viva_model_address_complete (cases[i][0], &error);

      g_assert_null (url);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_ADDRESS);
      g_assert_nonnull (strstr (error->message, cases[i][0]));
      g_assert_nonnull (strstr (error->message, cases[i][1]));
      g_assert_null (strstr (error->message, "Preferences"));
      g_assert_cmpstr (viva_model_error_kind (error), ==, "address");
    }
}

/* The model takes "localhost:11434/v1" as what it means. */
static void
test_model (void)
{
  g_autoptr(VivaOpenAIModel) model = viva_openai_model_new ("localhost:11434/v1/");
  g_autoptr(VivaOpenAIModel) remote = viva_openai_model_new ("api.example.com/v1");

  g_assert_cmpstr (viva_openai_model_get_base_url (model), ==, "http://localhost:11434/v1");
  g_assert_cmpstr (viva_openai_model_get_base_url (remote), ==, "api.example.com/v1");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/model/address/completed", test_completed);
  g_test_add_func ("/viva/model/address/refused", test_refused);
  g_test_add_func ("/viva/model/address/model", test_model);

  return g_test_run ();
}
