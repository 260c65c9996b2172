#!/usr/bin/env python3
# A split class is a star: its satellites call the main file, never each
# other. This counts, for every class split over files sharing a prefix
# (viva-window.c + viva-window-*.c), the functions each file defines and
# which of them the class's other files reach, and fails when a class has
# more sideways arrows (satellite -> satellite) than the ratchet below.
#
# A class is a main file X.c beside its X-private.h; its satellites are
# the other .c files of that folder named X-*.c (or, for a plural name,
# with the "s" dropped: viva-server-defense-events.c), each given to the
# class with the longest such prefix (a file with a header of its own,
# viva-pack-checker.c, is a unit of its own, not a satellite). An arrow is one file reaching one
# function another file of the class defines: any mention counts, not
# only a call, so a callback handed to g_signal_connect() or a template
# is an arrow too, and so is a macro whose body mentions the function.
#
# TAP on stdout; --json prints the figures as one JSON object instead.
# Arguments: the source root (default: two folders up from this script).

import json
import os
import re
import sys
import tempfile

# Sideways arrows each class may still have. Lower an entry when you
# remove arrows; a class that is not listed must be a star (0).
RATCHET = {
    # ui (engineer "star")
    "VivaWindow": 0,
    "VivaClassResultsWindow": 0,
    "VivaExaminerPanel": 10,
    "VivaPackEditor": 17,
    # core and server
    "VivaExamFile": 0,
    "VivaExaminer": 0,
    "VivaOpenAIModel": 0,
    "VivaPack": 0,
    "VivaExamReport": 0,
    "VivaRunner": 0,
    "VivaServerDefenses": 0,
    "VivaServerStore": 0,
    # worker
    "VivaWorker": 10,
}

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
AS_JSON = "--json" in sys.argv[1:]
SOURCE_ROOT = ARGS[0] if ARGS else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SRC = os.path.join(SOURCE_ROOT, "src")

IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case"}


def strip(text):
    """The text with comments, string and character literals blanked out
    (newlines kept, so columns and lines still mean what they did)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def closing(text, i):
    """The index just after the parenthesis that closes the one at i."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def definitions(code):
    """{name: is_static} of the functions a stripped C file defines: a
    name at the start of a line or after its return type on a line that
    starts at column 0, whose parameter list is followed by a body."""
    found = {}
    offset = 0
    lines = code.split("\n")
    starts = []
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    for k, line in enumerate(lines):
        if not line or line[0] in " \t#{}":
            continue
        m = re.match(r"^([^(;={}]*?)\b([A-Za-z_]\w*)\s*\(", line)
        if m is None or m.group(2) in KEYWORDS:
            continue
        paren = starts[k] + m.end() - 1
        after = code[closing(code, paren):].lstrip()
        # G_GNUC_* attributes may sit between the parameters and the body.
        after = re.sub(r"^(?:G_GNUC_\w+(?:\s*\([^)]*\))?\s*)*", "", after)
        if not after.startswith("{"):
            continue
        # The return type is on this line or on the line before.
        head = m.group(1) + " " + (lines[k - 1] if k > 0 and m.group(1).strip() == "" else "")
        found[m.group(2)] = bool(re.search(r"\bstatic\b", head))
    return found


def macros(code):
    """{name: identifiers of its body} of every #define in stripped code."""
    found = {}
    joined = code.replace("\\\n", "  ")
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(.*)$", joined, re.M):
        found[m.group(1)] = set(IDENT.findall(m.group(2)))
    return found


def mentions(code, macro_bodies):
    """Identifiers a stripped file mentions (members after -> or . are
    fields, not functions), with the bodies of the macros it uses."""
    names = set()
    for m in re.finditer(r"(->|\.)?\s*\b([A-Za-z_]\w*)", code):
        if m.group(1) is None:
            names.add(m.group(2))
    todo = [n for n in names if n in macro_bodies]
    while todo:
        for n in macro_bodies[todo.pop()]:
            if n not in names:
                names.add(n)
                if n in macro_bodies:
                    todo.append(n)
    return names


def declared(header_code):
    """Function names a stripped header declares at its top level."""
    body = re.sub(r"^[ \t]*#.*(?:\\\n.*)*$", "", header_code, flags=re.M)
    names = []
    depth = 0
    statement = []
    for c in body:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == ";" and depth == 0:
            text = "".join(statement)
            statement = []
            if re.search(r"\b(typedef|struct\s+\w+\s*\{)", text) or "{" in text:
                continue
            m = re.search(r"\b([A-Za-z_]\w*)\s*\(", text)
            if m and not m.group(1).isupper() and m.group(1) not in KEYWORDS:
                names.append(m.group(1))
            continue
        if depth == 0:
            statement.append(c)
        else:
            statement.append(" ")
        if c == "}" and depth == 0:
            statement = []
    return names


def type_name(folder, stem):
    """The type its header declares, else VivaClassResultsWindow from
    viva-class-results-window."""
    try:
        with open(os.path.join(folder, stem + ".h"), encoding="utf-8") as f:
            m = re.search(r"G_DECLARE_\w+_TYPE\s*\(\s*(\w+)", f.read())
            if m:
                return m.group(1)
    except OSError:
        pass
    return "".join(part[:1].upper() + part[1:] for part in stem.split("-"))


