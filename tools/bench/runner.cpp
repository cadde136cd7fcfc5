#include "runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

#include "cuda_check.hpp"
#include "library_call.hpp"
#include "operands.hpp"
#include "timing.hpp"
#include "verification.hpp"

namespace tilemm::bench {
namespace {

std::string seconds_text(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g s", ms / 1000.0);
  return text;
}

// How a row's timed runs go once its first run is verified and it is warm.
struct TimingPlan {
  IterationPlan plan;
  double estimate_ms = 0.0;  // one run, from the warm-ups
};

// Measures one row on one shape: everything that is the same for tilemm and cuBLAS.
class ShapeMeasurement {
 public:
  ShapeMeasurement(const RunContext& context, const Shape& shape, std::uint64_t seed)
      : context_(context),
        shape_(shape),
        operands_(shape, context.dtype, context.device.l2_bytes, seed, context.options.beta == 0.0, context.stream),
        verifier_(resolve_verify_method(context.options.verify, shape), shape, operands_, context.options.alpha,
                  context.options.beta, context.cublas, context.stream) {}

  const Operands& operands() const { return operands_; }
  const Verifier& verifier() const { return verifier_; }

  RunResult new_row() const {
    RunResult row;
    row.shape = shape_;
    row.dtype = context_.dtype.name;
    row.alpha = context_.options.alpha;
    row.beta = context_.options.beta;
    row.requested_iterations = context_.options.iterations;
    row.input_sets = operands_.set_count();
    row.input_footprint_bytes = double(operands_.footprint_bytes());
    row.verified_against = verify_method_name(verifier_.method());
    return row;
  }

  // The first run (on set 0, from the initial C) is verified unless this row is the
  // reference; then the warm-ups on the sets after it, and the plan for the timed runs,
  // which go on from there (first_timed_set). On a failed launch the row is marked Failed
  // with the launcher's words and there is no plan.
  std::optional<TimingPlan> prepare(RunResult& row, const LaunchOnSet& launch, bool is_reference) const {
    const BenchOptions& o = context_.options;
    operands_.restore_initial_c(context_.stream);
    const TimedRuns first = time_launches(launch, 1, 0, context_.stream, RunQueue::AsCalled);
    if (!fail_on(row, first)) return std::nullopt;
    verify(row, is_reference);

    const IterationPlan warm = plan_warmup(first.milliseconds.front(), o.warmup, o.budget_seconds);
    const TimedRuns warmups = time_launches(launch, warm.warmup, 1, context_.stream);
    if (!fail_on(row, warmups)) return std::nullopt;
    const double estimate = warmups.milliseconds.empty() ? first.milliseconds.front() : median(warmups.milliseconds);
    return TimingPlan{plan_iterations(warm, estimate, o.iterations, o.budget_seconds), estimate};
  }

  static int first_timed_set(const TimingPlan& t) { return 1 + t.plan.warmup; }

  // The timed runs into the row: their median, extremes and rates.
  void record(RunResult& row, const TimingPlan& t, const TimedRuns& timed) const {
    if (!fail_on(row, timed)) return;
    const IterationPlan& plan = t.plan;
    row.warmup = plan.warmup;
    row.iterations = plan.iterations;
    row.reduced_iterations = plan.reduced;
    row.time_ms = median(timed.milliseconds);
    row.time_min_ms = *std::min_element(timed.milliseconds.begin(), timed.milliseconds.end());
    row.time_max_ms = *std::max_element(timed.milliseconds.begin(), timed.milliseconds.end());
    if (!timed.host_milliseconds.empty()) row.host_call_ms = median(timed.host_milliseconds);
    if (!timed.note.empty()) add_note(row, timed.note);
    const double flops_per_s = shape_.flops() / (*row.time_ms * 1e-3);
    row.tflops = flops_per_s / 1e12;
    if (context_.device.peak_flops > 0.0) row.percent_of_peak = 100.0 * flops_per_s / context_.device.peak_flops;
    if (plan.reduced) {
      add_note(row, "median of " + std::to_string(plan.iterations) + " runs (asked " +
                        std::to_string(context_.options.iterations) + ") after " + std::to_string(plan.warmup) +
                        " warm-ups: one run takes ~" + seconds_text(t.estimate_ms) + ", the budget is " +
                        seconds_text(context_.options.budget_seconds * 1000.0));
    }
  }

  static void add_note(RunResult& row, const std::string& note) {
    row.note += (row.note.empty() ? "" : "; ") + note;
  }

 private:
  // true when the runs went through; otherwise marks the row.
  static bool fail_on(RunResult& row, const TimedRuns& runs) {
    if (runs.failure.empty()) return true;
    row.status = RowStatus::Failed;
    row.status_detail = runs.failure;
    return false;
  }

  void verify(RunResult& row, bool is_reference) const {
    if (is_reference) {
      row.check = Check::IsReference;
      return;
    }
    if (verifier_.method() == VerifyMethod::None) return;
    if (!verifier_.unavailable().empty()) {
      add_note(row, "not verified: " + verifier_.unavailable());
      return;
    }
    const VerifyOutcome outcome = verifier_.check(operands_.set(0).c, context_.stream);
    row.error = outcome.error;
    row.relative_error = outcome.relative_error;
    row.tolerance = outcome.tolerance;
    row.check = outcome.passed ? Check::Pass : Check::Fail;
  }

