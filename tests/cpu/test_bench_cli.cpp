// tilemm-bench without a GPU: command-line parsing, kernel selection from the registry,
// the timing and verification policies, --tune's classes and winners, the report formats
// (text, Markdown, CSV, JSON), and the built binary's --help, --list and no-GPU exit.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "device_report.hpp"
#include "kernel_selection.hpp"
#include "operands.hpp"
#include "report_console.hpp"
#include "report_files.hpp"
#include "report_tune.hpp"
#include "suite.hpp"
#include "timing.hpp"
#include "tune_summary.hpp"
#include "tuning.hpp"
#include "verification.hpp"

namespace tilemm::bench {
namespace {

CliOutcome parse(std::vector<std::string> args, std::string* out_text = nullptr, std::string* err_text = nullptr) {
  args.insert(args.begin(), "tilemm-bench");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CliOutcome outcome = parse_command_line(int(argv.size()), argv.data(), out, err);
  if (out_text != nullptr) *out_text = out.str();
  if (err_text != nullptr) *err_text = err.str();
  return outcome;
}

// ---- command line ----

TEST(BenchCli, DefaultsAreTheLadderAt4096CubedFp32NN) {
  const CliOutcome c = parse({});
  ASSERT_TRUE(c.options);
  const BenchOptions& o = *c.options;
  EXPECT_EQ(o.kernels, std::vector<std::string>{"all"});
  EXPECT_TRUE(o.include_cublas);
  ASSERT_EQ(o.shapes.size(), 1u);
  EXPECT_EQ(o.shapes[0].label(), "4096x4096x4096 NN");
  EXPECT_EQ(o.dtype, "fp32");
  EXPECT_EQ(o.verify, VerifyMode::Auto);
  EXPECT_GE(o.iterations, 20) << "the design asks for a median of at least 20";
  EXPECT_EQ(o.format, OutputFormat::Table);
}

TEST(BenchCli, ExtentListsValuesAndInclusiveRanges) {
  EXPECT_EQ(parse_extent_list("4096", "--m"), (std::vector<std::int64_t>{4096}));
  EXPECT_EQ(parse_extent_list("16,128,4096", "--m"), (std::vector<std::int64_t>{16, 128, 4096}));
  EXPECT_EQ(parse_extent_list("1024:4096:1024", "--m"), (std::vector<std::int64_t>{1024, 2048, 3072, 4096}));
  EXPECT_EQ(parse_extent_list("1:10:4,7", "--m"), (std::vector<std::int64_t>{1, 5, 9, 7}));
  for (const char* bad : {"", "0", "-4", "12x", "4:2:1", "1:8", "1:8:0", "1,,2", "a:b:c"}) {
    EXPECT_THROW(parse_extent_list(bad, "--m"), std::invalid_argument) << bad;
  }
}

TEST(BenchCli, TransLists) {
  const auto ops = parse_trans_list("NN,tn,TT,NN");
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[1], std::make_pair(Op::T, Op::N));
  EXPECT_THROW(parse_trans_list("NX"), std::invalid_argument);
  EXPECT_THROW(parse_trans_list("N"), std::invalid_argument);
}

TEST(BenchCli, ShapesAreTheCrossProductOfTheLists) {
  const CliOutcome c = parse({"--m", "16,128", "--n", "4096", "--k", "1024:2048:1024", "--trans", "NN,TN",
                              "--batch", "3"});
  ASSERT_TRUE(c.options);
  ASSERT_EQ(c.options->shapes.size(), 8u);
  EXPECT_EQ(c.options->shapes.front().label(), "16x4096x1024 NN x3");
  EXPECT_EQ(c.options->shapes.back().label(), "128x4096x2048 TN x3");
}

TEST(BenchCli, SizeMakesSquares) {
  const CliOutcome c = parse({"--size", "1000,4093"});
  ASSERT_TRUE(c.options);
  ASSERT_EQ(c.options->shapes.size(), 2u);
  EXPECT_EQ(c.options->shapes[1].label(), "4093x4093x4093 NN");
}

TEST(BenchCli, EveryOptionOfTheIssueIsAccepted) {
  const CliOutcome c = parse({"--kernel", "smem_tiled,auto", "--size", "512", "--dtype", "bf16", "--trans", "TT",
                              "--alpha", "-1.5", "--beta", "2", "--batch", "4", "--warmup", "2", "--iters", "25",
                              "--verify", "cublas", "--csv", "x.csv", "--json", "x.json", "--markdown", "--device",
                              "1", "--seed", "7", "--budget", "1.5", "--cooldown-ms", "0", "--no-cublas"});
  ASSERT_TRUE(c.options);
  const BenchOptions& o = *c.options;
  EXPECT_EQ(o.kernels, (std::vector<std::string>{"smem_tiled", "auto"}));
  EXPECT_EQ(o.dtype, "bf16");
  EXPECT_DOUBLE_EQ(o.alpha, -1.5);
  EXPECT_DOUBLE_EQ(o.beta, 2.0);
  EXPECT_EQ(o.shapes.at(0).batch, 4);
  EXPECT_EQ(o.shapes.at(0).opa, Op::T);
  EXPECT_EQ(o.warmup, 2);
  EXPECT_EQ(o.iterations, 25);
  EXPECT_EQ(o.verify, VerifyMode::Cublas);
  EXPECT_EQ(o.csv_path, "x.csv");
  EXPECT_EQ(o.json_path, "x.json");
  EXPECT_TRUE(o.markdown);
  EXPECT_EQ(o.device, 1);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_FALSE(o.include_cublas);
  EXPECT_FALSE(o.command_line.empty());
}

TEST(BenchCli, BadCommandLinesAreUsageErrors) {
  const std::vector<std::vector<std::string>> bad{
      {"--size", "512", "--m", "4"}, {"--suite", "standard", "--size", "4"}, {"--dtype", "fp8"},
      {"--trans", "XY"},             {"--verify", "maybe"},                  {"--iters", "0"},
      {"--markdown", "--format", "sample"}, {"--no-such-option"},          {"--m", "0"}};
  for (const auto& args : bad) {
    std::string err;
    const CliOutcome c = parse(args, nullptr, &err);
    EXPECT_FALSE(c.options) << args.front();
    EXPECT_EQ(c.exit_code, kUsageExitCode) << args.front();
    EXPECT_FALSE(err.empty()) << args.front();
  }
}

TEST(BenchCli, HelpExplainsOptionsWithExamples) {
  std::string out;
  const CliOutcome c = parse({"--help"}, &out);
  EXPECT_FALSE(c.options);
  EXPECT_EQ(c.exit_code, 0);
  for (const char* word : {"--kernel", "--m", "--size", "--dtype", "--trans", "--alpha", "--beta", "--batch",
                           "--warmup", "--iters", "--verify", "--suite", "--csv", "--json", "--markdown", "--format",
                           "--list", "--device", "--seed", "Examples:", "Suite 'standard'", "Exit status"}) {
    EXPECT_NE(out.find(word), std::string::npos) << word;
  }
}

// ---- kernel selection: from the registry, never a list kept in the bench ----

TEST(BenchKernelSelection, AllIsEveryKernelOfTheDtypeInLadderOrder) {
  for (const std::string dtype : {"fp32", "tf32", "fp16", "bf16"}) {
    const KernelSelection s = select_kernels({"all"}, registry(), true, dtype);
    std::vector<const tilemm::KernelEntry*> expected;
    for (const auto& e : registry().entries())
      if (e.computes(dtype)) expected.push_back(&e);
    ASSERT_EQ(s.kernels.size(), expected.size()) << dtype;
    ASSERT_FALSE(expected.empty()) << dtype;
    for (std::size_t i = 0; i < s.kernels.size(); ++i) EXPECT_EQ(s.kernels[i].entry, expected[i]) << dtype;
    EXPECT_TRUE(s.cublas);
  }
}

TEST(BenchKernelSelection, NamesFamiliesAutoAndCublas) {
  const KernelEntry& first = registry().entries().front();
  KernelSelection s = select_kernels({first.name, "auto", first.name}, registry(), false, "fp32");
  ASSERT_EQ(s.kernels.size(), 2u) << "each kernel once";
  EXPECT_EQ(s.kernels[1].requested, "auto");
  EXPECT_EQ(s.kernels[1].entry, nullptr);
  EXPECT_FALSE(s.cublas);

  s = select_kernels({"family:" + first.family}, registry(), true, "fp32");
  std::size_t in_family = 0;
  for (const auto& e : registry().entries()) in_family += e.family == first.family ? 1 : 0;
  EXPECT_EQ(s.kernels.size(), in_family);

  s = select_kernels({"cublas"}, registry(), false, "fp32");
  EXPECT_TRUE(s.kernels.empty());
  EXPECT_TRUE(s.cublas);

  EXPECT_THROW(select_kernels({"no_such_kernel"}, registry(), true, "fp32"), std::invalid_argument);
  EXPECT_THROW(select_kernels({"family:no_such_family"}, registry(), true, "fp32"), std::invalid_argument);
}

// ---- the standard suite ----

TEST(BenchSuite, StandardShapesAreTheDocumentedList) {
  const auto shapes = standard_suite_shapes(Op::N, Op::N);
  ASSERT_EQ(shapes.size(), 4u + 2u + 12u + 1u);
  std::set<std::string> labels;
  for (const auto& s : shapes) labels.insert(s.label());
  for (const char* label : {"1024x1024x1024 NN", "8192x8192x8192 NN", "1000x1000x1000 NN", "4093x4093x4093 NN",
                            "16x4096x4096 NN", "128x11008x4096 NN", "4096x4096x11008 NN", "4096x14336x4096 NN",
                            "512x512x512 NN x64"}) {
    EXPECT_TRUE(labels.count(label)) << label;
  }
  const CliOutcome c = parse({"--suite", "standard"});
  ASSERT_TRUE(c.options);
  EXPECT_EQ(c.options->kernels, std::vector<std::string>{"auto"});
  EXPECT_EQ(c.options->shapes.size(), shapes.size());
}

RunResult ok_row(const Shape& shape, const std::string& requested, double tflops, bool cublas = false) {
  RunResult r;
  r.shape = shape;
  r.dtype = "fp32";
  r.requested = requested;
  r.kernel = cublas ? "cublas" : (requested == "auto" ? "smem_tiled.32" : requested);
  r.is_cublas = cublas;
  r.tflops = tflops;
  r.time_ms = shape.flops() / (tflops * 1e9);
  r.check = cublas ? Check::IsReference : Check::Pass;
  return r;
}

TEST(BenchSuite, GeometricMeanAndWorstShapeAgainstCublas) {
  const Shape a{1024, 1024, 1024}, b{16, 4096, 4096};
  const std::vector<RunResult> rows{ok_row(a, "auto", 10.0), ok_row(a, "cublas", 40.0, true),
                                    ok_row(b, "auto", 1.0), ok_row(b, "cublas", 16.0, true)};
  const auto comparisons = compare_with_cublas(rows);
  ASSERT_EQ(comparisons.size(), 1u);
  EXPECT_EQ(comparisons[0].requested, "auto");
  EXPECT_EQ(comparisons[0].shapes, 2);
  EXPECT_NEAR(comparisons[0].geomean_ratio, std::sqrt(0.25 * 0.0625), 1e-12);
  EXPECT_EQ(comparisons[0].worst_shape.label(), b.label());
  EXPECT_NEAR(comparisons[0].worst_ratio, 0.0625, 1e-12);
}

// ---- --tune ----

// The classes and shapes the task and the README document, written out here so that a
// change to tuning.cpp's table has to be a deliberate one.
const std::map<std::string, std::vector<std::string>>& documented_tune_shapes() {
  static const std::map<std::string, std::vector<std::string>> shapes{
      {"square", {"2048x2048x2048", "4096x4096x4096", "8192x8192x8192"}},
      {"odd", {"1000x1000x1000", "4093x4093x4093"}},
      {"tall", {"8192x512x4096", "16384x256x4096"}},
      {"wide", {"512x8192x4096"}},
      {"small", {"256x256x256", "512x512x512", "1024x1024x1024"}},
  };
  return shapes;
}

const std::vector<std::string> kTuneClassOrder{"square", "odd", "tall", "wide", "small"};

// "4096x4096x4096 NN" -> "4096x4096x4096".
std::string extents_of(const Shape& s) {
  const std::string label = s.label();
  return label.substr(0, label.find(' '));
}

TEST(BenchTune, EveryClassParsesWithTheTuningDefaults) {
  for (const std::string& name : tune_class_names()) {
    const CliOutcome c = parse({"--tune", name});
    ASSERT_TRUE(c.options) << name;
    const BenchOptions& o = *c.options;
    EXPECT_EQ(o.tune_class, name);
    EXPECT_EQ(o.tune_family, kDefaultTuneFamily);
    EXPECT_EQ(o.iterations, kTuneIterations) << "tuning measures less, to finish in minutes";
    EXPECT_EQ(o.warmup, kTuneWarmup);
    EXPECT_DOUBLE_EQ(o.budget_seconds, kTuneBudgetSeconds);
    ASSERT_FALSE(o.shapes.empty()) << name;
    for (const Shape& s : o.shapes) {
      EXPECT_TRUE(name == "all" ? documented_tune_shapes().count(s.tune_class) == 1 : s.tune_class == name)
          << name << ": " << s.label() << " tagged '" << s.tune_class << "'";
    }
  }
  EXPECT_EQ(tune_class_names(), (std::vector<std::string>{"square", "odd", "tall", "wide", "small", "all"}));
  EXPECT_TRUE(parse({}).options->tune_class.empty()) << "no tuning unless asked";
}

TEST(BenchTune, ExplicitMeasurementOptionsFamilyTransAndDtypeAreKept) {
  const CliOutcome c = parse({"--tune", "odd", "--iters", "40", "--budget", "2.5", "--tune-family", "mma_sync",
                              "--trans", "NN,TT", "--dtype", "bf16", "--json", "t.json", "--csv", "t.csv"});
  ASSERT_TRUE(c.options);
  const BenchOptions& o = *c.options;
  EXPECT_EQ(o.iterations, 40);
  EXPECT_DOUBLE_EQ(o.budget_seconds, 2.5);
  EXPECT_EQ(o.warmup, kTuneWarmup) << "only what the command line sets is overridden";
  EXPECT_EQ(o.tune_family, "mma_sync");
  EXPECT_EQ(o.dtype, "bf16");
  EXPECT_EQ(o.json_path, "t.json");
  EXPECT_EQ(o.csv_path, "t.csv");
  ASSERT_EQ(o.shapes.size(), 4u) << "two shapes for each of two --trans values";
  EXPECT_EQ(o.shapes.front().label(), "1000x1000x1000 NN");
  EXPECT_EQ(o.shapes.back().label(), "4093x4093x4093 TT");
}

TEST(BenchTune, BadTuneCommandLinesAreUsageErrors) {
  const std::vector<std::vector<std::string>> bad{
      {"--tune", "huge"},         {"--tune", "SQUARE"},
      {"--tune", ""},             {"--tune"},
      {"--tune", "square", "--kernel", "auto"},       {"--tune", "square", "--size", "4096"},
      {"--tune", "square", "--m", "16"},              {"--tune", "square", "--batch", "2"},
      {"--tune", "square", "--suite", "standard"},    {"--tune-family", "cp_async"},
      {"--tune", "square", "--format", "sample"}};
  for (const auto& args : bad) {
    std::string err;
    const CliOutcome c = parse(args, nullptr, &err);
    const std::string line = args.size() > 1 ? args[0] + " " + args[1] : args[0];
    EXPECT_FALSE(c.options) << line;
    EXPECT_EQ(c.exit_code, kUsageExitCode) << line;
    EXPECT_FALSE(err.empty()) << line;
  }
}

TEST(BenchTune, ShapeListsAreTheDocumentedOnes) {
  std::vector<std::string> all;
  for (const std::string& name : kTuneClassOrder) {
    std::vector<std::string> extents;
    for (const Shape& s : tune_shapes(name, Op::T, Op::N)) {
      EXPECT_EQ(s.tune_class, name);
      EXPECT_EQ(s.batch, 1);
      EXPECT_EQ(s.opa, Op::T);
      extents.push_back(extents_of(s));
      all.push_back(s.tune_class + " " + extents.back());
    }
    EXPECT_EQ(extents, documented_tune_shapes().at(name)) << name;
  }
  std::vector<std::string> every;
  for (const Shape& s : tune_shapes("all", Op::N, Op::N)) every.push_back(s.tune_class + " " + extents_of(s));
  EXPECT_EQ(every, all) << "'all' is every class, in order";
  EXPECT_TRUE(tune_shapes("huge", Op::N, Op::N).empty());
}

// Reads the "Tune classes" section of --help back into shapes: "  tall    8192x512x4096,
// 16384x256x4096: few tile columns" -> {"8192x512x4096", "16384x256x4096"}.
std::map<std::string, std::vector<std::string>> tune_shapes_in_help(const std::string& help) {
  std::map<std::string, std::vector<std::string>> shapes;
  std::istringstream lines(help.substr(help.find("Tune classes")));
  std::string line;
  std::getline(lines, line);  // the section's heading
  while (std::getline(lines, line) && line.starts_with("  ")) {
    std::istringstream words(line.substr(0, line.find(':')));
    std::string name, extent;
    words >> name;
    while (words >> extent) {
      if (extent.ends_with(',')) extent.pop_back();
      if (extent.ends_with("^3")) {
        const std::string side = extent.substr(0, extent.size() - 2);
        extent = side + "x" + side + "x" + side;
      }
      shapes[name].push_back(extent);
    }
  }
  return shapes;
}

TEST(BenchTune, HelpSaysWhatTheClassesRun) {
  std::string help;
  parse({"--help"}, &help);
  for (const char* word : {"--tune CLASS", "--tune-family", "tilemm-bench --tune all", "Tune classes",
                           "relative_speed"}) {
    EXPECT_NE(help.find(word), std::string::npos) << word;
  }
  auto in_help = tune_shapes_in_help(help);
  EXPECT_EQ(in_help.erase("all"), 1u) << "the help lists 'all'";
  for (const auto& [name, extents] : in_help) {
    std::vector<std::string> run;
    for (const Shape& s : tune_shapes(name, Op::N, Op::N)) run.push_back(extents_of(s));
    EXPECT_EQ(extents, run) << name << " in --help";
  }
  EXPECT_EQ(in_help, documented_tune_shapes());
  // The tuning defaults are said, as numbers.
  EXPECT_NE(help.find("median of " + std::to_string(kTuneIterations) + " runs after " + std::to_string(kTuneWarmup) +
                      " warm-ups"),
            std::string::npos);
}

TEST(BenchTune, CandidatesAreTheFamilysAutoEligibleKernelsFromTheRegistry) {
  const KernelSelection s = select_tuning_kernels(kDefaultTuneFamily, "fp32", registry(), true);
  std::vector<std::string> expected;
  for (const auto& e : registry().entries()) {
    if (e.family == kDefaultTuneFamily && e.auto_eligible) expected.push_back(e.name);
  }
  ASSERT_FALSE(expected.empty()) << "the default family must have auto-eligible kernels";
  expected.emplace_back("auto");
  std::vector<std::string> selected;
  for (const auto& c : s.kernels) selected.push_back(c.requested);
  EXPECT_EQ(selected, expected);
  EXPECT_EQ(s.kernels.back().entry, nullptr);
  EXPECT_TRUE(s.cublas);
  EXPECT_FALSE(select_tuning_kernels(kDefaultTuneFamily, "fp32", registry(), false).cublas);

  EXPECT_THROW(select_tuning_kernels("no_such_family", "fp32", registry(), true), std::invalid_argument);
  EXPECT_THROW(select_tuning_kernels(kDefaultTuneFamily, "fp16", registry(), true), std::invalid_argument)
      << "the default family computes fp32 only";
}

RunResult timed_row(const Shape& shape, const std::string& requested, double ms) {
  RunResult r;
  r.shape = shape;
  r.requested = requested;
  r.kernel = requested;
  r.time_ms = ms;
  r.tflops = shape.flops() / (ms * 1e9);
  r.check = Check::Pass;
  return r;
}

RunResult auto_row(const Shape& shape, const std::string& chosen, double ms) {
  RunResult r = timed_row(shape, "auto", ms);
  r.kernel = chosen;
  return r;
}

RunResult cublas_row(const Shape& shape, double ms) {
  RunResult r = timed_row(shape, "cublas", ms);
  r.is_cublas = true;
  r.check = Check::IsReference;
  return r;
}

Shape tune_shape(std::int64_t m, std::int64_t n, std::int64_t k, const std::string& tune_class) {
  Shape s{m, n, k};
  s.tune_class = tune_class;
  return s;
}

// Two large squares where each of two configurations wins one, and a tall shape where
// auto picks the slower one and a faster configuration fails verification.
std::vector<RunResult> tuning_rows() {
  const Shape sq4 = tune_shape(4096, 4096, 4096, "square");
  const Shape sq8 = tune_shape(8192, 8192, 8192, "square");
  const Shape tall = tune_shape(8192, 512, 4096, "tall");
  RunResult declined = timed_row(sq4, "cfg.c", 1.0);
  declined.status = RowStatus::NotSupported;
  declined.time_ms.reset();
  declined.tflops.reset();
  declined.check = Check::NotChecked;
  declined.note = "TILEMM_STATUS_NOT_SUPPORTED: lda is not a multiple of 4";
  RunResult wrong = timed_row(tall, "cfg.c", 3.0);
  wrong.check = Check::Fail;
  return {timed_row(sq4, "cfg.a", 10.0), timed_row(sq4, "cfg.b", 12.5), declined, auto_row(sq4, "cfg.a", 10.1),
          cublas_row(sq4, 9.0),          timed_row(sq8, "cfg.a", 88.0), timed_row(sq8, "cfg.b", 80.0),
          auto_row(sq8, "cfg.a", 88.0),  cublas_row(sq8, 80.0),         timed_row(tall, "cfg.a", 5.0),
          timed_row(tall, "cfg.b", 4.0), wrong,                         auto_row(tall, "cfg.a", 5.2),
          cublas_row(tall, 4.4)};
}

TEST(BenchTune, RankingsAndWinnersNeverIncludeFailedOrDeclinedRows) {
  const std::vector<RunResult> rows = tuning_rows();
  const auto shapes = group_tuning_rows(rows);
  ASSERT_EQ(shapes.size(), 3u);
  ASSERT_EQ(shapes[0].ranked.size(), 2u);
  EXPECT_EQ(shapes[0].fastest()->kernel, "cfg.a");
  ASSERT_EQ(shapes[0].excluded.size(), 1u);
  EXPECT_EQ(shapes[0].excluded[0]->status, RowStatus::NotSupported);
  EXPECT_NEAR(*speed_vs_fastest(shapes[0], *shapes[0].ranked[1]), 0.8, 1e-12);
  EXPECT_NEAR(*speed_vs_cublas(shapes[0], *shapes[0].ranked[0]), 0.9, 1e-12);
  EXPECT_EQ(shapes[2].fastest()->kernel, "cfg.b") << "cfg.c was faster but FAILed verification";

  const TuneSummary summary = summarize_tuning(rows, "all", "cfg");
  ASSERT_EQ(summary.winners.size(), 3u);
  const TuneWinner& square = summary.winners[0];
  EXPECT_EQ(square.fastest, "cfg.a");
  EXPECT_EQ(square.configurations, 2);
  EXPECT_TRUE(square.auto_chose_fastest());
  EXPECT_NEAR(*square.auto_slowdown, 1.0, 1e-12) << "measured on the ranked row of auto's choice";
  const TuneWinner& tall = summary.winners[2];
  EXPECT_EQ(tall.fastest, "cfg.b");
  EXPECT_EQ(tall.auto_kernel, "cfg.a");
  EXPECT_FALSE(tall.auto_chose_fastest());
  EXPECT_NEAR(*tall.auto_slowdown, 1.25, 1e-12);
  EXPECT_NEAR(*tall.fastest_vs_cublas, 1.1, 1e-12);
}

TEST(BenchTune, RelativeSpeedsAreGeometricMeansOverTheLargeSquaresWithTheBestAtOne) {
  const TuneSummary summary = summarize_tuning(tuning_rows(), "all", "cfg");
  EXPECT_EQ(summary.large_squares, 2) << "the tall shape does not count";
  ASSERT_EQ(summary.relative_speeds.size(), 2u);
  // cfg.a: 1 and 80/88 against each shape's fastest; cfg.b: 0.8 and 1.
  const double a = std::sqrt(80.0 / 88.0), b = std::sqrt(0.8);
  EXPECT_EQ(summary.relative_speeds[0].kernel, "cfg.a");
  EXPECT_DOUBLE_EQ(summary.relative_speeds[0].relative_speed, 1.0);
  EXPECT_EQ(summary.relative_speeds[0].shapes, 2);
  EXPECT_EQ(summary.relative_speeds[1].kernel, "cfg.b");
  EXPECT_NEAR(summary.relative_speeds[1].relative_speed, b / a, 1e-12);

  std::vector<RunResult> without_squares;
  for (const RunResult& r : tuning_rows()) {
    if (r.shape.tune_class != kLargeSquareClass) without_squares.push_back(r);
  }
  EXPECT_TRUE(summarize_tuning(without_squares, "tall", "cfg").relative_speeds.empty());
}

// ---- measurement policy ----

TEST(BenchTiming, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
}

TEST(BenchTiming, FastKernelsGetEveryRequestedIteration) {
  const IterationPlan warm = plan_warmup(1.0, 5, 3.0);
  EXPECT_EQ(warm.warmup, 5);
  const IterationPlan plan = plan_iterations(warm, 1.0, 30, 3.0);
  EXPECT_EQ(plan.iterations, 30);
  EXPECT_FALSE(plan.reduced);
}

TEST(BenchTiming, SlowKernelsGetFewerIterationsAndSaySo) {
  // 1 s per run against a 3 s budget: no extra warm-up beyond the verified run, 3 timed.
  const IterationPlan warm = plan_warmup(1000.0, 5, 3.0);
  EXPECT_EQ(warm.warmup, 1);
  const IterationPlan plan = plan_iterations(warm, 1000.0, 30, 3.0);
  EXPECT_EQ(plan.iterations, 3);
  EXPECT_TRUE(plan.reduced);
  // Slower than the whole budget: still one timed run, never none.
  EXPECT_EQ(plan_iterations(plan_warmup(10000.0, 5, 3.0), 10000.0, 30, 3.0).iterations, 1);
}

TEST(BenchTiming, AColdFirstRunStillLeavesOneWarmUpToPlanFrom) {
  // auto's first call in a process took ~130 ms on an H100 (the module's lazy loading) for a
  // 20 us product: against a 0.1 s budget that left no warm-up, and the plan took the cold
  // run for the kernel's time. One warm-up runs anyway; none where none were asked.
  const IterationPlan warm = plan_warmup(130.0, 5, 0.1);
  EXPECT_EQ(warm.warmup, 1);
  EXPECT_TRUE(warm.reduced);
  EXPECT_EQ(plan_iterations(warm, 0.02, 30, 0.1).iterations, 30);
  EXPECT_EQ(plan_warmup(130.0, 0, 0.1).warmup, 0);
}

TEST(BenchOperands, RotationCoversTwiceTheL2WhenOneSetFits) {
  constexpr std::int64_t l2 = 50 << 20;
  EXPECT_EQ(operand_set_count(std::size_t(200) << 20, l2), 1);
  const int sets = operand_set_count(std::size_t(12) << 20, l2);
  EXPECT_GE(double(sets) * 12.0, 100.0);
  EXPECT_EQ(operand_set_count(std::size_t(12) << 20, 0), 1);
}

TEST(BenchOperands, MinimumLeadingDimensionsAndContiguousBatches) {
  const OperandLayout l = layout_for(Shape{5, 7, 3, 2, Op::T, Op::N});
  EXPECT_EQ(l.lda, 3);  // A is k x m when transposed
  EXPECT_EQ(l.ldb, 3);
  EXPECT_EQ(l.ldc, 5);
  EXPECT_EQ(l.stride_a, 15);
  EXPECT_EQ(l.c_elements, 70u);
}

TEST(BenchVerification, AutoUsesTheCpuReferenceUpToTwoToTheThirty) {
  EXPECT_EQ(resolve_verify_method(VerifyMode::Auto, Shape{1024, 1024, 1024}), VerifyMethod::CpuReference);
  EXPECT_EQ(resolve_verify_method(VerifyMode::Auto, Shape{4096, 4096, 4096}), VerifyMethod::Cublas);
  EXPECT_EQ(resolve_verify_method(VerifyMode::Auto, Shape{512, 512, 512, 64}), VerifyMethod::Cublas);
  EXPECT_EQ(resolve_verify_method(VerifyMode::Reference, Shape{8192, 8192, 8192}), VerifyMethod::CpuReference);
  EXPECT_EQ(resolve_verify_method(VerifyMode::None, Shape{1, 1, 1}), VerifyMethod::None);
  EXPECT_NEAR(verification_tolerance(1.0 / (1 << 24), 4096), 8.0 * 64.0 / (1 << 24), 1e-15);
}

TEST(BenchDevice, PeakRatesComeFromTheArchitecture) {
  EXPECT_EQ(flops_per_sm_per_clock(9, 0, DTypeId::Fp32), 256);  // 128 FP32 lanes x 2
  EXPECT_EQ(flops_per_sm_per_clock(8, 0, DTypeId::Fp32), 128);  // A100: 64 lanes
  EXPECT_EQ(flops_per_sm_per_clock(8, 9, DTypeId::Fp32), 256);
  EXPECT_EQ(flops_per_sm_per_clock(9, 0, DTypeId::Bf16), 4096);
  EXPECT_EQ(flops_per_sm_per_clock(8, 9, DTypeId::Fp16), 0) << "unknown stays unknown";
  EXPECT_EQ(cuda_version_string(13000), "13.0");
  EXPECT_EQ(cuda_version_string(12080), "12.8");
}

TEST(BenchTiming, InterleavedRunsAlternateRoundByRound) {
  // Three kernels with 3, 1 and 2 timed runs: round r holds run r of each kernel that has
  // one (rounds 0, 1, 2 in the orders 0 1 2, 1 2 0, 2 0 1), so each kernel's runs are
  // spread over the whole measurement.
  const std::vector<InterleavedRun> order = interleaved_order({3, 1, 2});
  std::vector<std::pair<std::size_t, int>> got;
  for (const InterleavedRun& r : order) got.emplace_back(r.kernel, r.run);
  const std::vector<std::pair<std::size_t, int>> want{{0, 0}, {1, 0}, {2, 0}, {2, 1}, {0, 1}, {0, 2}};
  EXPECT_EQ(got, want);
  EXPECT_TRUE(interleaved_order({}).empty());
  EXPECT_TRUE(interleaved_order({0, 0}).empty());
}

TEST(BenchTiming, InterleavedRoundsGiveEveryKernelEveryNeighbour) {
  // With 2 to 7 kernels and 2K runs each, every kernel directly follows every other one
  // within some round (a fixed order would give each kernel one neighbour only), and every
  // round runs each kernel once.
  for (std::size_t kernels = 2; kernels <= 7; ++kernels) {
    const std::vector<InterleavedRun> order = interleaved_order(std::vector<int>(kernels, int(2 * kernels)));
    ASSERT_EQ(order.size(), 2 * kernels * kernels);
    std::vector<std::vector<int>> before(kernels, std::vector<int>(kernels, 0));
    for (std::size_t i = 0; i < order.size(); ++i) {
      EXPECT_EQ(std::size_t(order[i].run), i / kernels);
      if (i % kernels != 0) ++before[order[i].kernel][order[i - 1].kernel];
    }
    for (std::size_t k = 0; k < kernels; ++k) {
      for (std::size_t j = 0; j < kernels; ++j) {
        if (j != k) {
          EXPECT_GT(before[k][j], 0) << kernels << " kernels: " << k << " never follows " << j;
        }
      }
    }
  }
}

TEST(BenchCli, InterleaveIsAFlagTheBannerStates) {
  const CliOutcome plain = parse({"--size", "512"});
  ASSERT_TRUE(plain.options);
  EXPECT_FALSE(plain.options->interleave);
  const CliOutcome c = parse({"--size", "512", "--interleave"});
  ASSERT_TRUE(c.options);
  EXPECT_TRUE(c.options->interleave);
  BenchReport report;
  report.settings.interleave = true;
  std::ostringstream out;
  print_banner(out, report, false);
  EXPECT_NE(out.str().find("timed runs interleaved"), std::string::npos) << out.str();
}

TEST(BenchCli, InterleaveShapesImpliesInterleaveRefusesTuneAndTheBannerStatesIt) {
  const CliOutcome plain = parse({"--size", "512", "--interleave"});
  ASSERT_TRUE(plain.options);
  EXPECT_FALSE(plain.options->interleave_shapes);
  const CliOutcome c = parse({"--size", "512", "--trans", "NN,NT", "--interleave-shapes"});
  ASSERT_TRUE(c.options);
  EXPECT_TRUE(c.options->interleave_shapes);
  EXPECT_TRUE(c.options->interleave);
  EXPECT_FALSE(parse({"--tune", "square", "--interleave-shapes"}).options);
  BenchReport report;
  report.settings.interleave = true;
  report.settings.interleave_shapes = true;
  std::ostringstream out;
  print_banner(out, report, false);
  EXPECT_NE(out.str().find("every shape's kernels interleaved in one loop"), std::string::npos) << out.str();
}

TEST(BenchCli, BackToBackTakesRunsPerSampleAndTheBannerStatesIt) {
  const CliOutcome plain = parse({"--size", "512"});
  ASSERT_TRUE(plain.options);
  EXPECT_EQ(plain.options->back_to_back, 1);
  const CliOutcome c = parse({"--size", "512", "--back-to-back", "10"});
  ASSERT_TRUE(c.options);
  EXPECT_EQ(c.options->back_to_back, 10);
  // A sample must fit in one hold of the stream (32 runs).
  EXPECT_FALSE(parse({"--size", "512", "--back-to-back", "0"}).options);
  EXPECT_FALSE(parse({"--size", "512", "--back-to-back", "33"}).options);
  BenchReport report;
  report.settings.back_to_back = 10;
  std::ostringstream out;
  print_banner(out, report, false);
  EXPECT_NE(out.str().find("each timed sample 10 runs back to back"), std::string::npos) << out.str();
}

// ---- report formats ----

BenchReport sample_report() {
  BenchReport report;
  report.tool_version = "0.1.0";
  report.date_utc = "2000-01-01T00:00:00Z";
  report.cublas_version = "cuBLAS 0.0.0";
  report.device.name = "Test \"GPU\", no. 1";
  report.device.sm_count = 132;
  report.device.max_sm_clock_khz = 1980000;
  report.device.copy_bandwidth_bytes_per_s = 3.0e12;
  report.device.peak_flops = 66.9e12;
  report.settings.dtype = "fp32";
  report.settings.iterations = 30;
  const Shape s{4096, 4096, 4096};
  RunResult tiled = ok_row(s, "smem_tiled.32", 8.8);
  tiled.arithmetic_intensity = 8.0;
  tiled.resources = ResourceUsage{32, 8192, 0, 1024, 2, 1.0};
  tiled.error = 1.5e-7;
  tiled.percent_of_cublas = 17.5;
  tiled.note = "median of 3 runs, with a comma";
  tiled.host_call_ms = 0.0105;
  RunResult refused = ok_row(s, "auto", 1.0);
  refused.status = RowStatus::NotSupported;
  refused.tflops.reset();
  refused.time_ms.reset();
  refused.check = Check::NotChecked;
  refused.note = "TILEMM_STATUS_NOT_SUPPORTED: no kernel";
  report.rows = {tiled, refused, ok_row(s, "cublas", 50.3, true)};
  return report;
}

TEST(BenchReport, JsonCarriesTheBannerAndEveryRow) {
  const BenchReport report = sample_report();
  std::ostringstream out;
  write_json(out, report);
  const nlohmann::json j = nlohmann::json::parse(out.str());  // throws if invalid
  EXPECT_EQ(j["schema"], kJsonSchema);
  EXPECT_EQ(j["device"]["name"], report.device.name);
  EXPECT_DOUBLE_EQ(j["device"]["copy_bandwidth_gb_per_s"].get<double>(), 3000.0);
  EXPECT_DOUBLE_EQ(j["device"]["peak_tflops"].get<double>(), 66.9);
  ASSERT_EQ(j["results"].size(), 3u);
  const auto& row = j["results"][0];
  EXPECT_EQ(row["kernel"], "smem_tiled.32");
  EXPECT_DOUBLE_EQ(row["tflops"].get<double>(), 8.8);
  EXPECT_EQ(row["registers_per_thread"], 32);
  EXPECT_EQ(row["smem_per_block_bytes"], 8192);
  EXPECT_EQ(row["check"], "PASS");
  EXPECT_TRUE(j["results"][1]["time_ms"].is_null());
  EXPECT_EQ(j["results"][1]["status"], "not_supported");
}

TEST(BenchReport, CsvLinesHaveAsManyFieldsAsTheHeader) {
  std::ostringstream out;
  write_csv(out, sample_report());
  std::istringstream in(out.str());
  std::string line;
  // Counts fields, honouring quotes (the device name and the note contain commas).
  const auto fields = [](const std::string& l) {
    std::size_t count = 1;
    bool quoted = false;
    for (char c : l) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++count;
    }
    return count;
  };
  std::getline(in, line);
  const std::size_t header = fields(line);
  EXPECT_NE(line.find("device_copy_bandwidth_gb_per_s"), std::string::npos);
  EXPECT_NE(line.find("percent_of_cublas"), std::string::npos);
  int rows = 0;
  while (std::getline(in, line)) {
    EXPECT_EQ(fields(line), header) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 3);
}

