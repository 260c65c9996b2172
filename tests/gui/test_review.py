#!/usr/bin/python3
"""The review queue and calibration in Class Results, as a teacher uses
them: the items that need a look are listed (an item whose scorings
spread, a provisional defense), the teacher sets an item's points and a
defense's score with a note, by keyboard, and each is saved in the
teacher's own data beside Viva's score, never in the report folder the
students write; a `teacher` member a student wrote into a report is not
taken for the teacher's. The table shows both scores, the Calibration page
computes the agreement over the reviewed defenses, and `viva-cli class
collect` (reading the same data) grades by the teacher's scores."""

import hashlib
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402
import pyatspi  # noqa: E402

src = os.environ["VIVA_SOURCE_ROOT"]
pack_path = os.path.join(src, "data", "packs", "intro-ai.json")
knn = next(p for p in json.load(open(pack_path))["problems"] if p["id"] == "knn")
reports = os.path.join(home, "reports")
os.makedirs(reports)
env = vivagui.env_for(home)
env["GSETTINGS_BACKEND"] = "memory"

# One real defense (the offline examiner, the real worker); its report
# becomes three students'. Ana's verdict gets a conceptual item whose three
# scorings spread (needs review) — with a `teacher` member she wrote in
# herself — and Binh's is provisional with no such item; Chen's is clean.
code = os.path.join(home, "knn.py")
with open(code, "w") as f:
    f.write(knn["reference_solution"])
answers = os.path.join(home, "answers.json")
with open(answers, "w") as f:
    # The offline examiner asks a conceptual question and a prediction.
    json.dump(["I sort by distance and count the votes.", "'a'"], f)
