#!/usr/bin/python3
"""The examiner panel as a student uses it: type a K-Means solution, Run,
Submit for Defense, watch the examiner's steps appear as cards, answer its
question, get a verdict with a score and ask a follow-up; then the same
with the offline examiner and no server; then a 20,000-token reply that
must not freeze the panel. Screenshots of each stage go to
build/screenshots/examiner-*.png."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402
from vivagui import (KMEANS_SOLUTION, find_named, save_code, set_settings,  # noqa: E402
                     start_server, stop_server, unused_url, wait_for)

ANSWER = "It only finds a local minimum, so the start matters; run it several times or use k-means++."

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402


LEAVING = ("return", "pass", "break", "continue", "raise")


def auto_indent(previous):
    """The indentation the editor gives the line after `previous`, as
    IDLE does: one level more after a colon, one less after return."""
    indent = len(previous) - len(previous.lstrip(" "))
    code = previous.split("#")[0].rstrip()
    if not code.strip():
        return indent
    if code.endswith((":", "(", "[", "{")):
        return indent + 4
    word = code.split()[0].split("(")[0]
    if word in LEAVING:
        return max(0, indent - 4)
    return indent


def type_code(editor, code):
    """Types code line by line as a person would, with the editor's
    auto-indent: Return indents as IDLE does, BackSpace removes a level."""
    vivagui.click(editor)
    rawinput.keyCombo("<Control>a")
    rawinput.pressKey("BackSpace")
    current = 0
    previous = ""
    for i, line in enumerate(code.rstrip("\n").split("\n")):
        if i > 0:
            rawinput.pressKey("Return")
            current = auto_indent(previous)
        if not line.strip():
            previous = " " * current
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent > current:
            rawinput.typeText(" " * (indent - current))
        else:
            for _ in range((current - indent) // 4):
                rawinput.pressKey("BackSpace")
        rawinput.typeText(line.strip())
        current = indent
        previous = line


def run_code(app):
    run = app.find("push button", "Run")
    vivagui.click(run)
    return find_named(app, "Finished in", timeout=60, prefix=True) is not None


def submit(app):
    button = app.find("push button", "Submit for Defense")
    if button is None or not wait_for(lambda: button.sensitive, 20):
        return False
    vivagui.click(button)
    return True


def answer(app, text, send_with_keyboard=True, click=True):
    box = app.find("text", "Your answer")
    if box is None or not wait_for(lambda: box.sensitive, 20):
        return False
    if click:
        vivagui.click(box)
    rawinput.typeText(text)
    if send_with_keyboard:
        rawinput.keyCombo("<Control>Return")
    else:
        vivagui.click(app.find("push button", "Send"))
    return True


vivagui.require_server(tap)

# 1. Against a server that answers like Ollama ------------------------------

code_file = os.path.join(home, "solution.py")
with open(code_file, "w") as f:
    f.write(KMEANS_SOLUTION)
server, url = start_server("--script", "defense", "--code", code_file)
# An editor tall enough for the whole solution: GTK 4.8 can warn "Trying to
# snapshot GtkGizmo without a current allocation" when the editor's
# scrollbar first appears mid-typing, which is not what this test is about.
set_settings(home, base_url=f"'{url}'", examiner_mode="'auto'",
             window_height="860", console_pane_position="600")

app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva appears on the accessibility bus"):
    app.kill()
    stop_server(server)
    print(app.stderr(), file=sys.stderr)
    tap.done()

tap.ok(app.find("text", "Your answer", timeout=2) is None,
       "while the student codes, the examiner panel is closed")
examiner_toggle = app.find("push button", "Examiner")
tap.ok(examiner_toggle is not None, "a header button opens the examiner")
vivagui.click(examiner_toggle)
tap.ok(find_named(app, "Your Examiner") is not None, "the panel starts by saying what will happen")
vivagui.click(examiner_toggle)

editor = app.find("text", "Code editor")
type_code(editor, KMEANS_SOLUTION)
tap.ok(wait_for(lambda: "cs[c] = (sx / n, sy / n)" in vivagui.text_of(editor)),
       "the K-Means solution is typed into the editor")
tap.ok(run_code(app), "Run finishes without an error")
app.screenshot("examiner-1-ready")
# HACK: typing into the editor sometimes makes GTK 4.8 warn "Trying to
# snapshot GtkGizmo … without a current allocation" (seen only while
# typing, never in the panel's steps; the same warning while typing into a
# GtkTextView: https://github.com/sonnyp/Commit/issues/109, no GTK issue
# found); this part checks what the app says from the defense on.
typed_log = len(app.stderr())

tap.ok(submit(app), "Submit for Defense is enabled after a clean run, and pressed")
tap.ok(find_named(app, "Viva did not let the examiner do this yet", prefix=True) is not None,
       "a verdict before the five steps is refused, in a muted note")
tap.ok(find_named(app, "Reading your code") is not None, "a card shows the examiner reading the code")
tap.ok(find_named(app, "Running your code") is not None, "a card shows it running the code")
tap.ok(find_named(app, "Testing an edge case") is not None, "a card shows it testing an edge case")
tap.ok(find_named(app, "Reasoning", timeout=5) is not None,
       "the model's reasoning sits in its own folded expander")
app.screenshot("examiner-2-cards")

question = find_named(app, "Why can k-means give different clusters", prefix=True)
tap.ok(question is not None, "the examiner's question is shown")
tap.ok(find_named(app, "Waiting for your answer") is not None, "the state line says it waits for the answer")
app.screenshot("examiner-3-question")

tap.ok(answer(app, ANSWER), "the answer is typed and sent with Ctrl+Enter")
tap.ok(find_named(app, ANSWER, timeout=10) is not None, "the answer appears in the conversation")
# The pack's plan asks a prediction next: one question at a time.
tap.ok(find_named(app, "What does this call return on your code?", timeout=30, prefix=True) is not None,
       "the planned prediction is asked after the answer, on its own")
tap.ok(wait_for(lambda: app.find("text", "Your answer").sensitive, 20) and answer(app, "[[0.0, 0.5], [10.0, 10.5]]"),
       "the prediction is answered")
tap.ok(find_named(app, "Passed", timeout=30) is not None, "the verdict card says Passed")
# The score is built from items; the examiner's own 85 stays beside it.
tap.ok(find_named(app, "Score: ", timeout=5, prefix=True) is not None and
       any("the examiner’s own score: 85" in (n.name or "") for n in app.node.findChildren(
           lambda n: "item by item" in (n.name or ""), recursive=True)),
       "the verdict shows the score from its items, and the examiner's 85 beside it")
tap.ok(find_named(app, "The examiner's tests: 1 ran without an error", timeout=5, prefix=True) is not None,
       "the verdict shows what the engine recorded of the probe")
tap.ok(find_named(app, "Defense finished", timeout=5) is not None, "the state line says the defense finished")
app.screenshot("examiner-4-verdict")

tap.ok(answer(app, "Why did I lose points?", send_with_keyboard=False),
       "a follow-up question is typed and sent with the Send button")
def follow_up_answer():
    nodes = [n for n in app.node.findChildren(lambda n: n.roleName == "text", recursive=True)
             if "runs agree more often" in vivagui.text_of(n)]
    return nodes[-1] if nodes else None


def end_in_sight(node):
    """Whether the bottom of @node is inside the scrolled conversation, as
    a student would see it: a chat that follows its end shows the last line
    of a reply once it has arrived, not half of it."""
    scroller = node.parent
    while scroller is not None and scroller.roleName != "scroll pane":
        scroller = scroller.parent
    if scroller is None:
        return False
    text = node.queryComponent().getExtents(0)
    pane = scroller.queryComponent().getExtents(0)
    return pane.y <= text.y + text.height <= pane.y + pane.height


tap.ok(wait_for(lambda: follow_up_answer() is not None, 30),
       "the examiner answers the follow-up question, to its last words")
tap.ok(wait_for(lambda: end_in_sight(follow_up_answer()), 5),
       "the conversation follows the answer to its end: the last line is in sight")
app.screenshot("examiner-5-follow-up")
with open("/tmp/dbg.txt", "w") as dbg:
    try:
        n = follow_up_answer()
        sc = n.parent
        while sc.roleName != "scroll pane":
            sc = sc.parent
        for bar in sc.findChildren(lambda x: x.roleName == "scroll bar", recursive=True):
            v = bar.queryValue()
            print("bar", bar.name, v.minimumValue, v.currentValue, v.maximumValue, file=dbg)
        e = sc.queryComponent().getExtents(0); t = n.queryComponent().getExtents(0)
        print("pane", e.y, e.height, "text", t.y, t.height, file=dbg)
    except Exception:
        import traceback; traceback.print_exc(file=dbg)

app.quit()
stop_server(server)
vivagui.check_stderr(tap, app, "with the Ollama-like server, from Submit on", since=typed_log)

# 2. Offline: nothing answers at the endpoint, in dark style ----------------

home2 = vivagui.make_home()
save_code(home2, KMEANS_SOLUTION)
set_settings(home2, base_url=f"'{unused_url()}'", examiner_mode="'auto'")
app = vivagui.App(home2, extra_env={"ADW_DEBUG_COLOR_SCHEME": "prefer-dark"})
tap.ok(app.node is not None, "viva starts again with no model server")
vivagui.click(app.find("text", "Code editor"))
rawinput.keyCombo("<Control><Shift>e")
tap.ok(find_named(app, "No model answers at", prefix=True) is not None,
       "with no model, the panel says how to start Ollama")
tap.ok(app.find("push button", "Use the Offline Examiner") is not None,
       "and offers the offline examiner")
app.screenshot("examiner-0-first-run-dark")
tap.ok(run_code(app), "the saved solution runs without an error")
tap.ok(submit(app), "Submit for Defense is pressed with no server")
tap.ok(find_named(app, "No model answered at", prefix=True) is not None,
       "the panel says the offline examiner runs the defense")
tap.ok(find_named(app, "Testing an edge case") is not None, "the offline examiner tests an edge case")
question = wait_for(lambda: app.find("text", "Your answer").sensitive, 60)
tap.ok(question, "the offline examiner asks a question and the answer box opens")
app.screenshot("examiner-6-offline-question-dark")
tap.ok(answer(app, ANSWER, click=False),
       "the question moved the focus into the answer box: the answer is typed without a click, and sent")
# The engine's prediction: what a call on the student's own code returns.
tap.ok(find_named(app, "What does this call return on your code?", timeout=60, prefix=True) is not None,
       "the offline examiner then asks what a call on the code returns")
tap.ok(wait_for(lambda: app.find("text", "Your answer").sensitive, 30) and answer(app, "[0, 1]", click=False),
       "the prediction is answered with a Python value")
tap.ok(find_named(app, "Passed", timeout=60) is not None, "the offline verdict says Passed")
tap.ok(find_named(app, "Score: ", timeout=5, prefix=True) is not None, "the offline verdict has a score")
app.screenshot("examiner-7-offline-verdict-dark")
app.quit()
vivagui.check_stderr(tap, app, "offline")
vivagui.cleanup(home2)

if vivagui.RENDERER != "cairo":
    # Under the default renderer, the two whole defenses are what matter.
    vivagui.cleanup(home)
    tap.done()

# 3. A 20,000-token reply: the panel stays responsive -----------------------

home3 = vivagui.make_home()
save_code(home3, KMEANS_SOLUTION)
# The load outlasts running the code even on a loaded machine, so the
# state line is still saying so at Submit.
server, url = start_server("--script", "long", "--tokens", "40000", "--slow-load", "15000")
set_settings(home3, base_url=f"'{url}'", examiner_mode="'model'")
app = vivagui.App(home3)
tap.ok(run_code(app), "the solution runs before the long reply")
tap.ok(submit(app), "Submit for Defense starts the long reply")
tap.ok(find_named(app, "Loading the model", prefix=True, timeout=5) is not None,
       "a model still loading is said so in the state line")
streaming = wait_for(lambda: any("centroid update" in vivagui.text_of(n) for n in app.node.findChildren(
    lambda n: n.roleName == "text", recursive=True)), 45)
tap.ok(streaming, "the examiner's long reply streams into the panel")
time.sleep(3)
app.screenshot("examiner-8-long-stream")
stop = app.find("push button", "Stop")
clicked = time.time()
vivagui.click(stop)
stopped = find_named(app, "Defense stopped", timeout=20)
latency = time.time() - clicked
# The reply has some thirty seconds left to stream when Stop is clicked,
# so a Stop that waited for it would miss this bound; a loaded machine's
# slowness (seconds under a load of 20) stays far inside it.
tap.ok(stopped is not None and latency < 10.0,
       f"Stop clicked mid-stream acts before the reply ends ({latency:.2f} s to the state line)")
app.screenshot("examiner-9-stopped")
app.quit()
stop_server(server)
vivagui.check_stderr(tap, app, "the long reply")
vivagui.cleanup(home3)

# 4. Preferences: the connection, the models, Check This Model -------------

home4 = vivagui.make_home()
server, url = start_server("--script", "check")
set_settings(home4, base_url=f"'{url}'", examiner_mode="'auto'")
app = vivagui.App(home4)
tap.ok(app.node is not None, "viva starts for the preferences")
vivagui.click(app.find("text", "Code editor"))
rawinput.keyCombo("<Control>comma")
tap.ok(find_named(app, "Connected") is not None, "Preferences test the connection on opening")
tap.ok(find_named(app, "Ollama 0.6.0 answers, with 1 model.") is not None,
       "the connection says which server answers and how many models it has")
current = find_named(app, "The server’s first model", timeout=5)
if current is not None:
    vivagui.click(current)
listed = find_named(app, "qwen2.5:7b", timeout=5)
tap.ok(listed is not None, "the model drop-down lists the server's model")
if listed is not None:
    vivagui.click(listed)
tap.ok(wait_for(lambda: "qwen2.5:7b" in open(vivagui.keyfile(home4)).read(), 10),
       "choosing it in the drop-down sets the model")
# The main window has a Check of its own (the shown tests), listed first:
# this one is the Preferences window's, opened after it.
checks = [] if app.node is None else app.node.findChildren(
    lambda n: n.roleName == "push button" and n.name == "Check", recursive=True)
check = checks[-1] if checks else None
if check is not None:
    vivagui.click(check)
tap.ok(find_named(app, "This model can examine", prefix=True, timeout=30) is not None,
       "Check This Model says the model can examine")
app.screenshot("examiner-10-preferences")
rawinput.pressKey("Escape")
app.quit()
stop_server(server)
vivagui.check_stderr(tap, app, "preferences")
vivagui.cleanup(home4)

# 5. The model fails: a banner with Retry, and the defense goes on --------

home5 = vivagui.make_home()
save_code(home5, KMEANS_SOLUTION)
server, url = start_server("--script", "defense", "--code", code_file, "--fail-first", "401")
set_settings(home5, base_url=f"'{url}'", examiner_mode="'model'")
app = vivagui.App(home5)
tap.ok(run_code(app), "the solution runs before a failing defense")
tap.ok(submit(app), "Submit for Defense meets a server that refuses")
tap.ok(find_named(app, "The examiner stopped because of an error", timeout=30) is not None,
       "the state line says the examiner stopped because of an error")
app.screenshot("examiner-11-error")
retry = app.find("push button", "Retry")
tap.ok(retry is not None, "the error banner offers Retry")
if retry is not None:
    vivagui.click(retry)
tap.ok(find_named(app, "Testing an edge case", timeout=30) is not None,
       "after Retry the defense goes on")
tap.ok(find_named(app, "Why can k-means give different clusters", prefix=True) is not None,
       "and reaches the question")
app.screenshot("examiner-12-retried")
app.quit()
stop_server(server)
vivagui.check_stderr(tap, app, "the failing server")
vivagui.cleanup(home5)

vivagui.cleanup(home)
tap.done()
