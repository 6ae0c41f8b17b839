#!/usr/bin/env bash
# Seeds ctest's cost data in a build tree that has none (a fresh clone), so
# that ctest starts the longest tests first and none is left to run alone at
# the end: ci/ctest-costs.txt, the tests of 0.5 s or more measured on a
# 2-core Zen 4, in ctest's own format (the order, not the values, is what
# ctest uses; after a run it keeps its own measurements there). Regenerate
# it from a release tree after a change that moves test times:
#   awk 'NF == 3 && $3 >= 0.5' build/release/Testing/Temporary/CTestCostData.txt | sort > ci/ctest-costs.txt
# (this one: the test times of a ctest -j3 run on a fresh clone, 2026-12-06)
#   bash ci/seed-ctest-costs.sh BUILD_DIR   (ci/test.sh, ci/sanitize.sh)
set -euo pipefail
costs=$1/Testing/Temporary/CTestCostData.txt
[ -f "$costs" ] || { mkdir -p "$(dirname "$costs")" && cp "$(dirname "$0")/ctest-costs.txt" "$costs"; }
