#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "dtype.hpp"
#include "suite.hpp"
#include "tuning.hpp"

namespace tilemm::bench {
namespace {

// A sweep larger than this is almost surely a typo in a range.
constexpr std::size_t kMaxShapes = 10000;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

std::int64_t parse_positive(const std::string& word, const std::string& option) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc() || end != word.data() + word.size() || word.empty()) {
    throw std::invalid_argument(option + ": '" + word + "' is not an integer");
  }
  if (value < 1) throw std::invalid_argument(option + ": " + word + " must be >= 1");
  return value;
}

std::string quoted_command_line(int argc, const char* const* argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.find_first_of(" \t\"'") != std::string::npos) arg = "'" + arg + "'";
    line += (i == 0 ? "" : " ") + arg;
  }
  return line;
}

// Breaks a paragraph into lines of at most `width` characters, like the rest of the footer.
std::string wrapped(const std::string& text, std::size_t width) {
  std::string out, line;
  for (const std::string& word : split(text, ' ')) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
  }
  return out + line;
}

// What a tuning run does and measures, for --help.
std::string tuning_description() {
  char defaults[256];
  std::snprintf(defaults, sizeof defaults,
                "median of %d runs after %d warm-ups, budget %g s per kernel and shape", kTuneIterations,
                kTuneWarmup, kTuneBudgetSeconds);
  return std::string("A tuning run times every auto-eligible kernel of --tune-family (") + kDefaultTuneFamily +
         " unless told) that computes --dtype, plus 'auto' and cuBLAS, on each shape of the class, verified as "
         "usual. It prints per shape the configurations ranked (time, TFLOP/s, speed relative to the fastest and "
         "to cuBLAS), then per class the winners and whether 'auto' chose them, and each configuration's "
         "relative speed over the large squares (class square): the number for the family's relative_speed "
         "column. To finish --tune all in minutes it measures less than a normal run: " +
         defaults + " (--iters, --warmup, --budget override).";
}

std::string help_footer() {
  return R"(Examples:
  tilemm-bench
      every registered fp32 kernel at 4096^3 NN, plus cuBLAS, verified (the default run)
  tilemm-bench --list
      the registered kernels: family, ladder step, dtypes, requirements (no GPU needed)
  tilemm-bench --kernel smem_tiled.32,auto --size 1024:8192:1024 --json sweep.json
      two selections over the squares 1024, 2048, ..., 8192
  tilemm-bench --kernel smem_tiled --m 16,128,4096 --n 4096 --k 4096 --trans TN
      a family on three shapes, A transposed
  tilemm-bench --suite standard --dtype fp32 --csv suite.csv
      the standard suite: auto and cuBLAS, geometric-mean ratio and worst shape
  tilemm-bench --dtype bf16 --size 8192 --kernel auto,cublas --interleave
      auto against cuBLAS with their timed runs alternating, for ratios of a few percent
  tilemm-bench --dtype bf16 --size 8192 --trans NN,NT,TN,TT --kernel auto,cublas --interleave-shapes
      the four layouts' runs alternating in one loop, so that they compare with each other
  tilemm-bench --size 1000 --format sample --verify reference
      the classic CUDA-samples output, checked against the fp64 CPU reference
  tilemm-bench --tune all --json tune.json
      every auto-eligible cp_async configuration, auto and cuBLAS on every tune class:
      per shape the ranking, then the winners and the relative_speed column
  tools/plot/plot results.json
      the roofline and the ladder bar chart from a --json file

Suite 'standard':
)" + wrapped(standard_suite_description(), 88) +
         R"(

Tune classes (--tune CLASS; m x n x k, with --trans and --dtype as given):
)" + tune_classes_description() +
         R"(

)" + wrapped(tuning_description(), 88) +
         R"(

Columns: time is the median of the timed runs (CUDA events); TFLOP/s = 2 m n k batch /
time; % cuBLAS and % peak are ratios to the cuBLAS row of the same shape and to the
device peak in the banner; FLOP/B is the kernel design's arithmetic intensity (global
loads, CGMA x 4); regs, smem/block and occupancy come from cudaFuncGetAttributes and
cudaOccupancyMaxActiveBlocksPerMultiprocessor; error is ||C - Cref||_F / (|alpha|
||A||_F ||B||_F + |beta| ||C0||_F), PASS when <= 8 u sqrt(k) (u: the dtype's unit
roundoff); n/s marks a problem the library declined (NOT_SUPPORTED), with its reason.

