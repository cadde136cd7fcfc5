// What one invocation of tilemm-bench asks for, once the command line is parsed.
// Plain data: the CLI fills it, the runner and the reports read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/problem.hpp"

namespace tilemm::bench {

// How results are checked. Auto picks Reference for small and medium products and
// Cublas for large ones, where the fp64 CPU reference would take minutes.
enum class VerifyMode : std::uint8_t { Auto, None, Reference, Cublas };

enum class OutputFormat : std::uint8_t { Table, Sample };

// One product of a run, with the BLAS meaning of m, n, k (column-major, op(A) is m x k).
struct Shape {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t batch = 1;
  Op opa = Op::N, opb = Op::N;
  // The --tune class the shape was chosen for ("square", ...); "" outside a tuning run.
  // Reports tag each row with it; label() leaves it out. The braces keep brace-initialized
  // shapes that stop before it free of -Wmissing-field-initializers.
  std::string tune_class{};

  double flops() const {
    return 2.0 * double(m) * double(n) * double(k) * double(batch);
  }
  // Multiply-adds, the quantity the verification choice is based on.
  double multiply_adds() const { return flops() / 2.0; }
  // "4096x4096x4096 NN", with " x64" appended for a batch of 64.
  std::string label() const;
};

// Products up to this many multiply-adds are checked against the fp64 CPU reference by
// default (about a second on a few cores); larger ones against cuBLAS.
inline constexpr double kCpuReferenceLimit = double(std::int64_t(1) << 30);

struct BenchOptions {
  // As given: kernel names, family names, "all", "auto", "cublas".
  std::vector<std::string> kernels{"all"};
  bool include_cublas = true;
  std::vector<Shape> shapes;
  std::string dtype = "fp32";
  double alpha = 1.0, beta = 0.0;
  int warmup = 5;
  int iterations = 30;
  // Timed runs of one kernel on one shape stop at about this many seconds: a kernel
  // slower than budget / iterations gets fewer iterations, and its row says so.
  double budget_seconds = 3.0;
  int cooldown_ms = 200;
  // --interleave: a shape's kernels are first verified and warmed one after another,
  // then their timed runs alternate, one run of each per round in a varying order
  // (timing.hpp says why).
  bool interleave = false;
  // --interleave-shapes (implies --interleave): every shape's operands are allocated at
  // once and the timed runs of all shapes' kernels alternate in one loop, so that shapes
  // compared with each other (the four layouts of one size) meet the same clocks.
  bool interleave_shapes = false;
  // --back-to-back N: each timed sample is N consecutive runs of one kernel between one
  // pair of events (its time divided by N), as a stream of products runs in an
  // application: no event separates the runs, so a kernel launched as a programmatic
  // dependent may start while the run before it finishes. 1: an event pair per run.
  int back_to_back = 1;
  VerifyMode verify = VerifyMode::Auto;
  std::string suite;  // "" or "standard"
  // --tune: "" or a class of tuning.hpp ("all" for every class); the shapes are then the
  // class's, and the kernels tune_family's auto-eligible ones, 'auto' and cuBLAS.
  std::string tune_class;
  std::string tune_family;
  std::string csv_path;
  std::string json_path;
  bool markdown = false;
  OutputFormat format = OutputFormat::Table;
  bool list = false;
  int device = 0;
  std::uint64_t seed = 1;
  std::string command_line;  // as typed, for the reports
};

const char* verify_mode_name(VerifyMode mode);

}  // namespace tilemm::bench
