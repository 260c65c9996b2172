"""What the exam hand-in GUI tests share: a two-problem exam in a lab share,
and the ways a student sitting it finds things in the window (the time
left, a problem in the Problems list, a dialog's button, the reports)."""

import copy
import glob
import json
import os
import re

import vivagui

LIMIT = 60


def write_exam(home, examiner):
    """Writes a viva-exam/1 file of two problems, "Double a number" and
    "Triple a number", with a LIMIT-second time limit, under @home's lab
    share; returns its path and its report folder."""
    src = os.environ["VIVA_SOURCE_ROOT"]
    with open(os.path.join(src, "tests", "packs", "good", "minimal.json")) as f:
        pack = json.load(f)
    triple = copy.deepcopy(pack["problems"][0])
    triple.update({
        "id": "triple", "title": "Triple a number",
        "description": "Write `triple(x)` that returns `3 * x`.",
        "starter_code": "def triple(x):\n    return x\n",
        "hint": "Multiply by three.",
        "reference_solution": "def triple(x):\n    return 3 * x\n",
        "tests": [{"name": "small numbers", "setup": "", "call": "triple(3)",
                   "check": "assert result == 9, 'triple(3) must be 9'\n"}],
        "questions": [{"question": "What does triple(0) return?", "points": ["0"]}],
    })
    pack["problems"].append(triple)

    exam_dir = os.path.join(home, "lab-share")
    os.makedirs(exam_dir, exist_ok=True)
    exam_path = os.path.join(exam_dir, "two.json")
    with open(exam_path, "w") as f:
        json.dump({
            "format": "viva-exam/1", "id": "two-problems", "title": "Two problems",
            "pack": pack, "problems": ["double", "triple"], "time_limit": "%ds" % LIMIT,
            "hints": {"allowed": False}, "followup": False,
            "examiner": examiner,
            "report_folder": "reports",
        }, f)
    return exam_path, os.path.join(exam_dir, "reports")


def report_for(reports, problem):
    """The report JSON in @reports of @problem's defense, or None."""
    for p in glob.glob(os.path.join(reports, "*.json")):
        with open(p) as f:
            report = json.load(f)
        if report.get("problem", {}).get("id") == problem:
            return report
    return None


def submitted_code(report):
    return next((e.get("code", "") for e in (report or {}).get("timeline", []) if e.get("kind") == "submit"), "")


def wait_for(pred, timeout=20):
    return vivagui.wait_for(pred, timeout, 0.25)


class Student:
    """A student at the running @app's window."""

    def __init__(self, app):
        self.app = app

    def find_all(self, pred):
        try:
            return self.app.node.findChildren(pred, recursive=True)
        except Exception:
            return []

    def timer(self):
        """The header bar's label of the time left, or of the time being up."""
        hits = self.find_all(lambda n: n.roleName == "label" and
                             re.fullmatch(r"\d+:\d\d left|Time is up(: defense \d of \d)?", n.name or ""))
        return hits[0] if hits else None

    def label(self, text):
        return bool(self.find_all(lambda n: n.roleName == "label" and (n.name or "") == text))

    def button(self, suffix):
        # GTK 4.8 names a message dialog's response "_Label Label" and keeps a
        # hidden second set for narrow dialogs: the one laid out is the larger.
        hits = self.find_all(lambda n: n.roleName == "push button" and (n.name or "").endswith(suffix))
        hits.sort(key=lambda n: n.size[0] * n.size[1], reverse=True)
        return hits[0] if hits else None

    def start_exam(self, name, student_id):
        """Gives a name and id when the exam asks who sits it; whether it asked."""
        from dogtail import rawinput
        if not wait_for(lambda: self.button("Start Exam") is not None, 20):
            return False
        fields = self.find_all(lambda n: n.roleName == "text" and n.name in ("Full name", "Student ID"))
        if len(fields) == 2:
            vivagui.click(next(n for n in fields if n.name == "Full name"))
            rawinput.typeText(name)
            vivagui.click(next(n for n in fields if n.name == "Student ID"))
            rawinput.typeText(student_id)
            wait_for(lambda: self.button("Start Exam").sensitive, 5)
            vivagui.click(self.button("Start Exam"))
        return True

    def open_problem(self, title):
        """Opens @title from the Problems list; whether the window shows it."""
        vivagui.click(self.app.find("push button", "Problems"))
        row = None
        if wait_for(lambda: self.find_all(lambda n: n.roleName == "list item" and title in (n.name or "")), 5):
            row = self.find_all(lambda n: n.roleName == "list item" and title in (n.name or ""))[0]
            vivagui.click(row)
        return row is not None and wait_for(lambda: self.app.find("frame", None).name.startswith(title), 10)

    def edit(self, editor, line):
        """Types @line at the end of the code; whether the editor shows it."""
        from dogtail import rawinput
        vivagui.click(editor)
        rawinput.keyCombo("<Control>End")
        rawinput.typeText("\n" + line + "\n")
        return wait_for(lambda: line in vivagui.text_of(editor))
