#include "properties/framework/token_check.h"

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

// RapidCheck's own base64 (src/detail/Base64.cpp: its alphabet and bit
// order), not declared in an installed header.
namespace rc::detail {
std::vector<std::uint8_t> base64Decode(const std::string& data);
}  // namespace rc::detail

namespace attnprop {
namespace {

class Reader {
 public:
  explicit Reader(const std::vector<std::uint8_t>& b) : b_(b) {}
  size_t left() const { return b_.size() - at_; }
  std::string Text(size_t n) {
    if (n > left()) Fail("a property name longer than the token");
    const std::string s(b_.begin() + static_cast<std::ptrdiff_t>(at_), b_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
    at_ += n;
    return s;
  }
  std::uint8_t Byte() {
    if (at_ >= b_.size()) Fail("ends early");
    return b_[at_++];
  }
  void Skip(size_t n) {
    if (n > left()) Fail("ends early");
    at_ += n;
  }
  uint64_t Fixed(int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(Byte()) << (8 * i);
    return v;
  }
  /// RapidCheck's varint (7 bits a byte, low first), at most 64 bits.
  uint64_t Compact() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t x = Byte();
      if (shift == 63 && (x & 0x7E) != 0) Fail("a number past 64 bits");
      v |= static_cast<uint64_t>(x & 0x7F) << shift;
      if ((x & 0x80) == 0) return v;
    }
    Fail("a number past 64 bits");
  }
  [[noreturn]] static void Fail(const std::string& why) {
    throw std::invalid_argument("malformed reproduce token: " + why);
  }

 private:
  const std::vector<std::uint8_t>& b_;
  size_t at_ = 0;
};

}  // namespace

static void CheckOneValue(const std::string& value);

void CheckReproduceToken(const std::string& params) {
  // Every occurrence: RapidCheck reads them all (found by fuzz/token_decoder:
  // a second, unchecked reproduce= crashed its decoder).
  bool any = false;
  for (auto at = params.find("reproduce"); at != std::string::npos; at = params.find("reproduce", at + 1)) {
    if (params.compare(at, 10, "reproduce=") != 0) Reader::Fail("'reproduce' without '=' after it");
    const auto begin = at + 10;
    const auto end = params.find_first_of(" \t\n\r\v\f", begin);
    CheckOneValue(params.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    any = true;
  }
  if (!any) Reader::Fail("no reproduce= value");
}

static void CheckOneValue(const std::string& value) {
  if (value.empty()) Reader::Fail("empty");
  if (value.size() > 65536) Reader::Fail("longer than 65536 characters");
  std::vector<std::uint8_t> bytes;
  try {
    bytes = rc::detail::base64Decode(value);
  } catch (const std::exception& e) {
    Reader::Fail(std::string("not base64 (") + e.what() + ")");
  }
  Reader r(bytes);
  const uint64_t properties = r.Compact();
  if (properties == 0) Reader::Fail("it names no property");
  if (properties > 64) Reader::Fail("more than 64 properties");
  // RapidCheck reads entries until its map holds `properties` distinct names,
  // so a repeated name makes it read past the end of the token (found by
  // fuzz/token_decoder): names must differ, and nothing may follow the last.
  std::set<std::string> names;
  for (uint64_t p = 0; p < properties; ++p) {
    const uint64_t name = r.Compact();
    if (!names.insert(r.Text(static_cast<size_t>(name))).second) Reader::Fail("a property named twice");
    r.Skip(4 * 8);                           // the random key
    r.Compact();                             // its bits
    if (r.Compact() != 0) Reader::Fail("a random state RapidCheck never replays (counter not 0)");
    if (r.Byte() > 64) Reader::Fail("a random state out of range (bit index past 64)");
    const uint64_t size = r.Fixed(4);
    if (size > 100) Reader::Fail("size " + std::to_string(size) + " (0 to 100)");
    const uint64_t steps = r.Compact();
    if (steps > r.left() || steps > 100000) Reader::Fail("a shrink path longer than the token or 100000 steps");
    for (uint64_t s = 0; s < steps; ++s)
      if (r.Compact() > 100000) Reader::Fail("a shrink step past 100000");
  }
  if (r.left() != 0) Reader::Fail("bytes after the last property");
}

}  // namespace attnprop
