// libFuzzer target: ParseStore on any text. It must return entries or throw
// StoreError ("FILE:LINE: why"), never crash, allocate without limit or hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "properties/framework/store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto cases = attnprop::ParseStore(text, "fuzz.txt");
    for (const auto& c : cases) {
      // What was read formats to an entry that reads back the same.
      const auto again = attnprop::ParseStore(attnprop::FormatStoredCase(c), "again.txt");
      if (again.size() != 1 || !(again[0].value == c.value) || again[0].backends != c.backends) __builtin_trap();
    }
  } catch (const attnprop::StoreError& e) {
    if (std::string(e.what()).rfind("fuzz.txt:", 0) != 0) __builtin_trap();  // names the file and line
  }
  return 0;
}
