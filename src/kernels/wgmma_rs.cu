// Family "wgmma_rs": tf32 wgmma with the operand that is not K-major read from registers,
// so tf32 NN and TT run without the transposing pass of wgmma's `.repack` entry.
//
// Why: tf32 wgmma reads shared-memory operands K-major only, which in BLAS terms is TN.
// wgmma's `.repack` entry transposes any other operand into a workspace first: ~40 us of
// a 380 us product at 4096^3 (11%), 150 us per operand at 8192^3, twice for NT. Copying
// elements into the K-major layout inside the kernel with 4-byte cp.async ran at a
// quarter of the speed (docs/ladder.md, "gathering instead of transposing"): the copy
// engine must move whole boxes, and per-element copies are too many instructions.
// But wgmma's A operand may come from registers, and threads can load registers from a
// shared-memory tile in any layout. So this kernel puts the operand that is not K-major
// in wgmma's A slot:
//   D (rows x cols) = X (rows x k) * Y (k x cols),
//   X: the operand whose rows are contiguous ("rows-major"), loaded by the TMA in 32-row
//      boxes as stored and moved into registers by the consumers (4-byte shared loads);
//   Y: the K-major operand, read by wgmma from shared memory through a descriptor.
//   NN: X = A (m x k, m contiguous), Y = B (k x n):        D = C, rows along m.
//   TT: X = B (stored n x k, n contiguous), Y = A (k x m):  D = C^T, rows along n.
//   NT: X = A, Y = B stored n x k (n contiguous), which the TMA loads as stored and the
//       producer warpgroup's three idle warps transpose in shared memory (below); where
//       A has few rows (m <= 64, m < n), D = C^T instead, X = B and Y = A (stored m x k).
// TN has no rows-major X; the `.repack` entry transposes A first and runs it as NN.
//
// NT's Y, transposed in shared memory. The TMA loads Y per 32 of D's columns as one
// (32 columns, 32 k) box, columns contiguous, into exactly the 4 KB that wgmma reads as
// those columns K-major.
// Both are the 32 x 32 fp32 matrix under the same 128-byte swizzle,
//   swz(r, c) = 128 r + 16 ((c / 4) ^ (r mod 8)) + 4 (c mod 4),
// read as M[k][n] and wanted as M^T[n][k] (n: D's columns): each box is transposed in
// place, by 4 x 4 blocks (q, g) (q, g: 4-float chunks of n and k) that trade places with their mirror
// (g, q). A lane loads one block (4 loads of 16 bytes), the warp synchronizes, and the lane
// stores it transposed where the mirror was (4 stores), so each block pair lives in one
// warp. The eight lanes of a quarter warp take q = lane mod 8 and g = q + d (mod 8) for one
// d; the swizzle puts chunk q of row 4g + i at q ^ i ^ 4 (g mod 2), and q -> q ^ 4 (g mod 2)
// is a bijection for g = q + d, so each quarter warp's load or store touches eight different
// 16-byte bank groups (Nsight Compute agrees for the loads; for the stores it counts one
// conflict per five wavefronts, which this count does not explain). The producer
// warpgroup's three idle warps do it and signal each stage on its own barrier after a proxy
// fence; the consumers wait for it as well as for the TMA's.
// Measured on an H100 (docs/ladder.md, step 28, "NT transposed in shared memory"): where
// the product is compute-bound NT runs at about half of NN's rate (4096^3: 0.67 against
// 0.35 ms), whether Y comes in eight copies or one and one block or three are in flight
// per lane; the transposes add twice Y's bytes to a shared memory that NN already keeps
// busy. So `auto` keeps the `.repack` entry's pass over B (NT 4096^3: 0.39 ms with it) for
// large NT products and takes these entries, with their split-K and 64-column tiles, for
// products with few tiles, where the pass was most of the time (16 x 4096 x 4096 NT: 35 us
// against 131).
//
// Block: 128 rows x 256 columns of D, 32 k per stage (one 128-byte swizzled row of fp32);
// a producer warpgroup (one thread issues the TMA copies; 40 registers, 48 for NT) and two consumer
// warpgroups, each 64 rows x 256 columns: one wgmma.m64n256k8 per 8 k, 128 fp32
// accumulators per thread. Per stage the ring holds X (128 rows x 32 k, 16 KB, four
// 32 x 32 boxes) and Y (256 columns x 32 k, 32 KB): 48 KB for 2 * 128 * 256 * 32 FLOP,
// 43 FLOP/B like wgmma's 256 x 128 tf32 tile. The 128 x 64 entry (m64n64k8, 8 stages of
// 24 KB) is for products whose D has few columns.
//
// Register loads, per thread and 8-k slice: 4 loads of 4 bytes (two rows, two k). The
// warpgroup's row slots need not be the tile's rows in order: any permutation works if
// the epilogue writes each accumulator row where its X row came from. The one used here
// (x_slot_row) gives the 8 lanes with the same k two 16-byte chunks from different
// halves of the 128-byte row, which the swizzle (chunk ^ k mod 8) then keeps apart for
// the 4 k of one load: every load instruction touches 32 different banks. Slot rows in
// order would give two lanes per bank.
//
// Pipelining: the registers a wgmma reads may not change until wgmma.wait_group has seen
// it complete. Each slice is its own wgmma group, the slices alternate between two sets
// of 4 registers, and the consumer waits for all but the last group before it reloads a
// set: one wgmma runs while the next slice's registers are loaded. (A whole stage of
// registers in flight would not fit: ptxas allocates for the 168 registers that 384
// threads have at launch, and 128 of them are accumulators.)
//
// Epilogue: through swizzled shared memory and TMA stores, 32 C columns by 128 bytes of
// m per box, two boxes per round (the consumer's two 32-row halves), alternating between
// two pairs of boxes so that a round never waits for the store it has just issued. C the
// TMA cannot write (odd ldc, m not a multiple of 4) is copied out of the same boxes by the
// warpgroup.
//
// `.splitk`: for products with few tiles (16 x 4096 x 11008 NN is 16 tiles on 132 SMs), k
// is cut into slices, each (tile, slice) pair a work item whose unscaled fp32 partial
// product leaves through the staging boxes (copied out by the warpgroup) into a workspace;
// a second kernel sums the slices in a fixed order and applies alpha and beta.
//
// Requirements: compute capability 9.0 exactly (sm_90a code), fp32 A, B, C with tf32
// arithmetic, op NN, TT or NT, A and B 16-byte aligned with lda, ldb and batch strides
// multiples of 4 elements (TMA); any m, n, k, batch. The `.repack` entry takes any op and
// leading dimension.
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/gemm_common.cuh"
#include "kernels/mma_sync_layout.cuh"
#include "kernels/repack.hpp"
#include "kernels/split_k_reduce.hpp"
#include "kernels/wgmma_common.cuh"
#include "kernels/workspace.hpp"
#include "ptx/cluster.cuh"
#include "ptx/cp_async.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace types for nvcc 13.
struct TilemmWgmmaRsConfig {
  int cols;      // columns of D per block: wgmma N (64, 128 or 256)
  int stages;    // shared-memory ring depth
  bool split_k;  // k split into slices summed by a second kernel (few-tile problems)

