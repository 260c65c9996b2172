#!/usr/bin/python3
"""The window a student sees first: a problem, an editor that takes typing,
Run and Submit buttons, and code that survives a restart."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva appears on the accessibility bus"):
    app.kill()
    print(app.stderr(), file=sys.stderr)
    tap.done()

frame = app.find("frame", None)
tap.ok(frame is not None and "K-Means" in frame.name, "the window opens on the K-Means problem")

problem = app.find("text", "Problem description")
tap.ok(problem is not None and "k-means" in vivagui.text_of(problem).lower(),
       "the problem's description is shown")

editor = app.find("text", "Code editor")
tap.ok(editor is not None, "the code editor is found by its accessible name")
tap.ok(editor is not None and "def kmeans" in vivagui.text_of(editor),
       "the editor starts with the starter code")

run = app.find("push button", "Run")
tap.ok(run is not None, "a Run button is found by its accessible name")
submit = app.find("push button", "Submit for Defense")
tap.ok(submit is not None, "a Submit for Defense button is found by its accessible name")

typed = "print('hello from the student')"
if editor is not None:
    vivagui.click(editor)
    rawinput.keyCombo("<Control>End")
    rawinput.pressKey("Return")
    rawinput.typeText(typed)
    deadline = time.time() + 10
    while time.time() < deadline and typed not in vivagui.text_of(editor):
        time.sleep(0.2)
tap.ok(editor is not None and typed in vivagui.text_of(editor), "typed code arrives in the editor")

app.screenshot("window")
time.sleep(1.5)  # let the debounced save happen, as a student pausing would
tap.ok(app.quit() == 0, "Ctrl+Q closes Viva cleanly")
if not tap.ok("CRITICAL" not in app.stderr() and "WARNING" not in app.stderr(),
              "no warnings or criticals on the app's stderr"):
    print(app.stderr(), file=sys.stderr)

saved = os.path.join(home, "data", "viva", "code", "intro-ai", "kmeans.py")
tap.ok(os.path.exists(saved) and typed in open(saved).read(), "the code was saved for this problem")

app = vivagui.App(home)
editor = app.find("text", "Code editor") if app.node else None
tap.ok(editor is not None and typed in vivagui.text_of(editor),
       "after a restart the editor shows the student's code, not the starter")
app.screenshot("window-restarted")
app.quit()

vivagui.cleanup(home)
tap.done()
