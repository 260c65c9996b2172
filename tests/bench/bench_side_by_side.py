#!/usr/bin/python3
"""Every figure of tests/bench/RESULTS.md's summary, side by side, in one run.

Rounds (VIVA_BENCH_ROUNDS, default 7) interleave, so that the machine's load
falls alike on both sides of each ratio:

- start-up, exec → main window mapped (the same X11 event for both apps),
  Viva vs GNOME Text Editor opening the same .py file (or the GTK 4 widget
  factory where Text Editor is not installed), under GTK's default renderer
  and cairo; Viva's own exec → code painted (VIVA_DEBUG_STARTUP) beside it;
  resident memory one second after the window mapped;
- the examiner panel (bench-chat-view) vs a bare GtkTextView appending the
  same deltas at most every 33 ms and scrolled to the end after each append,
  as a chat view must be (VIVA_BENCH_BARE=follow; a view left at the top
  draws nothing once its page is full, so it bounds nothing a student sees):
  main-loop busy time per delta and the longest stall, at 1k/10k/50k deltas
  (VIVA_BENCH_PANEL_SIZES), under GTK's default renderer and cairo; after
  the first second, past the one-off costs of a fresh process's first
  frames, the longest stall, the 99th percentile of the loop's busy
  stretches and how many of them missed a 60 Hz frame (a maximum is one
  event, often another process's; the other two say how the run felt);
- pure-Python K-Means in the worker vs /usr/bin/python3 (CPU time of the
  computing thread, which a loaded machine disturbs least), the warm round
  trip, the cold start under bubblewrap and the worker's memory
  (bench-runner, VIVA_BENCH_ONE_ROUND=1).

Prints min / median / max of each and the ratios; RESULTS.md keeps the
latest. Run under a display: `meson test -C build --benchmark side-by-side`.
"""

import ctypes
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROUNDS = int(os.environ.get("VIVA_BENCH_ROUNDS", "7"))
PANEL_SIZES = os.environ.get("VIVA_BENCH_PANEL_SIZES", "1000,10000,50000").split(",")
APP = os.environ.get("VIVA_APP")
CHAT = os.environ.get("VIVA_BENCH_CHAT_VIEW")
RUNNER = os.environ.get("VIVA_BENCH_RUNNER")
RENDERERS = [("gl", None), ("cairo", "cairo")]

if not (APP and CHAT and RUNNER and os.environ.get("DISPLAY")):
    print("bench_side_by_side: needs VIVA_APP, VIVA_BENCH_CHAT_VIEW, VIVA_BENCH_RUNNER and a DISPLAY",
          file=sys.stderr)
    sys.exit(77)

OTHER = shutil.which("gnome-text-editor")
OTHER_NAME = "GNOME Text Editor"
if OTHER is None:
    OTHER = shutil.which("gtk4-widget-factory")
    OTHER_NAME = "GTK 4 widget factory"

home = tempfile.mkdtemp(prefix="viva-bench-")
sample = os.path.join(home, "kmeans.py")
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runner", "kmeans-pure.py")) as f:
    code = f.read()
with open(sample, "w") as f:
    f.write(code)

base_env = dict(os.environ)
base_env.update({
    "GSETTINGS_BACKEND": "memory",
    "XDG_DATA_HOME": os.path.join(home, "data"),
    "XDG_CONFIG_HOME": os.path.join(home, "config"),
    "XDG_CACHE_HOME": os.path.join(home, "cache"),
    "GDK_BACKEND": "x11",
})
base_env.pop("G_DEBUG", None)


