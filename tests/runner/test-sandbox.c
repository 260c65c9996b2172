/* test-sandbox.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Hostile code against the real worker in its real sandbox (bubblewrap):
 * one case per way out that a student could try. Each asserts what the
 * student or the teacher would notice: the attempt fails, the console says
 * why in a sentence, and the next run works. */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "viva-run-result-private.h"
#include "viva-runner.h"
#include "viva-settings.h"
#include "viva-test-runner.h"
#include "viva-test-util.h"

typedef VivaTestRunner Fixture;

/* Each case here counts the plots of one run. */
static VivaRunResult *
run (Fixture    *fixture,
     const char *code,
     guint       timeout_ms)
{
  g_ptr_array_set_size (fixture->images, 0);
  return viva_test_runner_run (fixture, code, timeout_ms);
}

/* The worker answers again after whatever came before. */
static void
assert_responsive (Fixture *fixture)
{
  g_autoptr(VivaRunResult) result = run (fixture, "print(6 * 7)", 0);

  viva_test_assert_run_ok (result);
  g_assert_cmpstr (fixture->out->str, ==, "42\n");
}

static gboolean
require_bubblewrap (Fixture *fixture)
{
  g_autoptr(VivaRunResult) result = NULL;

  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("inside Flatpak the worker is not under bubblewrap");
      return FALSE;
    }

  result = run (fixture, "pass", 0);
  viva_test_assert_run_ok (result);
  if (viva_runner_get_sandbox (fixture->runner) == VIVA_RUNNER_SANDBOX_BUBBLEWRAP)
    return TRUE;

  g_test_skip (viva_runner_get_sandbox_message (fixture->runner));
  return FALSE;
}

/* No process to take over: the worker is alone in its pid namespace (no
 * bubblewrap init as pid 1), and ptrace, process_vm_readv, pidfd_open and
 * pidfd_getfd fail on every pid it can name. */
static void
test_ptrace (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;

  if (!require_bubblewrap (fixture))
    return;

  result = run (fixture,
                "import ctypes, os\n"
                "libc = ctypes.CDLL(None, use_errno=True)\n"
                "pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
                "print('visible', pids == [os.getpid()], os.getpid())\n"
                "class iovec(ctypes.Structure):\n"
                "    _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]\n"
                "buf = ctypes.create_string_buffer(64)\n"
                "local = iovec(ctypes.cast(buf, ctypes.c_void_p), 64)\n"
                "remote = iovec(0x400000, 64)\n"
                "calls = {\n"
                "  'attach': lambda pid: libc.ptrace(16, pid, 0, 0),\n"
                "  'seize': lambda pid: libc.ptrace(0x4206, pid, 0, 0),\n"
                "  'vm_readv': lambda pid: libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0),\n"
                "  'vm_writev': lambda pid: libc.process_vm_writev(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0),\n"
                "  'pidfd_open': lambda pid: libc.syscall(434, pid, 0),\n"
                "  'pidfd_getfd': lambda pid: libc.syscall(438, 0, 3, 0),\n"
                "}\n"
                "for pid in sorted(set(pids + [1, 2])):\n"
                "    for name, call in calls.items():\n"
                "        ctypes.set_errno(0)\n"
                "        r = call(pid)\n"
                "        print(name, pid, r, os.strerror(ctypes.get_errno()) if r < 0 else 'ALLOWED')\n",
                10000);
  viva_test_assert_run_ok (result);
  /* The worker is pid 1 itself. */
  g_assert_true (g_str_has_prefix (fixture->out->str, "visible True 1\n"));
  g_assert_null (strstr (fixture->out->str, "ALLOWED"));
  g_assert_nonnull (strstr (fixture->out->str, "attach 1 -1 Operation not permitted"));
  g_assert_nonnull (strstr (fixture->out->str, "vm_readv 1 -1 Operation not permitted"));
  g_assert_nonnull (strstr (fixture->out->str, "pidfd_getfd 1 -1 Operation not permitted"));
  assert_responsive (fixture);
}

/* Nothing inside names the host: not the user's home or name, nor the
 * build folder the tests run from. */
