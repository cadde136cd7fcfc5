// Pieces every kernel family shares: addressing op(X) in column-major storage, batch
// offsets, the alpha/beta epilogue, and the launcher's dispatch on the four op
// combinations. All index arithmetic is 64-bit: row * ld passes 2^31 on real problems.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "core/problem.hpp"

namespace tilemm::kernels {

// Element (r, c) of op(X), X column-major with leading dimension ld.
template <bool kTrans>
__device__ __forceinline__ std::int64_t op_index(std::int64_t r, std::int64_t c, std::int64_t ld) {
  return kTrans ? c + r * ld : r + c * ld;
}

// The arguments every kernel receives, by value (it lives in the parameter constant bank).
struct GemmParams {
  std::int64_t m, n, k;
  float alpha, beta;
  const float* A;
  std::int64_t lda, stride_a;
  const float* B;
  std::int64_t ldb, stride_b;
  float* C;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
};

inline GemmParams make_params(const GemmProblem& p) {
  return GemmParams{p.m,
                    p.n,
                    p.k,
                    static_cast<float>(p.alpha),
                    static_cast<float>(p.beta),
                    static_cast<const float*>(p.A),
                    p.lda,
                    p.stride_a,
                    static_cast<const float*>(p.B),
                    p.ldb,
                    p.stride_b,
                    static_cast<float*>(p.C),
                    p.ldc,
                    p.stride_c,
                    p.batch};
}

// beta == 0 must not read C: NaN or garbage there may not leak into the result.
__device__ __forceinline__ void store_alpha_beta(float* c, float acc, float alpha, float beta) {
  *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

// Grid z walks the batch; a batch larger than the grid's z limit is strided over.
constexpr std::int64_t kMaxGridZ = 65535;
inline unsigned grid_z_for(std::int64_t batch) {
  return static_cast<unsigned>(batch < kMaxGridZ ? batch : kMaxGridZ);
}

inline unsigned ceil_div_u(std::int64_t a, std::int64_t b) {
  return static_cast<unsigned>((a + b - 1) / b);
}

// Calls f.template operator()<TA, TB>() for the problem's ops, so each combination gets
// its own instantiation with the addressing folded in at compile time.
template <class F>
cudaError_t dispatch_ops(const GemmProblem& p, F&& f) {
  const bool ta = p.opa == Op::T;
  const bool tb = p.opb == Op::T;
  if (!ta && !tb) return f.template operator()<false, false>();
  if (!ta && tb) return f.template operator()<false, true>();
  if (ta && !tb) return f.template operator()<true, false>();
  return f.template operator()<true, true>();
}

// Multiprocessors of the current device (1 when it cannot be read): persistent grids and
// split-K size themselves by it.
inline int device_sm_count() {
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    cudaGetLastError();
    return 1;
  }
  return sms;
}

// Grid dimensions are 32-bit in x and 16-bit in y/z; a problem past them is refused.
inline bool grid_fits(std::int64_t blocks_x, std::int64_t blocks_y) {
  return blocks_x <= 2147483647LL && blocks_y <= 65535;
}

}  // namespace tilemm::kernels
