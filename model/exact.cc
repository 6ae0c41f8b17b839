#include "model/exact.h"

#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace attnprop {

Exact::Exact(const Rational& q) : v_(q) {
  // Keep dyadic rationals that fit a double as doubles: one canonical form.
  const double d = q.convert_to<double>();
  if (std::isfinite(d) && Rational(d) == q) v_ = d;
}

double Exact::ToDouble() const {
  if (auto* d = std::get_if<double>(&v_)) return *d;
  return std::get<Rational>(v_).convert_to<double>();
}

Rational Exact::ToRational() const {
  if (auto* d = std::get_if<double>(&v_)) {
    if (!std::isfinite(*d)) throw std::domain_error("Exact: " + ToString() + " has no rational value");
    return Rational(*d);
  }
  return std::get<Rational>(v_);
}

template <>
Mpfr Exact::As<Mpfr>() const {
  Mpfr x;  // created at the current precision
  if (auto* d = std::get_if<double>(&v_)) {
    mpfr_set_d(x.backend().data(), *d, MPFR_RNDN);
  } else {
    mpfr_set_q(x.backend().data(), std::get<Rational>(v_).backend().data(), MPFR_RNDN);
  }
  return x;
}

template <>
Interval Exact::As<Interval>() const {
  if (auto* d = std::get_if<double>(&v_)) return Interval(*d);
  return Interval::Enclosing(std::get<Rational>(v_));
}

std::string Exact::ToString() const {
  if (auto* d = std::get_if<double>(&v_)) {
    if (std::isnan(*d)) return "nan";
    if (std::isinf(*d)) return *d > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", *d);
    return buf;
  }
  // An integer too large for a double keeps its "/1": without it the text
  // would read back as a decimal, rounded to a double (found by
  // fuzz/case_parser).
  const Rational& q = std::get<Rational>(v_);
  std::string s = q.str();
  if (s.find('/') == std::string::npos) s += "/1";
  return s;
}

std::string Exact::ToDisplay() const {
  if (!IsDouble()) return ToString();
  const double d = std::get<double>(v_);
  if (!std::isfinite(d)) return ToString();
  char buf[96];
  std::snprintf(buf, sizeof buf, "%a (=%.17g)", d, d);
  return buf;
}

std::optional<Exact> Exact::Parse(std::string_view text) {
  std::string s(text);
  if (s.empty()) return std::nullopt;
  if (s == "nan") return Exact(std::nan(""));
  if (s == "inf" || s == "+inf") return Exact(HUGE_VAL);
  if (s == "-inf") return Exact(-HUGE_VAL);
  if (s.find('/') != std::string::npos) {
    // p/q with integers p, q != 0.
    const auto slash = s.find('/');
    const std::string p = s.substr(0, slash), q = s.substr(slash + 1);
    auto is_int = [](const std::string& t, bool allow_sign) {
      size_t i = (allow_sign && !t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
      if (i == t.size()) return false;
      for (; i < t.size(); ++i)
        if (t[i] < '0' || t[i] > '9') return false;
      return true;
    };
    if (!is_int(p, true) || !is_int(q, false)) return std::nullopt;
    // GMP reads no leading '+' (Boost throws on it): drop it. Found by fuzz/case_parser.
    const std::string num = p[0] == '+' ? p.substr(1) : p;
    try {
      Rational den(q);
      if (den == 0) return std::nullopt;
      return Exact(Rational(num) / den);
    } catch (const std::runtime_error&) {
      return std::nullopt;
    }
  }
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  if (!std::isfinite(d)) return std::nullopt;  // only the spelled-out forms above
  return Exact(d);
}

bool operator==(const Exact& a, const Exact& b) {
  if (a.IsDouble() && b.IsDouble()) {
    const double x = std::get<double>(a.v_), y = std::get<double>(b.v_);
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return x == y && std::signbit(x) == std::signbit(y);
  }
  if (a.IsDouble() != b.IsDouble()) return false;  // canonical form differs
  return std::get<Rational>(a.v_) == std::get<Rational>(b.v_);
}

int Exact::Order(const Exact& a, const Exact& b) {
  const auto* x = std::get_if<double>(&a.v_);
  const auto* y = std::get_if<double>(&b.v_);
  if ((x && std::isnan(*x)) || (y && std::isnan(*y))) return 2;
  if (x && y) return *x < *y ? -1 : *x > *y ? 1 : 0;
  // An infinity against a rational: the infinity's sign decides.
  if (x && std::isinf(*x)) return *x < 0 ? -1 : 1;
  if (y && std::isinf(*y)) return *y < 0 ? 1 : -1;
  const Rational p = a.ToRational(), q = b.ToRational();
  return p < q ? -1 : p > q ? 1 : 0;
}

ExactMatrix ExactMatrix::FromDoubles(const Mat<double>& m) {
  ExactMatrix e(m.rows(), m.cols());
  for (int64_t i = 0; i < e.rows; ++i)
    for (int64_t j = 0; j < e.cols; ++j) e(i, j) = Exact(m(i, j));
  return e;
}

}  // namespace attnprop
