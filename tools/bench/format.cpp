#include "format.hpp"

#include <cmath>
#include <cstdio>

namespace tilemm::bench {

std::string fixed(std::optional<double> value, int decimals) {
  if (!value) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, *value);
  return text;
}

std::string scientific(std::optional<double> value, int digits) {
  if (!value) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*e", digits, *value);
  return text;
}

std::string milliseconds(std::optional<double> ms) {
  if (!ms) return "-";
  return fixed(ms, *ms < 1.0 ? 4 : 3);
}

std::string bytes_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 4) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[64];
  if (bytes == std::floor(bytes)) {
    std::snprintf(text, sizeof text, "%.0f %s", bytes, units[unit]);
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", bytes, units[unit]);
  }
  return text;
}

}  // namespace tilemm::bench
