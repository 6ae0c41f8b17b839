#include "model/scalar.h"

#include <mpfr.h>

namespace attnprop {

int SetMpfrPrecisionBits(int bits) {
  // Smallest number of decimal digits whose Boost conversion gives >= bits.
  unsigned d10 = 1;
  while (bmp::detail::digits10_2_2(d10) < static_cast<unsigned long>(bits)) ++d10;
  Mpfr::default_precision(d10);
  return MpfrPrecisionBits();
}

int MpfrPrecisionBits() {
  return static_cast<int>(bmp::detail::digits10_2_2(Mpfr::default_precision()));
}

int PrecisionBitsOf(const Mpfr& x) {
  return static_cast<int>(mpfr_get_prec(x.backend().data()));
}

}  // namespace attnprop
