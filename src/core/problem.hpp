// The description of one validated GEMM call, shared by the API, the registry, the
// kernels' launchers, the bench and the tests. Pure host code: no CUDA runtime calls.
#pragma once

#include <cstdint>
#include <string>

#include <library_types.h>

#include "tilemm/tilemm.h"

namespace tilemm {

enum class Op : std::uint8_t { N, T };

// Data types of the matrices as stored.
enum class DType : std::uint8_t { F32, F16, BF16 };

// How the products are formed and accumulated.
enum class Compute : std::uint8_t { F32, F32_FAST_TF32 };

std::int64_t dtype_size(DType t);
const char* dtype_name(DType t);
const char* op_name(Op op);
// The other op: reading a stored matrix as op(X)^T (a transposed product or a transposed
// copy of the operand).
constexpr Op flipped(Op op) { return op == Op::N ? Op::T : Op::N; }

// A GEMM as the kernels see it, column-major:
//   C_b = alpha * op(A_b) * op(B_b) + beta * C_b   for b in [0, batch),
// with X_b = X + b * strideX (elements). Every field has passed validation.
struct GemmProblem {
  Op opa = Op::N;
  Op opb = Op::N;
  std::int64_t m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;  // read from the caller's host pointers once
  const void* A = nullptr;
  std::int64_t lda = 1, stride_a = 0;
  const void* B = nullptr;
  std::int64_t ldb = 1, stride_b = 0;
  void* C = nullptr;
  std::int64_t ldc = 1, stride_c = 0;
  std::int64_t batch = 1;
  DType a_type = DType::F32, b_type = DType::F32, c_type = DType::F32;
  Compute compute = Compute::F32;

  // Rows and columns of A and B as stored (before op).
  std::int64_t a_rows() const { return opa == Op::N ? m : k; }
  std::int64_t a_cols() const { return opa == Op::N ? k : m; }
  std::int64_t b_rows() const { return opb == Op::N ? k : n; }
  std::int64_t b_cols() const { return opb == Op::N ? n : k; }
  double flops() const { return 2.0 * double(m) * double(n) * double(k) * double(batch); }
  bool operator==(const GemmProblem&) const = default;
};

// The four ops as a short code: "NN", "NT", "TN", "TT" (first letter is op(A)).
std::string op_code(Op opa, Op opb);

// A row vector A in NN (m = 1, lda = 1) is k contiguous elements, the same memory as A in TN
// (stored k x 1) with any lda >= k; so is a column vector B stored with ldb = 1 under op T
// (n = 1) and B in op N. Read that way (K-major, lda or ldb = k rounded up to 64 elements,
// which no address of the one row or column uses) the operand suits the 16-byte copies and
// the TMA, which a leading dimension of 1 rules out. Only where the vector is a whole number
// of 16-byte units: the 16-byte copies read its last unit whole, and where k ends inside one
// they read up to 14 bytes past the vector (compute-sanitizer's memcheck found it on bf16
// 1 x 1 x 1 TT); there the operand is read K-major with ld = k, which the copies and the TMA
// refuse. Every other problem is returned as it is.
GemmProblem vectors_read_k_major(const GemmProblem& p);

}  // namespace tilemm
