// Family "warptile": block tile -> warp tile -> thread tile.
//
// Idea: the steps below assign thread tiles to threads in one flat 16 x 16 grid, so a
// warp (32 consecutive threads) covers a 128 x 16 strip of the block tile: 16 lanes along
// m times 2 along n. Per k the warp then reads 128 floats of op(A) and 16 of op(B) from
// shared memory, 144 distinct floats for the warp's 32 x 64 = 2048 FMAs. Here the block
// tile is first split among warps and each warp's tile among its lanes:
//   block tile 128 x 128 x 8, 256 threads = 8 warps as 2 (m) x 4 (n),
//   warp tile   64 x 32: lanes as 8 (m) x 4 (n), lane_m = lane % 8, lane_n = lane / 8,
//   thread tile  8 x 8 as 2 x 2 interleaved 4 x 4 sub-tiles: rows lane_m*4 + {0..3} and
//                32 + lane_m*4 + {0..3}, columns lane_n*4 + {0..3} and 16 + lane_n*4 +
//                {0..3} of the warp tile.
// Why it helps:
//   - Footprint: a warp reads 64 + 32 = 96 distinct floats per k instead of 128 + 16,
//     2048 / 96 = 21 FMAs per distinct float instead of 14. A square-ish warp tile is
//     to shared memory what the square thread tile is to registers: the smaller its
//     perimeter for the same area, the fewer bytes cross from shared memory to the warp.
//   - Broadcast: in every LDS.128 the 8 lanes of a quarter-warp read either 8
//     consecutive 16-byte chunks (op(A): all 32 banks once) or one chunk (op(B): one
//     broadcast), and the 4 quarter-warps of an op(A) read ask for the same 128 bytes,
//     so a warp's reads fetch 3 wavefronts' worth of distinct data per k, not 4.5.
//   - Register reuse: each thread still does 64 FMAs from 8 + 8 registers per k, and
//     across the warp each op(A) value feeds 4 lanes and each op(B) value 8 lanes, the
//     balance that the 2 x 16 arrangement (2 and 16) lacks. The warp is also the unit
//     that tensor-core instructions (mma.sync, wgmma) work on, so this is the structure
//     the later kernels keep.
// Shared memory and global loads are those of conflict_free.cu: rows padded to 128 + 4
// floats (transposing stores conflict-free, rows 16-byte aligned), one float4 of each
// operand per thread per k-step via load_quad.
// Data per block and k-step: (BM + BN) * BK = 2048 floats; per thread 2 float4 loads,
// and per k 4 LDS.128 for 64 FMAs.
// Intensity (CGMA): 2 * BM * BN / (4 * (BM + BN)) = 32 FLOP/B (CGMA 128).
// Requirements: A and B 16-byte aligned, lda and ldb (and batch strides) multiples of 4;
// auto falls back to blocktile2d otherwise.
// Next step (cp_async): every k-step still loads, waits at a barrier, then computes, so
// the FFMAs stop while global loads are in flight; a multi-stage cp.async pipeline
// overlaps them.
#include <algorithm>

#include "kernels/fp32_tile_common.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmWarpTileConfig {
  int bm, bn, bk;  // block tile
  int wm, wn;      // warp tile
  int tm, tn;      // thread tile: (tm / 4) x (tn / 4) interleaved 4 x 4 sub-tiles
  int pad;         // floats added to each shared-memory row
  constexpr int warps_m() const { return bm / wm; }
  constexpr int warps_n() const { return bn / wn; }
  constexpr int lanes_m() const { return wm / tm; }
  constexpr int lanes_n() const { return wn / tn; }
  constexpr int threads() const { return 32 * warps_m() * warps_n(); }
  constexpr int pitch_a() const { return bm + pad; }
  constexpr int pitch_b() const { return bn + pad; }
  consteval bool valid() const {
    // lanes_m a multiple of 8: a quarter-warp's 8 lanes lie along m, so its op(A) reads
    // are consecutive chunks and its op(B) reads one chunk.
    return bm % wm == 0 && bn % wn == 0 && wm % tm == 0 && wn % tn == 0 && tm % 4 == 0 &&
           tn % 4 == 0 && bk % 4 == 0 && pad % 4 == 0 && lanes_m() * lanes_n() == 32 &&
           lanes_m() % 8 == 0 && threads() <= 1024 && (bm * bk / 4) % threads() == 0 &&
           (bn * bk / 4) % threads() == 0;
  }
};

namespace tilemm::kernels {

// Two blocks of 256 threads per SM cap the registers at 128 per thread (64 accumulators,
// 16 operands, addresses) and let one block compute while the other waits at a barrier.
template <TilemmWarpTileConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), 2) warptile_gemm(GemmParams p) {
  static_assert(kCfg.valid());
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk, TM = kCfg.tm, TN = kCfg.tn;
  constexpr int PA = kCfg.pitch_a(), PB = kCfg.pitch_b();
  constexpr int kThreads = kCfg.threads();
  constexpr int kLanesM = kCfg.lanes_m(), kLanesN = kCfg.lanes_n();
  // (BK, BM + pad) k-major: As[kk * PA + i] = op(A)(m0 + i, k0 + kk); rows 16-byte aligned.
  __shared__ __align__(16) float As[BK * PA];
  // (BK, BN + pad) k-major: Bs[kk * PB + j] = op(B)(k0 + kk, n0 + j).
  __shared__ __align__(16) float Bs[BK * PB];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_m0 = warp % kCfg.warps_m() * kCfg.wm;
  const int warp_n0 = warp / kCfg.warps_m() * kCfg.wn;
  const int lane_m = lane % kLanesM;
  const int lane_n = lane / kLanesM;
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
        copy_tile_quad<BM, BK, PA, kThreads, !kTransA>(As, ga, copy_m0, k0, tid);
        copy_tile_quad<BN, BK, PB, kThreads, kTransB>(Bs, gb, copy_n0, k0, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
          float a[TM], bv[TN];
          read_interleaved_fragment<kLanesM, TM>(&As[kk * PA + warp_m0], lane_m, a);
          read_interleaved_fragment<kLanesN, TN>(&Bs[kk * PB + warp_n0], lane_n, bv);
#pragma unroll
          for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], bv[j], acc[i][j]);
        }
        // The next k-step's copies overwrite the tiles other warps may still be reading.
        __syncthreads();
      }
      // One 64-bit base per axis plus a compile-time offset per element (a sign-extended
      // int offset would make 8 separate 64-bit coordinates).
      const std::int64_t row_base = hoist_barrier(m0 + warp_m0 + 4 * lane_m);
      const std::int64_t col_base = hoist_barrier(n0 + warp_n0 + 4 * lane_n);
      store_tile<TM, TN>(
          p, C, acc, [&](int i) { return row_base + interleaved_offset<kLanesM>(0, i); },
          [&](int j) { return col_base + interleaved_offset<kLanesN>(0, j); });
    }
  }
}

}  // namespace tilemm::kernels

namespace tilemm {

void register_warptile(Registry& r) {
  using namespace kernels;
  constexpr TilemmWarpTileConfig kCfg{128, 128, 8, 64, 32, 8, 8, 4};
  r.add(make_block_tile_entry<kCfg>(
      "warptile.128x128x8.w64x32.t8x8", "warptile", 10,
      "block, warp and 8x8 thread tiles: 64x32 warp tiles with broadcast shared reads", 70, true,
      [](auto ops) { return warptile_gemm<kCfg, decltype(ops)::a, decltype(ops)::b>; }));
}

}  // namespace tilemm
