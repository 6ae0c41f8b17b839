#!/usr/bin/env bash
# check-kernel -q on a kernel with one bug (issue 33), run as its author would,
# from a git checkout with the default store:
#  - at most 20 lines, for --backend kernel-f32 and for kernel-f64: the
#    diagnosis (the same class for both), the rank-1 failure with its
#    shrunk case and a replay line, the others counted, and a last line that
#    starts with the verdict and names rank 1 first;
#  - the replay line reproduces the failure (exit 1);
#  - the default store (./attnprop-counterexamples) leaves `git status`
#    clean (a cache: its .gitignore) and carries a README.md; a store named
#    with --store in the checkout is the user's, and git sees it.
#   quiet_check_test.sh ATTNPROP PLUGIN CLASS TOP_ID
set -euo pipefail
exe=$(realpath "$1") plugin=$(realpath "$2") class=$3 top=$4
tmp=$(mktemp -d /tmp/attnprop-quiet.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/checkout"
cd "$tmp/checkout"
git init -q .
for dtype in f32 f64; do
  log=$tmp/$dtype.log rc=0
  "$exe" check-kernel "$plugin" -q --backend kernel-$dtype > "$log" 2>&1 || rc=$?
  [ "$rc" = 1 ] || { cat "$log"; fail "kernel-$dtype: exit $rc, expected 1"; }
  lines=$(wc -l < "$log")
  [ "$lines" -le 20 ] || { cat "$log"; fail "kernel-$dtype: $lines lines with -q, expected at most 20"; }
  head -1 "$log" | grep -qF "diagnosis: $class (" || { cat "$log"; fail "kernel-$dtype: the first line is not the diagnosis '$class'"; }
  [ "$(grep -m1 '^FAIL ' "$log" | cut -d' ' -f2)" = "$top/kernel-$dtype" ] ||
    { cat "$log"; fail "kernel-$dtype: the failure shown is not $top/kernel-$dtype"; }
  grep -q '^    shrunk counterexample' "$log" || { cat "$log"; fail "kernel-$dtype: no counterexample"; }
  tail -1 "$log" | grep -qE "^[0-9]+ of [0-9]+ properties hold on .*; FAIL: [0-9]+ fail, most specific first: $top/kernel-$dtype, " ||
    { cat "$log"; fail "kernel-$dtype: the last line does not name $top/kernel-$dtype first"; }
  replay=$(sed -n 's/^    replay: //p' "$log")
  [ -n "$replay" ] || { cat "$log"; fail "kernel-$dtype: no replay line"; }
  rc=0
  (PATH=$(dirname "$exe"):$PATH; eval "$replay") > "$tmp/replay.log" 2>&1 || rc=$?
  [ "$rc" = 1 ] || { cat "$tmp/replay.log"; fail "kernel-$dtype: the replay line exited $rc, expected 1"; }
  echo "kernel-$dtype: $lines lines; $(tail -1 "$log" | cut -c1-160)"
done
store=attnprop-counterexamples/kernels/$(basename "$plugin" .so)
[ -s "$store/README.md" ] && [ -s "$store/.gitignore" ] || fail "the default store has no README.md or .gitignore"
[ -z "$(git status --porcelain)" ] || { git status --short; fail "check-kernel with the default store left git status unclean"; }
rc=0
"$exe" check-kernel "$plugin" -q --filter "$top" --search 0 --store mine --create-store > "$tmp/named.log" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/named.log"; fail "--store mine: exit $rc, expected 1"; }
[ -s mine/README.md ] && [ ! -e mine/.gitignore ] || fail "--store mine: a named store has a README.md and no .gitignore"
git status --porcelain | grep -q '^?? mine/$' || { git status --short; fail "git does not see the named store mine/"; }
echo "git status clean with the default store; the named store mine/ is the user's"