def find_classes():
    classes = []
    for folder, _, files in sorted(os.walk(SRC)):
        names = set(files)
        stems = sorted(f[:-len("-private.h")] for f in files
                       if f.endswith("-private.h") and f[:-len("-private.h")] + ".c" in names)
        owner = {}
        for f in sorted(names):
            # A file with a header of its own is a unit of its own.
            if not f.endswith(".c") or f[:-2] + ".h" in names:
                continue
            best = None
            for stem in stems:
                prefixes = [stem + "-"] + ([stem[:-1] + "-"] if stem.endswith("s") else [])
                if f != stem + ".c" and any(f.startswith(p) for p in prefixes):
                    if best is None or len(stem) > len(best):
                        best = stem
            if best is not None:
                owner[f] = best
        for stem in stems:
            satellites = sorted(f for f, s in owner.items() if s == stem)
            if satellites:
                classes.append((folder, stem, satellites))
    return classes


def read(path):
    with open(path, encoding="utf-8") as f:
        return strip(f.read())


def measure(folder, stem, satellites):
    main = stem + ".c"
    files = [main] + satellites
    code = {f: read(os.path.join(folder, f)) for f in files}
    header = read(os.path.join(folder, stem + "-private.h"))
    macro_bodies = macros(header)
    for f in files:
        macro_bodies.update(macros(code[f]))
    defined = {f: definitions(code[f]) for f in files}
    arrows = []
    for f in files:
        used = mentions(code[f], macro_bodies)
        for g in files:
            if g == f:
                continue
            for name, is_static in sorted(defined[g].items()):
                # A static function cannot be reached from another file, and
                # a file defining a function of the same name calls its own.
                if is_static or name in defined[f] or name not in used:
                    continue
                arrows.append((f, g, name))
    sideways = [a for a in arrows if a[0] != main and a[1] != main]
    return {
        "class": type_name(folder, stem),
        "folder": os.path.relpath(folder, SOURCE_ROOT),
        "files": files,
        "lines": sum(code[f].count("\n") for f in files),
        "private_functions": len(set(declared(header))),
        "arrows": len(arrows),
        "sideways": len(sideways),
        "sideways_arrows": ["%s -> %s: %s" % a for a in sideways],
    }


# The counting itself, on a small class written to fool it: a call through
# a macro named like the function, one through a macro of another name, a
# callback handed to g_signal_connect(), a static helper of the same name
# in two files, a field and a comment that merely share a name.
PROBE = {
    "viva-probe.h": "G_DECLARE_FINAL_TYPE (VivaProbe, viva_probe, VIVA, PROBE, GObject)\n",
    "viva-probe-private.h": (
        "void _viva_probe_a (VivaProbe *self);\n"
        "void _viva_probe_b (VivaProbe *self);\n"
        "#define _viva_probe_b(s) _viva_probe_b (s)\n"
        "#define PROBE_C(s) _viva_probe_c (s)\n"),
    "viva-probe.c": "void\nviva_probe_main (void)\n{\n}\n",
    "viva-probe-one.c": (
        "static void\nhelper (void)\n{\n}\n\n"
        "void\n_viva_probe_a (VivaProbe *self)\n{\n"
        "  /* _viva_probe_d */\n  self->_viva_probe_e = 1;\n"
        "  _viva_probe_b (self);\n  PROBE_C (self);\n  helper ();\n}\n"),
    "viva-probe-two.c": (
        "static void\nhelper (void)\n{\n}\n\n"
        "void\n_viva_probe_b (VivaProbe *self)\n{\n"
        "  g_signal_connect (self, \"x\", G_CALLBACK (_viva_probe_a), NULL);\n}\n\n"
        "void\n_viva_probe_c (VivaProbe *self)\n{\n  helper ();\n  viva_probe_main ();\n}\n"),
    "viva-probe-three.c": (
        "void\n_viva_probe_d (void)\n{\n}\n\nvoid _viva_probe_e (void) {\n}\n"),
}
PROBE_SIDEWAYS = [
    "viva-probe-one.c -> viva-probe-two.c: _viva_probe_b",
    "viva-probe-one.c -> viva-probe-two.c: _viva_probe_c",
    "viva-probe-two.c -> viva-probe-one.c: _viva_probe_a",
]


def probe():
    with tempfile.TemporaryDirectory() as folder:
        for name, text in PROBE.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
        r = measure(folder, "viva-probe", ["viva-probe-one.c", "viva-probe-three.c", "viva-probe-two.c"])
    return r["sideways_arrows"], r["arrows"], r["private_functions"], r["class"]


def main():
    results = [measure(*c) for c in find_classes()]
    if AS_JSON:
        print(json.dumps({"classes": results}, indent=2))
        return 0
    checks = []
    for r in results:
        allowed = RATCHET.get(r["class"], 0)
        checks.append((r, allowed))
    print("1..%d" % (len(checks) + 1))
    failed = False
    sideways, arrows, private, name = probe()
    ok = sideways == PROBE_SIDEWAYS and arrows == 4 and private == 2 and name == "VivaProbe"
    failed |= not ok
    print("%s 1 - the count sees calls through macros and callbacks, not fields or comments" % (
        "ok" if ok else "not ok"))
    if not ok:
        print("# counted %r, %d arrows, %d private functions, class %s" % (sideways, arrows, private, name))
    stale = sorted(set(RATCHET) - {r["class"] for r in results})
    if stale:
        print("# in the ratchet but no longer split classes: %s" % ", ".join(stale))
    for i, (r, allowed) in enumerate(checks, 2):
        ok = r["sideways"] <= allowed
        failed |= not ok
        print("%s %d - %s: %d sideways arrows (ratchet %d)" % (
            "ok" if ok else "not ok", i, r["class"], r["sideways"], allowed))
        print("# %s: %d files, %d lines, %d private functions, %d arrows between files" % (
            r["folder"], len(r["files"]), r["lines"], r["private_functions"], r["arrows"]))
        for a in r["sideways_arrows"]:
            print("#   sideways %s" % a)
        if r["sideways"] < allowed:
            print("# %s has fewer sideways arrows than its ratchet: lower its entry to %d" % (
                r["class"], r["sideways"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
