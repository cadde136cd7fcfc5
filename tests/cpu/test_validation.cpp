// The API contract's argument rules and quick-return rules, case by case, on the
// host-side path (no GPU needed): plan_gemm() and the C API with a null handle.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/validate.hpp"
#include "tilemm/tilemm.h"

namespace {

using tilemm::Action;
using tilemm::GemmArgs;
using tilemm::GemmPlan;
using tilemm::plan_gemm;

// Distinct fake device addresses, far apart: validation never dereferences them.
float* fake(std::uintptr_t slot) { return reinterpret_cast<float*>(slot << 32); }

const float kOne = 1.0f, kZero = 0.0f, kTwo = 2.0f;

// A valid 4 x 5 x 3 NN problem with tight leading dimensions.
GemmArgs valid_args() {
  GemmArgs a;
  a.m = 4;
  a.n = 5;
  a.k = 3;
  a.alpha = &kOne;
  a.beta = &kZero;
  a.A = fake(1);
  a.lda = 4;
  a.B = fake(2);
  a.ldb = 3;
  a.C = fake(3);
  a.ldc = 4;
  return a;
}

struct Rejection {
  const char* name;
  void (*mutate)(GemmArgs&);
  tilemmStatus_t status;
  const char* detail_fragment;
};

const Rejection kRejections[] = {
    {"transa_out_of_range", [](GemmArgs& a) { a.transa = 7; }, TILEMM_STATUS_INVALID_VALUE, "transa = 7 must be TILEMM_OP_N, TILEMM_OP_T or TILEMM_OP_C (argument 1)"},
    {"transb_negative", [](GemmArgs& a) { a.transb = -1; }, TILEMM_STATUS_INVALID_VALUE, "transb = -1 must be"},
    {"m_negative", [](GemmArgs& a) { a.m = -1; }, TILEMM_STATUS_INVALID_VALUE, "m = -1 must be >= 0 (argument 3)"},
    {"n_negative", [](GemmArgs& a) { a.n = -2; }, TILEMM_STATUS_INVALID_VALUE, "n = -2 must be >= 0 (argument 4)"},
    {"k_negative", [](GemmArgs& a) { a.k = -3; }, TILEMM_STATUS_INVALID_VALUE, "k = -3 must be >= 0 (argument 5)"},
    {"lda_below_m", [](GemmArgs& a) { a.lda = 3; }, TILEMM_STATUS_INVALID_VALUE, "lda = 3 must be >= max(1, m) = 4 (argument 8)"},
    {"lda_below_k_transposed", [](GemmArgs& a) { a.transa = TILEMM_OP_T; a.lda = 2; }, TILEMM_STATUS_INVALID_VALUE, "lda = 2 must be >= max(1, k) = 3 (argument 8)"},
    {"lda_zero_for_empty", [](GemmArgs& a) { a.m = 0; a.lda = 0; }, TILEMM_STATUS_INVALID_VALUE, "lda = 0 must be >= max(1, m) = 1 (argument 8)"},
    {"ldb_below_k", [](GemmArgs& a) { a.ldb = 2; }, TILEMM_STATUS_INVALID_VALUE, "ldb = 2 must be >= max(1, k) = 3 (argument 10)"},
    {"ldb_below_n_transposed", [](GemmArgs& a) { a.transb = TILEMM_OP_C; a.ldb = 4; }, TILEMM_STATUS_INVALID_VALUE, "ldb = 4 must be >= max(1, n) = 5 (argument 10)"},
    {"ldc_below_m", [](GemmArgs& a) { a.ldc = 3; }, TILEMM_STATUS_INVALID_VALUE, "ldc = 3 must be >= max(1, m) = 4 (argument 13)"},
    {"ld_checked_before_quick_return", [](GemmArgs& a) { a.n = 0; a.ldc = 1; }, TILEMM_STATUS_INVALID_VALUE, "ldc = 1 must be >= max(1, m) = 4 (argument 13)"},
    {"null_handle", [](GemmArgs& a) { a.handle_valid = false; }, TILEMM_STATUS_NOT_INITIALIZED, "handle is null"},
    {"null_alpha", [](GemmArgs& a) { a.alpha = nullptr; }, TILEMM_STATUS_INVALID_VALUE, "alpha = NULL"},
    {"null_beta", [](GemmArgs& a) { a.beta = nullptr; }, TILEMM_STATUS_INVALID_VALUE, "beta = NULL"},
    {"null_A", [](GemmArgs& a) { a.A = nullptr; }, TILEMM_STATUS_INVALID_VALUE, "A = NULL"},
    {"null_B", [](GemmArgs& a) { a.B = nullptr; }, TILEMM_STATUS_INVALID_VALUE, "B = NULL"},
    {"null_C", [](GemmArgs& a) { a.C = nullptr; }, TILEMM_STATUS_INVALID_VALUE, "C = NULL"},
    {"batch_negative", [](GemmArgs& a) { a.batch = -1; }, TILEMM_STATUS_INVALID_VALUE, "batchCount = -1 must be >= 0"},
    {"strided_outputs_overlap", [](GemmArgs& a) { a.batch = 2; a.stride_a = 12; a.stride_b = 15; a.stride_c = 19; }, TILEMM_STATUS_INVALID_VALUE, "strideC = 19 makes the outputs of different batch items overlap"},
    {"strided_outputs_same_matrix", [](GemmArgs& a) { a.batch = 3; a.stride_c = 0; }, TILEMM_STATUS_INVALID_VALUE, "strideC = 0"},
    {"C_overlaps_A", [](GemmArgs& a) { a.C = const_cast<void*>(a.A); }, TILEMM_STATUS_INVALID_VALUE, "C overlaps A"},
    {"C_overlaps_B_partially", [](GemmArgs& a) { a.C = static_cast<char*>(const_cast<void*>(a.B)) + 4 * 14; }, TILEMM_STATUS_INVALID_VALUE, "C overlaps B"},
    {"C_batch_range_overlaps_A", [](GemmArgs& a) { a.batch = 2; a.stride_c = 20; a.stride_a = 1000; a.C = static_cast<char*>(const_cast<void*>(a.A)) - 4 * 20; }, TILEMM_STATUS_INVALID_VALUE, "C overlaps A"},
    {"mixed_fp16_bf16_inputs", [](GemmArgs& a) { a.a_type = CUDA_R_16F; a.b_type = CUDA_R_16BF; }, TILEMM_STATUS_NOT_SUPPORTED, "Atype = CUDA_R_16F, Btype = CUDA_R_16BF, Ctype = CUDA_R_32F with TILEMM_COMPUTE_32F is not supported; supported: A, B, C in CUDA_R_32F with TILEMM_COMPUTE_32F or TILEMM_COMPUTE_32F_FAST_TF32; A and B both CUDA_R_16F or both CUDA_R_16BF, C in the same type or CUDA_R_32F, with TILEMM_COMPUTE_32F"},
    {"mixed_fp32_fp16_inputs", [](GemmArgs& a) { a.b_type = CUDA_R_16F; }, TILEMM_STATUS_NOT_SUPPORTED, "Atype = CUDA_R_32F, Btype = CUDA_R_16F"},
    {"fp16_inputs_bf16_output", [](GemmArgs& a) { a.a_type = a.b_type = CUDA_R_16F; a.c_type = CUDA_R_16BF; }, TILEMM_STATUS_NOT_SUPPORTED, "Ctype = CUDA_R_16BF with TILEMM_COMPUTE_32F is not supported"},
    {"bf16_inputs_fp16_output", [](GemmArgs& a) { a.a_type = a.b_type = CUDA_R_16BF; a.c_type = CUDA_R_16F; }, TILEMM_STATUS_NOT_SUPPORTED, "Ctype = CUDA_R_16F with TILEMM_COMPUTE_32F is not supported"},
    {"fp32_inputs_fp16_output", [](GemmArgs& a) { a.c_type = CUDA_R_16F; }, TILEMM_STATUS_NOT_SUPPORTED, "Atype = CUDA_R_32F, Btype = CUDA_R_32F, Ctype = CUDA_R_16F"},
    {"tf32_compute_with_fp16_data", [](GemmArgs& a) { a.a_type = a.b_type = a.c_type = CUDA_R_16F; a.compute = TILEMM_COMPUTE_32F_FAST_TF32; }, TILEMM_STATUS_NOT_SUPPORTED, "Ctype = CUDA_R_16F with TILEMM_COMPUTE_32F_FAST_TF32 is not supported"},
    {"tf32_compute_with_bf16_data_fp32_output", [](GemmArgs& a) { a.a_type = a.b_type = CUDA_R_16BF; a.compute = TILEMM_COMPUTE_32F_FAST_TF32; }, TILEMM_STATUS_NOT_SUPPORTED, "TILEMM_COMPUTE_32F_FAST_TF32 is not supported"},
    {"int8_not_supported", [](GemmArgs& a) { a.a_type = a.b_type = CUDA_R_8I; a.c_type = CUDA_R_32I; }, TILEMM_STATUS_NOT_SUPPORTED, "Atype = CUDA_R_8I, Btype = CUDA_R_8I, Ctype = CUDA_R_32I"},
    {"complex_not_supported", [](GemmArgs& a) { a.a_type = a.b_type = a.c_type = CUDA_C_32F; }, TILEMM_STATUS_NOT_SUPPORTED, "CUDA_C_32F"},
    {"fp16_C_overlaps_fp16_A", [](GemmArgs& a) { a.a_type = a.b_type = a.c_type = CUDA_R_16F; a.C = static_cast<char*>(const_cast<void*>(a.A)) + 2 * 11; }, TILEMM_STATUS_INVALID_VALUE, "C overlaps A"},
    {"fp64_not_supported", [](GemmArgs& a) { a.a_type = a.b_type = a.c_type = CUDA_R_64F; }, TILEMM_STATUS_NOT_SUPPORTED, "CUDA_R_64F"},
    {"unknown_compute_type", [](GemmArgs& a) { a.compute = 42; }, TILEMM_STATUS_NOT_SUPPORTED, "unknown tilemmComputeType_t"},
};

class Rejects : public ::testing::TestWithParam<Rejection> {};

TEST_P(Rejects, WithStatusAndDetail) {
  const Rejection& r = GetParam();
  GemmArgs a = valid_args();
  r.mutate(a);
  const GemmPlan plan = plan_gemm(a);
  EXPECT_EQ(plan.status, r.status) << tilemmGetStatusString(plan.status) << ": " << plan.detail;
  EXPECT_NE(plan.detail.find(r.detail_fragment), std::string::npos)
      << "detail: '" << plan.detail << "'\nexpected to contain: '" << r.detail_fragment << "'";
}

INSTANTIATE_TEST_SUITE_P(Validation, Rejects, ::testing::ValuesIn(kRejections),
                         [](const auto& test_info) { return std::string(test_info.param.name); });

TEST(Validation, ValidArgumentsPlanAMultiply) {
  const GemmPlan plan = plan_gemm(valid_args());
  ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << plan.detail;
  EXPECT_TRUE(plan.detail.empty());
  EXPECT_EQ(plan.action, Action::Multiply);
  EXPECT_EQ(plan.problem.m, 4);
  EXPECT_EQ(plan.problem.b_rows(), 3);
}

// Vectors with unit stride along k are read K-major by auto (core/problem.hpp): the same
// memory, a leading dimension the 16-byte copies accept. Strided vectors stay as given.
TEST(Validation, UnitStrideVectorsReadKMajor) {
  using tilemm::Op;
  const auto problem = [](std::int64_t m, std::int64_t n, std::int64_t k, Op opb, std::int64_t lda,
                          std::int64_t ldb) {
    tilemm::GemmProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.opb = opb;
    p.lda = lda;
    p.ldb = ldb;
    p.ldc = m;
    return p;
  };
  const tilemm::GemmProblem row = problem(1, 2048, 11000, Op::N, 1, 11000);
  const tilemm::GemmProblem read = tilemm::vectors_read_k_major(row);
  EXPECT_EQ(read.opa, Op::T);
  EXPECT_EQ(read.lda, 11008);
  EXPECT_EQ(read.opb, Op::N);
  EXPECT_EQ(read.ldb, 11000);
  tilemm::GemmProblem strided = row;
  strided.lda = 8;  // a row of an 8-row matrix: k elements 8 apart
  EXPECT_EQ(tilemm::vectors_read_k_major(strided), strided);
  const tilemm::GemmProblem read_column = tilemm::vectors_read_k_major(problem(4096, 1, 8, Op::T, 4096, 1));
  EXPECT_EQ(read_column.opb, Op::N);
  EXPECT_EQ(read_column.ldb, 64);
  EXPECT_EQ(read_column.opa, Op::N);
  // A vector that ends inside a 16-byte unit keeps ld = k: the 16-byte copies would read its
  // last unit whole, past the vector (fp32 k = 1: 12 bytes; bf16 k = 4093: 6 bytes).
  const tilemm::GemmProblem short_column = tilemm::vectors_read_k_major(problem(4096, 1, 1, Op::T, 4096, 1));
  EXPECT_EQ(short_column.opb, Op::N);
  EXPECT_EQ(short_column.ldb, 1);
  tilemm::GemmProblem bf16_row = problem(1, 2048, 4093, Op::N, 1, 4093);
  bf16_row.a_type = bf16_row.b_type = tilemm::DType::BF16;
  EXPECT_EQ(tilemm::vectors_read_k_major(bf16_row).lda, 4093);
  bf16_row.k = bf16_row.ldb = 4096;
  EXPECT_EQ(tilemm::vectors_read_k_major(bf16_row).lda, 4096);
  tilemm::GemmProblem k_major = row;
  k_major.opa = Op::T;
  k_major.lda = 11000;
  EXPECT_EQ(tilemm::vectors_read_k_major(k_major), k_major);
}

// The supported type combinations and what the plan records for the kernels.
struct TypeCase {
  int a, b, c, compute;
  tilemm::DType ab, c_dtype;
  tilemm::Compute arithmetic;
};

TEST(Validation, SupportedTypeCombinations) {
  using tilemm::Compute;
  using tilemm::DType;
  const TypeCase cases[] = {
      {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, TILEMM_COMPUTE_32F, DType::F32, DType::F32, Compute::F32},
      {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, TILEMM_COMPUTE_32F_FAST_TF32, DType::F32, DType::F32, Compute::F32_FAST_TF32},
      {CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, TILEMM_COMPUTE_32F, DType::F16, DType::F16, Compute::F32},
      {CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, TILEMM_COMPUTE_32F, DType::F16, DType::F32, Compute::F32},
      {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, TILEMM_COMPUTE_32F, DType::BF16, DType::BF16, Compute::F32},
      {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, TILEMM_COMPUTE_32F, DType::BF16, DType::F32, Compute::F32},
  };
  for (const TypeCase& t : cases) {
    GemmArgs a = valid_args();
    a.a_type = t.a;
    a.b_type = t.b;
    a.c_type = t.c;
    a.compute = t.compute;
    const GemmPlan plan = plan_gemm(a);
    ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << t.a << " " << t.b << " " << t.c << ": " << plan.detail;
    EXPECT_EQ(plan.action, Action::Multiply);
    EXPECT_EQ(plan.problem.a_type, t.ab);
    EXPECT_EQ(plan.problem.b_type, t.ab);
    EXPECT_EQ(plan.problem.c_type, t.c_dtype);
    EXPECT_EQ(plan.problem.compute, t.arithmetic);
    EXPECT_EQ(plan.problem.alpha, 1.0);  // alpha and beta are floats for every type
  }
}

TEST(Validation, SixteenBitOverlapUsesTwoByteElements) {
  // A is 4 x 3 with lda = 4: 12 fp16 elements, 24 bytes. C right behind it is disjoint
  // (with 4-byte elements it would overlap); one element earlier it overlaps.
  GemmArgs a = valid_args();
  a.a_type = a.b_type = a.c_type = CUDA_R_16F;
  a.C = static_cast<char*>(const_cast<void*>(a.A)) + 24;
  EXPECT_EQ(plan_gemm(a).status, TILEMM_STATUS_SUCCESS) << plan_gemm(a).detail;
  a.C = static_cast<char*>(const_cast<void*>(a.A)) + 22;
  EXPECT_EQ(plan_gemm(a).status, TILEMM_STATUS_INVALID_VALUE);
}

TEST(Validation, SixteenBitKZeroScalesC) {
  GemmArgs a = valid_args();
  a.a_type = a.b_type = a.c_type = CUDA_R_16BF;
  a.k = 0;
  a.ldb = 1;
  a.A = a.B = nullptr;
  a.beta = &kTwo;
  const GemmPlan plan = plan_gemm(a);
  ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << plan.detail;
  EXPECT_EQ(plan.action, Action::ScaleC);
  EXPECT_EQ(plan.problem.c_type, tilemm::DType::BF16);
}

TEST(Validation, FirstFailureWinsInBlasOrder) {
  GemmArgs a = valid_args();
  a.m = -1;
  a.lda = 0;
  a.alpha = nullptr;
  a.handle_valid = false;
  EXPECT_NE(plan_gemm(a).detail.find("argument 3"), std::string::npos);
  a.m = 4;
  EXPECT_NE(plan_gemm(a).detail.find("argument 8"), std::string::npos);
  a.lda = 4;
  EXPECT_EQ(plan_gemm(a).status, TILEMM_STATUS_NOT_INITIALIZED);
}

TEST(Validation, OpCIsTransposeForRealTypes) {
  GemmArgs a = valid_args();
  a.transa = TILEMM_OP_C;
  a.lda = 3;  // A stored k x m
  const GemmPlan plan = plan_gemm(a);
  ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << plan.detail;
  EXPECT_EQ(plan.problem.opa, tilemm::Op::T);
}

// ---- quick returns and what is read ----

TEST(QuickReturn, EmptyOutputTouchesNothingAndNeedsNoPointers) {
  for (int which = 0; which < 3; ++which) {
    GemmArgs a = valid_args();
    if (which == 0) a.m = 0;
    if (which == 1) a.n = 0;
    if (which == 2) a.batch = 0;
    a.A = a.B = nullptr;
    a.C = nullptr;
    const GemmPlan plan = plan_gemm(a);
    ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << plan.detail;
    EXPECT_EQ(plan.action, Action::Nothing);
  }
}

TEST(QuickReturn, KZeroScalesCWithoutReadingAB) {
  GemmArgs a = valid_args();
  a.k = 0;
  a.lda = 4;
  a.ldb = 1;
  a.A = a.B = nullptr;
  a.beta = &kTwo;
  const GemmPlan plan = plan_gemm(a);
  ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << plan.detail;
  EXPECT_EQ(plan.action, Action::ScaleC);
  EXPECT_EQ(plan.problem.beta, 2.0);
}

TEST(QuickReturn, AlphaZeroScalesCWithoutReadingAB) {
  GemmArgs a = valid_args();
  a.alpha = &kZero;
  a.A = a.B = nullptr;
  const GemmPlan plan = plan_gemm(a);
  ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << plan.detail;
  EXPECT_EQ(plan.action, Action::ScaleC);
  EXPECT_EQ(plan.problem.beta, 0.0);  // beta = 0: the scale writes zeros, never reads C
}

TEST(QuickReturn, BetaOneWithAlphaZeroLeavesCUntouched) {
  GemmArgs a = valid_args();
  a.alpha = &kZero;
  a.beta = &kOne;
  a.A = a.B = nullptr;
  a.C = nullptr;  // not even C is needed
  const GemmPlan plan = plan_gemm(a);
  ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << plan.detail;
  EXPECT_EQ(plan.action, Action::Nothing);
}

TEST(QuickReturn, BetaOneWithKZeroLeavesCUntouched) {
  GemmArgs a = valid_args();
  a.k = 0;
  a.ldb = 1;
  a.beta = &kOne;
  const GemmPlan plan = plan_gemm(a);
  ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS);
  EXPECT_EQ(plan.action, Action::Nothing);
}

