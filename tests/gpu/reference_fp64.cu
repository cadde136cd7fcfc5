// A plain fp64 GEMM on the GPU, one thread per output: slow but simple enough to trust,
// and fast enough to check 4097^3 products that the CPU reference would take minutes on.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

#include "gemm_check.hpp"

namespace tilemm::test {
namespace {

__global__ void fp64_reference_kernel(bool ta, bool tb, std::int64_t m, std::int64_t n,
                                      std::int64_t k, double alpha, const float* A,
                                      std::int64_t lda, const float* B, std::int64_t ldb,
                                      double beta, double* C, std::int64_t ldc) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= m) return;
  for (std::int64_t j = blockIdx.y; j < n; j += gridDim.y) {
    double s = 0.0;
    for (std::int64_t p = 0; p < k; ++p) {
      const double a = ta ? A[p + i * lda] : A[i + p * lda];
      const double b = tb ? B[j + p * ldb] : B[p + j * ldb];
      s += a * b;
    }
    double& c = C[i + j * ldc];
    c = beta == 0.0 ? alpha * s : alpha * s + beta * c;
  }
}

}  // namespace

void fp64_reference_gemm(Op opa, Op opb, std::int64_t m, std::int64_t n, std::int64_t k,
                         double alpha, const float* A, std::int64_t lda, const float* B,
                         std::int64_t ldb, double beta, double* C, std::int64_t ldc) {
  const dim3 block(128);
  const dim3 grid(static_cast<unsigned>((m + 127) / 128),
                  static_cast<unsigned>(std::min<std::int64_t>(n, 65535)));
  fp64_reference_kernel<<<grid, block>>>(opa == Op::T, opb == Op::T, m, n, k, alpha, A, lda, B,
                                         ldb, beta, C, ldc);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) throw std::runtime_error(std::string("fp64 reference launch: ") + cudaGetErrorString(err));
}

}  // namespace tilemm::test
