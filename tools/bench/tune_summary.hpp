// --tune's analysis of the rows a tuning run produced: per shape, the configurations
// ranked by time, and the winners: the fastest configuration per shape, whether 'auto'
// chose it, and each configuration's relative speed over the large squares. Pure (no
// GPU), so the arithmetic is tested on the CPU.
#pragma once

#include <string>
#include <vector>

#include "results.hpp"

namespace tilemm::bench {

// The rows of one shape of a tuning run, by role. The pointers point into the rows
// given to group_tuning_rows, which must outlive this.
struct TuneShapeRows {
  Shape shape;
  // The family's configurations that ran and verified (or ran unverified under
  // --verify none), fastest first: the only rows that may win.
  std::vector<const RunResult*> ranked;
  // Declined (n/s), failed, or FAIL: shown with their reason, never ranked.
  std::vector<const RunResult*> excluded;
  const RunResult* automatic = nullptr;  // the 'auto' row
  const RunResult* cublas = nullptr;

  const RunResult* fastest() const { return ranked.empty() ? nullptr : ranked.front(); }
};

// Groups the rows by shape, in run order. A row is cuBLAS's, auto's, or a configuration's.
std::vector<TuneShapeRows> group_tuning_rows(const std::vector<RunResult>& rows);

// The fastest's time over the row's: 1 for the fastest, < 1 for slower rows.
std::optional<double> speed_vs_fastest(const TuneShapeRows& shape, const RunResult& row);
// The row's TFLOP/s over cuBLAS's on the same shape.
std::optional<double> speed_vs_cublas(const TuneShapeRows& shape, const RunResult& row);

// The winners per shape and the relative speeds over the shapes of kLargeSquareClass:
// a configuration's geometric-mean speed relative to each shape's fastest, scaled so
// that the best configuration is 1 (the relative_speed column of the family's table).
TuneSummary summarize_tuning(const std::vector<RunResult>& rows, const std::string& tune_class,
                             const std::string& family);

}  // namespace tilemm::bench
