#!/usr/bin/env bash
# Installs attnprop's build and test dependencies on Debian 12 (as root, or
# with sudo). Installs only what is missing; safe to run again.
set -euo pipefail
packages=(
  g++ cmake ninja-build pkg-config
  libgtest-dev librapidcheck-dev libeigen3-dev libboost-dev
  libmpfr-dev libgmp-dev libmpfi-dev libbenchmark-dev libopenblas-dev
  nlohmann-json3-dev
  dpkg-dev file
  libxml2-utils
  clang-14 libclang-rt-14-dev
  python3-yaml
  libtorch-dev
  libdnnl-dev
  libseccomp-dev
)
# dpkg-dev (dpkg-shlibdeps) and file: cpack -G DEB computes the .deb's
# run-time dependencies with them (ci/test.sh builds the package).
# libxml2-utils (xmllint): the test reports.junit_xsd validates junit.xml.
# clang-14 and libclang-rt-14-dev (libFuzzer, ASan, UBSan runtimes): the
# fuzz targets of ci/fuzz.sh.
# python3-yaml: the test ci.examples parses the CI examples in ci/examples/.
# libtorch-dev (PyTorch 1.13's C++ library): the PyTorch CPU attention
# adapter, adapters/torch/, and its check-kernel test (ctest label torch).
# libmpfi-dev (MPFI): the interval scalar (model/interval.h) that certifies
# refutations (properties/framework/certify.h).
# libdnnl-dev (oneDNN 2.6): the oneDNN attention adapter, adapters/onednn/,
# its check-kernel test (ctest label onednn) and the benchmark's oneDNN column.
# libseccomp-dev: the system-call filter that confines kernel call processes
# (properties/operator/confine.cc).
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "ci/install-deps.sh: all dependencies present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "ci/install-deps.sh: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
