#!/usr/bin/env bash
# attnprop store merge: the stores of a sharded run's jobs fold into one
# without losing or duplicating an entry: shared entries once, each job's own
# entries all, a name taken by another case renamed, the kernel stores
# (kernels/<name>/) too; merging again adds nothing; two merges at once into
# one store (each holding the store's flock) lose nothing; the result replays.
#   store_merge_test.sh ATTNPROP TESTDATA WORKDIR
set -euo pipefail
exe=$1 data=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
claim=attend2.additivity
entry() {  # entry NAME S0: one attend2.additivity case
  printf '[case name=%s expect=holds backends=double,mpfr]\ns0: scalar %s\ns1: scalar -0x1.f4p+9\nv0: scalar 0x1p+0\nv0'"'"': scalar 0x1p+1\nv1: scalar -0x1p+0\nv1'"'"': scalar 0x1.8p+0\n[end]\n' "$1" "$2"
}
# Job A and job B both replayed the repository's entry (shared); A found
# a-only, B found b-only and a different case under A's name ("found").
mkdir -p "$work/a/kernels/libk" "$work/b/kernels/libk"
{ cat "$data/additivity_store.txt"; entry found 0x1p+3; entry a-only 0x1p+4; } > "$work/a/$claim.txt"
{ cat "$data/additivity_store.txt"; entry found 0x1p+5; entry b-only 0x1p+6; } > "$work/b/$claim.txt"
entry k1 0x1p+7 | sed 's/backends=double,mpfr/backends=kernel-f32/' > "$work/a/kernels/libk/$claim.txt"
entry k1 0x1p+7 | sed 's/backends=double,mpfr/backends=kernel-f32/' > "$work/b/kernels/libk/$claim.txt"

"$exe" store merge --into "$work/merged" "$work/a" "$work/b" | tee "$work/out"
grep -q "merged $work/a into $work/merged: 4 entries added, 0 already there" "$work/out" || fail "a: $(cat "$work/out")"
grep -q "merged $work/b into $work/merged: 2 entries added, 2 already there" "$work/out" || fail "b: $(cat "$work/out")"
f="$work/merged/$claim.txt"
names=$(sed -n 's/^\[case name=\([^ ]*\) .*/\1/p' "$f" | sort | tr '\n' ' ')
[ "$names" = "a-only b-only found found-2 overflowing-scores " ] || fail "entries after the merge: $names"
[ "$(grep -c '^\[case' "$work/merged/kernels/libk/$claim.txt")" -eq 1 ] || fail "the kernel store's shared entry is not there once"
cp "$f" "$work/before"
"$exe" store merge --into "$work/merged" "$work/b" "$work/a" | grep -q "0 entries added, 4 already there" || fail "merging again added entries"
cmp -s "$f" "$work/before" || fail "merging the same stores again changed the store"
"$exe" reproduce "$claim" "$f" > "$work/replay" || fail "the merged store does not replay: $(cat "$work/replay")"
echo "merged: shared entries once, every job's own entry, a taken name renamed; again: nothing added; it replays"

# Two merges at once into one store: the flock serialises them.
for round in 1 2 3; do
  rm -rf "$work/both"
  "$exe" store merge --into "$work/both" "$work/a" > /dev/null &
  pa=$!
  "$exe" store merge --into "$work/both" "$work/b" > /dev/null &
  pb=$!
  wait "$pa" && wait "$pb" || fail "a concurrent merge failed"
  n=$(grep -c '^\[case' "$work/both/$claim.txt")
  [ "$n" -eq 5 ] || fail "round $round: two concurrent merges left $n entries, not 5"
done
echo "two concurrent merges into one store: 5 entries each time, none lost or doubled"

# A malformed store is refused with its file and line, nothing written.
rc=0
"$exe" store merge --into "$work/merged" "$data/bad_store" > "$work/out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "bad_store/$claim.txt:10" "$work/out" || fail "a malformed store: exit $rc: $(cat "$work/out")"
cmp -s "$f" "$work/before" || fail "a refused merge changed the store"
echo "a malformed store: exit 2, named; the store unchanged"
