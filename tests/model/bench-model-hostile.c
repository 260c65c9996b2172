/* bench-model-hostile.c: what a hostile model server costs viva-cli chat,
 * in peak memory and CPU: one 400 MiB line, an endless stream, endless
 * keep-alive comments, 20,000 tool calls, a 48 KiB reply in 4-byte deltas.
 * Each case is one viva-cli ($VIVA_CLI, so an older build can be measured
 * side by side) against the scripted server of this process, its own
 * rusage read with wait4(); a run still going after $VIVA_BENCH_WALL_S
 * seconds (default 30) is killed and said so. Figures go to
 * tests/bench/RESULTS.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "viva-test-server.h"

typedef struct
{
  GPid          pid;
  gboolean      exited;
  int           status;
  struct rusage usage;
} Child;

static gboolean
poll_child_cb (gpointer user_data)
{
  Child *child = user_data;

  if (wait4 (child->pid, &child->status, WNOHANG, &child->usage) == child->pid)
    {
      child->exited = TRUE;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
measure (const char       *name,
         VivaTestWire      wire,
         VivaTestResponse *response)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  const char *cli = g_getenv ("VIVA_CLI");
  const char *argv[] = { cli, "chat", "--base-url", base_url, "--model", "m", "--json", "Examine my code.", NULL };
  const char *wall_text = g_getenv ("VIVA_BENCH_WALL_S");
  gint64 wall_limit = (wall_text != NULL ? g_ascii_strtoll (wall_text, NULL, 10) : 30) * G_USEC_PER_SEC;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  Child child = { 0 };
  gint64 started;
  gboolean killed = FALSE;
  guint poll_id;
  int devnull;

  viva_test_server_serve_wire (server, wire);
  viva_test_server_queue (server, "POST", viva_test_wire_get_chat_path (wire), response);
  viva_test_response_unref (response);

  env = g_environ_setenv (env, "VIVA_SECRETS", "memory", TRUE);
  env = g_environ_setenv (env, "GSETTINGS_BACKEND", "memory", TRUE);
  devnull = g_open ("/dev/null", O_WRONLY, 0);
  g_assert_cmpint (devnull, >=, 0);
  g_spawn_async_with_fds (NULL, (char **)argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                          &child.pid, -1, devnull, devnull, &error);
  g_assert_no_error (error);
  close (devnull);

  started = g_get_monotonic_time ();
  poll_id = g_timeout_add (20, poll_child_cb, &child);
  while (!child.exited)
    {
      g_main_context_iteration (NULL, TRUE);
      if (!killed && g_get_monotonic_time () - started > wall_limit)
        {
          kill (child.pid, SIGKILL);
          killed = TRUE;
        }
    }
  if (!child.exited)
    g_source_remove (poll_id);

  printf ("%-28s %-14s peak RSS %8ld KiB  CPU %7.2f s  wall %6.2f s  server sent %8" G_GUINT64_FORMAT " KiB  %s\n",
          name, wire == VIVA_TEST_WIRE_OLLAMA_NATIVE ? "ollama-native" : "openai-sse",
          child.usage.ru_maxrss,
          child.usage.ru_utime.tv_sec + child.usage.ru_stime.tv_sec +
          (child.usage.ru_utime.tv_usec + child.usage.ru_stime.tv_usec) / 1e6,
          (g_get_monotonic_time () - started) / 1e6,
          viva_test_server_get_bytes_sent (server) / 1024,
          killed ? "KILLED (still going)" :
          WIFEXITED (child.status) ? (WEXITSTATUS (child.status) == 0 ? "exit 0" : "exit 1") : "died");
  fflush (stdout);
  g_spawn_close_pid (child.pid);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaTestResponse) small = NULL;

  g_assert_nonnull (g_getenv ("VIVA_CLI"));
  printf ("# viva-cli %s\n", g_getenv ("VIVA_CLI"));

  measure ("400 MiB line", VIVA_TEST_WIRE_VLLM, viva_test_response_new_hostile (VIVA_TEST_HOSTILE_HUGE_LINE, VIVA_TEST_WIRE_VLLM));
  measure ("endless stream", VIVA_TEST_WIRE_LLAMA_CPP, viva_test_response_new_hostile (VIVA_TEST_HOSTILE_ENDLESS, VIVA_TEST_WIRE_LLAMA_CPP));
  measure ("endless keep-alive", VIVA_TEST_WIRE_OPENAI, viva_test_response_new_hostile (VIVA_TEST_HOSTILE_KEEP_ALIVE, VIVA_TEST_WIRE_OPENAI));
  measure ("20,000 tool calls", VIVA_TEST_WIRE_VLLM, viva_test_response_new_hostile (VIVA_TEST_HOSTILE_TOOL_CALLS, VIVA_TEST_WIRE_VLLM));
  measure ("20,000 tool calls", VIVA_TEST_WIRE_OLLAMA_NATIVE, viva_test_response_new_hostile (VIVA_TEST_HOSTILE_TOOL_CALLS, VIVA_TEST_WIRE_OLLAMA_NATIVE));

  /* 48 KiB in 4-byte deltas: an honest reply, which must stay cheap. */
  small = viva_test_response_new_repeat (200, "text/event-stream", "",
                                         "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"abcd\"},\"finish_reason\":null}]}\n\n",
                                         12 * 1024, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
  measure ("48 KiB in 4-byte deltas", VIVA_TEST_WIRE_VLLM, viva_test_response_ref (small));

  return 0;
}
