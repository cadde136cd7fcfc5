// tilemm-bench: the project's main job. Parses the command line, lists the kernels or
// checks for a GPU, then runs, verifies, times and reports (see --help).
#include <chrono>
#include <ctime>
#include <iostream>
#include <stdexcept>

#include <cuda_runtime_api.h>

#include "cli.hpp"
#include "cublas_baseline.hpp"
#include "cuda_check.hpp"
#include "device_report.hpp"
#include "kernel_list.hpp"
#include "kernel_selection.hpp"
#include "progress.hpp"
#include "report_console.hpp"
#include "report_files.hpp"
#include "report_tune.hpp"
#include "runner.hpp"
#include "suite.hpp"
#include "tune_summary.hpp"
#include "tilemm/tilemm.h"

namespace tilemm::bench {
namespace {

// Exit status when no GPU can be used: distinct from a failed verification (1).
constexpr int kNoDeviceExitCode = 2;

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// The stream every product runs on, and the library handle bound to it.
class Session {
 public:
  explicit Session(int device) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    check_library(tilemmCreate(&handle_), "tilemmCreate");
    check_library(tilemmSetStream(handle_, stream_), "tilemmSetStream");
  }
  ~Session() {
    // Teardown cannot report; any failure here follows one that was reported.
    if (handle_ != nullptr) static_cast<void>(tilemmDestroy(handle_));
    if (stream_ != nullptr) static_cast<void>(cudaStreamDestroy(stream_));
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  cudaStream_t stream() const { return stream_; }
  tilemmHandle_t handle() const { return handle_; }

 private:
  void check_library(tilemmStatus_t status, const char* call) const {
    if (status != TILEMM_STATUS_SUCCESS) {
      throw BenchError(std::string(call) + " failed: " + tilemmGetStatusString(status) + ": " +
                       tilemmGetErrorDetail(handle_));
    }
  }
  cudaStream_t stream_ = nullptr;
  tilemmHandle_t handle_ = nullptr;
};

BenchSettings settings_of(const BenchOptions& o) {
  BenchSettings s;
  s.dtype = o.dtype;
  s.suite = o.suite;
  if (!o.tune_class.empty()) {
    s.tune = o.tune_class;
    s.tune_family = o.tune_family;
  }
  s.warmup = o.warmup;
  s.iterations = o.iterations;
  s.budget_seconds = o.budget_seconds;
  s.cooldown_ms = o.cooldown_ms;
  s.interleave = o.interleave;
  s.interleave_shapes = o.interleave_shapes;
  s.back_to_back = o.back_to_back;
  s.verify = verify_mode_name(o.verify);
  s.seed = o.seed;
  s.command_line = o.command_line;
  return s;
}

int run(const BenchOptions& options, const KernelSelection& selection) {
  const BenchDType& dtype = *find_dtype(options.dtype);  // the CLI admits only known names
  const Session session(options.device);
  const CublasBaseline cublas(session.stream());

  BenchReport report;
  report.tool_version = std::to_string(TILEMM_VERSION_MAJOR) + "." + std::to_string(TILEMM_VERSION_MINOR) + "." +
                        std::to_string(TILEMM_VERSION_PATCH);
  report.date_utc = utc_now_iso8601();
  report.cublas_version = cublas.version();
  report.settings = settings_of(options);
  report.device = describe_device(options.device, dtype);

  const bool sample = options.format == OutputFormat::Sample;
  if (sample) {
    print_sample_header(std::cout, report.device);
  } else {
    print_banner(std::cout, report, options.markdown);
  }
  std::cout.flush();

  const int rows = int(options.shapes.size()) * (int(selection.kernels.size()) + (selection.cublas ? 1 : 0));
  ProgressBar progress(rows);
  const RowCallback print_sample = [](const RunResult& r) {
    print_sample_row(std::cout, r);
    std::cout.flush();
  };
  const RunContext context{options, dtype, report.device, session.handle(), cublas, session.stream()};
  report.rows = run_benchmarks(context, options.shapes, selection, progress, sample ? print_sample : RowCallback{});
  progress.clear();
  report.comparisons = compare_with_cublas(report.rows);

  if (!options.tune_class.empty()) {
    report.tune = summarize_tuning(report.rows, options.tune_class, options.tune_family);
    print_tune_report(std::cout, report, options.markdown);
  } else if (!sample) {
    print_results_table(std::cout, report, options.markdown);
  }
  std::cout << '\n';
  print_summary(std::cout, report);
  if (!options.json_path.empty()) write_json_file(options.json_path, report);
  if (!options.csv_path.empty()) write_csv_file(options.csv_path, report);

  for (const auto& r : report.rows) {
    if (r.is_failure()) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace tilemm::bench

int main(int argc, char** argv) {
  using namespace tilemm::bench;
  const CliOutcome cli = parse_command_line(argc, argv, std::cout, std::cerr);
  if (!cli.options) return cli.exit_code;
  const BenchOptions& options = *cli.options;

  if (options.list) {
    print_kernel_list(std::cout, tilemm::registry(), options.markdown);
    return 0;
  }
  KernelSelection selection;
  try {
    selection = options.tune_class.empty()
                    ? select_kernels(options.kernels, tilemm::registry(), options.include_cublas, options.dtype)
                    : select_tuning_kernels(options.tune_family, options.dtype, tilemm::registry(),
                                            options.include_cublas);
  } catch (const std::invalid_argument& e) {
    std::cerr << "tilemm-bench: " << e.what() << "\nRun with --help for more information.\n";
    return kUsageExitCode;
  }
  if (selection.kernels.empty() && !selection.cublas) {
    std::cerr << "tilemm-bench: nothing to run: --kernel selects no kernel and --no-cublas drops cuBLAS\n";
    return kUsageExitCode;
  }

  const std::string unusable = why_device_unusable(options.device);
  if (!unusable.empty()) {
    std::cerr << "tilemm-bench: " << unusable << "; nothing to measure\n";
    return kNoDeviceExitCode;
  }
  try {
    return run(options, selection);
  } catch (const std::exception& e) {
    std::cerr << "tilemm-bench: error: " << e.what() << '\n';
    return 1;
  }
}
