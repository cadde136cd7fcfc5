// GPU timing: CUDA events around each launch, the launches enqueued back to back on one
// stream so the GPU never waits for the host between them, then the median.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace tilemm::bench {

// Enqueues one product on operand set `set`; returns "" on success, else the failure.
using LaunchOnSet = std::function<std::string(int set)>;

struct TimedRuns {
  std::vector<double> milliseconds;  // one per launch, in launch order
  std::string failure;               // the first launch that failed; no times then
};

// Times `count` launches on sets first_set, first_set + 1, ... (the launcher wraps them
// around its set count). Waits for the last one.
TimedRuns time_launches(const LaunchOnSet& launch, int count, int first_set, cudaStream_t stream);

double median(std::vector<double> values);

// How many warm-ups and timed iterations a kernel gets: the requested numbers unless a
// run takes so long that they would exceed the budget (seconds), then as many as fit
// (at least one timed run). Pure, so the policy is tested without a GPU.
struct IterationPlan {
  int warmup = 0;
  int iterations = 0;
  bool reduced = false;  // fewer iterations than requested: the row must say so
};
IterationPlan plan_warmup(double first_run_ms, int requested_warmup, double budget_seconds);
IterationPlan plan_iterations(const IterationPlan& warmup, double estimate_ms,
                              int requested_iterations, double budget_seconds);

}  // namespace tilemm::bench
