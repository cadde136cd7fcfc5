// The command line, parsed with CLI11: the options, their validation and the --help
// text with examples. No CUDA here, so --help works on any machine.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "options.hpp"

namespace tilemm::bench {

// Exit status for a command line that cannot be run (sysexits' EX_USAGE).
inline constexpr int kUsageExitCode = 64;

struct CliOutcome {
  std::optional<BenchOptions> options;  // set when the bench should go on
  int exit_code = 0;                    // otherwise: 0 after --help, kUsageExitCode on an error
};

// Parses argv; --help and errors are printed to `out` / `err`.
CliOutcome parse_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// "4096", "16,128,4096", "1024:8192:1024" (end inclusive) or a comma list mixing them;
// every value >= 1. Throws std::invalid_argument naming `option`.
std::vector<std::int64_t> parse_extent_list(const std::string& text, const std::string& option);

// "NN", "nt,TN", ...: (op(A), op(B)) pairs. Throws std::invalid_argument.
std::vector<std::pair<Op, Op>> parse_trans_list(const std::string& text);

}  // namespace tilemm::bench
