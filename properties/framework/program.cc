#include "properties/framework/program.h"

#include <utility>

namespace attnprop {
namespace {
Program& Current() {
  static Program p;
  return p;
}
}  // namespace

const Program& ThisProgram() { return Current(); }
void SetProgram(Program p) { Current() = std::move(p); }

}  // namespace attnprop
