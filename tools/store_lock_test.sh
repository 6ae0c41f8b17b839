#!/usr/bin/env bash
# A store locked by another process (issue 35): a save waits for the lock,
# saying once who holds it, and after ATTNPROP_STORE_LOCK_TIMEOUT seconds
# fails naming the holder instead of hanging; once the lock is released the
# same save goes through.
#   store_lock_test.sh ATTNPROP WORKDIR
set -uo pipefail
exe=$1 work=$2
rm -rf "$work" && mkdir -p "$work/locked" "$work/src"
fail() { echo "FAIL: $*" >&2; [ -f "$work/out" ] && cat "$work/out" >&2; exit 1; }
printf '[case name=x expect=holds backends=double]\ns0: scalar 0x1p+3\ns1: scalar 0x1p+0\nv0: scalar 0x1p+0\nv0'"'"': scalar 0x1p+1\nv1: scalar -0x1p+0\nv1'"'"': scalar 0x1.8p+0\n[end]\n' \
  > "$work/src/attend2.additivity.txt"
flock "$work/locked" sleep 60 &
holder=$!
# The lock is the flock command's, and its sleep holds the descriptor too.
release() { pkill -P $holder sleep 2> /dev/null; kill $holder 2> /dev/null; wait $holder 2> /dev/null; }
for _ in $(seq 50); do grep -q " $holder " /proc/locks && break; sleep 0.1; done
t0=$SECONDS
ATTNPROP_STORE_LOCK_TIMEOUT=1 "$exe" store merge --into "$work/locked" "$work/src" > "$work/out" 2>&1
rc=$?
took=$((SECONDS - t0))
[ "$rc" -ne 0 ] || { release; fail "the merge into a locked store exited 0"; }
[ "$took" -le 10 ] || { release; fail "took $took s with a 1 s lock timeout"; }
grep -q "waiting for the lock on the store $work/locked, held by pid $holder (flock)" "$work/out" ||
  { release; fail "the wait does not name the holder"; }
grep -q "stayed locked by pid $holder (flock) for 1 s" "$work/out" || { release; fail "the failure does not name the holder"; }
[ ! -e "$work/locked/attend2.additivity.txt" ] || { release; fail "an entry was written without the lock"; }
release
ATTNPROP_STORE_LOCK_TIMEOUT=1 "$exe" store merge --into "$work/locked" "$work/src" > "$work/out" 2>&1 || fail "the merge after the lock was released"
[ -s "$work/locked/attend2.additivity.txt" ] || fail "nothing saved after the lock was released"
echo "ok: waited, named pid $holder (flock), failed after 1 s; saved once released"
