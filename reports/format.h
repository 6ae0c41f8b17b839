// Formatting helpers shared by the report writers (internal to reports/).
#pragma once

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "properties/framework/statistics.h"

namespace attnprop::report {

/// A number in %.3g, "inf"/"nan" spelled out.
inline std::string Short(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

/// A statistical claim's rates in one line (statistics.h): "alpha <= 1e-06
/// per case (Hoeffding; rigorous); power 0.99 against a mean off by >= 0.0658;
/// N = 4096 flips per case". Exact enumerations read "alpha 0 (...)".
inline std::string StatisticsText(const Statistics& s) {
  return (s.alpha == 0 ? "alpha 0" : "alpha <= " + Short(s.alpha) + " per " + s.alpha_scope) + " (" + s.basis +
         (s.rigorous ? "; rigorous" : "; approximate") + "); power " + Short(s.power) + " against " + s.detects + "; " +
         s.sample;
}

/// Seconds with 3 decimals.
inline std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

/// A word for a POSIX shell: unchanged when it holds only safe characters,
/// else single-quoted.
inline std::string ShellWord(const std::string& s) {
  bool safe = !s.empty();
  for (char ch : s)
    safe = safe && (std::isalnum(static_cast<unsigned char>(ch)) || std::string("@%+=:,./_-").find(ch) != std::string::npos);
  if (safe) return s;
  std::string r = "'";
  for (char ch : s) r += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return r + "'";
}

/// Escapes &, <, >, " and ' for HTML and XML text and attributes; drops
/// control characters other than tab and newline (not allowed in XML 1.0).
inline std::string Escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t') break;
        out += ch;
    }
  }
  return out;
}

}  // namespace attnprop::report
