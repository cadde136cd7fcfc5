// GPU timing: CUDA events around each launch, the launches enqueued on one stream held
// until a batch of them is queued, so the GPU never waits for the host between them, then
// the median.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace tilemm::bench {

// Enqueues one product on operand set `set`; returns "" on success, else the failure.
using LaunchOnSet = std::function<std::string(int set)>;

struct TimedRuns {
  std::vector<double> milliseconds;       // GPU time per run, one per sample, in launch order
  std::vector<double> host_milliseconds;  // the host's time to make a run's calls, per sample
  std::string failure;                    // the first launch that failed; no times then
  std::string note;                       // what the reader of the times must know, or ""
};

// How the runs reach the GPU. Held: the stream waits behind a small kernel while the host
// enqueues up to 32 runs, so that no run waits for the host's next call and the events
// time GPU work alone (timing.cpp, StreamGate, has the measurement that asked for it).
// AsCalled: each run starts as soon as it is enqueued; for a process's first launch of a
// kernel, which may load its module and must not wait behind a held stream.
enum class RunQueue { Held, AsCalled };

// Times `count` samples of `runs_per_sample` consecutive launches each (one event pair
// around a sample; its time divided by the runs), on sets first_set, first_set + 1, ...
// (the launcher wraps them around its set count). Waits for the last one.
TimedRuns time_launches(const LaunchOnSet& launch, int count, int first_set, cudaStream_t stream,
                        RunQueue queue = RunQueue::Held, int runs_per_sample = 1);

// Interleaved timing (--interleave): the timed runs of a shape's kernels alternate, one
// run of each kernel per round, so that every kernel meets the same clocks and
// temperature. Timed back to back instead, a kernel's runs share one stretch of the
// GPU's power history: on an H200 at 8192^3 the same kernel measured up to 2.5% slower
// when it was timed second or third in a burst than when it was timed first.
struct InterleavedKernel {
  std::function<void()> select;  // called before each run, outside its events (may be empty)
  LaunchOnSet launch;
  int count = 0;  // timed runs
};

// The order of the runs: round r holds run r of every kernel with more than r runs, in
// an order that changes from round to round (a balanced Latin square), so that over the
// rounds every kernel directly follows every other one: a kernel's time
// depends on the kernel before it (on an H200 one kernel ran 2000^3 bf16 in 33.7 us
// after one neighbour and 28.6 us after another, in the same fixed-order rounds). Pure,
// so the schedule is tested without a GPU.
struct InterleavedRun {
  std::size_t kernel;
  int run;
};
std::vector<InterleavedRun> interleaved_order(const std::vector<int>& counts);

// Times the kernels' runs in interleaved_order, enqueued on one stream held as in
// time_launches, and waits for the last. The runs take consecutive sets from first_set on,
// whichever kernel they belong to: consecutive runs never share a set, so no kernel finds
// its operands in L2 from the run before it (with a set per kernel and round, every kernel
// after the first in a round did, and cuBLAS ran 1000^3 fp32 15% faster for it). One
// TimedRuns per kernel; a kernel whose launch fails keeps the failure, no times, and runs
// no more. With runs_per_sample > 1 a round's unit is a sample of that many consecutive
// runs of one kernel, as in time_launches.
std::vector<TimedRuns> time_interleaved(const std::vector<InterleavedKernel>& kernels, int first_set,
                                        cudaStream_t stream, int runs_per_sample = 1);

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
