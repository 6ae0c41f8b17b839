#!/usr/bin/env bash
# Fuzzing as a test (issue 16): builds the libFuzzer targets in fuzz/ with
# clang (-fsanitize=fuzzer,address,undefined) and runs each for a bounded
# time, starting from the corpus kept in the repository (fuzz/corpus/<target>/,
# plus the store files of properties/counterexamples/ as seeds). A crash,
# leak, sanitizer report or timeout fails the script; the input is left in
# build/fuzz/crashes/<target>/ (copy it to fuzz/regressions/<target>/: the
# ctest tests fuzz.regressions.* replay every file there).
# allocator_may_return_null=1: an impossible allocation throws std::bad_alloc,
# as it does outside ASan (RapidCheck's decoder reserves a string of the
# length a token claims; attnprop turns the exception into "malformed token").
#   bash ci/fuzz.sh [SECONDS_PER_TARGET]     (default 45)
#   ATTNPROP_FUZZ_SEED=0 bash ci/fuzz.sh 600 a fresh random seed per target:
#                                            to explore (default seed 1, so
#                                            that CI's verdict on a checkout
#                                            is the one a rerun gives)
#   bash ci/fuzz.sh --merge SECONDS          also merge new interesting inputs into fuzz/corpus/
set -euo pipefail
cd "$(dirname "$0")/.."
merge=0
if [ "${1:-}" = "--merge" ]; then merge=1; shift; fi
seconds=${1:-45}
seed=${ATTNPROP_FUZZ_SEED:-1}
cxx=${ATTNPROP_FUZZ_CXX:-clang++-14}
command -v "$cxx" >/dev/null || { bash ci/install-deps.sh; }
command -v "$cxx" >/dev/null || { echo "ci/fuzz.sh: $cxx not found" >&2; exit 1; }
out=build/fuzz
mkdir -p "$out"
flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -isystem /usr/include/eigen3
       "-DATTNPROP_SOURCE_DIR=\"$PWD\"")
common=(properties/framework/case.cc model/exact.cc model/scalar.cc model/interval.cc)
declare -A sources=(
  [case_parser]=""
  [store_parser]="properties/framework/store.cc properties/framework/backend.cc properties/framework/atomic_file.cc properties/framework/program.cc"
  [token_decoder]="properties/framework/rc_bridge.cc properties/framework/token_check.cc properties/framework/certify.cc properties/framework/check.cc"
)
declare -A libs=([case_parser]="" [store_parser]="" [token_decoder]="-lrapidcheck")
for t in case_parser store_parser token_decoder; do
  # shellcheck disable=SC2086
  "$cxx" "${flags[@]}" fuzz/$t.cc "${common[@]}" ${sources[$t]} ${libs[$t]} -lmpfi -lmpfr -lgmp -o "$out/$t"
done

status=0
for t in case_parser store_parser token_decoder; do
  work=$(mktemp -d "/tmp/attnprop-fuzz-$t.XXXXXX")
  mkdir -p "$work/corpus" "$out/crashes/$t"
  cp fuzz/corpus/$t/* "$work/corpus/" 2>/dev/null || true
  seeds=()
  [ "$t" = store_parser ] && seeds=(properties/counterexamples properties/framework/testdata/malformed properties/framework/testdata/misfit)
  echo "== fuzz $t for $seconds s, seed $seed ($(ls "$work/corpus" | wc -l) corpus inputs)"
  rc=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$out/$t" -seed="$seed" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/$t/" "$work/corpus" "${seeds[@]}" > "$out/$t.log" 2>&1 || rc=$?
  grep -E "^stat::|cov: " "$out/$t.log" | tail -8
  if [ "$rc" != 0 ]; then
    echo "ci/fuzz.sh: $t FAILED (exit $rc); input in $out/crashes/$t/"; tail -40 "$out/$t.log"; status=1
  fi
  if [ "$merge" = 1 ]; then
    mkdir -p fuzz/corpus/$t
    "$out/$t" -merge=1 fuzz/corpus/$t "$work/corpus" > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
done
exit $status
