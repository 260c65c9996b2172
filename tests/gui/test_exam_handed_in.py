#!/usr/bin/python3
"""An exam ends on a page that says what was handed in, and shows who sits
it. The student's name and id hold Pango markup characters ("<b>Jr</b>",
"&"): the exam's toast and the header bar show them as typed, and the
header bar keeps "exam — name (id)" for the whole exam. The student edits
the second of three problems and leaves the first open; when the time is
up both are defended one after the other, and the window ends on a page
that lists each problem with what became of it and its report's file,
beside the last defense's transcript (run under GTK's default renderer,
where the panel once stayed blank)."""

import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402
import examhandin  # noqa: E402
from examhandin import wait_for  # noqa: E402

LIMIT = 45
NAME, ID = "Le <b>Jr</b> & Co", "S&1"

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

exam_path, reports = examhandin.write_exam(home, {"mode": "offline", "language": "en"})
with open(exam_path) as f:
    exam = json.load(f)
halve = dict(exam["pack"]["problems"][1])
halve.update({"id": "halve", "title": "Halve a number", "starter_code": "def halve(x):\n    return x\n",
              "reference_solution": "def halve(x):\n    return x / 2\n",
              "tests": [{"name": "small numbers", "setup": "", "call": "halve(4)",
                         "check": "assert result == 2, 'halve(4) must be 2'\n"}]})
exam["pack"]["problems"].append(halve)
exam["problems"].append("halve")
exam["time_limit"] = "%ds" % LIMIT
with open(exam_path, "w") as f:
    json.dump(exam, f)

app = vivagui.App(home, args=["--exam", exam_path])
student = examhandin.Student(app)
if not tap.ok(app.node is not None, "viva starts with a three-problem exam"):
    app.kill()
    tap.done()


def labels(pred):
    return [n.name for n in student.find_all(lambda n: n.roleName == "label" and pred(n.name or ""))]


tap.ok(student.start_exam(NAME, ID), "the exam asks who sits it")
toast = "Two problems: %s (%s)" % (NAME, ID)
tap.ok(wait_for(lambda: toast in labels(lambda t: t.startswith("Two problems:")), 10),
       "the toast shows the name and id as typed, not as markup (%s)" % labels(lambda t: t.startswith("Two problems:")))
app.screenshot("exam-handed-in-1-started")
subtitle = "Two problems — %s (%s)" % (NAME, ID)
tap.ok(wait_for(lambda: subtitle in labels(lambda t: t.startswith("Two problems —")), 10),
       "the header bar says the exam and who sits it")

editor = app.find("text", "Code editor")
tap.ok(student.open_problem("Triple a number"), "the student opens the second problem")
tap.ok(student.edit(editor, "# worked on triple"), "and edits it")
tap.ok(subtitle in labels(lambda t: t.startswith("Two problems —")),
       "the header bar still says who sits the exam on another problem")
tap.ok(student.open_problem("Double a number"), "then goes back to the first, and leaves it open")

# The time runs out; both are defended, then the page says what happened.
tap.ok(wait_for(lambda: student.label("Your Exam Was Handed In"), LIMIT + 240),
       "after the last defense the window ends on a page of what was handed in")
app.screenshot("exam-handed-in-2-page")
names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(reports, "*.html")))
tap.ok(len(names) == 2, "two reports are in the exam's folder (%s)" % names)


def line_of(title):
    """The page's line under a problem's title."""
    found = student.find_all(lambda n: n.roleName == "label" and n.name == title and
                             n.parent is not None and len(n.parent.children) == 2)
    for node in found:
        other = node.parent.children[1].name or ""
        if other.startswith(("Defended", "Not handed in", "Its defense", "Waiting", "Being")):
            return other
    return None


double, triple, halved = line_of("Double a number"), line_of("Triple a number"), line_of("Halve a number")
tap.ok(double is not None and re.fullmatch(r"Defended — report \S+-double-\d{8}-\d{4}\.html", double) and
       double.split("report ")[1] in names, "the open problem is listed as defended, with its report (%s)" % double)
tap.ok(triple is not None and re.fullmatch(r"Defended — report \S+-triple-\d{8}-\d{4}\.html", triple) and
       triple.split("report ")[1] in names, "the problem worked on is listed as defended, with its report (%s)" % triple)
tap.ok(halved == "Not handed in: not worked on during the exam",
       "the problem never worked on is listed as not handed in (%s)" % halved)
tap.ok(labels(lambda t: t.startswith("The reports are in ")) == ["The reports are in " + reports],
       "the page says which folder the reports are in")
tap.ok(wait_for(lambda: student.timer() is not None and student.timer().name == "Time is up", 10),
       "the header bar says the time is up")
tap.ok(subtitle in labels(lambda t: t.startswith("Two problems —")),
       "and still who sat the exam")
tap.ok(bool(student.find_all(lambda n: n.roleName == "label" and (n.name or "") == "Defense finished")),
       "the examiner panel shows the last defense beside the page")

# Back to the code: the editor is read-only after the time.
show = student.button("Show Your Code")
tap.ok(show is not None, "the page offers to show the code again")
if show is not None:
    vivagui.click(show)
tap.ok(wait_for(lambda: "def triple" in vivagui.text_of(app.find("text", "Code editor")), 10),
       "Show Your Code goes back to the last problem defended")
app.screenshot("exam-handed-in-3-code")

tap.ok(app.quit() == 0, "Viva closes without asking once nothing waits")
err = "\n".join(l for l in app.stderr().splitlines()
                if "org.freedesktop.Notifications" not in l and l.strip())
if not tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings or criticals on stderr"):
    print("#", err.replace("\n", "\n# "))
vivagui.cleanup(home)
tap.done()
