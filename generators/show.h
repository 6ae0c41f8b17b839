// Exact printing for RapidCheck counterexamples (found by ADL): every value
// prints exactly, hexfloat beside a decimal ("0x1.8p+1 (=3)"), rationals as
// p/q, matrices row by row. RapidCheck's default (6 significant digits) is
// not the value that failed.
#pragma once

#include <iosfwd>
#include <string>

#include "generators/matrices.h"
#include "generators/sequences.h"
#include "model/exact.h"

namespace attnprop {

void showValue(const Exact& x, std::ostream& os);
void showValue(const ExactMatrix& m, std::ostream& os);

}  // namespace attnprop

namespace attnprop::gen {

/// The text showValue prints for a matrix: "RxC" then one line per row.
std::string MatrixText(const ExactMatrix& m, const std::string& indent = "  ");

void showValue(const Params& p, std::ostream& os);
void showValue(const SpectralCase& c, std::ostream& os);
void showValue(const FactoredCase& c, std::ostream& os);
void showValue(const AttentionProblem& p, std::ostream& os);
void showValue(const TokenSequence& s, std::ostream& os);
void showValue(const WeightSet& w, std::ostream& os);
void showValue(const NormedMap& m, std::ostream& os);
void showValue(const LipschitzMap& m, std::ostream& os);

}  // namespace attnprop::gen
