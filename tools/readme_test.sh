#!/usr/bin/env bash
# Runs every attnprop and ctest command shown in the code blocks of README.md
# and the docs/ pages and checks its exit status; checks that every ctest
# label the docs name is on at least one test.
#   bash tools/readme_test.sh README.md[:docs/PAGE.md...] BUILD_DIR SOURCE_DIR
# (the pages as one colon-separated argument; "the README" below is all of them)
#
# The commands are the README's lines, in a scratch directory laid out like
# the source tree (build/release -> BUILD_DIR, tools/ and properties/ from
# the source, path/to/libmykernel.so a copy of the reference kernel plug-in),
# so relative paths resolve as written and nothing is written into the tree.
# Three things are changed, and only these:
#  - `ctest --test-dir build/release` runs against a scratch test directory
#    that includes BUILD_DIR (a nested ctest must not overwrite the outer
#    ctest's Testing/ logs); commands that would run many tests get -N
#    (they list them; the label or regex must select at least one);
#  - a reproduce token shown as "reproduce=BQCblNGd1JX..." is replaced by a
#    real token (RapidCheck tokens change with the generators);
#  - commands that run everything (a whole audit: minutes) are narrowed with
#    the extra arguments in the table's second column;
#  - a command of the sharding recipe that names the job's shard as $I runs
#    once per job, I = 0, 1, 2, 3 (the stores the jobs leave, store-$I, are
#    copies of the repository's: nothing new, so nothing is written into it).
# The table below lists each README command with the exit status expected; a
# README command not in the table, or a table line not in the README, fails
# the test, so the two stay in step.
set -uo pipefail
IFS=: read -r -a pages <<< "$1"
readme=()
for p in "${pages[@]}"; do readme+=("$(realpath "$p")"); done
build=$(realpath "$2")
src=$(realpath "$3")
plugins=$build/properties/abi/plugins
tmp=$(mktemp -d /tmp/attnprop-readme.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}

# exit status <TAB> arguments appended ("-": none) <TAB> the command as in the README
table=$(cat <<'EOF'
0	-N	ctest --test-dir build/release -N
0	-N	ctest --test-dir build/release -R '^attend2\.'
0	-N	ctest --test-dir build/release -L mpfr
0	-N	ctest --test-dir build/release -L torch
0	-N	ctest --test-dir build/release -L onednn
0	-N	ctest --test-dir build/release -R '@avx2$'
0	-	RC_PARAMS="reproduce=BQCblNGd1JX..." ctest --test-dir build/release -R '^collapse.lemmaD.4/double$' --output-on-failure
1	-	build/release/tools/attnprop reproduce collapse.lemmaD.4/double reproduce=BQCblNGd1JX...
0	-	build/release/tools/attnprop reproduce attend2.additivity tools/testdata/additivity_case.txt
0	-	build/release/tools/attnprop reproduce collapse.lemmaD.4
0	-	build/release/tools/attnprop reproduce abi.lse_values/kernel-f32 --kernel path/to/libmykernel.so attnprop-counterexamples/kernels/libmykernel/abi.lse_values.txt
0	--filter collapse.lemmaD.4	build/release/tools/attnprop run --store empty-store --create-store --no-save --search 300
0	-	build/release/tools/attnprop list
0	-	build/release/tools/attnprop list --gaps
0	-	build/release/tools/attnprop list --json
0	-	build/release/tools/attnprop run --filter attend2.additivity
0	--cases 10	build/release/tools/attnprop run --filter 'lecture4.prop3.1.*' --exclude '*/mpfr' --exclude '*@avx*'
0	-	build/release/tools/attnprop run --filter=abi.lse_values/kernel-f32 --cases=20 -q
0	--filter attend2.additivity --no-save	build/release/tools/attnprop audit --out build/report
0	-	build/release/tools/attnprop run --rerun-failed --out build/report
2	-	build/release/tools/attnprop run --store no-such-store
0	-	build/release/tools/attnprop --version
0	-	build/release/tools/attnprop check-kernel path/to/libmykernel.so --cases 20 --out build/kernel-report
0	--filter abi.lse_values --no-save	build/release/tools/attnprop audit --kernel path/to/libmykernel.so
0	-	attnprop reproduce 'abi.lse_values/kernel-f32' --kernel 'path/to/libmykernel.so' 'attnprop-counterexamples/kernels/libmykernel/abi.lse_values.txt'
0	-	attnprop --version
0	--filter attend2.additivity --no-save	build/release/tools/attnprop audit --deep --shard $I/4 --out shard-$I
0	-	build/release/tools/attnprop merge --out build/report shard-0 shard-1 shard-2 shard-3
0	-	build/release/tools/attnprop store merge --into properties/counterexamples store-0 store-1 store-2 store-3
EOF
)