TEST(QuickReturn, NaNAlphaIsNotZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  GemmArgs a = valid_args();
  a.alpha = &nan;
  const GemmPlan plan = plan_gemm(a);
  ASSERT_EQ(plan.status, TILEMM_STATUS_SUCCESS);
  EXPECT_EQ(plan.action, Action::Multiply);
}

// ---- overlap rules ----

TEST(StridedOverlap, ExactOnInterleavedColumns) {
  // 2 x 3 matrices with ldc = 4 placed 2 apart interleave in the padding: disjoint.
  EXPECT_FALSE(tilemm::strided_batches_overlap(2, 3, 4, 2, 2));
  // A third item at offset 4 lands on the first one's second column.
  EXPECT_TRUE(tilemm::strided_batches_overlap(2, 3, 4, 2, 3));
  EXPECT_FALSE(tilemm::strided_batches_overlap(4, 5, 4, 20, 1000));
  EXPECT_TRUE(tilemm::strided_batches_overlap(4, 5, 4, 19, 2));
  EXPECT_TRUE(tilemm::strided_batches_overlap(4, 5, 4, -19, 2));
  EXPECT_FALSE(tilemm::strided_batches_overlap(4, 5, 4, 0, 1));
  EXPECT_TRUE(tilemm::strided_batches_overlap(4, 5, 4, 0, 2));
}

