// Operands read element by element (MmaOperandCopier::load_held): how many 16-bit elements
// one load may take (skinny_mma's `.ldgshort` short operand, mma_sync's `.ahead` tiles), and
// the `.ahead` tile's size, which its configurations and auto's rules (repacking_stands_aside)
// share. Host code: the launchers pick the kernel, the CPU tests check the rules.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/problem.hpp"

namespace tilemm::kernels {

// 4, 2 or 1: the most for which every piece of a chunk (8 elements along the operand's
// contiguous direction) is aligned, and whole or outside the matrix: the base, ld, the batch
// stride (when batch > 1) and the extent along the contiguous direction (chunks start at
// multiples of 8 from a tile's first element) multiples of that many.
inline int elements_per_load(const void* base, std::int64_t ld, std::int64_t contiguous_extent, std::int64_t stride,
                             std::int64_t batch) {
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  for (const int elements : {4, 2}) {
    if (address % (2u * elements) == 0 && ld % elements == 0 && contiguous_extent % elements == 0 &&
        (batch <= 1 || stride % elements == 0)) {
      return elements;
    }
  }
  return 1;
}

// The elements per load both operands of `p` allow, each read along its contiguous direction
// (its stored rows): the width mma_sync's `.ahead` launcher runs the tile at.
inline int operands_elements_per_load(const GemmProblem& p) {
  return std::min(elements_per_load(p.A, p.lda, p.a_rows(), p.stride_a, p.batch),
                  elements_per_load(p.B, p.ldb, p.b_rows(), p.stride_b, p.batch));
}

// mma_sync's `.ahead` tile: rows and columns of C per block (64 x 64, one block per SM).
inline constexpr int kAheadTile = 64;

// The `.ahead` blocks a product of batch x m x n makes.
inline std::int64_t ahead_tiles(std::int64_t m, std::int64_t n, std::int64_t batch) {
  return ((m + kAheadTile - 1) / kAheadTile) * ((n + kAheadTile - 1) / kAheadTile) * batch;
}

// The k one round trip of its loads covers (4 k-tiles of 32 held ahead), and the most
// k-slices `.ahead.clusterk` cuts a tile's k into (a cluster of more than 8 CTAs is not
// portable).
inline constexpr int kAheadKPerTrip = 128, kAheadMostSlices = 8;

// The longest k auto gives `.ahead` in place of copying an operand the TMA cannot read: two
// round trips (256), one (128) for tf32 NT, whose tile reads both operands by 4-byte loads
// (H200, 150-511 x 100-511: tf32 NT k = 255 14.6-15.2 us against 12.6-12.8 with k cut across
// a cluster; TN k = 150 9.0-9.5 against 9.1-11.0 copied; bf16 k = 256 8.4-10.9 against
// 10.3-11.2 copied and 9.7-11.4 cut).
inline std::int64_t ahead_longest_k(const GemmProblem& p, std::int64_t element_bytes) {
  return element_bytes == 4 && p.opa == Op::N && p.opb == Op::T ? kAheadKPerTrip : 2 * kAheadKPerTrip;
}

// Whether auto gives p to `.ahead.clusterk` on Hopper (sm_count SMs, one of its blocks
// each): k past `.ahead`'s reach, cut into one slice per round trip of its loads, with
// every tile's slices one cluster and all of them one wave; for 16-bit operands, whose
// copies are plain, at most half a wave (H200: bf16 32 tiles x 4 slices of 128, 255 x 511 x
// 512, 12.2-13.0 us against 11.4-11.7 copied; 16 x 4 10.2 against 11.4; tf32 108 CTAs, 383^3,
// 11.5-12.9 against 12.3-17.2 copied).
inline bool ahead_cluster_k_takes(const GemmProblem& p, std::int64_t element_bytes, int sm_count) {
  const std::int64_t tiles = ahead_tiles(p.m, p.n, p.batch);
  const std::int64_t trips = (p.k + kAheadKPerTrip - 1) / kAheadKPerTrip;
  const std::int64_t ctas = element_bytes == 2 ? sm_count / 2 : sm_count;
  return tiles > 0 && p.k > ahead_longest_k(p, element_bytes) &&
         trips <= std::min<std::int64_t>(kAheadMostSlices, ctas / tiles);
}

}  // namespace tilemm::kernels
