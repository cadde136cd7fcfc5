#include "report_console.hpp"

#include <cstdio>
#include <set>
#include <string>

#include "format.hpp"
#include "table.hpp"

namespace tilemm::bench {
namespace {

std::string percent(std::optional<double> value) {
  return value ? fixed(value, 1) + "%" : "-";
}

bool several_shapes(const BenchReport& report) {
  std::set<std::string> labels;
  for (const auto& r : report.rows) labels.insert(r.shape.label());
  return labels.size() > 1;
}

std::string verification_words(const std::string& method) {
  if (method == "cpu-fp64") return "the fp64 CPU reference";
  if (method == "cublas") return "cuBLAS";
  return "nothing (--verify none)";
}

}  // namespace

std::string check_cell(const RunResult& r) {
  if (r.status == RowStatus::Failed) return "ERROR";
  if (r.status == RowStatus::NotSupported) return "n/s";
  return check_name(r.check);
}

std::string note_cell(const RunResult& r) {
  if (r.status == RowStatus::Failed) return r.status_detail + (r.note.empty() ? "" : "; " + r.note);
  return r.note;
}

void print_banner(std::ostream& out, const BenchReport& report, bool markdown) {
  const DeviceReport& d = report.device;
  const BenchSettings& s = report.settings;
  const char* bullet = markdown ? "- " : "";
  char line[512];
  out << bullet << "tilemm-bench " << report.tool_version << ", " << report.date_utc << '\n';
  std::snprintf(line, sizeof line,
                "device %d: %s, compute capability %d.%d, %d SMs, max SM clock %.0f MHz, L2 %s, memory %s",
                d.index, d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count, d.max_sm_clock_khz / 1e3,
                bytes_text(double(d.l2_bytes)).c_str(), bytes_text(double(d.global_memory_bytes)).c_str());
  out << bullet << line << '\n';
  std::snprintf(line, sizeof line,
                "copy bandwidth: %.0f GB/s measured (device-to-device cudaMemcpy of %s; bytes read + written)",
                d.copy_bandwidth_bytes_per_s / 1e9, bytes_text(double(d.copy_bytes)).c_str());
  out << bullet << line << '\n';
  if (d.peak_flops > 0.0) {
    std::snprintf(line, sizeof line, "peak for %% of peak: %.1f TFLOP/s %s = %s", d.peak_flops / 1e12,
                  s.dtype.c_str(), d.peak_basis.c_str());
  } else {
    std::snprintf(line, sizeof line, "peak for %% of peak: %s", d.peak_basis.c_str());
  }
  out << bullet << line << '\n';
  out << bullet << "CUDA runtime " << cuda_version_string(d.runtime_version) << " (built with toolkit "
      << cuda_version_string(d.toolkit_version) << "), driver "
      << (d.driver_release.empty() ? "" : d.driver_release + " ") << "(CUDA " << cuda_version_string(d.driver_version)
      << "), " << report.cublas_version << '\n';
  out << bullet
      << "method: CUDA events around each run, the runs queued in batches behind a held stream so that host time "
         "is not in them (the host's time per call is its own column); median of "
      << s.iterations << " runs after " << s.warmup
      << " warm-ups (fewer only for very slow kernels, said in the row; budget " << s.budget_seconds
      << " s per kernel); random inputs in (-1, 1), rotated over >= 2x L2 when one set fits in L2; "
      << s.cooldown_ms << " ms cooldown between kernels; "
      << (s.back_to_back > 1 ? "each timed sample " + std::to_string(s.back_to_back) +
                                   " runs back to back between one event pair (its time / " +
                                   std::to_string(s.back_to_back) + "); "
                             : std::string())
      << (s.interleave_shapes ? "timed runs of every shape's kernels interleaved in one loop (one run of each per "
                                  "round, in an order varied from round to round, after all warm-ups of all shapes); "
          : s.interleave ? "timed runs interleaved (one run of each kernel per round, in an order varied from round "
                           "to round, after all warm-ups); "
                         : "")
      << "error = ||C - Cref||_F / (|alpha| ||A||_F ||B||_F + "
         "|beta| ||C0||_F), PASS when <= 8 u sqrt(k)\n";
}

void print_results_table(std::ostream& out, const BenchReport& report, bool markdown) {
  const bool multi = several_shapes(report);
  if (!multi && !report.rows.empty()) {
    const RunResult& r = report.rows.front();
    char heading[512];
    const bool automatic = report.settings.verify == "auto";
    const char* why = !automatic                       ? ""
                      : r.verified_against == "cublas" ? " (--verify auto: above 2^30 multiply-adds)"
                                                       : " (--verify auto: up to 2^30 multiply-adds)";
    std::snprintf(heading, sizeof heading,
                  "%s (m x n x k, op(A) op(B)%s), %s, alpha %g, beta %g; checked against %s%s; %d input set%s, %s",
                  r.shape.label().c_str(), r.shape.batch != 1 ? ", batch" : "", r.dtype.c_str(), r.alpha, r.beta,
                  verification_words(r.verified_against).c_str(), why, r.input_sets, r.input_sets == 1 ? "" : "s",
                  bytes_text(r.input_footprint_bytes).c_str());
    out << '\n' << (markdown ? "**" : "") << heading << (markdown ? "**" : "") << "\n\n";
  } else {
    out << '\n';
  }

  Table table;
  if (multi) table.add_column("shape", Align::Left);
  table.add_column("kernel", Align::Left);
  table.add_column("time (ms)", Align::Right);
  table.add_column("host (us)", Align::Right);
  table.add_column("TFLOP/s", Align::Right);
  table.add_column("% cuBLAS", Align::Right);
  table.add_column("% peak", Align::Right);
  table.add_column("FLOP/B", Align::Right);
  table.add_column("regs", Align::Right);
  table.add_column("smem/block", Align::Right);
  table.add_column("occupancy", Align::Right);
  table.add_column("error", Align::Right);
  table.add_column("check", Align::Left);
  if (multi) table.add_column("checked vs", Align::Left);
  table.add_column("note", Align::Left);
  for (const auto& r : report.rows) {
    std::vector<std::string> cells;
    if (multi) cells.push_back(r.shape.label());
    cells.push_back(r.display_name());
    cells.push_back(milliseconds(r.time_ms));
    cells.push_back(r.host_call_ms ? fixed(*r.host_call_ms * 1e3, 1) : "-");
    cells.push_back(fixed(r.tflops, 2));
    cells.push_back(percent(r.percent_of_cublas));
    cells.push_back(percent(r.percent_of_peak));
    cells.push_back(fixed(r.arithmetic_intensity, 2));
    cells.push_back(r.resources ? std::to_string(r.resources->registers_per_thread) : "-");
    cells.push_back(r.resources ? bytes_text(double(r.resources->smem_per_block())) : "-");
    cells.push_back(r.resources ? fixed(100.0 * r.resources->occupancy, 0) + "%" : "-");
    cells.push_back(scientific(r.error, 1));
    cells.push_back(check_cell(r));
    if (multi) cells.push_back(r.verified_against);
    cells.push_back(note_cell(r));
    table.add_row(std::move(cells));
  }
  if (markdown) {
    table.print_markdown(out);
  } else {
    table.print_text(out);
  }
}

void print_sample_header(std::ostream& out, const DeviceReport& device) {
  out << "[Matrix Multiply Using tilemm] - Starting...\n"
      << "GPU Device " << device.index << ": \"" << device.name << "\" with compute capability " << device.cc_major
      << "." << device.cc_minor << "\n\n";
}

void print_sample_row(std::ostream& out, const RunResult& r) {
  // (rows, cols) of op(A) and op(B).
  out << "MatrixA(" << r.shape.m << "," << r.shape.k << "), MatrixB(" << r.shape.k << "," << r.shape.n << ") ("
      << op_code(r.shape.opa, r.shape.opb) << ", " << r.dtype
      << (r.shape.batch != 1 ? ", batch " + std::to_string(r.shape.batch) : "") << ")\n";
  out << "Computing result using " << (r.is_cublas ? "cuBLAS" : "tilemm kernel " + r.display_name()) << "...\n";
  if (r.status != RowStatus::Ok) {
    out << (r.status == RowStatus::NotSupported ? "Not supported: " : "Failed: ") << r.status_detail << "\n\n";
    return;
  }
  out << "done\n";
  char line[256];
  const std::string workgroup = r.resources ? std::to_string(r.resources->threads_per_block) : "n/a";
  std::snprintf(line, sizeof line, "Performance= %.2f GFlop/s, Time= %.3f msec, Size= %.0f Ops, WorkgroupSize= %s threads/block",
                *r.tflops * 1e3, *r.time_ms, r.shape.flops(), workgroup.c_str());
  out << line << '\n';
  if (r.reduced_iterations) out << "Note: " << r.note << '\n';
  out << "Checking computed result for correctness: ";
  switch (r.check) {
    case Check::Pass: out << "Result = PASS"; break;
    case Check::Fail: out << "Result = FAIL"; break;
    case Check::NotChecked: out << "Result = NOT CHECKED" << (r.note.empty() ? "" : " (" + r.note + ")"); break;
    case Check::IsReference: out << "Result = REFERENCE (cuBLAS is the reference at this size)"; break;
  }
  if (r.error) {
    std::snprintf(line, sizeof line, " (error %.2e, tolerance %.2e, against %s)", *r.error, r.tolerance.value_or(0.0),
                  verification_words(r.verified_against).c_str());
    out << line;
  }
  out << "\n\n";
}

void print_summary(std::ostream& out, const BenchReport& report) {
  if (several_shapes(report)) {
    for (const auto& c : report.comparisons) {
      char line[512];
      std::snprintf(line, sizeof line,
                    "%s vs cuBLAS over %d shapes: geometric mean %.3fx (%.1f%% of cuBLAS); worst %s at %.3fx (%s)",
                    c.requested.c_str(), c.shapes, c.geomean_ratio, 100.0 * c.geomean_ratio,
                    c.worst_shape.label().c_str(), c.worst_ratio, c.worst_kernel.c_str());
      out << line << '\n';
    }
  }
  int pass = 0, fail = 0, unchecked = 0, reference = 0, not_supported = 0, errors = 0;
  for (const auto& r : report.rows) {
    if (r.status == RowStatus::Failed) {
      ++errors;
    } else if (r.status == RowStatus::NotSupported) {
      ++not_supported;
    } else {
      switch (r.check) {
        case Check::Pass: ++pass; break;
        case Check::Fail: ++fail; break;
        case Check::NotChecked: ++unchecked; break;
        case Check::IsReference: ++reference; break;
      }
    }
  }
  out << (fail + errors > 0 ? "result: FAIL" : "result: OK") << " (" << pass << " PASS, " << fail << " FAIL, " << errors
      << " ERROR, " << not_supported << " not supported, " << unchecked << " not checked, " << reference
      << " reference)\n";
}

}  // namespace tilemm::bench
