#!/usr/bin/env bash
# The README's test command: install dependencies, then configure, build and
# run every test with the release presets (the steps of `cmake --workflow
# --preset release`, run one by one so that each is timed; warnings are errors).
# Then attnprop is used as a kernel author outside this tree would use it
# (docs/kernels.md), in a temporary directory:
#   1. `cmake --install` into a prefix: the files are there, `attnprop
#      --version`, pkg-config, `attnprop check-kernel` on a .so built by hand;
#   2. examples/user_kernel configured against that prefix
#      (find_package(attnprop) + attnprop_add_kernel_tests): its ctest has one
#      test per kernel property and dtype, `ctest -R abi.tq_ne_tk` picks that
#      property's two, and it passes; attnprop's compiler policy is not imposed
#      on it (its flags, -ffast-math accepted); a major version it does not
#      have is refused;
#   3. the same example with its planted bug: ctest fails naming
#      abi.empty_rows, and the printed replay command reproduces the failure;
#   3b. examples/user_claim (find_package + attnprop_add_claims: a user's own
#      claims, ci/user_claim_check.sh), examples/soundness_claims (claims with
#      known truth: no true one refuted, every false one refuted and certified
#      or undecided, never green; ci/soundness_check.sh), examples/search_claims
#      (claims whose witnesses are close pairs or small parameters: found from
#      an empty store, every printed replay reproduces from another folder;
#      ci/search_check.sh) and every command of docs/adding-a-claim.md;
#   4. the Debian package (cpack): its dependencies resolve (apt-get -s), it
#      unpacks into a fresh tree (dpkg -x), its attnprop runs (--version, the
#      two examples, and `attnprop audit` with this source tree hidden when a
#      mount namespace is available).
#
#   bash ci/test.sh               CI's test step: the packaged audit at 10
#                                 random cases and 10 search candidates per
#                                 property (what it checks is the package:
#                                 its store, no source tree, its reports,
#                                 every verdict as registered; about 15 s);
#                                 steps 3 and 4 run the example's tests of the
#                                 property each is about;
#   bash ci/test.sh --full-audit  the packaged audit at the main job's own
#                                 counts (100 cases, 300 search candidates per
#                                 property; about 200 s more on 2 cores): the
#                                 search over every property that holds, which
#                                 no ctest test runs (the discovery test runs it
#                                 over the false claims); and all 59 of the
#                                 example's tests in steps 3 and 4 (about 60 s
#                                 more). Before a release, or after a change to
#                                 the search or a tolerance.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
audit_counts="--cases 10 --search 10"
# The example's tests that steps 3 and 4 run: those of the property each is
# about (its planted bug's; one property from the package: step 2 ran all
# 59 on the same kernel); --full-audit runs all 59 in both.
bug_example_tests=(-R abi.empty_rows) deb_example_tests=(-R abi.tq_ne_tk)
case "${1:-}" in
  "") ;;
  --full-audit) audit_counts="" bug_example_tests=() deb_example_tests=() ;;
  *) echo "usage: bash ci/test.sh [--full-audit]" >&2; exit 2 ;;
esac
# Each phase's wall time is printed as it ends (issue 36: the budget is
# 12 minutes for this whole command on the 2-core CI machine; ci/README.md).
begin=$SECONDS last=$SECONDS
took() { printf '== ci/test.sh: %s took %d s\n' "$1" $((SECONDS - last)); last=$SECONDS; }
bash ci/install-deps.sh
took "install-deps"
cmake --preset release
took "configure"
cmake --build --preset release
took "build"
bash ci/seed-ctest-costs.sh build/release  # longest tests first on a fresh tree
ctest --preset release
took "ctest"

