"""Drive the real Viva under Xvfb through AT-SPI, as a person would.

Each test gets a private home (XDG dirs) with GSettings in a keyfile, so
settings and saved code persist across restarts of the app within a test,
and dogtail's required toolkit-accessibility key is on.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

BUILD_ROOT = os.environ.get("VIVA_BUILD_ROOT", "")
APP = os.environ.get("VIVA_APP", os.path.join(BUILD_ROOT, "src", "ui", "viva"))
# "cairo" (the default here) or "default": GTK's own choice, which is GL
# (Mesa's llvmpipe under Xvfb), as on a lab PC without a GPU driver. The
# whole-defense tests run under both; their screenshots keep apart.
RENDERER = os.environ.get("VIVA_GUI_RENDERER", "cairo")
SHOTS = os.path.join(BUILD_ROOT or ".", "screenshots",
                     *([] if RENDERER == "cairo" else [RENDERER + "-renderer"]))
# The scripted model servers the tests start (tests/gui/viva-gui-server.c,
# tests/eval/viva-eval-server.c); each prints its base URL on its first line.
GUI_SERVER = os.environ.get("VIVA_GUI_SERVER", "")
EVAL_SERVER = os.environ.get("VIVA_EVAL_SERVER", "")

# A student's K-Means for intro-ai's kmeans, as the defense scripts of
# viva-gui-server expect it (--code): it runs cleanly and passes.
KMEANS_SOLUTION = """import random


def kmeans(points, k, max_iters=100, seed=0):
    rng = random.Random(seed)
    start = rng.sample(list(points), k)
    cs = [(float(x), float(y)) for x, y in start]
    labels = [-1] * len(points)
    for _ in range(max_iters):
        new = []
        for x, y in points:
            d = [(x-a)**2 + (y-b)**2 for a, b in cs]
            new.append(d.index(min(d)))
        if new == labels:
            break
        labels = new
        groups = [[] for _ in range(k)]
        for p, l in zip(points, labels):
            groups[l].append(p)
        for c, ps in enumerate(groups):
            if ps:
                n = len(ps)
                sx = sum(p[0] for p in ps)
                sy = sum(p[1] for p in ps)
                cs[c] = (sx / n, sy / n)
    return cs, labels
"""


class Tap:
    """A tiny TAP producer, so Meson counts each check."""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, what):
        self.n += 1
        if not cond:
            self.failed += 1
        print(("ok" if cond else "not ok"), self.n, "-", what, flush=True)
        return cond

    def skip_all(self, why):
        print("1..0 # SKIP", why, flush=True)
        sys.exit(0)

    def done(self):
        print(f"1..{self.n}", flush=True)
        sys.exit(1 if self.failed else 0)


def make_home():
    home = tempfile.mkdtemp(prefix="viva-gui-")
    conf = os.path.join(home, "config", "glib-2.0", "settings")
    os.makedirs(conf)
    with open(os.path.join(conf, "keyfile"), "w") as f:
        f.write("[org/gnome/desktop/interface]\ntoolkit-accessibility=true\n")
    os.makedirs(os.path.join(home, "data"))
    os.makedirs(os.path.join(home, "cache"))
    return home


def keyfile(home):
    """The app's GSettings in @home, as the keyfile backend keeps them."""
    return os.path.join(home, "config", "glib-2.0", "settings", "keyfile")


def set_settings(home, **keys):
    """Viva's settings for the next start: set_settings(home, base_url="'u'").

    Values are GVariant text; underscores in names become dashes."""
    with open(keyfile(home), "a") as f:
        f.write("\n[io/github/vivaexam/Viva]\n")
        for key, value in keys.items():
            f.write(f"{key.replace('_', '-')}={value}\n")


def save_code(home, code, pack="intro-ai", problem="kmeans"):
    """The student's saved code for a problem, as the code store keeps it."""
    path = os.path.join(home, "data", "viva", "code", pack)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, problem + ".py"), "w") as f:
        f.write(code)


def bundled_problem(problem_id, pack="intro-ai"):
    """A problem of a bundled pack, as its JSON has it."""
    src = os.environ["VIVA_SOURCE_ROOT"]
    with open(os.path.join(src, "data", "packs", pack + ".json")) as f:
        return next(p for p in json.load(f)["problems"] if p["id"] == problem_id)


def require_server(tap, server=None, name="viva-gui-server"):
    """Skips the test where its scripted server was not built."""
    server = GUI_SERVER if server is None else server
    if not server or not os.path.exists(server):
        tap.skip_all(f"{name} was not built")


