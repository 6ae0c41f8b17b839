#!/usr/bin/env bash
# Sharding: for TOTAL = 1..8 every property of the whole registry (model
# backends and attnprop's kernel on every dispatch target) runs in exactly
# one shard (`attnprop run --shard I/T --list`); GoogleTest's variables
# select the same shard and touch GTEST_SHARD_STATUS_FILE; bad values are
# exit 2 with a message; and the ctest binary behind the property tests
# honours the same variables (through GoogleTest).
#   shard_test.sh ATTNPROP ATTNPROP_PROPERTIES WORKDIR
set -euo pipefail
exe=$1 props=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
unset GTEST_TOTAL_SHARDS GTEST_SHARD_INDEX GTEST_SHARD_STATUS_FILE
fail() { echo "FAIL: $*" >&2; exit 1; }

"$exe" run --list | sort > "$work/all"
n=$(wc -l < "$work/all")
[ "$n" -gt 100 ] || fail "run --list printed only $n properties"
[ "$(uniq -d < "$work/all" | wc -l)" -eq 0 ] || fail "run --list names a property twice"
for total in 1 2 3 4 5 6 7 8; do
  : > "$work/union"
  for ((i = 0; i < total; i++)); do
    "$exe" run --shard "$i/$total" --list > "$work/shard"
    [ -s "$work/shard" ] || fail "shard $i/$total is empty (of $n properties)"
    cat "$work/shard" >> "$work/union"
  done
  sort "$work/union" > "$work/union.sorted"
  dup=$(uniq -d < "$work/union.sorted" | head -3)
  [ -z "$dup" ] || fail "TOTAL=$total: in more than one shard: $dup"
  missing=$(comm -23 "$work/all" "$work/union.sorted" | head -3)
  [ -z "$missing" ] || fail "TOTAL=$total: in no shard: $missing"
  echo "TOTAL=$total: each of the $n properties in exactly one shard"
done

# GoogleTest's variables: the same shard as --shard, the status file touched.
"$exe" run --shard 2/5 --list > "$work/flag"
GTEST_TOTAL_SHARDS=5 GTEST_SHARD_INDEX=2 GTEST_SHARD_STATUS_FILE="$work/status" "$exe" run --list > "$work/env"
cmp -s "$work/flag" "$work/env" || fail "GTEST_SHARD_INDEX=2 GTEST_TOTAL_SHARDS=5 selects another set than --shard 2/5"
[ -f "$work/status" ] || fail "GTEST_SHARD_STATUS_FILE was not touched"
# --shard wins over the variables.
GTEST_TOTAL_SHARDS=5 GTEST_SHARD_INDEX=4 "$exe" run --shard 2/5 --list | cmp -s - "$work/flag" ||
  fail "--shard 2/5 did not win over GTEST_SHARD_INDEX=4"
echo "GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX select the shard --shard does; GTEST_SHARD_STATUS_FILE touched"

# The search budget per property is the whole selection's (S/N, at least
# 30 s) in every shard, whatever else the shard runs.
share() { "$exe" audit --filter 'attend2.*' --filter 'lecture4.prop3.1.*' --cases 1 --search 0 --no-save --budget 4000 --out "$work/budget-report" "$@" |
  sed -n 's/.*budget 4000 s: \([0-9.e+]*\) s per property.*/\1/p'; }
whole=$(share)
[ -n "$whole" ] || fail "the banner states no per-property budget"
for i in 0 1 2 3; do
  [ "$(share --shard $i/4)" = "$whole" ] || fail "shard $i/4 gives $(share --shard $i/4) s per property, the whole run $whole s"
done
echo "per-property search budget $whole s in the whole run and in each of 4 shards"

# Bad values: exit 2 with a message naming them.
bad() {  # bad REGEX ENV... -- ARGS...
  local regex=$1 envs=() rc=0
  shift
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" "$exe" "$@" > "$work/out" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || fail "$* (${envs[*]}): exit $rc, expected 2"
  grep -qE -- "$regex" "$work/out" || fail "$* (${envs[*]}): no message matching '$regex': $(cat "$work/out")"
}
bad "INDEX must be below TOTAL" -- run --shard 4/4 --list
bad "--shard needs INDEX/TOTAL" -- run --shard 1 --list
bad "--shard needs INDEX/TOTAL" -- audit --shard a/4 --list
bad "TOTAL must be in \[1, " -- check-kernel x.so --shard 0/0 --list
bad "GTEST_TOTAL_SHARDS is not set" GTEST_SHARD_INDEX=1 -- run --list
bad "GTEST_TOTAL_SHARDS='0' is not a shard count" GTEST_TOTAL_SHARDS=0 GTEST_SHARD_INDEX=0 -- run --list
bad "GTEST_SHARD_INDEX='3' is not a shard index below GTEST_TOTAL_SHARDS=3" GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=3 -- run --list
echo "bad shard values: exit 2, named"

# The ctest binary: GoogleTest's own sharding, every test in exactly one shard.
filter='attend2.*:lecture4.prop3.1.*'
ran() { "$props" --gtest_filter="$filter" 2>/dev/null | sed -n 's/^\[ RUN      \] //p' | sort; }
ran > "$work/gtest-all"
[ -s "$work/gtest-all" ] || fail "the property binary ran no test"
: > "$work/gtest-union"
for i in 0 1 2; do GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i ran >> "$work/gtest-union"; done
sort "$work/gtest-union" | cmp -s - "$work/gtest-all" || fail "the property binary's 3 shards do not run each test once"
echo "attnprop_properties honours GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX ($(wc -l < "$work/gtest-all") tests, 3 shards)"