static void
test_host_paths (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  const char *build_root = g_getenv ("VIVA_BUILD_ROOT");

  if (!require_bubblewrap (fixture))
    return;

  result = run (fixture,
                "import os\n"
                "for path in ['/proc/1/cmdline', '/proc/1/environ', '/proc/self/mountinfo', '/proc/self/mounts']:\n"
                "    with open(path, 'rb') as f:\n"
                "        print(f.read().replace(b'\\0', b' ').decode())\n"
                "print(os.getcwd(), os.environ.get('HOME'), os.path.realpath('/proc/self/exe'))\n",
                10000);
  viva_test_assert_run_ok (result);
  g_assert_nonnull (strstr (fixture->out->str, "/usr/libexec/viva-python-worker"));
  g_assert_null (strstr (fixture->out->str, g_get_home_dir ()));
  g_assert_null (strstr (fixture->out->str, g_get_user_cache_dir ()));
  g_assert_null (strstr (fixture->out->str, "/home/"));
  if (build_root != NULL && !g_str_has_prefix (build_root, "/usr"))
    {
      /* The worker is bound from the build folder, which mountinfo names
       * unless it is in the home folder; the command line never does. */
      g_autofree char *cmdline = g_strndup (fixture->out->str, strcspn (fixture->out->str, "\n"));

      g_assert_null (strstr (cmdline, build_root));
    }
}

/* The app's programs and data (the bundled pack is compiled into them) are
 * not in the sandbox, so code cannot read the pack's hidden tests. */
static void
test_app_unreadable (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(GString) code = g_string_new ("import os\nfor path in [");
  const char *vars[] = { "VIVA_APP", "VIVA_CLI" };
  g_autofree char *pack = NULL;

  if (!require_bubblewrap (fixture))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
    if (g_getenv (vars[i]) != NULL)
      g_string_append_printf (code, "'%s', ", g_getenv (vars[i]));
  if (g_getenv ("VIVA_SOURCE_ROOT") != NULL)
    {
      pack = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
      g_assert_true (g_file_test (pack, G_FILE_TEST_EXISTS));
      g_string_append_printf (code, "'%s', ", pack);
    }
  g_string_append (code,
                   "'/usr/bin/viva', '/usr/bin/viva-cli', '/usr/local/bin/viva', '/usr/share/viva',\n"
                   "             '/usr/bin/python3', '/usr/share']:\n"
                   "    try:\n"
                   "        open(path, 'rb').read(16)\n"
                   "        print('READ', path)\n"
                   "    except OSError as error:\n"
                   "        print(type(error).__name__, path)\n"
                   "print(sorted(os.listdir('/usr')))\n");

  result = run (fixture, code->str, 10000);
  viva_test_assert_run_ok (result);
  g_assert_null (strstr (fixture->out->str, "READ"));
  g_assert_nonnull (strstr (fixture->out->str, "FileNotFoundError /usr/bin/viva-cli"));
  if (pack != NULL)
    {
      g_autofree char *line = g_strdup_printf ("FileNotFoundError %s\n", pack);
      g_assert_nonnull (strstr (fixture->out->str, line));
    }
  /* No bin, libexec holds the worker alone, share only fonts and the like. */
  g_assert_null (strstr (fixture->out->str, "'bin'"));
}

/* Nothing but the sized /tmp is writable: the root, /dev and /usr refuse,
 * no host folder is bound writable, and /tmp fills at its size, with an
 * error the student can read; the app's disk is never touched. */
static void
test_disk_fill (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) fill = NULL;

  if (!require_bubblewrap (fixture))
    return;

  result = run (fixture,
                "import os\n"
                "writable = []\n"
                "for line in open('/proc/self/mountinfo'):\n"
                "    point = line.split()[4]\n"
                "    if point.startswith(('/proc', '/tmp')) or point == '/dev/pts':\n"
                "        continue\n"
                "    try:\n"
                "        with open(os.path.join(point, 'viva-probe'), 'w') as f:\n"
                "            f.write('x')\n"
                "        writable.append(point)\n"
                "    except OSError:\n"
                "        pass\n"
                "print('writable', writable)\n",
                10000);
  viva_test_assert_run_ok (result);
  g_assert_cmpstr (fixture->out->str, ==, "writable []\n");

  fill = run (fixture,
              "chunk = b'x' * (1 << 20)\n"
              "written = 0\n"
              "try:\n"
              "    for n in range(4):\n"
              "        with open(f'fill{n}.bin', 'wb') as f:\n"
              "            for i in range(60):\n"
              "                f.write(chunk)\n"
              "                f.flush()\n"
              "                written += 1\n"
              "finally:\n"
              "    print(written)\n",
              20000);
  g_assert_cmpint (viva_run_result_get_status (fill), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (fill), ==, "OSError");
  g_assert_nonnull (strstr (viva_run_result_get_error_message (fill), "No space left on device"));
  /* 128 MiB, less what the worker keeps there. */
  g_assert_cmpint (atoi (fixture->out->str), >=, 120);
  g_assert_cmpint (atoi (fixture->out->str), <=, 128);

  g_clear_object (&result);
  result = run (fixture, "import os\nfor n in range(4):\n    os.path.exists(f'fill{n}.bin') and os.remove(f'fill{n}.bin')\n", 0);
  viva_test_assert_run_ok (result);
  assert_responsive (fixture);
}

