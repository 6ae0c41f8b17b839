#!/usr/bin/env bash
# AddressSanitizer + UBSan (-fsanitize=address,undefined,float-cast-overflow,
# compiled at -O1 -g1: ASan's documented setting for speed with accurate
# reports; -g1 keeps the line tables a stack trace needs).
#
#   bash ci/sanitize.sh          CI's step (.ci/run): build/asan compiles the
#                                harness, kernels, plug-in sandbox, parsers,
#                                store, reports, command line and every test
#                                with the sanitizers, and links the claims'
#                                objects of build/release (built first if
#                                needed) as they are; every test runs, the
#                                property tests at 20 random cases, except
#                                the deep-only ones below.
#   bash ci/sanitize.sh --deep   everything instrumented (the claims too, in
#                                build/asan-deep) and every test at its full
#                                case count: before a release, or when a
#                                claim's own code handles memory.
#
# What the quick step leaves out, and why that is safe (ci/README.md):
#  - the claims' own code is not instrumented: it is value code over Eigen,
#    MPFR and rationals, with no raw memory of its own; the buffers, parsers,
#    store, sandbox and kernel calls it reaches are instrumented and run;
#  - 49 tests, and 29 + 2 x 30 per-property ones, that run a plug-in through the whole suite again: under ASan
#    every call of a plug-in forks the instrumented process (no loader
#    there), so each takes minutes, and plug-ins are never instrumented
#    (they stand for users' kernels). The harness code they reach runs in
#    the tests kept: the sandbox's fault, guard-page, timeout and hostile
#    paths (plugins.Isolation, plugins.Broken, plugins.hostile.*, the check
#    of the oob_read, oob_write, crash and hang plug-ins, the audit of
#    oob_read), a correct plug-in through every property (plugins.Reference,
#    kernel.reference_plugin/f32), the reports and the shards' merge
#    (cli.*, reports.*). Left to --deep: the rest of the broken plug-ins'
#    command-line matrix (37), the online-softmax reference plug-in (2, and
#    its 29 + 30 per-property tests), the command line on the correct
#    plug-ins (3), plugins.BrokenRegimes, plugins.cli.diagnosis_report,
#    readme.commands, cli.shard.partition, kernel.reference_plugin/*/f64 (30)
#    (measured: 2,010 of the 3,040 CPU seconds of the tests on a 2-core
#    EPYC), the correct half plug-ins at ten seeds (2), the failing-ratio
#    check over six broken plug-ins (1) and the -q console on the causal
#    plug-in (1).
# Plug-ins are built without sanitizers (properties/abi/CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
deep=0
[ "${1:-}" = "--deep" ] && deep=1
bash ci/install-deps.sh
start=$SECONDS
if [ "$deep" = 1 ]; then
  cmake --preset asan -B build/asan-deep -DATTNPROP_CLAIM_OBJECTS_FROM= -DATTNPROP_PROPERTY_TEST_CASES=
  cmake --build build/asan-deep -j2
  # The asan test preset's environment (CMakePresets.json), for this tree.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=16 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/asan-deep -j2 --output-on-failure --no-tests=error
  echo "ci/sanitize.sh --deep: every test passed under ASan + UBSan in $((SECONDS - start)) s"
  exit 0
fi
# The Release build whose claim objects are linked (ci/test.sh built it).
cmake --preset release >/dev/null
cmake --build --preset release
cmake --preset asan -DATTNPROP_CLAIM_OBJECTS_FROM="$PWD/build/release" -DATTNPROP_PROPERTY_TEST_CASES=20
cmake --build --preset asan
built=$SECONDS
deep_only='^plugins\.cli\.(check|audit)\.broken_(nomax|lse_log2|causal_topleft|batch_stride|tail8|modifies_inputs|no_validation|f64_as_float|bf16_weights|crude_exp|empty_rows|v_stride_dk|nondeterministic|write_before_out|struct_size_exact|flush_subnormals|negative_tail)$|^plugins\.cli\.audit\.broken_(oob_write|crash|hang)$|reference_online|^plugins\.cli\.(check|audit)\.reference$|^plugins\.BrokenRegimes$|^plugins\.cli\.diagnosis_report$|^readme\.commands$|^cli\.shard\.partition$|^kernel\.reference_plugin/.*/f64$|\.ten_seeds$|^plugins\.cli\.check\.failing_ratios$|^plugins\.cli\.check\.quiet_console$'
# The pattern names exactly the tests listed above: 49 by name, and the
# kernel properties of the plug-ins' per-property tests (29 f32 and 30 f64:
# kernel.reference_online_plugin/<id>/f32 and /f64, kernel.reference_plugin/<id>/f64);
# a renamed test must not leave the quick step (or the deep list) unnoticed.
listed() { build/asan/tools/attnprop check-kernel build/asan/properties/abi/plugins/reference.so --backend "$1" --list | wc -l; }
p32=$(listed kernel-f32) p64=$(listed kernel-f64)
# (-FA: the tests the pattern names, not the fixture setups ctest would add
# to them: plugins.cli.check.failing_ratios reads the reports of every
# plugins.cli.check.broken_* test, four of which the quick step runs.)
n=$(ctest --test-dir build/asan -N -R "$deep_only" -FA '.*' | grep -c "Test *#" || true)
[ "$n" = $((49 + p32 + 2 * p64)) ] ||
  { echo "ci/sanitize.sh: the deep-only pattern matches $n tests, not the 49 + $p32 + 2 x $p64 it lists" >&2; exit 1; }
# Longest first on a fresh tree (the Release durations: the order is what counts).
bash ci/seed-ctest-costs.sh build/asan
ctest --preset asan -E "$deep_only"
echo "ci/sanitize.sh: built in $((built - start)) s, the tests passed in $((SECONDS - built)) s under ASan + UBSan"
