#!/usr/bin/env bash
# No failing property reports a ratio of 0 (issue 33): on planted kernel
# bugs, every refuted property's metrics carry the refuting case's ratio
# (> 1, or non-finite), or it has no metric at all (a check with no
# magnitude, shown as "-").
#   bash failing_ratio_test.sh ATTNPROP PLUGIN_DIR
set -uo pipefail
exe=$1 dir=$2
tmp=$(mktemp -d /tmp/attnprop-ratio.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
for plugin in broken_causal_topleft broken_nomax broken_lse_log2 broken_empty_rows broken_crude_exp broken_tail8; do
  "$exe" check-kernel "$dir/$plugin.so" --no-store --cases 10 --search 0 --shrink-budget 0.1 --out "$tmp/$plugin" \
    > "$tmp/$plugin.log" 2>&1
  python3 - "$tmp/$plugin/report.json" "$plugin" <<'PY' || fail=1
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
