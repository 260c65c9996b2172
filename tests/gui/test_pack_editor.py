#!/usr/bin/python3
"""Teacher mode: the pack editor. Enter teacher mode from the main menu,
create a pack, add a problem and fill every field, validate it (the
reference passes, the starter fails, per test), save it, and find it in
the student's Problems list; then draft a problem with the model (a local
OpenAI-compatible server that first sends broken JSON, then a good
problem), approve it, and see it in the pack."""

import http.server
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

GOOD_DRAFT = {
    "id": "triple-it",
    "title": "Triple a number",
    "type": "implement",
    "description": "Write `triple(x)` that returns three times `x`.\n\nFor example, `triple(2)` is `6`.",
    "starter_code": "def triple(x):\n    raise NotImplementedError\n",
    "reference_solution": "def triple(x):\n    return 3 * x\n",
    "tests": [{"name": "two", "code": "assert triple(2) == 6, 'triple(2) should be 6'"},
              {"name": "zero", "code": "assert triple(0) == 0, 'triple(0) should be 0'"}],
    "questions": [{"question": "Why does triple work on floats too?",
                   "points": ["multiplication is defined for any number"]}],
    "hint": "Multiplication by a constant is all it takes.",
    "rubric": "Correct code, and an explanation of why it works.",
}


