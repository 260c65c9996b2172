#!/usr/bin/python3
"""An exam file with mistakes, as the teacher testing it meets it: one
dialog lists every error at once (a problem the installed pack lacks with
the rest), one a line with its JSON path, and offers Copy Errors; the exam
does not start."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

exam_path = os.path.join(home, "midterm.json")
with open(exam_path, "w") as f:
    json.dump({
        "format": "viva-exam/1", "id": "ai-midterm", "title": "AI midterm",
        "pack": "intro-ai", "problems": ["kmeans", "knn-typo"],
        "time_limit": "ninety minutes", "hints": {"allowed": "yes"},
        "report_folder": 7, "colour": "blue",
    }, f)


def find_all(pred):
    try:
        return app.node.findChildren(pred, recursive=True)
    except Exception:
        return []


def labels():
    return [n.name or "" for n in find_all(lambda n: n.roleName == "label")]


app = vivagui.App(home, args=["--exam", exam_path])
if not tap.ok(app.node is not None, "viva starts with the exam"):
    app.kill()
    tap.done()

tap.ok(vivagui.wait_for(lambda: any("This Exam Cannot Start" in l for l in labels()), 20),
       "the exam does not start, and says so")
paths = ["problems[1]", "time_limit", "hints.allowed", "report_folder", "colour"]
shown = labels()
missing = [p for p in paths if p not in shown]
tap.ok(not missing, f"every error is listed at once, each under its JSON path (missing: {missing})")
tap.ok(any("knn-typo" in l for l in shown), "the problem the pack lacks is among them")
tap.ok(any("5 errors" in l for l in shown), "the summary counts all five")
copy = [n for n in find_all(lambda n: n.roleName == "push button" and (n.name or "").endswith("Copy Errors"))]
tap.ok(bool(copy), "the dialog offers Copy Errors")
app.screenshot("exam-errors")
tap.ok(not find_all(lambda n: n.roleName == "label" and (n.name or "").endswith(" left")),
       "no exam clock runs")

app.kill()
vivagui.cleanup(home)
tap.done()
