// Family "double_buffer": the warp-tiled FP32 kernel pipelined at both levels of the
// memory hierarchy, inside a 128-register budget.
//
// Idea: cp_async.cu overlaps global loads with the FFMAs, but its 8 x 8 thread tile with
// k-runs read ahead for k-contiguous operands keeps ~220 registers live: one 256-thread
// block (8 warps) per SM, and nothing else to run while those warps wait at a barrier or
// for a shared load. This step keeps the block, warp and thread tiles of warptile.cu and
// pipelines both transfers with the fewest live registers:
//   1. global -> shared, through registers: at the start of k-tile t each thread issues
//      the global loads of tile t + 1 into a few staging registers (one float4 per
//      operand for 128 x 128 x 8), computes the k-steps of tile t, and only then stores
//      the staging registers into the other of two shared buffers. The loads travel
//      behind 448 FFMAs per thread; one __syncthreads per k-tile.
//      Going through registers also transposes: a k-contiguous operand (A with op T, B
//      with op N) is stored as 4 scalar words into [k][x] rows, so every op reads its
//      fragments the same way (the copy engine of cp.async cannot transpose).
//   2. shared -> registers: the fragments of k-step kk + 1 (8 values of op(A), 8 of
//      op(B), two LDS.128 each) are read while the 64 FFMAs of k-step kk run, into the
//      second of two fragment register sets, so no FFMA waits for a shared load.
// The live set is 64 accumulators + 2 x 16 fragments + 8 staging values + a handful of
// addresses: under the 128 registers that let two 256-thread blocks (16 warps) share an
// SM, so one block computes while the other crosses its barrier. What it took to fit
// (each measured in ptxas's report): one tile per block (no tile or batch loop state; the
// launcher splits grids past the y/z limits), a 32-bit k-tile counter, pointers that walk
// down the tile instead of one 64-bit address per load, the epilogue's indices read
// afresh (ptx::tid_x, ptx::ctaid_*), and no border test inside the k-loop:
//   - rows (m) or columns (n) past the matrix read a row inside it (clamped) and only
//     feed accumulators that are never stored;
//   - a 16-byte quad can cross the border only in the last tile along an x-contiguous
//     extent that is not a multiple of 4; those blocks run a second copy of the loop
//     with the per-element fallback, every other block a loop without it;
//   - the partial last k-tile is loaded by a copy of the loop body outside the loop.
//
// Tiles: block 128 x 128 x 8, 256 threads = 8 warps as 2 (m) x 4 (n) warp tiles of 64 x 32,
// lanes 8 (m) x 4 (n), thread tile TM x TN = 8 x 8 as 2 x 2 interleaved 4 x 4 sub-tiles
// (warptile.cu); shared rows padded to BM + 4 floats so the transposing stores of a
// k-contiguous operand hit 32 distinct banks (conflict_free.cu), and with BK = 16 its
// second group of 8 rows shifted by 8 more floats (StagedTileCopy::row_start).
// Data per block and k-tile: (BM + BN) * BK floats from global memory for
// 2 * BM * BN * BK FLOP. Per thread and k-tile: 512 FFMA, 32 LDS.128, 2 LDG.128, 2-8 STS;
// the k-loop's SASS is 574 instructions for NN, 89% FFMA (cuBLAS's SIMT kernel: 89%).
// Intensity (CGMA): 2 * BM * BN / (4 * (BM + BN)) = 32 FLOP/B (CGMA 128) for 128 x 128.
// Two load widths: `.ldg128` needs 16-byte aligned A and B with lda, ldb (and batch
// strides) multiples of 4; `.ldg32` loads single elements and takes any leading
// dimension (lda = 4093). `.splitk` entries cut k into slices for problems with too few
// tiles to fill the GPU (1000^3: 64 tiles for 264 block slots) and sum the slices in
// order (split_k_reduce.hpp), so the result is deterministic. `.ldg128.repack` copies
// operands that are not 16-byte aligned into an aligned workspace first (repack.hpp) and
// transposes one operand of a large enough NT or TN product into NN, the fastest layout
// (4093^3: 0.91-0.995x cuBLAS in every layout, against .ldg32's 0.85-0.93x).
// `.g2` (BK = 16, copy_groups = 2): the next k-tile crosses the staging registers in two
// groups of passes, each loaded at the start of its half of the current tile and stored
// before the half's last k-step, so one __syncthreads serves 16 k with the same 8 staging
// registers. Measured (H200): 6% faster than BK = 8 in NT, 2-4.5% in TN, 0-2% slower in
// NN and TT; auto takes it (and its `.repack` and `.splitk` twins) for NT and TN.
// `.cp_async_a` (BK = 16, one copy group): an m-contiguous A (op N) skips the staging
// registers: each thread issues its 16-byte quads as cp.async straight into a ring of
// three shared slots, two k-tiles ahead, and waits for the next tile's group before the
// barrier; B (and a k-contiguous A) still crosses the registers. Measured (H200): NN
// 0.5-1.2% faster than BK = 8, and auto takes it there for aligned operands.
// Requirements: the width's; split-K: batchCount = 1; `.cp_async_a`: sm_80 (cp.async).
// Static shared memory: two buffers per operand of BK * (X + 4) floats (+ 8 with BK = 16),
// and a third of A for `.cp_async_a`: 16.5 KB at BK = 8, 33.1 KB or 41.4 KB at BK = 16.
// Measured (H200, docs/ladder.md step 13): 0.96-0.97x cuBLAS SGEMM at 4096^3 / 8192^3 NN;
// what is left is issue efficiency (85% against cuBLAS's 90%: dispatch stalls around
// the clustered LDS.128 and the barrier), not instruction count.
// Next step: tensor cores (a different ladder).
#include <algorithm>
#include <type_traits>