# The README's commands: lines of code blocks (fenced, except ```text blocks,
# which show output; or indented by 4+) that start with attnprop, build/release/tools/attnprop, RC_PARAMS= or
# `ctest --test-dir build/release`; a trailing "  # comment" is dropped.
# (Other commands - the install, the example kernel, the package - are run
# by ci/test.sh.)
shown=$(awk 'FNR == 1 { fenced = 0 }
             /^ *```/ { if (fenced) { fenced = 0 } else { fenced = 1; output = /```text/ } next }
             (fenced && !output) || (!fenced && /^    /) { print }' "${readme[@]}" |
  sed -e 's/^ *//' -e 's/ \{2,\}# .*$//' -e 's/ *$//' |
  grep -E '^(attnprop |build/release/tools/attnprop( |$)|RC_PARAMS=|ctest --test-dir build/release)' | sort -u)
listed=$(printf '%s\n' "$table" | cut -f3 | sort -u)
while IFS= read -r c; do
  [ -n "$c" ] && ! grep -qxF -- "$c" <<< "$listed" && bad "README command not in tools/readme_test.sh's table: $c"
done <<< "$shown"
while IFS= read -r c; do
  ! grep -qxF -- "$c" <<< "$shown" && bad "table line not (or no longer) in the README: $c"
done <<< "$listed"

# The scratch tree.
work=$tmp/work
mkdir -p "$work/build" "$work/path/to" "$tmp/ctest" "$tmp/broken"
ln -s "$build" "$work/build/release"
ln -s "$src/tools" "$work/tools"
ln -s "$src/properties" "$work/properties"
cp "$plugins/reference.so" "$work/path/to/libmykernel.so"
for i in 0 1 2 3; do cp -r "$src/properties/counterexamples" "$work/store-$i"; done
printf 'subdirs("%s")\n' "$build" > "$tmp/ctest/CTestTestfile.cmake"
exe=$build/tools/attnprop
# A kernel's stored case (the README's replay of one): the counterexample a
# broken build of libmykernel.so left, replayed against the fixed one.
cp "$plugins/broken_lse_log2.so" "$tmp/broken/libmykernel.so"
(cd "$work" && "$exe" check-kernel "$tmp/broken/libmykernel.so" --filter abi.lse_values/kernel-f32 --cases 20 \
  --store attnprop-counterexamples/kernels/libmykernel --create-store > "$tmp/broken.log" 2>&1)
[ -f "$work/attnprop-counterexamples/kernels/libmykernel/abi.lse_values.txt" ] ||
  { cat "$tmp/broken.log"; bad "the broken kernel left no stored case"; }
# A real reproduce token of a refuted claim.
"$exe" run --filter collapse.lemmaD.4/double --no-store --cases 100 -q --out "$tmp/token" > /dev/null 2>&1
token=$(sed -n 's/.*"reproduce": "\(reproduce=[^"]*\)".*/\1/p' "$tmp/token/report.json" | head -1)
[ -n "$token" ] || bad "no reproduce token for collapse.lemmaD.4/double"

n=0
while IFS=$'\t' read -r want extra cmd; do
  run=$cmd
  run=${run//reproduce=BQCblNGd1JX.../$token}
  run=${run//ctest --test-dir build\/release/ctest --test-dir $tmp\/ctest}
  [[ $run == attnprop\ * ]] && run="build/release/tools/attnprop ${run#attnprop }"
  [ "$extra" != "-" ] && run="$run $extra"
  rc=0
  if [[ $cmd == *'$I'* ]]; then  # one job of the sharding recipe each
    for i in 0 1 2 3; do
      [ "$rc" = 0 ] && { (cd "$work" && I=$i bash -c "$run") > "$tmp/out.log" 2>&1 || rc=$?; }
    done
  else
    (cd "$work" && bash -c "$run") > "$tmp/out.log" 2>&1 || rc=$?
  fi
  n=$((n + 1))
  if [ "$rc" != "$want" ]; then
    tail -20 "$tmp/out.log"
    bad "exit $rc, expected $want: $cmd${extra/#-/}"
  else
    echo "ok (exit $rc): $cmd"
  fi
  if [[ $cmd == ctest* ]] && ! grep -qE 'Total Tests: [1-9]|tests passed' "$tmp/out.log"; then
    cat "$tmp/out.log"
    bad "selects no test: $cmd"
  fi
done <<< "$table"

# Every label the README names ("Labels (a closed vocabulary): `a`, `b` ...")
# is on at least one test.
labels=$(awk '/^Labels \(a closed vocabulary\)/ { on = 1 } on && /^$/ { on = 0 } on' "${readme[@]}" |
  grep -oE '`[a-z0-9-]+`' | tr -d '`' | sort -u)
[ -n "$labels" ] || bad "no label list found in the README"
for l in $labels; do
  count=$(ctest --test-dir "$tmp/ctest" -N -L "^$l\$" | sed -n 's/^Total Tests: //p')
  [ "${count:-0}" -gt 0 ] || bad "the README's label '$l' is on no test"
done
echo "$n README commands run; labels checked: $(echo $labels | tr '\n' ' ')"
exit $fail