  static constexpr int kRows = 128;  // rows of D per block: 64 per consumer warpgroup (wgmma M)
  static constexpr int kBk = 32;     // k per stage: one 128-byte swizzle row of fp32
  static constexpr int kSliceK = 8;  // k per wgmma (m64nNk8)
  static constexpr int kConsumers = kRows / 64;
  static constexpr int kThreads = 128 * (1 + kConsumers);
  // The producer warpgroup's registers: 40 for the thread that issues the copies; 48 where
  // its other warps transpose NT's Y (at 40 ptxas spilled the loop's state beside a 4 x 4
  // block). The consumers take what is left, 224 or 232, more than the 168 of the launch
  // that ptxas allocates their code for.
  static constexpr int producer_registers(bool transpose_y) { return transpose_y ? 48 : 40; }
  static constexpr int consumer_registers(bool transpose_y) {
    return tilemm::kernels::consumer_registers_after_producer(kThreads, producer_registers(transpose_y),
                                                              128 * kConsumers);
  }
  static constexpr int kBoxRows = 32;                    // X rows per TMA box: 128 bytes
  static constexpr int kBoxBytes = kBoxRows * kBk * 4;   // (32 rows, 32 k) rows-major: 4 KB
  static constexpr int kXTileBytes = kRows * kBk * 4;    // four boxes
  consteval int y_tile_bytes() const { return cols * kBk * 4; }  // (cols, 32 k) K-major
  consteval int stage_bytes() const { return kXTileBytes + y_tile_bytes(); }
  // Epilogue staging: per consumer two pairs of (32 C columns x 128 bytes) boxes.
  static constexpr int kStagingBoxBytes = 32 * 128;
  static constexpr int kStagingBytes = kConsumers * 4 * kStagingBoxBytes;
  // The ring (1024-byte aligned for the swizzle), a 1 KB block for the 2 barriers per
  // stage (so the staging after it stays 1024-aligned), the staging, and 1 KB of slack to
  // align the ring (dynamic shared memory is only guaranteed 16-byte alignment).
  consteval std::int64_t smem_bytes() const {
    return std::int64_t(stages) * stage_bytes() + 1024 + kStagingBytes + 1024;
  }
  // Three barriers per stage: the TMA's, the consumers' release, NT's transposed Y.
  consteval bool valid() const {
    return (cols == 64 || cols == 128 || cols == 256) && stages >= 2 && stages <= 8 && 24 * stages <= 1024 &&
           consumer_registers(true) >= 168;
  }
};

namespace tilemm::kernels {

struct WgmmaRsParams {
  std::int64_t m, n;  // of C
  float alpha, beta;
  float* C;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
  std::int64_t tiles_r, tiles_c;  // tiles of D along its rows and columns
  int k_blocks;
  // Work items are (tile, k-slice) pairs, the slices of a tile adjacent; 1 slice of all
  // k_blocks without split-K. With split-K, C is the fp32 workspace of the slices'
  // partial products (ld m, slice s at batch position s) and alpha = 1, beta = 0.
  int slices, k_blocks_per_slice;
  bool tma_store;                 // C can be written by the TMA
  bool x_broadcast, y_broadcast;  // batch stride 0: every batch reads batch 0
  // The bytes the TMA delivers per stage: X's tile and Y's box. K-major Y's box is the tile's
  // kCfg.cols columns, or only D's columns (rounded up to 8) where D has fewer: a box that
  // crosses the matrix's edge slowed the whole k-loop by ~1.5x (see edge_box_columns).
  unsigned stage_tx_bytes;
};

struct WgmmaRsItem {
  std::int64_t tile;
  int slice, kb_begin, kb_end;
};

template <TilemmWgmmaRsConfig kCfg>
__device__ __forceinline__ WgmmaRsItem wgmma_rs_item(const WgmmaRsParams& p, std::int64_t item) {
  if constexpr (kCfg.split_k) {
    const int slice = int(item % p.slices), kb_begin = slice * p.k_blocks_per_slice;
    return {item / p.slices, slice, kb_begin, min(p.k_blocks, kb_begin + p.k_blocks_per_slice)};
  } else {
    return {item, 0, 0, p.k_blocks};
  }
}

// The row of the consumer's 64 that warp w's lane group g holds in its register slot h
// (wgmma row 16w + g + 8h): 32-row box w / 2, then within the box 16 (g / 4) + 4 p +
// g % 4 with p = 2 (w % 2) + h. A load instruction's lanes with equal t read rows
// 4p .. 4p + 3 and 16 + 4p .. 16 + 4p + 3 of a box: 16-byte chunks p and 4 + p.
__device__ __forceinline__ int x_slot_row(int w, int g, int h) {
  return 32 * (w / 2) + 16 * (g / 4) + 4 * (2 * (w % 2) + h) + g % 4;
}

// Byte offset, within a consumer's two boxes of one stage, of the element a thread loads
// into a[i] for the first 8-k slice (the slice s is 1024 s bytes further: 8 k rows).
// Rows-major box: k row kk (128 bytes) holds 32 rows, 16-byte chunk q at q ^ (kk mod 8).
__device__ __forceinline__ unsigned x_fragment_offset(int w, int g, int t, int i) {
  const int row = x_slot_row(w, g, i & 1);
  const int kk = t + 4 * (i >> 1);
  const int in_box = row % 32;
  return unsigned((row / 32) * TilemmWgmmaRsConfig::kBoxBytes + kk * 128 + (((in_box / 4) ^ kk) * 16) +
                  (in_box % 4) * 4);
}

// One round of the epilogue: D columns [32 round, 32 round + 32) of the consumer's 64
// rows, scaled by alpha (plus beta C), into its two staging boxes (box b holds rows
// [32 b, 32 b + 32)), each box 32 C columns by 32 floats along m, 128-byte swizzle.
// kRowsAlongM (NN): D row = C row, so box row = D column, and each accumulator goes alone;
// otherwise (TT) D row = C column: box row = D row, and the accumulator pairs (adjacent
// D columns) are adjacent along m: one 8-byte write.
template <bool kRowsAlongM, int kAcc>
__device__ __forceinline__ void wgmma_rs_fill_boxes(const WgmmaRsParams& p, const float* C, char* pair_ptr,
                                                    std::int64_t r0, std::int64_t c0, int round, int w, int g,
                                                    int t, const float (&acc)[kAcc]) {
  const auto fill = [&]<bool kReadC>() {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = x_slot_row(w, g, h);
      char* const box = pair_ptr + (row / 32) * TilemmWgmmaRsConfig::kStagingBoxBytes;
      const int in_box = row % 32;
      // beta != 0: the row's C elements are all loaded, predicated, before any is used,
      // so that their latencies overlap (see wgmma_store_through_staging in wgmma.cu).
      [[maybe_unused]] float c_old[4][2];
      if constexpr (kReadC) {
#pragma unroll
        for (int jj = 0; jj < 4; ++jj) {
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const std::int64_t d_row = r0 + row, d_col = c0 + 32 * round + 8 * jj + 2 * t + e;
            const std::int64_t cm = kRowsAlongM ? d_row : d_col, cn = kRowsAlongM ? d_col : d_row;
            c_old[jj][e] = cm < p.m && cn < p.n ? C[cm + cn * p.ldc] : 0.0f;
          }
        }
      }
#pragma unroll
      for (int jj = 0; jj < 4; ++jj) {
        const int j = 4 * round + jj;
        const int col = 8 * jj + 2 * t;  // within the round's 32 columns
        float v[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          v[e] = p.alpha * acc[4 * j + 2 * h + e];
          if constexpr (kReadC) v[e] += p.beta * c_old[jj][e];
        }
        if constexpr (kRowsAlongM) {
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const int box_row = col + e, byte = in_box * 4;
            *reinterpret_cast<float*>(box + box_row * 128 + (((byte / 16) ^ (box_row % 8)) * 16) + byte % 16) = v[e];
          }
        } else {
          const int byte = col * 4;
          *reinterpret_cast<float2*>(box + in_box * 128 + (((byte / 16) ^ (in_box % 8)) * 16) + byte % 16) =
              make_float2(v[0], v[1]);
        }
      }
    }
  };
  // beta = 0 (C never read) decided once per round, not per element (see wgmma.cu).
  if (p.beta == 0.0f) {
    fill.template operator()<false>();
  } else {
    fill.template operator()<true>();
  }
}