/* Memory that the address-space cap does not count: memfd files, System V
 * shared memory and message queues, POSIX message queues (the seccomp
 * filter refuses them), a file on /dev/shm (read-only under bubblewrap) and
 * /tmp (a tmpfs of its own size, filled in disk-fill). Each attempt fails
 * with the error the console shows, and the worker goes on. */
static void
test_memory_outside_cap (Fixture       *fixture,
                         gconstpointer  data)
{
  const struct {
    const char *code;
    const char *type;
    const char *message;
  } attacks[] = {
    { "import os\nfd = os.memfd_create('hoard')\nos.ftruncate(fd, 1 << 30)\n",
      "PermissionError", "Operation not permitted" },
    { "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
      "shm = libc.shmget(0, 1 << 30, 0o1600)\n"
      "if shm < 0:\n    raise OSError(ctypes.get_errno(), 'shmget: ' + os.strerror(ctypes.get_errno()))\n",
      "PermissionError", "shmget: Operation not permitted" },
    { "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
      "addr = libc.shmat(0, None, 0)\n"
      "if addr == -1:\n    raise OSError(ctypes.get_errno(), 'shmat: ' + os.strerror(ctypes.get_errno()))\n",
      "PermissionError", "shmat: Operation not permitted" },
    { "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
      "q = libc.msgget(0, 0o1600)\n"
      "if q < 0:\n    raise OSError(ctypes.get_errno(), 'msgget: ' + os.strerror(ctypes.get_errno()))\n",
      "PermissionError", "msgget: Operation not permitted" },
    { "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
      "q = libc.syscall(240, b'hoard', 0o102, 0o600, None)\n"
      "if q < 0:\n    raise OSError(ctypes.get_errno(), 'mq_open: ' + os.strerror(ctypes.get_errno()))\n",
      "PermissionError", "mq_open: Operation not permitted" },
    { "with open('/dev/shm/hoard', 'wb') as f:\n    f.write(b'x' * (1 << 20))\n",
      NULL, NULL },
  };

  if (!require_bubblewrap (fixture))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (attacks); i++)
    {
      g_autoptr(VivaRunResult) result = NULL;

#ifndef __x86_64__
      if (strstr (attacks[i].code, "syscall(240"))
        continue; /* mq_open's number is x86-64's */
#endif
      result = run (fixture, attacks[i].code, 10000);
      g_test_message ("attack %u: %s: %s", i, viva_run_result_get_error_type (result),
                      viva_run_result_get_error_message (result));
      g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
      g_assert_false (viva_run_result_get_state_reset (result));
      if (attacks[i].type != NULL)
        {
          g_assert_cmpstr (viva_run_result_get_error_type (result), ==, attacks[i].type);
          g_assert_nonnull (strstr (viva_run_result_get_error_message (result), attacks[i].message));
        }
      else
        {
          /* Read-only /dev, or no /dev/shm at all: either way an OSError. */
          g_assert_true (g_str_equal (viva_run_result_get_error_type (result), "OSError") ||
                         g_str_equal (viva_run_result_get_error_type (result), "FileNotFoundError"));
          g_assert_true (strstr (viva_run_result_get_error_message (result), "Read-only file system") ||
                         strstr (viva_run_result_get_error_message (result), "No such file"));
        }
    }

  assert_responsive (fixture);
}

/* What a program printed just before it ended the process reaches the
 * console: before os._exit(), exit() from C, a segfault. */
