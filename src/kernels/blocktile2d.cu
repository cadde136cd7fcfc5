// Family "blocktile2d": 2-D register blocking, an outer product per thread.
//
// Idea: blocktile1d reuses a value of op(B) across 8 FMAs but still reads one value of
// op(A) per FMA. Here each thread owns a TM x TN = 8 x 8 tile of C in 64 registers. For
// each k it loads a column of 8 values of op(A) and a row of 8 values of op(B) from
// shared memory into registers and forms their outer product: 64 FMAs for 16 shared
// loads, 4 FMAs per load instead of ~1.
//
// Block tile BM x BN x BK = 128 x 128 x 8, 256 threads as 16 (m) x 16 (n); thread
// (tx, ty) = (tid % 16, tid / 16) owns rows 8*tx .. 8*tx+7 and columns 8*ty .. 8*ty+7.
// Data per block and k-step: (BM + BN) * BK = 2048 floats from global memory, 4 + 4
// scalar loads per thread (copy_tile_scalar), into (BK, BM) and (BK, BN) k-major shared
// tiles; per thread and k-step 8 x (8 + 8) shared reads for 8 x 64 FMAs.
// Intensity (CGMA): a k-step moves (BM + BN) * BK floats = 4 * (BM + BN) * BK bytes for
// 2 * BM * BN * BK FLOP, so
//   2 * BM * BN / (4 * (BM + BN)) = 2 * 128 * 128 / (4 * 256) = 32 FLOP/B (CGMA 128),
// four times smem_tiled.32 and twice blocktile1d's 64 x 64 tile. The same formula says
// why the tile grows: intensity is BM / 4 for square tiles, and the 8 x 8 thread tile is
// what lets 256 threads cover a 128 x 128 tile.
// Shared memory: a warp is 16 tx x 2 ty. A thread's 8 values of one k are consecutive
// and 32-byte aligned, so the compiler already merges the scalar reads into two LDS.128
// per operand (cuobjdump -sass shows 32 LDS.128 per k-step). The op(B) reads are a
// broadcast within each quarter-warp; the op(A) reads start 8 words apart, which puts
// lanes tx and tx + 4 on the same banks: a 2-way conflict (see conflict_free.cu). The
// scalar copies of a k-contiguous operand (A with op T, B with op N) store 4 x-values
// times 8 k-values per warp into rows 128 words apart: 4 banks, an 8-way conflict on
// each of those stores.
// Requirements: none (any shape, op, leading dimension, batch).
// Next step (vectorized): 128-bit global and shared loads, so a thread issues 1/4 of the
// load instructions for the same bytes.
#include <algorithm>

#include "kernels/fp32_tile_common.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmBlockTile2dConfig {
  int bm, bn, bk;  // block tile
  int tm, tn;      // thread tile
  constexpr int threads() const { return (bm / tm) * (bn / tn); }
  consteval bool valid() const {
    return bm % tm == 0 && bn % tn == 0 && threads() % 32 == 0 && threads() <= 1024 &&
           (bm * bk) % threads() == 0 && (bn * bk) % threads() == 0;
  }
};

namespace tilemm::kernels {

// Two blocks of 256 threads per SM cap the registers at 128 per thread: enough for the
// 64 accumulators and 16 operands, and two blocks let one compute while the other waits
// at its barrier for global loads.
template <TilemmBlockTile2dConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), 2) blocktile2d_gemm(GemmParams p) {
  static_assert(kCfg.valid());
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk, TM = kCfg.tm, TN = kCfg.tn;
  constexpr int kThreads = kCfg.threads();
  constexpr int kThreadsM = BM / TM;
  // (BK, BM) k-major: As[kk * BM + i] = op(A)(m0 + i, k0 + kk).
  __shared__ __align__(16) float As[BK * BM];
  // (BK, BN) k-major: Bs[kk * BN + j] = op(B)(k0 + kk, n0 + j).
  __shared__ __align__(16) float Bs[BK * BN];

  const int tid = threadIdx.x;
  const int ti = tid % kThreadsM * TM;
  const int tj = tid / kThreadsM * TN;
  const std::int64_t m0 = std::int64_t(blockIdx.x) * BM;
  const std::int64_t col_tiles = (p.n + BN - 1) / BN;

  for (std::int64_t b = blockIdx.z; b < p.batch; b += gridDim.z) {
    const OperandView ga = operand_a(p, b);
    const OperandView gb = operand_b(p, b);
    float* C = p.C + b * p.stride_c;
    for (std::int64_t ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const std::int64_t n0 = ct * BN;
      float acc[TM][TN] = {};
      for (std::int64_t k0 = 0; k0 < p.k; k0 += BK) {
        // Tile origins through hoist_barrier: the copies' per-element 64-bit rows and
        // columns are then formed here, not kept live from before the loop.
        const std::int64_t copy_m0 = hoist_barrier(m0), copy_n0 = hoist_barrier(n0);
        copy_tile_scalar<BM, BK, BM, kThreads, !kTransA>(As, ga, copy_m0, k0, tid);
        copy_tile_scalar<BN, BK, BN, kThreads, kTransB>(Bs, gb, copy_n0, k0, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
          float a[TM], bv[TN];
#pragma unroll
          for (int i = 0; i < TM; ++i) a[i] = As[kk * BM + ti + i];
#pragma unroll
          for (int j = 0; j < TN; ++j) bv[j] = Bs[kk * BN + tj + j];
#pragma unroll
          for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], bv[j], acc[i][j]);
        }
        // The next k-step's copies overwrite the tiles other warps may still be reading.
        __syncthreads();
      }
      const std::int64_t row_base = hoist_barrier(m0 + ti);
      const std::int64_t col_base = hoist_barrier(n0 + tj);
      store_tile<TM, TN>(
          p, C, acc, [&](int i) { return row_base + i; }, [&](int j) { return col_base + j; });
    }
  }
}

}  // namespace tilemm::kernels

namespace tilemm {

void register_blocktile2d(Registry& r) {
  using namespace kernels;
  constexpr TilemmBlockTile2dConfig kCfg{128, 128, 8, 8, 8};
  r.add(make_block_tile_entry<kCfg>(
      "blocktile2d.128x128x8.t8x8", "blocktile2d", 7,
      "2-D register blocking: an 8x8 outer product per thread from 16 shared loads", 40, false,
      [](auto ops) { return blocktile2d_gemm<kCfg, decltype(ops)::a, decltype(ops)::b>; }));
}

}  // namespace tilemm
