// A one-line progress bar on stderr for runs that take more than a few seconds. Drawn
// only when stderr is a terminal, so logs and pipes get no carriage returns.
#pragma once

#include <chrono>
#include <string_view>

namespace tilemm::bench {

class ProgressBar {
 public:
  explicit ProgressBar(int total_steps);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Says that step `done` (0-based count of finished steps) is now running `what`.
  void update(int done, std::string_view what);
  // Erases the bar so that normal output can be printed; the next update redraws it.
  void clear();

 private:
  int total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tilemm::bench
