#!/usr/bin/env bash
# The findings on an adapted attention (adapters/torch, adapters/onednn), checked: `attnprop check-kernel` on
# the adapter (its pinned counterexamples first, then the random cases of the
# fixed seed), and the verdict of every property compared with findings.tsv.
# Any difference fails the test, in either direction: a property listed as
# failing that now holds (torch or the adapter changed, or the finding was
# wrong), one listed as holding that now fails, a property missing from the
# list or listed but not run, an error verdict. `skipped` (a backend the
# adapter has no entry point for) is a verdict of its own, listed as such.
# The run's own exit status is not the test's: check-kernel exits 1 whenever
# some property fails, which is what findings.tsv may say. A property listed
# as failing must have its counterexample pinned in PINNED_STORE, and
# `attnprop reproduce` of that file must exit 1.
# FINDINGS_CPU_FLAG=flag: findings of a code path that needs that CPU flag
# (/proc/cpuinfo); without it the test is skipped (exit 77), with the reason.
#   check_findings.sh ATTNPROP ADAPTER.so FINDINGS.tsv PINNED_STORE OUT_DIR [check-kernel args...]
set -euo pipefail
exe=$1 adapter=$2 findings=$3 pinned=$4 out=$5
shift 5
if [ -n "${FINDINGS_CPU_FLAG:-}" ] && ! grep -qw "$FINDINGS_CPU_FLAG" /proc/cpuinfo; then
  echo "not run here: this CPU has no $FINDINGS_CPU_FLAG, which $(basename "$findings") is about"
  exit 77
fi
rm -rf "$out"
mkdir -p "$out"
# A copy of the pinned store: new counterexamples are saved into the copy
# (the run prints the replay command naming it), never into the source tree.
cp -r "$pinned" "$out/store"
rc=0
"$exe" check-kernel "$adapter" --store "$out/store" --json "$out/report.json" "$@" > "$out/log" 2>&1 || rc=$?
cat "$out/log"
if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
  echo "FAIL: attnprop check-kernel exited $rc (0 or 1 expected: every property ran to a verdict)"
  exit 1
fi
python3 - "$out/report.json" "$findings" "$exe" "$adapter" "$pinned" <<'PY'
import json, os, subprocess, sys
report, findings, exe, adapter, pinned = sys.argv[1:]
expected = {}
for n, line in enumerate(open(findings), 1):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    f = line.split("\t")
    if len(f) < 3 or f[1] not in ("holds", "fails", "skipped"):
        sys.exit(f"{findings}:{n}: want 'id/backend<TAB>holds|fails|skipped<TAB>why', got {line!r}")
    if f[0] in expected:
        sys.exit(f"{findings}:{n}: {f[0]} listed twice")
    expected[f[0]] = f[1]
got = {}
for p in json.load(open(report))["properties"]:
    v = p["verdict"]
    got[f"{p['id']}/{p['backend']}"] = {"holds": "holds", "refuted": "fails"}.get(v, v)
bad = []
for name in sorted(set(expected) | set(got)):
    e, g = expected.get(name), got.get(name)
    if e != g:
        bad.append(f"  {name}: {os.path.basename(findings)} says {e or '(not listed)'}, the run says {g or '(not run)'}")
n_fail = sum(1 for v in got.values() if v == "fails")
n_skip = sum(1 for v in got.values() if v == "skipped")
# Each pinned counterexample's replay command (the one the README shows)
# reproduces the failure: exit 1.
for name, verdict in sorted(expected.items()):
    store_file = os.path.join(pinned, name.split("/")[0] + ".txt")
    if verdict != "fails":
        continue
    if not os.path.exists(store_file):
        bad.append(f"  {name}: listed as failing, but {store_file} pins no counterexample")
        continue
    r = subprocess.run([exe, "reproduce", name, "--kernel", adapter, store_file], capture_output=True, text=True)
    if r.returncode != 1:
        bad.append(f"  {name}: attnprop reproduce {name} --kernel {adapter} {store_file} exited {r.returncode}, "
                   f"expected 1 (the pinned case refutes)\n{r.stdout}{r.stderr}")
    else:
        print(f"replayed: attnprop reproduce {name} --kernel {adapter} {store_file}: exit 1 (refutes)")
if bad:
    print(f"FAIL: {len(bad)} verdict(s) differ from {findings}:")
    print("\n".join(bad))
    sys.exit(1)
print(f"OK: all {len(got)} verdicts as in {os.path.basename(findings)} ({len(got) - n_fail - n_skip} hold, {n_fail} fail, {n_skip} skipped)")
PY
