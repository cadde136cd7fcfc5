// cuBLAS as the yardstick: the same product, types and layout as the tilemm rows
// (fp32 against CUBLAS_COMPUTE_32F, which uses no TF32; tf32 against
// CUBLAS_COMPUTE_32F_FAST_TF32), through cublasGemmEx or cublasGemmStridedBatchedEx
// exactly as the tilemm rows go through tilemmGemmEx or tilemmGemmStridedBatchedEx.
#pragma once

#include <string>

#include <cuda_runtime_api.h>

#include "dtype.hpp"
#include "operands.hpp"
#include "options.hpp"

typedef struct cublasContext* cublasHandle_t;

namespace tilemm::bench {

class CublasBaseline {
 public:
  explicit CublasBaseline(cudaStream_t stream);  // throws BenchError without cuBLAS
  ~CublasBaseline();
  CublasBaseline(const CublasBaseline&) = delete;
  CublasBaseline& operator=(const CublasBaseline&) = delete;

  // Enqueues the product; "" on success, else cuBLAS's status in words.
  std::string gemm(const Shape& shape, const BenchDType& dtype, const OperandLayout& layout,
                   const OperandSet& set, float alpha, float beta) const;

  // "cuBLAS 13.0.0"
  std::string version() const;

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace tilemm::bench
