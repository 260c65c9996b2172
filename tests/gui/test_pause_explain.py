#!/usr/bin/python3
"""Practice that teaches, in the window: Pause shows where a running program
is (the line highlighted in the editor, the stack with each frame's variables
in the output), Resume goes on, Stop stops; on a loop and then at the bottom
of a deep recursion. After a traceback, Explain This Error answers offline
from Viva's table ("did you mean"); Explain of a selection says it needs a
model. One app start for all of it."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

# A loop for a few seconds, then a recursion 200 deep that never ends.
PROGRAM = """import time

def down(n):
    if n == 0:
        while True:
            pass
    down(n - 1)

start = time.time()
while time.time() - start < 3:
    spins = 1
down(200)
"""
vivagui.save_code(home, PROGRAM)
vivagui.set_settings(home, examiner_mode="'offline'")


def wait_for(pred, timeout=20):
    return vivagui.wait_for(pred, timeout)


def named(prefix, timeout=15):
    return vivagui.find_named(app, prefix, timeout=timeout, prefix=True)


def caret_line(editor):
    t = editor.queryText()
    return t.getText(0, t.caretOffset).count("\n") + 1


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

console = app.find("text", "Program output")
editor = app.find("text", "Code editor")
tap.ok(app.find("push button", "Pause", timeout=1) is None, "no Pause button while nothing runs")

vivagui.click(app.find("push button", "Run"))
pause = app.find("push button", "Pause", timeout=10)
tap.ok(pause is not None, "Pause is beside Stop while the code runs")
vivagui.click(pause)
heading = named("Paused on line 1")
tap.ok(heading is not None and heading.name.startswith(("Paused on line 10", "Paused on line 11")),
       "the output says the line of the loop (%s)" % (heading.name if heading else None))
tap.ok(named("Top level, line") is not None, "the stack shows the top level frame")
tap.ok(named("start", 5) is not None and named("spins", 5) is not None, "its variables are listed")
tap.ok(caret_line(editor) in (10, 11), "the editor is on the paused line (%d)" % caret_line(editor))
app.screenshot("pause-1-loop")

resume = app.find("push button", "Resume", timeout=5)
tap.ok(resume is not None, "paused, the button offers Resume")
vivagui.click(resume)
tap.ok(app.find("push button", "Pause", timeout=10) is not None, "resumed, Pause is back")

# Now at the bottom of the recursion (the loop's three seconds are over).
time.sleep(3.5)
vivagui.click(app.find("push button", "Pause"))
tap.ok(named("Paused on line 5", 15) is not None or named("Paused on line 6", 1) is not None,
       "paused again, inside the innermost call")
tap.ok(named("down(), line") is not None, "the frames of down() are listed")
tap.ok(named("… and ", 5) is not None, "the calls further out are counted, not all listed")
app.screenshot("pause-2-recursion")

vivagui.click(app.find("push button", "Stop"))
tap.ok(app.find("push button", "Run", timeout=10) is not None, "Stop stops the paused program")
tap.ok(wait_for(lambda: "Stopped." in vivagui.text_of(console)), "the console says it stopped")

# An error, explained offline.
vivagui.click(editor)
rawinput.keyCombo("<Control>a")
rawinput.pressKey("BackSpace")
rawinput.typeText("print(mni([3, 1]))\n")
vivagui.click(app.find("push button", "Run"))
tap.ok(wait_for(lambda: "NameError on line 1" in vivagui.text_of(console)), "the error is shown")
explain_error = vivagui.find_named(app, "Explain This Error", timeout=10)
tap.ok(explain_error is not None, "the console offers Explain This Error after the traceback")
if explain_error is not None:
    vivagui.click(explain_error)
tap.ok(wait_for(lambda: "Did you mean “min”?" in vivagui.text_of(console)),
       "the offline table explains it, with did you mean")
tap.ok("table of common errors" in vivagui.text_of(console), "it says where the explanation came from")
app.screenshot("pause-3-explained")

# Explain a selection: disabled with nothing selected, saying why; offline
# it says it needs a model.
explain = app.find("push button", "Explain")
tap.ok(explain is not None and not explain.sensitive, "Explain waits for a selection")
tap.ok(explain is not None and "Select lines" in (explain.description or ""),
       "its tooltip says why (%s)" % (explain.description if explain else None))
vivagui.click(editor)
rawinput.keyCombo("<Control>a")
tap.ok(wait_for(lambda: explain.sensitive, 5), "a selection enables Explain")
vivagui.click(explain)
tap.ok(wait_for(lambda: "needs a model" in vivagui.text_of(console)), "without a model it says so plainly")

tap.ok(app.quit() == 0, "Viva closes cleanly")
vivagui.check_stderr(tap, app)
vivagui.cleanup(home)
tap.done()
