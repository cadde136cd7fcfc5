// Operands read element by element (MmaOperandCopier::load_held): how many 16-bit elements
// one load may take (skinny_mma's `.ldgshort` short operand, mma_sync's `.ahead` tiles), and
// the `.ahead` tile's geometry (its size, the k one round trip of its loads covers), which
// its configurations, its launcher and auto's rules (ahead_policy.hpp) share. Host code: the
// launchers pick the kernel, the CPU tests check the rules.
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

}  // namespace tilemm::kernels
