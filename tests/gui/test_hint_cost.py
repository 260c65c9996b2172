#!/usr/bin/python3
"""A hint that costs points, as a student meets it in an exam: the Hint
button says what it costs before it is pressed, pressing it asks first and
shows nothing until the student agrees, Cancel costs nothing, and once
shown the hint opens again without asking (it is counted once)."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

src = os.environ["VIVA_SOURCE_ROOT"]
pack = json.load(open(os.path.join(src, "tests", "packs", "good", "minimal.json")))
hint_text = pack["problems"][0]["hint"]
exam_dir = os.path.join(home, "lab-share")
os.makedirs(exam_dir)
exam_path = os.path.join(exam_dir, "quiz.json")
with open(exam_path, "w") as f:
    json.dump({
        "format": "viva-exam/1", "id": "hint-quiz", "title": "Hint quiz",
        "pack": pack, "problems": ["double"], "time_limit": "30m",
        "hints": {"allowed": True, "cost": 10}, "followup": False,
        "examiner": {"mode": "offline", "language": "en"},
        "report_folder": "reports",
    }, f)


def wait_for(pred, timeout=20):
    return vivagui.wait_for(pred, timeout, 0.25)


def find_all(pred):
    try:
        return app.node.findChildren(pred, recursive=True)
    except Exception:
        return []


def dialog_button(label):
    # GTK 4.8 names a message dialog's response "_Label Label" and keeps a
    # second, hidden set for narrow dialogs: the one laid out wins.
    hits = find_all(lambda n: n.roleName == "push button" and (n.name or "").endswith(label))

    def area(n):
        try:
            return n.size[0] * n.size[1]
        except Exception:
            return 0
    hits.sort(key=area, reverse=True)
    return hits[0] if hits else None


def hint_button():
    hits = find_all(lambda n: n.roleName in ("toggle button", "push button") and (n.name or "").startswith("Hint"))
    return hits[0] if hits else None


def hint_pressed():
    import pyatspi
    button = hint_button()
    return button is not None and button.getState().contains(pyatspi.STATE_PRESSED)


def hint_shown():
    # GTK 4.8 reports no showing state, and a revealer's label stays in the
    # tree: the hint is shown when the toggle is down and the label says it.
    return hint_pressed() and any(hint_text in (n.name or "") for n in find_all(lambda n: n.roleName == "label"))


app = vivagui.App(home, args=["--exam", exam_path])
if not tap.ok(app.node is not None, "viva starts with --exam"):
    app.kill()
    tap.done()

wait_for(lambda: dialog_button("Start Exam") is not None, 20)
fields = find_all(lambda n: n.roleName == "text" and n.name in ("Full name", "Student ID"))
if tap.ok(len(fields) == 2, "the exam asks who sits it"):
    vivagui.click(next(n for n in fields if n.name == "Full name"))
    rawinput.typeText("Tran Van Minh")
    vivagui.click(next(n for n in fields if n.name == "Student ID"))
    rawinput.typeText("S-77")
    wait_for(lambda: dialog_button("Start Exam").sensitive, 10)
    vivagui.click(dialog_button("Start Exam"))
tap.ok(wait_for(lambda: dialog_button("Start Exam") is None, 10), "the exam starts")

tap.ok(wait_for(lambda: hint_button() is not None and "10 points" in hint_button().name, 10),
       "the Hint button says what the hint costs before it is pressed (%s)" % (hint_button().name if hint_button() else None))
app.screenshot("hint-cost-1-button")

vivagui.click(hint_button())
tap.ok(wait_for(lambda: dialog_button("Cancel") is not None, 10), "pressing Hint asks first")
tap.ok(not hint_pressed() and not any(hint_text in (n.name or "") for n in find_all(lambda n: n.roleName == "label")),
       "and shows nothing yet")
app.screenshot("hint-cost-2-asked")
vivagui.click(dialog_button("Cancel"))
tap.ok(wait_for(lambda: dialog_button("Cancel") is None, 10), "Cancel closes the question")
tap.ok(not hint_shown() and "10 points" in hint_button().name, "and the hint stays hidden, still to be paid")

vivagui.click(hint_button())
tap.ok(wait_for(lambda: dialog_button("Show Hint (−10)") is not None, 10), "asked again, the cost is on the button")
vivagui.click(dialog_button("Show Hint (−10)"))
tap.ok(wait_for(hint_shown, 10), "agreeing shows the hint")
tap.ok(wait_for(lambda: hint_button().name == "Hint", 5), "the button no longer names a cost: it is counted")
app.screenshot("hint-cost-3-shown")

vivagui.click(hint_button())
tap.ok(wait_for(lambda: not hint_pressed(), 10), "Hint hides it again")
vivagui.click(hint_button())
tap.ok(wait_for(hint_shown, 10) and dialog_button("Cancel") is None,
       "and shows it again without asking: it costs once")

app.kill()
vivagui.cleanup(home)
tap.done()
