#include "model/interval.h"

#include <mpfr.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace attnprop {
namespace {
thread_local int g_bits = 128;
thread_local uint64_t g_doubts = 0;

[[noreturn]] void Straddles(const char* fn, const Interval& x, const char* edge) {
  throw Undecided(std::string(fn) + " of " + x.ToString() + ": the enclosure straddles " + edge +
                  ", the edge of its domain");
}
Interval Nan(const Interval& like) {
  Interval r(like);
  mpfr_set_nan(&r.data()->left);
  mpfr_set_nan(&r.data()->right);
  return r;
}
/// lo and hi against c: -1 certainly below, +1 certainly above (>= c when
/// `closed`), 0 straddling.
int Side(const Interval& x, long c, bool closed) {
  const int lo = mpfr_cmp_si(&x.data()->left, c), hi = mpfr_cmp_si(&x.data()->right, c);
  if (closed ? lo >= 0 : lo > 0) return 1;
  if (closed ? hi < 0 : hi <= 0) return -1;
  return 0;
}

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
  if (a.NanRaw() || b.NanRaw()) throw Undecided("comparison with NaN");
  const int hi_lo = mpfr_cmp(&a.data()->right, &b.data()->left);   // a.hi vs b.lo
  const int lo_hi = mpfr_cmp(&a.data()->left, &b.data()->right);   // a.lo vs b.hi
  if (strict ? hi_lo < 0 : hi_lo <= 0) return true;
  if (strict ? lo_hi >= 0 : lo_hi > 0) return false;
  throw Undecided("compared " + a.ToString() + (strict ? " < " : " <= ") + b.ToString() + ": the enclosures overlap");
}
}  // namespace

Undecided::Undecided(std::string why) : why_(std::move(why)) { ++g_doubts; }

namespace internal {
uint64_t IntervalDoubts() { return g_doubts; }
void AddIntervalDoubt() { ++g_doubts; }
}  // namespace internal

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

Interval Interval::Pi() {
  Interval r(Uninit{}, g_bits);
  mpfi_const_pi(r.v_);
  return r;
}
Interval Interval::Ratio(long p, long q) { return Interval(p) / Interval(q); }

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

double Interval::LowerDouble() const {
  internal::AddIntervalDoubt();
  return mpfr_get_d(&v_->left, MPFR_RNDD);
}
double Interval::UpperDouble() const {
  internal::AddIntervalDoubt();
  return mpfr_get_d(&v_->right, MPFR_RNDU);
}
double Interval::MidDouble() const {
  internal::AddIntervalDoubt();
  return mpfi_get_d(v_);
}

Mpfr Interval::Lower() const {
  internal::AddIntervalDoubt();
  MpfrPrecisionScope p(PrecisionBits());
  Mpfr x;
  mpfr_set(x.backend().data(), &v_->left, MPFR_RNDN);
  return x;
}
Mpfr Interval::Upper() const {
  internal::AddIntervalDoubt();
  MpfrPrecisionScope p(PrecisionBits());
  Mpfr x;
  mpfr_set(x.backend().data(), &v_->right, MPFR_RNDN);
  return x;
}

bool Interval::IsPointRaw() const { return mpfr_equal_p(&v_->left, &v_->right) != 0; }
bool Interval::Doubt(bool doubtful) {
  if (doubtful) internal::AddIntervalDoubt();
  return doubtful;
}

bool CertainlyNonzero(const Interval& x) {
  const bool nonzero = internal::CertainlyNonzeroRaw(x);
  if (!nonzero && !internal::CertainlyZeroRaw(x)) internal::AddIntervalDoubt();
  return nonzero;
}
bool CertainlyZero(const Interval& x) {
  const bool zero = internal::CertainlyZeroRaw(x);
  if (!zero && !internal::CertainlyNonzeroRaw(x)) internal::AddIntervalDoubt();
  return zero;
}

