#!/usr/bin/env python3
# The arrows between Viva's parts, checked on what the build really does:
# each core part is compiled with only its own and its allowed parts'
# include directories, no source includes a header of a part it may not
# use (nor another part's -private.h), the front ends hold no HTTP code,
# and a forbidden include really fails to compile.
#
# TAP on stdout. Arguments: the source root and the build root.

import concurrent.futures
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

# 3. libsoup only in the model client, the exam server's client and the
#    exam server: the app and viva-cli reach a model or an exam server
#    through the core.
SOUP_ALLOWED = [os.path.join("src", "core", "model"), os.path.join("src", "core", "remote"),
                os.path.join("src", "server")]
soup_elsewhere = []
for dirpath, _, files in os.walk(os.path.join(SOURCE_ROOT, "src")):
    rel_dir = os.path.relpath(dirpath, SOURCE_ROOT)
    if any(rel_dir == d or rel_dir.startswith(d + os.sep) for d in SOUP_ALLOWED):
        continue
    for name in files:
        if name.endswith((".c", ".h")):
            with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                if re.search(r"\bsoup_|<libsoup/", f.read()):
                    soup_elsewhere.append(os.path.join(rel_dir, name))
check("libsoup only in src/core/model, src/core/remote and src/server", not soup_elsewhere, ", ".join(soup_elsewhere))

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


def a_header(part):
    folder = CORE if part == "base" else os.path.join(CORE, part)
    names = sorted(n for n in os.listdir(folder) if n.endswith(".h") and not n.endswith("-private.h"))
    return names[0]


# From the table: a header of a part each part uses (of its own, for a
# part that uses none but util) compiles in it; one of the nearest part
# above it that it may not use fails, and so does the base in util and in
# the model client (which is handed its settings).
probes = []
for i, part in enumerate(ORDER):
    used = sorted(DIRECT[part] - {"util"})
    probes.append((part, a_header(used[0] if used else part), True))
    above = [p for p in ORDER[i + 1:] if p not in ALLOWED[part]]
    if above:
        probes.append((part, a_header(above[0]), False))
    if "base" not in ALLOWED[part]:
        probes.append((part, "viva-settings.h", False))
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    outcomes = list(pool.map(lambda probe: compile_with(probe[0], probe[1]), probes))
for (part, header, expect), (ok, err) in zip(probes, outcomes):
    verb = "compiles" if expect else "fails to compile"
    check("%s including %s %s" % (part, header, verb), ok == expect,
          err.strip().splitlines()[-1] if err.strip() else "")

# 5. The diagram in src/DESIGN.md draws the table: its first code block has
#    a line per core part, "part → used, used" (no arrow for a part that
#    uses only util), then free words after two spaces; a line may also name
#    a front or the worker (a folder of src/). Every part of the table is
#    drawn, every arrow is the table's, and nothing else is drawn.
DIAGRAM_LINE = re.compile(r"^\s*(\w+)(?:\s*→\s*(\w+(?:,\s*\w+)*))?(?:\s{2,}.*)?$")
with open(os.path.join(SOURCE_ROOT, "src", "DESIGN.md"), encoding="utf-8") as f:
    design = f.read()
block = design.split("```", 2)[1] if design.count("```") >= 2 else ""
drawn = {}
not_drawing = []
src_folders = {n for n in os.listdir(os.path.join(SOURCE_ROOT, "src"))
               if os.path.isdir(os.path.join(SOURCE_ROOT, "src", n))}
for line in block.splitlines():
    if not line.strip():
        continue
    m = DIAGRAM_LINE.match(line)
    if m is None:
        not_drawing.append(line.strip())
        continue
    name, used = m.group(1), m.group(2)
    if name in DIRECT:
        drawn[name] = {u.strip() for u in used.split(",")} if used else set()
    elif name not in src_folders:
        not_drawing.append(line.strip())
diagram_diffs = []
for name in ORDER:
    table = DIRECT[name] - {"util"}
    if name not in drawn:
        diagram_diffs.append("%s is not drawn" % name)
    elif drawn[name] != table:
        diagram_diffs.append("%s → %s drawn, the table has %s" % (
            name, ", ".join(sorted(drawn[name])) or "nothing", ", ".join(sorted(table)) or "nothing"))
diagram_diffs += ["not a part or a folder of src/: %s" % l for l in not_drawing]
check("the diagram in src/DESIGN.md draws the part table's arrows", not diagram_diffs,
      "; ".join(diagram_diffs))

print("1..%d" % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok and detail:
        print("# " + detail)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
