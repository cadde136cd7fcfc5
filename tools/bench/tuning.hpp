// --tune: what a tuning run measures. A shape class names the problems one entry of
// the library's auto choice is meant for (large squares, odd sizes, tall, wide, small);
// the run times every auto-eligible kernel of one family on each shape of the class,
// next to 'auto' and cuBLAS, and tune_summary.hpp turns the rows into the winners.
//
//   square  2048^3, 4096^3, 8192^3          large squares: the relative_speed column
//   odd     1000^3, 4093^3                  no tile divides them; lda = 4093 is unaligned
//   tall    8192x512x4096, 16384x256x4096   (m x n x k) few tile columns
//   wide    512x8192x4096                   few tile rows
//   small   256^3, 512^3, 1024^3            too few tiles to fill the GPU with large tiles
//   all     every class above, in that order
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "options.hpp"

namespace tilemm::bench {

// The class whose shapes give the relative speeds (the "large squares").
inline constexpr std::string_view kLargeSquareClass = "square";
// Selects every class.
inline constexpr std::string_view kAllTuneClasses = "all";
// The family tuned unless --tune-family names another.
inline constexpr const char* kDefaultTuneFamily = "cp_async";

// Measurement defaults of a tuning run, lower than a normal run's (30 runs, 5 warm-ups,
// 3 s) so that `--tune all` (11 shapes x (configurations + auto + cuBLAS)) finishes in
// a few minutes: one configuration at 8192^3 takes ~25 ms, so 20 runs still fit well
// inside the budget, and the budget caps any slow configuration at ~1.5 s per shape.
// --iters, --warmup and --budget override them.
inline constexpr int kTuneIterations = 20;
inline constexpr int kTuneWarmup = 3;
inline constexpr double kTuneBudgetSeconds = 1.0;

// "square", "odd", "tall", "wide", "small", "all": the values --tune accepts.
std::vector<std::string> tune_class_names();

// The shapes of a class ("all": every class), each tagged with its own class, with the
// given ops. An unknown name gives no shapes.
std::vector<Shape> tune_shapes(std::string_view tune_class, Op opa, Op opb);

// One line per class, "square   2048^3, 4096^3, 8192^3: large squares, ...", for --help
// and the README; made from the same table as tune_shapes, so the two cannot differ.
std::string tune_classes_description();

}  // namespace tilemm::bench
