// Argument validation and the quick-return rules of the API contract, as pure host
// code so that every rule is tested without a GPU.
//
// plan_gemm() reads the raw arguments of a C API call in reference-BLAS order (argument
// numbers are reference xGEMM's for every entry point), reports
// the first broken rule with a detail naming the argument, its value and the rule, and
// otherwise says what the call must do: nothing, scale C by beta, or multiply.
#pragma once

#include <cstdint>
#include <string>

#include <library_types.h>

#include "core/problem.hpp"
#include "tilemm/tilemm.h"

namespace tilemm {

// The arguments exactly as the caller passed them (enums as raw ints so that values
// outside the enum are representable and rejected).
struct GemmArgs {
  bool handle_valid = true;
  int transa = TILEMM_OP_N;
  int transb = TILEMM_OP_N;
  std::int64_t m = 0, n = 0, k = 0;
  const void* alpha = nullptr;
  const void* A = nullptr;
  int a_type = CUDA_R_32F;
  std::int64_t lda = 1, stride_a = 0;
  const void* B = nullptr;
  int b_type = CUDA_R_32F;
  std::int64_t ldb = 1, stride_b = 0;
  const void* beta = nullptr;
  void* C = nullptr;
  int c_type = CUDA_R_32F;
  std::int64_t ldc = 1, stride_c = 0;
  std::int64_t batch = 1;
  int compute = TILEMM_COMPUTE_32F;
};

enum class Action : std::uint8_t {
  Nothing,   // quick return: m = 0, n = 0, batch = 0, or beta = 1 with alpha = 0 or k = 0
  ScaleC,    // alpha = 0 or k = 0: C = beta * C (beta = 0 writes zeros, never reads C)
  Multiply,  // the full product
};

struct GemmPlan {
  tilemmStatus_t status = TILEMM_STATUS_SUCCESS;
  std::string detail;  // empty on success
  Action action = Action::Nothing;
  GemmProblem problem;  // meaningful when status is SUCCESS
};

GemmPlan plan_gemm(const GemmArgs& args);

// True when the element sets {r + c*ld : r < rows, c < cols} of batch items placed
// `stride` elements apart overlap for some pair among `batch` items. Exact; gives up
// (returns true, i.e. conservative) only after `max_steps` candidate distances.
bool strided_batches_overlap(std::int64_t rows, std::int64_t cols, std::int64_t ld,
                             std::int64_t stride, std::int64_t batch,
                             std::int64_t max_steps = std::int64_t(1) << 22);

}  // namespace tilemm
