// The orientation the few-row kernels (skinny_splitk, skinny_mma) compute a product in:
// the shorter of m and n along the block's rows; and how wide skinny_mma's loads of the short
// operand may be.
#pragma once

#include <cstdint>
#include <utility>

#include "core/problem.hpp"
#include "kernels/element_loads.hpp"

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

// skinny_mma's `.ldgshort` entries: elements_per_load of the oriented short operand A, whose
// chunks run along k when A is k-contiguous, along m otherwise (k-slices start on whole
// stages, so the rule holds in every slice).
inline int short_operand_elements_per_load(const GemmProblem& oriented, bool k_contiguous) {
  return elements_per_load(oriented.A, oriented.lda, k_contiguous ? oriented.k : oriented.m, oriented.stride_a,
                           oriented.batch);
}

}  // namespace tilemm::kernels
