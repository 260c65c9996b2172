#!/usr/bin/python3
"""The rehearsal's own cost: CPU and memory of `viva-cli lab rehearse` for
1, 16 and 64 students against an instant server (viva-gui-server --script
lab: every reply at once), so whatever a real rehearsal measures is the
server, never the client. viva-cli's own CPU and peak RSS come from /proc
while it runs; its workers (shared Python processes) are counted apart.
Prints TAP with the figures; fails if a defense costs the client more than
a second of CPU or 8 MB at 64 students."""

import json
import os
import subprocess
import sys
import time

CLI = os.environ.get("VIVA_CLI", "")
SERVER = os.environ.get("VIVA_GUI_SERVER", "")
TICK = os.sysconf("SC_CLK_TCK")

n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    failed += 0 if cond else 1
    print(("ok" if cond else "not ok"), n, "-", what, flush=True)


def proc_figures(pid):
    """(CPU seconds of pid itself, its peak RSS in KiB)"""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    hwm = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    return cpu, hwm


def rehearse(url, students):
    start = time.monotonic()
    before = os.times()
    proc = subprocess.Popen([CLI, "lab", "rehearse", "--base-url", url, "--model", "lab-model",
                             "--students", str(students), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    cpu, hwm = 0.0, 0
    while proc.poll() is None:
        try:
            # A zombie has no memory left to report: keep the last figures.
            now_cpu, now_hwm = proc_figures(proc.pid)
            cpu, hwm = max(cpu, now_cpu), max(hwm, now_hwm)
        except (OSError, IndexError, ValueError):
            pass
        time.sleep(0.05)
    out = proc.stdout.read()
    wall = time.monotonic() - start
    after = os.times()
    total = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    last = json.loads(out.strip().splitlines()[-1])
    return {"wall": wall, "cpu": cpu, "hwm": hwm, "total": total, "summary": last, "rc": proc.returncode}


if not CLI or not SERVER:
    print("1..0 # SKIP viva-cli or viva-gui-server was not built")
    sys.exit(0)

server = subprocess.Popen([SERVER, "--script", "lab"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
url = server.stdout.readline().strip()
results = {}
try:
    rehearse(url, 1)  # warm-up: the worker's first start, caches
    for students in (1, 16, 64):
        results[students] = rehearse(url, students)
finally:
    server.terminate()
    server.wait(timeout=10)

print("# students | wall s | viva-cli CPU s | CPU ms/defense | peak RSS MiB | RSS KiB/student over 1 | "
      "workers | CPU of workers s | TTFT p50 ms")
base = results[1]["hwm"]
for students, r in results.items():
    s = r["summary"]
    per_student = (r["hwm"] - base) / (students - 1) if students > 1 else 0
    print(f"# {students} | {r['wall']:.1f} | {r['cpu']:.2f} | {1000 * r['cpu'] / students:.0f} | "
          f"{r['hwm'] / 1024:.1f} | {per_student:.0f} | {s.get('workers')} | {max(r['total'] - r['cpu'], 0):.2f} | "
          f"{s.get('ttft_ms', {}).get('p50')}")
    ok(r["rc"] == 0 and s.get("completed") == students, f"{students} students: every defense completed")

big = results[64]
ok(big["cpu"] / 64 < 1.0, f"64 students: {1000 * big['cpu'] / 64:.0f} ms of client CPU a defense (under 1 s)")
ok((big["hwm"] - base) / 63 < 8 * 1024, f"64 students: {(big['hwm'] - base) / 63:.0f} KiB more a student (under 8 MiB)")
print(f"1..{n}")
sys.exit(1 if failed else 0)
