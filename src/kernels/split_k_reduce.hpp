// Split-K, shared by the families that use it (cp_async, double_buffer, skinny_splitk,
// wgmma): how many k-slices a problem gets, how long they are, and the pass that sums the
// slices' partial products into C.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/problem.hpp"
#include "registry/registry.hpp"

namespace tilemm::kernels {

// k-slices for `tiles` output tiles over `resident_blocks` blocks that run at once: enough
// to fill the GPU about once, each slice at least `min_k_tiles` of the `k_tiles` long (so
// the pipeline still has work to overlap), at most `max_slices`.
inline int split_k_slices(std::int64_t tiles, std::int64_t resident_blocks, std::int64_t k_tiles,
                          std::int64_t min_k_tiles, int max_slices) {
  const std::int64_t by_occupancy = tiles > 0 ? resident_blocks / tiles : 1;
  const std::int64_t by_depth = k_tiles / min_k_tiles;
  return int(std::clamp<std::int64_t>(std::min(by_occupancy, by_depth), 1, max_slices));
}

// The length of each k-slice when k is cut into about `slices` slices: a multiple of bk,
// so every slice but the last is whole k-tiles. The slice count the launch then needs is
// ceil(k / length), which may be below `slices`.
inline std::int64_t split_k_slice_length(std::int64_t k, int slices, int bk) {
  return ((k + slices - 1) / slices + bk - 1) / bk * bk;
}

// split_k_slices for blocks whose k-loop is bound by latency when few of them share the GPU
// (skinny_splitk's 16-row tile walked 15 x 121 x 454 in one slice at ~1.1 us per 32-k stage
// on an H100): slices of one k-tile each wherever that makes at least `min_slices` of them,
// since fewer do not repay the split-K pass; otherwise slices of at least `min_k_tiles`.
// With many tiles the wave bounds the count either way (16 x 11008 x 4096: 86 tiles of 16 x
// 128, 396 block slots, 4 slices).
inline int split_k_slices_one_k_tile_each(std::int64_t tiles, std::int64_t resident_blocks, std::int64_t k_tiles,
                                          std::int64_t min_k_tiles, int min_slices, int max_slices) {
  const int one_each = split_k_slices(tiles, resident_blocks, k_tiles, 1, max_slices);
  return one_each >= min_slices ? one_each : split_k_slices(tiles, resident_blocks, k_tiles, min_k_tiles, max_slices);
}

// split_k_slices for kernels whose k-slices are many short blocks (the fp32 tiles, two
// or more per SM), for products of at most one wave of tiles: when that count leaves the
// last wave of blocks less than `min_fill` full, the smallest larger count within the same
// bounds whose launch (ceil(k / slice length) slices, as above) fills at least that much.
// 112 tiles on 264 block slots: 2 slices fill 85% of one wave (some SMs run one block and
// others two), 7 slices 99% of three; 224 tiles, which split_k_slices leaves whole, fill
// 85% of one wave, and 7 slices 99% of six. Products of more tiles than slots keep
// split_k_slices' count (1).
inline int split_k_slices_filling_waves(std::int64_t tiles, std::int64_t resident_blocks, std::int64_t k, int bk,
                                        std::int64_t min_k_tiles, int max_slices, double min_fill) {
  const int first = split_k_slices(tiles, resident_blocks, k / bk, min_k_tiles, max_slices);
  const auto launched = [&](int slices) {
    const std::int64_t length = split_k_slice_length(k, slices, bk);
    return int((k + length - 1) / length);
  };
  if (tiles > resident_blocks || wave_efficiency(tiles * launched(first), resident_blocks) >= min_fill) return first;
  const int last = int(std::min<std::int64_t>(max_slices, k / bk / min_k_tiles));
  for (int slices = first + 1; slices <= last; ++slices) {
    if (wave_efficiency(tiles * launched(slices), resident_blocks) >= min_fill) return slices;
  }
  return first;
}

// What a split-K kernel receives: grid z walks slices of k_per_slice instead of batch
// items, and each slice writes its raw partial m x n product to partial + slice * m * n.
struct SplitKSlices {
  std::int64_t k_per_slice;
  float* partial;
};

// C = alpha * (sum of the slices) + beta * C for a problem with batchCount = 1, where
// `partial` holds `slices` unscaled fp32 m x n products (column-major, ld m). The slices
// are added in a fixed order, so the result does not depend on timing; C in its own type.
cudaError_t launch_split_k_reduce(const GemmProblem& p, const float* partial, int slices, cudaStream_t stream);

}  // namespace tilemm::kernels