  const RunContext& context_;
  Shape shape_;
  Operands operands_;
  Verifier verifier_;
};

// One row of a shape, a library kernel or cuBLAS: how to launch it, what the library
// reported, and its plan once it is warm.
struct Contender {
  RunResult row;
  const KernelChoice* choice = nullptr;  // null for cuBLAS
  bool is_reference = false;
  std::function<void()> select;  // library rows: makes the handle run the chosen kernel
  LaunchOnSet launch;
  tilemmStatus_t last_status = TILEMM_STATUS_SUCCESS;
  std::string ran;  // the kernel the library ran for the verified first run
  std::optional<TimingPlan> timing;
};

std::unique_ptr<Contender> library_contender(const RunContext& context, const ShapeMeasurement& measurement,
                                             const KernelChoice& choice) {
  auto c = std::make_unique<Contender>();
  c->row = measurement.new_row();
  c->row.requested = choice.requested;
  c->choice = &choice;
  c->select = [&context, &choice] {
    const tilemmStatus_t set = tilemmSetAlgorithm(context.handle, choice.requested.c_str());
    if (set != TILEMM_STATUS_SUCCESS) {
      throw BenchError(std::string("tilemmSetAlgorithm(") + choice.requested + "): " + tilemmGetStatusString(set) +
                       ": " + tilemmGetErrorDetail(context.handle));
    }
  };
  const float alpha = static_cast<float>(context.options.alpha);
  const float beta = static_cast<float>(context.options.beta);
  Contender* const self = c.get();
  c->launch = [&context, &measurement, self, alpha, beta](int set_index) {
    self->last_status = call_tilemm(context.handle, self->row.shape, context.dtype, measurement.operands().layout(),
                                    measurement.operands().set(set_index), alpha, beta);
    if (self->last_status == TILEMM_STATUS_SUCCESS) return std::string();
    return std::string(tilemmGetStatusString(self->last_status)) + ": " + tilemmGetErrorDetail(context.handle);
  };
  return c;
}

std::unique_ptr<Contender> cublas_contender(const RunContext& context, const ShapeMeasurement& measurement) {
  auto c = std::make_unique<Contender>();
  c->row = measurement.new_row();
  c->row.requested = "cublas";
  c->row.kernel = "cublas";
  c->row.is_cublas = true;
  c->is_reference = measurement.verifier().method() == VerifyMethod::Cublas;
  const float alpha = static_cast<float>(context.options.alpha);
  const float beta = static_cast<float>(context.options.beta);
  const Contender* const self = c.get();
  c->launch = [&context, &measurement, self, alpha, beta](int set_index) {
    return context.cublas.gemm(self->row.shape, context.dtype, measurement.operands().layout(),
                               measurement.operands().set(set_index), alpha, beta);
  };
  return c;
}

// The verified first run and the warm-ups; a library row remembers the kernel that ran.
void prepare_contender(const RunContext& context, const ShapeMeasurement& measurement, Contender& c) {
  if (c.select) c.select();
  c.timing = measurement.prepare(c.row, c.launch, c.is_reference);
  if (c.choice != nullptr && c.row.status == RowStatus::Ok) c.ran = tilemmGetLastKernel(context.handle);
}

// A library row's explain columns, and what the library said when it declined.
void finish_library_row(const RunContext& context, Contender& c) {
  RunResult& row = c.row;
  if (row.status == RowStatus::Failed &&
      (c.last_status == TILEMM_STATUS_NOT_SUPPORTED || c.last_status == TILEMM_STATUS_ARCH_MISMATCH)) {
    // The library declined this problem, as the API contract says it must when a kernel
    // cannot compute it: reported, not a failure.
    row.status = RowStatus::NotSupported;
    ShapeMeasurement::add_note(row, row.status_detail);
  }
  const std::string ran = row.status == RowStatus::Ok ? c.ran : "";
  const KernelEntry* entry = c.choice->entry;
  if (entry == nullptr) entry = registry().find(ran);
  if (c.choice->entry != nullptr && !ran.empty() && ran != c.choice->entry->name) {
    // alpha = 0 is served by the library's C = beta * C path, whatever kernel is forced.
    ShapeMeasurement::add_note(row, "the library ran '" + ran + "' for this problem");
  }
  if (entry != nullptr) {
    row.kernel = entry->name;
    row.family = entry->family;
    row.ladder_step = entry->ladder_step;
    row.arithmetic_intensity = entry->arithmetic_intensity;
    if (row.status == RowStatus::Ok) row.resources = query_resources(*entry, context.device.max_threads_per_sm);
  }
}

void fill_percent_of_cublas(std::vector<RunResult>& rows) {
  const auto cublas = std::find_if(rows.begin(), rows.end(), [](const RunResult& r) {
    return r.is_cublas && r.status == RowStatus::Ok && r.tflops;
  });
  if (cublas == rows.end()) return;
  for (auto& r : rows) {
    if (r.tflops) r.percent_of_cublas = 100.0 * *r.tflops / *cublas->tflops;
  }
}

}  // namespace

std::vector<RunResult> run_benchmarks(const RunContext& context, const std::vector<Shape>& shapes,
                                      const KernelSelection& selection, ProgressBar& progress,
                                      const RowCallback& on_row) {
  std::vector<RunResult> all_rows;
  int done = 0;
  const auto cooldown = [&] {
    // Back-to-back kernels heat the GPU and later rows would run at lower clocks; a
    // pause between rows keeps the comparison even on long sweeps.
    if (done > 0 && context.options.cooldown_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(context.options.cooldown_ms));
    }
  };
  // One shape's operands, reference and rows (the selected kernels, then cuBLAS).
  struct ShapeRun {
    Shape shape;
    std::unique_ptr<ShapeMeasurement> measurement;
    std::vector<std::unique_ptr<Contender>> contenders;
  };
  const auto open_shape = [&](std::size_t s) {
    ShapeRun run{shapes[s], nullptr, {}};
    progress.update(done, "preparing operands and reference for " + run.shape.label());
    // A different seed per shape, so shapes of equal size do not share inputs.
    run.measurement = std::make_unique<ShapeMeasurement>(context, run.shape, context.options.seed + s);
    for (const KernelChoice& choice : selection.kernels) {
      run.contenders.push_back(library_contender(context, *run.measurement, choice));
    }
    if (selection.cublas) run.contenders.push_back(cublas_contender(context, *run.measurement));
    return run;
  };
  const auto label = [](const ShapeRun& run, const Contender& c) {
    return (c.choice != nullptr ? c.choice->requested : std::string("cuBLAS")) + " " + run.shape.label();
  };
  // Every row verified and warm, its timed runs left for an interleaved loop.
  const auto prepare_rows = [&](ShapeRun& run) {
    for (auto& c : run.contenders) {
      cooldown();
      progress.update(done, label(run, *c) + " (first run and warm-ups)");
      prepare_contender(context, *run.measurement, *c);
      ++done;
    }
  };
  // The timed runs of all these shapes' rows alternating, one run of each per round.
  const auto time_rows_interleaved = [&](std::vector<ShapeRun*> runs, const std::string& what) {
    cooldown();
    progress.update(done, "interleaved timed runs on " + what);
    std::vector<InterleavedKernel> kernels;
    std::vector<std::pair<ShapeRun*, Contender*>> timed_rows;
    for (ShapeRun* run : runs) {
      for (auto& c : run->contenders) {
        if (!c->timing) continue;
        kernels.push_back({c->select, c->launch, c->timing->plan.iterations});
        timed_rows.push_back({run, c.get()});
      }
    }
    // As in a row's own runs, the timed runs rotate through the sets after set 0.
    const std::vector<TimedRuns> timed = time_interleaved(kernels, 1, context.stream, context.options.back_to_back);
    for (std::size_t i = 0; i < timed_rows.size(); ++i) {
      const auto [run, c] = timed_rows[i];
      run->measurement->record(c->row, *c->timing, timed[i]);
    }
  };
  const auto emit_rows = [&](ShapeRun& run) {
    std::vector<RunResult> rows;
    for (auto& c : run.contenders) {
      if (c->choice != nullptr) finish_library_row(context, *c);
      rows.push_back(std::move(c->row));
    }
    fill_percent_of_cublas(rows);
    for (const auto& r : rows) {
      progress.clear();
      if (on_row) on_row(r);
      all_rows.push_back(r);
    }
  };

