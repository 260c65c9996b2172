#!/bin/sh
# A newcomer's first command: the uninstalled viva-cli, run from the build
# tree with no VIVA_WORKER and no `meson devenv`, finds the worker built
# beside it and runs a file. TAP on stdout.
set -u
unset VIVA_WORKER
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'print(6 * 7)\n' > "$tmp/hello.py"

echo "1..2"
out=$("$VIVA_BUILD_ROOT/src/cli/viva-cli" run "$tmp/hello.py" 2>"$tmp/err")
status=$?
if [ $status -eq 0 ]; then echo "ok 1 - viva-cli run exits 0 from the build tree"
else echo "not ok 1 - viva-cli run exits 0 from the build tree"; sed 's/^/# /' "$tmp/err"; fi
if [ "$out" = "42" ]; then echo "ok 2 - it prints what the code printed"
else echo "not ok 2 - it prints what the code printed (got: $out)"; fi
