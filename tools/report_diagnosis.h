// check-kernel's diagnosis (properties/abi/diagnosis.h) of a
// report's unexpected kernel results, in the report model (reports/report.h).
// Used by check-kernel (console and report files) and by merge, which
// recomputes it over the joined shards: the class depends on the pattern of
// all the failing properties, which no one shard sees.
#pragma once

#include "reports/report.h"

namespace attnprop::cli {

/// The entries that were not as expected, in report order.
std::vector<size_t> UnexpectedEntries(const report::Report& r);

/// The diagnosis of the report's unexpected entries (empty when none).
report::Diagnosis DiagnoseReport(const report::Report& r);

}  // namespace attnprop::cli
