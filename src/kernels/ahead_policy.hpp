// auto's rules for mma_sync's `.ahead` tiles (64 x 64 tiles whose element loads of any
// leading dimension are held 4 k-tiles ahead; mma_sync.cu explains them): how long a k the
// plain tile takes, and where `.ahead.clusterk` cuts k across a cluster instead. Read by the
// tiles' scores (mma_sync.cu) and by the copying entries' rule that stands aside for them
// (repacking_stands_aside, repack.cu). Kept out of element_loads.hpp, which the kernels
// include, so that a change of policy rebuilds the two launchers' files, not every
// tensor-core kernel.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/problem.hpp"
#include "kernels/element_loads.hpp"

namespace tilemm::kernels {

// tf32 NT: the tile reads both operands by 4-byte loads, one element each, so its round trips
// cost the most.
inline bool ahead_reads_tf32_nt(const GemmProblem& p, std::int64_t element_bytes) {
  return element_bytes == 4 && p.opa == Op::N && p.opb == Op::T;
}

// 16-bit operands that both take 8-byte loads (operands_elements_per_load): the cheapest trips.
inline bool ahead_loads_eight_bytes(const GemmProblem& p, std::int64_t element_bytes) {
  return element_bytes == 2 && operands_elements_per_load(p) == 4;
}

// Where `.ahead.clusterk` starts: past k = 192 (6 k-tiles: a round trip and a half) for
// tf32 and 16-bit operands on 2-byte loads, past 256 (two round trips) for 16-bit ones that
// both take 8-byte loads, whose trips cost less, and past 128 for tf32 NT, whose tile reads
// both operands by 4-byte loads (H200, stop 58, the slices summed by bulk copies:
// k = 200 and 255, tf32 NN, TN, TT 9.8-10.7 us against `.ahead`'s 10.4-11.2, bf16 NN on
// 2-byte loads 9.7-10.0 against 9.9-10.9, at k = 150-160 `.ahead` 7.3-9.3 against
// 8.2-9.5; 8-byte loads: k = 200 7.9-8.1 against 8.6-8.7, 256 a tie, 260-380 8.1-8.6 against 8.5-10.1).
inline std::int64_t ahead_cluster_k_from(const GemmProblem& p, std::int64_t element_bytes) {
  if (ahead_reads_tf32_nt(p, element_bytes)) return kAheadKPerTrip;
  return ahead_loads_eight_bytes(p, element_bytes) ? 2 * kAheadKPerTrip : 192;
}

// The longest k auto gives `.ahead` in place of copying an operand the TMA cannot read (where
// `.ahead.clusterk` does not take the product first): two round trips (256), one (128) for
// tf32 NT, three (384) for 16-bit operands that both take 8-byte loads (H200, stop 57: bf16 k
// = 256 8.4-10.9 us against 10.3-11.2 copied, tf32 NT k = 255 14.6-15.2 against 12.6-12.8 cut
// across a cluster; stop 58: bf16 500^2 x 260-380 on 8-byte loads 9.0-10.3 against 10.7-11.3
// copied).
inline std::int64_t ahead_longest_k(const GemmProblem& p, std::int64_t element_bytes) {
  if (ahead_reads_tf32_nt(p, element_bytes)) return kAheadKPerTrip;
  return ahead_loads_eight_bytes(p, element_bytes) ? 3 * kAheadKPerTrip : 2 * kAheadKPerTrip;
}

// The round trips of the `.ahead` tile's loads that k takes (kAheadKPerTrip each).
inline std::int64_t ahead_round_trips(std::int64_t k) { return (k + kAheadKPerTrip - 1) / kAheadKPerTrip; }

// The k-slices `.ahead.clusterk` cuts each of `tiles` tiles into: one per round trip, at most
// kAheadMostSlices (a larger cluster is not portable), and no more than keep every CTA of a
// `wave` of blocks resident at once. The launcher (mma_sync_cluster_slices, which also drops
// slices where the GPU cannot hold a cluster per tile) and auto's rule both count them here.
inline std::int64_t ahead_cluster_slices(std::int64_t k, std::int64_t tiles, std::int64_t wave) {
  return std::clamp<std::int64_t>(std::min(ahead_round_trips(k), wave / std::max<std::int64_t>(tiles, 1)), 1,
                                  kAheadMostSlices);
}

// The most round trips of its loads auto lets one slice of `.ahead.clusterk` walk, where a
// tile is cut into `slices` (ahead_cluster_slices).
// One trip per slice is stop 58's rule, taken wherever it fits. Where the tiles leave fewer
// slices than trips, each slice walks several; against the copying tiles that auto gave
// these products otherwise (H100, stop 59, docs/results/h100_cluster_k_trips.txt):
// - tf32 outside NT won to 4 trips a slice, by 1.3-1.9x (255 x 383 x 1023 NN, 24 tiles x 5
//   slices, 12.8 us against 22.7; 127 x 255 x 3071, 8 x 8, 15.8 against 22.9), and lost or
//   tied from 6 (255 x 511 x 3071 NN 32.0 against 31.0);
// - tf32 NT, whose tile reads both operands by 4-byte loads, won to 3 (255 x 383 x 1535,
//   24 x 5, 21.5 against 25.8) and lost at 4 (383 x 511 x 1023 27.1 against 25.4);
// - 16-bit operands on 8-byte loads won to 3 (196 x 300 x 2044, 20 x 6, 12.6 against 15.2;
//   500^2 x 516, 64 x 2, 11.2 against 12.5) and lost from 4 (300 x 500 x 1532 17.5 against 16.6);
// - 16-bit operands on 2-byte loads won to 3 where a tile holds 5 slices or more (24 tiles and
//   fewer: 255 x 383 x 1023 12.5 against 15.9, 127 x 383 x 3071 16.6 against 19.0), but with
//   2-4 slices lost even at 2 trips a slice (383 x 511 x 511, 48 x 2, 13.0 against 11.6;
//   255 x 511 x 767, 32 x 4, 13.3 against 12.3): there, one trip per slice only.
inline std::int64_t ahead_cluster_most_trips_per_slice(const GemmProblem& p, std::int64_t element_bytes,
                                                       std::int64_t slices) {
  if (element_bytes == 4) return ahead_reads_tf32_nt(p, element_bytes) ? 3 : 4;
  if (ahead_loads_eight_bytes(p, element_bytes)) return 3;
  return slices >= 5 ? 3 : 1;
}

// Whether auto gives p to `.ahead.clusterk` on Hopper (sm_count SMs, one of its blocks
// each): k past ahead_cluster_k_from, every tile's slices one cluster and all of them one
// wave (ahead_cluster_slices), at least two slices a tile, and no slice longer than
// ahead_cluster_most_trips_per_slice round trips (H200, stop 58, one
// trip a slice: bf16 32-40 tiles x 3 slices 8.6-9.5 us against 10.7-11.1 copied, 32 x 4 on
// 8-byte loads 9.5 against 11.2, 255^2 x 1023 11.4 against 14.4; tf32 383^3, 108 CTAs, 10.4-11.8
// against 12.3-17.2 copied; the loss: 32 x 4 on 2-byte loads, 11.6-11.8 against 11.4).
inline bool ahead_cluster_k_takes(const GemmProblem& p, std::int64_t element_bytes, int sm_count) {
  const std::int64_t tiles = ahead_tiles(p.m, p.n, p.batch);
  if (tiles <= 0 || p.k <= ahead_cluster_k_from(p, element_bytes)) return false;
  const std::int64_t slices = ahead_cluster_slices(p.k, tiles, sm_count);
  const std::int64_t trips_per_slice = (ahead_round_trips(p.k) + slices - 1) / slices;
  return slices >= 2 && trips_per_slice <= ahead_cluster_most_trips_per_slice(p, element_bytes, slices);
}

}  // namespace tilemm::kernels
