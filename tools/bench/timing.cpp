#include "timing.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "cuda_check.hpp"

namespace tilemm::bench {
namespace {

// Event pairs live for one call; cudaEventCreate is cheap next to any timed product.
class EventPairs {
 public:
  explicit EventPairs(int count) : start_(std::size_t(count)), stop_(std::size_t(count)) {
    for (std::size_t i = 0; i < start_.size(); ++i) {
      check_cuda(cudaEventCreate(&start_[i]), "cudaEventCreate");
      check_cuda(cudaEventCreate(&stop_[i]), "cudaEventCreate");
    }
  }
  ~EventPairs() {
    // Destruction cannot report; a failure here follows one already reported.
    for (auto e : start_) if (e != nullptr) static_cast<void>(cudaEventDestroy(e));
    for (auto e : stop_) if (e != nullptr) static_cast<void>(cudaEventDestroy(e));
  }
  EventPairs(const EventPairs&) = delete;
  EventPairs& operator=(const EventPairs&) = delete;
  cudaEvent_t start(int i) const { return start_[std::size_t(i)]; }
  cudaEvent_t stop(int i) const { return stop_[std::size_t(i)]; }
  // Each pair's elapsed time, once the last stop event has completed.
  std::vector<double> milliseconds() const {
    std::vector<double> ms;
    ms.reserve(start_.size());
    for (std::size_t i = 0; i < start_.size(); ++i) {
      float t = 0.0f;
      check_cuda(cudaEventElapsedTime(&t, start_[i], stop_[i]), "cudaEventElapsedTime");
      ms.push_back(t);
    }
    return ms;
  }

 private:
  std::vector<cudaEvent_t> start_, stop_;
};

}  // namespace

TimedRuns time_launches(const LaunchOnSet& launch, int count, int first_set, cudaStream_t stream) {
  TimedRuns runs;
  if (count <= 0) return runs;
  EventPairs events(count);
  for (int i = 0; i < count; ++i) {
    check_cuda(cudaEventRecord(events.start(i), stream), "cudaEventRecord");
    runs.failure = launch(first_set + i);
    if (!runs.failure.empty()) {
      // Drain what was enqueued so the next measurement starts on an idle stream.
      check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      return runs;
    }
    check_cuda(cudaEventRecord(events.stop(i), stream), "cudaEventRecord");
  }
  check_cuda(cudaEventSynchronize(events.stop(count - 1)), "cudaEventSynchronize");
  runs.milliseconds = events.milliseconds();
  return runs;
}

std::vector<InterleavedRun> interleaved_order(const std::vector<int>& counts) {
  std::vector<InterleavedRun> order;
  const int rounds = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  // A Williams design: the base order 0, 1, K-1, 2, K-2, ... shifted by r in round r puts
  // every kernel right after every other one once in K rounds when K is even; with K odd
  // the second K rounds run the shifted orders backwards, which covers the pairs left.
  const std::size_t kernels = counts.size();
  std::vector<std::size_t> base;
  for (std::size_t i = 0; i < kernels; ++i) base.push_back(i % 2 == 1 ? (i + 1) / 2 : (kernels - i / 2) % kernels);
  for (int r = 0; r < rounds; ++r) {
    const bool backwards = kernels % 2 == 1 && (std::size_t(r) / kernels) % 2 == 1;
    for (std::size_t i = 0; i < kernels; ++i) {
      const std::size_t k = (base[backwards ? kernels - 1 - i : i] + std::size_t(r)) % kernels;
      if (r < counts[k]) order.push_back({k, r});
    }
  }
  return order;
}

std::vector<TimedRuns> time_interleaved(const std::vector<InterleavedKernel>& kernels, int first_set,
                                        cudaStream_t stream) {
  std::vector<TimedRuns> runs(kernels.size());
  std::vector<int> counts;
  std::vector<std::unique_ptr<EventPairs>> events;
  for (const auto& k : kernels) {
    counts.push_back(std::max(k.count, 0));
    events.push_back(std::make_unique<EventPairs>(counts.back()));
  }
  int set = first_set;
  for (const InterleavedRun& at : interleaved_order(counts)) {
    const InterleavedKernel& k = kernels[at.kernel];
    TimedRuns& r = runs[at.kernel];
    if (!r.failure.empty()) continue;
    if (k.select) k.select();
    check_cuda(cudaEventRecord(events[at.kernel]->start(at.run), stream), "cudaEventRecord");
    r.failure = k.launch(set++);
    if (!r.failure.empty()) {
      // Drain what was enqueued so the other kernels' runs start on an idle stream.
      check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      continue;
    }
    check_cuda(cudaEventRecord(events[at.kernel]->stop(at.run), stream), "cudaEventRecord");
  }
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (runs[i].failure.empty()) runs[i].milliseconds = events[i]->milliseconds();
  }
  return runs;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const auto mid = values.begin() + std::ptrdiff_t(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (values.size() % 2 == 1) return *mid;
  const double upper = *mid;
  const double lower = *std::max_element(values.begin(), mid);
  return (lower + upper) / 2.0;
}

IterationPlan plan_warmup(double first_run_ms, int requested_warmup, double budget_seconds) {
  // Warm-ups may take half the budget; the verified first run has already warmed up
  // caches, clocks and lazy module loading, so a very slow kernel needs none more.
  IterationPlan plan;
  const double half_budget_ms = budget_seconds * 500.0;
  const int fit = first_run_ms > 0.0 ? int(std::min(half_budget_ms / first_run_ms, 1e6)) : requested_warmup;
  plan.warmup = std::clamp(fit, 0, std::max(requested_warmup, 0));
  plan.reduced = plan.warmup < requested_warmup;
  return plan;
}

IterationPlan plan_iterations(const IterationPlan& warmup, double estimate_ms, int requested_iterations,
                              double budget_seconds) {
  IterationPlan plan = warmup;
  const double budget_ms = budget_seconds * 1000.0;
  const int fit = estimate_ms > 0.0 ? int(std::min(budget_ms / estimate_ms, 1e6)) : requested_iterations;
  plan.iterations = std::clamp(fit, 1, std::max(requested_iterations, 1));
  plan.reduced = plan.reduced || plan.iterations < requested_iterations;
  return plan;
}

}  // namespace tilemm::bench
