#!/usr/bin/python3
"""The store page: the metainfo's screenshots are files in this repository
that the URLs will serve once pushed, taken from the GUI tests at window
size; the content rating is filled in; the newest release is this version."""

import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

root = os.path.abspath(os.environ.get("VIVA_SOURCE_ROOT") or
                       os.path.join(os.path.dirname(__file__), "..", ".."))
RAW = "https://raw.githubusercontent.com/vivaexam/viva/main/"
OARS = ["violence-cartoon", "violence-fantasy", "violence-realistic", "violence-bloodshed",
        "violence-sexual", "drugs-alcohol", "drugs-narcotics", "drugs-tobacco", "sex-nudity",
        "sex-themes", "language-profanity", "language-humor", "language-discrimination",
        "social-chat", "social-info", "social-audio", "social-location", "social-contacts",
        "money-purchasing", "money-gambling"]

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


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


path = os.path.join(root, "data", "io.github.vivaexam.Viva.metainfo.xml.in.in")
tree = ET.parse(path)
component = tree.getroot()

paragraphs = component.findall("description/p")
check(len(paragraphs) >= 3 and component.find("description/ul") is not None,
      "the description has several paragraphs and a list")

shots = component.findall("screenshots/screenshot")
check(len(shots) >= 3, "at least three screenshots", len(shots))
check([s.get("type") for s in shots].count("default") == 1, "exactly one default screenshot")
for shot in shots:
    url = (shot.findtext("image") or "").strip()
    caption = (shot.findtext("caption") or "").strip()
    name = url[len(RAW):] if url.startswith(RAW) else None
    local = os.path.join(root, name) if name else None
    size = png_size(local) if local and os.path.isfile(local) else None
    check(name is not None and size is not None,
          f"{url or '(no image)'} is a PNG in this repository", local)
    if size:
        check(size[0] >= 1000 and size[1] >= 600 and size[0] / size[1] < 2,
              f"{name} is the window at its size, not the whole screen", size)
        with open(local, "rb") as f:
            f.seek(0, 2)
            check(f.tell() < 1_000_000, f"{name} is under 1 MB", f.tell())
    check(0 < len(caption) <= 100 and not caption.endswith("."), f"{name}: a short caption", caption)

rating = component.find("content_rating")
ids = {a.get("id"): a.text for a in rating.findall("content_attribute")} if rating is not None else {}
check(rating is not None and rating.get("type") == "oars-1.1", "an OARS 1.1 content rating")
missing = [a for a in OARS if a not in ids]
check(not missing, "every OARS attribute is answered", ", ".join(missing))
check(all(v in ("none", "mild", "moderate", "intense") for v in ids.values()), "with valid values", ids)

with open(os.path.join(root, "meson.build"), encoding="utf-8") as f:
    version = re.search(r"version:\s*'([^']+)'", f.read()).group(1)
releases = component.findall("releases/release")
check(releases and releases[0].get("version") == version,
      f"the newest release is {version}", releases[0].get("version") if releases else None)
check(releases and re.fullmatch(r"\d{4}-\d{2}-\d{2}", releases[0].get("date") or "") is not None and
      releases[0].find("description") is not None, "it has a date and release notes")

print(f"1..{n}")
sys.exit(1 if failed else 0)
