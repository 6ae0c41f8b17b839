#include "model/interval.h"

#include <mpfr.h>

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace attnprop {
namespace {
thread_local int g_bits = 128;

std::string Endpoint(mpfr_srcptr x, mpfr_rnd_t rnd, int digits) {
  if (mpfr_zero_p(x)) return "0";  // MPFI keeps an exact 0 as [+0, -0]
  char* s = nullptr;
  if (mpfr_asprintf(&s, "%.*R*g", digits, rnd, x) < 0 || !s) return "?";
  std::string out(s);
  mpfr_free_str(s);
  return out;
}

/// Decides `a < b` (strict) or `a <= b` for every pair of points, or throws.
bool Decide(const Interval& a, const Interval& b, bool strict) {
  if (a.HasNan() || b.HasNan()) throw Undecided("comparison with NaN");
  const int hi_lo = mpfr_cmp(&a.data()->right, &b.data()->left);   // a.hi vs b.lo
  const int lo_hi = mpfr_cmp(&a.data()->left, &b.data()->right);   // a.lo vs b.hi
  if (strict ? hi_lo < 0 : hi_lo <= 0) return true;
  if (strict ? lo_hi >= 0 : lo_hi > 0) return false;
  throw Undecided("compared " + a.ToString() + (strict ? " < " : " <= ") + b.ToString() + ": the enclosures overlap");
}
}  // namespace

int IntervalPrecisionBits() { return g_bits; }
void SetIntervalPrecisionBits(int bits) { g_bits = bits < 2 ? 2 : bits; }

Interval::Interval(Uninit, int bits) { mpfi_init2(v_, bits); }
Interval::Interval(long v) : Interval(Uninit{}, g_bits) { mpfi_set_si(v_, v); }
Interval::Interval(double v) : Interval(Uninit{}, g_bits) { mpfi_set_d(v_, v); }
Interval Interval::Enclosing(const Mpfr& x) {
  Interval r(Uninit{}, g_bits);
  mpfi_set_fr(r.v_, x.backend().data());
  return r;
}
Interval Interval::Enclosing(const Rational& q) {
  Interval r(Uninit{}, g_bits);
  mpfi_set_q(r.v_, q.backend().data());
  return r;
}

Interval Interval::Hull(const Interval& a, const Interval& b) {
  Interval r(a);
  mpfi_put(r.v_, b.v_);
  return r;
}

Interval::Interval(const Interval& o) : Interval(Uninit{}, static_cast<int>(mpfi_get_prec(o.v_))) { mpfi_set(v_, o.v_); }
Interval::Interval(Interval&& o) noexcept : Interval(Uninit{}, static_cast<int>(mpfi_get_prec(o.v_))) {
  mpfi_swap(v_, o.v_);
}
Interval& Interval::operator=(const Interval& o) {
  if (this != &o) {
    mpfi_set_prec(v_, mpfi_get_prec(o.v_));
    mpfi_set(v_, o.v_);
  }
  return *this;
}
Interval& Interval::operator=(Interval&& o) noexcept {
  mpfi_swap(v_, o.v_);
  return *this;
}
Interval::~Interval() { mpfi_clear(v_); }

double Interval::LowerDouble() const { return mpfr_get_d(&v_->left, MPFR_RNDD); }
double Interval::UpperDouble() const { return mpfr_get_d(&v_->right, MPFR_RNDU); }
double Interval::MidDouble() const { return mpfi_get_d(v_); }

Mpfr Interval::Lower() const {
  MpfrPrecisionScope p(PrecisionBits());
  Mpfr x;
  mpfr_set(x.backend().data(), &v_->left, MPFR_RNDN);
  return x;
}
Mpfr Interval::Upper() const {
  MpfrPrecisionScope p(PrecisionBits());
  Mpfr x;
  mpfr_set(x.backend().data(), &v_->right, MPFR_RNDN);
  return x;
}

bool Interval::IsPoint() const { return mpfr_equal_p(&v_->left, &v_->right) != 0; }

std::string Interval::ToString(int digits) const {
  if (HasNan()) return "[nan]";
  return "[" + Endpoint(&v_->left, MPFR_RNDD, digits) + ", " + Endpoint(&v_->right, MPFR_RNDU, digits) + "]";
}

// Results take the wider operand's precision (values read from a case have
// the working precision; constants built earlier may have less).
#define ATTNPROP_INTERVAL_OP(OP, FN)                                          \
  Interval& Interval::operator OP(const Interval& o) {                        \
    if (mpfi_get_prec(o.v_) > mpfi_get_prec(v_)) {                            \
      Interval wide(Uninit{}, static_cast<int>(mpfi_get_prec(o.v_)));         \
      FN(wide.v_, v_, o.v_);                                                  \
      mpfi_swap(v_, wide.v_);                                                 \
    } else {                                                                  \
      FN(v_, v_, o.v_);                                                       \
    }                                                                         \
    return *this;                                                             \
  }
ATTNPROP_INTERVAL_OP(+=, mpfi_add)
ATTNPROP_INTERVAL_OP(-=, mpfi_sub)
ATTNPROP_INTERVAL_OP(*=, mpfi_mul)
ATTNPROP_INTERVAL_OP(/=, mpfi_div)
#undef ATTNPROP_INTERVAL_OP

Interval operator-(const Interval& a) {
  Interval r(a);
  mpfi_neg(r.v_, a.v_);
  return r;
}

bool operator<(const Interval& a, const Interval& b) { return Decide(a, b, true); }
bool operator<=(const Interval& a, const Interval& b) { return Decide(a, b, false); }
bool operator==(const Interval& a, const Interval& b) {
  if (a.IsPoint() && b.IsPoint() && !a.HasNan() && !b.HasNan()) return mpfr_equal_p(&a.v_->left, &b.v_->left) != 0;
  if (Decide(a, b, true) || Decide(b, a, true)) return false;  // disjoint (else Decide threw)
  return false;
}

#define ATTNPROP_INTERVAL_FN(NAME, FN) \
  Interval NAME(const Interval& x) {   \
    Interval r(x);                     \
    FN(r.v_, x.v_);                    \
    return r;                          \
  }
ATTNPROP_INTERVAL_FN(abs, mpfi_abs)
ATTNPROP_INTERVAL_FN(sqr, mpfi_sqr)
ATTNPROP_INTERVAL_FN(sqrt, mpfi_sqrt)
ATTNPROP_INTERVAL_FN(exp, mpfi_exp)
ATTNPROP_INTERVAL_FN(expm1, mpfi_expm1)
ATTNPROP_INTERVAL_FN(log, mpfi_log)
ATTNPROP_INTERVAL_FN(log1p, mpfi_log1p)
ATTNPROP_INTERVAL_FN(atanh, mpfi_atanh)
ATTNPROP_INTERVAL_FN(tanh, mpfi_tanh)
ATTNPROP_INTERVAL_FN(cos, mpfi_cos)
ATTNPROP_INTERVAL_FN(sin, mpfi_sin)
#undef ATTNPROP_INTERVAL_FN

Interval pow(const Interval& x, int n) {
  if (n < 0) return Interval(1) / pow(x, -n);
  Interval r(1), base(x);
  // Even powers through squaring keep [-a, a]^2 = [0, a^2] (not [-a^2, a^2]).
  while (n > 0) {
    if (n & 1) r *= base;
    n >>= 1;
    if (n > 0) mpfi_sqr(base.v_, base.v_);
  }
  return r;
}

Interval pow(const Interval& x, const Interval& y) {
  if (x.IsPoint() && mpfr_zero_p(&x.v_->left) && Interval(0) < y) return Interval(0);
  return exp(y * log(x));
}

Interval max(const Interval& a, const Interval& b) {
  if (a.HasNan()) return a;
  if (b.HasNan()) return b;
  Interval r(a.PrecisionBits() >= b.PrecisionBits() ? a : b);
  mpfr_max(&r.v_->left, &a.v_->left, &b.v_->left, MPFR_RNDD);
  mpfr_max(&r.v_->right, &a.v_->right, &b.v_->right, MPFR_RNDU);
  return r;
}

Interval min(const Interval& a, const Interval& b) { return -max(-a, -b); }

bool isinf(const Interval& x) {
  if (x.HasNan()) return false;
  if (x.IsPoint()) return mpfr_inf_p(&x.v_->left) != 0;
  if (x.Bounded()) return false;
  throw Undecided("isinf of " + x.ToString() + ": one endpoint infinite, the other not");
}

}  // namespace attnprop
