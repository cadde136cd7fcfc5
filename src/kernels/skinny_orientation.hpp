// The orientation the few-row kernels (skinny_splitk, skinny_mma) compute a product in:
// the shorter of m and n along the block's rows; and how wide skinny_mma's loads of the short
// operand may be.
#pragma once

#include <cstdint>
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

// skinny_mma's `.ldgshort` entries: how many 16-bit elements of the oriented short operand A
// one load may take, 4, 2 or 1: the most for which every piece of a chunk (8 elements, along k
// when A is k-contiguous, along m otherwise) is aligned, and whole or outside the matrix: A's
// base and lda, and its extent along the chunks (k or m; k-slices start on whole stages),
// multiples of that many.
inline int short_operand_elements_per_load(const GemmProblem& oriented, bool k_contiguous) {
  const std::int64_t extent = k_contiguous ? oriented.k : oriented.m;
  const auto address = reinterpret_cast<std::uintptr_t>(oriented.A);
  for (const int elements : {4, 2}) {
    if (address % (2u * elements) == 0 && oriented.lda % elements == 0 && extent % elements == 0) return elements;
  }
  return 1;
}

}  // namespace tilemm::kernels
