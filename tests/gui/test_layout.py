#!/usr/bin/python3
"""The editor's room on a lab PC's screens: at 1024×768, 1280×800 and
1366×768, and with the text scaled by 1.25 (Large Text), the code editor
shows at least half the window's width while the student codes and at
least 30% during a defense with the answer box on screen, and nothing
covers it. Typing `if x:` and Return indents the next line; a `return`
dedents. Screenshots: build/screenshots/layout-*.png."""

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
    answer = extent(box)
    tap.ok(answer is not None and answer[1] + answer[3] <= frame.size[1] and answer[0] + answer[2] <= win_w,
           f"{what}, defense: the answer box is inside the window")
    app.screenshot(f"layout-{name}-defense")
    if (width, scale) == (1024, 1.0):
        check_indent(app, what)
    app.quit()
    err = app.stderr()
    if not tap.ok("CRITICAL" not in err and "WARNING" not in err, f"{what}: no warnings on stderr"):
        print(err, file=sys.stderr)
    vivagui.cleanup(h)

vivagui.cleanup(home)
tap.done()
