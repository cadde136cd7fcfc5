// C = beta * C, the whole answer when alpha = 0 or k = 0 (A and B are then never read).
// beta = 0 writes zeros without reading C, so NaN or garbage in C cannot survive.
// Not a ladder step: the API calls it directly for that quick path.
#include "kernels/beta_scale.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "kernels/gemm_common.cuh"

namespace tilemm::kernels {
namespace {

constexpr int kRowsPerBlock = 256;

template <class T>
__global__ void __launch_bounds__(kRowsPerBlock)
    beta_scale_kernel(T* C, std::int64_t m, std::int64_t n, std::int64_t ldc,
                      std::int64_t stride_c, std::int64_t batch, float beta) {
  const std::int64_t i = std::int64_t(blockIdx.x) * kRowsPerBlock + threadIdx.x;
  if (i >= m) return;
  for (std::int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
    for (std::int64_t j = blockIdx.y; j < n; j += gridDim.y) {
      T* c = C + b * stride_c + j * ldc + i;
      *c = from_float<T>(beta == 0.0f ? 0.0f : beta * to_float(*c));
    }
  }
}

}  // namespace

cudaError_t launch_beta_scale(const GemmProblem& p, cudaStream_t stream) {
  return dispatch_c_type(p.c_type, [&]<class T>() {
    const dim3 grid(ceil_div_u(p.m, kRowsPerBlock),
                    static_cast<unsigned>(std::min<std::int64_t>(p.n, 65535)), grid_z_for(p.batch));
    beta_scale_kernel<T><<<grid, kRowsPerBlock, 0, stream>>>(static_cast<T*>(p.C), p.m, p.n, p.ldc,
                                                              p.stride_c, p.batch,
                                                              static_cast<float>(p.beta));
    return cudaGetLastError();
  });
}

}  // namespace tilemm::kernels
