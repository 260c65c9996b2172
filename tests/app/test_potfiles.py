#!/usr/bin/python3
"""Every file in po/POTFILES.in exists, and every file with translatable
strings is listed, so no string a person sees escapes translation."""

import os
import re
import sys

root = os.environ.get("VIVA_SOURCE_ROOT") or os.path.join(os.path.dirname(__file__), "..", "..")
root = os.path.abspath(root)

listed = []
with open(os.path.join(root, "po", "POTFILES.in"), encoding="utf-8") as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#"):
            listed.append(line)

marker = re.compile(r'(\b_\(|\bN_\(|\bC_\(|\bNC_\(|\bg_dngettext\b|\bngettext\b|translatable="yes")')
candidates = []
for base in ("src", "data"):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, base)):
        for name in filenames:
            if not name.endswith((".c", ".ui", ".in", ".gschema.xml")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            # Desktop and metainfo files translate whole; a systemd unit
            # or a config template is not for translators.
            whole = name.endswith((".desktop.in", ".desktop.in.in", ".xml.in", ".xml.in.in", ".gschema.xml"))
            if whole or (not name.endswith(".in") and marker.search(text)):
                candidates.append(rel)

n = 0
failed = 0


def check(cond, what):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print(("ok" if cond else "not ok"), n, "-", what)


missing = [p for p in listed if not os.path.exists(os.path.join(root, p))]
check(not missing, "every file in POTFILES.in exists" + (": missing " + ", ".join(missing) if missing else ""))
unlisted = sorted(set(candidates) - set(listed))
check(not unlisted, "every file with translatable strings is in POTFILES.in" +
      (": add " + ", ".join(unlisted) if unlisted else ""))
check(listed == sorted(listed), "POTFILES.in is sorted")
print(f"1..{n}")
sys.exit(1 if failed else 0)
