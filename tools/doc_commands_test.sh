#!/usr/bin/env bash
# Runs every command of a document's ```sh blocks, in order, in one shell in
# a scratch directory, and checks each one's exit status: 0, or the N of a
# trailing `# exit N` comment. Used for docs/adding-a-claim.md (ci/test.sh),
# so that the guide's commands stay true.
#   bash tools/doc_commands_test.sh DOC.md ATTNPROP_PREFIX
# ATTNPROP_PREFIX is exported to the commands (an installed attnprop: the
# guide's commands name it so, /usr for the Debian package). A line ending in
# a backslash continues on the next.
set -uo pipefail
doc=$(realpath "$1")
export ATTNPROP_PREFIX=$(realpath "$2")
tmp=$(mktemp -d /tmp/attnprop-doc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
script=$tmp/commands.sh
python3 - "$doc" > "$script" <<'PY'
import re, shlex, sys
lines, block, cont = [], False, ""
for raw in open(sys.argv[1], encoding="utf-8"):
    line = raw.rstrip("\n")
    if line.startswith("```"):
        block = (line.strip() == "```sh") if not block else False
        continue
    if not block or not line.strip():
        continue
    if line.endswith("\\"):
        cont += line[:-1] + " "
        continue
    lines.append(cont + line)
    cont = ""
print("fail=0; n=0")
for cmd in lines:
    m = re.search(r"#\s*exit\s+(\d+)\s*$", cmd)
    want = m.group(1) if m else "0"
    print(f"n=$((n+1)); echo \"\\$ \"{shlex.quote(cmd)}")
    print(f"{{ {cmd}\n}} > \"$DOC_LOG\" 2>&1; rc=$?; tail -n 15 \"$DOC_LOG\"")
    print(f"if [ $rc != {want} ]; then echo \"FAIL: exit $rc, expected {want}: \"{shlex.quote(cmd)}; fail=1; fi")
print('echo "$n commands run"; exit $fail')
PY
[ -s "$script" ] || { echo "no commands in $doc"; exit 1; }
cd "$tmp" && DOC_LOG=$tmp/last.log bash "$script"
