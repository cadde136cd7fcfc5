// Family "blocktile1d": 1-D register blocking, the first step past one output per thread.
//
// Idea: in smem_tiled every multiply-add reads both of its operands from shared memory,
// so the shared-memory pipe, not the FMA units, sets the pace. Here each thread computes
// a column of TM = 8 outputs of C: rows ti .. ti+7 of the block tile, one column tj. For
// each k it reads one value of op(B), Bs[k][tj], into a register and uses it for all 8
// multiply-adds, so op(B) costs 1/8 shared load per FMA instead of 1. The 8 values of
// op(A) are the same for every thread of a warp (a broadcast) and contiguous, so they
// come as wide broadcast reads.
//
// Block tile BM x BN x BK = 64 x 64 x 8 with 512 threads = (BM / TM) x BN. Threads run
// along n inside a warp (tj = tid % BN): the warp's op(B) reads are 32 consecutive words
// (one wavefront, no bank conflict) and its op(A) reads are one address.
// Data per block and k-step: BM*BK + BN*BK = 1024 floats from global memory (one element
// of each operand per thread, copy_tile_scalar), into (BK, BM) and (BK, BN) k-major
// shared tiles; per thread 8 x 8 = 64 FMAs from 8 + 64 shared reads (of which 64 are
// broadcasts).
// Shared-memory cost per k and warp: 1 LDS.32 of op(B) (one wavefront) and the 8 op(A)
// values as two broadcast LDS.128 (the compiler merges the consecutive reads): 3 loads
// for 8 FFMAs. The scalar copy of a k-contiguous operand (A with op T, B with op N)
// stores 4 x-values times 8 k-values per warp into rows 64 words apart, 4 banks: an
// 8-way conflict on that one store per k-step (removed by padding in conflict_free).
// Intensity (CGMA): per k-step (BM + BN) * BK floats feed 2 * BM * BN * BK FLOP, so
// 2 * BM * BN / (4 * (BM + BN)) = 2 * 64 * 64 / (4 * 128) = 16 FLOP/B (CGMA 64), twice
// smem_tiled.32's 8 FLOP/B.
// Requirements: none (any shape, op, leading dimension, batch).
// Next step (blocktile2d): reuse op(A) values too, with a TM x TN outer product per
// thread, so both operands' shared loads are amortized over several FMAs.
#include <algorithm>

#include "kernels/fp32_tile_common.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmBlockTile1dConfig {
  int bm, bn, bk;  // block tile
  int tm;          // outputs per thread, consecutive rows of one column
  constexpr int threads() const { return bm / tm * bn; }
  consteval bool valid() const {
    return bm % tm == 0 && bn % 32 == 0 && threads() <= 1024 && (bm * bk) % threads() == 0 &&
           (bn * bk) % threads() == 0;
  }
};

namespace tilemm::kernels {

template <TilemmBlockTile1dConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads()) blocktile1d_gemm(GemmParams p) {
  static_assert(kCfg.valid());
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk, TM = kCfg.tm;
  constexpr int kThreads = kCfg.threads();
  // (BK, BM) k-major: As[kk * BM + i] = op(A)(m0 + i, k0 + kk).
  __shared__ __align__(16) float As[BK * BM];
  // (BK, BN) k-major: Bs[kk * BN + j] = op(B)(k0 + kk, n0 + j).
  __shared__ __align__(16) float Bs[BK * BN];

  const int tid = threadIdx.x;
  const int tj = tid % BN;         // along the warp: consecutive op(B) words
  const int ti = tid / BN * TM;    // uniform within a warp: op(A) reads broadcast
  const std::int64_t m0 = std::int64_t(blockIdx.x) * BM;
  const std::int64_t col_tiles = (p.n + BN - 1) / BN;

  for (std::int64_t b = blockIdx.z; b < p.batch; b += gridDim.z) {
    const OperandView ga = operand_a(p, b);
    const OperandView gb = operand_b(p, b);
    float* C = p.C + b * p.stride_c;
    for (std::int64_t ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const std::int64_t n0 = ct * BN;
      float acc[TM][1] = {};
      for (std::int64_t k0 = 0; k0 < p.k; k0 += BK) {
        copy_tile_scalar<BM, BK, BM, kThreads, !kTransA>(As, ga, m0, k0, tid);
        copy_tile_scalar<BN, BK, BN, kThreads, kTransB>(Bs, gb, n0, k0, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
          const float bv = Bs[kk * BN + tj];
#pragma unroll
          for (int i = 0; i < TM; ++i) acc[i][0] = fmaf(As[kk * BM + ti + i], bv, acc[i][0]);
        }
        // The next k-step's copies overwrite the tiles other warps may still be reading.
        __syncthreads();
      }
      store_tile<TM, 1>(
          p, C, acc, [&](int i) { return m0 + ti + i; }, [&](int) { return n0 + tj; });
    }
  }
}

}  // namespace tilemm::kernels

namespace tilemm {

void register_blocktile1d(Registry& r) {
  using namespace kernels;
  constexpr TilemmBlockTile1dConfig kCfg{64, 64, 8, 8};
  r.add(make_block_tile_entry<kCfg>(
      "blocktile1d.64x64x8.t8", "blocktile1d", 6,
      "1-D register blocking: 8 outputs per thread share one shared-memory value of B", 30, false,
      [](auto ops) { return blocktile1d_gemm<kCfg, decltype(ops)::a, decltype(ops)::b>; }));
}

}  // namespace tilemm