std::string Interval::ToString(int digits) const {
  if (NanRaw()) return "[nan]";
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
  if (a.IsPointRaw() && b.IsPointRaw() && !a.NanRaw() && !b.NanRaw()) return mpfr_equal_p(&a.v_->left, &b.v_->left) != 0;
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
ATTNPROP_INTERVAL_FN(exp, mpfi_exp)
ATTNPROP_INTERVAL_FN(expm1, mpfi_expm1)
ATTNPROP_INTERVAL_FN(exp2, mpfi_exp2)
ATTNPROP_INTERVAL_FN(tanh, mpfi_tanh)
ATTNPROP_INTERVAL_FN(sinh, mpfi_sinh)
ATTNPROP_INTERVAL_FN(cosh, mpfi_cosh)
ATTNPROP_INTERVAL_FN(cos, mpfi_cos)
ATTNPROP_INTERVAL_FN(sin, mpfi_sin)
ATTNPROP_INTERVAL_FN(tan, mpfi_tan)
ATTNPROP_INTERVAL_FN(atan, mpfi_atan)
ATTNPROP_INTERVAL_FN(cbrt, mpfi_cbrt)
#undef ATTNPROP_INTERVAL_FN

// A function with a domain: NaN in, NaN out; certainly inside, MPFI's
// enclosure; certainly outside, NaN; straddling the edge, Undecided.
#define ATTNPROP_INTERVAL_DOMAIN_FN(NAME, FN, INSIDE, EDGE)   \
  Interval NAME(const Interval& x) {                           \
    if (x.NanRaw()) return x;                                  \
    const int side = (INSIDE);                                 \
    if (side < 0) return Nan(x);                               \
    if (side == 0) Straddles(#NAME, x, EDGE);                  \
    Interval r(x);                                             \
    FN(r.v_, x.v_);                                            \
    return r;                                                  \
  }
ATTNPROP_INTERVAL_DOMAIN_FN(sqrt, mpfi_sqrt, Side(x, 0, true), "0")
ATTNPROP_INTERVAL_DOMAIN_FN(log, mpfi_log, Side(x, 0, true), "0")
ATTNPROP_INTERVAL_DOMAIN_FN(log2, mpfi_log2, Side(x, 0, true), "0")
ATTNPROP_INTERVAL_DOMAIN_FN(log10, mpfi_log10, Side(x, 0, true), "0")
ATTNPROP_INTERVAL_DOMAIN_FN(log1p, mpfi_log1p, Side(x, -1, true), "-1")
// |x| <= 1 (closed: asin, acos) and |x| < 1 (open: atanh) from both sides.
ATTNPROP_INTERVAL_DOMAIN_FN(asin, mpfi_asin,
                            std::min(Side(x, -1, true), -Side(x, 1, false)), "-1 or 1")
ATTNPROP_INTERVAL_DOMAIN_FN(acos, mpfi_acos,
                            std::min(Side(x, -1, true), -Side(x, 1, false)), "-1 or 1")
ATTNPROP_INTERVAL_DOMAIN_FN(atanh, mpfi_atanh,
                            std::min(Side(x, -1, false), -Side(x, 1, true)), "-1 or 1")
#undef ATTNPROP_INTERVAL_DOMAIN_FN

Interval atan2(const Interval& y, const Interval& x) {
  if (y.NanRaw()) return y;
  if (x.NanRaw()) return x;
  // The branch cut: x <= 0 with y straddling 0 jumps between -pi and pi.
  if (y.ContainsZeroRaw() && Side(x, 0, false) <= 0 && !(internal::CertainlyZeroRaw(y) && Side(x, 0, true) < 0))
    Straddles("atan2", y, "0 where x <= 0 (the branch cut)");
  Interval r(y.PrecisionBits() >= x.PrecisionBits() ? y : x);
  mpfi_atan2(r.v_, y.v_, x.v_);
  return r;
}

Interval SqrtOfNonnegative(const Interval& x) { return sqrt(ClampNonnegative(x)); }

Interval ClampNonnegative(const Interval& x) {
  if (x.NanRaw()) return x;
  if (mpfr_sgn(&x.data()->right) < 0) throw Undecided("a value known to be >= 0 is enclosed in " + x.ToString());
  Interval r(x);
  if (mpfr_sgn(&r.data()->left) < 0) mpfr_set_zero(&r.data()->left, 1);
  return r;
}

bool IsExactlyZero(const Interval& x) {
  if (internal::CertainlyZeroRaw(x)) return true;
  if (internal::CertainlyNonzeroRaw(x)) return false;
  throw Undecided("is " + x.ToString() + " exactly 0? the enclosure contains 0 and other values");
}

bool isnan(const Interval& x) {
  if (!x.NanRaw()) return false;
  throw Undecided("isnan of a NaN enclosure (an operation left its domain somewhere in it)");
}

bool isfinite(const Interval& x) {
  if (x.NanRaw()) throw Undecided("isfinite of a NaN enclosure");
  if (x.BoundedRaw()) return true;
  if (x.IsPointRaw()) return false;  // the point +-inf
  throw Undecided("isfinite of " + x.ToString() + ": an unbounded enclosure");
}

Interval PowInteger(const Interval& x, long n) {
  if (n < 0) return Interval(1) / PowInteger(x, -n);
  Interval r(1), base(x);
  // Even powers through squaring keep [-a, a]^2 = [0, a^2] (not [-a^2, a^2]).
  while (n > 0) {
    if (n & 1) r *= base;
    n >>= 1;
    if (n > 0) mpfi_sqr(base.data(), base.data());
  }
  return r;
}

Interval pow(const Interval& x, const Interval& y) {
  if (y.IsPointRaw() && !y.NanRaw() && mpfr_integer_p(&y.v_->left) && mpfr_cmpabs_ui(&y.v_->left, 1UL << 31) < 0)
    return PowInteger(x, mpfr_get_si(&y.v_->left, MPFR_RNDN));
  if (internal::CertainlyZeroRaw(x) && Interval(0) < y) return Interval(0);
  return exp(y * log(x));
}

Interval max(const Interval& a, const Interval& b) {
  if (a.NanRaw()) return a;
  if (b.NanRaw()) return b;
  Interval r(a.PrecisionBits() >= b.PrecisionBits() ? a : b);
  mpfr_max(&r.v_->left, &a.v_->left, &b.v_->left, MPFR_RNDD);
  mpfr_max(&r.v_->right, &a.v_->right, &b.v_->right, MPFR_RNDU);
  return r;
}

Interval min(const Interval& a, const Interval& b) { return -max(-a, -b); }

bool isinf(const Interval& x) {
  if (x.NanRaw()) throw Undecided("isinf of a NaN enclosure");
  if (x.IsPointRaw()) return mpfr_inf_p(&x.v_->left) != 0;
  if (x.BoundedRaw()) return false;
  throw Undecided("isinf of " + x.ToString() + ": one endpoint infinite, the other not");
}

}  // namespace attnprop