Exit status: 0 every row that ran verified (or --verify none); 1 a FAIL or an error;
2 no usable CUDA GPU (one line on stderr says why); 64 a bad command line.)";
}

// Fills options.shapes from the shape options, the suite or the tune class.
void build_shapes(BenchOptions& o, const std::string& m, const std::string& n, const std::string& k,
                  const std::string& size, const std::string& trans, std::int64_t batch) {
  const auto ops = parse_trans_list(trans);
  if (!o.suite.empty()) {
    for (const auto& [opa, opb] : ops) {
      for (const Shape& s : standard_suite_shapes(opa, opb)) o.shapes.push_back(s);
    }
    return;
  }
  if (!o.tune_class.empty()) {
    for (const auto& [opa, opb] : ops) {
      for (Shape& s : tune_shapes(o.tune_class, opa, opb)) o.shapes.push_back(std::move(s));
    }
    return;
  }
  std::vector<std::int64_t> ms, ns, ks;
  if (!size.empty()) {
    for (std::int64_t s : parse_extent_list(size, "--size")) {
      ms.push_back(s);
    }
  } else {
    ms = parse_extent_list(m.empty() ? "4096" : m, "--m");
    ns = parse_extent_list(n.empty() ? "4096" : n, "--n");
    ks = parse_extent_list(k.empty() ? "4096" : k, "--k");
  }
  const std::size_t count = size.empty() ? ms.size() * ns.size() * ks.size() * ops.size() : ms.size() * ops.size();
  if (count > kMaxShapes) {
    throw std::invalid_argument("the shape options make " + std::to_string(count) + " shapes; at most " +
                                std::to_string(kMaxShapes));
  }
  for (const auto& [opa, opb] : ops) {
    if (!size.empty()) {
      for (std::int64_t s : ms) o.shapes.push_back(Shape{s, s, s, batch, opa, opb});
      continue;
    }
    for (std::int64_t mi : ms)
      for (std::int64_t ni : ns)
        for (std::int64_t ki : ks) o.shapes.push_back(Shape{mi, ni, ki, batch, opa, opb});
  }
}

// A tuning run measures less than a normal one (tuning.hpp says why), except where the
// command line asks for more.
void apply_tuning_defaults(BenchOptions& o, const CLI::App& app) {
  if (app.count("--iters") == 0) o.iterations = kTuneIterations;
  if (app.count("--warmup") == 0) o.warmup = kTuneWarmup;
  if (app.count("--budget") == 0) o.budget_seconds = kTuneBudgetSeconds;
}

}  // namespace

std::vector<std::int64_t> parse_extent_list(const std::string& text, const std::string& option) {
  std::vector<std::int64_t> values;
  for (const std::string& item : split(text, ',')) {
    const auto range = split(item, ':');
    if (range.size() == 1) {
      values.push_back(parse_positive(item, option));
    } else if (range.size() == 3) {
      const std::int64_t start = parse_positive(range[0], option);
      const std::int64_t end = parse_positive(range[1], option);
      const std::int64_t step = parse_positive(range[2], option);
      if (end < start) throw std::invalid_argument(option + ": range '" + item + "' ends before it starts");
      if ((end - start) / step + 1 > std::int64_t(kMaxShapes)) {
        throw std::invalid_argument(option + ": range '" + item + "' has too many values");
      }
      for (std::int64_t v = start; v <= end; v += step) values.push_back(v);
    } else {
      throw std::invalid_argument(option + ": '" + item + "' is neither a value nor start:end:step");
    }
  }
  return values;
}

