// Family "vectorized": blocktile2d with 128-bit global and shared-memory accesses.
//
// Idea: blocktile2d spends many of its instructions on moving tiles: 8 scalar global
// loads, their bounds checks and 8 scalar shared stores per thread per k-step. The same
// bytes move in a quarter of the instructions when each access is 16 bytes wide:
//   - global -> shared: each thread loads one float4 of op(A) and one of op(B) per
//     k-step (load_quad: LDG.128, scalar loads only where a quad crosses the matrix
//     border). A quad runs along the storage's contiguous direction. Operands that are
//     contiguous along x (A with op N, B with op T) land in their [k][x] shared tile as
//     one STS.128; operands contiguous along k (A with op T, B with op N) are transposed
//     on the way in (4 scalar stores per float4), so that the compute loop reads [k][x]
//     for every op combination;
//   - shared -> registers: a thread's 8 m-values of one k are 8 consecutive floats of
//     As[k][...], read as two LDS.128, likewise its 8 n-values: 4 shared loads for 64
//     FMAs. (The compiler found the same LDS.128 in blocktile2d on its own; writing them
//     as float4 makes them a property of the source, not of the optimizer.)
// The transposing stores also lose most of blocktile2d's store conflict: a warp now
// stores 16 x-values times 2 quads of k, a 2-way conflict instead of 8-way.
//
// Block tile BM x BN x BK = 128 x 128 x 8, 256 threads as 16 (m) x 16 (n), thread
// (tx, ty) = (tid % 16, tid / 16) owns rows 8*tx .. 8*tx+7 and columns 8*ty .. 8*ty+7,
// as in blocktile2d.
// Data per block and k-step: (BM + BN) * BK = 2048 floats = 512 float4, one of A and
// one of B per thread.
// Intensity (CGMA): unchanged from blocktile2d, 2 * BM * BN / (4 * (BM + BN)) = 32 FLOP/B
// (CGMA 128): this step cuts instructions, not bytes.
// Requirements: 16-byte aligned A and B, lda and ldb (and batch strides) multiples of 4,
// so that every quad starting at a multiple of 4 is a 16-byte aligned address
// (require_quad_alignment). Other problems (lda = 4093, sub-matrix offsets) are refused,
// and auto falls back to blocktile2d.
// Next step (conflict_free): the LDS.128 reads of op(A) hit each bank twice per
// quarter-warp and the transposing stores twice per warp; padding and an interleaved
// thread tile remove both conflicts.
#include <algorithm>

#include "kernels/fp32_tile_common.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmVectorizedConfig {
  int bm, bn, bk;  // block tile
  int tm, tn;      // thread tile: whole float4s of consecutive rows / columns
  constexpr int threads() const { return (bm / tm) * (bn / tn); }
  consteval bool valid() const {
    return tm % 4 == 0 && tn % 4 == 0 && bk % 4 == 0 && bm % tm == 0 && bn % tn == 0 &&
           threads() % 32 == 0 && threads() <= 1024 && (bm * bk / 4) % threads() == 0 &&
           (bn * bk / 4) % threads() == 0;
  }
};

namespace tilemm::kernels {

// Reads n consecutive floats of a 16-byte aligned shared-memory row as n / 4 LDS.128.
template <int kN>
__device__ __forceinline__ void read_vectorized_run(const float* src, float (&dst)[kN]) {
#pragma unroll
  for (int q = 0; q < kN / 4; ++q) {
    const float4 v = reinterpret_cast<const float4*>(src)[q];
    dst[4 * q + 0] = v.x;
    dst[4 * q + 1] = v.y;
    dst[4 * q + 2] = v.z;
    dst[4 * q + 3] = v.w;
  }
}

// Two blocks of 256 threads per SM cap the registers at 128 per thread (64 accumulators,
// 16 operands, addresses) and let one block compute while the other waits at a barrier.
template <TilemmVectorizedConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), 2) vectorized_gemm(GemmParams p) {
  static_assert(kCfg.valid());
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk, TM = kCfg.tm, TN = kCfg.tn;
  constexpr int kThreads = kCfg.threads();
  constexpr int kThreadsM = BM / TM;
  // (BK, BM) k-major: As[kk * BM + i] = op(A)(m0 + i, k0 + kk); rows 16-byte aligned.
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
        copy_tile_quad<BM, BK, BM, kThreads, !kTransA>(As, ga, copy_m0, k0, tid);
        copy_tile_quad<BN, BK, BN, kThreads, kTransB>(Bs, gb, copy_n0, k0, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
          float a[TM], bv[TN];
          read_vectorized_run<TM>(&As[kk * BM + ti], a);
          read_vectorized_run<TN>(&Bs[kk * BN + tj], bv);
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

void register_vectorized(Registry& r) {
  using namespace kernels;
  constexpr TilemmVectorizedConfig kCfg{128, 128, 8, 8, 8};
  r.add(make_block_tile_entry<kCfg>(
      "vectorized.128x128x8.t8x8", "vectorized", 8,
      "8x8 register blocking with 128-bit global loads and 128-bit shared reads", 50, true,
      [](auto ops) { return vectorized_gemm<kCfg, decltype(ops)::a, decltype(ops)::b>; }));
}

}  // namespace tilemm
