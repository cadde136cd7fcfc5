// What a run produced: one row per (shape, kernel), the device banner, the settings, the
// summary against cuBLAS and, for --tune, the winners (computed by tune_summary.hpp).
// Filled by the runner, read by every report format.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "device_report.hpp"
#include "kernel_resources.hpp"
#include "options.hpp"

namespace tilemm::bench {

enum class RowStatus : std::uint8_t {
  Ok,            // ran; times and verification below
  NotSupported,  // the library refused the problem (NOT_SUPPORTED / ARCH_MISMATCH): not a failure
  Failed,        // a launch or cuBLAS call failed: the exit code becomes 1
};

enum class Check : std::uint8_t {
  Pass,
  Fail,
  NotChecked,   // --verify none, or the row did not run
  IsReference,  // the cuBLAS row when cuBLAS is the reference
};

const char* row_status_name(RowStatus status);  // "ok", "not_supported", "failed"
const char* check_name(Check check);            // "PASS", "FAIL", "-", "REF"

struct RunResult {
  Shape shape;
  std::string dtype;
  double alpha = 1.0, beta = 0.0;

  std::string requested;  // as selected: a kernel name, "auto" or "cublas"
  std::string kernel;     // what ran: the registry name (auto's choice), or "cublas"
  bool is_cublas = false;
  std::string family;     // "" for cuBLAS
  std::optional<int> ladder_step;

  RowStatus status = RowStatus::Ok;
  std::string status_detail;  // the library's status and detail, or the failure

  std::optional<double> time_ms;  // median
  std::optional<double> time_min_ms, time_max_ms;
  std::optional<double> host_call_ms;  // median host time of one run's calls (its events, the launch)
  int warmup = 0;
  int iterations = 0;
  int requested_iterations = 0;
  bool reduced_iterations = false;
  int input_sets = 1;
  double input_footprint_bytes = 0.0;

  std::optional<double> tflops;
  std::optional<double> percent_of_cublas;
  std::optional<double> percent_of_peak;
  std::optional<double> arithmetic_intensity;  // the design's FLOP/B (registry)
  std::optional<ResourceUsage> resources;

  std::string verified_against;  // "cpu-fp64", "cublas", "none"
  std::optional<double> error;   // normalized (see verification.hpp)
  std::optional<double> relative_error;
  std::optional<double> tolerance;
  Check check = Check::NotChecked;

  std::string note;  // why iterations were reduced, why the row did not run, ...

  std::string display_name() const;  // "auto -> smem_tiled.32", "cuBLAS", or the name
  bool is_failure() const { return status == RowStatus::Failed || check == Check::Fail; }
};

// One selected kernel against cuBLAS over every shape where both ran.
struct CublasComparison {
  std::string requested;  // "auto" or a kernel name
  int shapes = 0;
  double geomean_ratio = 0.0;  // geometric mean of tilemm TFLOP/s / cuBLAS TFLOP/s
  Shape worst_shape;
  std::string worst_kernel;    // what ran on the worst shape
  double worst_ratio = 0.0;
};

// --tune, one shape: the fastest configuration that ran and verified, and auto's choice.
struct TuneWinner {
  Shape shape;  // carries its tune class
  int configurations = 0;  // that ran and verified on this shape
  std::string fastest;     // "" when none did
  std::optional<double> fastest_ms, fastest_tflops;
  std::optional<double> fastest_vs_cublas;  // its TFLOP/s over cuBLAS's
  std::string auto_kernel;                  // what 'auto' ran; "" when it did not run
  // The time of auto's choice over the fastest's (1 when it chose the fastest).
  std::optional<double> auto_slowdown;
  bool auto_chose_fastest() const { return !fastest.empty() && auto_kernel == fastest; }
};

// --tune, one configuration over the large squares: the number for the family's
// relative_speed column (tune_summary.hpp says how it is computed).
struct RelativeSpeed {
  std::string kernel;
  double relative_speed = 0.0;  // geometric mean of its speed over the best configuration's
  int shapes = 0;               // large squares it ran and verified on
};

struct TuneSummary {
  std::string tune_class;  // as asked: a class or "all"
  std::string family;
  std::vector<TuneWinner> winners;              // one per shape, in run order
  int large_squares = 0;                        // shapes the relative speeds are taken over
  std::vector<RelativeSpeed> relative_speeds;   // fastest first; empty without large squares
};

struct BenchSettings {
  std::string dtype;
  std::string suite;
  std::string tune;         // --tune's class, "" when not tuning
  std::string tune_family;  // "" when not tuning
  int warmup = 0;
  int iterations = 0;
  double budget_seconds = 0.0;
  int cooldown_ms = 0;
  bool interleave = false;
  bool interleave_shapes = false;  // --interleave-shapes: one interleaved loop over all shapes
  int back_to_back = 1;  // runs per timed sample (--back-to-back)
  std::string verify;  // the requested mode; each row says what it was checked against
  unsigned long long seed = 0;
  std::string command_line;
};

struct BenchReport {
  std::string tool_version;  // tilemm's
  std::string date_utc;      // ISO 8601
  std::string cublas_version;
  DeviceReport device;
  BenchSettings settings;
  std::vector<RunResult> rows;
  std::vector<CublasComparison> comparisons;
  std::optional<TuneSummary> tune;  // set by a --tune run
};

}  // namespace tilemm::bench
