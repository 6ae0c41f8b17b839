#!/usr/bin/env bash
# examples/soundness_claims against an installed attnprop (ci/test.sh, step
# 3b; issue 57): claims with known truth, as a user writes them, run by ctest
# from an empty store. Sound means: every false claim is refuted with a
# certificate in both backends, no true claim is refuted, and the false claim
# no enclosure decides is UNDECIDED, not green.
#   bash ci/soundness_check.sh PREFIX EXAMPLE_DIR SCRATCH_DIR
set -euo pipefail
prefix=$1 example=$2 scratch=$3
source "$(dirname "$0")/example_build.sh"
example_build "$prefix" "$example" "$scratch"
mkdir -p "$scratch.empty"
rc=0
"$build/sound" audit --store "$scratch.empty" --no-save --out "$scratch.report" > "$scratch.audit.log" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$scratch.audit.log"; fail "audit exit $rc (expected 1: the undecided false claim)"; }
python3 - "$scratch.report/report.json" <<'PY' || { cat "$scratch.audit.log"; fail "unsound verdicts (above)"; }
import json, sys
r = json.load(open(sys.argv[1]))
bad = []
for p in r["properties"]:
    name = p["id"] + "/" + p["backend"]
    if p["expect"] == "refuted" and p["id"] != "sound.equal_logits_distinct_weights":
        if p["verdict"] != "refuted" or not p["as_expected"] or "certified by interval arithmetic" not in (p.get("certificate") or ""):
            bad.append(name + ": a false claim not refuted with a certificate (" + p["verdict"] + ")")
    elif p["expect"] == "refuted":
        if p["verdict"] in ("holds",) or p["as_expected"]:
            bad.append(name + ": a false claim green (" + p["verdict"] + ")")
    elif p["verdict"] == "refuted":
        bad.append(name + ": a TRUE claim refuted")
for b in bad: print(b)
print(f"{len(r['properties'])} properties, {len(bad)} unsound")
sys.exit(1 if bad else 0)
PY
echo "soundness claims: every false claim refuted and certified, no true claim refuted, the undecided one not green"