static void
test_output_before_exit (Fixture       *fixture,
                         gconstpointer  data)
{
  const struct {
    const char    *code;
    VivaRunStatus  status;
  } cases[] = {
    { "print('last words')\nimport os\nos.write(1, b'from C\\n')\nos._exit(3)\n", VIVA_RUN_STATUS_CRASHED },
    { "print('last words')\nimport os\nos.write(1, b'from C\\n')\nimport ctypes\nctypes.CDLL(None).exit(0)\n",
      VIVA_RUN_STATUS_CRASHED },
    { "print('last words')\nimport os\nos.write(1, b'from C\\n')\nimport ctypes\nctypes.string_at(0)\n",
      VIVA_RUN_STATUS_CRASHED },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VivaRunResult) result = run (fixture, cases[i].code, 10000);

      g_test_message ("case %u: out %s, err %s", i, fixture->out->str, fixture->err->str);
      g_assert_cmpint (viva_run_result_get_status (result), ==, cases[i].status);
      g_assert_true (viva_run_result_get_state_reset (result));
      g_assert_nonnull (strstr (fixture->out->str, "last words\n"));
      g_assert_nonnull (strstr (fixture->out->str, "from C\n"));
      g_assert_nonnull (viva_run_result_get_summary (result));
    }

  assert_responsive (fixture);
}


/* Frames that no worker of ours sends, written by the program straight to
 * the channel: each ends with the worker killed, one sentence, and a new
 * worker for the next run. */
static void
test_forged_frames (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *frames[] = {
    /* nested where a string belongs */
    "b'{\"event\":\"stdout\",\"id\":1,\"text\":{\"a\":1}}\\n'",
    /* deep JSON: a recursive parser would run out of stack */
    "b'{\"event\":' + b'[' * 1000000 + b'\\n'",
    /* an event that does not exist */
    "b'{\"event\":\"exec\",\"id\":1}\\n'",
    /* a member the event does not have */
    "b'{\"event\":\"result\",\"id\":1,\"status\":\"ok\",\"grade\":100}\\n'",
    /* not UTF-8 */
    "b'{\"event\":\"stdout\",\"id\":1,\"text\":\"\\xff\"}\\n'",
    /* not JSON */
    "b'hello\\n'",
  };

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *code = g_strdup_printf ("import os, time\nos.write(3, %s)\ntime.sleep(5)\n", frames[i]);
      g_autoptr(VivaRunResult) result = run (fixture, code, 10000);

      g_test_message ("frame %u: %s", i, viva_run_result_get_summary (result));
      g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_CRASHED);
      g_assert_true (viva_run_result_get_state_reset (result));
      g_assert_nonnull (strstr (viva_run_result_get_summary (result), "private channel"));
      assert_responsive (fixture);
    }
}

/* Well-formed frames that forge a run's outcome: a result ("ok", with
 * made-up output) for the very request that runs, before the code raises,
 * exits or sleeps; a result for a request that is not running; the barrier
 * that follows a real result. The worker's own result comes after the code
 * ends, so each forgery is found (a second result, or one out of its
 * place), the worker is killed and the run says the program wrote to the
 * private channel; never "ok". The case's code gets the running request's
 * id (ID), as code that counts its runs would. */
