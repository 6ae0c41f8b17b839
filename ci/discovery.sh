#!/usr/bin/env bash
# Discovery over seeds: from an empty store, at the audit's default search
# budget, which claims registered refuted does attnprop find, per backend?
#   bash ci/discovery.sh [ATTNPROP] [SEED...]      (default: build/release/tools/attnprop, seeds 1 2 3 4 5)
# Prints one row per claim and backend with the seeds that found it (by
# random cases or the search) and the fraction; exit 1 if any seed missed
# any. ctest's `discovery` label checks the default seed (tools/CMakeLists.txt);
# this is its deep command (about 10 s per seed on 2 cores).
set -euo pipefail
exe=${1:-build/release/tools/attnprop}
shift || true
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5)
tmp=$(mktemp -d /tmp/attnprop-discovery.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/empty"
for s in "${seeds[@]}"; do
  "$exe" audit --expect refuted --seed "$s" --store "$tmp/empty" --no-save --out "$tmp/seed-$s" -q > "$tmp/seed-$s.log" 2>&1 || true
  [ -s "$tmp/seed-$s/report.json" ] || { cat "$tmp/seed-$s.log"; echo "ci/discovery.sh: seed $s wrote no report" >&2; exit 2; }
done
python3 - "$tmp" "${seeds[@]}" <<'PY'
import json, sys
tmp, seeds = sys.argv[1], sys.argv[2:]
found, order = {}, []
for s in seeds:
    for p in json.load(open(f"{tmp}/seed-{s}/report.json"))["properties"]:
        key = (p["id"], p["backend"])
        if key not in found:
            found[key] = {}
            order.append(key)
        found[key][s] = p["found_by"] if p["verdict"] == "refuted" else "MISSED"
missed = 0
print(f"{'claim':52} {'backend':9} {'found':>6}  per seed (" + ", ".join(seeds) + ")")
for key in order:
    per = found[key]
    hits = sum(1 for s in seeds if per.get(s, "MISSED") != "MISSED")
    missed += hits < len(seeds)
    print(f"{key[0]:52} {key[1]:9} {hits}/{len(seeds):<4}  " + " ".join(per.get(s, "-") for s in seeds))
print(f"{len(order)} claim-backends over {len(seeds)} seeds: {missed} missed by some seed")
sys.exit(1 if missed else 0)
PY
