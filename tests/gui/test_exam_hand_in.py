#!/usr/bin/python3
"""An exam of two problems, handed in when the time runs out: the student
edits and runs the second problem, goes back to the first and edits it
without running, and the time runs out with the first one open. Both are
submitted, one defense after the other, each with its own code (the second
as last run), and both reports land in the exam's report folder; the
student is told how many were submitted and which one is being defended,
and the Problems list says each was defended."""

import glob
import os
import re
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
    node = student.timer()
    return node.name if node else None


def label(text):
    return student.label(text)


def open_problem(title):
    return student.open_problem(title)


app = vivagui.App(home, args=["--exam", exam_path])
student = examhandin.Student(app)
if not tap.ok(app.node is not None, "viva starts with a two-problem exam"):
    app.kill()
    tap.done()

tap.ok(student.start_exam("Tran Van An", "S2026-42"), "the exam asks who sits it")
tap.ok(wait_for(lambda: timer() is not None and timer().endswith("left"), 10), "the exam starts, with the time left shown")
editor = app.find("text", "Code editor")
tap.ok(wait_for(lambda: "def double" in vivagui.text_of(editor), 10), "the exam opens on its first problem")

# The second problem: edited and run.
tap.ok(open_problem("Triple a number"), "the student opens the second problem")
tap.ok(wait_for(lambda: "def triple" in vivagui.text_of(editor), 10), "its starter code is shown")
vivagui.click(editor)
rawinput.keyCombo("<Control>End")
# Each edit sleeps a few seconds, so that each defense (which runs the
# code several times) lasts long enough to be watched however fast the
# machine is.
rawinput.typeText("\nimport time\ntime.sleep(2)  # worked on triple\n")
tap.ok(wait_for(lambda: "# worked on triple" in vivagui.text_of(editor)), "the student edits it")
vivagui.click(app.find("push button", "Run"))
tap.ok(wait_for(lambda: bool(find_all(lambda n: (n.name or "").startswith("Finished"))), 30),
       "and runs it")
app.screenshot("exam-hand-in-1-second-problem-run")

# Back to the first problem: edited, never run.
tap.ok(open_problem("Double a number"), "the student goes back to the first problem")
tap.ok(wait_for(lambda: "def double" in vivagui.text_of(editor), 10), "its code is shown again")
vivagui.click(editor)
rawinput.keyCombo("<Control>End")
rawinput.typeText("\nimport time\ntime.sleep(2)  # worked on double\n")
tap.ok(wait_for(lambda: "# worked on double" in vivagui.text_of(editor)), "and edits it")
left = timer()
tap.ok(left is not None and left.endswith("left"), "all this before the time runs out (%s)" % left)

# The time runs out with the first problem open, and the defenses run on
# their own, one after the other (the offline examiner takes seconds, so
# all is watched in one search of the tree at a time). The header bar says
# only "Time is up" once nothing more is handed in, so the watch ends then.
seen = []
second_shown = []
shots = set()
timer_node = find_all(lambda n: n.roleName == "label" and re.fullmatch(r"\d+:\d\d left", n.name or ""))[0]
def watch():
    # The timer's own node is cheap to read; the toasts need a search.
    names = [timer_node.name] + [n.name for n in find_all(lambda n: n.roleName == "label" and
                                                          re.match(r"Time is up", n.name or ""))]
    for name in names:
        if name.startswith("Time is up") and name not in seen:
            seen.append(name)
    t = next((x for x in names if re.fullmatch(r"Time is up(: defense \d of \d)?", x)), None)
    if t is not None and "time-up" not in shots:
        shots.add("time-up")
        app.screenshot("exam-hand-in-2-time-up")
    if t == "Time is up: defense 2 of 2" and not second_shown:
        second_shown.append((vivagui.text_of(editor), app.find("frame", None, timeout=1).name))
        app.screenshot("exam-hand-in-3-second-defense")
    if report_for("double") is not None and report_for("triple") is not None:
        return True
    return report_for("double") is not None and t == "Time is up"
wait_for(watch, LIMIT + 300)
print("# seen:", seen)
tap.ok(any(x.startswith("Time is up") for x in seen), "the header bar says the time is up")
tap.ok("Time is up: 2 problems submitted for defense" in seen, "a toast says both problems were submitted")
tap.ok("Time is up: defense 1 of 2" in seen and "Time is up: defense 2 of 2" in seen,
       "the header bar says which defense of how many runs")
tap.ok(second_shown and "def triple" in second_shown[0][0] and second_shown[0][1].startswith("Triple a number"),
       "the second problem is shown, by its title, while it is defended")
tap.ok(second_shown and "# worked on triple" in second_shown[0][0], "with the code the student ran")

# Both reports are handed in.
tap.ok(wait_for(lambda: report_for("double") is not None and report_for("triple") is not None, 20),
       "both problems' reports are in the exam's folder (%s)" %
       sorted(os.path.basename(p) for p in glob.glob(os.path.join(reports, "*"))))
names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(reports, "*")))
tap.ok(any(re.match(r"Tran_Van_An-S2026_42-triple-\d{8}-\d{4}\.html$", n) for n in names) and
       any(re.match(r"Tran_Van_An-S2026_42-double-\d{8}-\d{4}\.html$", n) for n in names),
       "each report's files carry the student and the problem (%s)" % names)
double, triple_report = report_for("double"), report_for("triple")
if double is not None and triple_report is not None:
    tap.ok(double.get("student") == {"name": "Tran Van An", "id": "S2026-42"} and
           triple_report.get("student") == double.get("student"), "both say whose defense it is")
    tap.ok(double.get("exam", {}).get("id") == "two-problems" and
           triple_report.get("exam", {}).get("id") == "two-problems", "both name the exam")
    tap.ok("# worked on double" in submitted_code(double), "the open problem was submitted as it stood")
    tap.ok("# worked on triple" in submitted_code(triple_report) and
           "# worked on double" not in submitted_code(triple_report),
           "the other problem was submitted with its own code as last run")
    kinds = [e.get("kind") for e in triple_report.get("timeline", [])]
    tap.ok("run" in kinds and "submit" in kinds, "its timeline has the run and the submit (%s)" % kinds)
    tap.ok(double.get("verdict") is not None and triple_report.get("verdict") is not None,
           "both defenses reached a verdict without the student")
else:
    for _ in range(6):
        tap.ok(False, "both reports to read")

tap.ok(wait_for(lambda: timer() == "Time is up", 20), "once both are defended, the header bar says only that the time is up")
app.screenshot("exam-hand-in-4-handed-in")

# The Problems list says each was defended.
vivagui.click(app.find("push button", "Problems"))
statuses = []
def read_statuses():
    global statuses
    rows = find_all(lambda n: n.roleName == "list item")
    statuses = [(r.name, [c.name for c in r.findChildren(lambda n: n.roleName == "label", recursive=True)])
                for r in rows]
    return len(rows) == 2 and all(any((c or "").startswith("Defended") for c in cs) for _, cs in statuses)
tap.ok(wait_for(read_statuses, 10), "the Problems list says both were defended (%s)" % statuses)
app.screenshot("exam-hand-in-5-problems")
rawinput.pressKey("Escape")

app.quit()
# Xvfb runs no notification server; asking for the examiner's question to
# be shown while the window is in the background is the app working.
err = "\n".join(l for l in app.stderr().splitlines()
                if "org.freedesktop.Notifications" not in l and l.strip())
if not tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings or criticals on stderr"):
    print("#", err.replace("\n", "\n# "))
vivagui.cleanup(home)
tap.done()
