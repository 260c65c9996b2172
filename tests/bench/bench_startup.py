#!/usr/bin/python3
"""Cold start: from exec of `viva` to the window mapped, painted and the
editor holding the problem's code. Run under a display (xvfb-run)."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

app = os.environ.get("VIVA_APP")
runs = int(os.environ.get("VIVA_BENCH_RUNS", "15"))
if not app or not os.environ.get("DISPLAY"):
    print("bench_startup: needs VIVA_APP and a DISPLAY (run under xvfb-run)", file=sys.stderr)
    sys.exit(77)

home = tempfile.mkdtemp(prefix="viva-bench-")
env = dict(os.environ)
env.update({
    "VIVA_DEBUG_STARTUP": "exit",
    "GSETTINGS_BACKEND": "memory",
    "XDG_DATA_HOME": os.path.join(home, "data"),
    "XDG_CONFIG_HOME": os.path.join(home, "config"),
    "GDK_BACKEND": "x11",
})
env.pop("G_DEBUG", None)

renderer = os.environ.get("VIVA_BENCH_RENDERER")
if renderer:
    env["GSK_RENDERER"] = renderer

walls, inner = [], []
for i in range(runs + 1):
    t0 = time.monotonic()
    p = subprocess.Popen([app], env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    ready = None
    for line in p.stderr:
        if line.startswith("startup: ready"):
            ready = time.monotonic() - t0
            inner_ms = float(line.split()[2])
            break
    p.wait(timeout=30)
    if ready is None:
        print("bench_startup: the app never reported ready", file=sys.stderr)
        sys.exit(1)
    if i == 0:
        continue  # the first run warms the page cache and fontconfig's cache
    walls.append(ready * 1000)
    inner.append(inner_ms)

print(f"cold start, exec → window painted with the code ready, {runs} runs, "
      f"renderer {renderer or 'GTK default (software GL under Xvfb)'}:")
print(f"  wall  median {statistics.median(walls):.0f} ms  min {min(walls):.0f}  max {max(walls):.0f}")
print(f"  main() → ready median {statistics.median(inner):.0f} ms")