static void
test_forged_result (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *forge = "import os, time\n"
                      "def frame(**members):\n"
                      "    import json\n"
                      "    os.write(3, json.dumps(members).encode() + b'\\n')\n";
  const struct {
    const char *code;       /* ID: the id of its own request */
    guint       timeout_ms;
  } cases[] = {
    /* made-up output and an "ok", then the real outcome: an exception */
    { "frame(event='stdout', id=ID, text='all 10 tests passed\\n')\n"
      "frame(event='result', id=ID, status='ok', duration_ms=3)\n"
      "raise ValueError('the real outcome')\n", 10000 },
    /* an "ok", then the process ends before the worker can answer */
    { "frame(event='result', id=ID, status='ok')\n"
      "os._exit(0)\n", 10000 },
    /* an "ok", then the code never ends */
    { "frame(event='result', id=ID, status='ok')\n"
      "time.sleep(60)\n", 1500 },
    /* a result for a request that is not running */
    { "frame(event='result', id=ID + 1, status='ok')\n"
      "time.sleep(5)\n", 10000 },
    /* an "ok" and guessed barriers after it */
    { "frame(event='result', id=ID, status='ok')\n"
      "for i in range(64):\n"
      "    frame(event='synced', id=(1 << 40) + i)\n"
      "time.sleep(5)\n", 10000 },
  };
  g_autoptr(VivaRunResult) first = run (fixture, "pass", 0);
  gint64 id = 2; /* the run above was 1 */

  viva_test_assert_run_ok (first);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *head = g_strdup_printf ("ID = %" G_GINT64_FORMAT "\n", id);
      g_autofree char *code = g_strconcat (head, forge, cases[i].code, NULL);
      g_autoptr(VivaRunResult) result = run (fixture, code, cases[i].timeout_ms);

      g_test_message ("case %u: %s; %s", i, viva_run_status_to_string (viva_run_result_get_status (result)),
                      viva_run_result_get_summary (result));
      g_assert_cmpint (viva_run_result_get_status (result), !=, VIVA_RUN_STATUS_OK);
      g_assert_true (viva_run_result_get_state_reset (result));
      if (i != 1 && i != 2)
        {
          g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_CRASHED);
          g_assert_nonnull (strstr (viva_run_result_get_summary (result), "wrote to Viva’s private channel"));
        }
      assert_responsive (fixture);
      id += 2;
    }
}

/* A line past the longest frame (16 MiB without a newline) kills the
 * worker before the app holds much more of it. */
static void
test_oversized_frame (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;

  result = run (fixture, "import os, time\nos.write(3, b'{\"event\":\"stdout\",\"text\":\"' + b'x' * (40 << 20))\ntime.sleep(5)\n", 20000);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_CRASHED);
  g_assert_nonnull (strstr (viva_run_result_get_summary (result), "too much output"));
  assert_responsive (fixture);
}

/* Well-formed output frames sent past the worker's cap are still capped by
 * the bytes the runner receives. */
static void
test_forged_flood (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;

  result = run (fixture,
                "import os\n"
                "frame = b'{\"event\":\"stdout\",\"id\":0,\"text\":\"' + b'y' * 60000 + b'\"}\\n'\n"
                "for i in range(100):\n"
                "    os.write(3, frame)\n",
                20000);
  viva_test_assert_run_ok (result);
  g_assert_cmpuint (fixture->out->len, <=, viva_runner_get_output_limit (fixture->runner) + 65536);
  g_assert_true (viva_run_result_get_output_truncated (result));
  assert_responsive (fixture);
}

/* NUL and control characters are shown, and nothing after them is lost. */
static void
test_nul_bytes (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;

  result = run (fixture,
                "import os, sys\n"
                "print('a\\0b\\x01c\\x1b[31md')\n"
                "sys.stdout.flush()\n"
                "os.write(1, b'x\\0y\\xffz\\n')\n",
                10000);
  viva_test_assert_run_ok (result);
  g_assert_nonnull (strstr (fixture->out->str, "a\u2400b\u2401c\u241b[31md\n"));
  g_assert_nonnull (strstr (fixture->out->str, "x\u2400y\ufffdz\n"));
}

/* Plots are PNG of at most 4096×4096 pixels and a few MB, checked before
 * anything decodes them; others are left out with a sentence. */