start=$SECONDS
tmp=$(mktemp -d /tmp/attnprop-ci.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
step_name=""
step() {
  [ -z "$step_name" ] || took "step $step_name"
  step_name=${1%%.*}
  printf '\n== ci/test.sh: %s\n' "$*"
}
fail() {
  echo "ci/test.sh: FAILED: $*" >&2
  exit 1
}
version=$(sed -n 's/^project(attnprop VERSION \([0-9.]*\) .*/\1/p' CMakeLists.txt)
abi=$(sed -n 's/^#define ATTNPROP_KERNEL_ABI_VERSION \([0-9]*\)$/\1/p' kernels/attnprop_kernel.h)
expect_version=$(printf 'attnprop %s\nkernel ABI version %s' "$version" "$abi")
example=examples/user_kernel

step "1. cmake --install into $tmp/prefix"
prefix=$tmp/prefix
cmake --install build/release --prefix "$prefix" >/dev/null
for f in bin/attnprop include/attnprop/attnprop_kernel.h include/attnprop/attnprop_kernel_ext.h \
  lib/libattnprop_kernel.a lib/libattnprop_kernel.so lib/cmake/attnprop/attnpropConfig.cmake \
  lib/cmake/attnprop/attnpropConfigVersion.cmake lib/cmake/attnprop/attnpropTargets.cmake \
  lib/cmake/attnprop/AttnpropKernelTests.cmake lib/pkgconfig/attnprop-kernel-abi.pc \
  lib/pkgconfig/attnprop-kernel.pc share/attnprop/counterexamples/README.md \
  share/doc/attnprop/examples/user_kernel/CMakeLists.txt; do
  [ -e "$prefix/$f" ] || fail "cmake --install did not install $f"
done
[ "$("$prefix/bin/attnprop" --version)" = "$expect_version" ] || fail "attnprop --version: $("$prefix/bin/attnprop" --version)"
echo "$expect_version"
# The command on a .so (README way 1), the header found with pkg-config.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
mkdir "$tmp/way1"
cc -O2 -fPIC -shared $(pkg-config --cflags attnprop-kernel-abi) $example/mykernel.c -o "$tmp/way1/libmykernel.so" -lm
(cd "$tmp/way1" && "$prefix/bin/attnprop" check-kernel libmykernel.so --cases 20) > "$tmp/way1.log" ||
  { cat "$tmp/way1.log"; fail "attnprop check-kernel libmykernel.so"; }
grep -E "^[0-9]+ of [0-9]+ properties hold" "$tmp/way1.log"
# attnprop's own kernel through pkg-config.
printf '#include <attnprop/attnprop_kernel.h>\n#include <stdio.h>\nint main(void) { printf("%%d\\n", attnprop_kernel_abi_version()); return 0; }\n' > "$tmp/abi.c"
cc "$tmp/abi.c" -o "$tmp/abi" $(pkg-config --cflags --libs attnprop-kernel)
[ "$(LD_LIBRARY_PATH=$prefix/lib "$tmp/abi")" = "$abi" ] || fail "libattnprop_kernel.so via pkg-config"
unset PKG_CONFIG_PATH

# Steps 2 to 3b (the installed prefix, as a kernel author and a theorem's
# author use it) and steps 4 to 4b (the Debian package) share nothing but the
# build tree: they run as two lanes side by side, each with its own log,
# printed in order once both end (about 60 s less than one after the other on
# 2 cores: most of a lane is one CMake or one compiler process at a time).
lane_user() {
  step "2. $example against the installed attnprop (find_package + attnprop_add_kernel_tests)"
  ex=$tmp/example
  cmake -S $example -B "$ex" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
  cmake --build "$ex" >/dev/null
  # One test per property and dtype (listed by check-kernel --list when ctest
  # runs), nothing else; `ctest -R <claim id>` picks exactly that property's.
  listed() { "$prefix/bin/attnprop" check-kernel "$ex/libmykernel.so" --backend "$1" --list | wc -l; }
  tests=$(ctest --test-dir "$ex" -N | sed -n 's/^ *Test *#[0-9]*: //p')
  n=$(printf '%s\n' "$tests" | grep -cE '^kernel\.mykernel/[a-z0-9_.]+/f(32|64)$' || true)
  [ "$n" = "$(printf '%s\n' "$tests" | wc -l)" ] && [ "$n" = $(($(listed kernel-f32) + $(listed kernel-f64))) ] ||
    fail "the example's ctest lists: $(echo $tests)"
  picked=$(ctest --test-dir "$ex" -N -R abi.tq_ne_tk | sed -n 's/^ *Test *#[0-9]*: //p' | tr '\n' ' ')
  [ "$picked" = "kernel.mykernel/abi.tq_ne_tk/f32 kernel.mykernel/abi.tq_ne_tk/f64 " ] ||
    fail "ctest -R abi.tq_ne_tk in the example picks: $picked"
  echo "the example's ctest: $n tests, one per property and dtype; -R abi.tq_ne_tk picks $picked"
  ! grep -E -e '-ffp-contract|-Werror|-Wconversion|-Wpedantic' "$ex/compile_commands.json" ||
    fail "attnprop's compiler flags leaked into the user's target"
  ctest --test-dir "$ex" --output-on-failure -j2
  # attnprop's own kernel from a C project: attnprop::kernel (shared) and attnprop::kernel_static.
  mkdir "$tmp/link"
  printf '#include <attnprop/attnprop_kernel.h>\n#include <stdio.h>\nint main(void) { printf("%%d\\n", attnprop_kernel_abi_version()); return 0; }\n' > "$tmp/link/main.c"
  printf '%s\n' 'cmake_minimum_required(VERSION 3.25)' 'project(link LANGUAGES C)' 'find_package(attnprop CONFIG REQUIRED)' \
    'add_executable(shared main.c)' 'target_link_libraries(shared PRIVATE attnprop::kernel)' \
    'add_executable(static main.c)' 'target_link_libraries(static PRIVATE attnprop::kernel_static)' > "$tmp/link/CMakeLists.txt"
  cmake -S "$tmp/link" -B "$tmp/link/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$tmp/link/build" >/dev/null
  for t in shared static; do
    [ "$("$tmp/link/build/$t")" = "$abi" ] || fail "the C program linked with attnprop::kernel ($t)"
  done
  # The user's -ffast-math is the user's business (attnprop refuses it only for itself).
  cmake -S $example -B "$tmp/example-fastmath" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS=-ffast-math >/dev/null ||
    fail "configuring the example with -ffast-math"
  cmake --build "$tmp/example-fastmath" >/dev/null
  # The version check: same major version, at least the version asked for.
  mkdir "$tmp/version"
  for want in "$version:0" "${version%%.*}.0:0" "$((${version%%.*} + 1)).0:1" "9999.0:1"; do
    printf 'cmake_minimum_required(VERSION 3.25)\nproject(v LANGUAGES C)\nfind_package(attnprop %s CONFIG REQUIRED)\n' \
      "${want%:*}" > "$tmp/version/CMakeLists.txt"
    rc=0
    cmake -S "$tmp/version" -B "$tmp/version/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1 || rc=1
    rm -rf "$tmp/version/build"
    [ "$rc" = "${want#*:}" ] || fail "find_package(attnprop ${want%:*}) against $version: configure exit $rc"
  done
  echo "find_package(attnprop X): accepted for $version and ${version%%.*}.0, refused for $((${version%%.*} + 1)).0 and 9999.0"

  step "3. $example with its planted bug (-DMYKERNEL_PLANT_BUG=ON): must fail, naming abi.empty_rows"
  bug=$tmp/example-bug
  cmake -S $example -B "$bug" -DCMAKE_PREFIX_PATH="$prefix" -DMYKERNEL_PLANT_BUG=ON >/dev/null
  cmake --build "$bug" >/dev/null
  if ctest --test-dir "$bug" --output-on-failure -j2 "${bug_example_tests[@]}" > "$tmp/bug.log" 2>&1; then
    cat "$tmp/bug.log"
    fail "the planted bug was not caught"
  fi
  grep -q "^FAIL abi.empty_rows/kernel-f32 " "$tmp/bug.log" || { cat "$tmp/bug.log"; fail "abi.empty_rows/kernel-f32 not named"; }
  grep -E "^FAIL abi.empty_rows/|Test +#" "$tmp/bug.log"
  replay=$(sed -n "s/^ *replay: \(attnprop reproduce 'abi.empty_rows\/kernel-f32' .*\)/\1/p" "$tmp/bug.log" | head -1)
  [ -n "$replay" ] || fail "no replay line for abi.empty_rows/kernel-f32"
  echo "replaying from the user's build tree: $replay"
  rc=0
  (cd "$bug" && PATH=$prefix/bin:$PATH eval "$replay") > "$tmp/replay.log" 2>&1 || rc=$?
  [ "$rc" = 1 ] && grep -q "abi.empty_rows/kernel-f32: stored case .*NOT OK" "$tmp/replay.log" ||
    { cat "$tmp/replay.log"; fail "the replay command (exit $rc) did not reproduce the failure"; }
  echo "replay: exit 1, the stored case fails again"

  step "3b. examples/user_claim against the installed attnprop (find_package + attnprop_add_claims)"
  # A theorem's author's project: configure + build in under 60 s, exactly its
  # own four tests, the false claim's two fail with a certified counterexample
  # shrunk to two entries and a replay line that reproduces it; with its
  # registry saying the claim is false, every test passes; the guide's
  # commands (docs/adding-a-claim.md) all run.
  bash ci/user_claim_check.sh "$prefix" examples/user_claim "$tmp/claim"
  # Claims with known truth, as a user writes them (issue 57): no unsound verdict.
  bash ci/soundness_check.sh "$prefix" examples/soundness_claims "$tmp/sound"
  # Claims whose witnesses random cases rarely are (issue 59): found from an
  # empty store, and every printed replay reproduces from another folder.
  bash ci/search_check.sh "$prefix" examples/search_claims "$tmp/search"
  bash tools/doc_commands_test.sh docs/adding-a-claim.md "$prefix" > "$tmp/doc.log" 2>&1 ||
    { cat "$tmp/doc.log"; fail "a command of docs/adding-a-claim.md"; }
  tail -1 "$tmp/doc.log"
  took "step $step_name"
}
lane_package() {
  step "4. the Debian package"
  (cd build/release && cpack -G DEB -B "$tmp/deb") >/dev/null
  deb=$tmp/deb/attnprop_${version}_$(dpkg --print-architecture).deb
  [ -f "$deb" ] || fail "cpack did not write $deb"
  echo "$(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"
  dpkg-deb -f "$deb" Depends | grep -q libmpfr6 || fail "the package does not declare libmpfr6"
  # Every dependency resolves, and is already installed here (dpkg -i would just work).
  apt-get install -s --no-install-recommends "$deb" > "$tmp/apt.log" || { cat "$tmp/apt.log"; fail "apt-get -s install $deb"; }
  [ "$(grep -c '^Inst ' "$tmp/apt.log")" = 1 ] || { cat "$tmp/apt.log"; fail "installing the .deb needs more packages"; }
  root=$tmp/debroot
  dpkg -x "$deb" "$root"
  [ "$("$root/usr/bin/attnprop" --version)" = "$expect_version" ] || fail "the packaged attnprop --version"
  debex=$tmp/example-deb
  cmake -S "$root/usr/share/doc/attnprop/examples/user_kernel" -B "$debex" -DCMAKE_PREFIX_PATH="$root/usr" > "$tmp/debex.log"
  grep -q "from $root/usr/lib/cmake/attnprop" "$tmp/debex.log" || { cat "$tmp/debex.log"; fail "the example did not find the packaged attnprop"; }
  cmake --build "$debex" >/dev/null
  # The packaged attnprop runs the example's tests (those of one property;
  # --full-audit: all 59, 26 s on 2 cores).
  ctest --test-dir "$debex" --output-on-failure -j2 "${deb_example_tests[@]}"
  bash ci/user_claim_check.sh "$root/usr" "$root/usr/share/doc/attnprop/examples/user_claim" "$tmp/claim-deb"
  counts=${audit_counts:-the counts of the main job}
  step "4b. the packaged attnprop's audit (source tree hidden; $counts)"
  # The packaged attnprop needs nothing from the tree it was built in: audit with
  # the source tree hidden (an empty tmpfs over it) where a mount namespace can
  # be had, and from outside it otherwise. Its store is the packaged one. The
  # audit runs as two shards side by side (this machine has 2 cores), joined by
  # `attnprop merge`: the same verdicts and report as one unsharded audit
  # (test cli.shard.merge_equals_unsharded), in half the time.
  export ATTNPROP_EXE=$root/usr/bin/attnprop AUDIT_TMP=$tmp
  sharded_audit='"$ATTNPROP_EXE" audit --shard 0/2 '$audit_counts' --out "$AUDIT_TMP/audit0" > "$AUDIT_TMP/audit0.log" 2>&1 & p=$!
  "$ATTNPROP_EXE" audit --shard 1/2 '$audit_counts' --out "$AUDIT_TMP/audit1" > "$AUDIT_TMP/audit1.log" 2>&1; r1=$?
  wait $p; r0=$?
  cat "$AUDIT_TMP/audit0.log" "$AUDIT_TMP/audit1.log"
  [ $r0 -le 1 ] && [ $r1 -le 1 ] && "$ATTNPROP_EXE" merge --out "$AUDIT_TMP/audit" "$AUDIT_TMP/audit0" "$AUDIT_TMP/audit1"'
  if unshare -m --propagation private true 2>/dev/null; then
    echo "attnprop audit (2 shards, merged) with $src hidden"
    (cd "$tmp" && unshare -m --propagation private sh -c 'mount -t tmpfs none "$0" && exec bash -c "$1"' "$src" "$sharded_audit") \
      > "$tmp/audit.log" 2>&1 || { cat "$tmp/audit.log"; fail "the packaged attnprop audit (source tree hidden)"; }
  else
    echo "attnprop audit (2 shards, merged; no mount namespace here: the source tree stays visible)"
    (cd "$tmp" && bash -c "$sharded_audit") > "$tmp/audit.log" 2>&1 || { cat "$tmp/audit.log"; fail "the packaged attnprop audit"; }
  fi
  [ "$(grep -c "^store $root/usr/share/attnprop/counterexamples " "$tmp/audit.log")" = 2 ] ||
    { head -3 "$tmp/audit.log"; fail "audit did not use the packaged store"; }
  tail -1 "$tmp/audit.log"
  for f in report.json report.md report.html junit.xml; do [ -s "$tmp/audit/$f" ] || fail "audit did not write $f"; done
  took "step $step_name"
}
took "step $step_name"
step_name=""
lane_user > "$tmp/lane-user.log" 2>&1 & user_pid=$!
lane_package > "$tmp/lane-package.log" 2>&1 & package_pid=$!
user_rc=0 package_rc=0
wait $user_pid || user_rc=$?
wait $package_pid || package_rc=$?
cat "$tmp/lane-user.log" "$tmp/lane-package.log"
[ $user_rc = 0 ] || fail "steps 2 to 3b (see above)"
[ $package_rc = 0 ] || fail "steps 4 to 4b (see above)"
step_name=""
step "install, example, planted bug and package checks passed in $((SECONDS - start)) s"
echo "== ci/test.sh: passed in $((SECONDS - begin)) s (target: under 720 s)"
