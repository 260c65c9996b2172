#!/usr/bin/python3
"""The Flatpak manifests, checked as far as this machine can without the
network: flatpak-builder parses them with warnings fatal, every local source
exists, every download is pinned by sha256, and the app id, command and
permissions are the ones lab PCs are promised."""

import json
import os
import re
import shutil
import subprocess
import sys

root = os.path.abspath(os.environ.get("VIVA_SOURCE_ROOT") or
                       os.path.join(os.path.dirname(__file__), "..", ".."))
flatpak_dir = os.path.join(root, "flatpak")

APP_ID = "io.github.vivaexam.Viva"
# The GNOME runtime's CPython, as a wheel tag: GNOME 50 carries Python 3.13.
RUNTIME_PYTHON = {"50": "cp313"}
FINISH_ARGS = ["--socket=wayland", "--socket=fallback-x11", "--device=dri",
               "--share=ipc", "--share=network"]

n = 0
failed = 0


def check(cond, what, detail=None):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print(("ok" if cond else "not ok"), n, "-", what, flush=True)
    if not cond and detail:
        for line in str(detail).splitlines():
            print("#", line)
    return cond


def skip(what, why):
    global n
    n += 1
    print("ok", n, "-", what, "# SKIP", why, flush=True)


def strip_comments(text):
    """json-glib, which flatpak-builder reads manifests with, allows C
    comments; Python's json does not."""
    out = []
    i = 0
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("/*", i):
            end = text.index("*/", i + 2)
            out.append(" ")
            i = end + 1
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.loads(strip_comments(f.read()))


def modules_of(manifest, base):
    """Every module, with module files inlined, and the folder its relative
    paths are resolved from."""
    for module in manifest.get("modules", []):
        if isinstance(module, str):
            path = os.path.join(base, module)
            if not check(os.path.isfile(path), f"module file {module} exists"):
                continue
            module = load(path)
            yield module, os.path.dirname(path)
            yield from modules_of(module, os.path.dirname(path))
        else:
            yield module, base
            yield from modules_of(module, base)


manifests = {
    APP_ID: os.path.join(flatpak_dir, APP_ID + ".json"),
    APP_ID + ".Devel": os.path.join(flatpak_dir, APP_ID + ".Devel.json"),
}

builder = shutil.which("flatpak-builder")


