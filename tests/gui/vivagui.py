"""Drive the real Viva under Xvfb through AT-SPI, as a person would.

Each test gets a private home (XDG dirs) with GSettings in a keyfile, so
settings and saved code persist across restarts of the app within a test,
and dogtail's required toolkit-accessibility key is on.
"""

import os
import shutil
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
        if self.proc.poll() is None:
            try:
                rawinput.keyCombo("<Control>q")
            except Exception:
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
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
