#!/usr/bin/python3
"""The app in each language of po/LINGUAS, as a student there sees it:
started under Xvfb with that language, the main window and its main menu
show no string of the template in English (checked through the names and
descriptions AT-SPI exposes), and a screenshot of each is kept."""

import gettext
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "gui"))
import vivagui  # noqa: E402

sys.path.insert(0, here)
import i18nutil  # noqa: E402

root = os.environ.get("VIVA_SOURCE_ROOT") or os.path.join(here, "..", "..")
build = os.environ.get("VIVA_BUILD_ROOT", "")
localedir = os.path.join(build, "po")

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

from dogtail import rawinput, tree  # noqa: E402

template, error = i18nutil.build_template(root)
if not tap.ok(error is None and template, "xgettext builds the template from POTFILES.in"):
    print(error, file=sys.stderr)

with open(os.path.join(root, "po", "LINGUAS"), encoding="utf-8") as f:
    linguas = [w for line in f for w in line.split("#")[0].split()]
installed = subprocess.run(["locale", "-a"], stdout=subprocess.PIPE, text=True).stdout.split()


def locale_for(lang):
    """LANG for @lang: its own UTF-8 locale where installed, else C.UTF-8,
    where glibc still honours LANGUAGE."""
    for name in (lang + ".UTF-8", lang + ".utf8"):
        if name in installed or name.replace("UTF-8", "utf8") in installed:
            return name
    for region in ("VN", "CN"):
        name = f"{lang}_{region}.utf8"
        if name in installed:
            return name
    return "C.UTF-8"


def strip(s):
    return s.replace("_", "").replace("…", "").strip()


def visible_strings(node, out, depth=0):
    if depth > 60:
        return
    try:
        for text in (node.name, node.description):
            if text:
                out.add(text)
        children = node.children
    except Exception:
        return
    for child in children:
        visible_strings(child, out, depth + 1)


def launch(lang):
    env = {"LANGUAGE": lang, "LANG": locale_for(lang), "LC_ALL": locale_for(lang),
           "VIVA_LOCALEDIR": localedir}
    app = vivagui.App.__new__(vivagui.App)
    app.home = home
    app.log_path = os.path.join(home, f"app-{lang}.log")
    app.log = open(app.log_path, "a")
    app.proc = subprocess.Popen([vivagui.APP], env=vivagui.env_for(home, env),
                                stdout=app.log, stderr=app.log)
    app.node = None
    deadline = time.time() + 30
    while time.time() < deadline and app.proc.poll() is None:
        try:
            for a in tree.root.applications():
                if a.name == "viva" and a.get_process_id() == app.proc.pid and a.children:
                    app.node = a
        except Exception:
            pass
        if app.node is not None:
            break
        time.sleep(0.25)
    time.sleep(2)  # the problem, the editor and the panel fill in
    return app


for lang in linguas:
    mo = os.path.join(localedir, lang, "LC_MESSAGES", "viva.mo")
    if not tap.ok(os.path.isfile(mo), f"{lang}: the translation is compiled in the build tree"):
        continue
    with open(mo, "rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog
    translated = {}
    for key, value in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        translated[msgid] = value
    # Every string of the template that should not read as it does in
    # English: untranslated ones, and translated ones whose translation
    # differs (not "Viva" or "URL").
    english = {}
    for ctx, msgid in template:
        key = f"{ctx}\x04{msgid}" if ctx else msgid
        value = translated.get(key)
        if len(strip(msgid)) > 1 and (value is None or strip(value) != strip(msgid)):
            english[strip(msgid)] = value or "(no translation)"

    app = launch(lang)
    if not tap.ok(app.node is not None, f"{lang}: viva starts and appears on the accessibility bus"):
        app.kill()
        print(app.stderr(), file=sys.stderr)
        continue

    seen = set()
    visible_strings(app.node, seen)
    # The main menu's items exist only while it is open.
    app.screenshot(f"i18n-{lang}")
    main_menu = translated.get("Main Menu", "Main Menu")
    menu = app.find("toggle button", main_menu, timeout=5) or app.find("push button", main_menu, timeout=1)
    if menu is not None:
        vivagui.click(menu)
        time.sleep(1)
        visible_strings(app.node, seen)
        app.screenshot(f"i18n-{lang}-menu")
        rawinput.pressKey("Escape")

    submit = translated.get("Submit for Defense")
    tap.ok(submit in seen, f"{lang}: Submit for Defense reads “{submit}”")
    tap.ok(menu is not None, f"{lang}: the main menu is found by its translated name")
    leftover = sorted(s for s in seen if strip(s) in english)
    if not tap.ok(not leftover, f"{lang}: no string of the window or its menu is left in English "
                                f"({len(seen)} names and descriptions)"):
        for s in leftover:
            print(f"#   {s!r} should read {english[strip(s)]!r}")
    tap.ok(app.quit() == 0, f"{lang}: Ctrl+Q closes Viva cleanly")
    log = app.stderr()
    if not tap.ok("CRITICAL" not in log and "WARNING" not in log, f"{lang}: no warnings on stderr"):
        print(log, file=sys.stderr)

vivagui.cleanup(home)
tap.done()
