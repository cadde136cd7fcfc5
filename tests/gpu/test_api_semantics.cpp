// The API contract on a real device: bad calls leave C bitwise untouched, the quick
// returns read nothing they must not, streams, algorithm selection, 64-bit indexing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
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

// How a dtype reaches tilemmGemmEx: A/B storage, C storage (the input type for 16-bit
// inputs), compute type, and the host <-> device element conversions.
struct TypedCall {
  cudaDataType_t ab = CUDA_R_32F;
  tilemmComputeType_t compute = TILEMM_COMPUTE_32F;
  std::size_t bytes = 4;
  explicit TypedCall(const std::string& dtype) {
    if (dtype == "tf32") compute = TILEMM_COMPUTE_32F_FAST_TF32;
    if (dtype == "fp16") ab = CUDA_R_16F;
    if (dtype == "bf16") ab = CUDA_R_16BF;
    bytes = ab == CUDA_R_32F ? 4 : 2;
  }
  // Values the tests use are small integers or NaN: exact in every type.
  std::vector<unsigned char> encode(const std::vector<float>& v) const {
    std::vector<unsigned char> out(v.size() * bytes);
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (ab == CUDA_R_16F) {
        const __half h = __float2half_rn(v[i]);
        std::memcpy(&out[i * bytes], &h, 2);
      } else if (ab == CUDA_R_16BF) {
        const __nv_bfloat16 b = __float2bfloat16_rn(v[i]);
        std::memcpy(&out[i * bytes], &b, 2);
      } else {
        std::memcpy(&out[i * bytes], &v[i], 4);
      }
    }
    return out;
  }
  float decode(const unsigned char* p) const {
    if (ab == CUDA_R_16F) {
      __half h;
      std::memcpy(&h, p, 2);
      return __half2float(h);
    }
    if (ab == CUDA_R_16BF) {
      __nv_bfloat16 b;
      std::memcpy(&b, p, 2);
      return __bfloat162float(b);
    }
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
};

// Whether e refuses problem p on the current device.
bool refuses(const tilemm::KernelEntry& e, const tilemm::GemmProblem& p) {
  int device = 0;
  tilemm::DeviceInfo dev;
  if (cudaGetDevice(&device) != cudaSuccess || !tilemm::query_device(device, &dev)) return false;
  return !e.can_implement(p, dev).empty();
}

// An m x n x k product of dtype with the given ops and every leading dimension ld.
tilemm::GemmProblem typed_problem(const std::string& dtype, std::int64_t m, std::int64_t n, std::int64_t k,
                                  tilemm::Op opa, tilemm::Op opb, std::int64_t ld) {
  tilemm::GemmProblem p;
  p.opa = opa;
  p.opb = opb;
  p.m = m;
  p.n = n;
  p.k = k;
  p.lda = p.ldb = p.ldc = ld;
  if (dtype == "tf32") p.compute = tilemm::Compute::F32_FAST_TF32;
  if (dtype == "fp16") p.a_type = p.b_type = p.c_type = tilemm::DType::F16;
  if (dtype == "bf16") p.a_type = p.b_type = p.c_type = tilemm::DType::BF16;
  return p;
}

// Whether a kernel refuses the TN layout the typed checks use (wgmma_rs's in-place entries
// read NN, TT and NT): asked of the entry itself, for the check's aligned m x n x k product
// (with fewer columns than rows, which the `.swapab` entries need).
bool refuses_tn(const tilemm::KernelEntry& e, const std::string& dtype, std::int64_t m, std::int64_t n,
                std::int64_t k) {
  return refuses(e, typed_problem(dtype, m, n, k, tilemm::Op::T, tilemm::Op::N, 8));
}

// Whether e refuses the fp32 NN product m x n x k with lda = m, ldb = k, ldc = m (operands
// 16-byte aligned), as ApiSemantics runs it.
bool refuses_fp32_nn(const tilemm::KernelEntry& e, std::int64_t m, std::int64_t n, std::int64_t k) {
  tilemm::GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.lda = m;
  p.ldb = k;
  p.ldc = m;
  return refuses(e, p);
}

