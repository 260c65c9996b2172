#!/usr/bin/python3
"""Past defenses of a problem: the list with date, examiner and verdict,
and a defense's transcript, read-only."""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

# Two defenses of K-Means by the offline examiner, through the real CLI and
# worker, into this home's sessions folder: the starter (fails) and the
# reference (passes).
src = os.environ["VIVA_SOURCE_ROOT"]
pack_path = os.path.join(src, "data", "packs", "intro-ai.json")
kmeans = next(p for p in json.load(open(pack_path))["problems"] if p["id"] == "kmeans")
answers = os.path.join(home, "answers.json")
with open(answers, "w") as f:
    json.dump(["It finds a local minimum, so the start matters; I would rerun it.", "[0, 1]"], f)
for which in ("starter_code", "reference_solution"):
    code = os.path.join(home, which + ".py")
    with open(code, "w") as f:
        f.write(kmeans[which])
    env = vivagui.env_for(home)
    env["GSETTINGS_BACKEND"] = "memory"
    done = subprocess.run([os.environ["VIVA_CLI"], "defend", "--pack", pack_path, "--problem", "kmeans",
                           "--code", code, "--answers", answers, "--offline", "--json"],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    tap.ok(done.returncode in (0, 1) and b'"verdict"' in done.stdout, f"an offline defense of the {which.split('_')[0]} ran")
    time.sleep(1.1)  # the history orders by the second


def wait_for(pred, timeout=10):
    return vivagui.wait_for(pred, timeout)


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

# Popovers report positions relative to themselves in GTK 4.8, so the menu
# is checked by name and the window opened with its shortcut.
menu = app.find("push button", "Main Menu")
vivagui.click(menu)
tap.ok(app.find("menu item", "Past Defenses", timeout=5) is not None or
       app.find("push button", "Past Defenses", timeout=1) is not None, "the main menu offers Past Defenses")
rawinput.pressKey("Escape")
time.sleep(0.3)
rawinput.keyCombo("<Control>h")



def defense_rows():
    past = app.find("list", "Past defenses", timeout=1)
    if past is None:
        return []
    return past.findChildren(lambda n: n.roleName == "list item", recursive=False)


wait_for(lambda: len(defense_rows()) >= 2)
rows = defense_rows()
labels = [c.name for r in rows for c in r.findChildren(lambda m: m.roleName == "label", recursive=True)]
tap.ok(len(rows) == 2, f"both defenses are listed ({len(rows)})")
tap.ok(any(l.startswith("Passed, 100/100") for l in labels), "the passing defense shows its score")
tap.ok(any(l.startswith("Failed") for l in labels), "the failing defense says so")
tap.ok(len(labels) > 1 and labels[1].startswith("Passed"), "the newest defense comes first")
app.screenshot("history-list")

if rows:
    vivagui.click(rows[0])
transcript = app.find("text", "Transcript", timeout=10)
tap.ok(transcript is not None and wait_for(lambda: "Passed" in vivagui.text_of(transcript)),
       "opening a defense shows its verdict")
tap.ok(transcript is not None and "Testing an edge case" in vivagui.text_of(transcript),
       "and its transcript with the tests the examiner ran")
tap.ok(transcript is not None and "local minimum" in vivagui.text_of(transcript),
       "and the student's answer")
tap.ok(app.find("push button", "Export Report…", timeout=3) is not None, "a defense can be exported")
app.screenshot("history-transcript")

rawinput.pressKey("Escape")
tap.ok(app.quit() == 0, "Viva closes cleanly")
if not tap.ok("CRITICAL" not in app.stderr() and "WARNING" not in app.stderr(),
              "no warnings or criticals on the app's stderr"):
    print(app.stderr(), file=sys.stderr)

vivagui.cleanup(home)
tap.done()
