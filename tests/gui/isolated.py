#!/usr/bin/env python3
"""Run one GUI test on a display and a session bus of its own.

Usage: isolated.py PROGRAM|SCRIPT.py [ARG...]

Each GUI test gets its own Xvfb (numbered by Xvfb itself through
-displayfd, so two starting at once never race for a number, as
`xvfb-run -a` can) and its own D-Bus session, hence its own AT-SPI
registry: dogtail sees only this test's app, and synthesized input reaches
only this display. That is what lets Meson run the GUI tests side by side.
"""

import os
import signal
import subprocess
import sys


def start(argv, what, env=None):
    """Starts @argv, which writes one line to the fd it is given (Xvfb's
    display number, the bus's address); returns the process and the line.
    Its own output goes nowhere: the test's stdout is TAP."""
    read_end, write_end = os.pipe()
    argv = [a.replace("FD", str(write_end)) for a in argv]
    proc = subprocess.Popen(argv, pass_fds=(write_end,), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    line = b""
    with os.fdopen(read_end, "rb") as pipe:
        while not line.endswith(b"\n"):
            chunk = pipe.read(1)
            if not chunk:
                break
            line += chunk
    if not line.strip():
        proc.kill()
        sys.exit(f"{what} did not start: is it installed?")
    return proc, line.decode().strip()


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    xvfb, number = start(["Xvfb", "-displayfd", "FD", "-screen", "0", "1400x900x24",
                          "-nolisten", "tcp", "-noreset"], "Xvfb (package xvfb)")
    bus = None
    # Whatever happens below, neither Xvfb nor the bus outlives the test.
    try:
        env = dict(os.environ, DISPLAY=":" + number)
        for name in ("DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY"):
            env.pop(name, None)
        # The bus and what it activates (the AT-SPI bus and registry) write
        # chatter to stdout; they get their own, so TAP stays clean.
        bus, address = start(["dbus-daemon", "--session", "--nofork", "--print-address=FD"],
                             "dbus-daemon", env=env)
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        argv = sys.argv[1:]
        if argv[0].endswith(".py"):
            argv = [sys.executable] + argv
        test = subprocess.Popen(argv, env=env)
        # Meson stops a test that overruns with SIGTERM: pass it on, so the
        # test's own cleanup (its app, its servers, its home) runs.
        signal.signal(signal.SIGTERM, lambda *_: test.send_signal(signal.SIGTERM))
        status = test.wait()
    finally:
        if bus is not None:
            stop(bus)
        stop(xvfb)
    sys.exit(status if status >= 0 else 128 - status)

if __name__ == "__main__":
    main()
