#!/usr/bin/env bash
# Every test under AddressSanitizer + UBSan (the asan workflow preset:
# -fsanitize=address,undefined,float-cast-overflow, RelWithDebInfo), after
# the release tests (.ci/run). Plug-ins are built without sanitizers: they
# stand for users' kernels (properties/kernel_suite/CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
start=$SECONDS
cmake --workflow --preset asan
echo "ci/sanitize.sh: the asan workflow passed in $((SECONDS - start)) s"
