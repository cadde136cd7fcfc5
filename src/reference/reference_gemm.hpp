// CPU reference GEMM: C = alpha * op(A) * op(B) + beta * C with fp64 accumulation,
// column-major, threaded and cache-blocked. The yardstick of the tests and the bench.
#pragma once

#include <cstdint>

#include "core/problem.hpp"

namespace tilemm::reference {

// A and B are fp32 as stored; C is fp64 (read only when beta != 0). `threads` <= 0 uses
// every hardware thread.
void gemm(Op opa, Op opb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          const float* A, std::int64_t lda, const float* B, std::int64_t ldb, double beta,
          double* C, std::int64_t ldc, int threads = 0);

}  // namespace tilemm::reference