#include "kernels/fp32_tile_common.cuh"
#include "kernels/repack.hpp"
#include "kernels/split_k_reduce.hpp"
#include "kernels/workspace.hpp"
#include "ptx/cp_async.cuh"
#include "ptx/special_registers.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmDoubleBufferConfig {
  int bm, bn, bk;     // block tile
  int tm, tn;         // thread tile: (tm / 4) x (tn / 4) interleaved 4 x 4 sub-tiles
  int lanes_m;        // lanes of a warp along m; lanes_n = 32 / lanes_m
  int warps_m, warps_n;
  bool quad_loads;    // 16-byte global loads (aligned operands) or 4-byte loads (any ld)
  int min_blocks_per_sm;  // __launch_bounds__ target: 65536 / (threads * this) registers
  bool split_k = false;   // slices of k in grid z, partial sums reduced by a second kernel
  int copy_groups = 1;    // the next k-tile crosses the staging registers in this many groups
  // An m-contiguous op(A) (op N) is copied with cp.async straight into a ring of three
  // shared slots, issued two k-tiles ahead, instead of through staging registers.
  bool async_a = false;

  consteval int lanes_n() const { return 32 / lanes_m; }
  consteval int warp_tile_m() const { return tm * lanes_m; }
  consteval int warp_tile_n() const { return tn * lanes_n(); }
  consteval int threads() const { return 32 * warps_m * warps_n; }
  consteval bool valid() const {
    return tm % 4 == 0 && tn % 4 == 0 && (lanes_m == 8 || lanes_m == 4) &&
           bm == warps_m * warp_tile_m() && bn == warps_n * warp_tile_n() && bk % 4 == 0 && threads() <= 1024 &&
           min_blocks_per_sm >= 1 && copy_groups >= 1 && bk % copy_groups == 0 && (!async_a || quad_loads);
  }
};

namespace tilemm::kernels {

// How many floats row k of a k-contiguous operand's [k][x] buffer sits past k * pitch:
// 8 per group of 8 rows before it when BK >= 16 (StagedTileCopy::row_start says why), none
// with BK = 8. The buffers are sized with it too.
__host__ __device__ constexpr int k_contiguous_row_skew(int bk, int k) { return bk >= 16 ? 8 * (k / 8) : 0; }

// One operand's share of the global -> register -> shared copy of a k-tile, for one
// thread. The X x BK tile (X = BM or BN) is stored [k][x] with pitch P = X + 4. A thread
// owns kLoads groups of kWidth elements along the storage's contiguous direction: one
// fixed position along it (consecutive threads, consecutive addresses) and positions
// kOtherStep apart across it, one per pass. An x-contiguous operand is read in quads
// (16-byte loads) or single elements (any ld); a k-contiguous one always in runs of 4 k
// of one row, as one 16-byte load or 4 single ones, so each thread keeps one row.
template <int X, int BK, int kThreads, bool kXContig, bool kQuad, bool kStraddle, int kGroups>
struct StagedTileCopy {
  static constexpr int P = X + 4;
  static constexpr int kWidth = (kXContig && !kQuad) ? 1 : 4;
  static constexpr int kLead = (kXContig ? X : BK) / kWidth;  // groups along the contiguous direction
  static_assert(kThreads % kLead == 0, "each thread keeps one position along the contiguous direction");
  static constexpr int kOtherStep = kThreads / kLead;
  static constexpr int kLoads = X * BK / (kWidth * kThreads);
  static_assert(kLoads >= 1 && kLoads * kWidth * kThreads == X * BK, "every thread loads the same amount");
  static_assert(kLoads % kGroups == 0, "the passes split evenly into the copy groups");
  static constexpr int kGroupLoads = kLoads / kGroups;  // passes in one group

  const float* ptr;  // the thread's first element in the current k-tile, its row clamped into the matrix
  // x-contiguous quads in a block that straddles the border (kStraddle): the last
  // element of the quad inside the matrix (3: all). k-contiguous: the last pass whose
  // row x is inside the matrix (later passes reuse it).
  int last;
  int smem_offset;  // where the first element lands in a [k][x] buffer
  float stage[kGroupLoads * kWidth];  // one group of passes

  // The thread's first element as (x, k) within the tile.
  __device__ static int first_x(int tid) { return kXContig ? (tid % kLead) * kWidth : tid / kLead; }
  __device__ static int first_k(int tid) { return kXContig ? tid / kLead : (tid % kLead) * kWidth; }

  // Where row k starts in a [k][x] buffer (row_start, in floats). A k-contiguous operand's
  // transposing stores write, per instruction, 8 columns of rows kk + c for the kk = 0, 4,
  // ..., BK - 4 of a warp's threads; rows k and k + 8 lie 8 * P = 8 * (X + 4) floats apart,
  // a multiple of the 32 banks, so with BK = 16 every bank was written twice. Each group of
  // 8 rows therefore starts 8 floats (32 bytes: the 16-byte fragment reads stay aligned)
  // after the previous group's pitch, which puts rows k and k + 8 eight banks apart; the
  // readers add the same constant per row. BK = 8 has one group, so no skew.
  __host__ __device__ static constexpr int row_start(int k) {
    return k * P + (kXContig ? 0 : k_contiguous_row_skew(BK, k));
  }

