// libFuzzer target: a reproduce token (the text after "reproduce="). The
// decoder must reject it (std::invalid_argument) or accept a token that
// RapidCheck then replays on a property without crashing or hanging: the
// replay runs here, on a small property whose cases shrink.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "properties/framework/rc_bridge.h"

namespace {

class NoEvents : public attnprop::CaseEvents {
 public:
  void CaseFinished(bool, bool) override {}
  void ShrinkTried(bool) override {}
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string token(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> names;
  try {
    names = attnprop::ReproduceTokenProperties(token);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (names.empty()) __builtin_trap();  // accepted tokens name a property
  attnprop::RunOptions options;
  options.reproduce = token.rfind("reproduce=", 0) == 0 ? token : "reproduce=" + token;
  const rc::Gen<attnprop::Case> gen = rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 1000), rc::gen::inRange(0, 8)),
                                                   [](std::pair<int, int> p) {
                                                     return attnprop::Case().Int("x", p.first).Int("y", p.second);
                                                   });
  NoEvents events;
  try {
    attnprop::RunRandomPhase(
        names[0], gen,
        [](const attnprop::Case& c) {
          if (c.GetInt("x") > 100 && c.GetInt("y") > 2) throw std::runtime_error("fails");
        },
        options, 1, events);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
