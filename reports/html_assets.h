// report.html's inline style sheet and script (internal to reports/). The
// script only filters and sorts the verdict table; the page reads the same
// without it (its controls stay hidden), and nothing is loaded from
// anywhere.
#pragma once

namespace attnprop::report {

inline constexpr const char* kHtmlStyle = R"css(
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:14px 24px}
header h1{margin:0 0 4px;font-size:21px}
header .banner{font-family:ui-monospace,monospace;font-size:12px;opacity:.85;overflow-wrap:anywhere}
.wrap{display:flex;align-items:flex-start}
nav{position:sticky;top:0;flex:0 0 200px;max-height:100vh;overflow-y:auto;padding:12px 8px 12px 16px;font-size:13px}
nav a{display:block;color:#1d4f91;text-decoration:none;padding:1px 0}
nav a.sub{padding-left:12px}
main{flex:1 1 auto;min-width:0;padding:4px 24px 40px 8px;max-width:1500px}
h2{margin-top:28px;border-bottom:1px solid #d6dae1;padding-bottom:4px}
h3{margin:0 0 4px;font-size:15px}
.headline{font-size:18px;font-weight:600}
.cards{display:flex;gap:10px;flex-wrap:wrap}
.card{background:#fff;border:1px solid #d6dae1;border-radius:6px;padding:8px 14px;min-width:100px}
.card b{display:block;font-size:20px}
table{border-collapse:collapse;background:#fff;font-size:12.5px;width:100%}
th,td{border:1px solid #d6dae1;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
td code{overflow-wrap:anywhere}
th{background:#eef0f4}
#verdicts th{cursor:pointer}
#verdicts td:first-child code{white-space:nowrap;overflow-wrap:normal}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code,pre{font-family:ui-monospace,monospace;font-size:12px}
pre{background:#fff;border:1px solid #d6dae1;padding:6px;overflow-x:auto;margin:4px 0;max-height:320px}
a{color:#1d4f91}
.ok{color:#1a7f37}.bad{color:#c62828;font-weight:600}
.b{white-space:nowrap;display:inline-block;padding:0 5px;margin:1px 2px 1px 0;border-radius:3px;font-size:11px;border:1px solid}
.b.ok{border-color:#1a7f37;color:#1a7f37}.b.xf{border-color:#8a5a00;color:#8a5a00}
.b.bad{border-color:#c62828;background:#c62828;color:#fff}.b.sk{border-color:#9aa3af;color:#6b7280}
.s{white-space:nowrap;font-size:12px;font-weight:600;padding:1px 6px;border-radius:3px;color:#fff}
.s.holds{background:#1a7f37}.s.false{background:#8a5a00}.s.unexpected{background:#c62828}.s.skipped{background:#6b7280}
.flag{display:inline-block;padding:0 5px;border-radius:3px;font-size:11px;font-weight:600;color:#fff;margin-right:3px}
.flag.FAIL,.flag.NONFINITE{background:#c62828}.flag.LOOSE{background:#b26a00}.flag.UNJUSTIFIED{background:#6a3fb5}
.note{color:#555;max-width:900px}
.claim{background:#fff;border:1px solid #d6dae1;border-radius:6px;padding:8px 12px;margin:10px 0}
.claim .st{margin:2px 0 4px;font-size:14px}
.claim .meta{margin:0 0 6px;color:#555;font-size:12px;overflow-wrap:anywhere}
.claim table{font-size:12px}
.claim ul{margin:4px 0;padding-left:20px;font-size:12px;color:#444}
details summary{cursor:pointer;font-size:12.5px}
.sp{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:11px;color:#3b6fb6;white-space:pre;letter-spacing:-1px;border-bottom:1px solid #ccc;cursor:help}
.sp i{font-style:normal;color:#9aa3af}.sp b{font-weight:normal;color:#c62828}
.grid{display:flex;flex-wrap:wrap;gap:10px}
.fig{background:#fff;border:1px solid #d6dae1;border-radius:6px;padding:6px 8px}
.fig .cap{font-size:12px;max-width:220px}
table.docs{width:auto;margin-top:10px}
#controls{margin:6px 0;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
#controls[hidden]{display:none}
@media (max-width:900px){.wrap{display:block}nav{position:static;max-height:none}}
)css";

inline constexpr const char* kHtmlScript = R"js(
(function () {
  var table = document.getElementById('verdicts');
  if (!table) return;
  var body = table.tBodies[0], query = document.getElementById('q'), status = document.getElementById('st');
  var shown = document.getElementById('shown');
  function apply() {
    var text = query.value.toLowerCase(), want = status.value, n = 0;
    for (var i = 0; i < body.rows.length; i++) {
      var row = body.rows[i];
      var hay = (row.textContent + ' ' + (row.getAttribute('data-text') || '')).toLowerCase();
      var ok = (!text || hay.indexOf(text) >= 0) &&
               (!want || row.getAttribute('data-status') === want);
      row.style.display = ok ? '' : 'none';
      n += ok ? 1 : 0;
    }
    shown.textContent = n ? n + ' of ' + body.rows.length + ' claims shown'
                          : 'no claim matches "' + query.value + '"' + (want ? ' with status ' + want : '');
  }
  function key(cell) {
    var v = cell.getAttribute('data-v'), t = cell.textContent;
    if (v !== null) return parseFloat(v);
    return /\bn\b/.test(cell.className) && !isNaN(parseFloat(t)) ? parseFloat(t) : t.toLowerCase();
  }
  var direction = {};
  function sortBy(k) {
    var rows = Array.prototype.slice.call(body.rows), d = direction[k] = -(direction[k] || -1);
    rows.sort(function (a, b) {
      var x = key(a.cells[k]), y = key(b.cells[k]);
      return (x < y ? -1 : x > y ? 1 : 0) * d;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  var heads = table.tHead.rows[0].cells;
  for (var k = 0; k < heads.length; k++)
    heads[k].addEventListener('click', sortBy.bind(null, k));
  query.addEventListener('input', apply);
  status.addEventListener('change', apply);
  document.getElementById('controls').hidden = false;
  apply();
})();
)js";

}  // namespace attnprop::report
