#!/usr/bin/python3
"""Class Results, in teacher mode: open a folder of students' reports from
the pack editor's menu, see every student in the table with what needs a
look flagged, filter it, re-grade the class with progress shown while the
window stays live, see what the class failed most, and open a report in
the browser by clicking its row — the page made from the report's JSON,
never the HTML a student left beside it. The window says what it is and
which folder it shows, names a report with no student by its file, and
its main action is a labelled Export."""

import json
import os
import stat
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

# A browser that writes down what it was asked to open, registered as the
# default for HTML pages in this home.
opened_log = os.path.join(home, "opened.txt")
browser = os.path.join(home, "fake-browser")
with open(browser, "w") as f:
    f.write(f"#!/bin/sh\necho \"$1\" >> {opened_log}\n")
os.chmod(browser, os.stat(browser).st_mode | stat.S_IEXEC)
apps = os.path.join(home, "data", "applications")
os.makedirs(apps)
with open(os.path.join(apps, "fake-browser.desktop"), "w") as f:
    f.write("[Desktop Entry]\nType=Application\nName=Fake Browser\n"
            f"Exec={browser} %u\nMimeType=text/html;application/json;\n")
with open(os.path.join(home, "config", "mimeapps.list"), "w") as f:
    f.write("[Default Applications]\ntext/html=fake-browser.desktop\napplication/json=fake-browser.desktop\n")

# The class: Ana's correct K-NN, Binh's unfinished one, and Chen's failed
# defense whose report was edited to say "pass", through the real CLI and
# worker; and a file that is not a report.
src = os.environ["VIVA_SOURCE_ROOT"]
pack_path = os.path.join(src, "data", "packs", "intro-ai.json")
knn = next(p for p in json.load(open(pack_path))["problems"] if p["id"] == "knn")
reports = os.path.join(home, "reports")
os.makedirs(reports)
answers = os.path.join(home, "answers.json")
with open(answers, "w") as f:
    json.dump(["A larger k smooths the vote: less variance, more bias.", "'a'"], f)
# Ana took the AI midterm, whose hints cost 10 points each, and looked at
# the hint twice (it costs once): her session records it as exam mode does. Before handing
# the report in she made every record of the cost say 5.
exam_path = os.path.join(home, "ai-midterm.json")
with open(exam_path, "w") as f:
    json.dump({"format": "viva-exam/1", "id": "ai-midterm", "title": "AI midterm", "pack": "intro-ai",
               "problems": ["knn"], "hints": {"allowed": True, "cost": 10}, "report_folder": "reports"}, f)


def exam_session(session):
    path = os.path.join(session, "checkpoint.json")
    checkpoint = json.load(open(path))
    checkpoint["exam"] = {"path": exam_path, "digest": "0000", "id": "ai-midterm", "title": "AI midterm",
                          "pack_embedded": False, "hint_cost": 10}
    checkpoint.setdefault("timeline", []).extend(
        {"time": t, "kind": "hint", "problem": "knn", "cost": 10} for t in ("2026-11-30T10:01:00Z", "2026-11-30T10:07:00Z"))
    checkpoint["verdict"]["score"] = 85
    json.dump(checkpoint, open(path, "w"))


def lower_hint_cost(report, cost):
    report["exam"]["hint_cost"] = cost
    for event in report["timeline"]:
        if event["kind"] == "hint":
            event["cost"] = cost
    report["score"]["hint_cost"] = cost
    report["score"]["final"] = report["score"]["examiner"] - report["score"]["hints"] * cost


