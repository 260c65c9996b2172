#!/usr/bin/python3
"""An exam of two problems whose model server is down when the time runs
out: the open problem's defense fails, the student is told, and the other
problem worked on is still submitted after it rather than waiting behind
the failure."""

import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402
import examhandin  # noqa: E402
from examhandin import LIMIT, submitted_code, wait_for  # noqa: E402,F401

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

exam_path, reports = examhandin.write_exam(home, {"mode": "model", "base_url": vivagui.unused_url(), "model": "qwen2.5:7b", "language": "en"})


def report_for(problem):
    return examhandin.report_for(reports, problem)


def find_all(pred):
    return student.find_all(pred)


def timer():
    return student.timer()


def button(suffix):
    return student.button(suffix)


def open_problem(title):
    return student.open_problem(title)


def edit(editor, line):
    return student.edit(editor, line)


app = vivagui.App(home, args=["--exam", exam_path])
student = examhandin.Student(app)
if not tap.ok(app.node is not None, "viva starts with a two-problem exam"):
    app.kill()
    tap.done()
tap.ok(student.start_exam("Do Thu Ha", "S2026-03"), "the exam asks who sits it")
tap.ok(wait_for(lambda: timer() is not None and timer().name.endswith("left"), 10), "the exam starts")
editor = app.find("text", "Code editor")
tap.ok(open_problem("Triple a number"), "the student opens the second problem")
tap.ok(edit(editor, "# worked on triple"), "and edits it")
tap.ok(open_problem("Double a number"), "then goes back to the first")
timer_node = timer()

# The time runs out: the first defense fails against the server that is
# down, and the second problem is submitted next all the same.
failed = []
def watch():
    if not failed and vivagui.find_named(app, "The defense of “Double a number” failed", prefix=True, timeout=0.5):
        failed.append(True)
        app.screenshot("exam-hand-in-failure-1-failed")
    return timer_node.name == "Time is up: defense 2 of 2"
tap.ok(wait_for(watch, LIMIT + 120), "after the first defense fails, the second problem's defense starts")
tap.ok(wait_for(lambda: failed or vivagui.find_named(app, "The defense of “Double a number” failed",
                                                    prefix=True, timeout=0.5), 10),
       "a toast says the first defense failed")
tap.ok(wait_for(lambda: "# worked on triple" in vivagui.text_of(editor), 10),
       "the second problem is shown with its code")
tap.ok(wait_for(lambda: timer_node.name == "Time is up", 180), "its defense ends too, and the hand-in is over")
app.screenshot("exam-hand-in-failure-2-over")
tap.ok(not glob.glob(os.path.join(reports, "*.json")), "a failed defense writes no report")

tap.ok(app.quit() == 0, "Viva closes without asking once nothing waits")
err = "\n".join(l for l in app.stderr().splitlines()
                if "org.freedesktop.Notifications" not in l and l.strip())
if not tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings or criticals on stderr"):
    print("#", err.replace("\n", "\n# "))
vivagui.cleanup(home)
tap.done()
