#!/usr/bin/env bash
# The ABI's traceability (issue 34): every clause tag [abi:NAME] of
# kernels/attnprop_kernel.h has a row in docs/kernels.md's table, every row
# a tag, and every row names at least one property, each name in its
# "checked by" column being a registered property id (attnprop list) or a
# ctest test of this build.
#   bash kernels/abi_trace_test.sh ATTNPROP HEADER DOC BUILD_DIR
set -uo pipefail
exe=$1 header=$2 doc=$3 build=$4
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tags=$(grep -o '\[abi:[a-z0-9_]*\]' "$header" | tr -d '[]' | sort -u)
rows=$(grep -E '^\| `abi:[a-z0-9_]+` \|' "$doc")
ids=$("$exe" list | awk 'NR > 1 {print $1}' | sed 's|/.*||' | sort -u)
tests=$(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p' | sort -u)
[ -n "$tags" ] || bad "no [abi:...] tag in $header"
[ -n "$ids" ] && [ -n "$tests" ] || bad "no property or test list"
for t in $tags; do
  grep -qE "^\\| \`$t\` \\|" <<< "$rows" || bad "$t ($header) has no row in $doc"
done
while IFS= read -r row; do
  tag=$(sed -E 's/^\| `(abi:[a-z0-9_]+)`.*/\1/' <<< "$row")
  grep -qx "$tag" <<< "$tags" || bad "the row $tag names no clause of $header"
  checked=${row##*|}
  [ -z "${checked// /}" ] && checked=$(awk -F'|' '{print $(NF-1)}' <<< "$row")
  properties=0
  for name in $(grep -o '`[^`]*`' <<< "$checked" | tr -d '`'); do
    if grep -qx "$name" <<< "$ids"; then properties=$((properties + 1))
    elif ! grep -qxF "$name" <<< "$tests"; then bad "$tag: '$name' is neither a property nor a test"
    fi
  done
  # The loader's clause (versions) is checked on every load, by tests.
  [ "$properties" -gt 0 ] || [ "$tag" = abi:version ] || bad "$tag: no property checks it"
done <<< "$rows"
[ "$fail" = 0 ] && echo "$(wc -w <<< "$tags") clauses of $(basename "$header"), each checked by the properties docs/kernels.md names"
exit $fail
