#!/usr/bin/env bash
# check-kernel's diagnosis in the report files (issue 14): on one planted
# bug, report.json's "diagnosis" names its class and ranks the property that
# points at it first, report.md and report.html open with a Diagnosis
# section, junit.xml's first-ranked failure message starts with the class;
# and a 2-way sharded run merged has the unsharded diagnosis (merge
# recomputes it over the joined shards).
#   diagnosis_report_test.sh ATTNPROP PLUGIN OUT_DIR CLASS TOP_ID [check-kernel args...]
set -euo pipefail
exe=$1 plugin=$2 out=$3 class=$4 top=$5
shift 5
rm -rf "$out"
run() {  # exit 1 expected: the plug-in is broken
  local rc=0
  "$exe" check-kernel "$plugin" --no-store -q "$@" > "$out/log" 2>&1 || rc=$?
  if [ "$rc" != 1 ]; then cat "$out/log"; echo "FAIL: check-kernel $* exited $rc, expected 1"; exit 1; fi
}
mkdir -p "$out"
run "$@" --out "$out/whole"
for i in 0 1; do run "$@" --shard $i/2 --out "$out/shard-$i"; done
"$exe" merge -q --out "$out/merged" "$out/shard-0" "$out/shard-1" || [ $? = 1 ]

python3 - "$out" "$class" "$top" <<'PY'
import json, re, sys
out, cls, top = sys.argv[1:]
fail = []
def check(ok, what):
    if not ok: fail.append(what)
def diag(d):
    return json.load(open(f"{out}/{d}/report.json"))["diagnosis"]
d = diag("whole")
check(d is not None, "report.json has no diagnosis")
if d:
    check(d["bug_class"] == cls, f"bug_class {d['bug_class']!r}, expected {cls!r}")
    check(d["ranked"] and d["ranked"][0]["id"] == top, f"ranked first {d['ranked'][:1]}, expected {top}")
    check([r["rank"] for r in d["ranked"]] == list(range(1, len(d["ranked"]) + 1)), "ranks not 1..n")
    check(all(1 <= r["group"] <= d["groups"] for r in d["ranked"]), "a group outside 1..groups")
    check(diag("merged") == d, f"merged diagnosis {diag('merged')} differs from the unsharded {d}")
md = open(f"{out}/whole/report.md").read()
check(f"## Diagnosis\n\n**Bug class: {cls}**" in md, "report.md: no Diagnosis section naming the class")
check(md.find("## Diagnosis") < md.find("## Summary") < md.find("## Verdicts"), "report.md: Diagnosis not first")
html = open(f"{out}/whole/report.html").read()
check(html.find('<h2 id="diagnosis">') < html.find('<h2 id="summary">') and 'id="diagnosis"' in html,
      "report.html: Diagnosis section not first")
check(f"Bug class: {cls}".replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in html,
      "report.html: class not named")
junit = open(f"{out}/whole/junit.xml").read()
first = d["ranked"][0] if d and d["ranked"] else {"id": top, "backend": ""}
m = re.search(r'<testcase classname="%s" name="%s"[^>]*>\s*<failure message="diagnosis: ([^;"]*);'
              % (re.escape(first["id"]), re.escape(first["backend"])), junit)
check(m and m.group(1) == cls.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"),
      "junit.xml: the first-ranked testcase's failure message does not start with the class")
for f in fail: print("FAIL:", f)
if fail: sys.exit(1)
print(f"diagnosis in every report: {cls!r}, first {top}, {len(d['ranked'])} failing in {d['groups']} group(s);"
      " merged shards agree")
PY
