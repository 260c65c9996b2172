#!/usr/bin/python3
"""Preferences' examiner report card as an admin uses it: open Preferences
against a scripted examiner, run the short card, watch its progress, read
the figures; close and reopen Preferences and find the card kept for that
endpoint and model; run it again and Stop it half-way. Screenshots go to
build/screenshots/eval-card-*.png."""

import json
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

vivagui.require_server(tap, vivagui.EVAL_SERVER, "viva-eval-server")


def preferences(app):
    """The newest Preferences window, so searches skip the big main window."""
    try:
        hits = [w for w in app.node.children if w.name == "Preferences"]
        return hits[-1] if hits else app.node
    except Exception:
        return app.node


def subtitle_with(app, text, timeout):
    """A row whose description (its subtitle) holds text."""
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


def find_last(app, role, name, timeout=10.0):
    """The last node with this role and name: the newest window's, when an
    earlier Preferences window lingers in the accessibility tree."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            hits = preferences(app).findChildren(lambda n: n.roleName == role and n.name == name, recursive=True)
            if hits:
                return hits[-1]
        except Exception:
            pass
        time.sleep(0.2)
    return None


def show_card_page(app):
    """The Report Card page of Preferences, through its switcher button."""
    tab = find_last(app, "toggle button", "Report Card") or find_named(app, "Report Card", timeout=10)
    if tab is not None:
        vivagui.click(tab)
    return tab is not None


def open_preferences(app):
    vivagui.click(app.find("text", "Code editor"))
    rawinput.keyCombo("<Control>comma")
    return find_named(app, "Connected") is not None


def diagnose(app):
    """On a failure, the app's stderr for whoever reads the log."""
    if tap.failed:
        for line in app.stderr().splitlines()[-40:]:
            print("#", line, flush=True)


# A second a reply: a short card takes about a minute, long enough to watch.
server, url = vivagui.start_server("--kind", "strict", "--delay", "1000", server=vivagui.EVAL_SERVER)
set_settings(home, base_url=f"'{url}'", examiner_mode="'model'")

app = vivagui.App(home)
tap.ok(app.node is not None, "viva starts")
tap.ok(open_preferences(app), "Preferences test the connection on opening")
tap.ok(show_card_page(app), "Preferences have a Report Card page")
tap.ok(subtitle_with(app, "Not run for this model yet", 10) is not None,
       "the report card says it has not run for the server's first model")

run = app.find("push button", "Run Card")
tap.ok(run is not None, "the report card offers Run Card")
if run is not None:
    vivagui.click(run)
tap.ok(subtitle_with(app, " of 4: kmeans-", 30) is not None, "the run shows which case of four runs")
tap.ok(find_last(app, "push button", "Stop", timeout=5) is not None, "Stop is offered while it runs")
app.screenshot("eval-card-1-running")

done = subtitle_with(app, "4 of 4 defenses ran", 240)
tap.ok(done is not None, "the short card finishes: four of four defenses ran")
tap.ok(subtitle_with(app, "examiner-7b", 5) is not None, "the card names the model it measured")
# The strict scripted examiner agrees on all four short cases and obeys nothing.
tap.ok(find_named(app, "100 %", timeout=5) is not None, "agreement with a fair examiner is 100 %")
tap.ok(find_named(app, "0 %", timeout=5) is not None, "false passes and injections obeyed are 0 %")
tap.ok(find_named(app, "False passes on wrong or cheating code", timeout=5) is not None,
       "the card shows false passes on wrong or cheating code")
tap.ok(find_named(app, "Injected instructions obeyed", timeout=5) is not None,
       "the card shows injected instructions obeyed")
app.screenshot("eval-card-2-done")

store = os.path.join(home, "data", "viva", "eval-cards.json")
kept = {}
deadline = time.time() + 10
while time.time() < deadline and not kept:
    try:
        with open(store) as f:
            kept = json.load(f).get("cards", {})
    except Exception:
        time.sleep(0.2)
key = f"{url} examiner-7b"
tap.ok(key in kept and kept[key].get("cases_run") == 4,
       "the card is kept in $XDG_DATA_HOME/viva/eval-cards.json for the endpoint and model")

rawinput.pressKey("Escape")
time.sleep(0.5)
tap.ok(open_preferences(app), "Preferences open again")
show_card_page(app)
time.sleep(0.5)
tap.ok(subtitle_with(app, "4 of 4 defenses ran", 10) is not None,
       "reopened, Preferences show the card kept for this endpoint and model")
tap.ok(find_named(app, "100 %", timeout=5) is not None, "with its figures")
app.screenshot("eval-card-3-kept")

run = find_last(app, "push button", "Run Card")
if run is not None:
    vivagui.click(run)
tap.ok(subtitle_with(app, " of 4: kmeans-", 30) is not None, "a second run starts")
stop = find_last(app, "push button", "Stop", timeout=5)
if stop is not None:
    vivagui.click(stop)
tap.ok(subtitle_with(app, "Stopped before every case ran", 60) is not None,
       "Stop ends the run and the card says it stopped")
tap.ok(app.find("push button", "Run Card", timeout=10) is not None, "Run Card is offered again")
with open(store) as f:
    tap.ok(json.load(f)["cards"][key]["cases_run"] == 4, "a stopped run does not replace the kept card")
app.screenshot("eval-card-4-stopped")

rawinput.pressKey("Escape")
diagnose(app)
app.quit()
vivagui.stop_server(server)
vivagui.check_stderr(tap, app, "the report card")
vivagui.cleanup(home)
tap.done()
