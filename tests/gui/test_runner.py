#!/usr/bin/python3
"""Running code from the window: output and errors in the console, a click
on an error's line jumps there, and an endless loop never freezes the
window: it keeps answering, and Stop ends the loop."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

kmeans = vivagui.bundled_problem("kmeans")
vivagui.save_code(home, "print('hello from the student')\nratio = 1 / 0\n")


def wait_for(pred, timeout=20):
    return vivagui.wait_for(pred, timeout)


def named_prefix(app, prefix):
    return app.node.findChildren(lambda n: (n.name or "").startswith(prefix), recursive=True)


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

console = app.find("text", "Program output")
run = app.find("push button", "Run")
vivagui.click(run)
tap.ok(wait_for(lambda: "hello from the student" in vivagui.text_of(console)), "the program's output reaches the console")
tap.ok(wait_for(lambda: "ZeroDivisionError on line 2" in vivagui.text_of(console)),
       "the error names its type and the student's line")
tap.ok(wait_for(lambda: named_prefix(app, "Stopped by an error")), "the status line says the run stopped on an error")
submit = app.find("push button", "Submit for Defense")
tap.ok(submit is not None and not submit.sensitive, "Submit for Defense waits for a run without error")
app.screenshot("runner-1-error")

# An endless loop, typed as a student would.
editor = app.find("text", "Code editor")
vivagui.click(editor)
rawinput.keyCombo("<Control>a")
rawinput.pressKey("BackSpace")
rawinput.typeText("n = 0\nwhile True:\n    n += 1\n")
tap.ok(wait_for(lambda: "while True:" in vivagui.text_of(editor)), "the loop is typed into the editor")
vivagui.click(app.find("push button", "Run"))
stop = app.find("push button", "Stop", timeout=10)
tap.ok(stop is not None, "while the code runs, Run becomes Stop")
time.sleep(1.5)

# The window still answers: the hint opens while the loop spins.
vivagui.click(app.find("push button", "Hint"))
tap.ok(app.find("label", kmeans["hint"], timeout=5) is not None, "the window still responds during the loop")
app.screenshot("runner-2-loop-running")

if stop is not None:
    vivagui.click(stop)
tap.ok(app.find("push button", "Run", timeout=10) is not None, "Stop ends the run and Run is back")
tap.ok(wait_for(lambda: named_prefix(app, "Interrupted") or named_prefix(app, "Stopped")),
       "the status line says the run was stopped")
app.screenshot("runner-3-stopped")

# The variables survived the interrupt, as the console promised.
vivagui.click(editor)
rawinput.keyCombo("<Control>a")
rawinput.pressKey("BackSpace")
rawinput.typeText("print('loop reached', n > 0)\n")
vivagui.click(app.find("push button", "Run"))
tap.ok(wait_for(lambda: "loop reached True" in vivagui.text_of(console)), "the loop's variables are kept after Stop")
tap.ok(wait_for(lambda: submit.sensitive), "a clean run offers Submit for Defense")

# A flood of output: one note says it was cut, the status line says so
# too, and the end of what is shown is in view.
vivagui.click(editor)
rawinput.keyCombo("<Control>a")
rawinput.pressKey("BackSpace")
rawinput.typeText("for i in range(200000):\n    print('line', i, 'of a flood of output')\n")
vivagui.click(app.find("push button", "Run"))
tap.ok(wait_for(lambda: named_prefix(app, "Finished in"), 60), "the flood runs to its end")
status = named_prefix(app, "Finished in")
tap.ok(status and "cut short" in status[0].name, "the status line says the output was cut short (%s)"
       % (status[0].name if status else None))
text = vivagui.text_of(console)
tap.ok(text.count("[Output truncated") == 1, "one note says where the output was cut, not two (%d)"
       % text.count("[Output truncated"))


def note_in_view():
    import pyatspi
    try:
        t = console.queryText()
        whole = t.getText(0, -1)
        at = whole.rfind("[Output truncated")
        x, y, w, h = t.getCharacterExtents(at, pyatspi.WINDOW_COORDS)
        box = console.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return at >= 0 and box.y <= y and y + h <= box.y + box.height
    except Exception:
        return False


tap.ok(wait_for(note_in_view, 10), "the note at the end of the output is in view")
app.screenshot("runner-4-flood")

tap.ok(app.quit() == 0, "Viva closes cleanly")
err = app.stderr()
if not tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings or criticals on the app's stderr"):
    print(err, file=sys.stderr)

vivagui.cleanup(home)
tap.done()
