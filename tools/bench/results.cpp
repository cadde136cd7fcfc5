#include "results.hpp"

namespace tilemm::bench {

const char* row_status_name(RowStatus status) {
  switch (status) {
    case RowStatus::Ok: return "ok";
    case RowStatus::NotSupported: return "not_supported";
    case RowStatus::Failed: return "failed";
  }
  return "?";
}

const char* check_name(Check check) {
  switch (check) {
    case Check::Pass: return "PASS";
    case Check::Fail: return "FAIL";
    case Check::NotChecked: return "-";
    case Check::IsReference: return "REF";
  }
  return "?";
}

std::string RunResult::display_name() const {
  if (is_cublas) return "cuBLAS";
  if (requested == "auto") return kernel.empty() ? "auto" : "auto -> " + kernel;
  return kernel.empty() ? requested : kernel;
}

}  // namespace tilemm::bench