// NT's Y tile of kBoxes (32 n, 32 k) boxes transposed in place to K-major (see the top of
// the file) by the producer warpgroup's warps 1-3 (warp 0..2 here). A warp takes half a
// box at a time: four sets of eight blocks closed under (q, g) -> (g, q), g - q = 0, 1, 7,
// 4 or 2, 6, 3, 5 (mod 8), one set per quarter warp with q = lane mod 8. Each lane loads
// its block, the warp synchronizes, and each lane stores its block transposed where the
// mirror block was.
template <int kBoxes>
__device__ __forceinline__ void transpose_y_in_place(char* y, int warp, int lane) {
  constexpr int kHalves = 2 * kBoxes, kWarps = 3;
  const int q = lane % 8, quarter = lane / 8;
  const auto chunk = [](int row, int col_chunk) { return 128 * row + 16 * (col_chunk ^ (row % 8)); };
  for (int half = warp; half < kHalves; half += kWarps) {
    // g - q for this quarter: {0, 1, 7, 4} in the first half of a box, {2, 6, 3, 5} in the second.
    const int d = (half % 2 == 0 ? 0x4710 : 0x5362) >> (4 * quarter) & 0xf;
    const int g = (q + d) % 8;
    char* const m = y + (half / 2) * 4096;
    uint4 a[4];  // a[i]: row 4g + i, columns 4q .. 4q + 3
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = *reinterpret_cast<const uint4*>(m + chunk(4 * g + i, q));
    __syncwarp();
    // Row 4q + j of the transpose, columns 4g .. 4g + 3: column j of the block.
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const auto pick = [j](const uint4& r) { return j == 0 ? r.x : j == 1 ? r.y : j == 2 ? r.z : r.w; };
      *reinterpret_cast<uint4*>(m + chunk(4 * q + j, g)) = make_uint4(pick(a[0]), pick(a[1]), pick(a[2]), pick(a[3]));
    }
  }
}

