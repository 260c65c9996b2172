#!/usr/bin/python3
"""An exam of two problems whose model server is down when the time runs
out: the open problem's defense fails, the student is told, and the other
problem worked on is still submitted after it rather than waiting behind
the failure."""

import copy
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

src = os.environ["VIVA_SOURCE_ROOT"]
pack = json.load(open(os.path.join(src, "tests", "packs", "good", "minimal.json")))
triple = copy.deepcopy(pack["problems"][0])
triple.update({
    "id": "triple", "title": "Triple a number",
    "description": "Write `triple(x)` that returns `3 * x`.",
    "starter_code": "def triple(x):\n    return x\n",
    "reference_solution": "def triple(x):\n    return 3 * x\n",
    "tests": [{"name": "small numbers", "setup": "", "call": "triple(3)",
               "check": "assert result == 9, 'triple(3) must be 9'\n"}],
    "questions": [{"question": "What does triple(0) return?", "points": ["0"]}],
})
pack["problems"].append(triple)

exam_dir = os.path.join(home, "lab-share")
os.makedirs(exam_dir)
exam_path = os.path.join(exam_dir, "two.json")
LIMIT = 60
with open(exam_path, "w") as f:
    json.dump({
        "format": "viva-exam/1", "id": "two-problems", "title": "Two problems",
        "pack": pack, "problems": ["double", "triple"], "time_limit": "%ds" % LIMIT,
        "hints": {"allowed": False}, "followup": False,
        "examiner": {"mode": "model", "base_url": vivagui.unused_url(), "model": "qwen2.5:7b",
                     "language": "en"},
        "report_folder": "reports",
    }, f)
reports = os.path.join(exam_dir, "reports")


def wait_for(pred, timeout=20):
    return vivagui.wait_for(pred, timeout, 0.25)


def find_all(pred):
    try:
        return app.node.findChildren(pred, recursive=True)
    except Exception:
        return []


def timer():
    hits = find_all(lambda n: n.roleName == "label" and
                    re.fullmatch(r"\d+:\d\d left|Time is up(: defense \d of \d)?", n.name or ""))
    return hits[0] if hits else None


def button(suffix):
    # GTK 4.8 names a message dialog's response "_Label Label" and keeps a
    # hidden second set for narrow dialogs: the one laid out is the larger.
    hits = find_all(lambda n: n.roleName == "push button" and (n.name or "").endswith(suffix))
    hits.sort(key=lambda n: n.size[0] * n.size[1], reverse=True)
    return hits[0] if hits else None


def open_problem(title):
    vivagui.click(app.find("push button", "Problems"))
    if wait_for(lambda: find_all(lambda n: n.roleName == "list item" and title in (n.name or "")), 5):
        vivagui.click(find_all(lambda n: n.roleName == "list item" and title in (n.name or ""))[0])
    return wait_for(lambda: app.find("frame", None).name.startswith(title), 10)


def edit(editor, line):
    vivagui.click(editor)
    rawinput.keyCombo("<Control>End")
    rawinput.typeText("\n" + line + "\n")
    return wait_for(lambda: line in vivagui.text_of(editor))


def report_for(problem):
    for p in glob.glob(os.path.join(reports, "*.json")):
        with open(p) as f:
            report = json.load(f)
        if report.get("problem", {}).get("id") == problem:
            return report
    return None


app = vivagui.App(home, args=["--exam", exam_path])
if not tap.ok(app.node is not None, "viva starts with a two-problem exam"):
    app.kill()
    tap.done()
tap.ok(wait_for(lambda: button("Start Exam") is not None, 20), "the exam asks who sits it")
fields = find_all(lambda n: n.roleName == "text" and n.name in ("Full name", "Student ID"))
if len(fields) == 2:
    vivagui.click(next(n for n in fields if n.name == "Full name"))
    rawinput.typeText("Do Thu Ha")
    vivagui.click(next(n for n in fields if n.name == "Student ID"))
    rawinput.typeText("S2026-03")
    wait_for(lambda: button("Start Exam").sensitive, 5)
    vivagui.click(button("Start Exam"))
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