def start_server(*args, server=None):
    """Starts a scripted model server with @args; returns (process, base URL).

    Its stdin stays open: the server ends when it closes."""
    proc = subprocess.Popen([GUI_SERVER if server is None else server] + list(args),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    return proc, url


def stop_server(proc):
    if proc.poll() is None:
        proc.terminate()
        proc.wait(timeout=10)


def unused_url():
    """A base URL where nothing listens: the model server is down."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}/v1"


def wait_for(predicate, timeout=20.0, interval=0.2):
    """True once @predicate is, False after @timeout seconds. An exception
    (a node gone from the tree meanwhile) counts as not yet."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if predicate():
                return True
        except Exception:
            pass
        time.sleep(interval)
    return False


def find_named(app, name, timeout=20.0, prefix=False, contains=False):
    """The first node of any role with this name (or name prefix, or a name
    containing it), or None after @timeout seconds."""
    def matches(n):
        if n.name is None:
            return False
        if contains:
            return name in n.name
        return n.name.startswith(name) if prefix else n.name == name

    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            hits = app.node.findChildren(matches, recursive=True)
            if hits:
                return hits[0]
        except Exception:
            pass
        time.sleep(0.25)
    return None


def check_stderr(tap, app, what=None, since=0):
    """One TAP check: nothing the app printed (from @since) is a warning, a
    critical or GTK's own complaint; on failure the log goes to stderr."""
    err = app.stderr()[since:]
    label = "no warnings or criticals on the app's stderr"
    if not tap.ok("CRITICAL" not in err and "WARNING" not in err and "Gtk-" not in err,
                  f"{what}: {label}" if what else label):
        print(err, file=sys.stderr)


def env_for(home, extra=None):
    env = dict(os.environ)
    env.pop("NO_AT_BRIDGE", None)
    env["G_DEBUG"] = ""  # the app's own warnings are asserted through stderr
    env["GSETTINGS_BACKEND"] = "keyfile"
    env["XDG_CONFIG_HOME"] = os.path.join(home, "config")
    env["XDG_DATA_HOME"] = os.path.join(home, "data")
    env["XDG_CACHE_HOME"] = os.path.join(home, "cache")
    env["GTK_A11Y"] = "atspi"
    env["GDK_BACKEND"] = "x11"
    if RENDERER == "default":
        env.pop("GSK_RENDERER", None)
    else:
        env["GSK_RENDERER"] = RENDERER
    env["NO_AT_BRIDGE"] = "0"
    if extra:
        env.update(extra)
    return env


def setup_dogtail(home, tap):
    if not os.environ.get("DISPLAY"):
        tap.skip_all("no display: run under xvfb-run -a dbus-run-session")
    os.environ.update(env_for(home))
    os.environ.pop("NO_AT_BRIDGE", None)
    try:
        from dogtail import config
    except ImportError:
        tap.skip_all("python3-dogtail is not installed")
    config.config.searchCutoffCount = 40
    config.config.searchBackoffDuration = 0.25
    config.config.defaultDelay = 0.2
    config.config.actionDelay = 0.2
    config.config.typingDelay = 0.02
    config.config.logDebugToStdOut = False
    config.config.logDebugToFile = False


class App:
    def __init__(self, home, extra_env=None, name="viva", args=None):
        self.home = home
        self.log_path = os.path.join(home, "app-stderr.log")
        self.log = open(self.log_path, "a")
        self.proc = subprocess.Popen([APP] + list(args or []), env=env_for(home, extra_env),
                                     stdout=self.log, stderr=self.log)
        self.node = None
        from dogtail import tree
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                for a in tree.root.applications():
                    if a.name == name and getattr(a, "get_process_id", lambda: None)() in (None, self.proc.pid):
                        self.node = a
                        break
            except Exception:
                pass
            if self.node is not None and self.node.children:
                break
            if self.proc.poll() is not None:
                break
            time.sleep(0.25)
        # Like a person, look at the window before touching it: wait until
        # the editor holds the problem's code.
        if self.node is not None:
            editor = self.find("text", "Code editor", timeout=10)
            deadline = time.time() + 10
            while editor is not None and time.time() < deadline and not text_of(editor):
                time.sleep(0.2)
            time.sleep(0.3)

    def find(self, role, name, timeout=10.0):
        """The first node with this role and name, or None.

        GTK 4.8 does not report the showing state, so it is not checked."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                hits = self.node.findChildren(
                    lambda n: n.roleName == role and (name is None or n.name == name),
                    recursive=True)
                if hits:
                    return hits[0]
            except Exception:
                pass
            time.sleep(0.2)
        return None

    def screenshot(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        path = os.path.join(SHOTS, name + ".png")
        subprocess.run(["import", "-window", "root", path], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return path

    def quit(self, timeout=20):
        """Close as a person would (Ctrl+Q), so the app saves its state."""
        from dogtail import rawinput
        deadline = time.time() + timeout
        # A key pressed while a window is closing (a dialog just sent away
        # with Escape) can land in no window on a loaded machine; a person
        # would press it again.
        for wait in (timeout / 2, None):
            if self.proc.poll() is not None:
                break
            try:
                rawinput.keyCombo("<Control>q")
            except Exception:
                pass
            try:
                self.proc.wait(timeout=wait if wait is not None else max(1.0, deadline - time.time()))
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()

    # GTK 4.8's own bookkeeping notes, not the app's: AT-SPI positions are
    # window-relative (printed when a test queries them), a popover's arrow
    # is snapshotted once more as it is dismissed, and synthesized clicks
    # under Xvfb without a window manager can leave a button's pressed-state
    # count off. Anything else the app prints fails the tests.
    GTK_NOISE = (
        "Screen coordinates not supported",
        "Trying to snapshot GtkGizmo",
        "Broken accounting of active state",
    )

    def stderr(self):
        """What the app printed, less GTK_NOISE."""
        with open(self.log_path) as f:
            lines = f.read().splitlines()
        return "\n".join(l for l in lines if not any(n in l for n in self.GTK_NOISE))


def click(node):
    """Click the middle of a node: GTK 4.8 does not implement grabFocus."""
    from dogtail import rawinput
    x, y = node.position
    w, h = node.size
    rawinput.click(x + w // 2, y + h // 2)


def text_of(node):
    try:
        return node.text or ""
    except Exception:
        return ""


def cleanup(home):
    shutil.rmtree(home, ignore_errors=True)


class ExamServer:
    """A real viva-server on 127.0.0.1 with TLS, set up as a teacher would
    (init, exam add with a roster, codes), for the app to sign in to.

    stop() and start() again keep its port: a lab's network cut and back."""

    def __init__(self, exams, roster):
        self.binary = os.path.join(BUILD_ROOT, "src", "server", "viva-server")
        self.state = tempfile.mkdtemp(prefix="viva-gui-exam-server-")
        self.proc = None
        self.port = 0
        out = self._run("init", "--host", "127.0.0.1", "--listen", "127.0.0.1:8443", "--json")
        self.fingerprint = out[-1]["fingerprint"]
        self.teacher_tokens = {}
        self.codes = {}
        for path in exams:
            added = self._run("exam", "add", path, "--roster", roster, "--json")[-1]
            exam = added["exam"]
            self.teacher_tokens[exam] = added["teacher_token"]
            for event in self._run("codes", exam, "--json"):
                if event.get("event") == "code":
                    self.codes[(exam, event["student_id"])] = event["code"]
        self.start()

    def _run(self, *args):
        proc = subprocess.run([self.binary] + list(args) + ["--state-dir", self.state],
                              stdout=subprocess.PIPE, text=True, check=True)
        return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]

    def start(self):
        self.proc = subprocess.Popen([self.binary, "serve", "--state-dir", self.state,
                                      "--listen", "127.0.0.1:%d" % self.port, "--json"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        event = json.loads(self.proc.stdout.readline())
        self.port = event["port"]

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
        self.proc = None

    def link(self, exam):
        return "viva://127.0.0.1:%d/%s#sha256=%s" % (self.port, exam, self.fingerprint)

    def request(self, method, path, token=None, body=None):
        """(status, JSON) of one call, over TLS pinned to the server's key."""
        import hashlib
        import http.client
        import ssl
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        conn = http.client.HTTPSConnection("127.0.0.1", self.port, context=context, timeout=30)
        try:
            conn.connect()
            der = conn.sock.getpeercert(binary_form=True)
            if hashlib.sha256(der).hexdigest() != self.fingerprint.lower():
                raise RuntimeError("not the exam server's certificate")
            headers = {"Content-Type": "application/json"}
            if token:
                headers["Authorization"] = "Bearer " + token
            conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            reply = conn.getresponse()
            data = reply.read()
            return reply.status, json.loads(data) if data else None
        finally:
            conn.close()

    def status(self, exam):
        """The class, as the teacher's status shows it: student id → row."""
        code, data = self.request("GET", "/api/v1/exams/%s/status" % exam, self.teacher_tokens[exam])
        return {row["student_id"]: row for row in (data or {}).get("students", [])} if code == 200 else {}

    def close(self):
        self.stop()
        shutil.rmtree(self.state, ignore_errors=True)