TEST(BenchReport, TextAndMarkdownTables) {
  const BenchReport report = sample_report();
  std::ostringstream text, markdown;
  print_results_table(text, report, false);
  print_results_table(markdown, report, true);
  for (const char* word : {"smem_tiled.32", "cuBLAS", "8.80", "17.5%", "PASS", "n/s", "REF", "8 KiB", "100%", "10.5"}) {
    EXPECT_NE(text.str().find(word), std::string::npos) << word;
  }
  // The host's time per call, in microseconds, beside the GPU time.
  EXPECT_NE(markdown.str().find("| kernel | time (ms) | host (us) | TFLOP/s |"), std::string::npos);
  EXPECT_NE(markdown.str().find("|---|---:|"), std::string::npos);
}

TEST(BenchReport, SampleFormatIsTheCudaSamplesOne) {
  std::ostringstream out;
  print_sample_row(out, sample_report().rows[0]);
  EXPECT_NE(out.str().find("Performance= 8800.00 GFlop/s, Time= "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Size= 137438953472 Ops, WorkgroupSize= 1024 threads/block"), std::string::npos);
  EXPECT_NE(out.str().find("Checking computed result for correctness: Result = PASS"), std::string::npos);
}

BenchReport tuning_report() {
  BenchReport report = sample_report();
  report.settings.tune = "all";
  report.settings.tune_family = "cfg";
  report.rows = tuning_rows();
  report.tune = summarize_tuning(report.rows, "all", "cfg");
  return report;
}

TEST(BenchReport, TuneReportRanksEachShapeAndNamesTheWinners) {
  std::ostringstream text, markdown;
  print_tune_report(text, tuning_report(), false);
  print_tune_report(markdown, tuning_report(), true);
  for (const char* word : {"square: 4096x4096x4096 NN", "tall: 8192x512x4096 NN", "auto -> cfg.a", "cuBLAS",
                           "0.800x", "n/s", "lda is not a multiple of 4", "FAIL", "Winners, class square (cfg)",
                           "Winners, class tall (cfg)", "yes", "no, 25.0% slower", "relative_speed", "0.94",
                           "failed verification, not ranked"}) {
    EXPECT_NE(text.str().find(word), std::string::npos) << word << " in:\n" << text.str();
  }
  EXPECT_NE(markdown.str().find("| # | kernel | time (ms) |"), std::string::npos) << markdown.str();

  std::ostringstream no_squares;
  BenchReport tall_only = tuning_report();
  tall_only.tune->relative_speeds.clear();
  print_tune_report(no_squares, tall_only, false);
  EXPECT_NE(no_squares.str().find("No relative speeds"), std::string::npos);
}

TEST(BenchReport, JsonAndCsvTagTuningRowsWithTheirClass) {
  const BenchReport report = tuning_report();
  std::ostringstream json_text, csv_text;
  write_json(json_text, report);
  write_csv(csv_text, report);
  const nlohmann::json j = nlohmann::json::parse(json_text.str());
  EXPECT_EQ(j["settings"]["tune"], "all");
  EXPECT_EQ(j["settings"]["tune_family"], "cfg");
  EXPECT_EQ(j["results"][0]["tune_class"], "square");
  EXPECT_EQ(j["results"].back()["tune_class"], "tall");
  ASSERT_EQ(j["tune"]["winners"].size(), 3u);
  EXPECT_EQ(j["tune"]["winners"][2]["fastest"], "cfg.b");
  EXPECT_EQ(j["tune"]["winners"][2]["auto_chose_fastest"], false);
  EXPECT_EQ(j["tune"]["large_squares"], 2);
  EXPECT_EQ(j["tune"]["relative_speeds"][0]["kernel"], "cfg.a");
  EXPECT_TRUE(nlohmann::json::parse([] {
                std::ostringstream out;
                write_json(out, sample_report());
                return out.str();
              }())["tune"].is_null())
      << "null outside a tuning run";

  std::istringstream lines(csv_text.str());
  std::string header, first;
  std::getline(lines, header);
  std::getline(lines, first);
  EXPECT_NE(header.find(",tune_class,"), std::string::npos);
  EXPECT_NE(first.find(",square,"), std::string::npos);
}

// The plot script's test fixture must have every field the writer writes, so the
// plot test exercises the real format.
TEST(BenchReport, PlotFixtureHasTheWritersSchema) {
  std::ifstream in(std::filesystem::path(TILEMM_SOURCE_DIR) / "tests/fixtures/bench_report.fixture.json");
  ASSERT_TRUE(in) << "tests/fixtures/bench_report.fixture.json";
  const nlohmann::json fixture = nlohmann::json::parse(in);
  const nlohmann::json written = nlohmann::json::parse(report_to_json(sample_report()).dump());
  std::function<void(const nlohmann::json&, const nlohmann::json&, const std::string&)> same_keys =
      [&](const nlohmann::json& want, const nlohmann::json& have, const std::string& where) {
        for (const auto& [key, value] : want.items()) {
          ASSERT_TRUE(have.contains(key)) << where << key;
          if (value.is_object()) same_keys(value, have[key], where + key + ".");
        }
      };
  same_keys(written, fixture, "");
  ASSERT_FALSE(fixture["results"].empty());
  same_keys(written["results"][0], fixture["results"][0], "results[0].");
  EXPECT_EQ(fixture["schema"], kJsonSchema);
}

// ---- the built binary ----

struct Ran {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

Ran run_bench(const std::string& arguments, const std::string& environment = "") {
  const std::string command = environment + " '" TILEMM_BENCH_EXE "' " + arguments + " 2>&1";
  Ran ran;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return ran;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), int(buffer.size()), pipe) != nullptr) ran.output += buffer.data();
  const int status = pclose(pipe);
  ran.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return ran;
}

