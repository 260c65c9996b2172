#!/usr/bin/python3
"""Check beside Run: the open problem's shown tests run on the student's
code through the grader and each is listed in the console with pass or
fail and its message; Ctrl+T does the same. Greyed-out controls say why,
as their tooltip and accessible description (read here through AT-SPI):
Submit before a clean run, Check while the code runs."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

kmeans = vivagui.bundled_problem("kmeans")
shown = [t["name"] for t in kmeans["tests"] if t.get("shown")]
held_out = [t["name"] for t in kmeans["tests"] if not t.get("shown")]
# The reference, broken by its last line: every shown test fails until the
# student deletes that line.
BREAK = "kmeans = None\n"
vivagui.save_code(home, kmeans["reference_solution"].rstrip("\n") + "\n" + BREAK)


def wait_for(pred, timeout=30):
    return vivagui.wait_for(pred, timeout)


def named_prefix(app, prefix):
    return app.node.findChildren(lambda n: (n.name or "").startswith(prefix), recursive=True)


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

console = app.find("text", "Program output")
check = app.find("push button", "Check")
submit = app.find("push button", "Submit for Defense")
run = app.find("push button", "Run")
editor = app.find("text", "Code editor")
tap.ok(check is not None and wait_for(lambda: check.sensitive), "Check sits beside Run, ready once the code is loaded")

# Greyed out, Submit says why, to the eye and to a screen reader.
tap.ok(submit is not None and not submit.sensitive, "Submit waits for a clean run")
tap.ok(wait_for(lambda: submit.description == "Run your code without errors first"),
       "greyed-out Submit says why in its accessible description (%r)" % (submit.description,))
tap.ok(check.description.startswith("Check your code against the problem’s shown tests"),
       "an enabled Check says what it does (%r)" % (check.description,))

vivagui.click(check)
tap.ok(wait_for(lambda: named_prefix(app, "0 of %d shown tests passed" % len(shown))),
       "the status line counts the shown tests that passed")
text = vivagui.text_of(console)
tap.ok(all(("✗ " + name + " — ") in text for name in shown), "each shown test is listed, failed, with its message")
tap.ok("TypeError" in text or "NoneType" in text or "could not" in text, "a failure says why (%r)" % text[:300])
tap.ok(not any(name in text for name in held_out), "no held-out test is listed")
app.screenshot("check-1-failed")

# The student fixes the code (deletes the breaking line) and checks again
# with the shortcut.
vivagui.click(editor)
rawinput.keyCombo("<Control>End")
for _ in range(len(BREAK)):
    rawinput.pressKey("BackSpace")
tap.ok(wait_for(lambda: "kmeans = None" not in vivagui.text_of(editor)), "the breaking line is deleted")
rawinput.keyCombo("<Control>t")
tap.ok(wait_for(lambda: named_prefix(app, "All %d shown tests passed" % len(shown))), "Ctrl+T checks: every shown test passes")
text = vivagui.text_of(console)
tap.ok(all(("✓ " + name) in text for name in shown), "each passed test is listed with a tick")
tap.ok(not submit.sensitive, "a Check is not a Run: Submit still waits for one")
app.screenshot("check-2-passed")

# While code runs, Check is greyed out and says why.
vivagui.click(editor)
rawinput.keyCombo("<Control>a")
rawinput.pressKey("BackSpace")
rawinput.typeText("import time\ntime.sleep(30)\n")
vivagui.click(run)
tap.ok(app.find("push button", "Stop", timeout=10) is not None, "the code runs")
tap.ok(wait_for(lambda: not check.sensitive and check.description == "Wait for your code to finish, or stop it"),
       "while code runs, Check is greyed out and says why (%r)" % (check.description,))
vivagui.click(app.find("push button", "Stop"))
tap.ok(wait_for(lambda: check.sensitive), "stopped, Check is back")
tap.ok(check.description.startswith("Check your code"), "and says what it does again")

tap.ok(app.quit() == 0, "Viva closes cleanly")
err = app.stderr()
if not tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings or criticals on the app's stderr"):
    print(err, file=sys.stderr)

vivagui.cleanup(home)
tap.done()
