#!/bin/sh
# viva-cli's front door: --version, and usage errors exit 2.
cli="${VIVA_CLI:?}"
n=0
fail=0
check () {
  n=$((n + 1))
  if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

out=$("$cli" --version); rc=$?
[ $rc -eq 0 ] && [ "$out" = "viva-cli $VIVA_VERSION" ]; check $? "--version prints viva-cli $VIVA_VERSION and exits 0"

"$cli" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ]; check $? "no command is a usage error (exit 2)"

err=$("$cli" no-such-command 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "not a command"; check $? "an unknown command says so and exits 2"

out=$("$cli" --help); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "Usage"; check $? "--help prints usage and exits 0"

echo "1..$n"
exit $fail
