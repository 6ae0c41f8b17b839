#!/usr/bin/env bash
# Colour on a terminal only (issue 33): verdict words coloured when standard
# output is a terminal (a pseudo-terminal from script(1)); none with
# NO_COLOR set (https://no-color.org) or into a pipe.
#   bash tools/colour_test.sh ATTNPROP
set -uo pipefail
exe=$1
fail() { echo "FAIL: $*"; exit 1; }
command -v script > /dev/null || { echo "skipped: no script(1) here"; exit 77; }
cmd="'$exe' run --filter attend2.additivity/double --cases 5 --no-store"
tty=$(script -qec "$cmd" /dev/null)
grep -q $'\033\\[32mok\033\\[0m' <<< "$tty" || fail "no green 'ok' on a terminal: $tty"
plain=$(NO_COLOR=1 script -qec "$cmd" /dev/null)
! grep -q $'\033\\[3[0-9]m' <<< "$plain" || fail "colour on a terminal with NO_COLOR=1"
grep -q ' ok ' <<< "$plain" || fail "no 'ok' with NO_COLOR=1: $plain"
piped=$(bash -c "$cmd" | cat)
! grep -q $'\033' <<< "$piped" || fail "escape codes into a pipe"
echo "coloured on a terminal, plain with NO_COLOR=1 and into a pipe"
