// The GPU test harness: one GEMM case run through the C API and checked against an fp64
// reference, with NaN-poisoned outputs, sentinel bands around and between the columns
// of C, random inputs, unaligned sub-matrix offsets and a determinism re-run. Inputs
// are random values exactly representable in the case's input type (and arithmetic:
// tf32), so the fp64 reference multiplies the very numbers the kernel does.
#pragma once

#include <cstdint>
#include <string>

#include "core/problem.hpp"
#include "tilemm/tilemm.h"

namespace tilemm::test {

struct GemmCase {
  std::int64_t m = 1, n = 1, k = 1;
  Op opa = Op::N, opb = Op::N;
  float alpha = 1.0f, beta = 0.0f;
  std::int64_t ld_pad = 0;   // every leading dimension is its minimum plus this
  // > 1: every leading dimension and batch stride is then rounded up to a multiple of
  // this many elements (the layouts TMA-fed kernels accept, with odd m, n, k).
  std::int64_t ld_align = 1;
  std::int64_t offset = 0;   // elements between an allocation's start and the matrix
  std::int64_t batch = 1;    // > 1 goes through tilemmGemmStridedBatchedEx
  bool broadcast_a = false;  // strideA = 0
  bool broadcast_b = false;  // strideB = 0
  // NaN in every element of A's and B's allocations outside the operands (the offset before
  // them, the rows between their columns' ends and ld, the gaps between batch items): C
  // must not depend on them, not even as NaN x 0.
  bool nan_padding = false;
  DType ab_type = DType::F32;  // A and B
  DType c_type = DType::F32;
  Compute compute = Compute::F32;
  std::string describe() const;
};

// The types a registry `dtypes` name stands for, as test cases use them.
struct CaseTypes {
  DType ab_type = DType::F32;
  Compute compute = Compute::F32;
  // C types to test: the first on the whole plan, any further one on a smaller plan.
  DType c_types[2] = {DType::F32, DType::F32};
  int c_type_count = 1;
};
// "fp32", "tf32", "fp16", "bf16"; false for any other name.
bool case_types_of(const std::string& dtype, CaseTypes* out);

struct CaseResult {
  bool passed = false;
  // The library refused the case (NOT_SUPPORTED / ARCH_MISMATCH, e.g. a forced kernel
  // whose requirements the case breaks); passed then says C was left bitwise untouched.
  bool refused = false;
  std::string message;  // why it failed, or the error figures
  double error = 0.0;   // ||C - Cref||_F / (|alpha| ||A||_F ||B||_F + |beta| ||C0||_F), worst item
  double tolerance = 0.0;
};

// Runs the case on the handle (its algorithm set by the caller) and checks it.
CaseResult run_case(tilemmHandle_t handle, const GemmCase& c, bool check_determinism);

// The tolerance of the design: c * u * sqrt(k), u the unit roundoff of fp32.
double fp32_tolerance(std::int64_t k);

// The tolerance of a case. Its inputs are exact in the input type, so the only
// rounding inside the product is the fp32 accumulation (products of 16-bit or tf32
// values are exact in fp32): fp32_tolerance(k). A 16-bit C adds one rounding of the
// result, at most u = 2^-11 (fp16) or 2^-8 (bf16) of ||C||_F, itself at most the
// denominator |alpha| ||A||_F ||B||_F + |beta| ||C0||_F of the error measure.
double case_tolerance(const GemmCase& c);

// true when the TILEMM_TEST_SMALL environment variable asks for the sanitizer subset.
bool small_subset();

// true when the TILEMM_TEST_TRACE environment variable asks for every case to be named (on
// stderr, flushed) before it runs, so that a case that hangs, e.g. under a sanitizer that
// changes the timing, names itself.
bool trace_cases();

// C = alpha * op(A) * op(B) + beta * C on the device in fp64 (one thread per output);
// A and B are device fp32, C device fp64. The yardstick for large shapes.
void fp64_reference_gemm(Op opa, Op opb, std::int64_t m, std::int64_t n, std::int64_t k,
                         double alpha, const float* A, std::int64_t lda, const float* B,
                         std::int64_t ldb, double beta, double* C, std::int64_t ldc);

}  // namespace tilemm::test