template <TilemmWgmmaRsConfig kCfg, bool kRowsAlongM, bool kTransposeY>
__global__ void __launch_bounds__(TilemmWgmmaRsConfig::kThreads, 1)
    wgmma_rs_gemm(const __grid_constant__ CUtensorMap map_x, const __grid_constant__ CUtensorMap map_y,
                  const __grid_constant__ CUtensorMap map_c, WgmmaRsParams p) {
  static_assert(kCfg.valid());
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Cfg = TilemmWgmmaRsConfig;
  constexpr int S = kCfg.stages;
  extern __shared__ uint4 wgmma_rs_smem[];
  char* const smem = reinterpret_cast<char*>(wgmma_rs_smem);
  const unsigned raw = ptx::shared_address(wgmma_rs_smem);
  const unsigned ring = (raw + 1023u) & ~1023u;
  const unsigned barriers = ring + unsigned(S * kCfg.stage_bytes());
  const unsigned staging = barriers + 1024u;
  const auto full_bar = [&](int s) { return barriers + 8u * unsigned(s); };
  const auto empty_bar = [&](int s) { return barriers + 8u * unsigned(S + s); };
  const auto transposed_bar = [&](int s) { return barriers + 8u * unsigned(2 * S + s); };
  const auto x_tile = [&](int s) { return ring + unsigned(s * kCfg.stage_bytes()); };
  const auto y_tile = [&](int s) { return x_tile(s) + unsigned(Cfg::kXTileBytes); };

  const int warpgroup = threadIdx.x / 128;
  const std::int64_t items = p.tiles_r * p.tiles_c * p.batch * p.slices;
  if (threadIdx.x == 0) {
    ptx::prefetch_tensormap(&map_x);
    ptx::prefetch_tensormap(&map_y);
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init_shared_b64(full_bar(s), 1);                   // the producer's expect_tx
      ptx::mbarrier_init_shared_b64(empty_bar(s), 4 * Cfg::kConsumers);  // one per consumer warp
      if constexpr (kTransposeY) ptx::mbarrier_init_shared_b64(transposed_bar(s), 3);  // one per transposing warp
    }
    ptx::fence_mbarrier_init_release_cluster();
  }
  __syncthreads();

  if (warpgroup == 0) {
    // Producer: one thread issues every copy; the rest of the warpgroup idles, or for NT
    // transposes Y.
    ptx::setmaxnreg_dec_sync_aligned_u32<Cfg::producer_registers(kTransposeY)>();
    RingPosition<S> pos;
    for (std::int64_t item = blockIdx.x; threadIdx.x == 0 && item < items; item += gridDim.x) {
      const WgmmaRsItem work = wgmma_rs_item<kCfg>(p, item);
      const WgmmaTile tile = wgmma_tile_coordinates(work.tile, p.tiles_r, p.tiles_c);
      const int r0 = int(tile.tm) * Cfg::kRows, c0 = int(tile.tn) * kCfg.cols;
      const int zx = p.x_broadcast ? 0 : int(tile.batch), zy = p.y_broadcast ? 0 : int(tile.batch);
      for (int kb = work.kb_begin; kb < work.kb_end; ++kb) {
        const int k0 = k_block_in_round_order(kb, work.kb_begin, work.kb_end, item / gridDim.x) * Cfg::kBk;
        ptx::mbarrier_wait_parity_shared_b64(empty_bar(pos.stage), pos.phase ^ 1u);
        ptx::mbarrier_arrive_expect_tx_shared_b64(full_bar(pos.stage), p.stage_tx_bytes);
        // X stored rows x k (rows contiguous): four (32 rows, 32 k) boxes.
#pragma unroll
        for (int b = 0; b < Cfg::kRows / Cfg::kBoxRows; ++b)
          ptx::cp_async_bulk_tensor_3d_global_to_shared(x_tile(pos.stage) + b * Cfg::kBoxBytes, &map_x,
                                                        r0 + b * Cfg::kBoxRows, k0, zx, full_bar(pos.stage));
        if constexpr (kTransposeY) {
          // Y stored cols x k (cols contiguous): one (32 cols, 32 k) box per 32 columns.
#pragma unroll
          for (int b = 0; b < kCfg.cols / 32; ++b)
            ptx::cp_async_bulk_tensor_3d_global_to_shared(y_tile(pos.stage) + b * 4096, &map_y, c0 + 32 * b, k0, zy,
                                                          full_bar(pos.stage));
        } else {
          // Y stored k x cols (K-major): one (32 k, kCfg.cols or fewer columns) box. Columns of
          // the tile past the box keep what an earlier stage left there; they feed only
          // accumulator columns past D's, which are never stored.
          ptx::cp_async_bulk_tensor_3d_global_to_shared(y_tile(pos.stage), &map_y, k0, c0, zy, full_bar(pos.stage));
        }
        pos.advance();
      }
    }
    if constexpr (kTransposeY) {
      // Warps 1-3 transpose every stage's Y once it has landed, in the consumers' order: as
      // many stages as this block's work items have k-blocks (counted first, so that the
      // loop keeps few registers beside the block in flight).
      int stages_to_transpose = 0;
      for (std::int64_t item = blockIdx.x; threadIdx.x >= 32 && item < items; item += gridDim.x) {
        const WgmmaRsItem work = wgmma_rs_item<kCfg>(p, item);
        stages_to_transpose += work.kb_end - work.kb_begin;
      }
      RingPosition<S> tpos;
      for (int n = 0; n < stages_to_transpose; ++n) {
        ptx::mbarrier_wait_parity_shared_b64(full_bar(tpos.stage), tpos.phase);
        transpose_y_in_place<kCfg.cols / 32>(smem + (y_tile(tpos.stage) - raw), int(threadIdx.x) / 32 - 1,
                                              int(threadIdx.x) % 32);
        // wgmma reads through the async proxy what these generic stores wrote.
        ptx::fence_proxy_async_shared_cta();
        __syncwarp();
        if (threadIdx.x % 32 == 0) ptx::mbarrier_arrive_shared_b64(transposed_bar(tpos.stage));
        tpos.advance();
      }
    }
  } else {
    // Consumers: warpgroup c computes rows [64c, 64c + 64) of the block's 128.
    ptx::setmaxnreg_inc_sync_aligned_u32<Cfg::consumer_registers(kTransposeY)>();
    const int c = warpgroup - 1;
    const int lane = threadIdx.x % 32, w = (threadIdx.x % 128) / 32;
    const int g = lane / 4, t = lane % 4;
    const bool elected = threadIdx.x % 128 == 0;
    const unsigned barrier_id = unsigned(1 + c);
    // This consumer's two X boxes within a stage, and its thread's four load offsets.
    const unsigned x_mine = unsigned(c * 2 * Cfg::kBoxBytes);
    unsigned x_offset[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) x_offset[i] = x_mine + x_fragment_offset(w, g, t, i);
    const unsigned my_staging = staging + unsigned(c * 4 * Cfg::kStagingBoxBytes);
    char* const my_staging_ptr = smem + (my_staging - raw);
    RingPosition<S> pos;
    for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
      // 32-bit coordinates (can_implement keeps them below 2^31): fewer registers stay live
      // beside the 128 accumulators.
      const WgmmaRsItem work = wgmma_rs_item<kCfg>(p, item);
      const WgmmaTile tile = wgmma_tile_coordinates(work.tile, p.tiles_r, p.tiles_c);
      const int tile_r0 = int(tile.tm) * Cfg::kRows + 64 * c, tile_c0 = int(tile.tn) * kCfg.cols;
      // The product's batch, or with split-K the slice's partial product.
      const int batch = kCfg.split_k ? work.slice : int(tile.batch);
      const int kb_begin = work.kb_begin, kb_end = work.kb_end;
      float acc[kCfg.cols / 2];
#pragma unroll
      for (int j = 0; j < kCfg.cols / 2; ++j) acc[j] = 0.0f;
      unsigned a[2][4];
      int previous = -1;
      for (int kb = kb_begin; kb < kb_end; ++kb) {
        ptx::mbarrier_wait_parity_shared_b64(full_bar(pos.stage), pos.phase);
        if constexpr (kTransposeY) ptx::mbarrier_wait_parity_shared_b64(transposed_bar(pos.stage), pos.phase);
        const char* const x_stage = smem + (x_tile(pos.stage) - raw);
#pragma unroll
        for (int s = 0; s < Cfg::kBk / Cfg::kSliceK; ++s) {
          // All but the last wgmma done: the set about to be loaded is free again, and
          // at s = 1 the previous k-block's last slice is done, so its stage may refill.
          ptx::wgmma_wait_group_sync_aligned<1>();
          if (s == 1 && previous >= 0 && lane == 0) ptx::mbarrier_arrive_shared_b64(empty_bar(previous));
          unsigned(&set)[4] = a[s % 2];
#pragma unroll
          for (int i = 0; i < 4; ++i) set[i] = *reinterpret_cast<const unsigned*>(x_stage + x_offset[i] + 1024 * s);
          ptx::wgmma_fence_sync_aligned();
          const std::uint64_t dy = ptx::wgmma_descriptor_swizzle128(y_tile(pos.stage) + 32 * s, 16, 1024);
          ptx::wgmma_mma_async_m64nNk8_f32_tf32_rs<kCfg.cols>(acc, set, dy);
          ptx::wgmma_commit_group_sync_aligned();
        }
        previous = pos.stage;
        pos.advance();
      }
      ptx::wgmma_wait_group_sync_aligned<0>();
      if (previous >= 0 && lane == 0) ptx::mbarrier_arrive_shared_b64(empty_bar(previous));

      // Epilogue: 8 rounds of 32 D columns, pairs of staging boxes alternating.
      const std::int64_t r0 = tile_r0, c0 = tile_c0;
      float* const C = p.C + batch * p.stride_c;
#pragma unroll
      for (int round = 0; round < kCfg.cols / 32; ++round) {
        const int pair = round % 2;
        char* const pair_ptr = my_staging_ptr + pair * 2 * Cfg::kStagingBoxBytes;
        // The stores issued from this pair two rounds ago have read it.
        if (p.tma_store && elected) ptx::cp_async_bulk_wait_group_read<1>();
        ptx::named_barrier_sync(barrier_id, 128);
        wgmma_rs_fill_boxes<kRowsAlongM>(p, C, pair_ptr, r0, c0, round, w, g, t, acc);
        const std::int64_t round_c0 = c0 + 32 * round;
        if (!p.tma_store) {
          // The next round's (or tile's) barrier keeps later writes behind these reads.
          ptx::named_barrier_sync(barrier_id, 128);
#pragma unroll
          for (int b = 0; b < 2; ++b) {
            const std::int64_t box_m0 = kRowsAlongM ? r0 + 32 * b : round_c0;
            const std::int64_t box_n0 = kRowsAlongM ? round_c0 : r0 + 32 * b;
            wgmma_copy_box_out<32>(p.m, p.n, p.ldc, pair_ptr + b * Cfg::kStagingBoxBytes, C, box_m0, box_n0, w,
                                   lane);
          }
          continue;
        }
        ptx::fence_proxy_async_shared_cta();
        ptx::named_barrier_sync(barrier_id, 128);
        if (elected) {
#pragma unroll
          for (int b = 0; b < 2; ++b) {
            const std::int64_t box_m0 = kRowsAlongM ? r0 + 32 * b : round_c0;
            const std::int64_t box_n0 = kRowsAlongM ? round_c0 : r0 + 32 * b;
            ptx::cp_async_bulk_tensor_3d_shared_to_global(
                &map_c, int(box_m0), int(box_n0), batch,
                my_staging + unsigned((pair * 2 + b) * Cfg::kStagingBoxBytes));
          }
          ptx::cp_async_bulk_commit_group();
        }
      }
    }
    // The last stores must have read the staging before the block's shared memory goes
    // away (and written C before the kernel counts as done).
    if (p.tma_store && elected) ptx::cp_async_bulk_wait_group<0>();
  }
