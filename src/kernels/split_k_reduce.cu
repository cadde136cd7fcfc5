// The second pass of split-K (see split_k_reduce.hpp): one thread per row of C, looping
// over columns, adding the slices in order and applying alpha and beta in fp32.
// Not a ladder step: the split-K launchers call it after their slices.
#include "kernels/split_k_reduce.hpp"

#include "kernels/gemm_common.cuh"

namespace tilemm::kernels {
namespace {

constexpr int kReduceThreads = 256;

template <class T>
__global__ void __launch_bounds__(kReduceThreads)
    split_k_reduce(const float* partial, int slices, std::int64_t m, std::int64_t n, float alpha, float beta, T* C,
                   std::int64_t ldc) {
  const std::int64_t i = std::int64_t(blockIdx.x) * kReduceThreads + threadIdx.x;
  if (i >= m) return;
  for (std::int64_t j = blockIdx.y; j < n; j += gridDim.y) {
    float sum = 0.0f;
    for (int s = 0; s < slices; ++s) sum += partial[std::int64_t(s) * m * n + i + j * m];
    store_alpha_beta(C + i + j * ldc, sum, alpha, beta);
  }
}

}  // namespace

cudaError_t launch_split_k_reduce(const GemmProblem& p, const float* partial, int slices, cudaStream_t stream) {
  return dispatch_c_type(p.c_type, [&]<class T>() {
    const dim3 grid(ceil_div_u(p.m, kReduceThreads), static_cast<unsigned>(std::min<std::int64_t>(p.n, 65535)));
    split_k_reduce<T><<<grid, kReduceThreads, 0, stream>>>(partial, slices, p.m, p.n, static_cast<float>(p.alpha),
                                                            static_cast<float>(p.beta), static_cast<T*>(p.C), p.ldc);
    return cudaGetLastError();
  });
}

}  // namespace tilemm::kernels
