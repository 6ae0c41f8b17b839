#!/usr/bin/env bash
# The README's test command: install dependencies, then configure, build and
# run every test with the release workflow preset (warnings are errors).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
cmake --workflow --preset release