  if (context.options.interleave_shapes) {
    // All shapes' operands at once, so that the shapes' rows share one interleaved loop:
    // shapes compared with each other (the four layouts of one size, say) meet the same
    // clocks, which on a GPU at its power cap move by several percent between seconds.
    std::vector<ShapeRun> runs;
    runs.reserve(shapes.size());
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      runs.push_back(open_shape(s));
      prepare_rows(runs.back());
    }
    std::vector<ShapeRun*> all;
    for (auto& run : runs) all.push_back(&run);
    time_rows_interleaved(all, std::to_string(shapes.size()) + " shapes");
    for (auto& run : runs) emit_rows(run);
    return all_rows;
  }
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    ShapeRun run = open_shape(s);
    if (!context.options.interleave) {
      // Each row's timed runs right after its warm-ups.
      for (auto& c : run.contenders) {
        cooldown();
        progress.update(done, label(run, *c));
        prepare_contender(context, *run.measurement, *c);
        if (c->timing) {
          const TimedRuns timed =
              time_launches(c->launch, c->timing->plan.iterations, ShapeMeasurement::first_timed_set(*c->timing),
                            context.stream, RunQueue::Held, context.options.back_to_back);
          run.measurement->record(c->row, *c->timing, timed);
        }
        ++done;
      }
    } else {
      // Every row verified and warm first, then the timed runs of all of them alternating.
      prepare_rows(run);
      time_rows_interleaved({&run}, run.shape.label());
    }
    emit_rows(run);
  }
  return all_rows;
}

}  // namespace tilemm::bench
