// Checks a reproduce token's bytes before RapidCheck decodes them. Its
// decoder trusts the token: a length field makes it reserve that many bytes
// (terabytes, from a mutated token), a varint past 64 bits is an undefined
// shift, a random state with a non-zero counter trips an assertion in
// Random::split(), a size above 100 is undefined behaviour in this snapshot.
// Here every field is read with bounds and checked first (found and kept
// honest by fuzz/token_decoder).
#pragma once

#include <string>

namespace attnprop {

/// Throws std::invalid_argument ("malformed reproduce token: why") unless
/// `params` (an RC_PARAMS-style string holding reproduce=VALUE) holds a
/// reproduce value that decodes to a well-formed map of at most 64
/// properties, each with a size in 0..100, a random state RapidCheck could
/// have split off, and a shrink path of at most 100000 steps.
void CheckReproduceToken(const std::string& params);

}  // namespace attnprop