class ApiSemantics : public ::testing::Test {
 protected:
  // m and k multiples of 4, so the kernels that need 16-byte aligned columns run too.
  static constexpr std::int64_t kM = 8, kN = 5, kK = 4;
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
      {"lda", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM - 1, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "lda = 7 must be >= max(1, m) = 8 (argument 8)"},
      {"ldb", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM, dB_, kK - 1, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "ldb = 3 must be >= max(1, k) = 4 (argument 10)"},
      {"ldc", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM - 1); }, TILEMM_STATUS_INVALID_VALUE, "ldc = 7 must be >= max(1, m) = 8 (argument 13)"},
      {"null handle", [&] { return tilemmSgemm(nullptr, N, N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_NOT_INITIALIZED, "handle"},
      {"alpha", [&] { return sgemm(N, N, kM, kN, kK, nullptr, dA_, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "alpha = NULL"},
      {"beta", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM, dB_, kK, nullptr, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "beta = NULL"},
      {"A", [&] { return sgemm(N, N, kM, kN, kK, &one_, nullptr, kM, dB_, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "A = NULL"},
      {"B", [&] { return sgemm(N, N, kM, kN, kK, &one_, dA_, kM, nullptr, kK, &zero_, dC_, kM); }, TILEMM_STATUS_INVALID_VALUE, "B = NULL"},
      {"C aliases A", [&] { return sgemm(N, N, 2, 2, 2, &one_, dC_, 2, dB_, 2, &zero_, dC_ + 2, 2); }, TILEMM_STATUS_INVALID_VALUE, "C overlaps A"},
      {"C aliases B", [&] { return sgemm(N, N, 2, 2, 2, &one_, dA_, 2, dC_ + 3, 2, &zero_, dC_, 2); }, TILEMM_STATUS_INVALID_VALUE, "C overlaps B"},
      {"batch", [&] { return tilemmGemmStridedBatchedEx(h_, N, N, kM, kN, kK, &one_, dA_, CUDA_R_32F, kM, 0, dB_, CUDA_R_32F, kK, 0, &zero_, dC_, CUDA_R_32F, kM, 0, -1, TILEMM_COMPUTE_32F); }, TILEMM_STATUS_INVALID_VALUE, "batchCount = -1"},
      {"overlapping batch outputs", [&] { return tilemmGemmStridedBatchedEx(h_, N, N, 2, 2, kK, &one_, dA_, CUDA_R_32F, 2, 0, dB_, CUDA_R_32F, kK, 0, &zero_, dC_, CUDA_R_32F, 2, 3, 2, TILEMM_COMPUTE_32F); }, TILEMM_STATUS_INVALID_VALUE, "strideC = 3"},
      {"types", [&] { return tilemmGemmEx(h_, N, N, kM, kN, kK, &one_, dA_, CUDA_R_16BF, kM, dB_, CUDA_R_16F, kK, &zero_, dC_, CUDA_R_32F, kM, TILEMM_COMPUTE_32F); }, TILEMM_STATUS_NOT_SUPPORTED, "Atype = CUDA_R_16BF, Btype = CUDA_R_16F"},
      {"output type", [&] { return tilemmGemmEx(h_, N, N, kM, kN, kK, &one_, dA_, CUDA_R_16F, kM, dB_, CUDA_R_16F, kK, &zero_, dC_, CUDA_R_16BF, kM, TILEMM_COMPUTE_32F); }, TILEMM_STATUS_NOT_SUPPORTED, "Ctype = CUDA_R_16BF"},
      {"compute type", [&] { return tilemmGemmEx(h_, N, N, kM, kN, kK, &one_, dA_, CUDA_R_16BF, kM, dB_, CUDA_R_16BF, kK, &zero_, dC_, CUDA_R_16BF, kM, TILEMM_COMPUTE_32F_FAST_TF32); }, TILEMM_STATUS_NOT_SUPPORTED, "TILEMM_COMPUTE_32F_FAST_TF32"},
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
    for (const std::string& dtype : e.dtype_list()) {
      if (dtype == "fp32") {
        reset_c(&nan);
        if (refuses_fp32_nn(e, kM, kN, kK)) {
          // tma_ffma's in-place entry reads NT only: B stored n x k (ldb 8, 16-byte columns).
          std::vector<float> b_nt(8 * kK, 1.0f);
          float* dB = nullptr;
          CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&dB), b_nt.size() * sizeof(float)));
          CUDA_OK(cudaMemcpy(dB, b_nt.data(), b_nt.size() * sizeof(float), cudaMemcpyHostToDevice));
          const tilemmStatus_t s = sgemm(TILEMM_OP_N, TILEMM_OP_T, kM, kN, kK, &one_, dA_, kM, dB, 8, &zero_, dC_, kM);
          EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
          cudaFree(dB);
          ASSERT_EQ(s, TILEMM_STATUS_SUCCESS) << e.name << ": " << tilemmGetErrorDetail(h_);
        } else {
          ASSERT_EQ(sgemm(TILEMM_OP_N, TILEMM_OP_N, kM, kN, kK, &one_, dA_, kM, dB_, kK, &zero_, dC_, kM), TILEMM_STATUS_SUCCESS) << e.name;
        }
        EXPECT_EQ(std::string(tilemmGetLastKernel(h_)), e.name);
        for (float x : read_c()) ASSERT_TRUE(std::isfinite(x)) << e.name;
        continue;
      }
      // Other types: the same kind of product with every leading dimension 8, which
      // every kernel's alignment rules accept, on buffers of the dtype's elements, as TN
      // (A stored k x m; tf32 wgmma reads only K-major), or as TT (B stored n x k) for the
      // kernels that refuse TN (wgmma_rs's in-place entries read NN, TT and NT).
      const TypedCall t(dtype);
      constexpr std::int64_t kLd = 8;
      const bool tt = refuses_tn(e, dtype, kM, kN, kK);
      std::vector<float> a(kLd * kM, 0.0f), b(kLd * kN, 0.0f), c(kLd * kN, std::numeric_limits<float>::quiet_NaN());
      std::vector<float> b_stored(kLd * kN, 0.0f);
      for (std::int64_t p = 0; p < kK; ++p)
        for (std::int64_t i = 0; i < kM; ++i) a[p + i * kLd] = float((i + 2 * p) % 5 - 2);
      for (std::int64_t j = 0; j < kN; ++j)
        for (std::int64_t p = 0; p < kK; ++p) {
          b[p + j * kLd] = float((3 * p + j) % 7 - 3);
          b_stored[tt ? j + p * kLd : p + j * kLd] = b[p + j * kLd];
        }
      const auto ea = t.encode(a), eb = t.encode(b_stored), ec = t.encode(c);
      void *dA = nullptr, *dB = nullptr, *dC = nullptr;
      CUDA_OK(cudaMalloc(&dA, ea.size()));
      CUDA_OK(cudaMalloc(&dB, eb.size()));
      CUDA_OK(cudaMalloc(&dC, ec.size()));
      CUDA_OK(cudaMemcpy(dA, ea.data(), ea.size(), cudaMemcpyHostToDevice));
      CUDA_OK(cudaMemcpy(dB, eb.data(), eb.size(), cudaMemcpyHostToDevice));
      CUDA_OK(cudaMemcpy(dC, ec.data(), ec.size(), cudaMemcpyHostToDevice));
      const tilemmStatus_t s = tilemmGemmEx(h_, TILEMM_OP_T, tt ? TILEMM_OP_T : TILEMM_OP_N, kM, kN, kK, &one_, dA,
                                            t.ab, kLd, dB, t.ab, kLd, &zero_, dC, t.ab, kLd, t.compute);
      std::vector<unsigned char> out(ec.size());
      EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_EQ(cudaMemcpy(out.data(), dC, out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
      cudaFree(dA);
      cudaFree(dB);
      cudaFree(dC);
      ASSERT_EQ(s, TILEMM_STATUS_SUCCESS) << e.name << " on " << dtype << ": " << tilemmGetErrorDetail(h_);
      EXPECT_EQ(std::string(tilemmGetLastKernel(h_)), e.name);
      // Small integers: exact in every type and every summation order.
      for (std::int64_t j = 0; j < kN; ++j)
        for (std::int64_t i = 0; i < kM; ++i) {
          float want = 0.0f;
          for (std::int64_t p = 0; p < kK; ++p) want += a[p + i * kLd] * b[p + j * kLd];
          EXPECT_EQ(t.decode(&out[static_cast<std::size_t>(i + j * kLd) * t.bytes]), want)
              << e.name << " on " << dtype << " at " << i << ", " << j;
        }
    }
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

// A row vector in NN (m = 1, lda = 1) is the same k contiguous elements as A in TN with
// lda = k: auto reads it K-major (vectors_read_k_major), so both calls run the same kernel
// and give the same bits. Before, the NN call went to an element-load entry (bf16 1 x 2048
// x 11008: 598 us on mma_sync's 128 x 128 tile, then 28.4 on skinny_mma's `.ldg2`, against
// 18.0 for TN).
TEST_F(ApiSemantics, AutoReadsARowVectorInNnAsTn) {
  constexpr std::int64_t kVecN = 2048, kVecK = 4096;
  std::vector<__nv_bfloat16> a(kVecK), b(static_cast<std::size_t>(kVecK * kVecN));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
  for (auto& x : a) x = __float2bfloat16(uni(rng));
  for (auto& x : b) x = __float2bfloat16(uni(rng));
  __nv_bfloat16 *dA = nullptr, *dB = nullptr;
  float* dC = nullptr;
  CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&dA), a.size() * sizeof(a[0])));
  CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&dB), b.size() * sizeof(b[0])));
  CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&dC), kVecN * sizeof(float)));
  CUDA_OK(cudaMemcpy(dA, a.data(), a.size() * sizeof(a[0]), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dB, b.data(), b.size() * sizeof(b[0]), cudaMemcpyHostToDevice));
  const auto run = [&](tilemmOperation_t ta, std::int64_t lda, std::vector<float>* out) {
    ASSERT_EQ(tilemmGemmEx(h_, ta, TILEMM_OP_N, 1, kVecN, kVecK, &one_, dA, CUDA_R_16BF, lda, dB, CUDA_R_16BF, kVecK,
                           &zero_, dC, CUDA_R_32F, 1, TILEMM_COMPUTE_32F),
              TILEMM_STATUS_SUCCESS)
        << tilemmGetErrorDetail(h_);
    out->resize(kVecN);
    CUDA_OK(cudaMemcpy(out->data(), dC, kVecN * sizeof(float), cudaMemcpyDeviceToHost));
  };
  std::vector<float> nn, tn;
  run(TILEMM_OP_N, 1, &nn);
  const std::string nn_kernel = tilemmGetLastKernel(h_);
  run(TILEMM_OP_T, kVecK, &tn);
  EXPECT_EQ(nn_kernel, std::string(tilemmGetLastKernel(h_)));
  EXPECT_EQ(std::memcmp(nn.data(), tn.data(), nn.size() * sizeof(float)), 0);
  // Against fp64, relative to ||a|| ||b_j||, within the design's 8 u sqrt(k) of fp32.
  double worst = 0.0, a_norm = 0.0;
  for (const auto& x : a) a_norm += double(__bfloat162float(x)) * double(__bfloat162float(x));
  for (std::int64_t j = 0; j < kVecN; ++j) {
    double ref = 0.0, b_norm = 0.0;
    for (std::int64_t p = 0; p < kVecK; ++p) {
      const double bv = double(__bfloat162float(b[p + j * kVecK]));
      ref += double(__bfloat162float(a[p])) * bv;
      b_norm += bv * bv;
    }
    worst = std::max(worst, std::abs(double(nn[j]) - ref) / std::sqrt(a_norm * b_norm));
  }
  EXPECT_LT(worst, 8.0 * std::sqrt(double(kVecK)) / double(1 << 24));
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
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

