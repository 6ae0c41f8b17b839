#!/usr/bin/env bash
# Every test under AddressSanitizer + UBSan (the asan workflow preset:
# -fsanitize=address,undefined,float-cast-overflow), after the release tests
# (.ci/run). The preset compiles at -O1 -g1: -O1 is what ASan's own
# documentation recommends for speed with accurate reports, and -g1 keeps the
# line tables a sanitizer's stack trace needs, without full debug
# information (the build is the longest part of this step). Plug-ins are built
# without sanitizers: they stand for users' kernels
# (properties/abi/CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
start=$SECONDS
cmake --workflow --preset asan
echo "ci/sanitize.sh: the asan workflow passed in $((SECONDS - start)) s"