class Mapped:
    """Waits for a top-level window to be mapped, through Xlib's events on
    the root window: the same moment for any X11 client."""

    def __init__(self):
        self.x = ctypes.CDLL("libX11.so.6")
        self.x.XOpenDisplay.restype = ctypes.c_void_p
        self.x.XDefaultRootWindow.restype = ctypes.c_ulong
        self.x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.x.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
        self.x.XPending.argtypes = [ctypes.c_void_p]
        self.x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.x.XConnectionNumber.argtypes = [ctypes.c_void_p]
        self.x.XFlush.argtypes = [ctypes.c_void_p]
        self.dpy = self.x.XOpenDisplay(None)
        root = self.x.XDefaultRootWindow(self.dpy)
        self.x.XSelectInput(self.dpy, root, 1 << 19)  # SubstructureNotifyMask
        self.x.XFlush(self.dpy)
        self.fd = self.x.XConnectionNumber(self.dpy)
        self.event = (ctypes.c_long * 24)()

    def drain(self):
        while self.x.XPending(self.dpy):
            self.x.XNextEvent(self.dpy, self.event)

    def wait(self, deadline):
        while time.monotonic() < deadline:
            while self.x.XPending(self.dpy):
                self.x.XNextEvent(self.dpy, self.event)
                raw = bytes(self.event)
                kind = int.from_bytes(raw[0:4], "little")
                override = int.from_bytes(raw[48:52], "little")
                if kind == 19 and not override:  # MapNotify of a normal window
                    return time.monotonic()
            select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
        return None


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def start_up(x, argv, renderer, viva):
    env = dict(base_env)
    if renderer:
        env["GSK_RENDERER"] = renderer
    else:
        env.pop("GSK_RENDERER", None)
    if viva:
        env["VIVA_DEBUG_STARTUP"] = "1"
    x.drain()
    t0 = time.monotonic()
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE if viva else subprocess.DEVNULL, text=True)
    mapped = x.wait(t0 + 30)
    painted = None
    if viva:
        for line in p.stderr:
            if line.startswith("startup: ready"):
                painted = (time.monotonic() - t0) * 1000
                break
    time.sleep(1.0)
    rss = rss_mib(p.pid)
    p.terminate()
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    if mapped is None:
        raise SystemExit(f"bench_side_by_side: {argv[0]} never mapped a window")
    return (mapped - t0) * 1000, painted, rss