  // Sets up the copy of the operand's tile at x0 (k starts at 0). Rows (x) past the
  // matrix read a row inside it instead: they only feed accumulators that are never
  // stored, and the k-loop needs no test for them.
  __device__ __forceinline__ void init(const OperandView& g, std::int64_t x0, int tid) {
    const int x = first_x(tid), kk = first_k(tid);
    // A thread's k-contiguous runs cover rows kk .. kk + 3, of one group of 8 (row_start).
    smem_offset = row_start(kk) + x;
    const std::int64_t gx = x0 + x;
    if constexpr (kXContig && kQuad && !kStraddle) {
      // No quad crosses the border (extent_x % 4 == 0, or the tile ends before it): a
      // quad past it reads the last quad inside, which is 16-byte aligned.
      last = 3;
      ptr = g.ptr + std::min(gx, g.extent_x - 4) + kk * g.ld;
    } else if constexpr (kXContig) {
      // Every pass reads the same x; a quad across the border reads its elements inside
      // the matrix, and past it (values that feed only accumulators never stored) repeats
      // the last one (one copy group) or reads zeros (several; see load()).
      const std::int64_t inside = std::min<std::int64_t>(g.extent_x - gx, kWidth);
      last = int(std::max<std::int64_t>(inside, 1)) - 1;
      ptr = g.ptr + std::min(gx, g.extent_x - 1) + kk * g.ld;
    } else {
      const std::int64_t rows_inside = (g.extent_x - gx + kOtherStep - 1) / kOtherStep;
      last = int(std::clamp<std::int64_t>(rows_inside - 1, 0, kLoads - 1));
      ptr = g.ptr + kk + std::min(gx, g.extent_x - 1) * g.ld;
    }
  }

  // Loads the current k-tile into the staging registers. kTail: the partial last tile
  // (k_left = k - k0 < BK): elements at kk >= k_left read as zeros and are not touched.
  // The tail's element k comes from %tid read afresh: keeping the thread's first k live
  // from init() across the loop spilled on sm_80.
  template <bool kTail>
  __device__ __forceinline__ void load(std::int64_t ld, int k_left, int group) {
    // Pass p of the tile into the staging registers at dst.
    const auto load_pass = [&](int p, float* dst) {
      if constexpr (kXContig) {
        // The passes walk the pointer down the tile's k rows, kOtherStep at a time; the
        // last step lands on the next tile (kLoads * kOtherStep = BK), so no second
        // 64-bit address is formed per pass.
        const float* src = ptr;
        ptr += std::int64_t(kOtherStep) * ld;
        const bool inside = !kTail || first_k(int(ptx::tid_x())) + p * kOtherStep < k_left;
        if constexpr (kQuad) {
          if (!inside) {
            dst[0] = dst[1] = dst[2] = dst[3] = 0.0f;
          } else if (!kStraddle || last == 3) {
            const float4 v = *reinterpret_cast<const float4*>(src);
            dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
          } else if constexpr (kGroups == 1) {
            // Repeating the last element takes four addresses, zeros one: with two copy
            // groups the four spilled. The one-group kernels keep the four, so that they
            // compile to the code measured in docs/ladder.md step 13 (other forms of the same
            // source moved ptxas's schedules of their loops by -3% to +5% per layout).
#pragma unroll
            for (int c = 0; c < 4; ++c) dst[c] = src[std::min(c, last)];
          } else {
#pragma unroll
            for (int c = 0; c < 4; ++c) dst[c] = c <= last ? src[c] : 0.0f;
          }
        } else {
          dst[0] = inside ? src[0] : 0.0f;
        }
      } else {
        const float* src = ptr + std::int64_t(std::min(p, last) * kOtherStep) * ld;
        const int kk0 = first_k(int(ptx::tid_x()));
        if (kQuad && (!kTail || kk0 + 3 < k_left)) {
          const float4 v = *reinterpret_cast<const float4*>(src);
          dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
        } else {
#pragma unroll
          for (int c = 0; c < 4; ++c) dst[c] = (!kTail || kk0 + c < k_left) ? src[c] : 0.0f;
        }
      }
    };
    // The same passes, written two ways: ptxas's schedule of the one-group loops (and of
    // the two-group ones on sm_80, which spilled the other way) depends on the form.
    if constexpr (kGroups == 1) {
#pragma unroll
      for (int p = 0; p < kLoads; ++p) load_pass(p, &stage[p * kWidth]);
    } else {
#pragma unroll
      for (int p = group * kGroupLoads; p < (group + 1) * kGroupLoads; ++p)
        load_pass(p, &stage[(p - group * kGroupLoads) * kWidth]);
    }
  }

  // Moves to the next k-tile (an x-contiguous operand's loads already walked there).
  __device__ __forceinline__ void advance() {
    if constexpr (!kXContig) ptr += BK;
  }

  // Writes the staging registers into a [k][x] buffer: one STS.128 per x-contiguous
  // quad, 4 transposing STS.32 per k-contiguous run.
  __device__ __forceinline__ void store(float* buffer, int group) const {
#pragma unroll
    for (int q = 0; q < kGroupLoads; ++q) {
      const int p = group * kGroupLoads + q;  // the pass; q: its place in the staging registers
      const int offset = smem_offset + (kXContig ? p * kOtherStep * P : p * kOtherStep);
      if constexpr (kXContig && kQuad) {
        *reinterpret_cast<float4*>(&buffer[offset]) =
            make_float4(stage[4 * q], stage[4 * q + 1], stage[4 * q + 2], stage[4 * q + 3]);
      } else {
#pragma unroll
        for (int c = 0; c < kWidth; ++c) buffer[offset + c * P] = stage[q * kWidth + c];
      }
    }
  }
};

// The `.cp_async_a` entries' copy of an m-contiguous op(A): the same threads, passes and
// [k][x] places as StagedTileCopy's 16-byte quads, but each pass is one 16-byte cp.async
// into a slot of the ring, so no staging registers and no STS. Borders need no clamped
// repeat: a quad that crosses the matrix border (kStraddle) copies its elements inside and
// the copy engine zero-fills the rest, as it does for the rows past k of the partial last
// tile.
template <int X, int BK, int kThreads, bool kStraddle>
struct AsyncTileCopy {
  using Geometry = StagedTileCopy<X, BK, kThreads, true, true, kStraddle, 1>;
  static constexpr int P = Geometry::P, kOtherStep = Geometry::kOtherStep, kLoads = Geometry::kLoads;
  __host__ __device__ static constexpr int row_start(int k) { return Geometry::row_start(k); }