// Products queued on one stream without a synchronization between them, each reading
// what the one before wrote and the last overwriting what the middle one reads. The wgmma
// (bf16) kernels whose grid covers nearly every SM (every entry's at 2048^3) are launched
// as programmatic dependents, so each may start while the one before still runs: this
// fails if any of them touches global memory before its griddepcontrol.wait. The wgmma_rs
// (tf32) kernels launch plainly today (a programmatic launch was measured and not landed,
// docs/ladder.md, step 28) and are checked the same way, so that one launched early later
// is caught. Signed permutations keep every value a small integer, exact in bf16 and tf32.
TEST_F(ApiSemantics, ChainedProductsOnOneStreamSeeEachOthersResults) {
  constexpr std::int64_t kSize = 2048;
  const auto signed_permutation = [](int seed) {
    std::vector<float> p(kSize * kSize, 0.0f);
    for (std::int64_t j = 0; j < kSize; ++j)
      p[(j * 37 + seed) % kSize + j * kSize] = (j + seed) % 3 == 0 ? -1.0f : 1.0f;
    return p;
  };
  std::vector<float> b(kSize * kSize);
  for (std::int64_t i = 0; i < kSize * kSize; ++i) b[i] = float((i * 7 + i / kSize) % 17 - 8);
  const std::vector<float> p1 = signed_permutation(1), p2 = signed_permutation(2), p3 = signed_permutation(3);
  // Column-major products of the host copies, (x y)(i, j) = sum_p x(i, p) y(p, j), over
  // the nonzeros of both (one of the two is always a permutation).
  const auto times = [](const std::vector<float>& x, const std::vector<float>& y) {
    std::vector<std::vector<std::int64_t>> rows_of(kSize);  // the nonzero rows of x's column p
    for (std::int64_t p = 0; p < kSize; ++p)
      for (std::int64_t i = 0; i < kSize; ++i)
        if (x[i + p * kSize] != 0.0f) rows_of[p].push_back(i);
    std::vector<float> z(kSize * kSize, 0.0f);
    for (std::int64_t j = 0; j < kSize; ++j)
      for (std::int64_t p = 0; p < kSize; ++p)
        if (y[p + j * kSize] != 0.0f)
          for (std::int64_t i : rows_of[p]) z[i + j * kSize] += x[i + p * kSize] * y[p + j * kSize];
    return z;
  };
  const std::vector<float> want_c2 = times(times(p1, b), p2), want_c1 = times(p3, b);
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ASSERT_EQ(tilemmSetStream(h_, stream), TILEMM_STATUS_SUCCESS);
  for (const auto& [family, dtype] : {std::pair<std::string, std::string>{"wgmma", "bf16"}, {"wgmma_rs", "tf32"}}) {
    const TypedCall t(dtype);
    const std::size_t bytes = std::size_t(kSize * kSize) * t.bytes;
    std::vector<void*> d(6, nullptr);  // P1, B, P2, P3, C1, C2
    for (auto& ptr : d) CUDA_OK(cudaMalloc(&ptr, bytes));
    const std::vector<float>* host[4] = {&p1, &b, &p2, &p3};
    for (int i = 0; i < 4; ++i) CUDA_OK(cudaMemcpy(d[i], t.encode(*host[i]).data(), bytes, cudaMemcpyHostToDevice));
    const auto product = [&](void* x, void* y, void* z) {
      return tilemmGemmEx(h_, TILEMM_OP_N, TILEMM_OP_N, kSize, kSize, kSize, &one_, x, t.ab, kSize, y, t.ab, kSize,
                          &zero_, z, t.ab, kSize, t.compute);
    };
    int checked = 0;
    for (const auto& e : tilemm::registry().entries()) {
      if (e.family != family || e.dtype_list().front() != dtype) continue;
      // The `.swapab` entries take only products with fewer columns than rows; they launch the
      // same kernels on the same stream as the others, which this checks.
      if (refuses(e, typed_problem(dtype, kSize, kSize, kSize, tilemm::Op::N, tilemm::Op::N, kSize))) {
        EXPECT_NE(e.name.find(".swapab"), std::string::npos) << e.name << " refuses the square product";
        continue;
      }
      ASSERT_EQ(tilemmSetAlgorithm(h_, e.name.c_str()), TILEMM_STATUS_SUCCESS);
      CUDA_OK(cudaMemsetAsync(d[4], 0xFF, bytes, stream));  // NaN in both outputs
      CUDA_OK(cudaMemsetAsync(d[5], 0xFF, bytes, stream));
      ASSERT_EQ(product(d[0], d[1], d[4]), TILEMM_STATUS_SUCCESS) << e.name << ": " << tilemmGetErrorDetail(h_);
      ASSERT_EQ(product(d[4], d[2], d[5]), TILEMM_STATUS_SUCCESS) << e.name;  // reads C1
      ASSERT_EQ(product(d[3], d[1], d[4]), TILEMM_STATUS_SUCCESS) << e.name;  // overwrites C1
      CUDA_OK(cudaStreamSynchronize(stream));
      std::vector<unsigned char> c1(bytes), c2(bytes);
      CUDA_OK(cudaMemcpy(c1.data(), d[4], bytes, cudaMemcpyDeviceToHost));
      CUDA_OK(cudaMemcpy(c2.data(), d[5], bytes, cudaMemcpyDeviceToHost));
      int wrong = 0;
      for (std::int64_t i = 0; i < kSize * kSize && wrong < 3; ++i) {
        const float got2 = t.decode(&c2[std::size_t(i) * t.bytes]), got1 = t.decode(&c1[std::size_t(i) * t.bytes]);
        if (got2 != want_c2[i] || got1 != want_c1[i]) {
          ++wrong;
          ADD_FAILURE() << e.name << " element " << i << ": C2 " << got2 << " (want " << want_c2[i] << "), C1 "
                        << got1 << " (want " << want_c1[i] << ")";
        }
      }
      ++checked;
    }
    EXPECT_GT(checked, 0) << family << " " << dtype;
    for (void* ptr : d) cudaFree(ptr);
  }
  ASSERT_EQ(tilemmSetStream(h_, nullptr), TILEMM_STATUS_SUCCESS);
  CUDA_OK(cudaStreamDestroy(stream));
}