static void
test_image_bomb (Fixture       *fixture,
                 gconstpointer  data)
{
  const struct {
    const char *image;
    const char *sentence;
  } cases[] = {
    { "png(20000, 20000)", "The plot was 20000×20000 pixels; plots larger than 4096×4096 are not shown." },
    { "png(100, 5000)", "The plot was 100×5000 pixels" },
    { "b'<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20000\" height=\"20000\"/>'",
      "A plot was left out: it was not a PNG image." },
    { "png(100, 100) + b'\\0' * (9 << 20)", "was left out: plots larger than" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *code = g_strdup_printf (
        "import _viva, struct, zlib\n"
        "def chunk(kind, data):\n"
        "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))\n"
        "def png(w, h):\n"
        "    return (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))\n"
        "            + chunk(b'IDAT', zlib.compress(b'\\0' * 1000)) + chunk(b'IEND', b''))\n"
        "_viva.image(%s)\n"
        "print('after')\n", cases[i].image);
      g_autoptr(VivaRunResult) result = run (fixture, code, 10000);

      viva_test_assert_run_ok (result);
      g_assert_cmpuint (fixture->images->len, ==, 0);
      g_assert_nonnull (strstr (fixture->err->str, cases[i].sentence));
      g_assert_cmpstr (fixture->out->str, ==, "after\n");
    }

  assert_responsive (fixture);
}

/* Image frames written straight to the channel, past the worker's own cap
 * of 50 a run: the runner keeps no more than that either. */
static void
test_image_flood (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;

  result = run (fixture,
                "import base64, os, struct, zlib\n"
                "def chunk(kind, data):\n"
                "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))\n"
                "png = (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 1, 1, 8, 2, 0, 0, 0))\n"
                "       + chunk(b'IDAT', zlib.compress(b'\\0\\0\\0\\0')) + chunk(b'IEND', b''))\n"
                "frame = b'{\"event\":\"image\",\"id\":0,\"mime\":\"image/png\",\"data\":\"' + base64.b64encode(png) + b'\"}\\n'\n"
                "for i in range(200):\n"
                "    os.write(3, frame)\n"
                "print('sent')\n",
                10000);
  viva_test_assert_run_ok (result);
  g_assert_cmpstr (fixture->out->str, ==, "sent\n");
  g_assert_cmpuint (fixture->images->len, ==, 50);
  g_assert_cmpuint (viva_run_result_get_n_images (result), ==, 50);
  assert_responsive (fixture);
}

static GError *
run_expecting_error (Fixture    *fixture,
                     const char *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaRunResult) run_result = NULL;
  GError *error = NULL;

  viva_runner_run_async (fixture->runner, code, 0, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  run_result = viva_runner_run_finish (fixture->runner, result, &error);
  g_assert_null (run_result);
  g_assert_nonnull (error);
  return error;
}

static void
restart (Fixture *fixture)
{
  g_autoptr(GAsyncResult) result = NULL;

  viva_runner_reset_async (fixture->runner, TRUE, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_runner_reset_finish (fixture->runner, result, NULL));
}

/* A sandbox that fails to start (as under Ubuntu's AppArmor) never makes
 * later runs unsandboxed: the code does not run and says why, and the next
 * start tries the sandbox again. Only the run-without-sandbox setting lets
 * code run without it, for that one start, visibly. bubblewrap here fails
 * the first time it is started after its marker file was removed. */
static void
test_sandbox_failure (void)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *script = NULL;
  g_autofree char *marker = NULL;
  g_autofree char *body = NULL;
  g_autofree char *bwrap = g_find_program_in_path ("bwrap");
  VivaSettings *settings = viva_settings_get_default ();
  Fixture fixture = { 0 };
  guint message_changes = 0;

  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS) || bwrap == NULL)
    {
      g_test_skip ("needs bubblewrap, outside Flatpak");
      return;
    }

  dir = g_dir_make_tmp ("viva-bwrap-XXXXXX", NULL);
  script = g_build_filename (dir, "bwrap", NULL);
  marker = g_build_filename (dir, "failed-once", NULL);
  body = g_strdup_printf ("#!/bin/sh\n"
                          "if [ ! -e '%s' ]; then touch '%s'; echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1; fi\n"
                          "exec '%s' \"$@\"\n", marker, marker, bwrap);
  g_assert_true (g_file_set_contents (script, body, -1, NULL));
  g_chmod (script, 0755);
  g_setenv ("VIVA_BWRAP", script, TRUE);

  viva_test_runner_setup (&fixture, NULL);
  g_signal_connect (fixture.runner, "notify::sandbox-message", G_CALLBACK (viva_test_count_notify), &message_changes);

  /* Off (the default): the code does not run, and says why. */
  g_assert_false (viva_settings_get_run_without_sandbox (settings));
  error = run_expecting_error (&fixture, "print('never')");
  g_assert_nonnull (strstr (error->message, "The sandbox could not start (bwrap: setting up uid map: Permission denied), so the code did not run."));
  g_assert_cmpstr (fixture.out->str, ==, "");
  g_assert_null (viva_runner_get_sandbox_message (fixture.runner));

  /* The next start tries the sandbox again, and gets it. */
  result = run (&fixture, "print('sandboxed')", 0);
  viva_test_assert_run_ok (result);
  g_assert_cmpstr (fixture.out->str, ==, "sandboxed\n");
  g_assert_cmpint (viva_runner_get_sandbox (fixture.runner), ==, VIVA_RUNNER_SANDBOX_BUBBLEWRAP);

  /* With the setting, that one start goes without, visibly. */
  g_object_set (settings, "run-without-sandbox", TRUE, NULL);
  g_remove (marker);
  restart (&fixture);
  g_clear_object (&result);
  result = run (&fixture, "print('unprotected')", 0);
  viva_test_assert_run_ok (result);
  g_assert_cmpstr (fixture.out->str, ==, "unprotected\n");
  g_assert_cmpint (viva_runner_get_sandbox (fixture.runner), ==, VIVA_RUNNER_SANDBOX_NONE);
  g_assert_nonnull (viva_runner_get_sandbox_message (fixture.runner));
  g_assert_nonnull (strstr (fixture.err->str, viva_runner_get_sandbox_message (fixture.runner)));
  g_assert_cmpuint (message_changes, ==, 1);

  /* And the start after it is sandboxed again; the warning goes. */
  restart (&fixture);
  g_clear_object (&result);
  result = run (&fixture, "print('sandboxed again')", 0);
  viva_test_assert_run_ok (result);
  g_assert_cmpint (viva_runner_get_sandbox (fixture.runner), ==, VIVA_RUNNER_SANDBOX_BUBBLEWRAP);
  g_assert_null (viva_runner_get_sandbox_message (fixture.runner));
  g_assert_cmpuint (message_changes, ==, 2);

  g_object_set (settings, "run-without-sandbox", FALSE, NULL);
  g_signal_handlers_disconnect_by_func (fixture.runner, viva_test_count_notify, &message_changes);
  viva_test_runner_teardown (&fixture, NULL);
  g_unsetenv ("VIVA_BWRAP");
  g_remove (marker);
  g_remove (script);
  g_rmdir (dir);
}

