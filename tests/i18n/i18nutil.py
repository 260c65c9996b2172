"""What tests/i18n shares: reading .po files without polib, and a fresh
template built from po/POTFILES.in as Meson's glib preset builds it."""

import os
import re
import subprocess
import tempfile


def c_unescape(s):
    return re.sub(r'\\(["\\nt]|u[0-9a-fA-F]{4})',
                  lambda m: {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(m.group(1), None)
                  or chr(int(m.group(1)[1:], 16)), s)


def read_po(path):
    """{(msgctxt, msgid): [msgstr…], …} and the fuzzy ones, without polib."""
    entries = {}
    fuzzy = set()
    block = []

    def flush():
        if not block:
            return
        fields = {}
        is_fuzzy = False
        current = None
        for line in block:
            if line.startswith("#,") and "fuzzy" in line:
                is_fuzzy = True
            elif line.startswith("#"):
                continue
            else:
                m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+"(.*)"$', line)
                if m:
                    current = m.group(1)
                    fields[current] = c_unescape(m.group(2))
                elif line.startswith('"') and current:
                    fields[current] += c_unescape(line[1:-1])
        if "msgid" in fields:
            key = (fields.get("msgctxt"), fields["msgid"])
            entries[key] = [v for k, v in sorted(fields.items()) if k.startswith("msgstr")]
            if is_fuzzy:
                fuzzy.add(key)
        block.clear()

    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            # An entry ends at a blank line, or where a comment or a new
            # msgid follows its msgstr (as a union merge of two branches'
            # additions leaves it).
            if not line.strip():
                flush()
            else:
                starts = line.startswith(("#", "msgctxt ", "msgid "))
                if starts and any(b.startswith("msgstr") for b in block):
                    flush()
                block.append(line)
    flush()
    entries.pop((None, ""), None)
    return entries, fuzzy



def build_template(root):
    """The template xgettext makes now from POTFILES.in: ({(ctx, msgid): …}, error)."""
    po_dir = os.path.join(root, "po")
    with open(os.path.join(po_dir, "POTFILES.in"), encoding="utf-8") as f:
        potfiles = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    with tempfile.TemporaryDirectory(prefix="viva-po-") as tmp:
        pot = os.path.join(tmp, "viva.pot")
        proc = subprocess.run(
            ["xgettext", "--package-name=viva", "--from-code=UTF-8", "--add-comments", "--directory=" + root,
             "--output=" + pot, "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
             "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
             "--flag=N_:1:pass-c-format", "--flag=C_:2:pass-c-format", "--flag=NC_:2:pass-c-format",
             "--flag=g_dngettext:2:pass-c-format", "--flag=g_strdup_printf:1:c-format",
             "--flag=g_string_printf:2:c-format", "--flag=g_string_append_printf:2:c-format",
             "--flag=g_error_new:3:c-format", "--flag=g_set_error:4:c-format",
             "--flag=g_markup_printf_escaped:1:c-format", "--flag=g_log:3:c-format",
             "--flag=g_print:1:c-format", "--flag=g_printerr:1:c-format", "--flag=g_printf:1:c-format",
             "--flag=g_fprintf:2:c-format", "--flag=g_sprintf:2:c-format", "--flag=g_snprintf:3:c-format"]
            + [p for p in potfiles if os.path.exists(os.path.join(root, p))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0 or not os.path.exists(pot):
            return {}, proc.stderr or "xgettext wrote nothing"
        return read_po(pot)[0], None
