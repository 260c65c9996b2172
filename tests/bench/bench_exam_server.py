#!/usr/bin/python3
"""The exam server, measured side by side (tests/bench/RESULTS.md):

1. 60 sign-ins in one second: 60 clients of the core's exam server client
   (pinned TLS, one each, as 60 PCs) sign in at once (bench-exam-sign-in).
2. Submit -> the examiner's first streamed words, through the server
   (`viva-cli defend --server`) against the local defense (`viva-cli defend
   --base-url`), the same scripted model (viva-gui-server --script lab, every
   reply at once), rounds interleaved; both from a fresh viva-cli, so the
   process start is in both and the ratio is the server's cost.
3. The server's CPU and memory per concurrent defense: `lab rehearse --server`
   with 1, 10 and 60 students; viva-server's own CPU and resident memory from
   /proc while it runs, its sandboxed workers (its child processes) apart.

Prints TAP; fails only when something does not work, never on a figure."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CLI = os.environ.get("VIVA_CLI", "")
SERVER = os.environ.get("VIVA_SERVER", "")
MODEL = os.environ.get("VIVA_GUI_SERVER", "")
SIGN_IN = os.environ.get("VIVA_BENCH_SIGN_IN", "")
SRC = os.environ.get("VIVA_SOURCE_ROOT", "")
TICK = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
ROUNDS = int(os.environ.get("VIVA_BENCH_ROUNDS", "5"))
STUDENTS = 60
ROSTER = 80

n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    failed += 0 if cond else 1
    print(("ok" if cond else "not ok"), n, "-", what, flush=True)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def last_json(text, event=None):
    found = None
    for line in text.splitlines():
        if line.strip():
            obj = json.loads(line)
            if event is None or obj.get("event") == event:
                found = obj
    return found


def proc_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK, (int(fields[13]) + int(fields[14])) / TICK


def proc_rss(pid):
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE_KIB


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def first_content_ms(args):
    """ms from starting viva-cli to its first `content` line, to its first
    line of all (the server's answer to Submit, or the local first state),
    and its exit status"""
    start = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = None
    opening = None
    for line in proc.stdout:
        if opening is None:
            opening = (time.monotonic() - start) * 1000
        if first is None and '"event":"content"' in line.replace(" ", ""):
            first = (time.monotonic() - start) * 1000
    proc.wait()
    return first, opening, proc.returncode


if not (CLI and SERVER and MODEL and SIGN_IN and SRC):
    print("1..0 # SKIP viva-cli, viva-server, viva-gui-server or bench-exam-sign-in was not built")
    sys.exit(0)

work = tempfile.mkdtemp(prefix="viva-bench-server-")
state = os.path.join(work, "state")
model = subprocess.Popen([MODEL, "--script", "lab"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
url = model.stdout.readline().strip()
serve = None
try:
    with open(os.path.join(SRC, "tests", "server", "exam.json")) as f:
        exam = json.load(f)
    exam.pop("examiner", None)          # the server's model, not the offline examiner
    exam["id"] = "bench-exam"
    exam.pop("time_limit", None)
    exam_path = os.path.join(work, "exam.json")
    pack_path = os.path.join(work, "pack.json")
    with open(exam_path, "w") as f:
        json.dump(exam, f)
    with open(pack_path, "w") as f:
        json.dump(exam["pack"], f)
    roster = os.path.join(work, "roster.csv")
    with open(roster, "w") as f:
        f.write("student_id,name\n")
        for i in range(ROSTER):
            f.write(f"b{i:02d},Student {i:02d}\n")
    code = os.path.join(work, "double.py")
    with open(code, "w") as f:
        f.write("def double(x):\n    return 2 * x\n")
    answers = os.path.join(work, "answers.json")
    with open(answers, "w") as f:
        json.dump(["It doubles x."] * 8, f)

    init = run([SERVER, "init", "--state-dir", state, "--host", "127.0.0.1", "--json"])
    ok(init.returncode == 0, "viva-server init")
    added = run([SERVER, "exam", "add", exam_path, "--roster", roster, "--state-dir", state, "--json"])
    ok(added.returncode == 0, f"viva-server exam add, {ROSTER} students")
    teacher = last_json(added.stdout)["teacher_token"]
    codes_out = run([SERVER, "codes", "bench-exam", "--json", "--state-dir", state]).stdout
    codes = [json.loads(l) for l in codes_out.splitlines() if l.strip() and json.loads(l).get("event") == "code"]

    def codes_file(name, rows):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
        return path

    serve = subprocess.Popen([SERVER, "serve", "--state-dir", state, "--listen", "127.0.0.1:0",
                              "--base-url", url, "--model", "lab-model", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    listening = json.loads(serve.stdout.readline())
    link = f"viva://127.0.0.1:{listening['port']}/bench-exam#sha256={listening['fingerprint']}"
    print(f"# load average at start: {os.getloadavg()[0]:.1f}", flush=True)

    # 1. 60 sign-ins at once, on a fresh server (its rate limits full).
    server_cpu0, _ = proc_cpu(serve.pid)
    client0 = os.times()
    signin = run([SIGN_IN, link, codes_file("all.jsonl", codes[:STUDENTS]), str(STUDENTS)])
    client1 = os.times()
    server_cpu1, _ = proc_cpu(serve.pid)
    fig = json.loads(signin.stdout) if signin.stdout.strip() else {}
    ok(signin.returncode == 0 and fig.get("ok") == STUDENTS, f"60 sign-ins at once: {fig}")
    print(f"# 60 sign-ins: wall {fig.get('wall_ms')} ms, each p50 {fig.get('p50_ms')} ms, "
          f"p95 {fig.get('p95_ms')} ms, max {fig.get('max_ms')} ms; viva-server CPU {server_cpu1 - server_cpu0:.2f} s, "
          f"the 60 clients' CPU {(client1.children_user + client1.children_system) - (client0.children_user + client0.children_system):.2f} s",
          flush=True)

    # 2. Submit -> first words, local and through the server, interleaved.
    local, remote, local_open, remote_open = [], [], [], []
    sessions = os.path.join(work, "sessions")
    for r in range(ROUNDS):
        ms, opening, rc = first_content_ms([CLI, "defend", "--pack", pack_path, "--problem", "double", "--code", code,
                                            "--answers", answers, "--base-url", url, "--model", "lab-model",
                                            "--session-dir", sessions, "--json"])
        ok(rc == 0 and ms is not None, f"round {r + 1}: local defense streamed ({ms} ms)")
        if ms is not None:
            local.append(ms)
            local_open.append(opening)
        row = codes[r]
        signed = run([CLI, "exam", "sign-in", link, "--student-id", row["student_id"], "--code", row["code"]])
        token = signed.stdout.strip()
        ms, opening, rc = first_content_ms([CLI, "defend", "--server", link, "--token", token, "--problem", "double",
                                            "--code", code, "--answers", answers, "--json"])
        ok(rc == 0 and ms is not None, f"round {r + 1}: server defense streamed ({ms} ms)")
        if ms is not None:
            remote.append(ms)
            remote_open.append(opening)
    local.sort()
    remote.sort()
    if local and remote:
        lm, rm = local[len(local) // 2], remote[len(remote) // 2]
        print(f"# Submit -> first words (ms): local min {local[0]:.0f} median {lm:.0f} max {local[-1]:.0f}; "
              f"server min {remote[0]:.0f} median {rm:.0f} max {remote[-1]:.0f}; server/local {rm / lm:.2f}",
              flush=True)
        local_open.sort()
        remote_open.sort()
        print(f"# first line of output (ms): local first state median {local_open[len(local_open) // 2]:.0f}; "
              f"server's answer to Submit median {remote_open[len(remote_open) // 2]:.0f}", flush=True)

    # 3. CPU and memory per concurrent defense.
    idle_rss = proc_rss(serve.pid)
    used = ROUNDS
    print("# students | wall s | viva-server CPU s | CPU ms/defense | server RSS peak MiB | "
          "RSS KiB/defense over idle | workers' RSS peak MiB | workers' CPU s | TTFT p50 ms", flush=True)
    for students in (1, 10, 60):
        rows = codes[used:used + students]
        if students == 60:
            # A lab's 60 PCs are 60 addresses; here they are one, whose
            # sign-in budget (90, then one a second) the runs before used.
            time.sleep(45)
        used += students
        cpu0, child0 = proc_cpu(serve.pid)
        start = time.monotonic()
        proc = subprocess.Popen([CLI, "lab", "rehearse", "--server", link, "--teacher-token", teacher,
                                 "--codes", codes_file(f"n{students}.jsonl", rows), "--students", str(students),
                                 "--code", code, "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        peak, workers_peak = idle_rss, 0
        while proc.poll() is None:
            try:
                peak = max(peak, proc_rss(serve.pid))
                total = 0
                for pid in descendants(serve.pid):
                    try:
                        total += proc_rss(pid)
                    except OSError:
                        pass
                workers_peak = max(workers_peak, total)
            except OSError:
                pass
            time.sleep(0.05)
        out = proc.stdout.read()
        wall = time.monotonic() - start
        cpu1, child1 = proc_cpu(serve.pid)
        summary = last_json(out, "rehearsal") or {}
        reasons = {}
        for line in out.splitlines():
            if line.strip():
                event = json.loads(line)
                if event.get("event") == "defense" and event.get("status") != "completed":
                    key = (event.get("error") or {}).get("kind", "no verdict")
                    reasons[key] = reasons.get(key, 0) + 1
                    if reasons[key] == 1:
                        print(f"# a failure ({key}): {(event.get('error') or {}).get('message')}", flush=True)
        ok(proc.returncode == 0 and summary.get("completed") == students,
           f"{students} students through the server: every defense completed")
        print(f"# {students} | {wall:.1f} | {cpu1 - cpu0:.2f} | {1000 * (cpu1 - cpu0) / students:.0f} | "
              f"{peak / 1024:.1f} | {(peak - idle_rss) / students:.0f} | {workers_peak / 1024:.1f} | "
              f"{child1 - child0:.2f} | {summary.get('ttft_ms', {}).get('p50')}"
              + (f" | failed: {reasons}" if reasons else ""), flush=True)
finally:
    if serve is not None:
        serve.terminate()
        serve.wait(timeout=30)
    model.terminate()
    model.wait(timeout=10)
    shutil.rmtree(work, ignore_errors=True)

print(f"1..{n}")
sys.exit(1 if failed else 0)
