#!/usr/bin/env bash
# examples/search_claims against an installed attnprop (ci/test.sh, step 3b;
# issue 59): claims with known truth whose witnesses random cases rarely are
# (close pairs, related inputs, small temperatures), as a user writes them,
# audited from an empty store without saving. Required: every false claim
# refuted with a certificate in both backends, no true claim refuted, and
# every replay line the audit printed reproduces its refutation (exit 1)
# when run from another folder.
#   bash ci/search_check.sh PREFIX EXAMPLE_DIR SCRATCH_DIR
set -euo pipefail
prefix=$1 example=$2 scratch=$3
source "$(dirname "$0")/example_build.sh"
example_build "$prefix" "$example" "$scratch"
# A statement declared in the claim's source is what `list` shows.
"$build/search_claims" list | grep -q "|sin a^2 - sin b^2| <= 10 |a - b| for a, b in \[-16, 16\]" ||
  { "$build/search_claims" list; fail "list does not show the claim's declared statement"; }
mkdir -p "$scratch.empty"
rc=0
"$build/search_claims" audit --store "$scratch.empty" --no-save --out "$scratch.report" > "$scratch.audit.log" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$scratch.audit.log"; fail "audit exit $rc (expected 0: every verdict as known.tsv registers it)"; }
python3 - "$scratch.report/report.json" <<'PY' || { cat "$scratch.audit.log"; fail "verdicts (above)"; }
import json, re, sys
r = json.load(open(sys.argv[1]))
bad = []
for p in r["properties"]:
    name = p["id"] + "/" + p["backend"]
    # Readable counterexamples: no entry of more than 20 significant digits
    # (a double has at most 17; a rational p/q counts its longer part).
    values = "\n".join(l.split("#")[0] for l in (p.get("counterexample") or "").splitlines())
    for q in re.findall(r"-?(\d+)/(\d+)", values):
        if max(len(q[0]), len(q[1])) > 20:
            bad.append(name + ": a counterexample entry of more than 20 digits: " + "/".join(q))
    if p["expect"] == "refuted":
        if p["verdict"] != "refuted" or "certified by interval arithmetic" not in (p.get("certificate") or ""):
            bad.append(name + ": a false claim not refuted with a certificate (" + p["verdict"] + ")")
        if not p.get("replay_file"):
            bad.append(name + ": a refutation under --no-save with no replay file")
    elif p["verdict"] == "refuted":
        bad.append(name + ": a TRUE claim refuted")
for b in bad: print(b)
print(f"{len(r['properties'])} properties, {len(bad)} wrong")
sys.exit(1 if bad else 0)
PY
# Every printed replay, run from another folder, refutes again.
replays=$(sed -n 's/^ *replay: //p' "$scratch.audit.log")
[ -n "$replays" ] || { cat "$scratch.audit.log"; fail "the audit printed no replay line"; }
n=0
while IFS= read -r line; do
  rc=0
  (cd / && eval "$line") > "$scratch.replay.log" 2>&1 || rc=$?
  [ "$rc" = 1 ] || { cat "$scratch.replay.log"; fail "replay (exit $rc, expected 1) from /: $line"; }
  n=$((n + 1))
done <<< "$replays"
echo "search claims: every false claim refuted and certified, no true claim refuted, $n replays reproduce from /"