  const float* ptr;  // the thread's first quad in the next k-tile to copy (16-byte aligned)
  int bytes;         // kStraddle: the bytes of that quad inside the matrix (else 16)
  int smem_offset;   // where the quad lands in a [k][x] slot

  __device__ __forceinline__ void init(const OperandView& g, std::int64_t x0, int tid) {
    const int x = Geometry::first_x(tid), kk = Geometry::first_k(tid);
    smem_offset = row_start(kk) + x;
    const std::int64_t gx = x0 + x;
    if constexpr (kStraddle) {
      // A quad wholly past the border copies nothing, from the column's first (aligned) quad.
      const std::int64_t inside = std::clamp<std::int64_t>(g.extent_x - gx, 0, 4);
      bytes = 4 * int(inside);
      ptr = g.ptr + (inside > 0 ? gx : 0) + kk * g.ld;
    } else {
      // No quad crosses the border: one past it reads the last quad inside (StagedTileCopy).
      bytes = 16;
      ptr = g.ptr + std::min(gx, g.extent_x - 4) + kk * g.ld;
    }
  }

  // Issues the next k-tile's copies into `slot` and moves on to the tile after it. kTail:
  // the partial last tile, whose rows at k >= k_left are zero-filled.
  template <bool kTail>
  __device__ __forceinline__ void issue(float* slot, std::int64_t ld, int k_left) {
#pragma unroll
    for (int q = 0; q < kLoads; ++q) {
      const float* src = ptr;
      ptr += std::int64_t(kOtherStep) * ld;
      const bool inside = !kTail || Geometry::first_k(int(ptx::tid_x())) + q * kOtherStep < k_left;
      ptx::cp_async_cg_16(&slot[smem_offset + q * kOtherStep * P], src, inside ? (kStraddle ? bytes : 16) : 0);
    }
  }
};

// Split-K: grid z walks slices of k_per_slice (a multiple of BK) instead of batch items,
// and slice z writes its raw partial m x n product to partial + z * m * n (ld m).
struct DoubleBufferSlices {
  std::int64_t k_per_slice;
  float* partial;
};

// One block per BM x BN tile of one batch item (split-K: of one k-slice): blockIdx = (m tile,
// n tile, batch item or slice).
// The launcher splits grids past the y and z limits into several launches, so the kernel
// keeps no tile or batch loop state next to the accumulators.
template <TilemmDoubleBufferConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), kCfg.min_blocks_per_sm)
    double_buffer_gemm(GemmParams p, DoubleBufferSlices split) {
  static_assert(kCfg.valid());
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk, TM = kCfg.tm, TN = kCfg.tn;
  constexpr int kThreads = kCfg.threads();
  constexpr int kLanesM = kCfg.lanes_m, kLanesN = kCfg.lanes_n();
  // Two buffers of (BK, BM + 4) k-major op(A) and (BK, BN + 4) k-major op(B); three of
  // op(A) when cp.async copies it two k-tiles ahead.
  constexpr bool kAsyncA = kCfg.async_a && !kTransA;
  constexpr int kSlotsA = kAsyncA ? 3 : 2;
  // With BK = 16 a k-contiguous operand's second group of 8 rows starts 8 floats later
  // (StagedTileCopy::row_start).
  constexpr int PA = BM + 4, PB = BN + 4, kSkew = k_contiguous_row_skew(BK, BK - 1);
  __shared__ __align__(16) float As[kSlotsA][BK * PA + kSkew];
  __shared__ __align__(16) float Bs[2][BK * PB + kSkew];
  float acc[TM][TN] = {};
  // The k this block covers: all of it, or its slice.
  const std::int64_t k_len =
      kCfg.split_k ? std::min(split.k_per_slice, p.k - std::int64_t(blockIdx.z) * split.k_per_slice) : p.k;
  const int k_tail = int(k_len % BK);

  // The k-loop, for blocks whose x-contiguous quads may cross the matrix border (the last
  // tile along m or n when that extent is not a multiple of 4) and for all others, which
  // then carry no test for it.
  const auto main_loop = [&]<bool kStraddleA, bool kStraddleB>() {
    constexpr int G = kCfg.copy_groups, kSegment = BK / G;
    using CopyA = std::conditional_t<kAsyncA, AsyncTileCopy<BM, BK, kThreads, kStraddleA>,
                                     StagedTileCopy<BM, BK, kThreads, !kTransA, kCfg.quad_loads, kStraddleA, G>>;
    using CopyB = StagedTileCopy<BN, BK, kThreads, kTransB, kCfg.quad_loads, kStraddleB, G>;
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int lane_m = lane % kLanesM, lane_n = lane / kLanesM;
    const int warp_m0 = (warp % kCfg.warps_m) * kCfg.warp_tile_m();
    const int warp_n0 = (warp / kCfg.warps_m) * kCfg.warp_tile_n();
    // The operands of this block: its batch item, or (split-K) its slice of k.
    OperandView view_a, view_b;
    if constexpr (kCfg.split_k) {
      const std::int64_t k0 = std::int64_t(blockIdx.z) * split.k_per_slice;
      view_a = OperandView{p.A + (kTransA ? k0 : k0 * p.lda), p.lda, p.m, k_len};
      view_b = OperandView{p.B + (kTransB ? k0 * p.ldb : k0), p.ldb, p.n, k_len};
    } else {
      view_a = operand_a(p, blockIdx.z);
      view_b = operand_b(p, blockIdx.z);
    }
    CopyA copy_a;
    CopyB copy_b;
    copy_a.init(view_a, std::int64_t(blockIdx.x) * BM, tid);
    copy_b.init(view_b, std::int64_t(blockIdx.y) * BN, tid);
    // Loads copy group g of the next k-tile into the staging registers (the last group's
    // load moves the copies on to the tile after it). kTail: the partial last tile
    // (k % BK != 0), whose elements past k read as zeros.
    const auto load_group = [&]<bool kTail>(int g) {
      if constexpr (!kAsyncA) copy_a.template load<kTail>(p.lda, kTail ? k_tail : BK, g);
      copy_b.template load<kTail>(p.ldb, kTail ? k_tail : BK, g);
      if (g == G - 1) {
        if constexpr (!kAsyncA) copy_a.advance();
        copy_b.advance();
      }
    };
    const auto store_group = [&](int buffer, int g) {
      if constexpr (!kAsyncA) copy_a.store(As[buffer], g);
      copy_b.store(Bs[buffer], g);
    };

    // kAsyncA: the slot of op(A)'s ring being read (tile t in slot t % 3).
    int slot_a = 0;
    // Both fragment sets: [set][i], set kk % 2 feeds k-step kk. A thread's rows
    // (columns) are 4 * lane + {0..3} and 4 * lanes further of its warp tile.
    float fa[2][TM], fb[2][TN];
    const auto read_fragments = [&](int buf, int kk, int set) {
      read_interleaved_fragment<kLanesM, TM>(&As[kAsyncA ? slot_a : buf][CopyA::row_start(kk) + warp_m0], lane_m,
                                             fa[set]);
      read_interleaved_fragment<kLanesN, TN>(&Bs[buf][CopyB::row_start(kk) + warp_n0], lane_n, fb[set]);
    };
    int buf = 0;
    // The BK k-steps of the tile in buffer `buf`, with the next tile (kNext: 0 none, 1 a
    // full tile, 2 the partial last tile) copied into the other buffer in G groups: group
    // g is loaded at the start of the tile's segment g of BK / G k-steps and stored before
    // the segment's last k-step, which then loads group g + 1 (after the last group: the
    // barrier, which with kAsyncA first waits for op(A)'s copies of the next tile).
    const auto compute_tile = [&]<int kNext>() {
      if constexpr (kNext != 0) load_group.template operator()<kNext == 2>(0);
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
        if (kNext != 0 && kk % kSegment == kSegment - 1) {
          // Every warp read its last fragments of the other buffer (the previous tile)
          // before the previous barrier, so it can be overwritten now.
          const int g = kk / kSegment;
          store_group(buf ^ 1, g);
          if (g + 1 < G) {
            load_group.template operator()<kNext == 2>(g + 1);
          } else {
            if constexpr (kAsyncA) ptx::cp_async_wait_group<1>();
            __syncthreads();
            buf ^= 1;
            if constexpr (kAsyncA) slot_a = slot_a == 2 ? 0 : slot_a + 1;
          }
        }
        if (kk < BK - 1) {
          read_fragments(buf, kk + 1, (kk + 1) % 2);
        } else if (kNext != 0) {
          read_fragments(buf, 0, 0);
        }
        const int set = kk % 2;
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(fa[set][i], fb[set][j], acc[i][j]);
      }
    };

    // Full tiles, then the partial one: the steady state carries no k test (k < 2^31 * BK,
    // can_implement), and the partial last tile is loaded by a copy of the loop body.
    const int full_tiles = int(k_len / BK);
    const bool partial = k_tail != 0;
    // kAsyncA: op(A)'s k-tile `tile` (if there is one) copied into ring slot `slot`, and a
    // cp.async group committed either way, so that at every barrier the group of the tile
    // after next is the one left in flight. Its first two tiles go into slots 0 and 1, and
    // before each tile the one after next goes into the slot the previous tile read (every
    // warp left it at the previous barrier).
    const auto issue_a = [&](int tile, int slot) {
      if constexpr (kAsyncA) {
        if (tile < full_tiles) {
          copy_a.template issue<false>(As[slot], p.lda, BK);
        } else if (tile == full_tiles && partial) {
          copy_a.template issue<true>(As[slot], p.lda, k_tail);
        }
        ptx::cp_async_commit_group();
      }
    };
    const auto slot_after_next = [&] { return slot_a == 0 ? 2 : slot_a - 1; };
    issue_a(0, 0);
    issue_a(1, 1);
#pragma unroll
    for (int g = 0; g < G; ++g) {
      if (full_tiles > 0) {
        load_group.template operator()<false>(g);
      } else {
        load_group.template operator()<true>(g);
      }
      store_group(0, g);
    }
    if constexpr (kAsyncA) ptx::cp_async_wait_group<1>();
    __syncthreads();
    read_fragments(0, 0, 0);
    for (int t = 1; t < full_tiles; ++t) {
      issue_a(t + 1, slot_after_next());
      compute_tile.template operator()<1>();
    }
    if (partial && full_tiles > 0) {
      issue_a(full_tiles + 1, slot_after_next());
      compute_tile.template operator()<2>();
    }
    compute_tile.template operator()<0>();
  };
  // A quad crosses the border only in the last tile along an x-contiguous extent that is
  // not a multiple of 4 (the launcher never splits m; a split of n ends at a tile edge).
  const bool straddle_a = kCfg.quad_loads && !kTransA && p.m % 4 != 0 && blockIdx.x == gridDim.x - 1;
  const bool straddle_b = kCfg.quad_loads && kTransB && p.n % 4 != 0 && blockIdx.y == gridDim.y - 1;
  if (straddle_a || straddle_b) {
    main_loop.template operator()<true, true>();
  } else {
    main_loop.template operator()<false, false>();
  }

  // The epilogue's coordinates from fresh reads of the indices: values derived from the
  // ones read at the start would stay live across the k-loop (and spill under the cap).
  const int e_tid = int(ptx::tid_x());
  const int e_warp = e_tid / 32, e_lane = e_tid % 32;
  // Split-K writes the raw partial sum: alpha, beta and C belong to the reduction.
  float* const C = kCfg.split_k ? split.partial + std::int64_t(ptx::ctaid_z()) * p.m * p.n
                                : p.C + std::int64_t(ptx::ctaid_z()) * p.stride_c;
  const std::int64_t ldc = kCfg.split_k ? p.m : p.ldc;
  const float alpha = kCfg.split_k ? 1.0f : p.alpha;
  const float beta = kCfg.split_k ? 0.0f : p.beta;
  const bool quad_aligned = reinterpret_cast<std::uintptr_t>(C) % 16 == 0 && ldc % 4 == 0;
  const std::int64_t row0 = std::int64_t(ptx::ctaid_x()) * BM + (e_warp % kCfg.warps_m) * kCfg.warp_tile_m() +
                            4 * (e_lane % kLanesM);
  const std::int64_t col0 = std::int64_t(ptx::ctaid_y()) * BN + (e_warp / kCfg.warps_m) * kCfg.warp_tile_n() +
                            4 * (e_lane / kLanesM);
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const std::int64_t col = col0 + interleaved_offset<kLanesN>(0, j);
    if (col >= p.n) continue;
    float* c_col = C + col * ldc;
