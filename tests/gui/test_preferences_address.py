#!/usr/bin/python3
"""An endpoint typed without http:// in Preferences (issue 29, item 14): an
address on this computer gets it, in the field too, and connects; a server
elsewhere is said to need https:// (or http://) beside the field, in words
that do not send the user to Preferences, where they already are; nor does a server that is not running.
The scorer's rows (a second model for conceptual answers) save what is typed.
Screenshots: build/screenshots/address-*.png."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402
from vivagui import find_named, set_settings  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput  # noqa: E402

vivagui.require_server(tap)


def preferences(app):
    """The newest Preferences window, so searches skip the main window."""
    try:
        hits = [w for w in app.node.children if w.name == "Preferences"]
        return hits[-1] if hits else app.node
    except Exception:
        return app.node


def row_saying(app, text, timeout=20):
    """A node whose name or description (a row's subtitle) holds text."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            hits = preferences(app).findChildren(
                lambda n: (n.name is not None and text in n.name) or
                          (getattr(n, "description", None) and text in n.description),
                recursive=True)
            if hits:
                return hits[0]
        except Exception:
            pass
        time.sleep(0.25)
    return None


def said(node):
    return " ".join(x for x in (node.name, getattr(node, "description", None)) if x)


def type_endpoint(app, text):
    """Into the Endpoint URL row, as a person does: click its title, which
    puts the cursor in the field, replace what is there, press Enter."""
    title = find_named(app, "Endpoint URL", timeout=10)
    if title is None:
        return False
    vivagui.click(title)
    time.sleep(0.3)
    rawinput.keyCombo("<Control>a")
    rawinput.typeText(text)
    rawinput.pressKey("Return")
    return True


def saved_base_url(home, key="base-url"):
    with open(vivagui.keyfile(home)) as f:
        lines = [l for l in f.read().splitlines() if l.startswith(key + "=")]
    return lines[-1][len(key + "="):].strip("'") if lines else None


def type_row(app, title, text):
    """Into the entry row titled @title, as type_endpoint does, once the
    page is scrolled (the wheel, over the page) until the row is in sight."""
    row = find_named(app, title, timeout=10)
    if row is None:
        return False
    window = preferences(app)
    (wx, wy), (ww, wh) = window.position, window.size
    for _ in range(20):
        if 0 <= row.position[1] and row.position[1] + row.size[1] < wy + wh - 10:
            break
        rawinput.click(wx + ww // 2, wy + wh // 2, button=5)
    vivagui.click(row)
    time.sleep(0.3)
    rawinput.keyCombo("<Control>a")
    rawinput.typeText(text)
    rawinput.pressKey("Return")
    return True


server, url = vivagui.start_server("--script", "check")
typed_local = url[len("http://"):]
set_settings(home, base_url=f"'{url}'", examiner_mode="'model'")

app = vivagui.App(home)
if not tap.ok(app.node is not None, "viva appears on the accessibility bus"):
    app.kill()
    vivagui.stop_server(server)
    tap.done()

vivagui.click(app.find("text", "Code editor"))
rawinput.keyCombo("<Control>comma")
tap.ok(find_named(app, "Connected") is not None, "Preferences connect to the configured server on opening")

tap.ok(type_endpoint(app, "api.example.com/v1"), "the Endpoint URL row is there to type in")
wrong = row_saying(app, "needs https:// or http://")
app.screenshot("address-1-no-scheme")
tap.ok(wrong is not None, "an address elsewhere without its scheme is said to need https:// or http://")
tap.ok(wrong is not None and "https://api.example.com/v1" in said(wrong), "the words show the address as it should be")
tap.ok(wrong is not None and "Preferences" not in said(wrong), "the words do not point to Preferences")
tap.ok(row_saying(app, "Not a server address", 5) is not None, "the connection row is titled Not a server address")
tap.ok(saved_base_url(home) == url, "what is no address is not saved")

type_endpoint(app, typed_local)
tap.ok(row_saying(app, "answers, with", 20) is not None,
       "an address on this computer typed without http:// connects")
# GTK 4.8 does not give the row's text to AT-SPI: that the field shows
# http:// too is in the screenshot (looked at), what is saved is checked.
tap.ok(vivagui.wait_for(lambda: saved_base_url(home) == url, 10), "the whole address is what is saved")
app.screenshot("address-2-completed")

# Nothing listens there: the words point to the field above, not to
# Preferences, where the user already is.
down = vivagui.unused_url()
type_endpoint(app, down[len("http://"):])
refused = row_saying(app, "correct the address above")
app.screenshot("address-3-not-running")
tap.ok(refused is not None and down in said(refused),
       "a server that is not running is said so, with the address, pointing to the field above")
tap.ok(refused is not None and "Preferences" not in said(refused), "those words do not point to Preferences either")

# A second model as the scorer of conceptual answers (empty: the
# examiner's): its name and address are saved as typed, the address
# completed as the examiner's is, and no address is not saved.
tap.ok(type_row(app, "Scorer Model (empty: the examiner’s)", "scorer-7b"), "the Scorer Model row is there to type in")
tap.ok(vivagui.wait_for(lambda: saved_base_url(home, "scorer-model") == "scorer-7b", 10),
       "the scorer's model is saved")
type_row(app, "Scorer Endpoint URL (empty: the examiner’s)", "api.example.com/v1")
# A later change saved shows the address before it was handled.
type_row(app, "Scorer Model (empty: the examiner’s)", "scorer-8b")
tap.ok(vivagui.wait_for(lambda: saved_base_url(home, "scorer-model") == "scorer-8b", 10) and
       saved_base_url(home, "scorer-base-url") in (None, ""), "a scorer address without its scheme is not saved")
type_row(app, "Scorer Endpoint URL (empty: the examiner’s)", typed_local)
tap.ok(vivagui.wait_for(lambda: saved_base_url(home, "scorer-base-url") == url, 10),
       "a scorer address on this computer is saved with its http://")
app.screenshot("address-4-scorer")

vivagui.check_stderr(tap, app)
app.quit()
vivagui.stop_server(server)
vivagui.cleanup(home)
tap.done()
