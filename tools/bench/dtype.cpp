#include "dtype.hpp"

#include <array>

namespace tilemm::bench {
namespace {

// Unit roundoffs: fp32 has a 24-bit significand; TF32 keeps fp32's range with the
// 11-bit significand of fp16; bf16 has an 8-bit significand.
constexpr double kFp32Roundoff = 1.0 / (1 << 24);
constexpr double kElevenBitRoundoff = 1.0 / (1 << 11);
constexpr double kBf16Roundoff = 1.0 / (1 << 8);

constexpr std::array kDTypes{
    BenchDType{DTypeId::Fp32, "fp32", "fp32 A, B, C; fp32 FFMA arithmetic (cuBLAS: CUBLAS_COMPUTE_32F)",
               CUDA_R_32F, 4, TILEMM_COMPUTE_32F, kFp32Roundoff},
    BenchDType{DTypeId::Tf32, "tf32",
               "fp32 A, B, C through TF32 tensor cores (cuBLAS: CUBLAS_COMPUTE_32F_FAST_TF32)",
               CUDA_R_32F, 4, TILEMM_COMPUTE_32F_FAST_TF32, kElevenBitRoundoff},
    BenchDType{DTypeId::Fp16, "fp16", "fp16 A, B, C; fp32 accumulation (cuBLAS: CUBLAS_COMPUTE_32F)",
               CUDA_R_16F, 2, TILEMM_COMPUTE_32F, kElevenBitRoundoff},
    BenchDType{DTypeId::Bf16, "bf16", "bf16 A, B, C; fp32 accumulation (cuBLAS: CUBLAS_COMPUTE_32F)",
               CUDA_R_16BF, 2, TILEMM_COMPUTE_32F, kBf16Roundoff},
};

}  // namespace

std::span<const BenchDType> all_dtypes() { return kDTypes; }

const BenchDType* find_dtype(std::string_view name) {
  for (const auto& d : kDTypes) {
    if (name == d.name) return &d;
  }
  return nullptr;
}

std::string dtype_names() {
  std::string names;
  for (const auto& d : kDTypes) names += (names.empty() ? "" : ", ") + std::string(d.name);
  return names;
}

}  // namespace tilemm::bench
