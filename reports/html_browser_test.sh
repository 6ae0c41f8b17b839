#!/usr/bin/env bash
# report.html in a real browser (headless Chromium, Debian's `chromium`):
#  - no console message at all (the page logs nothing; any message is an
#    error), and the inline script ran to its end (the verdict table's
#    controls are shown and count the claims);
#  - at 1280 and 1920 px wide, no horizontal overflow of the page or of its
#    main tables (the verdict table, the claim tables, the kernel table);
#  - screenshots at both widths, kept in OUT for a person to look at.
# Chromium is installed here, for this check only (apt-get, as root or with
# sudo -n), never by ci/install-deps.sh; where it cannot be installed the test
# is skipped (exit 77) with the reason.
#   bash reports/html_browser_test.sh ATTNPROP OUT [REPORT.html]
# Without REPORT.html it writes one: a run with a claim that holds, a claim
# false as stated, kernel backends and unexpected results (a planted kernel
# bug, with its counterexample heatmap).
set -uo pipefail
exe=$1
out=$2
mkdir -p "$out"
skip() {
  echo "skipped: $*"
  exit 77
}

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  echo "installing chromium for this check (apt-get install chromium)"
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium > "$out/apt.log" 2>&1; then
    # The package lists may be stale on a fresh machine.
    $sudo apt-get update -qq >> "$out/apt.log" 2>&1 &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >> "$out/apt.log" 2>&1 ||
      skip "chromium could not be installed ($(tail -1 "$out/apt.log"))"
  fi
  browser=$(command -v chromium || true)
  [ -n "$browser" ] || skip "chromium installed but not on PATH"
fi
echo "browser: $("$browser" --version 2>/dev/null | head -1)"

if [ $# -ge 3 ]; then
  report=$(realpath "$3")
else
  # The planted kernel bug (lse in base 2) beside the build's other plug-ins.
  planted=$(dirname "$(realpath "$exe")")/../properties/abi/plugins/broken_lse_log2.so
  [ -f "$planted" ] || { echo "FAIL: no $planted"; exit 1; }
  "$exe" run --filter attend2.additivity --filter collapse.lemmaD.4 --filter abi.lse_values \
    --kernel "$planted" --no-store --cases 20 -q --out "$out/run" > "$out/run.log" 2>&1
  rc=$?
  [ "$rc" = 1 ] || { cat "$out/run.log"; echo "FAIL: the run should have unexpected results (exit 1), got $rc"; exit 1; }
  report=$out/run/report.html
fi
echo "report: $report ($(wc -c < "$report") bytes)"

# A copy with a probe appended: it measures the overflow and writes the
# result into the page, which --dump-dom prints.
probe=$out/probe.html
sed 's|</body>|<script>(function () {\
  var vw = document.documentElement.clientWidth, bad = [];\
  if (document.documentElement.scrollWidth > vw) bad.push("page " + document.documentElement.scrollWidth);\
  var tables = document.querySelectorAll("main table");\
  for (var i = 0; i < tables.length; i++) {\
    var r = tables[i].getBoundingClientRect();\
    if (r.right > vw + 0.5) bad.push((tables[i].id \|\| ("table " + i)) + " right " + Math.round(r.right));\
    if (bad.length > 5) break;\
  }\
  var p = document.createElement("pre");\
  p.id = "probe-result";\
  p.textContent = "probe: width " + vw + ", " + tables.length + " tables, overflow: " + (bad.length ? bad.join("; ") : "none");\
  document.body.appendChild(p);\
})();</script></body>|' "$report" > "$probe"

flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
       --enable-logging=stderr --v=0 --virtual-time-budget=3000)
fail=0
for width in 1280 1920; do
  "$browser" "${flags[@]}" --window-size=$width,1000 --dump-dom "file://$probe" > "$out/dom-$width.html" 2> "$out/console-$width.log"
  result=$(grep -o 'id="probe-result">probe: [^<]*' "$out/dom-$width.html" | head -1)
  result=${result#*>}
  echo "$width px: ${result:-no probe result}"
  [ -n "$result" ] || { echo "FAIL: the probe did not run at $width px"; fail=1; }
  [[ $result == *"overflow: none" ]] || { echo "FAIL: horizontal overflow at $width px"; fail=1; }
  # The page's own script: the controls are shown and count the claims.
  grep -q '<div id="controls">' "$out/dom-$width.html" && grep -qE 'id="shown">[0-9]+ of [0-9]+ claims shown' "$out/dom-$width.html" ||
    { echo "FAIL: the inline script did not run to its end at $width px"; fail=1; }
  if grep -E 'CONSOLE|Uncaught' "$out/console-$width.log"; then
    echo "FAIL: console messages at $width px (above)"
    fail=1
  fi
  "$browser" "${flags[@]}" --window-size=$width,2400 --screenshot="$out/report-$width.png" "file://$report" \
    > /dev/null 2>> "$out/console-$width.log"
  [ -s "$out/report-$width.png" ] && echo "screenshot: $out/report-$width.png" || { echo "FAIL: no screenshot"; fail=1; }
done
# The filter (issue 33) finds claims by words of their statements and
# sections, not only by what a row shows, and says so when nothing matches.
python3 - "$report" "$out/filter.html" <<'PY'
import sys
page = open(sys.argv[1]).read()
probe = """<script>(function () {
  var q = document.getElementById('q'), rows = document.getElementById('verdicts').tBodies[0].rows, out = [];
  function shown(text) {
    q.value = text;
    q.dispatchEvent(new Event('input'));
    var ids = [];
    for (var i = 0; i < rows.length; i++) if (rows[i].style.display !== 'none') ids.push(rows[i].cells[0].textContent);
    return text + ' => ' + ids.join(',') + ' (' + document.getElementById('shown').textContent + ')';
  }
  out.push(shown('natural log'), shown('Lemma D.4'), shown('zzzqqq'));
  var p = document.createElement('pre');
  p.id = 'filter-result';
  p.textContent = out.join('\\n');
  document.body.appendChild(p);
})();</script></body>"""
open(sys.argv[2], "w").write(page.replace("</body>", probe))
PY
"$browser" "${flags[@]}" --window-size=1280,1000 --dump-dom "file://$out/filter.html" > "$out/dom-filter.html" 2> "$out/console-filter.log"
filter=$(python3 -c 'import html, re, sys; m = re.search(r"id=\"filter-result\">([^<]*)", open(sys.argv[1]).read()); print(html.unescape(m.group(1)) if m else "")' "$out/dom-filter.html")
echo "$filter"
if [ $# -lt 3 ]; then
  grep -q '^natural log => abi.lse_values (1 of ' <<< "$filter" &&
    grep -q '^Lemma D.4 => collapse.lemmaD.4 (1 of ' <<< "$filter" &&
    grep -q '^zzzqqq =>  (no claim matches "zzzqqq")$' <<< "$filter" ||
    { echo "FAIL: the filter does not find claims by their statements and sections"; fail=1; }
fi
[ "$fail" = 0 ] && echo "report.html: no console message, no horizontal overflow at 1280 and 1920 px; the filter searches statements"
exit $fail
