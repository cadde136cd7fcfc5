// Number formatting shared by the console report and --list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tilemm::bench {

// printf-style "%.<decimals>f"; "-" for a missing value.
std::string fixed(std::optional<double> value, int decimals);
// "%.<digits>e"; "-" for a missing value, "nan"/"inf" as such.
std::string scientific(std::optional<double> value, int digits);
// Milliseconds with 3 decimals, 4 below 1 ms (short products differ in the 4th).
std::string milliseconds(std::optional<double> ms);
// "48 KiB", "192 MiB", "0 B": binary units, one decimal when not whole.
std::string bytes_text(double bytes);

}  // namespace tilemm::bench
