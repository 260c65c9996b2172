#!/usr/bin/python3
"""A defense survives the app being killed while the examiner waits for an
answer: at the next start a banner offers to continue it with the keyboard
on Continue, the question is asked again with the half-typed answer back in
the box, and answering it gets the verdict."""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

kmeans = vivagui.bundled_problem("kmeans")
questions = [q["question"] for q in kmeans["questions"]]

vivagui.save_code(home, kmeans["reference_solution"])
vivagui.set_settings(home, examiner_mode="'offline'", window_height="860", console_pane_position="600")


def wait_for(pred, timeout=30):
    return vivagui.wait_for(pred, timeout, 0.25)


def find_prefix(app, prefix, timeout=30):
    found = []

    def look():
        found[:] = app.node.findChildren(lambda n: (n.name or "").startswith(prefix), recursive=True)
        return bool(found)
    wait_for(look, timeout)
    return found[0] if found else None


def shown_question(app):
    for q in questions:
        if app.node.findChildren(lambda n: q in (n.name or "") or q in vivagui.text_of(n), recursive=True):
            return q
    return None


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

vivagui.click(app.find("push button", "Run"))
tap.ok(find_prefix(app, "Finished in", 60) is not None, "the saved solution runs")
submit = app.find("push button", "Submit for Defense")
tap.ok(wait_for(lambda: submit.sensitive, 20), "Submit for Defense is offered")
vivagui.click(submit)
box = app.find("text", "Your answer")
tap.ok(box is not None and wait_for(lambda: box.sensitive, 90), "the examiner asks a question and waits")
asked = shown_question(app)
tap.ok(asked is not None, "the question is one of the problem's questions")
# Half an answer typed, then the computer goes off.
half = "It finds a local minimum, so"
if box is not None:
    vivagui.click(box)
    rawinput.typeText(half)
tap.ok(wait_for(lambda: half in vivagui.text_of(box), 10), "half an answer is typed")
time.sleep(1.5)  # the draft is kept once typing pauses
app.screenshot("resume-1-waiting")

# The computer goes off while the student thinks.
os.kill(app.proc.pid, signal.SIGKILL)
app.proc.wait()
app.log.close()

app = vivagui.App(home)
tap.ok(app.node is not None, "viva starts again")
continue_button = app.find("push button", "Continue", timeout=15)
tap.ok(continue_button is not None and wait_for(lambda: continue_button.sensitive, 15),
       "a banner offers to continue the unfinished defense")
tap.ok(app.find("push button", "Discard", timeout=2) is not None, "and to discard it")
time.sleep(1)  # the banner slides in
app.screenshot("resume-2-banner")
tap.ok(continue_button is not None and wait_for(lambda: continue_button.focused, 5),
       "the keyboard is on Continue")
if continue_button is not None:
    rawinput.pressKey("Return")
    # Under Xvfb without a window manager, the first synthesized key after
    # a client was killed can go astray; then press the button through its
    # accessible action.
    if not wait_for(lambda: not continue_button.sensitive, 3):
        continue_button.doActionNamed("click")

box = app.find("text", "Your answer")
tap.ok(box is not None and wait_for(lambda: box.sensitive, 60), "the answer box waits again")
tap.ok(wait_for(lambda: shown_question(app) == asked, 15), "the same question is asked again")
tap.ok(find_prefix(app, "Testing an edge case", 5) is not None and find_prefix(app, "Reading your code", 5) is not None,
       "the steps done before the crash are shown again, as finished cards")
time.sleep(1)  # text views lay their lines out over a few frames
app.screenshot("resume-3-question-again")

tap.ok(box is not None and wait_for(lambda: vivagui.text_of(box) == half, 10),
       "the half-typed answer is back in the answer box")
if box is not None:
    vivagui.click(box)
    rawinput.keyCombo("<Control>End")
    rawinput.typeText(" the start matters; run it several times.")
    rawinput.keyCombo("<Control>Return")
# Then the engine's prediction about the student's own code.
tap.ok(find_prefix(app, "What does this call return on your code?", 60) is not None,
       "the prediction question comes next")
if box is not None and wait_for(lambda: box.sensitive and vivagui.text_of(box) == "", 30):
    vivagui.click(box)
    rawinput.typeText("[0, 1]")
    rawinput.keyCombo("<Control>Return")
tap.ok(find_prefix(app, "Passed", 90) is not None, "answering it gets the verdict")
app.screenshot("resume-4-verdict")
tap.ok(app.quit() == 0, "Viva closes cleanly")
err = app.stderr()
if not tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings or criticals on the app's stderr"):
    print(err, file=sys.stderr)

# A finished defense is not offered again.
app = vivagui.App(home)
again = app.find("push button", "Continue", timeout=5)
time.sleep(1)
tap.ok(again is None or not again.sensitive, "once finished, the defense is not offered again")
app.quit()

vivagui.cleanup(home)
tap.done()
