#include "progress.hpp"

#include <cstdio>
#include <string>

#include <unistd.h>

namespace tilemm::bench {
namespace {

// Short runs finish before a bar would help; it appears after this long.
constexpr double kShowAfterSeconds = 2.0;
constexpr int kBarWidth = 30;

}  // namespace

ProgressBar::ProgressBar(int total_steps)
    : total_(total_steps), enabled_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { clear(); }

void ProgressBar::update(int done, std::string_view what) {
  if (!enabled_ || total_ <= 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed < kShowAfterSeconds) return;
  const int filled = done * kBarWidth / total_;
  std::string bar(std::size_t(filled), '#');
  bar.append(std::size_t(kBarWidth - filled), '.');
  const int seconds = int(elapsed);
  std::fprintf(stderr, "\r\033[K[%s] %d/%d %.*s  %d:%02d", bar.c_str(), done, total_, int(what.size()),
               what.data(), seconds / 60, seconds % 60);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace tilemm::bench