sessions = os.path.join(home, "sessions")
done = subprocess.run([os.environ["VIVA_CLI"], "defend", "--pack", pack_path, "--problem", "knn", "--code", code,
                       "--answers", answers, "--offline", "--session-dir", sessions, "--json"],
                      env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
session = json.loads(done.stdout.decode().strip().splitlines()[-1])["session"]
base = os.path.join(home, "base.json")
subprocess.run([os.environ["VIVA_CLI"], "report", session, "--session-dir", sessions, "--json", base],
               env=env, check=True, timeout=60)

QUESTION = "Why do you sort by distance?"
for name, sid, score in (("Ana Lima", "s001", 80), ("Binh Tran", "s002", 40), ("Chen Wei", "s003", 90)):
    report = json.load(open(base))
    report["student"] = {"name": name, "id": sid}
    report["session"] = "session-" + sid
    verdict = report["verdict"]
    verdict["score"] = score
    items = [i for i in verdict.get("items", []) if i["kind"] == "engine-test"]
    tests = sum(i["max_points"] for i in items)
    if sid == "s001":
        items.append({"id": "conceptual:Q1", "kind": "conceptual", "title": QUESTION, "step": "S6",
                      "points": 10, "max_points": 20, "judged_by": "model", "needs_review": True,
                      "scores": [4, 10, 18], "evidence": ["count the votes"],
                      "answer": "I sort by distance and count the votes.",
                      "reason": "The scorings disagree.",
                      "teacher": {"points": 20, "note": "I gave myself full marks"}})
        verdict["provisional"] = True
    # Chen's is clean whatever the base defense's scorer said.
    verdict["provisional"] = sid in ("s001", "s002")
    verdict["items"] = items
    json.dump(report, open(os.path.join(reports, f"{name.replace(' ', '_')}-{sid}-knn.json"), "w"))


def folder_digest():
    digest = hashlib.sha256()
    for name in sorted(os.listdir(reports)):
        digest.update(name.encode())
        digest.update(open(os.path.join(reports, name), "rb").read())
    return digest.hexdigest()


before = folder_digest()
tap.ok(len(os.listdir(reports)) == 3, "three students' reports are in the folder")
vivagui.set_settings(home, teacher_mode="true")
store = os.path.join(home, "data", "viva", "teacher-scores.json")


def wait_for(pred, timeout=10):
    return vivagui.wait_for(pred, timeout)


def frame(app):
    frames = app.node.findChildren(lambda n: n.roleName == "frame" and n.name == "Class Results", recursive=False)
    return frames[0] if frames else app.node


def labels(app):
    return [n.name for n in frame(app).findChildren(lambda n: n.roleName == "label" and n.name, recursive=True)]


def named(app, pred, roles, timeout=10, under=None):
    found = []

    def look():
        root = under if under is not None else frame(app)
        found[:] = root.findChildren(lambda n: n.roleName in roles and n.name is not None and pred(n.name),
                                     recursive=True)
        return bool(found)
    return found[0] if wait_for(look, timeout) else None


def page(app, title):
    button = named(app, lambda n: n == title, ("toggle button", "radio button", "page tab", "push button"), timeout=5)
    if button is not None:
        vivagui.click(button)
    return button


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

menu = app.find("toggle button", "Pack Menu", timeout=15) or app.find("push button", "Pack Menu", timeout=1)
if menu is not None:
    vivagui.click(menu)
item = named(app, lambda n: n == "Class Results…", ("menu item", "push button"), timeout=5, under=app.node)
if item is not None:
    item.doActionNamed("click")
opener = named(app, lambda n: n == "Open Folder…", ("push button",), timeout=10)
tap.ok(opener is not None, "the Class Results window opens")
if opener is not None:
    vivagui.click(opener)
    # The chooser is up when its location entry takes the path.
    wait_for(lambda: any(n.roleName == "file chooser" or n.name == "Select Folder"
                         for n in app.node.findChildren(lambda n: n.roleName in ("dialog", "file chooser", "frame"),
                                                        recursive=False)), 10)
    rawinput.keyCombo("<Control>l")
    rawinput.typeText(reports + "/")
    choose = named(app, lambda n: n in ("Open", "_Open", "Select"), ("push button",), timeout=5, under=app.node)
    if choose is not None:
        vivagui.click(choose)
    else:
        rawinput.pressKey("Return")
tap.ok(wait_for(lambda: "Chen Wei" in labels(app), 20), "the table fills with the students")

# The queue: Ana's spread item, Binh's provisional defense; not Chen.
tap.ok(page(app, "Review") is not None, "the window has a Review page")
ana_title = f"Ana Lima — k-nearest neighbours: {QUESTION}"
ana = named(app, lambda n: n == ana_title, ("list item", "panel", "push button", "label", "toggle button"), timeout=10)
tap.ok(ana is not None, "the review queue lists the item that needs review, by student, problem and question")
names = labels(app)
tap.ok("Needs review: Viva gave 10 of 20" in names, "the item says what Viva gave")
tap.ok(any(n.startswith("Binh Tran — k-nearest neighbours: the whole defense") for n in names),
       "the provisional defense is in the queue, to be scored whole")
tap.ok(not any(n.startswith("Chen Wei —") for n in names), "a clean defense is not in the queue")
tap.ok(any(n.startswith("1 item needs review; 1 defense is provisional or flagged.") for n in names),
       "the queue's summary counts them")
tap.ok(names.count("Not reviewed") == 2, "nothing is reviewed yet: the student's own `teacher` member is ignored")
app.screenshot("review-queue")

# Ana's item, by keyboard: expand, points, note, Save.
if ana is not None:
    vivagui.click(ana)
# Named by its own label, then the row's title (GTK joins them).
spin = named(app, lambda n: n.startswith(f"Your points for “{QUESTION}”"), ("spin button",), timeout=5)
tap.ok(spin is not None, "the item's points field has an accessible name")
tap.ok(wait_for(lambda: "Viva gave 10 of 20 (its scorings: 4, 10, 18)\nThe scorings disagree." in "\n".join(labels(app))
                or any("its scorings: 4, 10, 18" in n for n in labels(app)), 5),
       "the expanded item shows the scorings that spread")
# GTK 4.8 does not implement grabFocus: click into the field, then the
# keyboard: the points, Tab to the note, Tab to Save Score, Space.
if spin is not None:
    vivagui.click(spin)
    rawinput.keyCombo("<Control>a")
    rawinput.typeText("15")
    rawinput.pressKey("Tab")
note = named(app, lambda n: n == "Your note", ("text", "entry"), timeout=5)
tap.ok(note is not None, "there is a note field")
rawinput.typeText("Knows why, said it badly")
rows = [n for n in frame(app).findChildren(lambda n: n.roleName == "push button" and n.name == "Save Score",
                                           recursive=True)]
tap.ok(len(rows) >= 1, "each review has a Save Score button")
rawinput.pressKey("Tab")
focused = frame(app).findChildren(lambda n: n.getState().contains(pyatspi.STATE_FOCUSED), recursive=True)
tap.ok([(n.roleName, n.name) for n in focused] == [("push button", "Save Score")],
       "Tab goes from the note to Save Score: " + repr([(n.roleName, n.name) for n in focused]))
rawinput.pressKey("space")
tap.ok(wait_for(lambda: "Yours: 15 of 20" in labels(app), 10), "the item shows the teacher's points beside Viva's")
tap.ok(wait_for(lambda: os.path.exists(store), 10), "the score is saved in the teacher's own data")
saved = json.load(open(store)) if os.path.exists(store) else {"scores": []}
entry = next((s for s in saved["scores"] if s.get("item") == "conceptual:Q1"), None)
tap.ok(entry is not None and entry["points" if "points" in entry else "score"] == 15 and
       entry["session"] == "session-s001" and entry["note"] == "Knows why, said it badly",
       "the saved score names the session and item and keeps the note: " + json.dumps(saved)[:300])

# Binh's defense, whole: score 55.
binh = named(app, lambda n: n.startswith("Binh Tran — k-nearest neighbours: the whole defense"),
             ("list item", "panel", "push button", "label", "toggle button"), timeout=5)
if binh is not None:
    vivagui.click(binh)
spin = named(app, lambda n: n.startswith("Your score for the defense"), ("spin button",), timeout=5)
tap.ok(spin is not None, "the defense's score field has an accessible name")
if spin is not None:
    vivagui.click(spin)
    rawinput.keyCombo("<Control>a")
    rawinput.typeText("55")
    rawinput.pressKey("Tab")
rows = [n for n in frame(app).findChildren(lambda n: n.roleName == "push button" and n.name == "Save Score",
                                           recursive=True)]
if len(rows) >= 2:
    vivagui.click(rows[1])
tap.ok(wait_for(lambda: "Yours: 55" in labels(app), 10), "the defense shows the teacher's score")
app.screenshot("review-scored")

# The table: both scores. Ana: 80 + (15 − 10)·100/M, M the items' points.
items_total = sum(i["max_points"] for i in json.load(open(os.path.join(reports, "Ana_Lima-s001-knn.json")))["verdict"]["items"])
ana_teacher = min(100, max(0, 80 + 5 * 100 / items_total))
page(app, "Reports")
tap.ok(wait_for(lambda: f"80 (yours: {ana_teacher:.0f})" in labels(app) and "40 (yours: 55)" in labels(app), 10),
       "the table shows Viva's score with the teacher's beside it")

# Calibration over the two reviewed defenses.
tap.ok(page(app, "Calibration") is not None, "the window has a Calibration page")
diff = ((80 - ana_teacher) + (40 - 55)) / 2
expected = f"Viva is harsher than you by {-diff:.1f} points on average."
tap.ok(wait_for(lambda: "2 defenses scored by both Viva and you" in labels(app) and expected in labels(app), 10),
       "the calibration page counts the reviewed defenses and says Viva is harsher: " + expected)
tap.ok(any(n.startswith("Score agreement ICC(3,1) = ") for n in labels(app)), "it gives ICC(3,1) with its interval")
tap.ok("Pass/fail agreement needs at least two defenses with your verdict (pass or fail)." in labels(app),
       "kappa says what it needs")
app.screenshot("review-calibration")

tap.ok(folder_digest() == before, "nothing in the report folder changed")

# The CLI reads the same data: the exports grade by the teacher's scores.
out = subprocess.run([os.environ["VIVA_CLI"], "class", "collect", "--json", reports], env=env,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
rows = {e.get("student_id"): e for e in map(json.loads, out.stdout.decode().splitlines()) if e["event"] == "row"}
tap.ok(abs(rows.get("s001", {}).get("score", -1) - ana_teacher) < 1e-6 and rows["s001"]["viva_score"] == 80,
       "class collect grades Ana by the teacher's item score, Viva's beside it")
tap.ok(rows.get("s002", {}).get("score") == 55 and "teacher_score" not in rows.get("s003", {"teacher_score": 0}),
       "and Binh by the teacher's defense score; Chen keeps Viva's")

err = app.stderr()
tap.ok(app.quit() == 0, "viva quits cleanly")
tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings on stderr" + ("" if not err else ": " + err[:400]))
tap.done()