#pragma unroll
    for (int h = 0; h < TM / 4; ++h) {
      const float quad[4] = {acc[4 * h][j], acc[4 * h + 1][j], acc[4 * h + 2][j], acc[4 * h + 3][j]};
      store_quad(c_col, row0 + interleaved_offset<kLanesM>(0, 4 * h), p.m, quad, alpha, beta, quad_aligned);
    }
  }
}

template <TilemmDoubleBufferConfig kCfg>
int double_buffer_blocks_per_sm() {
  static const int blocks =
      resident_blocks_per_sm(reinterpret_cast<const void*>(&double_buffer_gemm<kCfg, false, false>), kCfg.threads(), 0);
  return blocks;
}

// The number of k-slices of a split-K configuration: about one full wave of blocks, or
// more where a product of at most one wave of tiles would leave its last wave less than
// 90% full, each slice at least 128 k long (16 k-tiles of 8), at most 32 (split_k_reduce.hpp).
template <TilemmDoubleBufferConfig kCfg>
int double_buffer_slices(const GemmProblem& p, int sm_count) {
  const std::int64_t tiles = ((p.m + kCfg.bm - 1) / kCfg.bm) * ((p.n + kCfg.bn - 1) / kCfg.bn);
  return split_k_slices_filling_waves(tiles, std::int64_t(sm_count) * double_buffer_blocks_per_sm<kCfg>(), p.k,
                                      kCfg.bk, std::max(1, 128 / kCfg.bk), 32, 0.9);
}

