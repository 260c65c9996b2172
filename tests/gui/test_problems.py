#!/usr/bin/python3
"""Finding one's way among problems: the list grouped by pack with each
problem's status, switching problems, the hint, resetting to the starter
code (asked first, undoable), and importing a pack that is broken."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402


def wait_for(pred, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred():
            return True
        time.sleep(0.2)
    return False


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

problems = app.find("push button", "Problems")
tap.ok(problems is not None, "a Problems button is found by its accessible name")
vivagui.click(problems)
knn = app.find("list item", None, timeout=5)
rows = []
if knn is not None:
    rows = app.node.findChildren(lambda n: n.roleName == "list item", recursive=True)
tap.ok(len(rows) >= 11, f"the list shows every bundled problem ({len(rows)} rows)")
statuses = [c.name for r in rows[:1] for c in r.findChildren(lambda n: n.roleName == "label", recursive=True)]
tap.ok("Not started" in statuses, "rows say where the student stands")
tap.ok(app.find("label", "Introduction to AI", timeout=2) is not None, "problems are grouped under their pack's title")
app.screenshot("problems-list")

target = next((r for r in rows if "nearest neighbours" in r.name), None)
tap.ok(target is not None, "k-nearest neighbours is in the list")
if target is not None:
    vivagui.click(target)
frame = app.find("frame", None)
tap.ok(wait_for(lambda: "nearest" in frame.name), "choosing it opens that problem")
editor = app.find("text", "Code editor")
tap.ok(wait_for(lambda: "def " in vivagui.text_of(editor) and "kmeans" not in vivagui.text_of(editor)),
       "the editor shows that problem's starter code")

# F9 opens the list on the problem open now, marked as such; Return on it
# closes the list and keeps the problem, its code and its output.
vivagui.click(editor)
rawinput.keyCombo("<Control>End")
rawinput.typeText("\n# kept while switching\n")
tap.ok(wait_for(lambda: "# kept while switching" in vivagui.text_of(editor)), "typing in k-NN")
rawinput.pressKey("F9")


def current_rows():
    return [r for r in app.node.findChildren(lambda n: n.roleName == "list item", recursive=True)
            if r.findChildren(lambda n: n.name == "Open now", recursive=True)]


tap.ok(wait_for(lambda: len(current_rows()) == 1 and "nearest" in current_rows()[0].name),
       "the list marks the open problem, and only it")
tap.ok(wait_for(lambda: current_rows() and current_rows()[0].focused),
       "the keyboard starts on the open problem")
app.screenshot("problems-list-current")
rawinput.pressKey("Return")
# The list's rows are in the accessible tree only while it is open.
tap.ok(wait_for(lambda: not app.node.findChildren(lambda n: n.roleName == "list item", recursive=True)),
       "Return on the open problem closes the list")
tap.ok("nearest" in frame.name and "# kept while switching" in vivagui.text_of(editor),
       "and leaves the problem and its code as they were")
rawinput.pressKey("F9")
tap.ok(wait_for(lambda: current_rows() and current_rows()[0].focused), "F9 opens the list again")
rawinput.pressKey("Escape")

hint_button = app.find("push button", "Hint")
tap.ok(hint_button is not None, "a Hint button is there")
if hint_button is not None:
    vivagui.click(hint_button)
pack = json.load(open(os.path.join(os.environ["VIVA_SOURCE_ROOT"], "data", "packs", "intro-ai.json")))
knn_hint = next(p["hint"] for p in pack["problems"] if p["id"] == "knn")
tap.ok(app.find("label", knn_hint, timeout=5) is not None, "the problem's hint is shown when asked for")
app.screenshot("problem-hint")

# Type, then reset to the starter: asked first, and undoable.
vivagui.click(editor)
rawinput.keyCombo("<Control>End")
rawinput.typeText("\n# my own work\n")
tap.ok(wait_for(lambda: "# my own work" in vivagui.text_of(editor)), "typing reaches the editor")
reset = app.find("push button", "Reset Code…")
tap.ok(reset is not None, "a Reset Code button is there")
vivagui.click(reset)
confirm = None
deadline = time.time() + 5
while confirm is None and time.time() < deadline:
    hits = app.node.findChildren(lambda n: n.roleName == "push button" and "Reset" in n.name
                                 and "Code" not in n.name, recursive=True)
    confirm = hits[0] if hits else None
    time.sleep(0.2)
tap.ok(confirm is not None, "resetting asks first")
app.screenshot("reset-dialog")
if confirm is not None:
    vivagui.click(confirm)
tap.ok(wait_for(lambda: "# my own work" not in vivagui.text_of(editor)), "after confirming, the starter code is back")
undo = None
deadline = time.time() + 5
while undo is None and time.time() < deadline:
    hits = app.node.findChildren(lambda n: n.roleName == "push button" and "Undo" in n.name, recursive=True)
    undo = hits[0] if hits else None
    time.sleep(0.2)
tap.ok(undo is not None, "a toast offers Undo")
if undo is not None:
    vivagui.click(undo)
tap.ok(wait_for(lambda: "# my own work" in vivagui.text_of(editor)), "Undo brings the student's code back")

tap.ok(app.quit() == 0, "Viva closes cleanly")
if not tap.ok("CRITICAL" not in app.stderr() and "WARNING" not in app.stderr(),
              "no warnings or criticals on the app's stderr"):
    print(app.stderr(), file=sys.stderr)

# A restart reopens the last problem, with its code.
app = vivagui.App(home)
frame = app.find("frame", None) if app.node else None
tap.ok(frame is not None and wait_for(lambda: "nearest" in frame.name), "a restart reopens the last problem")
editor = app.find("text", "Code editor")
tap.ok(editor is not None and wait_for(lambda: "# my own work" in vivagui.text_of(editor)),
       "with the student's code for it")
app.quit()

vivagui.cleanup(home)
tap.done()
