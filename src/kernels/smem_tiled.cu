// Family "smem_tiled": the classic shared-memory tiled kernel (CUDA programming guide,
// "Shared Memory" matrix multiplication), one thread per output, TILE x TILE threads.
//
// Idea: a block computes a TILE x TILE tile of C. For each step along k it copies a
// TILE x TILE tile of op(A) and one of op(B) into shared memory (one element per thread,
// zero outside the matrix so any size works), synchronizes, and every thread does TILE
// multiply-adds from shared memory before the next synchronization.
// Data moved per step: 2 * TILE^2 floats from global memory for 2 * TILE^3 FLOP, so the
// design's intensity is TILE / 4 FLOP/B (CGMA = TILE): 4 for TILE 16, 8 for TILE 32,
// against 0.25 for the naive kernel.
// Shared-memory reads in the inner loop: As(q, i) is read with i along the warp
// (consecutive words: conflict-free), Bs(j, q) with j fixed within a warp at TILE 32
// (one word broadcast). Each row is padded by one word so that the transposed stores
// of op = T land in 32 different banks.
// The entry smem_tiled.32.bank_conflict keeps the same tiles but indexes them
// transposed and unpadded: the inner loop's As reads stride TILE words, so all 32
// threads of a warp hit one bank (a 32-way conflict). It is the profiler specimen
// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared), never chosen by auto.
// Requirements: none (any shape, op, leading dimension, batch).
// Next step (register blocking): each thread computes several outputs so that one
// shared-memory value feeds several multiply-adds from registers.
#include "kernels/gemm_common.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// nvcc 13 cannot name a class-type template argument of a __global__ template whose
// type lives in a namespace (the host-side launch code it generates spells the type by
// its mangled name), so kernel configurations are global-namespace structs with a
// Tilemm prefix.
struct TilemmSmemTileConfig {
  int tile;
  bool transposed_smem_index;  // the bank-conflict specimen
  consteval bool valid() const { return tile >= 8 && tile <= 32 && (tile & (tile - 1)) == 0; }
  consteval int row_pitch() const { return transposed_smem_index ? tile : tile + 1; }
};


namespace tilemm::kernels {

template <TilemmSmemTileConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.tile * kCfg.tile) smem_tiled_gemm(GemmParams p) {
  static_assert(kCfg.valid());
  constexpr int T = kCfg.tile;
  // (BK, BM) k-major: as_(q, i) holds op(A)(row0 + i, k0 + q).
  __shared__ float As[T * kCfg.row_pitch()];
  // (BN, BK) n-major: bs_(j, q) holds op(B)(k0 + q, col0 + j).
  __shared__ float Bs[T * kCfg.row_pitch()];
  const auto as_ = [&](int q, int i) -> float& {
    return kCfg.transposed_smem_index ? As[i * kCfg.row_pitch() + q] : As[q * kCfg.row_pitch() + i];
  };
  const auto bs_ = [&](int j, int q) -> float& { return Bs[j * kCfg.row_pitch() + q]; };

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const std::int64_t row0 = std::int64_t(blockIdx.x) * T;
  const std::int64_t col_tiles = (p.n + T - 1) / T;
  for (std::int64_t b = blockIdx.z; b < p.batch; b += gridDim.z) {
    const float* A = p.A + b * p.stride_a;
    const float* B = p.B + b * p.stride_b;
    float* C = p.C + b * p.stride_c;
    for (std::int64_t ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const std::int64_t col0 = ct * T;
      float acc = 0.0f;
      for (std::int64_t k0 = 0; k0 < p.k; k0 += T) {
        // Threads along x read consecutive addresses of the stored matrix: rows of
        // op(A) for A as stored (N), k for A^T (T); likewise for B.
        {
          const int i = kTransA ? ty : tx;
          const int q = kTransA ? tx : ty;
          const std::int64_t gi = row0 + i, gq = k0 + q;
          as_(q, i) = (gi < p.m && gq < p.k) ? A[op_index<kTransA>(gi, gq, p.lda)] : 0.0f;
        }
        {
          const int q = kTransB ? ty : tx;
          const int j = kTransB ? tx : ty;
          const std::int64_t gq = k0 + q, gj = col0 + j;
          bs_(j, q) = (gq < p.k && gj < p.n) ? B[op_index<kTransB>(gq, gj, p.ldb)] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < T; ++q) acc += as_(q, tx) * bs_(ty, q);
        __syncthreads();
      }
      const std::int64_t gi = row0 + tx, gj = col0 + ty;
      if (gi < p.m && gj < p.n) store_alpha_beta(&C[gi + gj * p.ldc], acc, p.alpha, p.beta);
    }
  }
}

template <TilemmSmemTileConfig kCfg>
cudaError_t launch_smem_tiled(const GemmProblem& prob, cudaStream_t stream) {
  const GemmParams params = make_params(prob);
  constexpr int T = kCfg.tile;
  const std::int64_t blocks_y = std::min<std::int64_t>((prob.n + T - 1) / T, 65535);
  const dim3 grid(ceil_div_u(prob.m, T), static_cast<unsigned>(blocks_y), grid_z_for(prob.batch));
  const dim3 block(T, T);
  return dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    smem_tiled_gemm<kCfg, kTA, kTB><<<grid, block, 0, stream>>>(params);
    return cudaGetLastError();
  });
}

template <TilemmSmemTileConfig kCfg>
KernelEntry make_smem_tiled_entry(const char* name, int step, const char* summary, bool auto_eligible,
                       int priority) {
  KernelEntry e;
  e.name = name;
  e.family = "smem_tiled";
  e.ladder_step = step;
  e.summary = summary;
  e.dtypes = "fp32";
  e.min_compute_capability = 75;
  e.requirements = "none";
  e.arithmetic_intensity = kCfg.tile / 4.0;
  e.auto_eligible = auto_eligible;
  e.auto_priority = priority;
  e.can_implement = [](const GemmProblem& p, const DeviceInfo& dev) {
    std::string r = require_fp32(p);
    if (r.empty()) r = require_compute_capability(dev, 75);
    if (r.empty() && (p.m + kCfg.tile - 1) / kCfg.tile > 2147483647LL) r = "grid x dimension exceeded";
    return r;
  };
  e.launch = launch_smem_tiled<kCfg>;
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&smem_tiled_gemm<kCfg, false, false>),
                           kCfg.tile * kCfg.tile, 0};
  };
  return e;
}

}  // namespace tilemm::kernels

namespace tilemm {

void register_smem_tiled(Registry& r) {
  using namespace kernels;
  r.add(make_smem_tiled_entry<TilemmSmemTileConfig{16, false}>(
      "smem_tiled.16", 3, "16x16 shared-memory tiles, one output per thread", true, 10));
  r.add(make_smem_tiled_entry<TilemmSmemTileConfig{32, false}>(
      "smem_tiled.32", 4, "32x32 shared-memory tiles, one output per thread", true, 20));
  r.add(make_smem_tiled_entry<TilemmSmemTileConfig{32, true}>(
      "smem_tiled.32.bank_conflict", 5,
      "32x32 tiles indexed transposed: 32-way shared-memory bank conflicts (specimen)", false, 0));
}

}  // namespace tilemm
