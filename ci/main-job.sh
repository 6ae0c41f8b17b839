#!/usr/bin/env bash
# The README's main-job command: install dependencies, build the release
# preset, then `attnprop audit`: every registered property (stored
# counterexamples first) with the tolerance audit, writing report.json,
# report.md, report.html and junit.xml into the output directory.
#   bash ci/main-job.sh [--out DIR] [other `attnprop audit` options]
# The output directory defaults to build/report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
out=build/report
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--out" ] && [ $# -ge 2 ]; then out="$2"; shift 2; else args+=("$1"); shift; fi
done
exec build/release/tools/attnprop audit --out "$out" "${args[@]}"