def show_manifest(path):
    """flatpak-builder --show-manifest with warnings fatal, run from a
    scratch folder: it leaves its state folder in the current one."""
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        return subprocess.run([builder, "--show-manifest", path], cwd=scratch,
                              env=dict(os.environ, G_DEBUG="fatal-warnings"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

for app_id, path in manifests.items():
    name = os.path.basename(path)
    if not check(os.path.isfile(path), f"{name} exists"):
        continue

    # 1. flatpak-builder reads it, and any property it does not know is a
    #    warning that G_DEBUG=fatal-warnings turns into a crash.
    shown = None
    if builder is None:
        skip(f"{name}: flatpak-builder --show-manifest parses it", "flatpak-builder is not installed")
    else:
        proc = show_manifest(path)
        ok = proc.returncode == 0
        if ok:
            try:
                shown = json.loads(proc.stdout)
            except ValueError as e:
                ok = False
                proc.stderr += f"\nits output is not JSON: {e}"
        check(ok, f"{name}: flatpak-builder --show-manifest parses it with fatal warnings",
              proc.stderr)

    manifest = load(path)
    if shown is not None:
        check(shown.get("id") == manifest.get("id") and
              shown.get("finish-args") == manifest.get("finish-args"),
              f"{name}: flatpak-builder reads the same id and finish-args as this test")

    # 2. Identity and permissions.
    check(manifest.get("id") == app_id, f"{name}: app id is {app_id}", manifest.get("id"))
    check(manifest.get("command") == "viva", f"{name}: command is viva", manifest.get("command"))
    check(manifest.get("runtime") == "org.gnome.Platform" and manifest.get("sdk") == "org.gnome.Sdk",
          f"{name}: GNOME Platform and Sdk")
    runtime_version = manifest.get("runtime-version")
    check(runtime_version in RUNTIME_PYTHON, f"{name}: runtime version is one this test knows the CPython of",
          runtime_version)
    check(manifest.get("finish-args") == FINISH_ARGS,
          f"{name}: finish-args are wayland, fallback-x11, dri, ipc and network, nothing more",
          manifest.get("finish-args"))
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    before = raw[:raw.find('"--share=network"')]
    comment = before[before.rfind("/*"):] if "/*" in before else ""
    check("*/" in comment and re.search(r"localhost", comment, re.I) and re.search(r"ollama", comment, re.I),
          f"{name}: a comment right before --share=network says it is for a model on localhost")

    # 3. Modules and sources.
    modules = list(modules_of(manifest, flatpak_dir))
    names = [m.get("name") for m, _ in modules]
    check(names[-1:] == ["viva"], f"{name}: Viva is the last module", names)
    viva = modules[-1][0] if modules else {}
    check(viva.get("buildsystem") == "meson", f"{name}: Viva builds with Meson")
    profile = "development" if app_id.endswith(".Devel") else "default"
    check(f"-Dprofile={profile}" in viva.get("config-opts", []),
          f"{name}: Viva is configured with -Dprofile={profile}", viva.get("config-opts"))

    local_missing = []
    unpinned = []
    wheels = []
    for module, base in modules:
        for source in module.get("sources", []):
            if isinstance(source, str):
                local_missing += [] if os.path.isfile(os.path.join(base, source)) else [source]
                continue
            kind = source.get("type")
            if "path" in source:
                target = os.path.normpath(os.path.join(base, source["path"]))
                exists = os.path.exists(target)
                if kind == "git":
                    exists = exists and subprocess.run(
                        ["git", "-C", target, "rev-parse", "--verify", "--quiet",
                         "refs/heads/" + source.get("branch", "main")],
                        stdout=subprocess.DEVNULL).returncode == 0
                if not exists:
                    local_missing.append(f"{module.get('name')}: {source['path']}")
            for key in ("paths",):
                for p in source.get(key, []):
                    if not os.path.exists(os.path.join(base, p)):
                        local_missing.append(f"{module.get('name')}: {p}")
            if "url" in source:
                if kind == "git":
                    pinned = re.fullmatch(r"[0-9a-f]{40}", source.get("commit", "")) is not None
                else:
                    pinned = re.fullmatch(r"[0-9a-f]{64}", source.get("sha256", "")) is not None
                if not pinned:
                    unpinned.append(source["url"])
                if source["url"].endswith(".whl"):
                    wheels.append((module, source))
    check(not local_missing, f"{name}: every local source exists", "\n".join(local_missing))
    check(not unpinned, f"{name}: every download is pinned by sha256 (or a git commit)", "\n".join(unpinned))

    # 4. The wheels: for the runtime's CPython, binary ones limited to the
    #    architecture they were built for, installed without an index.
    tag = RUNTIME_PYTHON.get(runtime_version, "?")
    wheel_names = {os.path.basename(s["url"]).split("-")[0].lower().replace("_", "-") for _, s in wheels}
    check({"numpy", "matplotlib"} <= wheel_names, f"{name}: numpy and matplotlib come as wheels",
          sorted(wheel_names))
    bad = []
    for module, source in wheels:
        fields = os.path.basename(source["url"])[:-4].split("-")
        python, abi, platform = fields[-3], fields[-2], fields[-1]
        if platform == "any":
            if not python.startswith("py3") and python != "py2.py3":
                bad.append(f"{source['url']}: pure wheel for {python}")
            continue
        if python != tag or abi != tag:
            bad.append(f"{source['url']}: {python}-{abi}, the runtime needs {tag}")
        arches = source.get("only-arches", [])
        if len(arches) != 1 or not platform.endswith(arches[0]) or "manylinux" not in platform:
            bad.append(f"{source['url']}: only-arches {arches} for {platform}")
        if "pip3 install" not in " ".join(module.get("build-commands", [])) or \
           "--no-index" not in " ".join(module.get("build-commands", [])):
            bad.append(f"{module.get('name')}: not installed with pip3 install --no-index")
    check(not bad, f"{name}: binary wheels are {tag} manylinux with only-arches, installed with --no-index",
          "\n".join(sorted(set(bad))))

# 5. The release and the .Devel manifest differ only where they must.
if all(os.path.isfile(p) for p in manifests.values()):
    release, devel = (load(p) for p in manifests.values())
    for key in ("runtime", "runtime-version", "sdk", "command", "finish-args", "modules"):
        if key == "modules":
            same = release["modules"][:-1] == devel["modules"][:-1]
        else:
            same = release.get(key) == devel.get(key)
        check(same, f"the .Devel manifest has the same {key} as the release")

# 6. The command is what Meson installs.
with open(os.path.join(root, "src", "ui", "meson.build"), encoding="utf-8") as f:
    check(re.search(r"executable\(\s*'viva'", f.read()) is not None, "src/ui builds an executable named viva")

# 7. The README's recipe for a lab-wide model server: the override compiles
#    against the schema and gives those defaults, and the module it adds to
#    the manifest is one flatpak-builder reads.
with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
    readme = f.read()
lab = readme[readme.find("## For lab administrators"):]
lab = lab[:lab.find("\n## ", 3)]
ini = re.search(r"```ini\n(.*?)```", lab, re.S)
module = re.search(r"```json\n(.*?)```", lab, re.S)
check(ini is not None and module is not None, "README's lab section has an override file and a manifest module")
if ini is not None:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(root, "data", APP_ID + ".gschema.xml"), tmp)
        with open(os.path.join(tmp, "90_lab.gschema.override"), "w", encoding="utf-8") as f:
            f.write(ini.group(1))
        proc = subprocess.run(["glib-compile-schemas", "--strict", tmp],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        check(proc.returncode == 0, "README's override compiles with the schema, strictly", proc.stdout)
        env = dict(os.environ, GSETTINGS_SCHEMA_DIR=tmp, GSETTINGS_BACKEND="memory")
        got = {}
        for key in ("base-url", "model"):
            out = subprocess.run(["gsettings", "get", APP_ID, key], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout.strip()
            got[key] = out
        expected = dict(re.findall(r"^([a-z-]+)=(.*)$", ini.group(1), re.M))
        check(got == expected and "localhost" not in got.get("base-url", "localhost"),
              "with it, every account starts with the lab's base-url and model", f"{got} != {expected}")
if module is not None:
    try:
        lab_module = json.loads(module.group(1))
        parsed = True
    except ValueError as e:
        parsed = False
        check(False, "README's lab-defaults module is JSON", e)
    if parsed and builder is not None:
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            for name in os.listdir(flatpak_dir):
                if name.endswith(".json"):
                    shutil.copy(os.path.join(flatpak_dir, name), tmp)
            manifest = load(os.path.join(tmp, APP_ID + ".json"))
            manifest["modules"].append(lab_module)
            with open(os.path.join(tmp, "lab.json"), "w", encoding="utf-8") as f:
                json.dump(manifest, f)
            open(os.path.join(tmp, "90_lab.gschema.override"), "w").close()
            proc = show_manifest(os.path.join(tmp, "lab.json"))
            check(proc.returncode == 0, "the manifest with README's lab-defaults module parses", proc.stderr)
    elif parsed:
        skip("the manifest with README's lab-defaults module parses", "flatpak-builder is not installed")

print(f"1..{n}")
sys.exit(1 if failed else 0)