TEST(BenchBinary, HelpWorksWithoutAGpu) {
  const Ran ran = run_bench("--help", "CUDA_VISIBLE_DEVICES=-1");
  EXPECT_EQ(ran.exit_code, 0);
  EXPECT_NE(ran.output.find("Examples:"), std::string::npos) << ran.output;
}

TEST(BenchBinary, ListShowsEveryRegisteredKernelWithoutAGpu) {
  const Ran ran = run_bench("--list", "CUDA_VISIBLE_DEVICES=-1");
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
  std::set<std::string> listed;
  std::istringstream lines(ran.output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string step, name;
    if (words >> step >> name) listed.insert(name);
  }
  for (const auto& e : registry().entries()) {
    EXPECT_TRUE(listed.count(e.name)) << e.name << " missing from --list:\n" << ran.output;
  }
  EXPECT_NE(ran.output.find(std::to_string(registry().entries().size()) + " kernels registered"), std::string::npos);
}

TEST(BenchBinary, WithoutAGpuItSaysSoInOneLineAndExitsTwo) {
  // CUDA_VISIBLE_DEVICES=-1 hides every GPU, so this holds on a GPU machine too.
  const Ran ran = run_bench("", "CUDA_VISIBLE_DEVICES=-1");
  EXPECT_EQ(ran.exit_code, 2) << ran.output;
  ASSERT_FALSE(ran.output.empty());
  EXPECT_EQ(ran.output.find('\n'), ran.output.size() - 1) << "one line: " << ran.output;
  EXPECT_NE(ran.output.find("nothing to measure"), std::string::npos) << ran.output;
}

TEST(BenchBinary, BadArgumentsExitWithTheUsageCode) {
  EXPECT_EQ(run_bench("--kernel no_such_kernel", "CUDA_VISIBLE_DEVICES=-1").exit_code, kUsageExitCode);
  EXPECT_EQ(run_bench("--size 0", "CUDA_VISIBLE_DEVICES=-1").exit_code, kUsageExitCode);
}

TEST(BenchBinary, AnInvalidTuneClassOrFamilyExitsWithTheUsageCode) {
  const Ran bad_class = run_bench("--tune huge", "CUDA_VISIBLE_DEVICES=-1");
  EXPECT_EQ(bad_class.exit_code, kUsageExitCode) << bad_class.output;
  EXPECT_NE(bad_class.output.find("square"), std::string::npos) << "names the classes: " << bad_class.output;
  // The family is checked against the registry before the GPU is looked for.
  EXPECT_EQ(run_bench("--tune all --tune-family no_such_family", "CUDA_VISIBLE_DEVICES=-1").exit_code,
            kUsageExitCode);
  EXPECT_EQ(run_bench("--tune all", "CUDA_VISIBLE_DEVICES=-1").exit_code, 2) << "valid, but no GPU";
}

}  // namespace
}  // namespace tilemm::bench
