#!/usr/bin/python3
"""A graded exam on an exam server, as a student sits it: `viva --exam
LINK` asks for the student id and the seat card's code (a wrong code is
said in a sentence); the problems come from the server; the code is saved
on the server at a Run ("Saved"); a hint that costs points asks first, as
in a local exam, at the cost the server's exam sets, and the server's
report counts it; with the server stopped the typing is
kept ("Offline — …") and sent once it is back; Submit makes the server run
the defense, which the panel shows streamed, with the same cards; the
answer goes back to the server; and an exam that holds its verdicts says
"handed in" and shows no score until the teacher closes it.

A real viva-server on 127.0.0.1 with TLS, the app pinning its certificate
by the link."""

import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

src = os.environ["VIVA_SOURCE_ROOT"]
server = vivagui.ExamServer([os.path.join(src, "tests", "server", "exam-held.json")],
                            os.path.join(src, "tests", "server", "roster.csv"))
EXAM = "held-quiz"


def wait_for(pred, timeout=20):
    return vivagui.wait_for(pred, timeout, 0.25)


def find_all(app, pred):
    try:
        return app.node.findChildren(pred, recursive=True)
    except Exception:
        return []


def label(app, pattern):
    hits = find_all(app, lambda n: n.roleName == "label" and re.search(pattern, n.name or ""))
    return hits[0] if hits else None


app = vivagui.App(home, args=["--exam", server.link(EXAM)])
if not tap.ok(app.node is not None, "viva starts with --exam LINK"):
    app.kill()
    server.close()
    tap.done()

# The sign-in comes first, with the link filled in.
fields = {}


def find_fields():
    for n in find_all(app, lambda n: n.roleName == "text" and n.name in ("Exam link", "Student ID", "Seat code")):
        fields[n.name] = n
    return len(fields) == 3


tap.ok(wait_for(find_fields, 20), "a sign-in asks for the link, the student id and the seat code")


def button(name):
    # GTK 4.8 names a button with a mnemonic "_Label Label".
    hits = find_all(app, lambda n: n.roleName == "push button" and (n.name or "").endswith(name))
    return hits[0] if hits else None


sign_in = button("Sign In")
tap.ok(sign_in is not None and not sign_in.sensitive, "Sign In waits for the id and the code")
app.screenshot("exam-server-1-sign-in")

vivagui.click(fields["Student ID"])
rawinput.typeText("s1")
vivagui.click(fields["Seat code"])
rawinput.typeText("AAAA-AAAA")
tap.ok(wait_for(lambda: button("Sign In").sensitive), "Sign In is offered, the link filled in already")
vivagui.click(button("Sign In"))
tap.ok(wait_for(lambda: label(app, r"do not match") is not None, 20),
       "a wrong code is said in a sentence (%s)" % (label(app, r"do not match").name if label(app, r"do not match") else None))

# The right code, from the seat card.
vivagui.click(fields["Seat code"])
rawinput.keyCombo("<Control>a")
rawinput.typeText(server.codes[(EXAM, "s1")])
rawinput.pressKey("Return")
tap.ok(wait_for(lambda: button("Sign In") is None, 20), "signed in, the dialog closes")

editor = app.find("text", "Code editor")
tap.ok(wait_for(lambda: "def double(x)" in vivagui.text_of(editor), 20), "the exam's problem opens with its starter code")
tap.ok(wait_for(lambda: label(app, r"^\d+:\d\d left$") is not None, 10), "the header shows the server's clock")
t = label(app, r"^\d+:\d\d left$")
tap.ok(t is not None and re.match(r"4[45]:\d\d left", t.name), "45 minutes by the server's clock (%s)" % (t.name if t else None))
tap.ok(label(app, r"Ann Lee \(s1\)") is not None, "the header names the student as the server knows them")
app.screenshot("exam-server-2-signed-in")

# A hint costs points in this exam: the server's rule, asked first.
def dialog_button(name):
    # A message dialog keeps a second, hidden set of responses for narrow
    # windows: the one laid out wins.
    hits = find_all(app, lambda n: n.roleName == "push button" and (n.name or "").endswith(name))

    def area(n):
        try:
            return n.size[0] * n.size[1]
        except Exception:
            return 0
    hits.sort(key=area, reverse=True)
    return hits[0] if hits else None


def hint_button():
    hits = find_all(app, lambda n: n.roleName in ("toggle button", "push button") and (n.name or "").startswith("Hint"))
    return hits[0] if hits else None


tap.ok(wait_for(lambda: hint_button() is not None and "10 points" in hint_button().name, 10),
       "the Hint button says what the server's exam charges (%s)" % (hint_button().name if hint_button() else None))
