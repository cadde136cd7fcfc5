#include "tune_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "tuning.hpp"

namespace tilemm::bench {
namespace {

// A row that measured a time that can be trusted: it ran, and verification (if any) passed.
bool rankable(const RunResult& r) {
  return r.status == RowStatus::Ok && r.check != Check::Fail && r.time_ms && *r.time_ms > 0.0;
}

// Shapes are told apart by label and class (a shape could, in principle, be in two).
std::string shape_key(const Shape& s) { return s.tune_class + " " + s.label(); }

// The time auto's choice takes: its configuration's ranked row when it is one of them,
// so that the comparison uses the same measurements as the ranking; else (auto chose a
// kernel outside the family, or its row was excluded) the auto row's own time.
std::optional<double> auto_choice_ms(const TuneShapeRows& shape) {
  if (shape.automatic == nullptr || !rankable(*shape.automatic)) return std::nullopt;
  for (const RunResult* r : shape.ranked) {
    if (r->kernel == shape.automatic->kernel) return r->time_ms;
  }
  return shape.automatic->time_ms;
}

TuneWinner winner_of(const TuneShapeRows& shape) {
  TuneWinner w;
  w.shape = shape.shape;
  w.configurations = int(shape.ranked.size());
  if (shape.automatic != nullptr && shape.automatic->status == RowStatus::Ok) w.auto_kernel = shape.automatic->kernel;
  const RunResult* fastest = shape.fastest();
  if (fastest == nullptr) return w;
  w.fastest = fastest->kernel;
  w.fastest_ms = fastest->time_ms;
  w.fastest_tflops = fastest->tflops;
  w.fastest_vs_cublas = speed_vs_cublas(shape, *fastest);
  if (const auto auto_ms = auto_choice_ms(shape)) w.auto_slowdown = *auto_ms / *fastest->time_ms;
  return w;
}

std::vector<RelativeSpeed> relative_speeds(const std::vector<TuneShapeRows>& shapes, int* large_squares) {
  std::vector<RelativeSpeed> speeds;  // first-seen order until sorted
  std::map<std::string, double> log_sums;
  *large_squares = 0;
  for (const TuneShapeRows& shape : shapes) {
    if (shape.shape.tune_class != kLargeSquareClass || shape.fastest() == nullptr) continue;
    ++*large_squares;
    for (const RunResult* r : shape.ranked) {
      auto it = std::find_if(speeds.begin(), speeds.end(), [&](const RelativeSpeed& s) { return s.kernel == r->kernel; });
      if (it == speeds.end()) it = speeds.insert(speeds.end(), RelativeSpeed{r->kernel, 0.0, 0});
      ++it->shapes;
      log_sums[r->kernel] += std::log(*speed_vs_fastest(shape, *r));
    }
  }
  double best = 0.0;
  for (RelativeSpeed& s : speeds) {
    s.relative_speed = std::exp(log_sums[s.kernel] / s.shapes);
    best = std::max(best, s.relative_speed);
  }
  // The geometric mean against each shape's fastest is below 1 even for the best
  // configuration unless it wins every shape; the table wants the best at exactly 1.
  for (RelativeSpeed& s : speeds) s.relative_speed /= best;
  std::stable_sort(speeds.begin(), speeds.end(),
                   [](const RelativeSpeed& a, const RelativeSpeed& b) { return a.relative_speed > b.relative_speed; });
  return speeds;
}

}  // namespace

std::vector<TuneShapeRows> group_tuning_rows(const std::vector<RunResult>& rows) {
  std::vector<TuneShapeRows> shapes;
  std::map<std::string, std::size_t> index;
  for (const RunResult& r : rows) {
    const auto [it, added] = index.emplace(shape_key(r.shape), shapes.size());
    if (added) shapes.push_back(TuneShapeRows{r.shape, {}, {}, nullptr, nullptr});
    TuneShapeRows& shape = shapes[it->second];
    if (r.is_cublas) {
      shape.cublas = &r;
    } else if (r.requested == "auto") {
      shape.automatic = &r;
    } else if (rankable(r)) {
      shape.ranked.push_back(&r);
    } else {
      shape.excluded.push_back(&r);
    }
  }
  for (TuneShapeRows& shape : shapes) {
    std::stable_sort(shape.ranked.begin(), shape.ranked.end(),
                     [](const RunResult* a, const RunResult* b) { return *a->time_ms < *b->time_ms; });
  }
  return shapes;
}

std::optional<double> speed_vs_fastest(const TuneShapeRows& shape, const RunResult& row) {
  const RunResult* fastest = shape.fastest();
  if (fastest == nullptr || !row.time_ms || *row.time_ms <= 0.0) return std::nullopt;
  return *fastest->time_ms / *row.time_ms;
}

std::optional<double> speed_vs_cublas(const TuneShapeRows& shape, const RunResult& row) {
  if (shape.cublas == nullptr || !shape.cublas->tflops || *shape.cublas->tflops <= 0.0 || !row.tflops) {
    return std::nullopt;
  }
  return *row.tflops / *shape.cublas->tflops;
}

TuneSummary summarize_tuning(const std::vector<RunResult>& rows, const std::string& tune_class,
                             const std::string& family) {
  TuneSummary summary;
  summary.tune_class = tune_class;
  summary.family = family;
  const std::vector<TuneShapeRows> shapes = group_tuning_rows(rows);
  for (const TuneShapeRows& shape : shapes) summary.winners.push_back(winner_of(shape));
  summary.relative_speeds = relative_speeds(shapes, &summary.large_squares);
  return summary;
}

}  // namespace tilemm::bench
