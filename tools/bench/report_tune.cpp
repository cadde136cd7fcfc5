#include "report_tune.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "format.hpp"
#include "report_console.hpp"
#include "table.hpp"
#include "tune_summary.hpp"
#include "tuning.hpp"

namespace tilemm::bench {
namespace {

// "0.953x": speeds relative to another row.
std::string ratio(std::optional<double> value) { return value ? fixed(value, 3) + "x" : "-"; }

void print_heading(std::ostream& out, const std::string& heading, bool markdown) {
  out << '\n' << (markdown ? "**" : "") << heading << (markdown ? "**" : "") << "\n\n";
}

void print_table(std::ostream& out, const Table& table, bool markdown) {
  if (markdown) {
    table.print_markdown(out);
  } else {
    table.print_text(out);
  }
}

// One shape: every row that measured a time, fastest first (ranks for the family's
// configurations only), then the rows that could not be ranked, with their reasons.
void print_shape_ranking(std::ostream& out, const TuneShapeRows& shape, bool markdown) {
  print_heading(out, shape.shape.tune_class + ": " + shape.shape.label(), markdown);
  std::vector<const RunResult*> timed = shape.ranked;
  for (const RunResult* r : {shape.automatic, shape.cublas}) {
    if (r != nullptr && r->status == RowStatus::Ok && r->time_ms) timed.push_back(r);
  }
  std::stable_sort(timed.begin(), timed.end(),
                   [](const RunResult* a, const RunResult* b) { return *a->time_ms < *b->time_ms; });
  std::vector<const RunResult*> unranked = shape.excluded;
  for (const RunResult* r : {shape.automatic, shape.cublas}) {
    if (r != nullptr && std::find(timed.begin(), timed.end(), r) == timed.end()) unranked.push_back(r);
  }

  Table table;
  table.add_column("#", Align::Right);
  table.add_column("kernel", Align::Left);
  table.add_column("time (ms)", Align::Right);
  table.add_column("TFLOP/s", Align::Right);
  table.add_column("vs fastest", Align::Right);
  table.add_column("vs cuBLAS", Align::Right);
  table.add_column("regs", Align::Right);
  table.add_column("occupancy", Align::Right);
  table.add_column("check", Align::Left);
  table.add_column("note", Align::Left);
  // Unranked rows get no ratios: a time that failed verification is no speed.
  const auto add = [&](const RunResult& r, const std::string& rank, bool ranked) {
    std::string note = note_cell(r);
    if (r.check == Check::Fail) note = "failed verification, not ranked" + (note.empty() ? "" : "; " + note);
    table.add_row({rank, r.display_name(), milliseconds(r.time_ms), fixed(r.tflops, 2),
                   ranked ? ratio(speed_vs_fastest(shape, r)) : "-",
                   ranked && !r.is_cublas ? ratio(speed_vs_cublas(shape, r)) : "-",
                   r.resources ? std::to_string(r.resources->registers_per_thread) : "-",
                   r.resources ? fixed(100.0 * r.resources->occupancy, 0) + "%" : "-", check_cell(r), note});
  };
  int rank = 0;
  for (const RunResult* r : timed) {
    const bool configuration = r != shape.automatic && r != shape.cublas;
    add(*r, configuration ? std::to_string(++rank) : "", true);
  }
  for (const RunResult* r : unranked) add(*r, "", false);
  print_table(out, table, markdown);
}

std::string auto_cell(const TuneWinner& w) {
  if (w.auto_kernel.empty() || w.fastest.empty()) return "-";
  if (w.auto_chose_fastest()) return "yes";
  if (!w.auto_slowdown) return "no";
  // auto may pick a kernel outside the tuned family, which can be the faster one.
  const double percent = 100.0 * (*w.auto_slowdown - 1.0);
  return "no, " + fixed(std::abs(percent), 1) + (percent >= 0.0 ? "% slower" : "% faster");
}

void print_class_winners(std::ostream& out, const TuneSummary& summary, const std::string& tune_class,
                         bool markdown) {
  print_heading(out, "Winners, class " + tune_class + " (" + summary.family + ")", markdown);
  Table table;
  table.add_column("shape", Align::Left);
  table.add_column("fastest configuration", Align::Left);
  table.add_column("time (ms)", Align::Right);
  table.add_column("TFLOP/s", Align::Right);
  table.add_column("vs cuBLAS", Align::Right);
  table.add_column("auto ran", Align::Left);
  table.add_column("auto chose the fastest", Align::Left);
  for (const TuneWinner& w : summary.winners) {
    if (w.shape.tune_class != tune_class) continue;
    table.add_row({w.shape.label(), w.fastest.empty() ? "(none ran and verified)" : w.fastest,
                   milliseconds(w.fastest_ms), fixed(w.fastest_tflops, 2), ratio(w.fastest_vs_cublas),
                   w.auto_kernel.empty() ? "-" : w.auto_kernel, auto_cell(w)});
  }
  print_table(out, table, markdown);
}

void print_relative_speeds(std::ostream& out, const TuneSummary& summary, bool markdown) {
  if (summary.relative_speeds.empty()) {
    out << "\nNo relative speeds: they are measured on the large squares (--tune " << kLargeSquareClass
        << " or --tune " << kAllTuneClasses << ").\n";
    return;
  }
  print_heading(out,
                "Relative speeds over the large squares (class " + std::string(kLargeSquareClass) + ", " +
                    std::to_string(summary.large_squares) + " shapes): " + summary.family +
                    "'s relative_speed column",
                markdown);
  Table table;
  table.add_column("relative_speed", Align::Right);
  table.add_column("kernel", Align::Left);
  table.add_column("shapes", Align::Right);
  for (const RelativeSpeed& s : summary.relative_speeds) {
    table.add_row({fixed(s.relative_speed, 2), s.kernel, std::to_string(s.shapes)});
  }
  print_table(out, table, markdown);
  out << "\nrelative_speed: the geometric mean, over those shapes, of the kernel's speed relative to the\n"
         "shape's fastest configuration, scaled so that the best kernel is 1.00. Where one table entry\n"
         "registers several kernels (variants of one configuration), take its fastest variant's number.\n";
}

}  // namespace

void print_tune_report(std::ostream& out, const BenchReport& report, bool markdown) {
  const TuneSummary& summary = *report.tune;
  const BenchSettings& s = report.settings;
  out << '\n'
      << "tuning " << summary.family << " on class " << summary.tune_class << ", " << s.dtype << ": median of "
      << s.iterations << " runs after " << s.warmup << " warm-ups, budget " << s.budget_seconds
      << " s per kernel and shape\n(tuning measures less than a normal run, to finish in minutes; --iters, "
         "--warmup and --budget set it)\n";

  const std::vector<TuneShapeRows> shapes = group_tuning_rows(report.rows);
  for (const TuneShapeRows& shape : shapes) print_shape_ranking(out, shape, markdown);

  std::vector<std::string> classes;  // in run order
  for (const TuneWinner& w : summary.winners) {
    if (std::find(classes.begin(), classes.end(), w.shape.tune_class) == classes.end()) {
      classes.push_back(w.shape.tune_class);
    }
  }
  for (const std::string& tune_class : classes) print_class_winners(out, summary, tune_class, markdown);
  print_relative_speeds(out, summary, markdown);
}

}  // namespace tilemm::bench
