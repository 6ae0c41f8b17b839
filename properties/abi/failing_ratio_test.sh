#!/usr/bin/env bash
# No failing property reports a ratio of 0 (issue 33): on the planted kernel
# bugs, every refuted property's metrics carry the refuting case's ratio
# (> 1, or non-finite), or it has no metric at all (a check with no
# magnitude, shown as "-"). It reads the report.json that each
# plugins.cli.check.broken_<name> test wrote (its fixture): the same
# check-kernel run, not a second one.
#   bash failing_ratio_test.sh REPORTS_DIR NAME...
set -uo pipefail
dir=$1
shift
fail=0
for plugin in "$@"; do
  [ -s "$dir/$plugin/report.json" ] || { echo "$plugin: no $dir/$plugin/report.json"; fail=1; continue; }
  python3 - "$dir/$plugin/report.json" "$plugin" <<'PY' || fail=1
import json, sys
report, plugin = json.load(open(sys.argv[1])), sys.argv[2]
refuted = [p for p in report["properties"] if p["verdict"] == "refuted"]
bad = []
for p in refuted:
    ratios = [m.get("max_ratio") for m in p["metrics"]]
    if ratios and not any(r is None or r > 1 for r in ratios):  # null: non-finite
        bad.append(f'{p["id"]}/{p["backend"]}: max ratios {ratios}')
print(f"{plugin}: {len(refuted)} refuted, {len(bad)} with no failing ratio")
for b in bad:
    print("  " + b)
sys.exit(1 if bad or not refuted else 0)
PY
done
exit $fail
