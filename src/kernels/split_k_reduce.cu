// The second pass of split-K (see split_k_reduce.hpp): one thread per element of C in
// column-major order (grid-stride), adding the slices in order and applying alpha and
// beta in fp32. Consecutive threads read consecutive partial sums and write consecutive
// rows of a column, whatever the shape: a thread per row instead left 15 of 16 lanes idle
// in the 11008 single-column blocks of m = 16.
// Not a ladder step: the split-K launchers call it after their slices.
#include "kernels/split_k_reduce.hpp"

#include "kernels/gemm_common.cuh"
#include "ptx/grid_dependency.cuh"

namespace tilemm::kernels {
namespace {

constexpr int kReduceThreads = 256;

template <class T>
__global__ void __launch_bounds__(kReduceThreads)
    split_k_reduce(const float* partial, int slices, std::int64_t m, std::int64_t n, float alpha, float beta, T* C,
                   std::int64_t ldc) {
  // Launched as a programmatic dependent: the slices' kernel may still be running.
  ptx::griddepcontrol_wait();
  const std::int64_t elements = m * n;
  const std::int64_t stride = std::int64_t(gridDim.x) * kReduceThreads;
  for (std::int64_t e = std::int64_t(blockIdx.x) * kReduceThreads + threadIdx.x; e < elements; e += stride) {
    float sum = 0.0f;
    for (int s = 0; s < slices; ++s) sum += partial[std::int64_t(s) * elements + e];
    const std::int64_t j = e / m;
    store_alpha_beta(C + (e - j * m) + j * ldc, sum, alpha, beta);
  }
}

}  // namespace

cudaError_t launch_split_k_reduce(const GemmProblem& p, const float* partial, int slices, cudaStream_t stream) {
  // Enough blocks for every thread to have about one element up to a few waves of the
  // GPU; past that each thread strides over several.
  const std::int64_t blocks = std::clamp<std::int64_t>((p.m * p.n + kReduceThreads - 1) / kReduceThreads, 1,
                                                       std::int64_t(device_sm_count()) * 64);
  // A programmatic dependent launch on Hopper: its blocks may be scheduled while the slices'
  // kernel finishes (a wgmma split-K kernel lets them), and wait in the kernel for its
  // results. Measured on the H200 (bf16, per-run events): 64 x 4096 x 4096 through wgmma
  // split-K 18.5 us against 20.0-20.3, 16 x 4096 x 4096 through skinny_mma's split 15.6-16.0
  // against 17.1-17.4 (docs/results/h200_programmatic_launch.txt, run 6).
  cudaLaunchAttribute programmatic = programmatic_launch_attribute(true);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(kReduceThreads);
  config.stream = stream;
  config.attrs = &programmatic;
  config.numAttrs = device_has_programmatic_launch() ? 1 : 0;
  return dispatch_c_type(p.c_type, [&]<class T>() {
    return cudaLaunchKernelEx(&config, split_k_reduce<T>, partial, slices, p.m, p.n, static_cast<float>(p.alpha),
                              static_cast<float>(p.beta), static_cast<T*>(p.C), p.ldc);
  });
}

}  // namespace tilemm::kernels
