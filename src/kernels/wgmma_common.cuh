// What the Hopper families share: wgmma (both operands read from shared memory), wgmma_rs
// (one operand read from registers) and tma_ffma (fp32 FFMA fed by the TMA). The
// requirements the TMA puts on a problem, the L2-friendly order of a persistent grid's
// tiles, the TMA tensor maps of operands and C, and the copy of a staged C box by the
// warpgroup where the TMA cannot store it.
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/problem.hpp"
#include "kernels/gemm_common.cuh"
#include "registry/registry.hpp"

namespace tilemm::kernels {

// Warp specialization with setmaxnreg. A block of `threads` launched with
// __launch_bounds__(threads, 1) gets the register file's share per thread, in steps of 8
// (168 at 384 threads). The producer warpgroup drops to `producer_registers` and the
// consumers may raise theirs to what it hands back, shared over `consumer_threads`, in steps
// of 8 as setmaxnreg needs. Counted from the launch allocation, not the whole register
// file: setmaxnreg.inc waits until the block's own registers cover the request, and a
// tma_ffma build that asked for 1,024 more than its launch allocation hung (docs/ladder.md,
// step 15).
constexpr int launch_registers_per_thread(int threads) { return 65536 / threads / 8 * 8; }
constexpr int consumer_registers_after_producer(int threads, int producer_registers, int consumer_threads) {
  return (launch_registers_per_thread(threads) * threads - producer_registers * 128) / consumer_threads / 8 * 8;
}

// The requirements every entry of these families has, "" when they hold: compute capability
// 9.0 (sm_90a code), the block's shared memory, C aligned to its element size, and what
// the TMA needs of A and B: 32-bit coordinates (tile origins up to a cluster past m or n
// included), strides below 2^40 bytes, and 16-byte-aligned bases, leading dimensions and
// batch strides, or with `repacked` (operands the TMA cannot read are copied into an
// aligned workspace first) element alignment only.
inline std::string tma_requirements(const GemmProblem& p, const DeviceInfo& dev, std::int64_t smem_bytes,
                                    std::int64_t element_bytes, bool repacked) {
  if (dev.cc_major != 9 || dev.cc_minor != 0) return "needs compute capability 9.0 (sm_90a code and the TMA)";
  if (smem_bytes > dev.smem_per_block_optin) {
    return "needs " + std::to_string(smem_bytes) + " bytes of shared memory per block, device allows " +
           std::to_string(dev.smem_per_block_optin);
  }
  if (!aligned_to(p.C, dtype_size(p.c_type))) return "C must be aligned to its element size";
  constexpr std::int64_t kMaxCoordinate = 2147483647LL - 1024;
  if (p.m > kMaxCoordinate || p.n > kMaxCoordinate || p.k > kMaxCoordinate || p.batch > kMaxCoordinate) {
    return "m, n, k and batch must fit the TMA's 32-bit coordinates";
  }
  const std::int64_t max_stride = ((std::int64_t(1) << 40) - 1) / element_bytes;
  if (p.lda > max_stride || p.ldb > max_stride || p.stride_a > max_stride || p.stride_b > max_stride) {
    return "leading dimensions and batch strides of A and B must stay below 2^40 bytes (TMA)";
  }
  if (repacked) {
    if (!aligned_to(p.A, element_bytes) || !aligned_to(p.B, element_bytes)) {
      return "A and B must be aligned to their element size";
    }
    return {};
  }
  const std::string rule =
      " (and the batch stride) a multiple of " + std::to_string(16 / element_bytes) + " elements (TMA)";
  if (!columns_aligned16(p.A, p.lda, p.stride_a, p.batch, element_bytes)) {
    return "A must be 16-byte aligned with lda" + rule;
  }
  if (!columns_aligned16(p.B, p.ldb, p.stride_b, p.batch, element_bytes)) {
    return "B must be 16-byte aligned with ldb" + rule;
  }
  return {};
}

// Tiles are numbered batch-major; within a batch, in groups of kGroupRows tile rows
// (along m) walked column by column, so the blocks running at once share a few A row
// panels and B column panels in L2 instead of streaming all of A for every column.
// Every other group walks its columns backwards (a serpentine), so that the first
// columns of a group are the B panels the previous group read last.
constexpr std::int64_t kGroupRows = 8;

// The CTAs (or clusters) a persistent grid launches for `work` items when `slots` fit on
// the GPU at once: the fewest that still finish in the same number of rounds. At 4096^3
// (256 cluster tiles, 66 cluster slots on an H200) that is 64 clusters of four tiles each
// instead of 66 with 58 in the last round: the same rounds, four SMs idle throughout
// instead of sixteen in the last round, and each round an aligned block of 8 x 8 cluster
// tiles (one tile group's columns), which reads 10% fewer bytes from DRAM (147 -> 132 MB).
inline std::int64_t persistent_grid_size(std::int64_t work, std::int64_t slots) {
  slots = std::max<std::int64_t>(slots, 1);
  if (work <= slots) return work;  // one round: an item per CTA
  const std::int64_t rounds = (work + slots - 1) / slots;
  return (work + rounds - 1) / rounds;
}

// The k-block the producer loads at step kb of a work item's [kb_begin, kb_end): a CTA's
// odd work items (its rounds, since all CTAs start a round together) walk k backwards.
// A round streams its panels through L2 once, so what is left there when it ends is the
// last k-blocks it read; the next round, which shares half of those panels, starts with
// them. The consumers never see k, only stages, so the order is the producer's alone.
__host__ __device__ __forceinline__ int k_block_in_round_order(int kb, int kb_begin, int kb_end, std::int64_t round) {
  return round % 2 == 1 ? kb_begin + kb_end - 1 - kb : kb;
}

// Where a loop stands in the S-stage shared-memory ring: the stage, and the parity of
// the current pass over the ring (each pass completes one phase of every stage's
// mbarriers). The producer and the consumers each walk the ring with one of these.
template <int S>
struct RingPosition {
  int stage = 0;
  unsigned phase = 0;
  __device__ __forceinline__ void advance() {
    if (++stage == S) {
      stage = 0;
      phase ^= 1u;
    }
  }
  // n stages on (n >= 0): the phase flips once per wrap.
  __device__ __forceinline__ void advance_by(int n) {
    const int to = stage + n;
    phase ^= unsigned(to / S) & 1u;
    stage = to % S;
  }
};

struct WgmmaTile {
  std::int64_t batch, tm, tn;
};

__host__ __device__ __forceinline__ WgmmaTile wgmma_tile_coordinates(std::int64_t t, std::int64_t tiles_m,
                                                                     std::int64_t tiles_n) {
  const std::int64_t per_batch = tiles_m * tiles_n;
  const std::int64_t b = t / per_batch;
  const std::int64_t r = t % per_batch;
  const std::int64_t per_group = kGroupRows * tiles_n;
  const std::int64_t first_m = (r / per_group) * kGroupRows;
  const std::int64_t rows = tiles_m - first_m < kGroupRows ? tiles_m - first_m : kGroupRows;
  const std::int64_t in_group = r % per_group;
  const std::int64_t column = in_group / rows;
  return {b, first_m + in_group % rows, (r / per_group) % 2 == 1 ? tiles_n - 1 - column : column};
}

// The columns of a K-major operand's box where the tile reaches past the matrix's edge:
// only the live ones, rounded up to 8 (one 1 KB swizzle atom), at most the tile's. A box
// across the edge, which the TMA fills with zeros, slowed whole k-loops 1.5-2x on an H100
// (docs/ladder.md, "Boxes across the edge" and "The last column of tiles"). The tile's rows
// past the box keep stale shared memory; they feed only accumulator rows or columns past
// the matrix, which are never stored.
inline int edge_box_columns(std::int64_t live_columns, int tile_columns) {
  return int(std::min<std::int64_t>(tile_columns, (live_columns + 7) / 8 * 8));
}

// The tensor map of one operand as stored (rows contiguous, ld between columns), 3-D
// with the batch as the outer dimension, zeros outside. A box is 128 bytes along the rows
// (64 halves or 32 floats; 128-byte swizzle) by box_cols columns, or 64 bytes with a
// 64-byte swizzle (box_row_bytes = 64). fp32 operands for tf32 arithmetic use the TMA's
// tf32 element type (tf32_elements), an fp32 C plain fp32. False when the driver has no
// encoder or rejects the layout.
bool encode_operand_map(CUtensorMap* map, DType type, const void* base, std::int64_t rows, std::int64_t cols,
                        std::int64_t ld, std::int64_t batch, std::int64_t stride, int box_cols,
                        bool tf32_elements = true, int box_row_bytes = 128);

// A C the TMA cannot write (odd ldc, or columns not a whole number of 16 bytes): the
// warpgroup copies each staged box (kBoxCols columns of C by 128 bytes along m, 128-byte
// swizzle) out itself, each warp a quarter of the columns, one 128-byte box row (32 lanes
// x 4 bytes, conflict-free) per instruction, so every store instruction writes 128
// contiguous bytes of a column instead of 8 scattered pairs. Elements past m or n are
// skipped; a pair of 16-bit elements is one 4-byte store where C allows it.
template <int kBoxCols, class CT>
__device__ __forceinline__ void wgmma_copy_box_out(std::int64_t m, std::int64_t n, std::int64_t ldc,
                                                   const char* box, CT* C, std::int64_t box_m0, std::int64_t n0,
                                                   int warp_in_group, int lane) {
  constexpr int kPerLane = 4 / int(sizeof(CT));  // elements of C in a lane's 4 bytes
  constexpr int kColsPerWarp = kBoxCols / 4;
  // 32-bit bounds and one 64-bit pointer: this runs beside the accumulators of the boxes
  // still to come, with few registers to spare.
  constexpr std::int64_t kFar = 1 << 30;
  const int rows_left = int(min(m - box_m0, kFar)) - kPerLane * lane, cols_left = int(min(n - n0, kFar));
  CT* const first = C + n0 * ldc + box_m0 + kPerLane * lane;
  const char* const lane_word = box + (lane % 4) * 4;
#pragma unroll 1
  for (int r = kColsPerWarp * warp_in_group; r < kColsPerWarp * (warp_in_group + 1) && r < cols_left; ++r) {
    const unsigned word = *reinterpret_cast<const unsigned*>(lane_word + r * 128 + (((lane / 4) ^ (r % 8)) * 16));
    CT* const c = first + r * ldc;
    if constexpr (std::is_same_v<CT, float>) {
      if (rows_left > 0) *reinterpret_cast<unsigned*>(c) = word;
    } else if (rows_left > 1 && reinterpret_cast<std::uintptr_t>(c) % 4 == 0) {
      *reinterpret_cast<unsigned*>(c) = word;
    } else {
      auto* const halves = reinterpret_cast<unsigned short*>(c);
      if (rows_left > 0) halves[0] = static_cast<unsigned short>(word & 0xffffu);
      if (rows_left > 1) halves[1] = static_cast<unsigned short>(word >> 16);
    }
  }
}

}  // namespace tilemm::kernels