TEST(StridedOverlap, MatchesBruteForce) {
  for (std::int64_t rows = 1; rows <= 4; ++rows)
    for (std::int64_t cols = 1; cols <= 4; ++cols)
      for (std::int64_t ld = rows; ld <= rows + 3; ++ld)
        for (std::int64_t stride = 0; stride <= 3 * ld * cols; ++stride)
          for (std::int64_t batch = 1; batch <= 4; ++batch) {
            std::vector<int> hits(static_cast<size_t>(stride * batch + ld * cols + 1));
            bool overlap = false;
            for (std::int64_t b = 0; b < batch && !overlap; ++b)
              for (std::int64_t c = 0; c < cols && !overlap; ++c)
                for (std::int64_t r = 0; r < rows; ++r)
                  if (hits[static_cast<size_t>(b * stride + c * ld + r)]++) overlap = true;
            ASSERT_EQ(tilemm::strided_batches_overlap(rows, cols, ld, stride, batch), overlap)
                << rows << "x" << cols << " ld " << ld << " stride " << stride << " batch " << batch;
          }
}

TEST(StridedOverlap, BroadcastInputsAreLegal) {
  GemmArgs a = valid_args();
  a.batch = 8;
  a.stride_a = 0;
  a.stride_b = 0;
  a.stride_c = 1 << 20;
  a.C = fake(3);
  const GemmPlan plan = plan_gemm(a);
  EXPECT_EQ(plan.status, TILEMM_STATUS_SUCCESS) << plan.detail;
}

