#include "library_call.hpp"

namespace tilemm::bench {
namespace {

tilemmOperation_t library_op(Op op) { return op == Op::N ? TILEMM_OP_N : TILEMM_OP_T; }

}  // namespace

tilemmStatus_t call_tilemm(tilemmHandle_t handle, const Shape& shape, const BenchDType& dtype,
                           const OperandLayout& layout, const OperandSet& set, float alpha, float beta) {
  const cudaDataType_t t = dtype.storage;
  if (shape.batch == 1) {
    return tilemmGemmEx(handle, library_op(shape.opa), library_op(shape.opb), shape.m, shape.n, shape.k,
                        &alpha, set.a, t, layout.lda, set.b, t, layout.ldb, &beta, set.c, t, layout.ldc,
                        dtype.library_compute);
  }
  return tilemmGemmStridedBatchedEx(handle, library_op(shape.opa), library_op(shape.opb), shape.m, shape.n,
                                    shape.k, &alpha, set.a, t, layout.lda, layout.stride_a, set.b, t,
                                    layout.ldb, layout.stride_b, &beta, set.c, t, layout.ldc,
                                    layout.stride_c, shape.batch, dtype.library_compute);
}

}  // namespace tilemm::bench
