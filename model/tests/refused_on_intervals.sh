#!/bin/sh
# model.refuses_eigen_solvers_on_intervals: SelfAdjointEigenSolver on
# Interval fails to compile with eigen_scalar.h's message; on Mpfr it compiles.
# usage: refused_on_intervals.sh CXX SOURCE_DIR EIGEN_INCLUDE_DIR
set -u
cxx=$1 src=$2 eigen=$3
file=$src/model/tests/refused_on_intervals.cc
flags="-std=c++20 -fsyntax-only -I$src -isystem $eigen"
if ! $cxx $flags "$file" 2>/tmp/refused_control.$$; then
  echo "FAIL: the control (Mpfr) does not compile:"; cat /tmp/refused_control.$$; rm -f /tmp/refused_control.$$; exit 1
fi
rm -f /tmp/refused_control.$$
out=$($cxx $flags -DREFUSED "$file" 2>&1) && { echo "FAIL: SelfAdjointEigenSolver<Mat<Interval>> compiled"; exit 1; }
echo "$out" | grep -q "SelfAdjointEigenSolver on Interval is not an enclosure" ||
  { echo "FAIL: it did not compile, but not for the refusal:"; echo "$out" | head -20; exit 1; }
echo "ok: refused on Interval, compiles on Mpfr"
