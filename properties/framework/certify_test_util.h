// What the certifier's tests share (certify_test.cc, certify_soundness_test.cc):
// a claim's property in one backend, certified by intervals as
// ATTNPROP_REGISTER(Claim, S, Interval[, Rational]) would make it, and a
// quick run (no search).
#pragma once

#include "properties/framework/property.h"
#include "properties/framework/runner.h"

namespace attnprop::testing_util {

template <class Claim, class S = double, bool kExactToo = false>
PropertyDef Certified() {
  PropertyDef d = internal::MakeDef<Claim, S>(__FILE__);
  internal::CertifyByIntervals<Claim, kExactToo>(d);
  return d;
}

inline RunOptions Quick(int cases) {
  RunOptions o;
  o.max_success = cases;
  o.search_steps = 0;
  return o;
}

}  // namespace attnprop::testing_util