// The share of a split-K call left to its GEMM kernel, 2mnk / (2mnk + the partial sums'
// cost): each slice's fp32 product written and read back, 8 bytes per slice and element,
// at 16 FLOP per byte as the `.repack` copies are charged (double_buffer_repack_choice).
// 0.90 for 7 slices at k = 4096, 0.80 for 4 at k = 1000: with a flat 0.85 the whole tiles
// kept 224-tile products (85% of one wave), which 7 slices ran 10% faster (H200).
inline double double_buffer_split_k_share(const GemmProblem& p, int slices) {
  constexpr double kFlopPerByte = 16.0;
  const double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
  return flops / (flops + kFlopPerByte * 8.0 * double(slices) * double(p.m) * double(p.n));
}

// Launches the tile grid, split into launches of at most 65535 column tiles and 65535
// batch items (the grid's y and z limits), each seeing its share as a whole problem.
// Split-K (batchCount = 1, at most 65535 column tiles: can_implement) launches one grid
// over the slices and then the in-order reduction.
template <TilemmDoubleBufferConfig kCfg>
cudaError_t launch_double_buffer(const GemmProblem& prob, cudaStream_t stream) {
  constexpr std::int64_t kMaxY = 65535;
  const GemmParams whole = make_params(prob);
  const std::int64_t col_tiles = (prob.n + kCfg.bn - 1) / kCfg.bn;
  DoubleBufferSlices split{prob.k, nullptr};
  int slices = 1;
  StreamWorkspace workspace(stream);
  if constexpr (kCfg.split_k) {
    slices = double_buffer_slices<kCfg>(prob, device_sm_count());
    split.k_per_slice = split_k_slice_length(prob.k, slices, kCfg.bk);
    slices = int((prob.k + split.k_per_slice - 1) / split.k_per_slice);
    const cudaError_t err = workspace.allocate(std::size_t(slices) * std::size_t(prob.m) * std::size_t(prob.n) * 4);
    if (err != cudaSuccess) return err;
    split.partial = workspace.at<float>();
  }
  const cudaError_t launched = dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    for (std::int64_t b0 = 0; b0 < prob.batch; b0 += kMaxGridZ) {
      for (std::int64_t t0 = 0; t0 < col_tiles; t0 += kMaxY) {
        GemmParams part = whole;
        const std::int64_t n0 = t0 * kCfg.bn;
        part.n = std::min(whole.n - n0, kMaxY * kCfg.bn);
        part.batch = std::min(whole.batch - b0, kMaxGridZ);
        part.A = whole.A + b0 * whole.stride_a;
        part.B = whole.B + b0 * whole.stride_b + (kTB ? n0 : n0 * whole.ldb);
        part.C = whole.C + b0 * whole.stride_c + n0 * whole.ldc;
        const dim3 grid(ceil_div_u(prob.m, kCfg.bm), ceil_div_u(part.n, kCfg.bn),
                        static_cast<unsigned>(kCfg.split_k ? slices : part.batch));
        double_buffer_gemm<kCfg, kTA, kTB><<<grid, kCfg.threads(), 0, stream>>>(part, split);
        const cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess) return err;
      }
    }
    return cudaSuccess;
  });
  if constexpr (kCfg.split_k) {
    return workspace.finish(launched == cudaSuccess ? launch_split_k_reduce(prob, split.partial, slices, stream)
                                                    : launched);
  }
  return launched;
}

