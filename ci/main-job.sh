#!/usr/bin/env bash
# The README's main-job command: install dependencies, build the release
# preset, and run every registered property with a one-line summary each.
# Extra arguments are passed to `attnprop run` (e.g. --seed 7 --cases 500).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec build/release/tools/attnprop run "$@"
