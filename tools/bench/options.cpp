#include "options.hpp"

namespace tilemm::bench {

std::string Shape::label() const {
  std::string s = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " +
                  op_code(opa, opb);
  if (batch != 1) s += " x" + std::to_string(batch);
  return s;
}

const char* verify_mode_name(VerifyMode mode) {
  switch (mode) {
    case VerifyMode::Auto: return "auto";
    case VerifyMode::None: return "none";
    case VerifyMode::Reference: return "reference";
    case VerifyMode::Cublas: return "cublas";
  }
  return "?";
}

}  // namespace tilemm::bench
