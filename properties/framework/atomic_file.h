// Writing a file so that a reader never sees half of it: a temporary file
// in the same directory, then a rename. Used by the store and the reports.
#pragma once

#include <string>

namespace attnprop {

/// Writes `text` to `path` through a temporary file in the same directory and
/// a rename. Throws std::runtime_error naming the path on failure.
void WriteFileAtomically(const std::string& path, const std::string& text);

}  // namespace attnprop