template <TilemmDoubleBufferConfig kCfg, bool kRepack>
std::string double_buffer_name() {
  return "double_buffer." + std::to_string(kCfg.bm) + "x" + std::to_string(kCfg.bn) + "x" + std::to_string(kCfg.bk) +
         ".w" + std::to_string(kCfg.warp_tile_m()) + "x" + std::to_string(kCfg.warp_tile_n()) + ".t" +
         std::to_string(kCfg.tm) + "x" + std::to_string(kCfg.tn) + (kCfg.quad_loads ? ".ldg128" : ".ldg32") +
         (kCfg.copy_groups > 1 ? ".g" + std::to_string(kCfg.copy_groups) : "") + (kCfg.async_a ? ".cp_async_a" : "") +
         (kCfg.split_k ? ".splitk" : "") +
         (kRepack ? ".repack" : "");
}

// An entry's speed in each layout relative to the BK = 8 entry's in the same layout
// (measured: the same configuration runs the four layouts at different speeds, and two
// configurations order them differently). The BK = 8 entry itself: all 1.
struct LayoutSpeeds {
  double nn = 1.0, nt = 1.0, tn = 1.0, tt = 1.0;
  double of(const GemmProblem& p) const {
    return p.opa == Op::N ? (p.opb == Op::N ? nn : nt) : (p.opb == Op::N ? tn : tt);
  }
};

// What a `.repack` entry does with a problem: it copies the operands that are not 16-byte
// aligned, and transposes one operand of an NT or TN product (turning it into NN) where the
// entry's kernel runs NN faster than that layout and the estimate says the gain pays for
// the copy. The BK = 8 kernel runs NN 4% faster than NT and TN (H200, 4096^3: NN 2.800 ms,
// NT 2.919, TN 2.897); another entry's gains follow from its LayoutSpeeds. `speed`
// estimates the call's speed relative to the entry's kernel on the caller's layout: the
// kernel's share of the call (fp32_product_share) times the layout gain.
struct DoubleBufferRepackChoice {
  bool copies = false;  // some operand is copied (else the call is the plain `.ldg128`)
  bool aligned = false;  // both operands could be read in place: any copy is for the layout
  bool transpose_a = false, transpose_b = false;
  double speed = 0.0;
};

inline DoubleBufferRepackChoice double_buffer_repack_choice(const GemmProblem& p, LayoutSpeeds layouts) {
  constexpr double kBk8NNGain = 1.04;
  const auto speed_of = [&](const AlignedOperandsPlan& plan, double gain) {
    return gain * fp32_product_share(p, plan);
  };
  const AlignedOperandsPlan straight = plan_aligned_operands(p, 4, false, false);
  DoubleBufferRepackChoice choice;
  choice.aligned = !straight.repack_a && !straight.repack_b;
  choice.copies = !choice.aligned;
  choice.speed = speed_of(straight, 1.0);
  const bool nt = p.opa == Op::N && p.opb == Op::T, tn = p.opa == Op::T && p.opb == Op::N;
  if (nt || tn) {
    const double nn_gain = kBk8NNGain * layouts.nn / layouts.of(p);
    const double to_nn = speed_of(plan_aligned_operands(p, 4, tn, nt), nn_gain);
    if (to_nn > choice.speed) {
      choice.copies = true;
      choice.transpose_a = tn;
      choice.transpose_b = nt;
      choice.speed = to_nn;
    }
  }
  return choice;
}