// ---- the C API's host-side path: a null handle reaches no GPU ----

TEST(CApiHostPath, NullHandleStillReportsArgumentErrorsFirst) {
  float c[4] = {1, 2, 3, 4};
  const tilemmStatus_t s = tilemmSgemm(nullptr, TILEMM_OP_N, TILEMM_OP_N, 2, 2, 2, &kOne, c, 1,
                                       c, 2, &kZero, c, 2);
  EXPECT_EQ(s, TILEMM_STATUS_INVALID_VALUE);
  EXPECT_STREQ(tilemmGetErrorDetail(nullptr), "lda = 1 must be >= max(1, m) = 2 (argument 8)");
  EXPECT_EQ(c[0], 1.0f);
}

TEST(CApiHostPath, NullHandleWithValidArguments) {
  float a[4] = {}, b[4] = {}, c[4] = {};
  const tilemmStatus_t s = tilemmSgemm(nullptr, TILEMM_OP_N, TILEMM_OP_N, 2, 2, 2, &kOne, a, 2,
                                       b, 2, &kZero, c, 2);
  EXPECT_EQ(s, TILEMM_STATUS_NOT_INITIALIZED);
  EXPECT_NE(std::string(tilemmGetErrorDetail(nullptr)).find("handle"), std::string::npos);
}

TEST(CApiHostPath, StatusStrings) {
  EXPECT_STREQ(tilemmGetStatusString(TILEMM_STATUS_SUCCESS), "TILEMM_STATUS_SUCCESS");
  EXPECT_STREQ(tilemmGetStatusString(TILEMM_STATUS_NO_DEVICE), "TILEMM_STATUS_NO_DEVICE");
  const int unknown = 99;
  tilemmStatus_t status;
  std::memcpy(&status, &unknown, sizeof status);  // as a foreign caller could pass it
  EXPECT_STREQ(tilemmGetStatusString(status), "TILEMM_STATUS_<unknown>");
}

TEST(CApiHostPath, HandleCallsRefuseNull) {
  EXPECT_EQ(tilemmCreate(nullptr), TILEMM_STATUS_INVALID_VALUE);
  EXPECT_EQ(tilemmDestroy(nullptr), TILEMM_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(tilemmSetStream(nullptr, nullptr), TILEMM_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(tilemmSetAlgorithm(nullptr, "auto"), TILEMM_STATUS_NOT_INITIALIZED);
}

}  // namespace
