#!/usr/bin/python3
"""An exam of two problems where Viva is closed and opened again within the
time: the student edits the second problem, closes Viva, opens it again
(the exam and its clock go on), edits the first, and the time runs out.
The second problem is still handed in, with the code saved before the
time. Closing the window while a problem waits for its defense asks
first, and keeping Viva open lets the hand-in finish."""

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

exam_path, reports = examhandin.write_exam(home, {"mode": "offline", "language": "en"})


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
tap.ok(student.start_exam("Pham Minh Chau", "S2026-07"), "the exam asks who sits it")
tap.ok(wait_for(lambda: timer() is not None and timer().name.endswith("left"), 10), "the exam starts")
editor = app.find("text", "Code editor")
tap.ok(open_problem("Triple a number"), "the student opens the second problem")
# The edit sleeps, so that each defense lasts long enough to be watched.
tap.ok(edit(editor, "import time\ntime.sleep(2)  # worked on triple"), "and edits it without running it")
tap.ok(app.quit() == 0, "Viva closes before the time")

# The second start: the exam goes on, on its first problem.
app = vivagui.App(home, args=["--exam", exam_path])
student = examhandin.Student(app)
tap.ok(app.node is not None and wait_for(lambda: timer() is not None and timer().name.endswith("left"), 20),
       "Viva opens again on the exam, with its clock going on")
tap.ok(button("Start Exam") is None, "without asking who sits it again")
editor = app.find("text", "Code editor")
tap.ok(wait_for(lambda: "def double" in vivagui.text_of(editor), 10), "on the exam's first problem")
tap.ok(edit(editor, "import time\ntime.sleep(2)  # worked on double"), "which the student edits")
timer_node = timer()

# The time runs out; while the first defense runs and the second problem
# waits, closing the window asks first.
tap.ok(wait_for(lambda: timer_node.name == "Time is up: defense 1 of 2", LIMIT + 30),
       "the time runs out and both problems are handed in (%s)" % timer_node.name)
rawinput.keyCombo("<Control>q")
tap.ok(wait_for(lambda: button("Keep Viva Open") is not None, 10), "closing while a problem waits asks first")
app.screenshot("exam-hand-in-restart-1-close")
tap.ok(vivagui.find_named(app, "1 more problem waits for its defense", prefix=True, timeout=5) is not None,
       "and says how many problems would not be handed in")
vivagui.click(button("Keep Viva Open"))
tap.ok(wait_for(lambda: button("Keep Viva Open") is None, 10), "keeping Viva open closes the question")

tap.ok(wait_for(lambda: report_for("double") is not None and report_for("triple") is not None, 300),
       "both reports reach the exam's folder (%s)" %
       sorted(os.path.basename(p) for p in glob.glob(os.path.join(reports, "*.json"))))
report = report_for("triple")
code = next((e.get("code", "") for e in (report or {}).get("timeline", []) if e.get("kind") == "submit"), "")
tap.ok("# worked on triple" in code, "the problem worked on before the restart was submitted with its code")
tap.ok(wait_for(lambda: timer_node.name == "Time is up", 20), "then the hand-in is over")
app.screenshot("exam-hand-in-restart-2-handed-in")

tap.ok(app.quit() == 0, "Viva closes without asking once nothing waits")
err = "\n".join(l for l in app.stderr().splitlines()
                if "org.freedesktop.Notifications" not in l and l.strip())
if not tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings or criticals on stderr"):
    print("#", err.replace("\n", "\n# "))
vivagui.cleanup(home)
tap.done()
