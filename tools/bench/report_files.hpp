// The machine-readable reports: JSON (the banner, the settings, every row, the
// comparison with cuBLAS and --tune's winners; read by tools/plot) and CSV (one line
// per row, the banner's numbers repeated on each line so that every line stands alone;
// a tuning run's rows carry their tune class).
//
// JSON schema "tilemm-bench/1" (numbers that do not apply are null):
//   { "schema", "tool": {"name", "version"}, "date_utc", "command_line",
//     "device": {"index", "name", "compute_capability", "sm_count", "max_sm_clock_mhz",
//                "max_threads_per_sm", "l2_bytes", "global_memory_bytes",
//                "copy_bandwidth_gb_per_s", "copy_bytes", "peak_tflops",
//                "flops_per_sm_per_clock", "peak_basis", "cuda_runtime", "cuda_toolkit",
//                "driver_cuda", "driver_release", "cublas"},
//     "settings": {"dtype", "suite", "tune", "tune_family", "warmup", "iterations",
//                  "budget_seconds", "cooldown_ms", "interleave", "back_to_back", "verify",
//                  "seed"},
//     "results": [{"m", "n", "k", "batch", "trans", "tune_class", "dtype", "alpha", "beta",
//                  "flops", "requested", "kernel", "is_cublas", "family", "ladder_step", "status",
//                  "status_detail", "time_ms", "time_min_ms", "time_max_ms", "warmup",
//                  "iterations", "requested_iterations", "reduced_iterations",
//                  "input_sets", "input_footprint_bytes", "tflops", "percent_of_cublas",
//                  "percent_of_peak", "arithmetic_intensity", "registers_per_thread",
//                  "static_smem_bytes", "dynamic_smem_bytes", "smem_per_block_bytes",
//                  "threads_per_block", "active_blocks_per_sm", "occupancy",
//                  "verified_against", "error", "relative_error", "tolerance", "check",
//                  "note"}],
//     "comparisons": [{"requested", "shapes", "geomean_ratio", "worst_shape",
//                      "worst_kernel", "worst_ratio"}],
//     "tune": null, or after --tune: {"class", "family",
//              "winners": [{"tune_class", "shape", "configurations", "fastest", "fastest_ms",
//                           "fastest_tflops", "fastest_vs_cublas", "auto_kernel",
//                           "auto_chose_fastest", "auto_slowdown"}],
//              "large_squares", "relative_speeds": [{"kernel", "relative_speed", "shapes"}]} }
// "tune", "tune_family" and "tune_class" are "" outside a tuning run.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "results.hpp"

namespace tilemm::bench {

inline constexpr const char* kJsonSchema = "tilemm-bench/1";

nlohmann::ordered_json report_to_json(const BenchReport& report);
void write_json(std::ostream& out, const BenchReport& report);
void write_csv(std::ostream& out, const BenchReport& report);

// Writes to `path`; throws BenchError when the file cannot be written.
void write_json_file(const std::string& path, const BenchReport& report);
void write_csv_file(const std::string& path, const BenchReport& report);

}  // namespace tilemm::bench
