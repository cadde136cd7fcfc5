// The API contract on a real device: bad calls leave C bitwise untouched, the quick
// returns read nothing they must not, streams, algorithm selection, 64-bit indexing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include <cuda_runtime_api.h>

#include "registry/registry.hpp"
#include "tilemm/tilemm.h"

namespace {

// An enum value outside its range, as a caller through a foreign-function interface
// may pass (bytes copied, not converted, so the compiler cannot object).
tilemmOperation_t raw_op(int v) {
  tilemmOperation_t op;
  static_assert(sizeof op == sizeof v);
  std::memcpy(&op, &v, sizeof op);
  return op;
}

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

class ApiSemantics : public ::testing::Test {
 protected:
  static constexpr std::int64_t kM = 6, kN = 5, kK = 4;
  void SetUp() override {
    ASSERT_EQ(tilemmCreate(&h_), TILEMM_STATUS_SUCCESS);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.5f, 1.5f);
    a_.resize(kM * kK);
    b_.resize(kK * kN);
    c_.resize(kM * kN);
    for (auto* v : {&a_, &b_, &c_})
      for (auto& x : *v) x = u(rng);
    CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&dA_), a_.size() * 4));
    CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&dB_), b_.size() * 4));
    CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&dC_), c_.size() * 4));
    CUDA_OK(cudaMemcpy(dA_, a_.data(), a_.size() * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB_, b_.data(), b_.size() * 4, cudaMemcpyHostToDevice));
    reset_c();
  }
  void TearDown() override {
    cudaFree(dA_);
    cudaFree(dB_);
    cudaFree(dC_);
    tilemmDestroy(h_);
  }
  void reset_c(const std::vector<float>* values = nullptr) {
    const auto& v = values ? *values : c_;
    ASSERT_EQ(cudaMemcpy(dC_, v.data(), v.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
  }
  std::vector<float> read_c() {
    std::vector<float> out(c_.size());
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(out.data(), dC_, out.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
  bool c_untouched() {
    const auto now = read_c();
    return std::memcmp(now.data(), c_.data(), c_.size() * 4) == 0;
  }
  tilemmStatus_t sgemm(tilemmOperation_t ta, tilemmOperation_t tb, std::int64_t m,
                       std::int64_t n, std::int64_t k, const float* alpha, const float* A,
                       std::int64_t lda, const float* B, std::int64_t ldb, const float* beta,
                       float* C, std::int64_t ldc) {
    return tilemmSgemm(h_, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }

  tilemmHandle_t h_ = nullptr;
  std::vector<float> a_, b_, c_;
  float *dA_ = nullptr, *dB_ = nullptr, *dC_ = nullptr;
  const float one_ = 1.0f, zero_ = 0.0f, two_ = 2.0f;
};

TEST_F(ApiSemantics, EveryBadCallLeavesCBitwiseUntouched) {
  struct Bad {
    const char* what;
    std::function<tilemmStatus_t()> call;
    tilemmStatus_t status;
    const char* fragment;
  };
  const auto N = TILEMM_OP_N;
  const std::vector<Bad> bad = {
      {"transa", [&] { return sgemm(raw_op(9), N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "(argument 1)"},
      {"transb", [&] { return sgemm(N, raw_op(-4), kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "(argument 2)"},
      {"m", [&] { return sgemm(N, N, -1, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "m = -1"},
      {"n", [&] { return sgemm(N, N, kM, -1, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "n = -1"},
      {"k", [&] { return sgemm(N, N, kM, kN, -1, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "k = -1"},
      {"lda", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM - 1, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "lda = 5 must be >= max(1, m) = 6 (argument 8)"},
      {"ldb", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM, dB_, kK - 1, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "ldb = 3 must be >= max(1, k) = 4 (argument 10)"},
      {"ldc", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM - 1); }, TILEMM_STATUS_INVALID_VALUE, "ldc = 5 must be >= max(1, m) = 6 (argument 13)"},
      {"null handle", [&] { return tilemmSgemm(nullptr, N, N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_NOT_INITIALIZED, "handle"},
      {"alpha", [&] { return sgemm(N, N, kM, kN, kK, nullptr, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "alpha = NULL"},
      {"beta", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM, dB_, kK, nullptr, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "beta = NULL"},
      {"A", [&] { return sgemm(N, N, kM, kN, kK, &one_, nullptr, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "A = NULL"},
      {"B", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM, nullptr, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "B = NULL"},
      {"C aliases A", [&] { return sgemm(N, N, 2, 2, 2, &one_, dC_, 2, dB_, 2, &zero_, dC_ + 2, 2); }, TILEMM_STATUS_INVALID_VALUE, "C overlaps A"},
      {"C aliases B", [&] { return sgemm(N, N, 2, 2, 2, &one_, dA_, 2, dC_ + 3, 2, &zero_, dC_, 2); }, TILEMM_STATUS_INVALID_VALUE, "C overlaps B"},
      {"batch", [&] { return tilemmGemmStridedBatchedEx(h_, N, N, kM, kN, kK, &one_, dA_, CUDA_R_32F, kM, 0, dB_, CUDA_R_32F, kK, 0, &zero_, dC_, CUDA_R_32F, kM, 0, -1, TILEMM_COMPUTE_32F); }, TILEMM_STATUS_INVALID_VALUE, "batchCount = -1"},
      {"overlapping batch outputs", [&] { return tilemmGemmStridedBatchedEx(h_, N, N, 2, 2, kK, &one_, dA_, CUDA_R_32F, 2, 0, dB_, CUDA_R_32F, kK, 0, &zero_, dC_, CUDA_R_32F, 2, 3, 2, TILEMM_COMPUTE_32F); }, TILEMM_STATUS_INVALID_VALUE, "strideC = 3"},
      {"types", [&] { return tilemmGemmEx(h_, N, N, kM, kN, kK, &one_, dA_, CUDA_R_16BF, kM, dB_, CUDA_R_16BF, kK, &zero_, dC_, CUDA_R_32F, kM, TILEMM_COMPUTE_32F); }, TILEMM_STATUS_NOT_SUPPORTED, "CUDA_R_16BF"},
      {"compute type", [&] { return tilemmGemmEx(h_, N, N, kM, kN, kK, &one_, dA_, CUDA_R_32F, kM, dB_, CUDA_R_32F, kK, &zero_, dC_, CUDA_R_32F, kM, TILEMM_COMPUTE_32F_FAST_TF32); }, TILEMM_STATUS_NOT_SUPPORTED, "TILEMM_COMPUTE_32F_FAST_TF32"},
  };
  for (const auto& b : bad) {
    const tilemmStatus_t s = b.call();
    EXPECT_EQ(s, b.status) << b.what << ": " << tilemmGetStatusString(s);
    const std::string detail = tilemmGetErrorDetail(b.status == TILEMM_STATUS_NOT_INITIALIZED ? nullptr : h_);
    EXPECT_NE(detail.find(b.fragment), std::string::npos) << b.what << ": detail '" << detail << "'";
    EXPECT_TRUE(c_untouched()) << b.what << " modified C";
  }
}

TEST_F(ApiSemantics, EmptyProblemsTouchNothing) {
  EXPECT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, 0, kN, kK, &one_, nullptr, 1, nullptr, kK, &zero_, nullptr, 1), TILEMM_STATUS_SUCCESS);
  EXPECT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, kM, 0, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM), TILEMM_STATUS_SUCCESS);
  EXPECT_EQ(tilemmGemmStridedBatchedEx(h_, TILEMM_OP_N, TILEMM_OP_N, kM, kN, kK, &one_, dA_, CUDA_R_32F, kM, 0, dB_, CUDA_R_32F, kK, 0, &zero_, dC_, CUDA_R_32F, kM, 0, 0, TILEMM_COMPUTE_32F), TILEMM_STATUS_SUCCESS);
  EXPECT_TRUE(c_untouched());
  EXPECT_STREQ(tilemmGetLastKernel(h_), "");
}

TEST_F(ApiSemantics, AlphaZeroNeverReadsAB) {
  // A and B are null: a read would fault. C = beta * C.
  ASSERT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, kM, kN, kK, &zero_, nullptr, kM, nullptr, kK, &two_, dC_, kM), TILEMM_STATUS_SUCCESS) << tilemmGetErrorDetail(h_);
  const auto got = read_c();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], 2.0f * c_[i]);
}

TEST_F(ApiSemantics, KZeroWithBetaZeroWritesZerosOverNaN) {
  std::vector<float> nan(c_.size(), std::numeric_limits<float>::quiet_NaN());
  reset_c(&nan);
  ASSERT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, kM, kN, 0, &one_, nullptr, kM, nullptr, 1, &zero_, dC_, kM), TILEMM_STATUS_SUCCESS);
  for (float x : read_c()) EXPECT_EQ(x, 0.0f);
}

TEST_F(ApiSemantics, BetaOneAndAlphaZeroLeavesCUntouched) {
  ASSERT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, kM, kN, kK, &zero_, nullptr, kM, nullptr, kK, &one_, dC_, kM), TILEMM_STATUS_SUCCESS);
  EXPECT_TRUE(c_untouched());
  EXPECT_STREQ(tilemmGetLastKernel(h_), "");
}

TEST_F(ApiSemantics, BetaZeroIgnoresNaNInCForEveryKernel) {
  std::vector<float> nan(c_.size(), std::numeric_limits<float>::quiet_NaN());
  for (const auto& e : tilemm::registry().entries()) {
    ASSERT_EQ(tilemmSetAlgorithm(h_, e.name.c_str()), TILEMM_STATUS_SUCCESS);
    reset_c(&nan);
    ASSERT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM), TILEMM_STATUS_SUCCESS) << e.name;
    EXPECT_EQ(std::string(tilemmGetLastKernel(h_)), e.name);
    for (float x : read_c()) ASSERT_TRUE(std::isfinite(x)) << e.name;
  }
}

TEST_F(ApiSemantics, AlgorithmSelection) {
  EXPECT_STREQ(tilemmGetAlgorithm(h_), "auto");
  EXPECT_EQ(tilemmSetAlgorithm(h_, "no_such_kernel"), TILEMM_STATUS_INVALID_VALUE);
  EXPECT_NE(std::string(tilemmGetErrorDetail(h_)).find("'no_such_kernel' is not registered"), std::string::npos);
  EXPECT_STREQ(tilemmGetAlgorithm(h_), "auto");
  ASSERT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM), TILEMM_STATUS_SUCCESS);
  const auto* chosen = tilemm::registry().find(tilemmGetLastKernel(h_));
  ASSERT_NE(chosen, nullptr);
  EXPECT_TRUE(chosen->auto_eligible);
  EXPECT_EQ(tilemmSetAlgorithm(h_, nullptr), TILEMM_STATUS_INVALID_VALUE);
}

TEST_F(ApiSemantics, RunsOnTheHandlesStream) {
  cudaStream_t s = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  ASSERT_EQ(tilemmSetStream(h_, s), TILEMM_STATUS_SUCCESS);
  cudaStream_t got = nullptr;
  ASSERT_EQ(tilemmGetStream(h_, &got), TILEMM_STATUS_SUCCESS);
  EXPECT_EQ(got, s);
  ASSERT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM), TILEMM_STATUS_SUCCESS);
  CUDA_OK(cudaStreamSynchronize(s));
  std::vector<float> out(c_.size());
  CUDA_OK(cudaMemcpy(out.data(), dC_, out.size() * 4, cudaMemcpyDeviceToHost));
  for (std::int64_t j = 0; j < kN; ++j)
    for (std::int64_t i = 0; i < kM; ++i) {
      double s_ref = 0;
      for (std::int64_t p = 0; p < kK; ++p) s_ref += double(a_[i + p * kM]) * b_[p + j * kK];
      EXPECT_NEAR(out[i + j * kM], s_ref, 1e-5 * std::abs(s_ref));
    }
  ASSERT_EQ(tilemmSetStream(h_, nullptr), TILEMM_STATUS_SUCCESS);
  CUDA_OK(cudaStreamDestroy(s));
}

