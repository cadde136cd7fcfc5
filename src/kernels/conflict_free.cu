// Family "conflict_free": the vectorized kernel with its shared-memory bank conflicts
// removed, by padding the tile rows and interleaving each thread's tile.
//
// Shared memory has 32 banks of 4 bytes; word w lives in bank w mod 32. A request is
// served in one wavefront unless two lanes ask for different words of the same bank;
// a 128-bit access (LDS.128 / STS.128) is served a quarter-warp at a time, 8 lanes x
// 16 bytes = the 128 bytes that the 32 banks deliver per wavefront.
//
// The conflicts of vectorized.cu (row pitch 128 floats, thread tx = tid % 16 owning rows
// 8*tx .. 8*tx+7, ty = tid / 16 owning columns 8*ty .. 8*ty+7):
//   1. LDS.128 of op(A): lanes 8q .. 8q+7 are tx = 0..7 (or 8..15) of one ty. Their first
//      read starts at word 8*tx, bank 0, 8, 16, 24, 0, 8, 16, 24: lanes tx and tx + 4 ask
//      for different words (32 apart) of the same 4 banks while banks 4-7, 12-15, 20-23,
//      28-31 idle. 2-way conflict: 2 wavefronts per quarter-warp, 8 instead of 4 per
//      warp-instruction, for both of the two op(A) reads per k. (op(B) reads are
//      conflict-free: ty is the same for the 8 lanes of a quarter-warp, a broadcast.)
//   2. Transposing STS.32 of a k-contiguous operand (A with op T, B with op N): lane l of
//      warp w holds the quad of x = 16*w + l/2, k = 4*(l % 2) .. +3 and stores word
//      (k + c) * 128 + x. 128 is a multiple of 32, so the bank is x mod 32: 16 banks,
//      each asked for by the k = 0 and the k = 4 lane. 2-way conflict on each of the 4
//      stores.
// Nsight Compute counts these as l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
// (1) and ..._op_st.sum (2); docs/ladder.md records both metrics for vectorized and for
// this kernel.
//
// The fixes:
//   (a) Row pitch BM + 4 (BN + 4) floats: the transposed store of row k + c lands in bank
//       (4*(k + c) + x) mod 32. The k = 0 lanes cover 16 consecutive banks from
//       4c + x0, the k = 4 lanes the other 16: one wavefront. 4 floats (16 bytes) of
//       padding, rather than 1, keep every row 16-byte aligned for STS.128 / LDS.128.
//   (b) Interleaved thread tile: thread tx owns rows 4*tx + {0..3} and 64 + 4*tx + {0..3}
//       (two 4-row groups BM / 2 apart), likewise ty for columns. The 8 lanes of a
//       quarter-warp (tx = 8q .. 8q+7) then read words 64*h + 4*tx .. +3 of the row:
//       32 consecutive words, every bank exactly once, one wavefront. The padding moves
//       each row's start by 4*k banks but not the pattern within a row.
// Everything else is vectorized.cu: block tile 128 x 128 x 8, 256 threads, an 8 x 8
// register tile, one float4 of each operand per thread per k-step.
// Intensity (CGMA): unchanged, 2 * BM * BN / (4 * (BM + BN)) = 32 FLOP/B (CGMA 128).
// Requirements: as vectorized: A and B 16-byte aligned, lda and ldb (and batch strides)
// multiples of 4; auto falls back to blocktile2d otherwise.
// Next step (warptile): arrange the 32 lanes of a warp as an 8 x 4 grid over a 64 x 32
// warp tile, so a warp reads 96 distinct floats per k instead of 144.
#include <algorithm>

#include "kernels/fp32_tile_common.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmConflictFreeConfig {
  int bm, bn, bk;  // block tile
  int tm, tn;      // thread tile: tm / 4 (tn / 4) groups of 4 rows (columns)
  int pad;         // floats added to each shared-memory row
  constexpr int threads_m() const { return bm / tm; }
  constexpr int threads() const { return threads_m() * (bn / tn); }
  constexpr int pitch_a() const { return bm + pad; }
  constexpr int pitch_b() const { return bn + pad; }
  consteval bool valid() const {
    // A quarter-warp's 8 lanes must be 8 consecutive threads along m for (b) to hold.
    return tm % 4 == 0 && tn % 4 == 0 && bk % 4 == 0 && pad % 4 == 0 && bm % tm == 0 &&
           bn % tn == 0 && threads_m() % 8 == 0 && threads() % 32 == 0 && threads() <= 1024 &&
           (bm * bk / 4) % threads() == 0 && (bn * bk / 4) % threads() == 0;
  }
};

namespace tilemm::kernels {

// Two blocks of 256 threads per SM cap the registers at 128 per thread (64 accumulators,
// 16 operands, addresses) and let one block compute while the other waits at a barrier.
template <TilemmConflictFreeConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), 2) conflict_free_gemm(GemmParams p) {
  static_assert(kCfg.valid());
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk, TM = kCfg.tm, TN = kCfg.tn;
  constexpr int PA = kCfg.pitch_a(), PB = kCfg.pitch_b();
  constexpr int kThreads = kCfg.threads();
  constexpr int kThreadsM = kCfg.threads_m();
  constexpr int kThreadsN = BN / TN;
  // (BK, BM + pad) k-major: As[kk * PA + i] = op(A)(m0 + i, k0 + kk); rows 16-byte aligned.
  __shared__ __align__(16) float As[BK * PA];
  // (BK, BN + pad) k-major: Bs[kk * PB + j] = op(B)(k0 + kk, n0 + j).
  __shared__ __align__(16) float Bs[BK * PB];

  const int tid = threadIdx.x;
  const int tx = tid % kThreadsM;
  const int ty = tid / kThreadsM;
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
          read_interleaved_fragment<kThreadsM, TM>(&As[kk * PA], tx, a);
          read_interleaved_fragment<kThreadsN, TN>(&Bs[kk * PB], ty, bv);
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
      const std::int64_t row_base = hoist_barrier(m0 + 4 * tx);
      const std::int64_t col_base = hoist_barrier(n0 + 4 * ty);
      store_tile<TM, TN>(
          p, C, acc, [&](int i) { return row_base + interleaved_offset<kThreadsM>(0, i); },
          [&](int j) { return col_base + interleaved_offset<kThreadsN>(0, j); });
    }
  }
}

}  // namespace tilemm::kernels

namespace tilemm {

void register_conflict_free(Registry& r) {
  using namespace kernels;
  constexpr TilemmConflictFreeConfig kCfg{128, 128, 8, 8, 8, 4};
  r.add(make_block_tile_entry<kCfg>(
      "conflict_free.128x128x8.t8x8", "conflict_free", 9,
      "vectorized 8x8 blocking, padded rows and interleaved thread tiles: no bank conflicts", 60, true,
      [](auto ops) { return conflict_free_gemm<kCfg, decltype(ops)::a, decltype(ops)::b>; }));
}

}  // namespace tilemm
