#include "timing.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

#include "cuda_check.hpp"
#include "device_kernels.hpp"

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
  // Each pair's elapsed time divided by the runs it spans, once the last stop event has
  // completed.
  std::vector<double> milliseconds(int runs_per_pair) const {
    std::vector<double> ms;
    ms.reserve(start_.size());
    for (std::size_t i = 0; i < start_.size(); ++i) {
      float t = 0.0f;
      check_cuda(cudaEventElapsedTime(&t, start_[i], stop_[i]), "cudaEventElapsedTime");
      ms.push_back(double(t) / runs_per_pair);
    }
    return ms;
  }

 private:
  std::vector<cudaEvent_t> start_, stop_;
};

// Holds the stream while the host enqueues a batch of timed runs, then lets them go.
// Enqueued back to back alone, runs reach the GPU only as fast as the host makes the
// calls: on an H200 one cuBLAS call took ~16 us of host time (its two events included)
// and a bf16 1024^3 product ~8 us on the GPU, so the GPU idled between runs, each run's
// start event completed before the host had made the call, and cuBLAS measured 14.1 us
// where its runs with the queue full took 8.3 us (tilemm's ~10 us calls hid behind its
// longer kernels). Held, a whole batch is queued before its first run starts, so the
// events time GPU work only. A batch is small enough (kRunsPerHold runs) that the
// launch queue cannot fill while the stream is held; should the hold time out anyway
// (the host stalled), the runs go on and the times carry a note.
class StreamGate {
 public:
  static constexpr int kRunsPerHold = 32;
  static constexpr double kTimeoutSeconds = 2.0;

  // Samples of runs_per_sample runs each are held in groups of samples_per_hold_: a hold
  // never splits a sample (its event pair would time the hold kernel).
  StreamGate(cudaStream_t stream, int runs_per_sample)
      : stream_(stream), samples_per_hold_(std::size_t(std::max(1, kRunsPerHold / runs_per_sample))) {
    check_cuda(cudaHostAlloc(reinterpret_cast<void**>(&words_), 2 * sizeof(unsigned), cudaHostAllocMapped),
               "cudaHostAlloc");
    words_[0] = words_[1] = 0u;
  }
  ~StreamGate() {
    // A hold still closed (an exception left the batch) is opened, and the stream drained,
    // before the words go; a failure here follows one already reported.
    *static_cast<volatile unsigned*>(&words_[0]) = ticket_;
    static_cast<void>(cudaStreamSynchronize(stream_));
    static_cast<void>(cudaFreeHost(words_));
  }
  StreamGate(const StreamGate&) = delete;
  StreamGate& operator=(const StreamGate&) = delete;

  // Around sample j of `samples`: the first of a group holds the stream, the last of a
  // group (or of all) lets the group go.
  void before_sample(std::size_t j) {
    if (j % samples_per_hold_ == 0) hold();
  }
  void after_sample(std::size_t j, std::size_t samples) {
    if (j % samples_per_hold_ == samples_per_hold_ - 1 || j + 1 == samples) open();
  }
  // After a failed launch: lets what was enqueued run and waits for it, so that what is
  // timed next starts on an idle stream; `hold_again` when the group goes on.
  void drain(bool hold_again) {
    open();
    check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
    if (hold_again) hold();
  }
  // After the stream has drained: whether any hold ran out of time.
  bool timed_out() const { return *static_cast<volatile const unsigned*>(&words_[1]) != 0u; }

 private:
  void hold() {
    ++ticket_;
    check_cuda(hold_stream_until(&words_[0], ticket_, kTimeoutSeconds, &words_[1], stream_), "hold_stream_until");
  }
  void open() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *static_cast<volatile unsigned*>(&words_[0]) = ticket_;
  }

  cudaStream_t stream_;
  std::size_t samples_per_hold_;
  unsigned* words_ = nullptr;  // [0]: the tickets opened so far, [1]: a hold timed out
  unsigned ticket_ = 0;
};