// Offsets past 2^31 elements: column 1 of C starts 2^31 + 3 floats after column 0.
TEST_F(ApiSemantics, SixtyFourBitIndexingForEveryKernel) {
  const char* small = std::getenv("TILEMM_TEST_SMALL");
  if (small != nullptr && std::strcmp(small, "0") != 0) GTEST_SKIP() << "8.6 GB case skipped in the small subset";
  const std::int64_t ldc = (std::int64_t(1) << 31) + 3;
  float* big = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&big), size_t(ldc + 2) * 4) != cudaSuccess) {
    cudaGetLastError();
    GTEST_SKIP() << "not enough device memory for the 8.6 GB case";
  }
  const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  CUDA_OK(cudaMemcpy(dA_, a, 16, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dB_, b, 16, cudaMemcpyHostToDevice));
  const float nan2[2] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()};
  for (const auto& e : tilemm::registry().entries()) {
    ASSERT_EQ(tilemmSetAlgorithm(h_, e.name.c_str()), TILEMM_STATUS_SUCCESS);
    CUDA_OK(cudaMemcpy(big, nan2, 8, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(big + ldc, nan2, 8, cudaMemcpyHostToDevice));
    const tilemmStatus_t s = sgemm(TILEMM_OP_N, TILEMM_OP_N, 2, 2, 2, &one_, dA_, 2, dB_, 2, &zero_, big, ldc);
    if (s == TILEMM_STATUS_NOT_SUPPORTED) continue;  // a kernel refusing the alignment
    ASSERT_EQ(s, TILEMM_STATUS_SUCCESS) << e.name << ": " << tilemmGetErrorDetail(h_);
    float c0[2], c1[2];
    CUDA_OK(cudaMemcpy(c0, big, 8, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(c1, big + ldc, 8, cudaMemcpyDeviceToHost));
    EXPECT_EQ(c0[0], 23.0f) << e.name;
    EXPECT_EQ(c0[1], 34.0f) << e.name;
    EXPECT_EQ(c1[0], 31.0f) << e.name;
    EXPECT_EQ(c1[1], 46.0f) << e.name;
  }
  cudaFree(big);
}

}  // namespace
