// The orientation the few-row kernels (skinny_splitk, skinny_mma) compute a product in:
// the shorter of m and n along the block's rows.
#pragma once

#include <utility>

#include "core/problem.hpp"

namespace tilemm::kernels {

// With fewer columns than rows (n < m: PyTorch's decode step reaches a column-major BLAS as
// m = 11008 outputs by n = 16 tokens, TN) the product computed is C^T = op(B)^T op(A)^T:
// B's storage read with the other op as the first operand, A's as the second. The kernel
// then stores its results transposed, in C's layout, and a split-K pass reads the caller's
// problem. Only the operands, ops and shape change; C, ldc, alpha and beta stay the
// caller's. Otherwise the problem is returned as it is.
inline GemmProblem skinny_orientation(const GemmProblem& p) {
  if (p.n >= p.m) return p;
  GemmProblem t = p;
  std::swap(t.m, t.n);
  t.opa = flipped(p.opb);
  t.A = p.B;
  t.lda = p.ldb;
  t.stride_a = p.stride_b;
  t.a_type = p.b_type;
  t.opb = flipped(p.opa);
  t.B = p.A;
  t.ldb = p.lda;
  t.stride_b = p.stride_a;
  t.b_type = p.a_type;
  return t;
}

}  // namespace tilemm::kernels
