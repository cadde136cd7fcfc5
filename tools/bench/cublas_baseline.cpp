#include "cublas_baseline.hpp"

#include <cublas_v2.h>

#include "cuda_check.hpp"

namespace tilemm::bench {
namespace {

cublasComputeType_t cublas_compute_for(const BenchDType& dtype) {
  return dtype.id == DTypeId::Tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

cublasOperation_t cublas_op(Op op) { return op == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T; }

std::string describe(cublasStatus_t status, const char* call) {
  return std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
         cublasGetStatusString(status) + ")";
}

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) throw BenchError(describe(status, call));
}

}  // namespace

CublasBaseline::CublasBaseline(cudaStream_t stream) {
  check_cublas(cublasCreate(&handle_), "cublasCreate");
  check_cublas(cublasSetStream(handle_, stream), "cublasSetStream");
}

CublasBaseline::~CublasBaseline() {
  // Nothing to report to from a destructor; the handle's resources go with the process.
  if (handle_ != nullptr) static_cast<void>(cublasDestroy(handle_));
}

std::string CublasBaseline::gemm(const Shape& shape, const BenchDType& dtype, const OperandLayout& layout,
                                 const OperandSet& set, float alpha, float beta) const {
  const cublasComputeType_t compute = cublas_compute_for(dtype);
  const cudaDataType_t t = dtype.storage;
  cublasStatus_t status;
  if (shape.batch == 1) {
    status = cublasGemmEx_64(handle_, cublas_op(shape.opa), cublas_op(shape.opb), shape.m, shape.n, shape.k,
                             &alpha, set.a, t, layout.lda, set.b, t, layout.ldb, &beta, set.c, t,
                             layout.ldc, compute, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS) return describe(status, "cublasGemmEx");
  } else {
    status = cublasGemmStridedBatchedEx_64(
        handle_, cublas_op(shape.opa), cublas_op(shape.opb), shape.m, shape.n, shape.k, &alpha, set.a, t,
        layout.lda, layout.stride_a, set.b, t, layout.ldb, layout.stride_b, &beta, set.c, t, layout.ldc,
        layout.stride_c, shape.batch, compute, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS) return describe(status, "cublasGemmStridedBatchedEx");
  }
  return {};
}

std::string CublasBaseline::version() const {
  int version = 0;
  check_cublas(cublasGetVersion(handle_, &version), "cublasGetVersion");
  // CUBLAS_VERSION encoding: major * 10000 + minor * 100 + patch.
  return "cuBLAS " + std::to_string(version / 10000) + "." + std::to_string((version / 100) % 100) + "." +
         std::to_string(version % 100);
}

}  // namespace tilemm::bench
