#!/usr/bin/env python3
# The arrows between Viva's parts, checked on what the build really does:
# each core part is compiled with only its own and its allowed parts'
# include directories, no source includes a header of a part it may not
# use (nor another part's -private.h), the front ends hold no HTTP code,
# and a forbidden include really fails to compile.
#
# TAP on stdout. Arguments: the source root and the build root.

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

SOURCE_ROOT, BUILD_ROOT = sys.argv[1], sys.argv[2]
CORE = os.path.join(SOURCE_ROOT, "src", "core")
# The part table of src/core/meson.build is the one copy of the arrows:
# [name, [the parts it may use], [libraries]], in order, every part but
# util using util besides. A part may use what the parts it uses may use.
ROW = re.compile(r"^\s*\[\s*'(\w+)'\s*,\s*\[([^\]]*)\]", re.M)


def read_table():
    with open(os.path.join(CORE, "meson.build"), encoding="utf-8") as f:
        text = f.read()
    block = text[text.index("core_parts = ["):]
    block = block[:block.index("\n]\n")]
    rows = [(name, re.findall(r"'(\w+)'", used)) for name, used in ROW.findall(block)]
    direct = {}
    for name, used in rows:
        direct[name] = set(used) | ({"util"} if name != "util" else set())
    return [name for name, _ in rows], direct


ORDER, DIRECT = read_table()
PARTS = [p for p in ORDER if p != "base"]  # "base" is src/core itself
ALLOWED = {}
for name in ORDER:
    allowed = {name}
    for used in DIRECT[name]:
        allowed |= ALLOWED[used]  # rows come after the parts they use
    ALLOWED[name] = allowed

results = []


def check(name, ok, detail=""):
    results.append((name, ok, detail))


def part_of(path):
    path = os.path.realpath(path)
    for root in (os.path.realpath(CORE), os.path.realpath(os.path.join(BUILD_ROOT, "src", "core"))):
        if path == root or path.startswith(root + os.sep):
            rest = os.path.relpath(path, root).split(os.sep)
            if rest[0] in PARTS:
                return rest[0]
            return "base"
    if path.startswith(os.path.realpath(os.path.join(SOURCE_ROOT, "src")) + os.sep):
        return "front"
    return None


def include_dirs(command):
    args = shlex.split(command)
    dirs = []
    for i, arg in enumerate(args):
        if arg == "-I" and i + 1 < len(args):
            dirs.append(args[i + 1])
        elif arg.startswith("-I"):
            dirs.append(arg[2:])
    return args, dirs


with open(os.path.join(BUILD_ROOT, "compile_commands.json"), encoding="utf-8") as f:
    commands = json.load(f)

core_commands = {}
for entry in commands:
    source = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    part = part_of(source)
    # The parts' own libraries, not a fuzzer that compiles a part's sources
    # with instrumentation and include paths of its own.
    if not entry.get("output", "src/core/").startswith("src/core/"):
        continue
    if part in ALLOWED and source.endswith(".c") and "-resources" not in source:
        core_commands[source] = (part, entry)

check("every core part is compiled", {p for p, _ in core_commands.values()} >= set(ALLOWED),
      "parts seen: %s" % sorted({p for p, _ in core_commands.values()}))

# 1. Include paths.
bad_paths = []
for source, (part, entry) in sorted(core_commands.items()):
    _, dirs = include_dirs(entry["command"])
    for d in dirs:
        d = os.path.normpath(os.path.join(entry["directory"], d))
        if d.endswith(".p"):
            continue  # the target's own private folder of generated files
        other = part_of(d)
        if other in ALLOWED and other not in ALLOWED[part]:
            bad_paths.append("%s (%s) sees %s" % (os.path.relpath(source, SOURCE_ROOT), part, other))
check("each part's include path holds only the parts it may use", not bad_paths, "; ".join(bad_paths[:5]))

# 2. Includes, resolved the way the compiler would, in .c and .h files.
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
bad_includes = []
for dirpath, _, files in os.walk(CORE):
    for name in files:
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.join(dirpath, name)
        part = part_of(path)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for header in INCLUDE.findall(text):
            if header in ("config.h",) or header.endswith("-resources.h"):
                continue
            found = None
            candidates = [os.path.join(dirpath, header), os.path.join(SOURCE_ROOT, header)]
            for p in ["."] + PARTS + ["exam/tools"]:
                candidates.append(os.path.join(CORE, p, header))
            for c in candidates:
                if os.path.exists(c):
                    found = c
                    break
            if found is None:
                continue
            other = part_of(found)
            rel = os.path.relpath(path, SOURCE_ROOT)
            if other not in ALLOWED[part]:
                bad_includes.append("%s (%s) includes %s (%s)" % (rel, part, header, other))
            elif other != part and header.endswith("-private.h"):
                bad_includes.append("%s (%s) includes another part's %s" % (rel, part, header))