def panel(bare, renderer):
    env = dict(base_env)
    if renderer:
        env["GSK_RENDERER"] = renderer
    else:
        env.pop("GSK_RENDERER", None)
    env["VIVA_BENCH_BARE"] = "follow" if bare else "0"
    out = {}
    for size in PANEL_SIZES:
        r = subprocess.run([CHAT, size], env=env, capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise SystemExit(f"bench_side_by_side: bench-chat-view failed: {r.stderr}")
        settled = p99 = missed = None
        for line in r.stdout.splitlines():
            words = line.split()
            if line.startswith("after the first second: longest stall "):
                settled = float(words[6])
            elif line.startswith("after the first second: ") and "percentile" in line:
                # "... N busy stretches, 99th percentile X ms, M over a 60 Hz frame"
                if int(words[4]) > 0:
                    p99 = float(words[9])
                    missed = float(words[11])
            if line.startswith("RESULT "):
                _, mode, n, busy, stall = words
                out[int(n)] = (float(busy), float(stall), settled, p99, missed)
    return out


def runner_round():
    env = dict(base_env)
    env["VIVA_BENCH_ONE_ROUND"] = "1"
    r = subprocess.run([RUNNER], env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit(f"bench_side_by_side: bench-runner failed: {r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


series = {}


def add(name, value):
    if value is not None:
        series.setdefault(name, []).append(value)


x = Mapped()
other_argv = [OTHER, "--standalone", sample] if OTHER.endswith("gnome-text-editor") else [OTHER]
load_before = os.getloadavg()[0]
started = time.monotonic()

# One start of each, not counted: the page cache and fontconfig's cache.
for label, renderer in RENDERERS:
    start_up(x, [APP], renderer, True)
    if OTHER:
        start_up(x, other_argv, renderer, False)

for r in range(ROUNDS):
    for label, renderer in RENDERERS:
        # Alternate which app goes first, so neither always finds the caches warm.
        order = [True, False] if r % 2 == 0 else [False, True]
        for viva in order:
            if viva:
                mapped, painted, rss = start_up(x, [APP], renderer, True)
                add(f"start-up {label}: Viva, mapped (ms)", mapped)
                add(f"start-up {label}: Viva, code painted (ms)", painted)
                add(f"RSS {label}: Viva (MiB)", rss)
            elif OTHER:
                mapped, _, rss = start_up(x, other_argv, renderer, False)
                add(f"start-up {label}: {OTHER_NAME}, mapped (ms)", mapped)
                add(f"RSS {label}: {OTHER_NAME} (MiB)", rss)

    for label, renderer in RENDERERS:
        for bare in ([False, True] if r % 2 == 0 else [True, False]):
            for n, (busy, stall, settled, p99, missed) in panel(bare, renderer).items():
                who = "bare GtkTextView" if bare else "Viva panel"
                add(f"panel {label} {n} deltas: {who}, busy per delta (µs)", busy)
                add(f"panel {label} {n} deltas: {who}, longest stall (ms)", stall)
                add(f"panel {label} {n} deltas: {who}, longest stall after 1 s (ms)", settled)
                add(f"panel {label} {n} deltas: {who}, 99th percentile after 1 s (ms)", p99)
                add(f"panel {label} {n} deltas: {who}, frames missed after 1 s", missed)

    rr = runner_round()
    add("K-Means CPU: worker (ms)", rr["kmeans_viva_cpu_ms"])
    add("K-Means CPU: /usr/bin/python3 (ms)", rr["kmeans_python_cpu_ms"])
    add("K-Means wall: worker (ms)", rr["kmeans_viva_ms"])
    add("K-Means wall: /usr/bin/python3 (ms)", rr["kmeans_python_ms"])
    add("warm round trip (ms)", rr["warm_ms"])
    add("cold start, " + rr["sandbox"] + " (ms)", rr["cold_ms"])
    add("RSS: worker after start (MiB)", rr["worker_rss_kib"] / 1024)
    print(f"# round {r + 1}/{ROUNDS} done, load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)


def fmt(v):
    return f"{v:.3f}" if v < 1 else f"{v:.1f}" if v < 100 else f"{v:.0f}"


print(f"## Side by side, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {ROUNDS} rounds "
      f"interleaved, {(time.monotonic() - started) / 60:.0f} min, load average "
      f"{load_before:.1f} → {os.getloadavg()[0]:.1f}\n")
print("| measure | min | median | max |\n|---|---|---|---|")
for name, values in series.items():
    print(f"| {name} | {fmt(min(values))} | {fmt(statistics.median(values))} | {fmt(max(values))} |")


def ratio(a, b):
    if a in series and b in series:
        pairs = [x / y for x, y in zip(series[a], series[b]) if y]
        if pairs:
            return f"{statistics.median(pairs):.2f} ({min(pairs):.2f}–{max(pairs):.2f})"
    return None


print("\n| ratio (per round: median, min–max) | value |\n|---|---|")
rows = []
for label, _ in RENDERERS:
    rows.append((f"start-up {label}, mapped: Viva / {OTHER_NAME}",
                 ratio(f"start-up {label}: Viva, mapped (ms)", f"start-up {label}: {OTHER_NAME}, mapped (ms)")))
    rows.append((f"RSS {label}: Viva / {OTHER_NAME}",
                 ratio(f"RSS {label}: Viva (MiB)", f"RSS {label}: {OTHER_NAME} (MiB)")))
for label, _ in RENDERERS:
    for n in PANEL_SIZES:
        for what in ("busy per delta (µs)", "longest stall (ms)", "longest stall after 1 s (ms)",
                     "99th percentile after 1 s (ms)"):
            rows.append((f"panel {label} {n} deltas, {what.rsplit(' (', 1)[0]}: Viva / bare",
                         ratio(f"panel {label} {n} deltas: Viva panel, {what}",
                               f"panel {label} {n} deltas: bare GtkTextView, {what}")))
rows.append(("K-Means CPU: worker / python3", ratio("K-Means CPU: worker (ms)", "K-Means CPU: /usr/bin/python3 (ms)")))
rows.append(("K-Means wall: worker / python3", ratio("K-Means wall: worker (ms)", "K-Means wall: /usr/bin/python3 (ms)")))
for name, value in rows:
    if value:
        print(f"| {name} | {value} |")

shutil.rmtree(home, ignore_errors=True)