#else
  (void)map_x;
  (void)map_y;
  (void)map_c;
  (void)p;
#endif
}

// ---- host side ----

// NN and TT: Y is K-major as stored. NT: Y is transposed in shared memory. TN: no operand
// is rows-major.
inline bool reads_in_place(const GemmProblem& p) { return !(p.opa == Op::T && p.opb == Op::N); }
inline bool transposes_y(const GemmProblem& p) { return p.opa == Op::N && p.opb == Op::T; }

// D's extents: its rows run along m for NN (and TN, which runs as NN once repacked) and
// along n for TT, where D = C^T. NT may run either way, both operands being rows-major:
// along m (X = A, B transposed in shared memory) or along n (D = C^T, X = B, A transposed).
// Along n where A has at most 64 rows (and fewer than B): then a 128-row tile along m would
// be mostly empty, and along n the few rows lie across the 64-column tile. Measured on an
// H100 (docs/ladder.md, step 28): 16 x 4096 x 4096 NT 35.1 us along n against 44.1 along
// m, 16 x 11008 x 4096 73.4 against 88.2; but 128 x 11008 x 4096 132 against 92.9, where
// along n streams the large B through the register-fed X (as TT 128 x 14336 x 4096 does).
struct WgmmaRsExtents {
  bool rows_along_m;
  std::int64_t rows, cols;
};
inline WgmmaRsExtents wgmma_rs_extents(const GemmProblem& p) {
  const bool along_m = p.opa == Op::T ? p.opb == Op::N : p.opb == Op::N || p.m > 64 || p.m >= p.n;
  return {along_m, along_m ? p.m : p.n, along_m ? p.n : p.m};
}

template <TilemmWgmmaRsConfig kCfg, bool kRepack>
std::string wgmma_rs_can_implement(const GemmProblem& p, const DeviceInfo& dev) {
  std::string r = require_tensor_core_types<TilemmMmaInput::TF32>(p);
  if (r.empty()) r = tma_requirements(p, dev, kCfg.smem_bytes(), 4, kRepack);
  if (!r.empty()) return r;
  if (kCfg.split_k && p.batch > 1) return "split-K computes one product per call (batchCount = 1)";
  if (!kRepack && !reads_in_place(p)) {
    return "reads NN, TT and NT (one operand rows-major, from registers; TN, where neither is: the .repack entry)";
  }
  return {};
}