std::vector<std::pair<Op, Op>> parse_trans_list(const std::string& text) {
  std::vector<std::pair<Op, Op>> ops;
  for (std::string item : split(text, ',')) {
    std::transform(item.begin(), item.end(), item.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    const bool valid = item.size() == 2 && (item[0] == 'N' || item[0] == 'T') && (item[1] == 'N' || item[1] == 'T');
    if (!valid) throw std::invalid_argument("--trans: '" + item + "' is not one of NN, NT, TN, TT");
    const std::pair<Op, Op> op{item[0] == 'N' ? Op::N : Op::T, item[1] == 'N' ? Op::N : Op::T};
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  }
  return ops;
}

CliOutcome parse_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  BenchOptions o;
  std::string kernels = "all", m, n, k, size, trans = "NN", verify = "auto", format = "table";
  std::int64_t batch = 1;
  bool no_cublas = false;

  CLI::App app{
      "tilemm-bench: multiplies with every tilemm kernel you select and with cuBLAS in the same run, verifies "
      "each result, times it (median of CUDA-event-timed runs over L2-exceeding rotated inputs) and explains it "
      "(% of cuBLAS, % of peak, arithmetic intensity, registers, shared memory, occupancy).",
      "tilemm-bench"};
  app.get_formatter()->column_width(34);
  app.footer(help_footer());

  auto* kernel_opt =
      app.add_option("--kernel", kernels,
                     "Comma list of: a kernel name, a family (or family:NAME), 'all' (every registered kernel "
                     "that computes --dtype, ladder order), 'auto' (the library's own choice), 'cublas' (cuBLAS alone)")
          ->type_name("LIST")
          ->capture_default_str();
  app.add_flag("--no-cublas", no_cublas, "Leave out the cuBLAS row (then there is no % cuBLAS)");
  auto* m_opt = app.add_option("--m", m, "Rows of C and op(A): a value, a comma list or start:end:step (end "
                                         "inclusive); shapes are all m x n x k combinations. Default 4096")
                    ->type_name("LIST");
  auto* n_opt = app.add_option("--n", n, "Columns of C and op(B), like --m. Default 4096")->type_name("LIST");
  auto* k_opt = app.add_option("--k", k, "The inner dimension, like --m. Default 4096")->type_name("LIST");
  auto* size_opt = app.add_option("--size", size, "Square products m = n = k = N; a list or range like --m")
                       ->type_name("LIST");
  size_opt->excludes(m_opt)->excludes(n_opt)->excludes(k_opt);
  app.add_option("--dtype", o.dtype,
                 "Data type: fp32 (CUDA cores), tf32 (fp32 data through TF32 tensor cores), fp16 or bf16 "
                 "(fp32 accumulation, C in the input type); cuBLAS runs the same types and layout")
      ->check(CLI::IsMember({"fp32", "tf32", "fp16", "bf16"}))
      ->capture_default_str();
  app.add_option("--trans", trans, "op(A) op(B): NN, NT, TN or TT, or a comma list of them")->capture_default_str();
  app.add_option("--alpha", o.alpha, "alpha of C = alpha op(A) op(B) + beta C")
      ->capture_default_str();
  app.add_option("--beta", o.beta, "beta; 0 means C is never read (it is poisoned with NaN to prove it)")
      ->capture_default_str();
  auto* batch_opt = app.add_option("--batch", batch, "Products per call (> 1: the strided-batched APIs)")
                        ->check(CLI::PositiveNumber)
                        ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed runs before timing (after the verified first run)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--iters", o.iterations, "Timed runs; the median is reported (>= 20 recommended)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--budget", o.budget_seconds,
                 "Seconds of timed runs per kernel and shape; a kernel too slow for --iters within it gets fewer, "
                 "and its row says so")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--cooldown-ms", o.cooldown_ms, "Pause between kernels so clocks recover on long sweeps")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("--interleave", o.interleave,
               "Alternate the kernels' timed runs (one run of each per round, cuBLAS included) instead of timing "
               "each kernel's runs back to back, so that all meet the same clocks and temperature");
  app.add_flag("--interleave-shapes", o.interleave_shapes,
               "--interleave across shapes: every shape's operands allocated at once and the timed runs of all "
               "shapes' kernels alternating in one loop, so that shapes compared with each other (the four layouts "
               "of one size) meet the same clocks");
  app.add_option("--back-to-back", o.back_to_back,
                 "Time N consecutive runs of a kernel between one pair of events (the sample is their time / N; "
                 "--iters counts samples), as a stream of products runs in an application; 1: an event pair "
                 "around each run")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
  app.add_option("--verify", verify,
                 "none, reference (fp64 CPU), cublas, or auto: reference up to m*n*k*batch = 2^30, cublas above")
      ->check(CLI::IsMember({"auto", "none", "reference", "cublas"}))
      ->capture_default_str();
  auto* suite_opt = app.add_option("--suite", o.suite, "Run a fixed shape list: 'standard' (see below)")
                        ->check(CLI::IsMember({"standard"}));
  suite_opt->excludes(size_opt)->excludes(m_opt)->excludes(n_opt)->excludes(k_opt)->excludes(batch_opt);
  auto* tune_opt = app.add_option("--tune", o.tune_class,
                                  "Rank --tune-family's configurations on each shape of a class and print the "
                                  "winners: square, odd, tall, wide, small or all (see below; fewer runs by "
                                  "default)")
                       ->type_name("CLASS")
                       ->check(CLI::IsMember(tune_class_names()));
  tune_opt->excludes(kernel_opt)->excludes(suite_opt)->excludes(size_opt)->excludes(m_opt)->excludes(n_opt)
      ->excludes(k_opt)->excludes(batch_opt);
  o.tune_family = kDefaultTuneFamily;
  app.add_option("--tune-family", o.tune_family,
                 "The family --tune sweeps: its auto-eligible kernels that compute --dtype, from the registry")
      ->type_name("FAMILY")
      ->needs(tune_opt)
      ->capture_default_str();
  app.add_option("--csv", o.csv_path, "Also write the results as CSV (banner fields on every line)")
      ->type_name("FILE");
  app.add_option("--json", o.json_path, "Also write the banner, settings and results as JSON (for tools/plot)")
      ->type_name("FILE");
  app.add_flag("--markdown", o.markdown, "Print the banner and table as Markdown");
  app.add_option("--format", format, "table, or sample: the CUDA-samples matrixMul lines for every run")
      ->check(CLI::IsMember({"table", "sample"}))
      ->capture_default_str();
  app.add_flag("--list", o.list, "List the registered kernels and exit (no GPU needed)");
  app.add_option("--device", o.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random inputs")->capture_default_str();

  try {
    app.parse(argc, argv);
    o.include_cublas = !no_cublas;
    o.kernels = split(kernels, ',');
    o.verify = verify == "none"        ? VerifyMode::None
               : verify == "reference" ? VerifyMode::Reference
               : verify == "cublas"    ? VerifyMode::Cublas
                                       : VerifyMode::Auto;
    o.format = format == "sample" ? OutputFormat::Sample : OutputFormat::Table;
    if (o.markdown && o.format == OutputFormat::Sample) {
      throw CLI::ValidationError("--markdown", "applies to the table; it cannot be combined with --format sample");
    }
    if (!o.tune_class.empty() && o.format == OutputFormat::Sample) {
      throw CLI::ValidationError("--tune", "prints its own rankings; it cannot be combined with --format sample");
    }
    if (o.interleave_shapes && !o.tune_class.empty()) {
      throw CLI::ValidationError("--interleave-shapes", "applies to measured rows; --tune ranks shapes one by one");
    }
    if (o.interleave_shapes) o.interleave = true;
    if (!o.suite.empty() && app.count("--kernel") == 0) o.kernels = {"auto"};
    if (!o.tune_class.empty()) apply_tuning_defaults(o, app);
    build_shapes(o, m, n, k, size, trans, batch);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, out, err);
    return CliOutcome{std::nullopt, code == 0 ? 0 : kUsageExitCode};
  } catch (const std::invalid_argument& e) {
    err << "tilemm-bench: " << e.what() << "\nRun with --help for more information.\n";
    return CliOutcome{std::nullopt, kUsageExitCode};
  }
  o.command_line = quoted_command_line(argc, argv);
  return CliOutcome{std::move(o), 0};
}

}  // namespace tilemm::bench