class ModelServer(http.server.BaseHTTPRequestHandler):
    """Stands in for an OpenAI-compatible server: every odd chat reply is
    not JSON, every even one is a good problem."""
    chats = 0

    def log_message(self, *args):
        pass

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/v1/models":
            self.send_json(200, {"object": "list", "data": [{"id": "test-model", "object": "model"}]})
        else:
            self.send_json(404, {"error": {"message": "not found"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        if self.path != "/v1/chat/completions":
            self.send_json(404, {"error": {"message": "not found"}})
            return
        ModelServer.chats += 1
        content = "Sure! {\"id\": \"triple-it\", \"title\": " if ModelServer.chats % 2 == 1 else json.dumps(GOOD_DRAFT)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for i in range(0, len(content), 40):
            chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "test-model",
                     "choices": [{"index": 0, "delta": {"content": content[i:i + 40]}, "finish_reason": None}]}
            self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
        done = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "test-model",
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        self.wfile.write(b"data: " + json.dumps(done).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), ModelServer)
threading.Thread(target=server.serve_forever, daemon=True).start()
vivagui.set_settings(home, base_url=f"'http://127.0.0.1:{server.server_address[1]}/v1'",
                     model="'test-model'")

# A draft made earlier with viva-cli waits in the drafts folder; the editor
# must show it, as it would after a restart.
cli = subprocess.run([os.environ["VIVA_CLI"], "pack", "generate", "--topic", "tripling", "--type", "implement",
                      "--base-url", f"http://127.0.0.1:{server.server_address[1]}/v1", "--model", "test-model"],
                     env=vivagui.env_for(home, {"VIVA_SECRETS": "memory", "GSETTINGS_BACKEND": "memory"}),
                     capture_output=True, text=True, timeout=120)
tap.ok(cli.returncode == 0 and len(os.listdir(os.path.join(home, "data", "viva", "drafts"))) == 1,
       "viva-cli pack generate leaves a draft for the app")


def wait_for(pred, timeout=15):
    return vivagui.wait_for(pred, timeout)


def find_any(app, role, pred, timeout=10, roles=()):
    roles = roles or (role,)
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            hits = app.node.findChildren(lambda n: n.roleName in roles and pred(n.name or ""), recursive=True)
            if hits:
                return hits[0]
        except Exception:
            pass
        time.sleep(0.2)
    return None


def type_into(node, text):
    vivagui.click(node)
    time.sleep(0.2)
    rawinput.typeText(text)


def replace_into(node, text):
    """Replaces what a field holds, as a teacher editing the template does."""
    vivagui.click(node)
    time.sleep(0.2)
    rawinput.keyCombo("<Control>a")
    rawinput.typeText(text)


def find_in_editor(app, role, name, timeout=10):
    """A node inside the pack editor's window (the student window has
    buttons of the same names)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            frames = app.node.findChildren(lambda n: n.roleName == "frame" and n.name == "Pack Editor"
                                           or n.roleName == "frame" and n.name == "Week 3: Arithmetic", recursive=False)
            for frame in frames:
                hits = frame.findChildren(lambda n: n.roleName == role and n.name == name, recursive=True)
                if hits:
                    return hits[0]
        except Exception:
            pass
        time.sleep(0.2)
    return None


def tab(app, name):
    """A page of the problem's view switcher, whatever role GTK gives it."""
    node = find_any(app, None, lambda n: n == name, timeout=5, roles=("toggle button", "radio button", "page tab"))
    if node is not None:
        vivagui.click(node)
        time.sleep(0.3)
    return node


def press(app, name, role="push button", timeout=10):
    node = app.find(role, name, timeout=timeout)
    if node is not None:
        vivagui.click(node)
        time.sleep(0.3)
    return node


app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva starts"):
    app.kill()
    tap.done()

# Teacher mode is a toggle in the main menu.
press(app, "Main Menu")
toggle = None
deadline = time.time() + 5
while toggle is None and time.time() < deadline:
    hits = app.node.findChildren(lambda n: n.name is not None and "Teacher Mode" in n.name
                                 and n.roleName in ("check menu item", "menu item", "check box", "toggle button", "push button"),
                                 recursive=True)
    toggle = hits[0] if hits else None
    time.sleep(0.2)
tap.ok(toggle is not None and toggle.roleName == "check menu item", "the main menu has a Teacher Mode toggle")
# Popovers report positions relative to themselves in GTK 4.8: the item is
# activated through its AT-SPI action rather than a click at its position.
if toggle is not None:
    toggle.doActionNamed("click")
new_pack = app.find("push button", "New Pack", timeout=10)
tap.ok(new_pack is not None, "teacher mode opens the pack editor")
earlier = find_any(app, "list item", lambda n: n.startswith("Draft Triple a number"), timeout=10)
print("# drafts row:", earlier.name if earlier is not None else None)
tap.ok(earlier is not None, "the draft made before the app started waits in the drafts list")
app.screenshot("pack-editor-empty")
if earlier is not None:
    vivagui.click(earlier)
    discard = find_in_editor(app, "push button", "Discard")
    tap.ok(discard is not None and find_any(app, "label", lambda n: n.startswith("Implement problem about “tripling”"), timeout=5) is not None,
           "choosing it shows the draft with Discard")
    if discard is not None:
        vivagui.click(discard)
    tap.ok(wait_for(lambda: find_any(app, "list item", lambda n: n.startswith("Draft Triple"), timeout=1) is None
                    and not os.listdir(os.path.join(home, "data", "viva", "drafts"))),
           "Discard drops the draft and its file")

# A new pack.
press(app, "New Pack")
title_entry = app.find("text", "New pack title", timeout=5)
tap.ok(title_entry is not None, "a new pack asks for its title")
if title_entry is not None:
    time.sleep(0.5)
    type_into(title_entry, "Week 3: Arithmetic")
    wait_for(lambda: vivagui.text_of(title_entry) == "Week 3: Arithmetic", timeout=5)
app.screenshot("pack-editor-new-pack")
rawinput.pressKey("Return")
tap.ok(wait_for(lambda: app.find("label", "Week 3: Arithmetic", timeout=1) is not None),
       "the new pack is open, its title in the header")

# A problem, every field, from the template a new problem starts with.
press(app, "Add Problem")
title = find_any(app, "text", lambda n: n == "Title")
tap.ok(title is not None, "a new problem shows its Title field")
tab(app, "Tests")
tap.ok(app.find("text", "Test check", timeout=5) is not None and
       "Check the type as well as the value" in vivagui.text_of(app.find("text", "Test check")),
       "a new problem starts from a template whose test says what a good test checks")
# The template is an example: until its placeholders are replaced it does
# not validate, whatever the title.
press(app, "Validate")
tap.ok(find_any(app, "label", lambda n: "template’s placeholder" in n, timeout=30) is not None and
       find_any(app, "label", lambda n: n.startswith("Validation found 4 errors"), timeout=15) is not None,
       "the untouched template does not validate: each placeholder is an error")
app.screenshot("pack-editor-template-errors")
tab(app, "Tests")
for _ in range(2):
    press(app, "Delete Test")
tab(app, "Questions")
press(app, "Delete Question")
tab(app, "Details")
if title is not None:
    vivagui.click(title)
    rawinput.keyCombo("<Control>a")
    rawinput.typeText("Double a number")
tap.ok(wait_for(lambda: find_any(app, "list item", lambda n: n.startswith("Double a number"), timeout=1) is not None),
       "the problem list follows the title as it is typed")
hint = app.find("text", "Hint")
if hint is not None:
    replace_into(hint, "Think of multiplication.")
app.screenshot("pack-editor-details")

tab(app, "Description")
description = app.find("text", "Description source")
tap.ok(description is not None, "the description has a source editor")
if description is not None:
    replace_into(description, "Write `double(x)` that returns **twice** `x`.")
preview = app.find("text", "Description preview")
tap.ok(preview is not None and wait_for(lambda: "twice" in vivagui.text_of(preview) and "**" not in vivagui.text_of(preview)),
       "the preview renders the Markdown as it is typed")
app.screenshot("pack-editor-description")

tab(app, "Starter")
starter = app.find("text", "Starter code")
if starter is not None:
    replace_into(starter, "def double(x): return 0")
tab(app, "Solution")
reference = app.find("text", "Reference solution")
tap.ok(starter is not None and reference is not None, "starter code and reference solution have code editors")
if reference is not None:
    replace_into(reference, "def double(x): return x * 2")

tab(app, "Tests")
press(app, "Add Test")
test_code = app.find("text", "Test code")
tap.ok(test_code is not None, "Add Test adds a test with a code editor")
# Add Test put the focus in the new test's code: typing goes there.
rawinput.typeText("assert double(2) == 4, 'double(2) should be 4'")
tap.ok(test_code is not None and wait_for(lambda: vivagui.text_of(test_code).startswith("assert double(2)"), 5),
       "Add Test moves the focus into the new test's code")
app.screenshot("pack-editor-tests")

tab(app, "Questions")
press(app, "Add Question")
question = app.find("text", "Question")
points = app.find("text", "Expected points")
tap.ok(question is not None and points is not None, "Add Question adds a question with its points")
if question is not None:
    type_into(question, "Why multiply rather than add x to itself?")
if points is not None:
    type_into(points, "both work for numbers")

# Validate: the reference passes, the starter fails, shown per test.
press(app, "Validate")
passed = find_any(app, "label", lambda n: n.startswith("This problem passes its checks"), timeout=30)
tap.ok(passed is not None, "Validate runs the problem and it passes its checks")
tap.ok(find_any(app, "label", lambda n: n == "Reference solution · test “test 1”", timeout=5) is not None,
       "each test's run is listed")
tap.ok(find_any(app, "label", lambda n: n.startswith("Fails, as it should: it leaves work to do (")
                and "double(2) should be 4" in n, timeout=5) is not None,
       "the starter's failing run says it fails as it should, with its error")
tap.ok(find_any(app, "list item", lambda n: n == "Double a number, passes its checks", timeout=5) is not None,
       "the problem is marked as passing in the list")
app.screenshot("pack-editor-validation")

press(app, "Save")
saved = os.path.join(home, "data", "viva", "packs", "week-3-arithmetic.json")
tap.ok(wait_for(lambda: os.path.exists(saved)), "Save writes the pack into the library's folder")
if os.path.exists(saved):
    pack = json.load(open(saved))
    problem = pack["problems"][0]
    tap.ok(problem["id"] == "double-a-number", f"the problem's id followed its title ({problem['id']})")
    tap.ok(pack["title"] == "Week 3: Arithmetic" and problem["title"] == "Double a number"
           and problem["reference_solution"] == "def double(x): return x * 2"
           and problem["tests"][0]["code"].startswith("assert double(2) == 4")
           and problem["questions"][0]["points"] == ["both work for numbers"]
           and problem["hint"] == "Think of multiplication.",
           "the saved file holds every field")

# Draft with AI: a broken reply, then a good one; approve it.
press(app, "Draft with AI…")
topic = find_any(app, "text", lambda n: n == "Topic")
tap.ok(topic is not None, "Draft with AI asks for a topic")
if topic is not None:
    type_into(topic, "multiplying by a constant")
press(app, "Draft")
approve_ready = find_any(app, "label", lambda n: "passed every check after 2 attempts" in n, timeout=60)
tap.ok(approve_ready is not None, "the draft passes after one retry, shown for approval")
tap.ok(find_any(app, "label", lambda n: n.startswith("Attempt 1 failed"), timeout=2) is not None or
       ModelServer.chats == 2, "the retry was made with what failed")
tap.ok(find_any(app, "list item", lambda n: n.startswith("Draft Triple a number"), timeout=5) is not None,
       "the draft waits in the drafts list")
app.screenshot("pack-editor-draft")
press(app, "Approve")
tap.ok(find_any(app, "list item", lambda n: n.startswith("Triple a number"), timeout=10) is not None,
       "approving adds the problem to the pack")
tap.ok(find_any(app, "list item", lambda n: n.startswith("Draft Triple"), timeout=2) is None,
       "and it leaves the drafts list")
app.screenshot("pack-editor-approved")


def problem_order():
    rows = app.node.findChildren(lambda n: n.roleName == "list item" and n.name and
                                 (n.name.startswith("Double") or n.name.startswith("Triple")), recursive=True)
    return [r.name.split(",")[0] for r in rows]


# Duplicate, reorder, delete and undo the delete.
vivagui.click(find_in_editor(app, "push button", "Duplicate Problem"))
tap.ok(wait_for(lambda: problem_order() == ["Double a number", "Triple a number", "Triple a number (copy)"]),
       "Duplicate puts a copy after the problem")
vivagui.click(find_in_editor(app, "push button", "Move Up"))
tap.ok(wait_for(lambda: problem_order() == ["Double a number", "Triple a number (copy)", "Triple a number"]),
       "Move Up moves it one place up")
vivagui.click(find_in_editor(app, "push button", "Delete Problem"))
# The toast lives ten seconds, and a search of the trees can take several on
# a loaded machine: look at once, before checking the list.
undo = find_any(app, "push button", lambda n: "Undo" in n, timeout=10)
app.screenshot("pack-editor-deleted")
tap.ok(wait_for(lambda: problem_order() == ["Double a number", "Triple a number"]), "Delete removes it")
tap.ok(undo is not None, "a toast offers to undo the delete")
if undo is not None:
    vivagui.click(undo)
tap.ok(wait_for(lambda: problem_order() == ["Double a number", "Triple a number (copy)", "Triple a number"]),
       "Undo puts it back in its place")
if problem_order() == ["Double a number", "Triple a number (copy)", "Triple a number"]:
    vivagui.click(find_in_editor(app, "push button", "Delete Problem"))
    wait_for(lambda: problem_order() == ["Double a number", "Triple a number"])
rawinput.keyCombo("<Control>s")
tap.ok(wait_for(lambda: len(json.load(open(saved))["problems"]) == 2), "the approved problem is saved with the pack")

# Unsaved changes are never lost: closing asks first, and Save keeps them.
tab(app, "Details")
title = find_any(app, "text", lambda n: n == "Title")
if title is not None:
    vivagui.click(title)
    rawinput.keyCombo("End")
    rawinput.typeText(" by three")
rawinput.keyCombo("<Control>w")
ask = None
deadline = time.time() + 10
while ask is None and time.time() < deadline:
    frames = app.node.findChildren(lambda n: n.roleName in ("frame", "dialog", "alert")
                                   and (n.name or "").startswith("Save Changes"), recursive=False)
    ask = frames[0] if frames else None
    time.sleep(0.2)
tap.ok(ask is not None, "closing with unsaved changes asks first")
app.screenshot("pack-editor-close")
if ask is not None:
    # The default response, Save, has the focus.
    rawinput.pressKey("Return")
tap.ok(wait_for(lambda: app.find("push button", "New Pack", timeout=1) is None), "closing the editor leaves teacher mode")
tap.ok(wait_for(lambda: json.load(open(saved))["problems"][1]["title"] == "Triple a number by three"),
       "choosing Save there saved the change")
press(app, "Problems")
tap.ok(app.find("label", "Week 3: Arithmetic", timeout=10) is not None, "the student's Problems list shows the new pack")
tap.ok(find_any(app, "list item", lambda n: "Double a number" in n, timeout=5) is not None,
       "with its problem")
app.screenshot("pack-editor-student-list")
rawinput.keyCombo("Escape")

tap.ok(app.quit() == 0, "Viva closes cleanly")
if not tap.ok("CRITICAL" not in app.stderr() and "WARNING" not in app.stderr()
              and "Gtk-" not in app.stderr(), "no warnings or criticals on the app's stderr"):
    print(app.stderr(), file=sys.stderr)

server.shutdown()
vivagui.cleanup(home)
tap.done()
