// What --tune prints in place of the results table: per shape, the configurations
// ranked by time with 'auto' and cuBLAS among them; per class, the winners and whether
// 'auto' chose them; then the relative speeds for the family's relative_speed column.
#pragma once

#include <ostream>

#include "results.hpp"

namespace tilemm::bench {

// Reads report.rows and report.tune (which must be set).
void print_tune_report(std::ostream& out, const BenchReport& report, bool markdown);

}  // namespace tilemm::bench
