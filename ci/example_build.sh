# Sourced by the example checks (ci/soundness_check.sh, ci/search_check.sh):
# `fail MESSAGE` names the calling script; `example_build PREFIX EXAMPLE
# SCRATCH` configures and builds EXAMPLE against the attnprop installed at
# PREFIX into SCRATCH/build (its logs beside it) and sets $build.
fail() {
  echo "$(basename "$0"): FAILED: $*" >&2
  exit 1
}
example_build() {
  local prefix=$1 example=$2 scratch=$3
  build=$scratch/build
  cmake -S "$example" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" > "$scratch.configure.log" ||
    { cat "$scratch.configure.log"; fail "configuring $example"; }
  cmake --build "$build" -j2 > "$scratch.build.log" || { cat "$scratch.build.log"; fail "building $example"; }
}