// relative_speed: as in cp_async.cu, the configuration's speed on large squares relative
// to the fastest fp32 configuration (tilemm-bench --tune, docs/ladder.md step 13).
// kRepack (16-byte loads only): operands that are not 16-byte aligned are first copied into
// an aligned workspace (repack.hpp), so any leading dimension runs the 16-byte loads, and
// large NT or TN products run as NN where that is faster (double_buffer_repack_choice).
// `layouts`: the entry's measured speed per layout (LayoutSpeeds).
template <TilemmDoubleBufferConfig kCfg, bool kRepack = false>
KernelEntry make_double_buffer_entry(double relative_speed, LayoutSpeeds layouts = {}) {
  static_assert(!kRepack || (kCfg.quad_loads && !kCfg.split_k));
  KernelEntry e;
  e.name = double_buffer_name<kCfg, kRepack>();
  e.family = "double_buffer";
  e.ladder_step = 13;
  e.summary = std::string("double-buffered shared tiles fed through registers, fragments read a k-step ahead, ") +
              std::to_string(kCfg.min_blocks_per_sm) + " blocks per SM (" +
              (kCfg.quad_loads ? "16-byte loads" : "4-byte loads: any leading dimension") + ")" +
              (kCfg.copy_groups > 1 ? ", the next k-tile staged in " + std::to_string(kCfg.copy_groups) +
                                          " groups of loads (one barrier per " + std::to_string(kCfg.bk) + " k)"
                                    : std::string()) +
              (kCfg.async_a ? ", an m-contiguous A copied by cp.async into a three-slot ring two k-tiles ahead" : "") +
              (kCfg.split_k ? ", k split across blocks and reduced in order (few-tile problems)" : "") +
              (kRepack ? ", operands that are not 16-byte aligned copied first into an aligned workspace, "
                         "large NT or TN products run as NN after transposing one operand where NN is faster"
                       : "");
  e.dtypes = "fp32";
  e.min_compute_capability = kCfg.async_a ? 80 : 75;
  e.requirements = std::string(kRepack ? "a workspace for each operand copied (not 16-byte aligned with ld a "
                                         "multiple of 4, or transposed): ld' x columns floats, ld' rounded up to 4 "
                                         "(stream-ordered); aligned operands fall back to no copy if it cannot be had"
                               : kCfg.quad_loads
                                   ? "A and B 16-byte aligned, lda and ldb (and batch strides) multiples of 4"
                                   : "none") +
                   (kCfg.split_k ? "; batchCount = 1; a workspace of slices * m * n floats (stream-ordered)" : "");
  e.arithmetic_intensity = 2.0 * kCfg.bm * kCfg.bn / (4.0 * (kCfg.bm + kCfg.bn));
  e.auto_eligible = true;
  e.can_implement = [](const GemmProblem& p, const DeviceInfo& dev) {
    std::string r = require_fp32(p);
    if (r.empty()) r = require_compute_capability(dev, kCfg.async_a ? 80 : 75);
    if (r.empty() && kCfg.quad_loads && !kRepack) r = require_quad_alignment(p);
    if (r.empty() && (p.m + kCfg.bm - 1) / kCfg.bm > 2147483647LL) r = "grid x dimension exceeded";
    // The k-loop counts tiles in 32 bits.
    if (r.empty() && p.k / kCfg.bk > 2147483647LL) r = "k must be below 2^31 * " + std::to_string(kCfg.bk);
    if (r.empty() && kCfg.split_k && p.batch != 1) r = "split-K runs one product at a time (batchCount = 1)";
    if (r.empty() && kCfg.split_k && (p.n + kCfg.bn - 1) / kCfg.bn > 65535)
      r = "split-K takes at most 65535 column tiles";
    return r;
  };
  if constexpr (kRepack) {
    e.launch = [layouts](const GemmProblem& p, cudaStream_t stream) {
      const DoubleBufferRepackChoice choice = double_buffer_repack_choice(p, layouts);
      const cudaError_t err = launch_with_aligned_operands(
          p, 4, choice.transpose_a, choice.transpose_b, stream,
          [stream](const GemmProblem& q) { return launch_double_buffer<kCfg>(q, stream); });
      // The transposing copy of aligned operands is an option, not a need: without memory
      // for it the kernel reads them in place.
      if (err != cudaErrorMemoryAllocation || !choice.aligned) return err;
      cudaGetLastError();
      return launch_double_buffer<kCfg>(p, stream);
    };
  } else {
    e.launch = launch_double_buffer<kCfg>;
  }
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&double_buffer_gemm<kCfg, false, false>), kCfg.threads(), 0};
  };
  // Scored on the cp_async scale (fp32_tile_score).
  e.auto_score = [relative_speed, layouts](const GemmProblem& p, const DeviceInfo& dev) {
    const std::int64_t resident = std::int64_t(dev.sm_count) * double_buffer_blocks_per_sm<kCfg>();
    const int slices = kCfg.split_k ? double_buffer_slices<kCfg>(p, dev.sm_count) : 0;
    double speed = relative_speed * layouts.of(p);
    if constexpr (kRepack) {
      // Nothing to copy: the plain entry runs the same kernel without the check.
      const DoubleBufferRepackChoice choice = double_buffer_repack_choice(p, layouts);
      speed *= choice.copies ? choice.speed : 0.99;
    }
    return fp32_tile_score(p, kCfg.bm, kCfg.bn, resident, speed, slices,
                           slices > 1 ? double_buffer_split_k_share(p, slices) : 0.0);
  };
  return e;
}

// Registers a configuration with both load widths.
template <TilemmDoubleBufferConfig kCfg>
void register_double_buffer_config(Registry& r, double relative_speed_quad, double relative_speed_element) {
  constexpr auto with_loads = [](bool quad) {
    TilemmDoubleBufferConfig c = kCfg;
    c.quad_loads = quad;
    return c;
  };
  r.add(make_double_buffer_entry<with_loads(true)>(relative_speed_quad));
  r.add(make_double_buffer_entry<with_loads(false)>(relative_speed_element));
}

}  // namespace tilemm::kernels

namespace tilemm {

// {bm, bn, bk, tm, tn, lanes_m, warps_m, warps_n, (load width, set per entry), min blocks
// per SM, split-K, copy groups, cp.async for an m-contiguous A}.
void register_double_buffer(Registry& r) {
  using namespace kernels;
  constexpr auto with_split_k = [](TilemmDoubleBufferConfig c) {
    c.split_k = true;
    return c;
  };
  constexpr TilemmDoubleBufferConfig kBk8{128, 128, 8, 8, 8, 8, 2, 4, true, 2};
  register_double_buffer_config<kBk8>(r, 1.23, 1.10);
  r.add(make_double_buffer_entry<kBk8, true>(1.23));
  register_double_buffer_config<with_split_k(kBk8)>(r, 1.23, 1.10);
  // BK = 16 in two copy groups: its speed over the BK = 8 entry's in the same layout
  // (H200, 2048^3-8192^3, same runs; docs/ladder.md step 13). Its NN is 3% and 0.5%
  // slower than its NT and TN, so its `.repack` entry copies without transposing.
  constexpr TilemmDoubleBufferConfig kTwoGroups{128, 128, 16, 8, 8, 8, 2, 4, true, 2, false, 2};
  constexpr LayoutSpeeds kTwoGroupsSpeeds{0.99, 1.06, 1.035, 0.99};
  r.add(make_double_buffer_entry<kTwoGroups>(1.23, kTwoGroupsSpeeds));
  r.add(make_double_buffer_entry<kTwoGroups, true>(1.23, kTwoGroupsSpeeds));
  r.add(make_double_buffer_entry<with_split_k(kTwoGroups)>(1.23, kTwoGroupsSpeeds));
  // BK = 16 in one copy group with an m-contiguous A copied by cp.async two k-tiles ahead:
  // 0.5-1.2% faster than the BK = 8 entry in NN (H200, 2048^3-8192^3, three processes;
  // docs/ladder.md step 13), so `auto` takes it there for aligned operands; in the other
  // layouts the entries above stay ahead or tie (ties go to the earlier entry). No
  // `.repack` twin: on copied operands its estimate would turn TN into NN, which ran
  // slower than `.g2`'s TN.
  constexpr TilemmDoubleBufferConfig kAsyncA{128, 128, 16, 8, 8, 8, 2, 4, true, 2, false, 1, true};
  r.add(make_double_buffer_entry<kAsyncA>(1.23, LayoutSpeeds{1.007, 1.035, 1.005, 1.0}));
}

}  // namespace tilemm
