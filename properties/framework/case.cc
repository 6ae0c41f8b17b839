#include "properties/framework/case.h"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <ostream>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace attnprop {
namespace {

/// The decimal aid beside an exact value: the shortest digits that read
/// back as its double (-0x1.37ffff8p+8 and -0x1.38p+8 print apart, not
/// both as -312), "~" before a rational's that no double holds.
std::string Decimal(const Exact& e) {
  const double d = e.ToDouble();
  char buf[40];
  // Plain digits where they are short (10, not 1e+01): an exponent only
  // for magnitudes below 1e-5 or from 1e16 up.
  const bool plain = std::fabs(d) >= 1e-5 && std::fabs(d) < 1e16;
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, d);
    if (!std::isfinite(d) || (std::strtod(buf, nullptr) == d && !(plain && std::strchr(buf, 'e')))) break;
  }
  const bool exact = e.IsDouble() || (std::isfinite(d) && Rational(d) == e.ToRational());
  return exact ? std::string(buf) : "~" + std::string(buf);
}

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> Words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string t; in >> t;) w.push_back(t);
  return w;
}

// "RxC": two decimal numbers, nothing else; a number past int64 saturates
// (the caller's limits reject it).
bool ParseShape(const std::string& s, int64_t* rows, int64_t* cols) {
  const auto x = s.find('x');
  if (x == std::string::npos) return false;
  auto number = [](const std::string& t, int64_t* out) {
    if (t.empty()) return false;
    int64_t v = 0;
    for (char ch : t) {
      if (ch < '0' || ch > '9') return false;
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, ch - '0', &v))
        v = std::numeric_limits<int64_t>::max();
    }
    *out = v;
    return true;
  };
  return number(s.substr(0, x), rows) && number(s.substr(x + 1), cols);
}

}  // namespace

Case& Case::Set(std::string name, Value v) {
  for (auto& [n, old] : fields_) {
    if (n == name) {
      old = std::move(v);
      return *this;
    }
  }
  fields_.emplace_back(std::move(name), std::move(v));
  return *this;
}

const Case::Value& Case::Find(const std::string& name) const {
  for (const auto& [n, v] : fields_)
    if (n == name) return v;
  throw std::out_of_range("case has no field '" + name + "'");
}

int64_t Case::GetInt(const std::string& name) const {
  if (auto* p = std::get_if<int64_t>(&Find(name))) return *p;
  throw std::out_of_range("case field '" + name + "' is not an int");
}
const Exact& Case::GetScalar(const std::string& name) const {
  if (auto* p = std::get_if<Exact>(&Find(name))) return *p;
  throw std::out_of_range("case field '" + name + "' is not a scalar");
}
const ExactMatrix& Case::GetMatrix(const std::string& name) const {
  if (auto* p = std::get_if<ExactMatrix>(&Find(name))) return *p;
  throw std::out_of_range("case field '" + name + "' is not a matrix");
}

std::string Case::ToText() const {
  std::ostringstream os;
  for (const auto& [name, v] : fields_) {
    if (auto* i = std::get_if<int64_t>(&v)) {
      os << name << ": int " << *i << "\n";
    } else if (auto* e = std::get_if<Exact>(&v)) {
      os << name << ": scalar " << e->ToString() << "  # " << Decimal(*e) << "\n";
    } else {
      const auto& m = std::get<ExactMatrix>(v);
      os << name << ": matrix " << m.rows << "x" << m.cols << "\n";
      for (int64_t r = 0; r < m.rows; ++r) {
        std::string exact, approx;
        for (int64_t c = 0; c < m.cols; ++c) {
          if (c) {
            exact.push_back(' ');
            approx.push_back(' ');
          }
          exact.append(m(r, c).ToString());
          approx.append(Decimal(m(r, c)));
        }
        os << "  " << exact << "  # " << approx << "\n";
      }
    }
  }
  return os.str();
}

std::optional<Case> Case::Parse(const std::string& text, std::string* error) {
  Case c;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  int64_t total_elements = 0;
  auto fail = [&](const std::string& why) -> std::optional<Case> {
    if (error) *error = "line " + std::to_string(line_no) + ": " + why;
    return std::nullopt;
  };
  while (std::getline(in, line)) {
    ++line_no;
    const std::string body = Trim(line.substr(0, line.find('#')));
    if (body.empty()) continue;
    const auto colon = body.find(':');
    if (colon == std::string::npos) return fail("expected 'name: kind value', got '" + body + "'");
    const std::string name = Trim(body.substr(0, colon));
    const auto w = Words(body.substr(colon + 1));
    if (name.empty() || w.empty()) return fail("missing name or kind");
    for (const auto& [n, v] : c.fields_)
      if (n == name) return fail("field '" + name + "' is given twice");
    if (w[0] == "int") {
      if (w.size() != 2) return fail("int needs one value");
      try {
        size_t used = 0;
        const long long v = std::stoll(w[1], &used);
        if (used != w[1].size()) return fail("bad int '" + w[1] + "'");
        c.Int(name, v);
      } catch (const std::exception&) {
        return fail("bad int '" + w[1] + "'");
      }
    } else if (w[0] == "scalar") {
      if (w.size() != 2) return fail("scalar needs one value");
      if (w[1].size() > kMaxValueChars) return fail("a value of more than " + std::to_string(kMaxValueChars) + " characters");
      auto e = Exact::Parse(w[1]);
      if (!e) return fail("bad exact value '" + w[1] + "'");
      c.Scalar(name, *e);
    } else if (w[0] == "matrix") {
      int64_t rows = 0, cols = 0;
      if (w.size() != 2 || !ParseShape(w[1], &rows, &cols)) return fail("matrix needs a shape RxC (two decimal numbers)");
      int64_t elements = 0;
      if (rows > kMaxCaseDim || cols > kMaxCaseDim || __builtin_mul_overflow(rows, cols, &elements) ||
          elements > kMaxCaseElements)
        return fail("matrix '" + name + "' is " + w[1] + ": more than the limit of " +
                    std::to_string(kMaxCaseDim) + " rows or columns or " + std::to_string(kMaxCaseElements) +
                    " elements");
      total_elements += elements;
      if (total_elements > kMaxCaseElements)
        return fail("the case has more than " + std::to_string(kMaxCaseElements) + " matrix elements in all");
      ExactMatrix m(rows, cols);
      for (int64_t r = 0; r < rows; ++r) {
        if (!std::getline(in, line)) return fail("matrix '" + name + "' ends early");
        ++line_no;
        const auto vals = Words(line.substr(0, line.find('#')));
        if (static_cast<int64_t>(vals.size()) != cols)
          return fail("matrix row has " + std::to_string(vals.size()) + " values, expected " + std::to_string(cols));
        for (int64_t k = 0; k < cols; ++k) {
          if (vals[static_cast<size_t>(k)].size() > kMaxValueChars)
            return fail("a value of more than " + std::to_string(kMaxValueChars) + " characters");
          auto e = Exact::Parse(vals[static_cast<size_t>(k)]);
          if (!e) return fail("bad exact value '" + vals[static_cast<size_t>(k)] + "'");
          m(r, k) = *e;
        }
      }
      c.Matrix(name, std::move(m));
    } else {
      return fail("unknown kind '" + w[0] + "' (int, scalar, matrix)");
    }
  }
  return c;
}

void showValue(const Case& c, std::ostream& os) { os << "\n" << c.ToText(); }

}  // namespace attnprop