template <TilemmWgmmaRsConfig kCfg>
cudaError_t launch_wgmma_rs(const GemmProblem& prob, cudaStream_t stream) {
  using Cfg = TilemmWgmmaRsConfig;
  if (!reads_in_place(prob)) return cudaErrorInvalidValue;
  const auto [rows_along_m, rows, cols] = wgmma_rs_extents(prob);
  const bool transpose_y = transposes_y(prob);
  // X: the rows-major operand (A for NN, B stored n x k for TT, either for NT); Y: the other
  // one, K-major (NN, TT) or stored cols x k (NT).
  const void* const x = rows_along_m ? prob.A : prob.B;
  const void* const y = rows_along_m ? prob.B : prob.A;
  const std::int64_t ldx = rows_along_m ? prob.lda : prob.ldb, ldy = rows_along_m ? prob.ldb : prob.lda;
  const std::int64_t sx = rows_along_m ? prob.stride_a : prob.stride_b;
  const std::int64_t sy = rows_along_m ? prob.stride_b : prob.stride_a;
  CUtensorMap map_x, map_y, map_c;
  // K-major Y's box: where D has one column of tiles, only D's columns (edge_box_columns).
  // The 256-column tile ran tf32 14336 x n x 4096 NN in 137.6-139.8 us for n = 64 and 128,
  // whose boxes were half or more outside B, and in 93.1 us for n = 256 (H100).
  const int y_box_cols = edge_box_columns(cols, kCfg.cols);
  if (!encode_operand_map(&map_x, DType::F32, x, rows, prob.k, ldx, prob.batch, sx, Cfg::kBk) ||
      !(transpose_y ? encode_operand_map(&map_y, DType::F32, y, cols, prob.k, ldy, prob.batch, sy, Cfg::kBk)
                    : encode_operand_map(&map_y, DType::F32, y, prob.k, cols, ldy, prob.batch, sy, y_box_cols))) {
    return cudaErrorInvalidValue;
  }
  WgmmaRsParams params{};
  params.stage_tx_bytes = transpose_y ? unsigned(kCfg.stage_bytes())
                                      : unsigned(Cfg::kXTileBytes + y_box_cols * Cfg::kBk * 4);
  params.m = prob.m;
  params.n = prob.n;
  params.tiles_r = (rows + Cfg::kRows - 1) / Cfg::kRows;
  params.tiles_c = (cols + kCfg.cols - 1) / kCfg.cols;
  params.k_blocks = int((prob.k + Cfg::kBk - 1) / Cfg::kBk);
  params.slices = 1;
  params.k_blocks_per_slice = params.k_blocks;
  params.x_broadcast = prob.batch <= 1 || sx == 0;
  params.y_broadcast = prob.batch <= 1 || sy == 0;
  const std::int64_t tiles = params.tiles_r * params.tiles_c * prob.batch;
  // Where the epilogue writes: C itself, or with split-K the slices' fp32 partial products
  // (ld m, slice s as output batch s, unscaled: launch_split_k_reduce applies alpha and
  // beta once they are summed).
  params.alpha = static_cast<float>(prob.alpha);
  params.beta = static_cast<float>(prob.beta);
  params.C = static_cast<float*>(prob.C);
  params.ldc = prob.ldc;
  params.stride_c = prob.stride_c;
  params.batch = prob.batch;
  StreamWorkspace workspace(stream);
  if constexpr (kCfg.split_k) {
    const int wanted = split_k_slices(tiles, device_sm_count(), params.k_blocks, 4, 16);
    params.k_blocks_per_slice = std::max(1, (params.k_blocks + wanted - 1) / wanted);
    params.slices = std::max(1, (params.k_blocks + params.k_blocks_per_slice - 1) / params.k_blocks_per_slice);
    const cudaError_t err = workspace.allocate(std::size_t(params.slices) * std::size_t(prob.m * prob.n) * 4);
    if (err != cudaSuccess) return err;
    params.C = workspace.at<float>();
    params.ldc = prob.m;
    params.stride_c = prob.m * prob.n;
    params.alpha = 1.0f;
    params.beta = 0.0f;
  }
  // As in wgmma.cu: TMA stores need 16-byte columns (a store clips at a column's end only
  // to 16 bytes); otherwise the consumers copy the boxes out. Split-K's slices are always
  // copied out by the threads: compute-sanitizer's initcheck does not count TMA stores
  // as initializing global memory, and reported every read of TMA-written slices by the
  // summing kernel (65k reports on the small test subset, H200, CUDA 13.0).
  params.tma_store = !kCfg.split_k && columns_aligned16(prob.C, prob.ldc, prob.stride_c, prob.batch, 4) &&
                     prob.m % 4 == 0 &&
                     encode_operand_map(&map_c, DType::F32, prob.C, prob.m, prob.n, prob.ldc, prob.batch,
                                        prob.stride_c, 32, false);
  if (!params.tma_store) map_c = map_y;  // unused
  const auto launch = [&]<bool kRowsAlongM, bool kTransposeY>() {
    constexpr auto kernel = wgmma_rs_gemm<kCfg, kRowsAlongM, kTransposeY>;
    const cudaError_t opted = opt_in_dynamic_smem<kernel>(kCfg.smem_bytes());
    if (opted != cudaSuccess) return opted;
    // Persistent: at most one block per SM (the shared memory allows no second), the fewest
    // that finish in the same rounds (persistent_grid_size), work items in
    // wgmma_tile_coordinates' L2-friendly order.
    const std::int64_t blocks = persistent_grid_size(tiles * params.slices, device_sm_count());
    kernel<<<unsigned(blocks), Cfg::kThreads, kCfg.smem_bytes(), stream>>>(map_x, map_y, map_c, params);
    return cudaGetLastError();
  };
  cudaError_t launched = transpose_y ? (rows_along_m ? launch.template operator()<true, true>()
                                                     : launch.template operator()<false, true>())
                         : rows_along_m ? launch.template operator()<true, false>()
                                        : launch.template operator()<false, false>();
  if constexpr (kCfg.split_k) {
    if (launched == cudaSuccess) launched = launch_split_k_reduce(prob, params.C, params.slices, stream);
  }
  return workspace.finish(launched);
}

