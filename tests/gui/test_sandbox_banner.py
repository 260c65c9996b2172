#!/usr/bin/python3
"""Code never runs unsandboxed by surprise: when the sandbox cannot start,
Run says why in the console and nothing runs; when code does run without a
sandbox (here VIVA_SANDBOX=none), a banner says so for as long as it
lasts."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vivagui  # noqa: E402

tap = vivagui.Tap()
home = vivagui.make_home()
vivagui.setup_dogtail(home, tap)

vivagui.save_code(home, "print('ran' + ' here')\n")

# A bubblewrap that cannot set up its namespaces, as under Ubuntu's AppArmor.
failing = os.path.join(tempfile.mkdtemp(dir=home), "bwrap")
with open(failing, "w") as f:
    f.write("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
os.chmod(failing, 0o755)


def wait_for(pred, timeout=20):
    return vivagui.wait_for(pred, timeout)


def named_prefix(app, prefix):
    return app.node.findChildren(lambda n: (n.name or "").startswith(prefix), recursive=True)


app = vivagui.App(home, {"VIVA_BWRAP": failing})
if not tap.ok(app.node is not None, "viva starts with a sandbox that cannot start"):
    app.kill()
    tap.done()
console = app.find("text", "Program output")
vivagui.click(app.find("push button", "Run"))
tap.ok(wait_for(lambda: "The sandbox could not start" in vivagui.text_of(console)),
       "Run says in the console that the sandbox could not start")
tap.ok("ran here" not in vivagui.text_of(console), "and the code did not run")
tap.ok(not named_prefix(app, "The sandbox could not start (bwrap: setting up uid map: Permission denied), so code runs"),
       "no banner claims code runs without a sandbox")
app.screenshot("sandbox-1-refused")
app.quit()

app = vivagui.App(home, {"VIVA_SANDBOX": "none"})
if not tap.ok(app.node is not None, "viva starts with VIVA_SANDBOX=none"):
    app.kill()
    tap.done()
tap.ok(wait_for(lambda: named_prefix(app, "The sandbox is turned off (VIVA_SANDBOX=none)")),
       "a banner says code runs without a sandbox")
console = app.find("text", "Program output")
vivagui.click(app.find("push button", "Run"))
tap.ok(wait_for(lambda: "ran here" in vivagui.text_of(console)), "the code runs, unprotected and said so")
app.screenshot("sandbox-2-banner")
app.quit()

vivagui.cleanup(home)
tap.done()
