#!/usr/bin/python3
"""A lab's shared model server that is busy when the student submits: Ollama
turns the first three requests away with its 503 (queue full, come back in
six seconds). The panel says so calmly — "The lab's model server is busy —
waiting (N s)" with Stop, no error — and the defense goes on by itself when
the server answers, to its verdict. Screenshots: build/screenshots/busy-*.png."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

vivagui.require_server(tap)

code_file = os.path.join(home, "solution.py")
with open(code_file, "w") as f:
    f.write(vivagui.KMEANS_SOLUTION)
vivagui.save_code(home, vivagui.KMEANS_SOLUTION)

server, url = vivagui.start_server("--script", "defense", "--code", code_file,
                                   "--busy-first", "3", "--retry-after", "6")
vivagui.set_settings(home, base_url=f"'{url}'", examiner_mode="'auto'")

app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva appears on the accessibility bus"):
    app.kill()
    server.terminate()
    print(app.stderr(), file=sys.stderr)
    tap.done()

vivagui.click(app.find("push button", "Run"))
tap.ok(vivagui.find_named(app, "Finished in", timeout=60, prefix=True) is not None, "the saved solution runs cleanly")
submit = app.find("push button", "Submit for Defense")
tap.ok(submit is not None and vivagui.wait_for(lambda: submit.sensitive, 20), "Submit for Defense is enabled")
vivagui.click(submit)

BUSY_LINE = r"The lab’s model server is busy — waiting \((\d+) s\)"


def busy_seconds():
    node = vivagui.find_named(app, "The lab’s model server is busy — waiting (", timeout=1, prefix=True)
    match = re.fullmatch(BUSY_LINE, node.name) if node is not None else None
    return int(match.group(1)) if match else None


busy = vivagui.find_named(app, "The lab’s model server is busy — waiting (", timeout=20, prefix=True)
first = busy_seconds()
tap.ok(busy is not None, "the panel says the lab's server is busy and that it waits")
tap.ok(first is not None, "the waiting line says how long it has waited, in seconds")
tap.ok(vivagui.wait_for(lambda: (busy_seconds() or -1) > first, 20) if first is not None else False,
       "the waiting line counts the seconds")
stop = app.find("push button", "Stop", timeout=5)
tap.ok(stop is not None, "Stop is offered while it waits")
tap.ok(vivagui.find_named(app, "The examiner stopped because of an error", timeout=1) is None,
       "waiting is not an error")
app.screenshot("busy-1-waiting")


tap.ok(vivagui.find_named(app, "Reading your code", timeout=40) is not None,
       "once the server answers, the defense goes on by itself")
tap.ok(vivagui.find_named(app, "The lab’s model server is busy", timeout=1, prefix=True) is None,
       "and the busy line is gone")
question = vivagui.find_named(app, "Why can k-means give different clusters", timeout=40, prefix=True)
tap.ok(question is not None, "the examiner's question comes")
box = app.find("text", "Your answer")
if box is not None and vivagui.wait_for(lambda: box.sensitive, 20):
    vivagui.click(box)
    rawinput.typeText("It finds a local minimum; run it several times or use k-means++.")
    rawinput.keyCombo("<Control>Return")
# The pack's plan asks a prediction next, once the first answer is in.
tap.ok(vivagui.find_named(app, "What does this call return on your code?", timeout=40, prefix=True) is not None,
       "the planned prediction comes after the answer")
if box is not None and vivagui.wait_for(lambda: box.sensitive, 20):
    vivagui.click(box)
    rawinput.typeText("[[0.0, 0.5], [10.0, 10.5]]")
    rawinput.keyCombo("<Control>Return")
tap.ok(vivagui.find_named(app, "Passed", timeout=40) is not None, "the defense ends with its verdict")
app.screenshot("busy-2-verdict")

app.quit()
vivagui.stop_server(server)
vivagui.check_stderr(tap, app)
tap.done()
