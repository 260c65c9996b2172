#!/usr/bin/python3
"""A whole offline defense with the keyboard alone, as a student who does
not use the mouse: Run, Submit, answer the question, read the verdict, ask
a follow-up — every key press goes where the student types next. The
Shortcuts window lists the defense's keys; Ctrl+Plus makes the code
larger. Screenshots: build/screenshots/keyboard-*.png."""

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
vivagui.save_code(home, kmeans["reference_solution"])
keyfile = vivagui.keyfile(home)
vivagui.set_settings(home, examiner_mode="'offline'", window_width="1280", window_height="800")

ANSWER = "It only finds a local minimum, so the start matters; run it several times."
FOLLOW_UP = "Which test was the hardest"


def wait_for(pred, timeout=30):
    return vivagui.wait_for(pred, timeout, 0.25)


def named(app, prefix):
    return app.node.findChildren(lambda n: (n.name or "").startswith(prefix), recursive=True)


def focused(node):
    try:
        return node.focused
    except Exception:
        return False


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

editor = app.find("text", "Code editor")
code = vivagui.text_of(editor)
tap.ok(wait_for(lambda: focused(editor), 10), "the editor has the focus at start")

rawinput.keyCombo("<Control>Return")
tap.ok(wait_for(lambda: named(app, "Finished in"), 60), "Ctrl+Enter runs the code")
rawinput.keyCombo("<Control><Shift>Return")
box = app.find("text", "Your answer", timeout=30)
tap.ok(box is not None, "Ctrl+Shift+Enter submits and opens the examiner")
tap.ok(box is not None and wait_for(lambda: box.sensitive, 90), "the examiner asks a question")
tap.ok(wait_for(lambda: focused(box), 5), "the question puts the focus in the answer box")
app.screenshot("keyboard-1-question")
rawinput.typeText(ANSWER)
tap.ok(wait_for(lambda: vivagui.text_of(box) == ANSWER, 5), "the answer is typed into the box, without a click")
rawinput.keyCombo("<Control>Return")
# The engine's prediction comes next; the focus stays in the box.
tap.ok(wait_for(lambda: box.sensitive and vivagui.text_of(box) == "" and focused(box), 60),
       "the next question, a prediction, waits in the same box")
rawinput.typeText("[0, 1]")
rawinput.keyCombo("<Control>Return")
tap.ok(wait_for(lambda: named(app, "Score: "), 90), "Ctrl+Enter sends it, and the verdict comes")
tap.ok(wait_for(lambda: box.sensitive and focused(box), 10),
       "after the verdict, the focus is in the follow-up box")
app.screenshot("keyboard-2-verdict")

# Away from the box with Shift+Tab, and back with the answer-box shortcut.
rawinput.keyCombo("<Shift>Tab")
tap.ok(wait_for(lambda: not focused(box), 5), "Shift+Tab leaves the box")
rawinput.keyCombo("<Control><Shift>a")
tap.ok(wait_for(lambda: focused(box), 5), "Ctrl+Shift+A puts the focus back in the answer box")
rawinput.typeText(FOLLOW_UP)
tap.ok(wait_for(lambda: vivagui.text_of(box) == FOLLOW_UP, 5), "typing after the verdict goes into the box")
tap.ok(vivagui.text_of(editor) == code, "and not into the code")
rawinput.keyCombo("<Control>Return")
tap.ok(wait_for(lambda: vivagui.text_of(box) == "" and named(app, FOLLOW_UP), 10),
       "Ctrl+Enter sends the follow-up; it shows in the conversation")
tap.ok(wait_for(lambda: box.sensitive and focused(box), 60),
       "once the examiner has answered, the focus is back in the box")
app.screenshot("keyboard-3-follow-up")

# The Shortcuts window names the defense's keys.
rawinput.keyCombo("<Control><Shift>question")
titles = ["Go to the answer box", "Send your answer", "Stop the defense",
          "Leave the editor (Tab indents in it)", "Larger code", "Indent the selected lines"]
listed = wait_for(lambda: all(named(app, t) for t in titles), 10)
tap.ok(listed, "the Shortcuts window lists " + ", ".join(titles))
app.screenshot("keyboard-4-shortcuts")
rawinput.pressKey("Escape")
time.sleep(0.5)

# Ctrl+Plus: larger code, remembered.
rawinput.keyCombo("<Control>plus")
rawinput.keyCombo("<Control>plus")
tap.ok(wait_for(lambda: "code-font-size=" in open(keyfile).read(), 5),
       "Ctrl+Plus makes the code larger, and the size is kept as a setting")
app.screenshot("keyboard-5-zoomed")
rawinput.keyCombo("<Control>0")
tap.ok(wait_for(lambda: "code-font-size=0" in open(keyfile).read() or "code-font-size" not in open(keyfile).read(), 5),
       "Ctrl+0 puts it back to the desktop's size")

app.quit()
err = app.stderr()
if not tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings on stderr"):
    print(err, file=sys.stderr)
vivagui.cleanup(home)
tap.done()
