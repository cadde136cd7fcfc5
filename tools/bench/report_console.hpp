// What the bench prints: the banner, the results table (aligned text or Markdown), the
// CUDA-samples form of each run, and the summary against cuBLAS.
#pragma once

#include <ostream>
#include <string>

#include "results.hpp"

namespace tilemm::bench {

void print_banner(std::ostream& out, const BenchReport& report, bool markdown);
void print_results_table(std::ostream& out, const BenchReport& report, bool markdown);
// The classic CUDA-samples matrixMul lines for one row.
void print_sample_row(std::ostream& out, const RunResult& row);
void print_sample_header(std::ostream& out, const DeviceReport& device);
// Geometric-mean ratios to cuBLAS and worst shapes, then the overall verdict line.
void print_summary(std::ostream& out, const BenchReport& report);

// A row's check cell ("PASS", "FAIL", "REF", "-", "n/s", "ERROR") and note cell (the
// failure first), as the results table shows them; the tune report shows them too.
std::string check_cell(const RunResult& row);
std::string note_cell(const RunResult& row);

}  // namespace tilemm::bench