// NT and TN: one operand transposed into the workspace makes the product NN (for NT a pass
// over B instead of the in-place kernel's transposes in shared memory, which cost more
// where the product is compute-bound); odd leading dimensions are copied aligned
// (repack.hpp). NN and TT run as they are where aligned.
inline AlignedOperandsPlan wgmma_rs_repack_plan(const GemmProblem& prob) {
  return plan_aligned_operands(prob, 4, !reads_in_place(prob), transposes_y(prob));  // TN: A; NT: B
}

template <TilemmWgmmaRsConfig kCfg>
cudaError_t launch_wgmma_rs_repacked(const GemmProblem& prob, cudaStream_t stream) {
  const AlignedOperandsPlan plan = wgmma_rs_repack_plan(prob);
  return launch_with_aligned_operands(prob, 4, plan.a.transpose, plan.b.transpose, stream,
                                      [stream](const GemmProblem& q) { return launch_wgmma_rs<kCfg>(q, stream); });
}

// auto's estimate for the in-place entries, which compete with each other on the shapes
// where tile width and split-K decide (a product with one small dimension, or few tiles):
// the share of the GPU's tf32 rate (3.0 TFLOP/s per SM, the 256-column tile's measured
// 400 on the H200's 132) that the entry would deliver, from a time model:
//   main loop: waves of work items x one item's time at the entry's per-SM rate, against
//     reading A and B and writing C once at 3.0 TB/s (the rate the H200's GEMM kernels
//     stream at, below the 4.2 of a copy): the longer of the two plus a quarter of the
//     shorter;
//   split-K: plus writing and reading back the fp32 slices and writing C, and 5 us for
//     the second kernel and the workspace.
// Measured on the H200 (docs/ladder.md, step 28), a compute-only score (speed x waves x
// fill, as wgmma's entries use) chose the 256-column split-K entry at 1024^3 TT (23 us
// against 16 for the 64-column tile) and the 256-column tile at 128 x 14336 x 4096 TT (136
// against 90 us); this model picks the faster one on every shape of the tf32 standard
// suite (NN and TT) where the two differed by more than 10%.
template <TilemmWgmmaRsConfig kCfg>
double wgmma_rs_share_of_peak(const GemmProblem& p, const DeviceInfo& dev, double sm_flops_per_second) {
  using Cfg = TilemmWgmmaRsConfig;
  constexpr double kPeakSmFlopsPerSecond = 3.0e12, kBytesPerSecond = 3.0e12, kSplitKFixedSeconds = 5e-6;
  // The slices are written and read back while they sit in L2 (split-K runs only where tiles
  // are few, so slices x m x n floats stay far below its 60 MB): charged at twice DRAM's rate.
  constexpr double kSliceBytesPerSecond = 2.0 * kBytesPerSecond;
  const WgmmaRsExtents d = wgmma_rs_extents(p);
  const std::int64_t tiles = (d.rows + Cfg::kRows - 1) / Cfg::kRows * ((d.cols + kCfg.cols - 1) / kCfg.cols) * p.batch;
  const std::int64_t k_blocks = (p.k + Cfg::kBk - 1) / Cfg::kBk;
  const int slices = kCfg.split_k ? split_k_slices(tiles, dev.sm_count, k_blocks, 4, 16) : 1;
  const std::int64_t sms = std::max(1, dev.sm_count);
  const double waves = double((tiles * slices + sms - 1) / sms);
  const double item_seconds = 2.0 * Cfg::kRows * kCfg.cols * double(k_blocks * Cfg::kBk) / slices / sm_flops_per_second;
  const double mn = double(p.m) * double(p.n);
  const double operand_bytes = 4.0 * (double(d.rows + d.cols) * double(p.k) + mn) * double(p.batch);
  // The loads overlap the arithmetic, but not perfectly: a quarter of the shorter of the
  // two is charged on top of the longer (so of two memory-bound entries the one with less
  // arithmetic per byte still scores higher, as measured). Not for the 256-column tile where
  // D has one column of tiles, more than the 64-column tile's, and k is long (at least 128
  // k-blocks): tf32 14336 x n x 4096 NN ran in 88.2-92.8 us for n = 16-256 on an H100, the
  // longer of its 89.5 us of arithmetic and 78-80 us of loads, once its B box stopped
  // crossing B's edge; at n = 128 and k = 4096-11008 (NN and the TT twin) it beat the
  // 64-column tile by 1.01-1.38x (geometric mean 1.17x; H200 1.07x, four of twelve 1-6%
  // slower). With k = 1024, or D's columns within 64, the 64-column tile stayed as fast or
  // faster (docs/ladder.md, step 28, "Boxes across the edge"). Elsewhere the 0.25 keeps the
  // split-K and 64-column picks measured before.
  const double compute = waves * item_seconds, memory = operand_bytes / kBytesPerSecond;
  const bool overlapped = !kCfg.split_k && kCfg.cols == 256 && d.cols <= kCfg.cols && d.cols > 64 && k_blocks >= 128;
  double seconds = std::max(compute, memory) + (overlapped ? 0.0 : 0.25) * std::min(compute, memory);
  if (kCfg.split_k) seconds += 4.0 * (2.0 * slices + 1.0) * mn / kSliceBytesPerSecond + kSplitKFixedSeconds;
  return p.flops() / (seconds * kPeakSmFlopsPerSecond * double(sms));
}

// NT's main-loop rate against NN's, in place (Y transposed in shared memory). The 256-column
// tile: 0.513 at 4096^3 and 0.476 at 8192^3 (H100). The 64-column tile, whose NN k-loop is
// already bound by shared memory at about half the wide tile's rate, loses less: one wave
// of its NT tiles ran at ~0.9 TFLOP/s per SM against the 1.6 of NN (H100, 4096 x 128 x 4096,
// 75.4 us; H200, 8192 x 128 x 4096, 75.8 us).
constexpr double nt_rate_factor(int cols) { return cols == 64 ? 0.56 : 0.5; }