env = vivagui.env_for(home)
env["GSETTINGS_BACKEND"] = "memory"
sessions = os.path.join(home, "sessions")
for name, sid, which in (("Ana Lima", "s001", "reference_solution"), ("Binh Tran", "s002", "starter_code"),
                         ("Chen Wei", "s003", "starter_code")):
    code = os.path.join(home, which + ".py")
    with open(code, "w") as f:
        f.write(knn[which])
    done = subprocess.run([os.environ["VIVA_CLI"], "defend", "--pack", pack_path, "--problem", "knn",
                           "--code", code, "--answers", answers, "--offline", "--session-dir", sessions, "--json"],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    verdict = json.loads(done.stdout.decode().strip().splitlines()[-1])
    if sid == "s001":
        exam_session(os.path.join(sessions, verdict["session"]))
    out = os.path.join(reports, f"{name.replace(' ', '_')}-{sid}-knn.json")
    subprocess.run([os.environ["VIVA_CLI"], "report", verdict["session"], "--session-dir", sessions, "--json", out],
                   env=env, check=True, timeout=60)
    report = json.load(open(out))
    report.setdefault("student", {"name": name, "id": sid})
    if sid == "s003":
        report["verdict"]["verdict"] = "pass"
        report["verdict"]["score"] = 100
    if sid == "s001":
        lower_hint_cost(report, 5)
    json.dump(report, open(out, "w"))
with open(os.path.join(reports, "notes.json"), "w") as f:
    f.write('{"todo": ["grade the lab"]}')
# A practice report that names no student (issue 29, 17: a blank cell).
practice = json.load(open(os.path.join(reports, "Binh_Tran-s002-knn.json")))
practice.pop("student", None)
practice["session"] = "practice-session"
json.dump(practice, open(os.path.join(reports, "practice-knn.json"), "w"))
# Ana's own page beside her report, forged: it says she passed, with a
# script that would run in the teacher's browser.
with open(os.path.join(reports, "Ana_Lima-s001-knn.html"), "w") as f:
    f.write("<html><body><h1>FORGED 100/100</h1><script>document.title='pwned'</script></body></html>")
tap.ok(len(os.listdir(reports)) == 6,
       "three students' reports, a practice report, a forged page and a stray file are in the folder")

vivagui.set_settings(home, teacher_mode="true")


def wait_for(pred, timeout=10):
    return vivagui.wait_for(pred, timeout)


def named(app, pred, roles, timeout=10):
    found = []

    def look():
        found[:] = app.node.findChildren(lambda n: n.roleName in roles and n.name is not None and pred(n.name),
                                         recursive=True)
        return bool(found)
    return found[0] if wait_for(look, timeout) else None


def results_frame(app):
    frames = app.node.findChildren(lambda n: n.roleName == "frame" and n.name == "Class Results", recursive=False)
    return frames[0] if frames else app.node


def cells(app):
    """The texts the Class Results window shows (its own tree only: the
    whole app's is slow to walk)."""
    return [n.name for n in results_frame(app).findChildren(lambda n: n.roleName == "label" and n.name, recursive=True)]


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

# Teacher mode opens the pack editor; its menu has Class Results.
menu = app.find("toggle button", "Pack Menu", timeout=15) or app.find("push button", "Pack Menu", timeout=1)
tap.ok(menu is not None, "teacher mode shows the pack editor with its menu")
if menu is not None:
    vivagui.click(menu)
item = named(app, lambda n: n == "Class Results…", ("menu item", "push button"), timeout=5)
tap.ok(item is not None, "the pack editor's menu has Class Results…")
if item is not None:
    item.doActionNamed("click")
opener = named(app, lambda n: n == "Open Folder…", ("push button",), timeout=10)
tap.ok(opener is not None, "the Class Results window opens, empty, asking for a folder")
app.screenshot("class-results-empty")

# The folder, through the file chooser, as a teacher picks it.
if opener is not None:
    vivagui.click(opener)
    time.sleep(1.0)
    rawinput.keyCombo("<Control>l")
    time.sleep(0.3)
    rawinput.typeText(reports + "/")
    time.sleep(0.5)
    choose = named(app, lambda n: n in ("Open", "_Open", "Select"), ("push button",), timeout=5)
    if choose is not None:
        vivagui.click(choose)
    else:
        rawinput.pressKey("Return")

tap.ok(wait_for(lambda: "Chen Wei" in cells(app), 20), "the table fills with the students")
names = cells(app)
tap.ok(all(s in names for s in ("Ana Lima", "Binh Tran", "Chen Wei")), "every student is in the table")
tap.ok("notes.json" in names and "Unreadable" in names, "the stray file is a row saying it cannot be read")
tap.ok(any(n.startswith("5 reports from 3 students") for n in names), "the summary counts reports and students")
tap.ok("No name — practice-knn.json" in names, "a report that names no student is named by its file, not left blank")
# Issue 29, 17: the window's title and folder are shown, and its main
# action says what it does.
title = [n for n in results_frame(app).findChildren(lambda n: n.roleName == "label" and n.name == "Class Results",
                                                    recursive=True)]
tap.ok(any(n.size[0] > 0 and n.size[1] > 0 for n in title), "the window shows its title, Class Results")
tap.ok("reports" in names, "the title's subtitle names the folder")
tap.ok("Export" in names, "the main action is a button labelled Export, not a bare icon")
tap.ok("85 − 1 hint × 5 = 80" in names, "a score with a hint cost shows how it was made")
app.screenshot("class-results-table")

# Re-grading runs in the background, with progress, and flags the edited report.
regrade = named(app, lambda n: n == "Re-grade", ("push button",), timeout=5)
tap.ok(regrade is not None, "there is a Re-grade button")
if regrade is not None:
    vivagui.click(regrade)
saw_progress = wait_for(lambda: any(n.startswith("Re-grading:") for n in cells(app)), 10)
tap.ok(saw_progress, "re-grading shows its progress")
# The window answers while the re-grade runs: the filter takes typing.
search = app.find("text", "Filter", timeout=5) or named(app, lambda n: n == "Filter", ("entry", "text"), timeout=2)
t0 = time.time()
tap.ok(wait_for(lambda: "6/6" in cells(app), 120), "the correct solution re-grades 6/6")
print(f"# re-grade seen after {time.time() - t0:.1f} s", flush=True)
tap.ok(wait_for(lambda: any(n.startswith("5 reports from 3 students; 4 flagged") for n in cells(app)), 30),
       "after the re-grade the summary counts the flagged reports")
names = cells(app)
tap.ok(any("verdict-contradicts-tests" in n for n in names), "the report edited to say pass is flagged")
tap.ok(any("tests-failed" in n for n in names), "the wrong solution is flagged")
app.screenshot("class-results-regraded")

# Filtering: only the flagged rows, then a name.
flagged = named(app, lambda n: n == "Flagged only", ("check box", "toggle button"), timeout=5)


def toggle_flagged():
    """Through its mnemonic, as a keyboard user would."""
    rawinput.keyCombo("<Alt>f")
    time.sleep(0.3)


toggle_flagged()
ok = wait_for(lambda: "Ana Lima" not in cells(app) and "Chen Wei" in cells(app), 5)
if not ok:
    print("# flagged only:", flagged.roleName if flagged is not None else None, cells(app), flush=True)
tap.ok(ok, "Flagged only hides the clean report")
toggle_flagged()
if search is not None:
    vivagui.click(search)
    rawinput.typeText("binh")
tap.ok(wait_for(lambda: "Binh Tran" in cells(app) and "Chen Wei" not in cells(app), 5), "the filter finds a student by name")
if search is not None:
    rawinput.keyCombo("<Control>a")
    rawinput.pressKey("BackSpace")
tap.ok(wait_for(lambda: "Chen Wei" in cells(app), 5), "clearing the filter shows everyone again")

# Clicking a row opens that student's report in the browser.
ana = named(app, lambda n: n == "Ana Lima", ("label",), timeout=5)
if ana is not None:
    vivagui.click(ana)
tap.ok(wait_for(lambda: os.path.exists(opened_log) and "Ana_Lima" in open(opened_log).read(), 15),
       "clicking a row opens the student's report in the browser")
opened = open(opened_log).read().split()[-1] if os.path.exists(opened_log) else ""
opened_path = urllib.parse.unquote(urllib.parse.urlparse(opened).path)
tap.ok(opened_path.startswith(os.path.join(home, "cache")) and not opened_path.startswith(reports),
       "the page opened is Viva's, made from the JSON, not the file beside it: " + opened_path)
page = open(opened_path).read() if os.path.isfile(opened_path) else ""
tap.ok("Ana Lima" in page and "FORGED" not in page and "<script" not in page,
       "the page shows Ana's report and nothing of the forged one")
tap.ok("Content-Security-Policy" in page and "default-src 'none'" in page, "the page carries the report's CSP")

# What the class failed most.
failed_most = named(app, lambda n: n == "Failed Most", ("toggle button", "radio button", "page tab", "push button"), timeout=5)
if failed_most is not None:
    vivagui.click(failed_most)
tap.ok(wait_for(lambda: any(n.startswith("failed by 3 of 4") for n in cells(app)), 5),
       "the statistics show a hidden test three of four reports failed")
app.screenshot("class-results-statistics")

# The teacher's own copy of the exam sets the cost: Ana's score is taken
# again at 10 points a hint, and her report is flagged for saying 5.
reports_page = named(app, lambda n: n == "Reports", ("toggle button", "radio button", "page tab", "push button"), timeout=5)
if reports_page is not None:
    vivagui.click(reports_page)
exam_button = named(app, lambda n: n == "Exam File…", ("push button",), timeout=5)
tap.ok(exam_button is not None, "there is an Exam File… button")
if exam_button is not None:
    vivagui.click(exam_button)
    time.sleep(1.0)
    rawinput.keyCombo("<Control>l")
    time.sleep(0.3)
    rawinput.typeText(exam_path)
    time.sleep(0.5)
    rawinput.pressKey("Return")
tap.ok(wait_for(lambda: "85 − 1 hint × 10 = 75" in cells(app), 15),
       "with the teacher's exam file the score uses its cost")
names = cells(app)
tap.ok(any("hint-cost-mismatch" in n for n in names), "the report that recorded another cost is flagged")
tap.ok(not any("0 hints" in n for n in names), "a score with no hint viewed is the examiner's alone")
tap.ok(named(app, lambda n: n == "Exam: AI midterm", ("push button",), timeout=5) is not None,
       "the button names the exam file in use")
app.screenshot("class-results-exam-file")

# Export → the class HTML page, through the save dialog as a teacher
# types a name: every report's page is made from its JSON (in a thread;
# the window stays live), nothing of the forged page is in it.
class_page = os.path.join(home, "class-results.html")
export = named(app, lambda n: n == "Export", ("toggle button", "push button"), timeout=5)
tap.ok(export is not None, "the Export button is found by its label")
if export is not None:
    vivagui.click(export)
    item = named(app, lambda n: n == "Export HTML Page…", ("menu item", "push button"), timeout=5)
    if item is not None:
        item.doActionNamed("click")
        time.sleep(1.0)
        rawinput.keyCombo("<Control>a")
        rawinput.typeText(class_page)
        time.sleep(0.5)
        rawinput.pressKey("Return")
tap.ok(wait_for(lambda: os.path.exists(class_page) and "</html>" in open(class_page).read(), 20),
       "Export HTML Page… writes the class page")
text = open(class_page).read() if os.path.exists(class_page) else ""
tap.ok("<iframe sandbox=\"\"" in text and "FORGED" not in text and "<script" not in text,
       "the class page holds each report's page made from its JSON, in a frame that runs no script")
tap.ok(wait_for(lambda: "Saved “class-results.html”" in cells(app), 10), "the window says it saved the page")
app.screenshot("class-results-exported")

err = app.stderr()
tap.ok(app.quit() == 0, "viva quits cleanly")
tap.ok("CRITICAL" not in err and "WARNING" not in err, "no warnings on stderr" + ("" if not err else ": " + err[:400]))
tap.done()
