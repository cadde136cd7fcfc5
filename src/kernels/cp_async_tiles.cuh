// Operand tiles copied into shared memory with cp.async, in storage order (the copy
// engine cannot transpose), with bounds (issue_tile_copies) or without for tiles inside
// the matrix (InteriorTileCopy), and the x-coordinates of a thread's fragment in them: the
// shared pieces of the cp.async-fed FP32 kernels (cp_async.cu, skinny_splitk.cu).
#pragma once

#include <cstdint>

#include "kernels/fp32_tile_common.cuh"
#include "ptx/cp_async.cuh"

namespace tilemm::kernels {

// Shared-memory geometry of one operand tile (X = BM or BN rows along x).
template <int X, int BK, bool kXContig>
struct CpAsyncTileLayout {
  // x-contiguous: [BK][X]; k-contiguous: [X][BK + 4].
  static constexpr int kPitch = kXContig ? X : BK + 4;
  static constexpr int kFloats = kXContig ? BK * X : X * (BK + 4);
  __device__ static constexpr int offset(int x, int kk) { return kXContig ? kk * kPitch + x : x * kPitch + kk; }
};

// Issues the copies of one X x BK operand tile at (x0, k0) into smem. Each thread
// issues a compile-time number of copies whose coordinates are its first copy's plus
// constants (tile_item_coords), so few registers stay live across the k-loop.
template <int X, int BK, int kThreads, bool kXContig, bool kQuad>
__device__ __forceinline__ void issue_tile_copies(float* smem, const OperandView& g, std::int64_t x0,
                                                  std::int64_t k0, int tid) {
  using L = CpAsyncTileLayout<X, BK, kXContig>;
  constexpr int kWidth = kQuad ? 4 : 1;  // elements per copy, along the contiguous direction
  constexpr int kLead = (kXContig ? X : BK) / kWidth;
  constexpr int kCopies = X * BK / kWidth;
  static_assert(kCopies % kThreads == 0, "every thread issues the same number of copies");
#pragma unroll
  for (int pass = 0; pass < kCopies / kThreads; ++pass) {
    int lead, other;
    tile_item_coords<kLead, kThreads>(tid, pass, lead, other);
    lead *= kWidth;
    const int x = kXContig ? lead : other;
    const int kk = kXContig ? other : lead;
    // Opaque coordinates: computed afresh at each k-tile rather than hoisted out of the
    // k-loop into registers that would stay live next to the accumulators.
    const std::int64_t gx = hoist_barrier(x0 + x), gk = hoist_barrier(k0 + kk);
    const std::int64_t lead_left = kXContig ? g.extent_x - gx : g.extent_k - gk;
    const bool other_inside = kXContig ? gk < g.extent_k : gx < g.extent_x;
    const int bytes = other_inside ? 4 * int(lead_left < 0 ? 0 : (lead_left > kWidth ? kWidth : lead_left)) : 0;
    const float* src = bytes > 0 ? g.ptr + operand_offset<kXContig>(gx, gk, g.ld) : g.ptr;
    if constexpr (kQuad) {
      ptx::cp_async_cg_16(smem + L::offset(x, kk), src, bytes);
    } else {
      ptx::cp_async_ca_4(smem + L::offset(x, kk), src, bytes);
    }
  }
}

// The 16-byte copies of X x BK operand tiles that lie wholly inside the matrix, for a
// kernel that streams many of them along k: the thread's first source address is computed
// once (init), and each copy of a later tile is that address plus constants (t tiles along
// k, p passes across), one add where issue_tile_copies spends ~35 instructions on
// coordinates, bounds and byte counts. The caller issues a tile this way only when it is
// inside: x0 + X <= extent_x and its k-range inside extent_k; others take
// issue_tile_copies. Needs 16-byte aligned columns (require_quad_alignment).
template <int X, int BK, int kThreads, bool kXContig>
struct InteriorTileCopy {
  using L = CpAsyncTileLayout<X, BK, kXContig>;
  static constexpr int kLead = (kXContig ? X : BK) / 4;  // quads along the contiguous direction
  static_assert(kThreads % kLead == 0 && (X * BK / 4) % kThreads == 0, "constant offsets between passes");
  static constexpr int kPasses = X * BK / 4 / kThreads;
  static constexpr int kAcross = kThreads / kLead;  // lines (rows of storage) between a thread's passes

  const float* src;  // the thread's pass 0 of tile 0
  int dst;           // its offset in a stage

  __device__ __forceinline__ void init(const OperandView& g, std::int64_t x0, std::int64_t k0, int tid) {
    int lead, other;
    tile_item_coords<kLead, kThreads>(tid, 0, lead, other);
    const int x = kXContig ? 4 * lead : other;
    const int kk = kXContig ? other : 4 * lead;
    src = g.ptr + operand_offset<kXContig>(x0 + x, k0 + kk, g.ld);
    dst = L::offset(x, kk);
  }

  // Tile t (t * BK further along k) into `stage`; ld is the operand's leading dimension.
  __device__ __forceinline__ void issue(float* stage, std::int64_t t, std::int64_t ld) const {
    const float* tile = src + t * (kXContig ? BK * ld : std::int64_t(BK));
#pragma unroll
    for (int pass = 0; pass < kPasses; ++pass) {
      ptx::cp_async_cg_16(stage + dst + pass * kAcross * L::kPitch, tile + pass * kAcross * ld, 16);
    }
  }
};

// Tile t (first k: k0) of an operand streamed along k into `stage`: without bounds while
// t is below `inside_tiles` (the tiles wholly inside the matrix, 0 when it has none or
// the copies are 4-byte), else with them.
template <int X, int BK, int kThreads, bool kXContig, bool kQuad>
__device__ __forceinline__ void issue_streamed_tile(float* stage, const InteriorTileCopy<X, BK, kThreads, kXContig>& inside,
                                                    std::int64_t inside_tiles, std::int64_t t, const OperandView& g,
                                                    std::int64_t x0, std::int64_t k0, int tid) {
  if (t < inside_tiles) {
    inside.issue(stage, t, g.ld);
  } else {
    issue_tile_copies<X, BK, kThreads, kXContig, kQuad>(stage, g, x0, k0, tid);
  }
}

// The 8 x-coordinates (within the warp tile) of a thread's fragment of one operand.
// x-contiguous: two runs of 4 (16-byte reads); k-contiguous: lane-interleaved rows.
template <bool kXContig, int kLanes>
__device__ __forceinline__ constexpr int fragment_x(int lane_x, int i) {
  return kXContig ? interleaved_offset<kLanes>(lane_x, i) : lane_x + kLanes * i;
}

}  // namespace tilemm::kernels
