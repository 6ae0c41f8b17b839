#!/usr/bin/env bash
# examples/user_claim against an installed attnprop (ci/test.sh, steps 3b and 4):
#   bash ci/user_claim_check.sh PREFIX EXAMPLE_DIR SCRATCH_DIR
# 1. configure + build against PREFIX, timed (the target: under 60 s on 2 cores);
# 2. ctest lists exactly the example's four tests (one per claim and backend);
# 3. ctest: softmax.lipschitz_half passes; softmax.lipschitz_quarter's two
#    tests fail, each with a counterexample certified by interval arithmetic
#    and shrunk to n = 2, and a replay line that reproduces it (exit 1);
# 4. from an empty store, `audit --no-save` refutes the false claim (exit 1),
#    and so does the targeted search alone (one random case, --search 300);
# 5. with -DKNOWN_FALSE=ON (its registry: expect refuted) every test passes.
set -euo pipefail
prefix=$1 example=$2 scratch=$3
fail() {
  echo "ci/user_claim_check.sh: FAILED: $*" >&2
  exit 1
}
runner=softmax_claims
half=softmax.lipschitz_half quarter=softmax.lipschitz_quarter
build=$scratch/build
t0=$(date +%s.%N)
cmake -S "$example" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" > "$scratch.configure.log" ||
  { cat "$scratch.configure.log"; fail "configuring $example"; }
cmake --build "$build" -j2 > "$scratch.build.log" || { cat "$scratch.build.log"; fail "building $example"; }
t1=$(date +%s.%N)
printf 'configure + build of %s against %s: %.1f s (target: under 60 s)\n' "$example" "$prefix" "$(echo "$t1 - $t0" | bc)"

tests=$(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p' | sort | tr '\n' ' ')
want="$runner.$half/double $runner.$half/mpfr $runner.$quarter/double $runner.$quarter/mpfr "
[ "$tests" = "$want" ] || fail "the example's ctest lists: $tests (expected $want)"
echo "ctest lists: $tests"

if ctest --test-dir "$build" --output-on-failure -j2 > "$scratch.ctest.log" 2>&1; then
  cat "$scratch.ctest.log"
  fail "the false claim $quarter was not refuted"
fi
failed=$(sed -n 's/^.*[0-9]* - \([^ ]*\) (Failed).*$/\1/p' "$scratch.ctest.log" | sort | tr '\n' ' ')
[ "$failed" = "$runner.$quarter/double $runner.$quarter/mpfr " ] ||
  { cat "$scratch.ctest.log"; fail "failed tests: $failed (expected exactly $quarter's two)"; }
for backend in double mpfr; do
  grep -Eq "^\[1/1\] $quarter/$backend +refuted UNEXPECTED" "$scratch.ctest.log" ||
    { cat "$scratch.ctest.log"; fail "$quarter/$backend is not reported refuted"; }
done
grep -q "certified by interval arithmetic" "$scratch.ctest.log" ||
  { cat "$scratch.ctest.log"; fail "the refutation is not certified by interval arithmetic"; }
# Shrunk to two entries: x and y are 1 x 2.
[ "$(grep -Ec "^ +[xy]: matrix 1x2$" "$scratch.ctest.log")" = 4 ] ||
  { cat "$scratch.ctest.log"; fail "the counterexample was not shrunk to n = 2"; }
grep -E "refuted UNEXPECTED|^certified|replay:" "$scratch.ctest.log"
replay=$(sed -n "s/^ *replay: \(.* reproduce '$quarter\/double' .*\)/\1/p" "$scratch.ctest.log" | head -1)
[ -n "$replay" ] || fail "no replay line for $quarter/double"
rc=0
(cd /tmp && eval "$replay") > "$scratch.replay.log" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "$quarter/double: stored case .*NOT OK" "$scratch.replay.log" ||
  { cat "$scratch.replay.log"; fail "the replay command (exit $rc) did not reproduce the failure: $replay"; }
echo "replay (from another directory): exit 1, the stored case fails again"

mkdir -p "$scratch.empty"
rc=0
"$build/$runner" audit --store "$scratch.empty" --no-save --out "$scratch.audit" > "$scratch.audit.log" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "2 UNEXPECTED: $quarter/double, $quarter/mpfr$" "$scratch.audit.log" ||
  { cat "$scratch.audit.log"; fail "the empty-store audit (exit $rc) did not refute exactly $quarter"; }
tail -1 "$scratch.audit.log"

# The targeted search alone (one random case) finds it too.
rc=0
"$build/$runner" run --filter "$quarter" --cases 1 --search 300 --no-store --out "$scratch.search" > "$scratch.search.log" 2>&1 || rc=$?
found=$(python3 -c 'import json,sys; print(" ".join(sorted(p["found_by"] for p in json.load(open(sys.argv[1]))["properties"])))' \
  "$scratch.search/report.json")
[ "$rc" = 1 ] && [ "$found" = "search search" ] ||
  { cat "$scratch.search.log"; fail "with one random case, the search did not refute $quarter (exit $rc, found by: $found)"; }
echo "with one random case and 300 search candidates: refuted in both backends, found by the search"

cmake -S "$example" -B "$build-known" -DCMAKE_PREFIX_PATH="$prefix" -DKNOWN_FALSE=ON > /dev/null
cmake --build "$build-known" -j2 > /dev/null
ctest --test-dir "$build-known" -j2 > "$scratch.known.log" 2>&1 || { cat "$scratch.known.log"; fail "with KNOWN_FALSE=ON"; }
grep "tests passed" "$scratch.known.log"
