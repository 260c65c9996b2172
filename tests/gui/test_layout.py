#!/usr/bin/python3
"""The editor's room on a lab PC's screens: at 1024×768, 1280×800 and
1366×768, and with the text scaled by 1.25 (Large Text), the code editor
shows at least half the window's width while the student codes and at
least 30% during a defense with the answer box on screen, and nothing
covers it. During a defense it keeps 80 columns of code, the problem pane
folding first and then the examiner narrowing, as far as the window
allows. A plot in the output pane of a 1024×768 screen is shown whole.
Typing `if x:` and Return indents the next line; a `return` dedents.
Screenshots: build/screenshots/layout-*.png."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

kmeans = vivagui.bundled_problem("kmeans")

SIZES = [(1024, 768, 1.0), (1280, 800, 1.0), (1366, 768, 1.0),
         (1024, 768, 1.25), (1280, 800, 1.25), (1366, 768, 1.25)]


def wait_for(pred, timeout=30):
    return vivagui.wait_for(pred, timeout, 0.25)


def prepare(width, height, scale):
    h = vivagui.make_home()
    conf = os.path.join(h, "config")
    vivagui.set_settings(h, examiner_mode="'offline'", window_width=width, window_height=height,
                         console_pane_position=int(height * 0.55))
    # Large Text: GNOME scales the DPI through its settings daemon, which
    # Xvfb lacks, and GTK 4 on X11 takes the DPI only from there; the same
    # text size comes from the font (Xvfb's default is Sans 10).
    if scale != 1.0:
        os.makedirs(os.path.join(conf, "gtk-4.0"))
        with open(os.path.join(conf, "gtk-4.0", "settings.ini"), "w") as f:
            f.write(f"[Settings]\ngtk-font-name=Sans {10 * scale:g}\n")
    vivagui.save_code(h, kmeans["reference_solution"])
    return h


def extent(node):
    if node is None:
        return None
    try:
        (x, y), (w, h) = node.position, node.size
    except Exception:
        return None
    return (x, y, w, h) if w > 0 and h > 0 else None


def overlaps(a, b):
    return a and b and a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def measure(app, width, what, share):
    """The editor's width against the window's, and that no pane covers it."""
    editor = extent(app.find("text", "Code editor", timeout=5))
    problem = extent(app.find("text", "Problem description", timeout=1))
    answer = extent(app.find("text", "Your answer", timeout=1))
    if not tap.ok(editor is not None, f"{what}: the editor is on screen"):
        return
    # The editor's own scrolled area is what the student sees of the code.
    seen = editor[2]
    tap.ok(seen >= share * width,
           f"{what}: the editor is {seen} px of {width} ({seen / width:.0%}), at least {share:.0%}")
    tap.ok(not overlaps(editor, problem), f"{what}: the problem pane does not cover the editor")
    tap.ok(not overlaps(editor, answer), f"{what}: the answer box does not cover the editor")
    print(f"# {what}: editor {seen} px = {seen / width:.0%}; problem {problem}; answer {answer}", flush=True)


def editor_columns(app):
    """How many columns of code the editor shows, in its own font."""
    import pyatspi
    node = app.find("text", "Code editor", timeout=5)
    box = extent(node)
    try:
        text = node.queryText()
        x0, _, w0, _ = text.getCharacterExtents(0, pyatspi.WINDOW_COORDS)
        x1, _, _, _ = text.getCharacterExtents(1, pyatspi.WINDOW_COORDS)
    except Exception:
        return None
    char = x1 - x0 if x1 > x0 else w0
    if not box or char <= 0:
        return None
    return (box[0] + box[2] - x0) / char


def check_columns(app, win_w, what):
    cols = editor_columns(app)
    problem = extent(app.find("text", "Problem description", timeout=1))
    examiner = extent(app.find("text", "Your answer", timeout=1))
    if cols is not None and cols >= 79:
        tap.ok(True, f"{what}: the editor shows {cols:.0f} columns of code")
    else:
        # Too narrow for 80 columns beside the panel: the panes gave way.
        tap.ok(problem is None and examiner is not None and examiner[2] <= 0.4 * win_w,
               f"{what}: {cols} columns, with the problem pane folded and the examiner at its narrowest "
               f"(examiner {examiner[2] if examiner else None} px)")


def check_plot(app, what):
    editor = app.find("text", "Code editor")
    vivagui.click(editor)
    rawinput.keyCombo("<Control>a")
    rawinput.typeText("import matplotlib.pyplot as plt\nplt.plot([1, 4, 9, 16])\nplt.show()\n")
    rawinput.keyCombo("<Control>Return")
    figure = None
    if wait_for(lambda: app.node.findChildren(lambda n: n.name == "Figure", recursive=True), 60):
        figure = app.node.findChildren(lambda n: n.name == "Figure", recursive=True)[-1]
    console = extent(app.find("text", "Program output", timeout=5))
    time.sleep(1)  # the view settles on the figure after its layout
    shown = extent(figure) if figure is not None else None
    tap.ok(shown is not None and console is not None and
           console[1] <= shown[1] and shown[1] + shown[3] <= console[1] + console[3],
           f"{what}: a plot is shown whole in the output pane (figure {shown}, pane {console})")
    app.screenshot("layout-1024x768-plot")


def check_editor_clicks(app, box, what):
    """A click anywhere in the editor reaches it, also where the folded
    problem pane's handle was (340 px, its default width)."""
    editor = app.find("text", "Code editor")
    e = extent(editor)
    missed = []
    for x in (40, 334, 340, 346, 352, e[0] + e[2] - 60):
        vivagui.click(box)
        time.sleep(0.3)
        rawinput.click(x, e[1] + e[3] // 2)
        if not wait_for(lambda: editor.focused, 2):
            missed.append(x)
    tap.ok(not missed, f"{what}, defense: a click anywhere in the editor puts the cursor there (missed at x={missed})")


def check_indent(app, what):
    editor = app.find("text", "Code editor")
    vivagui.click(editor)
    rawinput.keyCombo("<Control>End")
    rawinput.pressKey("Return")
    rawinput.pressKey("Return")
    rawinput.typeText("if x:")
    rawinput.pressKey("Return")
    rawinput.typeText("y = 1")
    rawinput.pressKey("Return")
    rawinput.typeText("return y")
    rawinput.pressKey("Return")
    rawinput.typeText("z")
    ok = wait_for(lambda: vivagui.text_of(editor).endswith("if x:\n    y = 1\n    return y\nz"), 5)
    tail = vivagui.text_of(editor)[-40:]
    tap.ok(ok, f"{what}: `if x:` Return indents by four spaces, `return` Return dedents ({tail!r})")
    rawinput.keyCombo("<Control>z")


for width, height, scale in SIZES:
    what = f"{width}×{height}" + (f", text ×{scale}" if scale != 1.0 else "")
    name = f"{width}x{height}" + ("-large-text" if scale != 1.0 else "")
    h = prepare(width, height, scale)
    app = vivagui.App(h)
    if not tap.ok(app.node is not None, f"{what}: viva starts"):
        app.kill()
        continue
    frame = app.node.children[0]
    win_w = frame.size[0]
    # Without a window manager, the client-side frame's margin is part of
    # the size asked for: the window itself is a few pixels narrower.
    tap.ok(width - 16 <= win_w <= width, f"{what}: the window is {win_w} px wide")
    measure(app, win_w, f"{what}, coding", 0.5)
    tap.ok(app.find("text", "Your answer", timeout=1) is None or extent(app.find("text", "Your answer", timeout=1)) is None,
           f"{what}, coding: the examiner is closed")
    app.screenshot(f"layout-{name}-coding")

    rawinput.keyCombo("<Control>Return")
    tap.ok(wait_for(lambda: app.node.findChildren(lambda n: (n.name or "").startswith("Finished in"), recursive=True), 60),
           f"{what}: Ctrl+Enter runs the code")
    rawinput.keyCombo("<Control><Shift>Return")
    box = app.find("text", "Your answer", timeout=30)
    asked = box is not None and wait_for(lambda: box.sensitive, 60)
    tap.ok(asked, f"{what}: Submit opens the examiner and it asks a question")
    time.sleep(1)
    measure(app, win_w, f"{what}, defense", 0.3)
    check_columns(app, win_w, f"{what}, defense")
    answer = extent(box)
    tap.ok(answer is not None and answer[1] + answer[3] <= frame.size[1] and answer[0] + answer[2] <= win_w,
           f"{what}, defense: the answer box is inside the window")
    app.screenshot(f"layout-{name}-defense")
    if (width, scale) == (1024, 1.0):
        check_editor_clicks(app, box, what)
        check_indent(app, what)
    app.quit()
    err = app.stderr()
    if not tap.ok("CRITICAL" not in err and "WARNING" not in err, f"{what}: no warnings on stderr"):
        print(err, file=sys.stderr)
    vivagui.cleanup(h)

# A plot on the smallest screen, in a Viva of its own.
h = prepare(1024, 768, 1.0)
app = vivagui.App(h)
if tap.ok(app.node is not None, "1024×768, plot: viva starts"):
    check_plot(app, "1024×768")
    app.quit()
vivagui.cleanup(h)

vivagui.cleanup(home)
tap.done()