check("no core file includes a header of a part it may not use", not bad_includes, "; ".join(bad_includes[:5]))

# 3. The fronts talk to model servers only through the core; the exam server
#    (src/server) is the one front that speaks HTTP itself.
soup_in_fronts = []
for front in ("ui", "cli"):
    for dirpath, _, files in os.walk(os.path.join(SOURCE_ROOT, "src", front)):
        for name in files:
            if name.endswith((".c", ".h")):
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                    if re.search(r"\bsoup_|<libsoup/", f.read()):
                        soup_in_fronts.append(os.path.join(front, name))
check("no libsoup in src/ui or src/cli", not soup_in_fronts, ", ".join(soup_in_fronts))

# 3b. The fronts (ui, cli, server) may use every core part, never another
#     front: no front includes a header of another, nor is compiled with
#     another's folder on its include path.
FRONTS = ("ui", "cli", "server")
front_dirs = {f: os.path.realpath(os.path.join(SOURCE_ROOT, "src", f)) for f in FRONTS}
front_build_dirs = {f: os.path.realpath(os.path.join(BUILD_ROOT, "src", f)) for f in FRONTS}


def front_of(path):
    path = os.path.realpath(path)
    for f in FRONTS:
        for root in (front_dirs[f], front_build_dirs[f]):
            if path == root or path.startswith(root + os.sep):
                return f
    return None


check("the exam server is built as a front", any(front_of(os.path.join(e["directory"], e["file"])) == "server"
                                                 for e in commands))
cross_fronts = []
for front in FRONTS:
    for dirpath, _, files in os.walk(front_dirs[front]):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for header in INCLUDE.findall(text):
                for other in FRONTS:
                    if other != front and os.path.exists(os.path.join(front_dirs[other], header)) and \
                       not os.path.exists(os.path.join(dirpath, header)):
                        cross_fronts.append("%s includes %s's %s" % (os.path.relpath(path, SOURCE_ROOT), other, header))
for entry in commands:
    source = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    front = front_of(source)
    if front is None:
        continue
    _, dirs = include_dirs(entry["command"])
    for d in dirs:
        other = front_of(os.path.normpath(os.path.join(entry["directory"], d)))
        if other is not None and other != front and not d.endswith(".p"):
            cross_fronts.append("%s is compiled seeing src/%s" % (os.path.relpath(source, SOURCE_ROOT), other))
check("no front uses another front", not cross_fronts, "; ".join(sorted(set(cross_fronts))[:5]))

# 4. The compiler itself refuses a forbidden include, and accepts an allowed one.
def compile_with(part, header):
    source, (_, entry) = next((s, v) for s, v in sorted(core_commands.items()) if v[0] == part)
    args, _ = include_dirs(entry["command"])
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.c")
        with open(probe, "w") as f:
            f.write('#include "%s"\nint viva_probe (void);\nint viva_probe (void) { return 0; }\n' % header)
        out = []
        skip = False
        for i, arg in enumerate(args):
            if skip:
                skip = False
                continue
            if arg in ("-o", "-MF", "-MQ", "-MT"):
                skip = True
                continue
            if arg == entry["file"] or os.path.normpath(os.path.join(entry["directory"], arg)) == source:
                continue
            if arg in ("-MD", "-MMD", "-c"):
                continue
            out.append(arg)
        out += ["-fsyntax-only", probe]
        proc = subprocess.run(out, cwd=entry["directory"], capture_output=True, text=True)
        return proc.returncode == 0, proc.stderr


for part, header, expect in [
    ("runner", "viva-examiner.h", False),   # runner → exam
    ("model", "viva-pack.h", False),        # model → packs
    ("model", "viva-settings.h", False),    # the client is handed its settings
    ("packs", "viva-exam-session.h", False),  # packs → exam
    ("exam", "viva-exam-report.h", False),  # exam → report
    ("report", "viva-exam-sitting.h", False),  # report → sitting
    ("sitting", "viva-exam-report.h", True),   # a sitting hands its reports in
    ("runner", "viva-run-result.h", True),  # the control: its own header compiles
    ("exam", "viva-pack.h", True),
]:
    ok, err = compile_with(part, header)
    verb = "compiles" if expect else "fails to compile"
    check("%s including %s %s" % (part, header, verb), ok == expect,
          err.strip().splitlines()[-1] if err.strip() else "")

print("1..%d" % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok and detail:
        print("# " + detail)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
