#!/usr/bin/python3
"""Translations: every string a person can see reaches the translators,
every language in LINGUAS compiles with msgfmt --check, translates every
string of the template, and keeps its placeholders, markup and mnemonics."""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import i18nutil  # noqa: E402

root = os.path.abspath(os.environ.get("VIVA_SOURCE_ROOT") or
                       os.path.join(os.path.dirname(__file__), "..", ".."))
po_dir = os.path.join(root, "po")

n = 0
failed = 0


def check(cond, what, detail=None):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print(("ok" if cond else "not ok"), n, "-", what, flush=True)
    if not cond and detail:
        for line in str(detail).splitlines()[:40]:
            print("#", line)
    return cond


with open(os.path.join(po_dir, "LINGUAS"), encoding="utf-8") as f:
    linguas = [w for line in f for w in line.split("#")[0].split()]
check(linguas, "LINGUAS names the translations", linguas)
check(sorted(linguas) == sorted(p[:-3] for p in os.listdir(po_dir) if p.endswith(".po")),
      "LINGUAS and the .po files agree")

# 1. A fresh template from POTFILES.in.
template, error = i18nutil.build_template(root)
check(error is None and template, "xgettext builds the template from POTFILES.in", error)
msgids = {key[1] for key in template}

# 2. Every string in _(), N_(), C_() and translatable="yes" is in it.
literal = r'"(?:[^"\\\n]|\\.)*"'
call = re.compile(r'\b(?:N?C_\s*\(\s*' + literal + r'\s*,|N?_\s*\()\s*((?:' + literal + r'\s*)+)\)')
ui_string = re.compile(r'<(?:property|item|attribute)\b[^>]*translatable="yes"[^>]*>(.*?)</', re.S)
missing = []
for base in ("src",):
    for dirpath, _, files in os.walk(os.path.join(root, base)):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if name.endswith(".c"):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for m in call.finditer(text):
                    s = "".join(i18nutil.c_unescape(x[1:-1]) for x in re.findall(literal, m.group(1)))
                    if s and s not in msgids:
                        missing.append(f"{rel}: {s!r}")
            elif name.endswith(".ui"):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for m in ui_string.finditer(text):
                    s = (m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
                         .replace("&apos;", "'").replace("&amp;", "&"))
                    if s and s not in msgids:
                        missing.append(f"{rel}: {s!r}")
check(not missing, "every _() and translatable string in src/ is in the template", "\n".join(missing))

MNEMONIC = re.compile(r"^[^_$=/]*_[^\W_][^_]*$")
TAG = re.compile(r"</?[a-z]+[^>]*>")
for lang in linguas:
    path = os.path.join(po_dir, lang + ".po")
    proc = subprocess.run(["msgfmt", "--check", "--verbose", "-o", os.devnull, path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(proc.returncode == 0, f"{lang}: msgfmt --check", proc.stderr)

    entries, fuzzy = i18nutil.read_po(path)
    untranslated = [k[1] for k in template
                    if k not in entries or k in fuzzy or not any(entries[k]) or not all(entries[k])]
    check(not untranslated, f"{lang}: every string of the template is translated ({len(template)})",
          "\n".join(repr(u) for u in untranslated))

    bad_tags, bad_mnemonics, bad_newlines = [], [], []
    for (ctx, msgid), msgstrs in entries.items():
        for msgstr in msgstrs:
            if not msgstr:
                continue
            if sorted(TAG.findall(msgid)) != sorted(TAG.findall(msgstr)):
                bad_tags.append(f"{msgid!r} → {msgstr!r}")
            if MNEMONIC.match(msgid) and len(re.findall(r"_[^\W_]", msgstr)) != 1:
                bad_mnemonics.append(f"{msgid!r} → {msgstr!r}")
            if (msgid.startswith("\n") != msgstr.startswith("\n") or
                    msgid.endswith("\n") != msgstr.endswith("\n")):
                bad_newlines.append(f"{msgid!r} → {msgstr!r}")
    check(not bad_tags, f"{lang}: markup is kept", "\n".join(bad_tags))
    check(not bad_mnemonics, f"{lang}: each mnemonic label keeps one mnemonic", "\n".join(bad_mnemonics))
    check(not bad_newlines, f"{lang}: leading and trailing newlines are kept", "\n".join(bad_newlines))

print(f"1..{n}")
sys.exit(1 if failed else 0)