vivagui.click(hint_button())
tap.ok(wait_for(lambda: dialog_button("Show Hint (−10)") is not None, 10), "pressing Hint asks first, with the cost")
tap.ok(label(app, r"This hint costs 10 points of 100") is None, "and shows nothing yet")
app.screenshot("exam-server-2b-hint-asked")
vivagui.click(dialog_button("Show Hint (−10)"))
tap.ok(wait_for(lambda: label(app, r"This hint costs 10 points of 100") is not None, 10),
       "agreeing shows the hint and its cost")
tap.ok(wait_for(lambda: hint_button().name == "Hint", 5), "the hint is counted: the button names no cost")
vivagui.click(hint_button())

# The student writes the function and runs it: the code is on the server.
vivagui.click(editor)
rawinput.keyCombo("<Control>a")
rawinput.typeText("def double(x):\n")
rawinput.typeText("return 2 * x\n")
tap.ok(wait_for(lambda: "return 2 * x" in vivagui.text_of(editor)), "the student's code is in the editor")
vivagui.click(app.find("push button", "Run"))
tap.ok(wait_for(lambda: label(app, r"^Saved$") is not None, 20), "after the Run the header says Saved")
tap.ok(wait_for(lambda: server.status(EXAM).get("s1", {}).get("saved") == 1, 10), "the server holds the code")

# The lab's network goes: the typing is kept here, then sent.
server.stop()
vivagui.click(editor)
rawinput.keyCombo("<Control>End")
rawinput.typeText("# checked offline\n")
offline = r"^Offline — your work is kept here and sent when the server is back$"
tap.ok(wait_for(lambda: label(app, offline) is not None, 40), "with the server away the header says Offline")
app.screenshot("exam-server-3-offline")
tap.ok("# checked offline" in vivagui.text_of(editor), "nothing typed is lost")
server.start()
tap.ok(wait_for(lambda: label(app, r"^Saved$") is not None, 60), "the server back, the work is sent: Saved")

# Submit: the server runs the defense; the panel shows it streamed.
vivagui.click(app.find("push button", "Run"))
submit = app.find("push button", "Submit for Defense")
tap.ok(wait_for(lambda: submit.sensitive, 30), "Submit is offered after a clean run")
vivagui.click(submit)
question = "What does double(0) return?"
tap.ok(wait_for(lambda: label(app, re.escape(question)) is not None, 60), "the server's examiner asks its question")
tap.ok(label(app, r"^Reading your code$") is not None and label(app, r"^Running your code$") is not None,
       "the panel shows the server's steps as cards")
app.screenshot("exam-server-4-question")

answer = app.find("text", "Your answer", timeout=10)
if answer is None:
    answer = next(iter(find_all(app, lambda n: n.roleName == "text" and "answer" in (n.name or "").lower())), None)
tap.ok(answer is not None, "the answer box is there")
if answer is not None:
    vivagui.click(answer)
    rawinput.typeText("It returns zero.")
    rawinput.keyCombo("<Control>Return")
tap.ok(wait_for(lambda: label(app, r"It returns zero\.") is not None, 30), "the answer, told back by the server, is shown")
tap.ok(wait_for(lambda: label(app, r"^Handed in\. This exam shows its results after it closes") is not None, 90),
       "the exam holds its verdict: handed in")
tap.ok(not find_all(app, lambda n: re.search(r"\bScore\b|/ ?100|Passed|Failed", n.name or "")),
       "no score and no verdict are shown")
tap.ok(wait_for(lambda: server.status(EXAM).get("s1", {}).get("reports") == 1, 30), "the server keeps the report")


def report_hints():
    code, data = server.request("GET", "/api/v1/exams/%s/reports" % EXAM, server.teacher_tokens[EXAM])
    hints = []
    for entry in (data or {}).get("reports", []):
        report = json.loads(entry.get("report") or "{}")
        hints += [e for e in report.get("timeline", []) if e.get("kind") == "hint"]
    return hints


hints = report_hints()
tap.ok(len(hints) == 1 and hints[0].get("cost") == 10,
       "the server's report records the hint taken, at the exam's cost (%s)" % hints)
app.screenshot("exam-server-5-handed-in")

# The teacher closes the exam: the verdict is the student's now.
code, _ = server.request("POST", "/api/v1/exams/%s/close" % EXAM, server.teacher_tokens[EXAM], {})
tap.ok(code == 200, "the teacher closes the exam")
tap.ok(wait_for(lambda: label(app, r"^(Passed|Not passed|Failed)$") is not None, 40),
       "once the exam closed, the verdict card shows the server's verdict")
app.screenshot("exam-server-6-closed")

app.quit()
# Xvfb runs no notification server; asking for the examiner's question to
# be shown while the window is in the background is the app working.
err = "\n".join(l for l in app.stderr().splitlines()
                if "org.freedesktop.Notifications" not in l and l.strip())
if not tap.ok("CRITICAL" not in err and "WARNING" not in err and "Gtk-" not in err,
              "no warnings or criticals on stderr"):
    print("#", err.replace("\n", "\n# "))
server.close()
vivagui.cleanup(home)
tap.done()
