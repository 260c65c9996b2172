#!/usr/bin/python3
"""A lab's shared model server that is busy when the student submits: Ollama
turns the first three requests away with its 503 (queue full, come back in
six seconds). The panel says so calmly — "The lab's model server is busy —
waiting (N s)" with Stop, no error — and the defense goes on by itself when
the server answers, to its verdict. Screenshots: build/screenshots/busy-*.png."""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

SERVER = os.environ.get("VIVA_GUI_SERVER", "")

SOLUTION = """import random


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
                cs[c] = (sum(p[0] for p in ps) / n, sum(p[1] for p in ps) / n)
    return cs, labels
"""

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402


def find_named(app, name, timeout=20.0, prefix=False):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            hits = app.node.findChildren(
                lambda n: n.name is not None and (n.name.startswith(name) if prefix else n.name == name),
                recursive=True)
            if hits:
                return hits[0]
        except Exception:
            pass
        time.sleep(0.25)
    return None


def wait_for(predicate, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if predicate():
                return True
        except Exception:
            pass
        time.sleep(0.2)
    return False


if not SERVER or not os.path.exists(SERVER):
    tap.skip_all("viva-gui-server was not built")

code_file = os.path.join(home, "solution.py")
with open(code_file, "w") as f:
    f.write(SOLUTION)
code_dir = os.path.join(home, "data", "viva", "code", "intro-ai")
os.makedirs(code_dir, exist_ok=True)
with open(os.path.join(code_dir, "kmeans.py"), "w") as f:
    f.write(SOLUTION)

server = subprocess.Popen([SERVER, "--script", "defense", "--code", code_file,
                           "--busy-first", "3", "--retry-after", "6"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
url = server.stdout.readline().strip()
with open(os.path.join(home, "config", "glib-2.0", "settings", "keyfile"), "a") as f:
    f.write(f"\n[io/github/vivaexam/Viva]\nbase-url='{url}'\nexaminer-mode='auto'\n")

app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva appears on the accessibility bus"):
    app.kill()
    server.terminate()
    print(app.stderr(), file=sys.stderr)
    tap.done()

vivagui.click(app.find("push button", "Run"))
tap.ok(find_named(app, "Finished in", timeout=60, prefix=True) is not None, "the saved solution runs cleanly")
submit = app.find("push button", "Submit for Defense")
tap.ok(submit is not None and wait_for(lambda: submit.sensitive, 20), "Submit for Defense is enabled")
vivagui.click(submit)

BUSY_LINE = r"The lab’s model server is busy — waiting \((\d+) s\)"


def busy_seconds():
    node = find_named(app, "The lab’s model server is busy — waiting (", timeout=1, prefix=True)
    match = re.fullmatch(BUSY_LINE, node.name) if node is not None else None
    return int(match.group(1)) if match else None


busy = find_named(app, "The lab’s model server is busy — waiting (", timeout=20, prefix=True)
first = busy_seconds()
tap.ok(busy is not None, "the panel says the lab's server is busy and that it waits")
tap.ok(first is not None, "the waiting line says how long it has waited, in seconds")
tap.ok(wait_for(lambda: (busy_seconds() or -1) > first, 8) if first is not None else False,
       "the waiting line counts the seconds")
stop = app.find("push button", "Stop", timeout=5)
tap.ok(stop is not None, "Stop is offered while it waits")
tap.ok(find_named(app, "The examiner stopped because of an error", timeout=1) is None,
       "waiting is not an error")
app.screenshot("busy-1-waiting")


tap.ok(find_named(app, "Reading your code", timeout=40) is not None,
       "once the server answers, the defense goes on by itself")
tap.ok(find_named(app, "The lab’s model server is busy", timeout=1, prefix=True) is None,
       "and the busy line is gone")
question = find_named(app, "Why can k-means give different clusters", timeout=40, prefix=True)
tap.ok(question is not None, "the examiner's question comes")
box = app.find("text", "Your answer")
if box is not None and wait_for(lambda: box.sensitive, 20):
    vivagui.click(box)
    rawinput.typeText("It finds a local minimum; run it several times or use k-means++.")
    rawinput.keyCombo("<Control>Return")
tap.ok(find_named(app, "Passed", timeout=40) is not None, "the defense ends with its verdict")
app.screenshot("busy-2-verdict")

app.quit()
server.terminate()
server.wait(timeout=10)
err = app.stderr()
if not tap.ok("CRITICAL" not in err and "WARNING" not in err and "Gtk-" not in err,
              "no warnings or criticals on the app's stderr"):
    print(err, file=sys.stderr)
tap.done()