// Offsets past 2^31 elements: column 1 of C starts 2^31 + 3 floats after column 0.
TEST_F(ApiSemantics, SixtyFourBitIndexingForEveryKernel) {
  const char* small = std::getenv("TILEMM_TEST_SMALL");
  if (small != nullptr && std::strcmp(small, "0") != 0) GTEST_SKIP() << "8.6 GB case skipped in the small subset";
  const std::int64_t ldc = (std::int64_t(1) << 31) + 3;
  float* big = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&big), size_t(ldc + 3) * 4) != cudaSuccess) {
    cudaGetLastError();
    GTEST_SKIP() << "not enough device memory for the 8.6 GB case";
  }
  const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  CUDA_OK(cudaMemcpy(dA_, a, 16, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dB_, b, 16, cudaMemcpyHostToDevice));
  const float nan2[2] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()};
  for (const auto& e : tilemm::registry().entries()) {
    ASSERT_EQ(tilemmSetAlgorithm(h_, e.name.c_str()), TILEMM_STATUS_SUCCESS);
    for (const std::string& dtype : e.dtype_list()) {
      if (dtype == "fp32") {
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
        continue;
      }
      // A and B in the dtype with lda = ldb = 8 (aligned for every kernel), as TN (A
      // stored transposed), or TT (B stored transposed too) for the kernels that refuse TN;
      // C in the input type (fp32 for tf32), its column 1 ldc elements after column 0. Three
      // rows, the third zero, so that the `.swapab` entries (fewer columns than rows) run it.
      const TypedCall t(dtype);
      const bool tt = refuses_tn(e, dtype, 3, 2, 2);
      const auto ea = t.encode({1, 3, 0, 0, 0, 0, 0, 0, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
      const auto eb = tt ? t.encode({5, 7, 0, 0, 0, 0, 0, 0, 6, 8, 0, 0, 0, 0, 0, 0})
                         : t.encode({5, 6, 0, 0, 0, 0, 0, 0, 7, 8, 0, 0, 0, 0, 0, 0});
      const auto nan_pair = t.encode({nan2[0], nan2[1]});
      void *dA = nullptr, *dB = nullptr;
      CUDA_OK(cudaMalloc(&dA, ea.size()));
      CUDA_OK(cudaMalloc(&dB, eb.size()));
      CUDA_OK(cudaMemcpy(dA, ea.data(), ea.size(), cudaMemcpyHostToDevice));
      CUDA_OK(cudaMemcpy(dB, eb.data(), eb.size(), cudaMemcpyHostToDevice));
      auto* c_bytes = reinterpret_cast<unsigned char*>(big);
      const std::size_t col1 = static_cast<std::size_t>(ldc) * t.bytes;
      CUDA_OK(cudaMemcpy(c_bytes, nan_pair.data(), nan_pair.size(), cudaMemcpyHostToDevice));
      CUDA_OK(cudaMemcpy(c_bytes + col1, nan_pair.data(), nan_pair.size(), cudaMemcpyHostToDevice));
      const tilemmStatus_t s = tilemmGemmEx(h_, TILEMM_OP_T, tt ? TILEMM_OP_T : TILEMM_OP_N, 3, 2, 2, &one_, dA,
                                            t.ab, 8, dB, t.ab, 8, &zero_, big, t.ab, ldc, t.compute);
      std::vector<unsigned char> c0(nan_pair.size()), c1(nan_pair.size());
      EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_EQ(cudaMemcpy(c0.data(), c_bytes, c0.size(), cudaMemcpyDeviceToHost), cudaSuccess);
      EXPECT_EQ(cudaMemcpy(c1.data(), c_bytes + col1, c1.size(), cudaMemcpyDeviceToHost), cudaSuccess);
      cudaFree(dA);
      cudaFree(dB);
      ASSERT_EQ(s, TILEMM_STATUS_SUCCESS) << e.name << " on " << dtype << ": " << tilemmGetErrorDetail(h_);
      EXPECT_EQ(t.decode(&c0[0]), 23.0f) << e.name << " on " << dtype;
      EXPECT_EQ(t.decode(&c0[t.bytes]), 34.0f) << e.name << " on " << dtype;
      EXPECT_EQ(t.decode(&c1[0]), 31.0f) << e.name << " on " << dtype;
      EXPECT_EQ(t.decode(&c1[t.bytes]), 46.0f) << e.name << " on " << dtype;
    }
  }
  cudaFree(big);
}

}  // namespace