// The host's time for one run's calls (its events, the launch), in milliseconds.
class HostClock {
 public:
  HostClock() : start_(std::chrono::steady_clock::now()) {}
  double milliseconds() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// One timed sample: `runs` consecutive launches on sets set, set + 1, ... between one
// event pair; the host's time per run goes into r. Returns the first failure, or "".
std::string time_sample(const LaunchOnSet& launch, int set, int runs, cudaEvent_t start, cudaEvent_t stop,
                        cudaStream_t stream, TimedRuns& r) {
  const HostClock host;
  check_cuda(cudaEventRecord(start, stream), "cudaEventRecord");
  for (int i = 0; i < runs; ++i) {
    std::string failure = launch(set + i);
    if (!failure.empty()) return failure;
  }
  check_cuda(cudaEventRecord(stop, stream), "cudaEventRecord");
  r.host_milliseconds.push_back(host.milliseconds() / runs);
  return {};
}

constexpr const char* kGateTimedOutNote =
    "the stream hold timed out while the host enqueued the runs: host time may be in these times";

}  // namespace

TimedRuns time_launches(const LaunchOnSet& launch, int count, int first_set, cudaStream_t stream, RunQueue queue,
                        int runs_per_sample) {
  TimedRuns runs;
  if (count <= 0) return runs;
  EventPairs events(count);
  std::optional<StreamGate> gate;
  if (queue == RunQueue::Held) gate.emplace(stream, runs_per_sample);
  for (int i = 0; i < count; ++i) {
    if (gate) gate->before_sample(std::size_t(i));
    runs.failure = time_sample(launch, first_set + i * runs_per_sample, runs_per_sample, events.start(i),
                               events.stop(i), stream, runs);
    if (!runs.failure.empty()) {
      if (gate) {
        gate->drain(false);
      } else {
        check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      }
      return runs;
    }
    if (gate) gate->after_sample(std::size_t(i), std::size_t(count));
  }
  check_cuda(cudaEventSynchronize(events.stop(count - 1)), "cudaEventSynchronize");
  runs.milliseconds = events.milliseconds(runs_per_sample);
  if (gate && gate->timed_out()) runs.note = kGateTimedOutNote;
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
                                        cudaStream_t stream, int runs_per_sample) {
  std::vector<TimedRuns> runs(kernels.size());
  std::vector<int> counts;
  std::vector<std::unique_ptr<EventPairs>> events;
  for (const auto& k : kernels) {
    counts.push_back(std::max(k.count, 0));
    events.push_back(std::make_unique<EventPairs>(counts.back()));
  }
  StreamGate gate(stream, runs_per_sample);
  const std::vector<InterleavedRun> order = interleaved_order(counts);
  int set = first_set;
  for (std::size_t j = 0; j < order.size(); ++j) {
    gate.before_sample(j);
    const InterleavedRun& at = order[j];
    const InterleavedKernel& k = kernels[at.kernel];
    TimedRuns& r = runs[at.kernel];
    if (r.failure.empty()) {
      if (k.select) k.select();
      r.failure = time_sample(k.launch, set, runs_per_sample, events[at.kernel]->start(at.run),
                              events[at.kernel]->stop(at.run), stream, r);
      set += runs_per_sample;
      if (!r.failure.empty()) gate.drain(true);  // the other kernels' runs go on
    }
    gate.after_sample(j, order.size());
  }
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (!runs[i].failure.empty()) continue;
    runs[i].milliseconds = events[i]->milliseconds(runs_per_sample);
    if (gate.timed_out()) runs[i].note = kGateTimedOutNote;
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
  // Warm-ups may take half the budget, but at least one runs where any were asked: the
  // verified first run also paid what only a first call costs (CUDA's lazy loading of the
  // kernel's module, the first call through `auto`: ~0.1 s on an H100), and the number of
  // timed runs is planned from the warm-ups. Without one, `auto`'s first shape in a process
  // with --budget 0.1 was timed once, on a plan made from its cold run.
  IterationPlan plan;
  const double half_budget_ms = budget_seconds * 500.0;
  const int fit = first_run_ms > 0.0 ? int(std::min(half_budget_ms / first_run_ms, 1e6)) : requested_warmup;
  const int requested = std::max(requested_warmup, 0);
  plan.warmup = std::clamp(fit, std::min(requested, 1), requested);
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
