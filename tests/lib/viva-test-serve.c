/* viva-test-serve.c: the scripted server as a process of its own, for the
 * GUI tests that start one (viva-gui-server, viva-eval-server): it says
 * where it listens and serves until told to stop.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib-unix.h>
#include <stdio.h>
#include <unistd.h>

#include "viva-test-server.h"

/* Both sources stay until the loop has returned, then go together. */
static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

static gboolean
stdin_cb (int          fd,
          GIOCondition condition,
          gpointer     user_data)
{
  char buffer[256];

  if (read (fd, buffer, sizeof buffer) <= 0)
    g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

/**
 * viva_test_server_serve_until_stdin_closes:
 *
 * Prints the server's base URL (with /v1) on the first line of standard
 * output, then serves until SIGTERM or until standard input closes, so a
 * test that started this process cannot leave it behind.
 */
void
viva_test_server_serve_until_stdin_closes (VivaTestServer *self)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autofree char *base_url = viva_test_server_get_base_url (self);
  guint signal_id;
  guint stdin_id;

  printf ("%s\n", base_url);
  fflush (stdout);

  signal_id = g_unix_signal_add (SIGTERM, quit_cb, loop);
  stdin_id = g_unix_fd_add (0, G_IO_IN | G_IO_HUP, stdin_cb, loop);
  g_main_loop_run (loop);
  g_clear_handle_id (&signal_id, g_source_remove);
  g_clear_handle_id (&stdin_id, g_source_remove);
}