// sm_flops_per_second: the entry's main-loop rate per SM, measured on the H200 at 4096^3.
template <TilemmWgmmaRsConfig kCfg, bool kRepack>
KernelEntry make_wgmma_rs_entry(double sm_flops_per_second) {
  using Cfg = TilemmWgmmaRsConfig;
  KernelEntry e;
  e.name = "wgmma_rs.tf32." + std::to_string(Cfg::kRows) + "x" + std::to_string(kCfg.cols) + "x" +
           std::to_string(Cfg::kBk) + ".s" + std::to_string(kCfg.stages) + ".persistent.tmastore" +
           (kCfg.split_k ? ".splitk" : "") + (kRepack ? ".repack" : "");
  e.family = "wgmma_rs";
  e.ladder_step = 28;
  e.summary = std::string(
                  "Hopper tf32 wgmma with the operand that is not K-major loaded from TMA-filled shared memory into "
                  "registers (wgmma's A), the K-major one read by descriptor (NT: transposed in shared memory by the "
                  "producer's idle warps first); persistent, staged TMA-store epilogue") +
              (kCfg.split_k ? "; k split over the SMs when tiles are few (fp32 workspace, ordered sum)" : "") +
              (kRepack ? "; NT/TN: one operand transposed, odd ld repacked, into an aligned workspace" : "");
  e.dtypes = "tf32";
  e.min_compute_capability = 90;
  e.requirements = kRepack ? "compute capability 9.0 (sm_90a); A, B, C aligned to 4 bytes; a stream-ordered "
                             "workspace for NT/TN (one operand transposed) and odd leading dimensions"
                           : std::string("compute capability 9.0 (sm_90a); op NN, TT or NT; A and B 16-byte aligned, "
                                         "lda/ldb (and batch strides) multiples of 4 elements") +
                                 (kCfg.split_k ? "; batchCount = 1; a stream-ordered workspace for the slices" : "");
  e.arithmetic_intensity = double(Cfg::kRows) * kCfg.cols / (double(Cfg::kRows + kCfg.cols) * 2.0);
  e.auto_eligible = true;
  // 2300 + 100 x the share of peak where the TMA reads the operands in place (above
  // mma_sync; for large products it equals wgmma's speed x waves x fill). The repacking
  // entry scores as wgmma's `.repack` entries do, so the two compare: 2150 + 100 x speed x
  // waves x fill x the share of the time its copies leave to the product, except where
  // repacking_stands_aside.
  const double base = kRepack ? 2150.0 : 2300.0;
  e.auto_priority = int(base);
  e.auto_score = [sm_flops_per_second, base](const GemmProblem& p, const DeviceInfo& dev) {
    if constexpr (!kRepack) {
      // NT's transposes in shared memory halve the main loop's rate (they add twice Y's
      // bytes to a shared memory that NN already keeps busy), so NT scores on the `.repack`
      // scale, against the pass over B that the `.repack` entry pays instead.
      if (transposes_y(p)) {
        return 2150.0 + 100.0 * wgmma_rs_share_of_peak<kCfg>(p, dev, nt_rate_factor(kCfg.cols) * sm_flops_per_second);
      }
      return base + 100.0 * wgmma_rs_share_of_peak<kCfg>(p, dev, sm_flops_per_second);
    }
    if (repacking_stands_aside(p, 4, dev)) return 1990.0;
    GemmProblem run = p;  // NT and TN run as NN once one operand is transposed
    if (p.opa != p.opb) run.opa = run.opb = Op::N;
    const WgmmaRsExtents d = wgmma_rs_extents(run);
    const std::int64_t tiles_r = (d.rows + Cfg::kRows - 1) / Cfg::kRows;
    const std::int64_t tiles_c = (d.cols + kCfg.cols - 1) / kCfg.cols;
    const double fill = double(d.rows) / double(tiles_r * Cfg::kRows) * double(d.cols) / double(tiles_c * kCfg.cols);
    // NT and TN pay a transposing pass over B or A (NN and TT none: wgmma .repack pays it
    // there), and any ld the TMA cannot read a copy, charged by their time against the
    // product's (product_share_after_copies).
    const double relative_speed = sm_flops_per_second / 3.0e12;
    const double share = relative_speed * wave_efficiency(tiles_r * tiles_c * p.batch, dev.sm_count) * fill;
    const double product_seconds = p.flops() / (share * 3.0e12 * double(dev.sm_count));
    return base + 100.0 * share * product_share_after_copies(p, 4, wgmma_rs_repack_plan(p), product_seconds);
  };
  e.can_implement = wgmma_rs_can_implement<kCfg, kRepack>;
  e.launch = kRepack ? launch_wgmma_rs_repacked<kCfg> : launch_wgmma_rs<kCfg>;
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&wgmma_rs_gemm<kCfg, true, false>), Cfg::kThreads,
                           kCfg.smem_bytes()};
  };
  return e;
}

// {cols, stages, split_k}, with their main-loop rates per SM (H200, tf32 TT 4096^3: 408
// and 215 TFLOP/s on 132 SMs): the 256-column tile for everything large; 64 columns for
// products with one small dimension along D's columns (TT with small m, NN with small n),
// where a 256-wide wgmma computes mostly zeros, and for products with few tiles. It runs
// at about half the rate: per 8-k slice the register loads (2 KB per consumer) are as large
// as the Y operand, so shared memory, not the tensor cores, sets the pace.
constexpr TilemmWgmmaRsConfig kWgmmaRsWide = {256, 4, false};
constexpr TilemmWgmmaRsConfig kWgmmaRsNarrow = {64, 8, false};
constexpr TilemmWgmmaRsConfig kWgmmaRsWideSplitK = {256, 4, true};
constexpr TilemmWgmmaRsConfig kWgmmaRsNarrowSplitK = {64, 8, true};

}  // namespace tilemm::kernels

namespace tilemm {

void register_wgmma_rs(Registry& r) {
  using namespace kernels;
  constexpr double kWideRate = 3.0e12, kNarrowRate = 1.6e12;
  r.add(make_wgmma_rs_entry<kWgmmaRsWide, false>(kWideRate));
  r.add(make_wgmma_rs_entry<kWgmmaRsNarrow, false>(kNarrowRate));
  r.add(make_wgmma_rs_entry<kWgmmaRsWideSplitK, false>(kWideRate));
  r.add(make_wgmma_rs_entry<kWgmmaRsNarrowSplitK, false>(kNarrowRate));
  r.add(make_wgmma_rs_entry<kWgmmaRsWide, true>(kWideRate));
}

}  // namespace tilemm
