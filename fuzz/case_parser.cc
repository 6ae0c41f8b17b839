// libFuzzer target: Case::Parse on any text. It must return a case or an
// error naming the line, never crash, allocate without limit or hang; a case
// it accepts prints (ToText) to text that parses back to the same case.
#include <cstddef>
#include <cstdint>
#include <string>

#include "properties/framework/case.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto c = attnprop::Case::Parse(text, &error);
  if (!c) {
    if (error.rfind("line ", 0) != 0) __builtin_trap();  // every error names its line
    return 0;
  }
  const auto again = attnprop::Case::Parse(c->ToText(), &error);
  if (!again || !(*again == *c)) __builtin_trap();  // the exact text form round-trips
  return 0;
}