/* Without bubblewrap installed, code runs only with the setting. */
static void
test_sandbox_missing (void)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaSettings *settings = viva_settings_get_default ();
  Fixture fixture = { 0 };

  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("inside Flatpak bubblewrap is not used");
      return;
    }

  g_setenv ("VIVA_BWRAP", "", TRUE);
  g_setenv ("PATH", "/nonexistent", TRUE);
  viva_test_runner_setup (&fixture, NULL);

  error = run_expecting_error (&fixture, "print('never')");
  g_assert_nonnull (strstr (error->message, "bubblewrap, the sandbox Viva runs code in, is not installed"));

  g_object_set (settings, "run-without-sandbox", TRUE, NULL);
  result = run (&fixture, "print('unprotected')", 0);
  viva_test_assert_run_ok (result);
  g_assert_cmpint (viva_runner_get_sandbox (fixture.runner), ==, VIVA_RUNNER_SANDBOX_NONE);
  g_assert_nonnull (strstr (viva_runner_get_sandbox_message (fixture.runner), "Bubblewrap is not installed"));

  g_object_set (settings, "run-without-sandbox", FALSE, NULL);
  viva_test_runner_teardown (&fixture, NULL);
  g_unsetenv ("VIVA_BWRAP");
}

#define ADD(path, func) \
  g_test_add ("/viva/sandbox/" path, Fixture, NULL, viva_test_runner_setup, func, viva_test_runner_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/sandbox/failure-not-sticky", test_sandbox_failure);

  ADD ("ptrace", test_ptrace);
  ADD ("host-paths", test_host_paths);
  ADD ("app-unreadable", test_app_unreadable);
  ADD ("disk-fill", test_disk_fill);
  ADD ("memory-outside-cap", test_memory_outside_cap);
  ADD ("output-before-exit", test_output_before_exit);
  ADD ("forged-frames", test_forged_frames);
  ADD ("forged-result", test_forged_result);
  ADD ("oversized-frame", test_oversized_frame);
  ADD ("forged-flood", test_forged_flood);
  ADD ("nul-bytes", test_nul_bytes);
  ADD ("image-bomb", test_image_bomb);
  ADD ("image-flood", test_image_flood);
  /* Last: it changes PATH. */
  g_test_add_func ("/viva/sandbox/missing", test_sandbox_missing);

  return g_test_run ();
}
