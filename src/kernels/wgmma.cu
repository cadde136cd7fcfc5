// Family "wgmma": Hopper's tensor-core path (sm_90a): warpgroup MMA (wgmma) reading
// both operands from shared memory, fed by the Tensor Memory Accelerator (TMA) through
// mbarriers, with one producer warpgroup and two consumer warpgroups.
//
// Why mma.sync stops at ~40% of cuBLAS on Hopper: every mma.sync needs its operands in
// registers, so a warp spends ldmatrix instructions, registers and issue slots moving
// the tile from shared memory into the tensor cores, and sm_90's tensor cores run at
// full rate only through wgmma. Here the data path is asynchronous end to end:
//   - global -> shared: the TMA. One thread issues one instruction per operand box (64
//     k by up to 256 rows); the copy engine computes the addresses, zero-fills outside
//     the matrix, writes the 128-byte-swizzled layout the tensor cores read, and counts
//     the bytes into the stage's "full" mbarrier. No thread computes an address.
//   - shared -> tensor cores: wgmma.mma_async m64nNk16 with 64-bit descriptors for both
//     operands (ptx/wgmma.cuh has the layouts). No ldmatrix, no operand registers: the
//     registers hold only the accumulators (128 per thread for a 64 x 256 tile).
//   - Warp specialization: warpgroup 0 is the producer (one thread issues the copies);
//     it gives registers back with setmaxnreg.dec (40 per thread) so that warpgroups 1
//     and 2, the consumers, can raise theirs to 232 and keep a 64 x 256 fp32
//     accumulator each. They wait on "full", issue 4 wgmma per 64-wide k-block, and
//     release the stage on its "empty" mbarrier once wgmma.wait_group says the reads are
//     done, keeping one k-block of wgmma in flight while waiting for the next stage.
//   - Orientation: the kernel computes C^T = op(B)^T op(A)^T, so the accumulator rows
//     (wgmma's M, 64 per consumer) run along C's columns n and each thread's
//     accumulator pairs (d[2i], d[2i+1]) are adjacent along m: neighbours in column-major
//     C, stored as one 4- or 8-byte access. wgmma's A operand is op(B)^T, its B operand
//     op(A)^T; each is K-major or MN-major in shared memory according to the op (16-bit
//     inputs may be either), so all four ops read their operands as stored.
//   - `.persistent`: a grid of one block per SM walks the tiles in an L2-friendly order
//     (groups of 8 tile rows along m), and the producer starts the next tile's loads
//     while the consumers run the previous tile's epilogue.
//   - `.c2`: clusters of two CTAs along n share the A tile; each loads half of it for
//     both with a multicast TMA, and consumers free a stage in both CTAs.
//   - `.c2m`: clusters of two CTAs along m share the B tile the same way (for B columns
//     that are not whole 128-byte lines apart, where the TMA's L2 requests multiply).
//   - `.tmastore`: the epilogue writes C through swizzled shared memory and TMA stores,
//     so the consumers go on to their next tile while the copy engine writes C (a C
//     the TMA cannot write leaves the same staging through coalesced warp stores). With
//     beta != 0 the TMA also loads C into the staging boxes, the first ones before the
//     tile's k-loop, and each thread adds beta times its elements there in place.
//   - `.pingpong`: each consumer warpgroup computes whole tiles, the two take alternate
//     ones, taking turns at the k-loop (one's epilogue runs beside the other's k-loop):
//     64 x 64 tiles with a 12-deep ring of 16 KB stages, for shapes whose tiles fill about
//     one wave (m = 128 with n = 4096), and 128 x 128 tiles (two m64n128 accumulators per
//     consumer) for products whose 256 x 128 tiles are short (k up to ~3000).
//   - 32 x 64 tiles (wgmma m64n32) for 17-32 rows, alone or in clusters of four along n: an
//     A stored m x k arrives in 32-row boxes with the 64-byte swizzle, 18 stages of 12 KB,
//     C stored straight from the accumulators (see "17-32 rows" below). `.swapab`: the same
//     tiles on the few-row transpose of a product with 17-32 columns, C stored transposed.
//   - 128 x 192 tiles: a third consumer warpgroup (152 registers each), for products whose
//     128- or 256-row tiles leave the last wave mostly empty (3072^3, 256 x 11008 x 4096).
//   - 192 x 128 tiles in clusters of two (`.c2`, wgmma m64n192): two full waves where the
//     256 x 128 tiles leave the last a quarter empty (bf16 6000 x 1000 x 5000, 3000 x 1000 x k);
//     5 stages, which fit beside one staging box per consumer warpgroup instead of two.
//   - `.streamk`: whole waves of tiles stay whole; the k-blocks of the tiles left over are
//     cut into one even range per cluster (with fewer tiles than clusters, every tile into
//     the same whole number of ranges), and the shares of split tiles are summed by
//     whichever CTA arrives last (wgmma_stream_k_fixup). 256 x 128 tiles in clusters of two,
//     and 192 x 128 ones for products of 129-192 rows (one row of tiles).
//   - A grid that covers nearly every SM, or one that follows its own operand copies
//     (`.repack`, `.transpose`), is launched as a programmatic dependent: its CTAs start,
//     set up their barriers and prefetch the tensor maps while the previous kernel in the
//     stream finishes, and wait (griddepcontrol.wait) before touching global memory.
//   - `.repack`: operands the TMA cannot read in place (odd leading dimensions) are first
//     copied into an aligned stream-ordered workspace; tf32 operands that are not
//     K-major (tf32 wgmma reads no other layout) are transposed there.
//   - `.transpose` (tf32 NN and TT): only the one operand that is not K-major is
//     transposed into the workspace, for products where it is small (few rows of A in NN,
//     few columns of B in TT) and the TN tiles beat wgmma_rs's in-place k-loop.
//
// Data per block and k-block: (BM + BN) rows of 128 bytes for 2 * BM * BN * bk FLOP, so
// the design intensity of a 256 x 128 tile is 85 FLOP/B for 16-bit inputs (43 for tf32),
// against 64 for mma_sync's 128 x 128.
// Requirements (the TMA's): compute capability 9.0 exactly (sm_90a code), A and B
// 16-byte aligned, lda, ldb and batch strides multiples of 16 bytes, and for tf32 op(A) =
// T, op(B) = N. Any m, n, k, batch; C aligned to its element size. Other operands go to
// the `.repack` entries (or, on other GPUs, to mma_sync); tf32 NN and TT run without a
// transposing pass in wgmma_rs.cu.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "kernels/gemm_common.cuh"
#include "kernels/mma_sync_layout.cuh"
#include "kernels/repack.hpp"
#include "kernels/skinny_orientation.hpp"
#include "kernels/split_k_reduce.hpp"
#include "kernels/wgmma_common.cuh"
#include "kernels/workspace.hpp"
#include "ptx/atomic.cuh"
#include "ptx/cluster.cuh"
#include "ptx/cp_async.cuh"
#include "ptx/grid_dependency.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace types for nvcc 13.
struct TilemmWgmmaConfig {
  TilemmMmaInput input;  // BF16, F16 or TF32
  int bm;                // rows of C per block (along m): wgmma's N, 32, 64, 128, 192 or 256
  int bn;                // columns of C per block (along n): 64 per consumer warpgroup
  int stages;            // shared-memory ring depth
  bool persistent;       // one block per SM walking the tiles, else one block per tile
  int cluster_n;         // CTAs per cluster along n; they share (multicast) the A tile
  bool tma_store;        // epilogue through swizzled shared memory and TMA stores
  bool split_k;          // k split into slices summed by a second kernel (few-tile problems)
  bool stream_k;         // the last, partial wave's k-blocks shared evenly by all clusters
  bool pingpong = false;  // bn = 64 or 128: the two consumer warpgroups take alternate tiles
                          // whole, so one's epilogue overlaps the other's k-loop
  int cluster_m = 1;      // CTAs per cluster along m; they share (multicast) the B tile
  int staging_boxes = 2;  // `.tmastore`: staging boxes per consumer warpgroup, 2 or 1 (see staging_bytes)
  bool swap_ab = false;   // `.swapab`: a product with fewer columns than rows run as the few-row product
                          // of its transpose (A and B swapped, each with the other op), C stored transposed
  consteval int cluster_size() const { return cluster_n * cluster_m; }
  constexpr std::int64_t cluster_rows(std::int64_t tiles_m) const { return (tiles_m + cluster_m - 1) / cluster_m; }

  static constexpr int kRowBytes = 128;  // k per stage: one 128-byte swizzle row
  static constexpr int kProducerRegisters = 40;
  static constexpr int kMaxConsumerRegisters = 232;
  consteval int consumers() const { return pingpong ? 2 : bn / 64; }
  // The 64-column blocks of C one consumer warpgroup computes per tile: one when they share
  // a tile, all of them with `.pingpong` (two m64nBMk16 per k16 slice at bn = 128).
  consteval int blocks_per_consumer() const { return pingpong ? bn / 64 : 1; }
  // What the producer warpgroup hands back, shared by the consumers
  // (consumer_registers_after_producer): 232 for two consumer warpgroups (the cap), 152 for
  // three.
  consteval int consumer_registers() const {
    return std::min(kMaxConsumerRegisters, tilemm::kernels::consumer_registers_after_producer(
                                               threads(), kProducerRegisters, 128 * consumers()));
  }
  // Consumer warpgroups that read each stage (a whole tile's 64-column blocks, or all).
  consteval int readers_per_stage() const { return pingpong ? 1 : consumers(); }
  consteval int threads() const { return 128 * (1 + consumers()); }
  consteval int element_bytes() const { return input == TilemmMmaInput::TF32 ? 4 : 2; }
  consteval int bk() const { return kRowBytes / element_bytes(); }   // 64 halves or 32 floats
  consteval int mma_k() const { return 32 / element_bytes(); }       // k16 (16-bit) or k8 (tf32)
  consteval int a_tile_bytes() const { return bn * kRowBytes; }  // wgmma A: op(B)^T
  consteval int b_tile_bytes() const { return bm * kRowBytes; }  // wgmma B: op(A)^T
  consteval int stage_bytes() const { return a_tile_bytes() + b_tile_bytes(); }
  // The epilogue's staging: per consumer warpgroup two 8 KB boxes (64 columns of C by
  // 128 bytes along m), written one box at a time, alternating; or one, refilled once the
  // TMA has read it, where its 8 KB buy a stage (staging_boxes).
  static constexpr int kStagingBoxBytes = 64 * 128;
  // With beta != 0 the TMA also loads C into the staging boxes (wgmma_store_through_staging):
  // one mbarrier per box of each consumer warpgroup, at this offset in the barriers' 1 KB.
  static constexpr int kCLoadBarrierOffset = 512;
  consteval int staging_bytes() const { return tma_store ? consumers() * staging_boxes * kStagingBoxBytes : 0; }
  // The ring, its 2 barriers per stage (in a 1 KB block when staging follows, so the
  // staging stays 1024-byte aligned), the staging, and 1 KB to align the ring to the
  // swizzle's 1024-byte period (dynamic shared memory is only guaranteed 16-byte
  // alignment).
  // Stream-K adds, after the barriers, one word per consumer warpgroup (its "I finish this
  // tile" flag) and at kStreamKRangeOffset the CTA's WgmmaStreamKRange.
  static constexpr int kStreamKRangeOffset = 16;
  // Without staging, `.pingpong`'s two turn barriers follow the stages' (see turn_bar).
  consteval int barrier_bytes() const {
    return tma_store ? 1024 : 16 * stages + (stream_k ? 48 : 0) + (pingpong ? 16 : 0);
  }
  // An MN-major wgmma B (A stored m x k; 16-bit only) arrives in boxes of 64 k rows by
  // mn_box_rows() elements of m: 128-byte rows of 64 elements, or with bm = 32 one box of
  // 64-byte rows (64-byte swizzle: a 128-byte box would reach 32 rows past the tile).
  consteval int mn_box_rows() const { return bm == 32 ? 32 : 64; }
  consteval int mn_box_bytes() const { return 64 * mn_box_rows() * 2; }
  consteval std::int64_t smem_bytes() const {
    return std::int64_t(stages) * stage_bytes() + barrier_bytes() + staging_bytes() + 1024;
  }
  consteval bool valid() const {
    // bm: wgmma's N, whole 64-row MN-major boxes (or one 32-row one). A cluster of two or four
    // along n splits the A tile: K-major halves or quarters of whole 8-row swizzle periods (1024
    // bytes, so each part starts a period), and MN-major 64-row boxes dealt round-robin (bm = 192
    // in pairs: boxes 0 and 2 to rank 0, box 1 to rank 1; bm = 64 in fours: rank 0 loads the one
    // box for all). The 32-row tile stores C directly (a staging box is 64 16-bit rows), without
    // stream-K or clusters along m, and its 12 KB stages (16-bit) allow a deeper ring.
    return (bm == 32 || bm == 64 || bm == 128 || bm == 192 || bm == 256) &&
           (bm != 32 || (!tma_store && !stream_k && cluster_m == 1)) && (!swap_ab || (bm == 32 && !split_k)) &&
           (pingpong ? bn == 64 || (bn == 128 && bm <= 128) : bn == 128 || bn == 192) && stages >= 2 &&
           stages <= (bm == 32 ? 20 : 12) &&
           !(pingpong && (split_k || stream_k || !persistent)) &&
           (cluster_n == 1 || cluster_n == 2 || cluster_n == 4) && (bm / cluster_n) % 8 == 0 && 16 * stages <= 1024 &&
           (staging_boxes == 1 || staging_boxes == 2) &&
           (cluster_m == 1 || (cluster_m == 2 && cluster_n == 1 && (bn / cluster_m) % 64 == 0 && !split_k &&
                               !stream_k)) &&
           !(split_k && tma_store) && !(stream_k && (split_k || !persistent)) &&
           // three consumers (bn = 192) only for the plain staged tile without clusters
           (bn != 192 || (cluster_size() == 1 && tma_store && !split_k && !stream_k));
  }
};

namespace tilemm::kernels {

// The kernel's arguments besides the three tensor maps (A, B, and C for TMA stores).
struct WgmmaParams {
  std::int64_t m, n, k;
  float alpha, beta;
  void* C;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
  std::int64_t tiles_m, tiles_n;
  bool c_is_fp32;
  bool tma_store;        // C can be written by the TMA (the configuration's epilogue then uses it)
  int slices;            // split_k: k-slices per tile, each k_blocks_per_slice 64-wide blocks
  int k_blocks_per_slice;
  float* partial;        // split_k: slices x m x n fp32 partial products (column-major, ld m)
  bool c_pairs_aligned;  // two neighbouring elements along m form one aligned access
  bool a_broadcast, b_broadcast;  // batch stride 0: every batch reads batch 0
  // stream_k: cluster tiles [0, dp_tiles) run whole, round-robin over the clusters; the
  // k-blocks of the sk_tiles tiles after them are cut into sk_clusters even ranges (each
  // cluster runs its range before its whole tiles).
  std::int64_t dp_tiles, sk_tiles;
  int sk_clusters;
  int k_blocks;
  float* sk_partial;       // two shares per range (see wgmma_stream_k_fixup)
  unsigned* sk_arrivals;   // per stream-K tile, CTA rank and consumer: shares handed in (zeroed)
  // B stored k x n (K-major), n not a multiple of the tile: the last column of tiles loads B
  // through map_b_edge, whose box holds only that column's live part of n
  // (edge_box_columns), edge_stage_bytes per stage. Measured on an H100 (docs/ladder.md,
  // "The last column of tiles"): with the box across B's edge, the last column's tiles ran
  // about twice as long as the others (bf16 14336 x 320 x 4096 NN: 105.1 us on the 128 x 128
  // ping-pong tile against 80.7 at n = 384, with the same 336 tiles); with the edge map 78.9.
  bool b_edge;
  unsigned edge_stage_bytes;
  // A stored k x m (op T), a row of tiles reaching past m: each CTA of a cluster along n loads
  // bm / cluster_n rows of the A tile (its box), and in such a row a box wholly past m is not
  // loaded and the box that straddles m comes through map_a_edge, whose box holds a_edge_rows
  // (its live rows rounded up to 8); every CTA expects the bytes the boxes bring. The rows
  // past the boxes keep stale shared memory and reach only accumulator columns past m, which
  // are never stored. Measured on an H100 (docs/ladder.md, "One row of 192 x 64 tiles", its
  // paragraph "A's boxes end at m"): with the boxes across A's edge, which the TMA fills with
  // zeros, the 192 x 64 tile in pairs ran bf16 TN 136 x 8192 x 8192 in 76.7 us; with these boxes
  // 53.8 (cuBLAS 52.8), and TN and TT at 136-176 rows 1.20-1.22x faster, NN unchanged.
  bool a_edge;
  int a_edge_rows;
};

// Stream-K's per-CTA constants, computed once into shared memory: kept in registers
// beside the 128 accumulators they made the consumers spill.
struct WgmmaStreamKRange {
  std::int64_t dp_rounds;   // this cluster's whole (data-parallel) tiles
  std::int64_t begin, end;  // the cluster's range of stream-K k-blocks
  std::int64_t sk_items;    // the pieces of tiles in it
};

// One work item of a cluster: a tile (numbered as above, one per cluster) and the
// k-blocks [kb_begin, kb_end) of it that the cluster computes.
struct WgmmaWork {
  std::int64_t tile;
  int kb_begin, kb_end;
  std::int64_t slice;  // split-K: the partial product this item writes
  // Stream-K: the first and last range touching the tile (equal: the tile is whole), found
  // here so that no 64-bit division runs beside the live accumulators.
  int first_range, last_range;
};

// Stream-K (Osama et al., "Stream-K: Work-centric Parallel Decomposition for Dense
// Matrix Multiplication", 2023): the k-blocks of the stream-K tiles, laid end to end (tile
// s at positions [s K, s K + K)), are cut into sk_clusters ranges of (nearly) equal
// length; range i is [bound(i), bound(i + 1)).
__device__ __forceinline__ std::int64_t stream_k_bound(const WgmmaParams& p, std::int64_t i) {
  return i * (p.sk_tiles * p.k_blocks) / p.sk_clusters;
}

// The range that holds position u: the largest i with bound(i) <= u, that is
// i * total < (u + 1) * sk_clusters. (The host keeps every range non-empty.)
__device__ __forceinline__ std::int64_t stream_k_owner(const WgmmaParams& p, std::int64_t u) {
  const std::int64_t total = p.sk_tiles * p.k_blocks;
  return ((u + 1) * p.sk_clusters + total - 1) / total - 1;
}

// How many of tiles cluster, cluster + clusters, ... lie below `tiles`: the whole tiles one
// cluster of `clusters` takes in round-robin order (the first tiles % clusters take one more).
__device__ __forceinline__ std::int64_t round_robin_rounds(std::int64_t tiles, std::int64_t cluster,
                                                           std::int64_t clusters) {
  return (tiles - cluster + clusters - 1) / clusters;
}

// The i-th work item of cluster `cluster` of `clusters` (false when there is none):
// plain: tiles cluster, cluster + clusters, ...; split-K: (tile, slice) pairs the same
// way; stream-K: first the pieces of its range, one per tile it touches (the first may
// start inside a tile, the last end inside one), then its whole tiles the plain way.
template <TilemmWgmmaConfig kCfg>
__device__ __forceinline__ bool wgmma_work_item(const WgmmaParams& p, std::int64_t cluster, std::int64_t clusters,
                                                const WgmmaStreamKRange* range, std::int64_t i, WgmmaWork& w) {
  const int k_blocks = p.k_blocks;
  const std::int64_t tiles =
      kCfg.cluster_rows(p.tiles_m) * ((p.tiles_n + kCfg.cluster_n - 1) / kCfg.cluster_n) * p.batch;
  if constexpr (kCfg.split_k) {
    const std::int64_t t = cluster + i * clusters;
    if (t >= tiles * p.slices) return false;
    w.tile = t / p.slices;
    w.slice = t % p.slices;
    w.kb_begin = int(w.slice) * p.k_blocks_per_slice;
    w.kb_end = min(k_blocks, w.kb_begin + p.k_blocks_per_slice);
    return true;
  }
  w.slice = 0;
  w.first_range = w.last_range = 0;
  if constexpr (kCfg.stream_k) {
    // The stream-K range first, so that its shares are written and summed while other
    // clusters still compute, and the run ends on whole tiles, which all end together.
    const std::int64_t begin = range->begin, end = range->end;
    const std::int64_t pos = i == 0 ? begin : (begin / k_blocks + i) * k_blocks;
    if (pos < end) {
      const std::int64_t s = pos / k_blocks;
      w.tile = p.dp_tiles + s;
      w.kb_begin = int(pos - s * k_blocks);
      w.kb_end = int(min(std::int64_t(k_blocks), end - s * k_blocks));
      w.first_range = int(stream_k_owner(p, s * k_blocks));
      w.last_range = int(stream_k_owner(p, s * k_blocks + k_blocks - 1));
      return true;
    }
    const std::int64_t j = i - range->sk_items;
    if (j >= range->dp_rounds) return false;
    w.tile = cluster + j * clusters;
    w.kb_begin = 0;
    w.kb_end = k_blocks;
    return true;
  }
  if (i >= round_robin_rounds(tiles, cluster, clusters)) return false;
  w.tile = cluster + i * clusters;
  w.kb_begin = 0;
  w.kb_end = k_blocks;
  return true;
}

// Stream-K's fixup, by one consumer warpgroup after its piece of stream-K tile w: every
// range that touches the tile hands in its share (fp32, in the accumulators' register
// order, so 16-byte stores and loads coalesce), then adds one to the tile's arrival
// counter; whichever arrives last sums all shares in range order (so the result does not
// depend on which one it was) and stores the tile. Nobody waits for anybody, so the
// fixup needs no assumption about which CTAs run at the same time. A range hands in at
// most two shares: of the tile it starts inside (role 0) and of the tile whose first
// k-block it holds (role 1); the workspace has a slot for each.
// Returns true when acc holds the whole tile (store it), false when the share is handed in.
template <TilemmWgmmaConfig kCfg>
__device__ __forceinline__ bool wgmma_stream_k_fixup(const WgmmaParams& p, const WgmmaWork& w, std::int64_t cluster,
                                                     unsigned rank, int c, int tid, bool elected, int* finisher,
                                                     float (&acc)[kCfg.bm / 2]) {
  constexpr int kConsumers = kCfg.consumers();
  constexpr std::int64_t kSlotFloats = std::int64_t(kCfg.bm) * 64;
  const std::int64_t s = w.tile - p.dp_tiles;
  const int first = w.first_range, last = w.last_range;
  if (first == last) return true;  // one range holds the whole tile
  const auto share = [&](std::int64_t owner) {
    const std::int64_t role = owner == first ? 1 : 0;
    return reinterpret_cast<float4*>(p.sk_partial) +
           (((owner * 2 + role) * kCfg.cluster_n + rank) * kConsumers + c) * (kSlotFloats / 4) + tid;
  };
  float4* const mine = share(cluster);
#pragma unroll
  for (int q = 0; q < kCfg.bm / 8; ++q)
    __stcg(mine + q * 128, make_float4(acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]));
  ptx::named_barrier_sync(unsigned(1 + c), 128);
  if (elected) {
    unsigned* const arrivals = p.sk_arrivals + (s * kCfg.cluster_n + rank) * kConsumers + c;
    *finisher = ptx::atomic_add_acq_rel_gpu(arrivals, 1u) == unsigned(last - first) ? 1 : 0;
  }
  ptx::named_barrier_sync(unsigned(1 + c), 128);
  if (*finisher == 0) return false;
  // Always the same order (range by range), whichever warpgroup finishes; a share that is
  // not the first term is read back even when it is this warpgroup's own, rather than kept
  // in a second set of 128 registers. Loads go in groups of 8 (32 registers in flight; the
  // empty asm keeps the compiler from hoisting all of them above the additions).
  const auto gather = [&](std::int64_t owner, auto combine) {
    const float4* const from = share(owner);
#pragma unroll
    for (int q0 = 0; q0 < kCfg.bm / 8; q0 += 8) {
#pragma unroll
      for (int q = q0; q < q0 + 8; ++q) {
        const float4 v = __ldcg(from + q * 128);
        combine(acc[4 * q], v.x);
        combine(acc[4 * q + 1], v.y);
        combine(acc[4 * q + 2], v.z);
        combine(acc[4 * q + 3], v.w);
      }
      asm volatile("" ::: "memory");
    }
  };
  // The first range's share is the first term; when this warpgroup holds it, its
  // accumulators already are that term.
  if (cluster != first) gather(first, [](float& a, float v) { a = v; });
  for (int owner = first + 1; owner <= last; ++owner) gather(owner, [](float& a, float v) { a += v; });
  return true;
}

template <TilemmWgmmaConfig kCfg, bool kTransA, bool kTransB, class CT>
__device__ __forceinline__ void wgmma_store_accumulators(const WgmmaParams& p, CT* C, std::int64_t m0,
                                                         std::int64_t n_row0, int lane,
                                                         const float (&acc)[kCfg.bm / 2]) {
  const int g = lane / 4, t = lane % 4;
  if constexpr (kCfg.swap_ab) {
    // `.swapab`: the product computed (m x n here) is the caller's C transposed, so its element
    // (row, col) is the caller's C(col, row): a warp's store writes 8 consecutive elements of
    // each of 4 caller columns.
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const std::int64_t col = n_row0 + g + 8 * h;
      if (col >= p.n) continue;
#pragma unroll
      for (int j = 0; j < kCfg.bm / 8; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const std::int64_t row = m0 + 8 * j + 2 * t + e;
          if (row < p.m) store_alpha_beta(C + col + row * p.ldc, acc[4 * j + 2 * h + e], p.alpha, p.beta);
        }
    }
    return;
  }
  const bool pairs = p.c_pairs_aligned;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const std::int64_t col = n_row0 + g + 8 * h;
    if (col >= p.n) continue;
    CT* const c_col = C + col * p.ldc;
#pragma unroll
    for (int j = 0; j < kCfg.bm / 8; ++j) {
      const std::int64_t row = m0 + 8 * j + 2 * t;
      if (row >= p.m) continue;
      const float v0 = p.alpha * acc[4 * j + 2 * h], v1 = p.alpha * acc[4 * j + 2 * h + 1];
      CT* const c = c_col + row;
      if (pairs && row + 1 < p.m) {
        if constexpr (std::is_same_v<CT, float>) {
          float2 out = make_float2(v0, v1);
          if (p.beta != 0.0f) {
            const float2 old = *reinterpret_cast<const float2*>(c);
            out.x += p.beta * old.x;
            out.y += p.beta * old.y;
          }
          *reinterpret_cast<float2*>(c) = out;
        } else {
          float o0 = v0, o1 = v1;
          if (p.beta != 0.0f) {
            o0 += p.beta * to_float(c[0]);
            o1 += p.beta * to_float(c[1]);
          }
          // One 4-byte store of the two rounded halves, element row in the low half.
          *reinterpret_cast<unsigned*>(c) = pack_pair<CT>(o0, o1);
        }
      } else {
#pragma unroll
        for (int e = 0; e < 2; ++e)
          if (row + e < p.m) store_alpha_beta(c + e, acc[4 * j + 2 * h + e], p.alpha, p.beta);
      }
    }
  }
}

// Whether a launch's staged epilogue gets C from the TMA (wgmma_load_c_box): beta != 0 and a
// TMA-writable C, in every kernel with staging but stream-K's (with the TMA's loads they
// spilled registers; their epilogue reads C by the threads).
template <TilemmWgmmaConfig kCfg>
__device__ __forceinline__ bool wgmma_loads_c_by_tma(const WgmmaParams& p) {
  return kCfg.tma_store && !kCfg.stream_k && p.tma_store && p.beta != 0.0f;
}

// beta != 0 with a TMA-writable C: the TMA loads C's box of a round into the staging box
// the round then fills in place (each thread reads its own elements, adds beta times them
// and writes the result where it read), completing on the box's mbarrier `bar`. The box
// must be free: its last store read by the TMA (cp.async.bulk.wait_group.read).
__device__ __forceinline__ void wgmma_load_c_box(const CUtensorMap* map_c, unsigned box_address, unsigned bar,
                                                 int m, int n, int batch) {
  ptx::mbarrier_arrive_expect_tx_shared_b64(bar, TilemmWgmmaConfig::kStagingBoxBytes);
  ptx::cp_async_bulk_tensor_3d_global_to_shared(box_address, map_c, m, n, batch, bar);
}

// The C boxes of a tile's first rounds (one per staging box), issued by the elected thread
// before the tile's k-loop so that they have landed when its epilogue begins. `box` is the
// box the epilogue's first round fills; box_m the elements of C along m in one box row.
template <TilemmWgmmaConfig kCfg>
__device__ __forceinline__ void wgmma_load_first_c_boxes(const CUtensorMap* map_c, unsigned staging_address,
                                                         unsigned c_barriers, int box, int box_m, int m0, int n0,
                                                         int batch) {
  constexpr int B = kCfg.staging_boxes;
  // The previous tile's stores must have left the boxes.
  ptx::cp_async_bulk_wait_group_read<0>();
  for (int round = 0; round < B && round * box_m < kCfg.bm; ++round) {
    const int bx = B == 2 ? box ^ round : 0;
    wgmma_load_c_box(map_c, staging_address + unsigned(bx * TilemmWgmmaConfig::kStagingBoxBytes),
                     c_barriers + 8u * unsigned(bx), m0 + round * box_m, n0, batch);
  }
}

// The epilogue through shared memory: the warpgroup's 64 columns of C by BM rows leave
// one 8 KB box at a time (128 bytes along m by 64 columns, 128-byte swizzle: 16-byte
// chunk q of column row r at chunk q ^ (r mod 8), so the 8 columns a warp instruction
// writes land in 8 different bank groups), alternating between the warpgroup's two
// boxes. Each thread writes its alpha/beta-scaled pairs, fences them for the async
// proxy, the warpgroup meets at a named barrier, and one thread hands the box to the
// TMA, which writes C (clipping at the borders) while the warpgroup fills the other box
// and then goes on to its next tile. Before a box is overwritten that thread waits until
// the TMA has read it, which is the store before the last one: so the warpgroup never
// waits for the store it has just issued (with two boxes per round it did, once a tile).
// With one box (staging_boxes = 1) it waits for the last one.
// The boxes alternate across tiles too (`box`, the next box to fill, lives as long as the
// warpgroup): a tile of an odd number of boxes (bm = 64 or 192 with a 16-bit C) ends on
// box 0, and restarting the next tile on box 0 would overwrite the box whose store was
// issued last, which that wait does not cover.
// When C is not TMA-writable the warpgroup copies each box out itself (above).
// beta != 0: through the TMA, C arrives in the box itself (wgmma_load_c_box). The first
// rounds' boxes were loaded before the k-loop (c_preloaded; else they are loaded now);
// each later round's box is loaded once the round before has stored from that box and
// the TMA has read it, i.e. one round ahead with two boxes. `c_phase` holds the parity
// each box's barrier completes next (bit = box), for as long as the warpgroup lives.
// Stream-K's kernels read C by the threads as below (wgmma_loads_c_by_tma).
template <TilemmWgmmaConfig kCfg, bool kThroughTma, class CT>
__device__ __forceinline__ void wgmma_store_through_staging(const WgmmaParams& p, const CUtensorMap* map_c,
                                                            char* staging, unsigned staging_address,
                                                            unsigned barrier_id, bool elected, CT* C,
                                                            std::int64_t m0, std::int64_t n0, std::int64_t batch,
                                                            int warp_in_group, int lane, int& box,
                                                            unsigned c_barriers, unsigned& c_phase, bool c_preloaded,
                                                            const float (&acc)[kCfg.bm / 2]) {
  constexpr int kBoxM = 128 / int(sizeof(CT));  // elements of C along m in one box row
  constexpr int kJPerBox = kBoxM / 8;
  constexpr int kRounds = kCfg.bm / kBoxM;
  constexpr int B = kCfg.staging_boxes;
  const int g = lane / 4, t = lane % 4;
  // beta = 0 (C never read) is decided once per tile, not per element or per box: a
  // per-element branch put a convergence barrier (BSSY/BSYNC) around every pair, and
  // Nsight Compute sampled most of the epilogue's stalls on those BSYNCs; a branch per box
  // laid each box's two variants side by side, so that the rounds a tile runs lay ~10 KB
  // apart and each began with an instruction-fetch stall (12% of the warps' samples at one
  // tile per CTA; docs/ladder.md, "What a lone launch spends").
  const auto rounds = [&]<bool kReadC>() {
    constexpr bool kLoadC = kReadC && kThroughTma && !kCfg.stream_k;  // wgmma_loads_c_by_tma
    if constexpr (kLoadC) {
      if (elected && !c_preloaded)
        wgmma_load_first_c_boxes<kCfg>(map_c, staging_address, c_barriers, box, kBoxM, int(m0), int(n0),
                                       int(batch));
    }
#pragma unroll
    for (int round = 0; round < kRounds; ++round, box = B == 2 ? box ^ 1 : 0) {
      char* const box_ptr = staging + box * TilemmWgmmaConfig::kStagingBoxBytes;
      if constexpr (kLoadC) {
        // Round + B - 1 fills the box the previous round stored from (with two boxes the
        // other one, with one this one): its C may come once the TMA has read that store.
        if (round >= 1 && round + B - 1 < kRounds && elected) {
          const int bx = B == 2 ? box ^ 1 : 0;
          ptx::cp_async_bulk_wait_group_read<0>();
          wgmma_load_c_box(map_c, staging_address + unsigned(bx * TilemmWgmmaConfig::kStagingBoxBytes),
                           c_barriers + 8u * unsigned(bx), int(m0) + (round + B - 1) * kBoxM, int(n0), int(batch));
        }
        ptx::mbarrier_wait_parity_shared_b64(c_barriers + 8u * unsigned(box), (c_phase >> box) & 1u);
        c_phase ^= 1u << box;
      } else {
        if constexpr (kThroughTma) {
          if (elected) ptx::cp_async_bulk_wait_group_read<B - 1>();
        }
        ptx::named_barrier_sync(barrier_id, 128);
      }
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int r = 16 * warp_in_group + g + 8 * h;  // the column of C within the 64
        const std::int64_t col = n0 + r;
        // beta != 0 without the TMA: every C element of the box row is loaded before any is
        // used, each load predicated (no branch), so that their latencies overlap. Loaded
        // beside its use, each behind its bounds test, the loads ran one after another: bf16
        // 4096^3 with beta = 1 took 0.233 ms against 0.177 with beta = 0 (H100;
        // docs/ladder.md, "beta = 1").
        // Through the TMA, likewise every C value of the box row is read from the box before
        // any result is written there (16-bit pairs kept packed, one register each).
        [[maybe_unused]] CT c_old[kJPerBox][2];
        using BoxedPair = std::conditional_t<std::is_same_v<CT, float>, float2, unsigned>;
        [[maybe_unused]] BoxedPair c_boxed[kJPerBox];
        const auto box_at = [&](int jj) {
          const int byte = (8 * jj + 2 * t) * int(sizeof(CT));
          return box_ptr + r * 128 + (((byte / 16) ^ (r % 8)) * 16) + byte % 16;
        };
        if constexpr (kLoadC) {
#pragma unroll
          for (int jj = 0; jj < kJPerBox; ++jj) c_boxed[jj] = *reinterpret_cast<const BoxedPair*>(box_at(jj));
        } else if constexpr (kReadC) {
#pragma unroll
          for (int jj = 0; jj < kJPerBox; ++jj) {
            const std::int64_t row = m0 + 8 * (round * kJPerBox + jj) + 2 * t;
            const CT* c = C + row + col * p.ldc;
            c_old[jj][0] = col < p.n && row < p.m ? c[0] : CT(0.0f);
            c_old[jj][1] = col < p.n && row + 1 < p.m ? c[1] : CT(0.0f);
          }
        }
#pragma unroll
        for (int jj = 0; jj < kJPerBox; ++jj) {
          const int j = round * kJPerBox + jj;
          char* const at = box_at(jj);
          float v0 = p.alpha * acc[4 * j + 2 * h], v1 = p.alpha * acc[4 * j + 2 * h + 1];
          if constexpr (kLoadC) {
            float2 old;
            if constexpr (std::is_same_v<CT, float>) {
              old = c_boxed[jj];
            } else {
              old = unpack_pair<CT>(c_boxed[jj]);
            }
            v0 += p.beta * old.x;
            v1 += p.beta * old.y;
          } else if constexpr (kReadC) {
            v0 += p.beta * to_float(c_old[jj][0]);
            v1 += p.beta * to_float(c_old[jj][1]);
          }
          if constexpr (std::is_same_v<CT, float>) {
            *reinterpret_cast<float2*>(at) = make_float2(v0, v1);
          } else {
            *reinterpret_cast<unsigned*>(at) = pack_pair<CT>(v0, v1);
          }
        }
      }
      if constexpr (!kThroughTma) {
        // The next box's (or tile's) barrier keeps later writes to this box behind these reads.
        ptx::named_barrier_sync(barrier_id, 128);
        wgmma_copy_box_out<64>(p.m, p.n, p.ldc, box_ptr, C, m0 + round * kBoxM, n0, warp_in_group, lane);
        continue;
      }
      ptx::fence_proxy_async_shared_cta();
      ptx::named_barrier_sync(barrier_id, 128);
      if (elected) {
        ptx::cp_async_bulk_tensor_3d_shared_to_global(map_c, int(m0) + round * kBoxM, int(n0), int(batch),
                                                      staging_address + box * TilemmWgmmaConfig::kStagingBoxBytes);
        ptx::cp_async_bulk_commit_group();
      }
    }
  };
  if (p.beta == 0.0f) {
    rounds.template operator()<false>();
  } else {
    rounds.template operator()<true>();
  }
}

// One TMA box into this CTA's shared memory, or with kCtas > 1 into the same offset of
// every CTA of the cluster (multicast), each copy completing on its CTA's barrier `bar`.
template <int kCtas>
__device__ __forceinline__ void tma_load_box_to_cluster(const CUtensorMap* map, unsigned dst, int x, int y, int z,
                                                        unsigned bar) {
  if constexpr (kCtas > 1) {
    ptx::cp_async_bulk_tensor_3d_global_to_shared_multicast(dst, map, x, y, z, bar, (1u << kCtas) - 1u);
  } else {
    ptx::cp_async_bulk_tensor_3d_global_to_shared(dst, map, x, y, z, bar);
  }
}

template <TilemmWgmmaConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), 1)
    wgmma_gemm(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
               const __grid_constant__ CUtensorMap map_b_edge, const __grid_constant__ CUtensorMap map_a_edge,
               const __grid_constant__ CUtensorMap map_c, WgmmaParams p) {
  static_assert(kCfg.valid());
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using T = typename MmaInputTraits<kCfg.input>::Element;
  constexpr int S = kCfg.stages, BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk();
  constexpr bool kTf32 = kCfg.input == TilemmMmaInput::TF32;
  static_assert(!kTf32 || (kTransA && !kTransB), "tf32 wgmma reads both operands K-major: op(A) = T, op(B) = N");
  constexpr int CN = kCfg.cluster_n, CM = kCfg.cluster_m, CS = kCfg.cluster_size();
  constexpr ptx::WgmmaInput kIn = kCfg.input == TilemmMmaInput::BF16  ? ptx::WgmmaInput::BF16
                                  : kCfg.input == TilemmMmaInput::F16 ? ptx::WgmmaInput::F16
                                                                      : ptx::WgmmaInput::TF32;
  // wgmma A = op(B)^T is K-major when B is stored k x n (op N); wgmma B = op(A)^T is
  // K-major when A is stored k x m (op T). MN-major tiles are loaded as 64 x 64 boxes.
  constexpr int kTransWgmmaA = kTransB ? 1 : 0;
  constexpr int kTransWgmmaB = kTransA ? 0 : 1;
  constexpr unsigned kMnBlockBytes = 64 * 128;  // one 64-wide MN column block of 64 k rows
  constexpr unsigned kSliceStepKMajor = 32;        // next k16 (k8 tf32) slice: 32 bytes along a row
  constexpr unsigned kSliceStepMnMajor = 16 * 128;  // next k16 slice: 16 rows of 128 bytes
  constexpr unsigned kSliceStepMnMajor32 = 16 * 64;  // bm = 32: 16 rows of 64 bytes

  extern __shared__ uint4 wgmma_smem[];
  const unsigned raw = ptx::shared_address(wgmma_smem);
  const unsigned ring = (raw + 1023u) & ~1023u;
  const unsigned barriers = ring + unsigned(S * kCfg.stage_bytes());
  const unsigned staging = barriers + unsigned(kCfg.barrier_bytes());  // 1024-aligned
  const auto full_bar = [&](int s) { return barriers + 8u * unsigned(s); };
  const auto empty_bar = [&](int s) { return barriers + 8u * unsigned(S + s); };
  const auto a_tile = [&](int s) { return ring + unsigned(s * kCfg.stage_bytes()); };
  const auto b_tile = [&](int s) { return a_tile(s) + unsigned(kCfg.a_tile_bytes()); };

  const int warpgroup = threadIdx.x / 128;
  // In a cluster of CN CTAs along n, CTA `rank` computes tile column CN * q + rank; the
  // CN CTAs share the A tile, and each loads 1/CN of it for all of them (multicast).
  // In a cluster of CM CTAs along m, CTA `m_rank` computes tile row CM * q + m_rank, and
  // each loads 1/CM of the shared B tile for all of them.
  const unsigned cta_rank = CS > 1 ? ptx::cluster_ctarank() : 0u;
  const unsigned rank = CM > 1 ? 0u : cta_rank, m_rank = CM > 1 ? cta_rank : 0u;
  // Work items (wgmma_work_item): tiles, (tile, k-slice) pairs with split-K (the slices of
  // a tile adjacent so that the CTAs working on one tile at once share its panels in
  // L2), or a range of k-blocks and then whole tiles with stream-K.
  const std::int64_t cluster = blockIdx.x / CS, clusters = gridDim.x / CS;
  // Stream-K's words after the barriers: each consumer warpgroup's finisher flag, then the range.
  char* const stream_k_words = reinterpret_cast<char*>(wgmma_smem) + (barriers - raw) + 16 * S;
  // `.pingpong`'s turn barriers in the same place: consumer c may start waiting for its
  // tile's stages once turn_bar(c) says the other has issued the previous tile's k-loop.
  const auto turn_bar = [&](int c) { return barriers + 16u * unsigned(S) + 8u * unsigned(c); };
  // Consumer c's barriers for the C its staging boxes receive from the TMA (beta != 0).
  static_assert(!kCfg.tma_store || 16 * S + 48 <= TilemmWgmmaConfig::kCLoadBarrierOffset,
                "the C-load barriers lie past the stages' barriers and stream-K's words");
  const auto c_load_bars = [&](int c) {
    return barriers + unsigned(TilemmWgmmaConfig::kCLoadBarrierOffset + 8 * kCfg.staging_boxes * c);
  };
  auto* const sk_range =
      reinterpret_cast<WgmmaStreamKRange*>(stream_k_words + TilemmWgmmaConfig::kStreamKRangeOffset);
  if (threadIdx.x == 0) {
    if constexpr (kCfg.stream_k) {
      const bool in_stream_k = cluster < p.sk_clusters;  // clusters past them have no range
      const std::int64_t begin = in_stream_k ? stream_k_bound(p, cluster) : 0;
      const std::int64_t end = in_stream_k ? stream_k_bound(p, cluster + 1) : 0;
      const std::int64_t items = end > begin ? (end - 1) / p.k_blocks - begin / p.k_blocks + 1 : 0;
      // This cluster's whole tiles, below dp_tiles. With ranges dp_tiles is a multiple of
      // clusters; without (plan_stream_k found none worth it) it is every tile.
      *sk_range = {round_robin_rounds(p.dp_tiles, cluster, clusters), begin, end, items};
    }
    ptx::prefetch_tensormap(&map_a);
    ptx::prefetch_tensormap(&map_b);
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init_shared_b64(full_bar(s), 1);  // the producer's expect_tx arrival
      // One arrival per consumer warp of every CTA that reads what this CTA multicasts.
      ptx::mbarrier_init_shared_b64(empty_bar(s), 4 * kCfg.readers_per_stage() * CS);
    }
    if constexpr (kCfg.pingpong) {
      ptx::mbarrier_init_shared_b64(turn_bar(0), 1);
      ptx::mbarrier_init_shared_b64(turn_bar(1), 1);
    }
    // Only in launches that load C (beta != 0 through the TMA): the others set up as before.
    if (wgmma_loads_c_by_tma<kCfg>(p)) {
      for (int i = 0; i < kCfg.consumers() * kCfg.staging_boxes; ++i)
        ptx::mbarrier_init_shared_b64(c_load_bars(0) + 8u * unsigned(i), 1);  // the expect_tx arrival
    }
    ptx::fence_mbarrier_init_release_cluster();
  }
  // In a cluster, the peers' barriers must exist before any multicast into them or arrival
  // on them: a relaxed arrival now (the fence above publishes thread 0's initializations),
  // the wait after the grid dependency's, so that the two waits overlap.
  if constexpr (CS > 1) ptx::cluster_arrive_relaxed();
  __syncthreads();
  // Launched as a programmatic dependent (launch_wgmma), everything above may run while
  // the previous kernel in the stream finishes; global memory only after it has. This
  // kernel in turn lets the next one launch now: its CTAs take SMs as these exit.
  ptx::griddepcontrol_wait();
  ptx::griddepcontrol_launch_dependents();
  if constexpr (CS > 1) ptx::cluster_wait();

  const std::int64_t cluster_cols = (p.tiles_n + CN - 1) / CN;
  const std::int64_t cluster_rows = kCfg.cluster_rows(p.tiles_m);

  // A's boxes go to every CTA of a cluster along n, B's to every CTA of a cluster along m;
  // a consumer frees a stage in all of them.
  const auto load_a = [&](unsigned dst, int x, int y, int z, unsigned bar, bool edge = false) {
    tma_load_box_to_cluster<CN>(edge ? &map_a_edge : &map_a, dst, x, y, z, bar);
  };
  const auto load_b = [&](unsigned dst, int x, int y, int z, unsigned bar, bool edge = false) {
    tma_load_box_to_cluster<CM>(edge ? &map_b_edge : &map_b, dst, x, y, z, bar);
  };
  const auto release_stage = [&](int s) {
    if constexpr (CS > 1) {
#pragma unroll
      for (int r = 0; r < CS; ++r) ptx::mbarrier_arrive_cluster_b64(empty_bar(s), unsigned(r));
    } else {
      ptx::mbarrier_arrive_shared_b64(empty_bar(s));
    }
  };

  if (warpgroup == 0) {
    // Producer: one thread issues every copy; the rest of the warpgroup idles.
    ptx::setmaxnreg_dec_sync_aligned_u32<TilemmWgmmaConfig::kProducerRegisters>();
    RingPosition<S> pos;
    WgmmaWork w;
    for (std::int64_t i = 0; threadIdx.x == 0 && wgmma_work_item<kCfg>(p, cluster, clusters, sk_range, i, w); ++i) {
      const WgmmaTile tile = wgmma_tile_coordinates(w.tile, cluster_rows, cluster_cols);
      const int m0 = int((tile.tm * CM + m_rank) * BM), n0 = int((tile.tn * CN + rank) * BN);
      const int za = p.a_broadcast ? 0 : int(tile.batch), zb = p.b_broadcast ? 0 : int(tile.batch);
      // Stream-K's producer keeps its ranges beside the loop: with the edge test too it
      // needed a stack frame, so stream-K keeps the one map.
      const bool edge = !kCfg.stream_k && !kTransB && CM == 1 && p.b_edge && n0 + BN > p.n;
      // A stored k x m: CTA r of the cluster loads rows [r, r + 1) * kARows of the A tile. In a
      // row of tiles past m (WgmmaParams::a_edge) its box holds a_box_rows(r) of them.
      constexpr int kARows = BM / CN;
      const bool a_edge = !kCfg.stream_k && kTransA && p.a_edge && m0 + BM > p.m;
      const auto a_box_rows = [&](int r) {
        const std::int64_t live = p.m - m0 - std::int64_t(r) * kARows;
        return !a_edge || live >= kARows ? kARows : live > 0 ? p.a_edge_rows : 0;
      };
      unsigned a_bytes_not_loaded = 0;
#pragma unroll
      for (int r = 0; r < CN; ++r) {
        a_bytes_not_loaded += unsigned(kARows - a_box_rows(r)) * TilemmWgmmaConfig::kRowBytes;
      }
      const int my_a_rows = a_box_rows(int(rank));
      const unsigned stage_bytes = (edge ? p.edge_stage_bytes : unsigned(kCfg.stage_bytes())) - a_bytes_not_loaded;
      for (int kb = w.kb_begin; kb < w.kb_end; ++kb) {
        const int k0 = k_block_in_round_order(kb, w.kb_begin, w.kb_end, i) * BK;
        ptx::mbarrier_wait_parity_shared_b64(empty_bar(pos.stage), pos.phase ^ 1u);
        ptx::mbarrier_arrive_expect_tx_shared_b64(full_bar(pos.stage), stage_bytes);
        if constexpr (kTransB) {  // B stored n x k: 64 x 64 boxes (n, k), every CM-th one per CTA
#pragma unroll
          for (int j = 0; j < BN / 64; ++j)
            if (j % CM == int(m_rank))
              load_b(a_tile(pos.stage) + j * kMnBlockBytes, n0 + 64 * j, k0, zb, full_bar(pos.stage));
        } else {  // B stored k x n: one box (k 64, n BN / CM) per CTA
          constexpr int kCols = BN / CM;
          load_b(a_tile(pos.stage) + m_rank * kCols * 128, k0, n0 + int(m_rank) * kCols, zb, full_bar(pos.stage),
                 edge);
        }
        if constexpr (kTransA) {  // A stored k x m: one box (k 64, m kARows) per CTA
          if (my_a_rows > 0) {
            load_a(b_tile(pos.stage) + rank * kARows * 128, k0, m0 + int(rank) * kARows, za, full_bar(pos.stage),
                   my_a_rows < kARows);
          }
        } else {  // A stored m x k: boxes (m 64 or 32, k 64), every CN-th one per CTA
          constexpr int kBoxRows = kCfg.mn_box_rows();
#pragma unroll
          for (int j = 0; j < BM / kBoxRows; ++j)
            if (j % CN == int(rank))
              load_a(b_tile(pos.stage) + j * kCfg.mn_box_bytes(), m0 + kBoxRows * j, k0, za, full_bar(pos.stage));
        }
        pos.advance();
      }
    }
    // In a cluster, the peers' consumers arrive on this CTA's empty barriers: the CTA may
    // exit only once they all have, i.e. once every stage's last fill has been released in
    // every CTA that read it. The producer waits for that as if to fill each stage once
    // more (stages never filled pass at once); the multicasts into this CTA have all
    // landed by then, since its own consumers waited for every stage they release.
    if constexpr (CS > 1) {
      if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s, pos.advance())
          ptx::mbarrier_wait_parity_shared_b64(empty_bar(pos.stage), pos.phase ^ 1u);
      }
    }
  } else {
    // Consumers: warpgroup c computes columns [64c, 64c + 64) of the block's n range, or
    // with `.pingpong` every other tile whole (all its 64-column blocks), skipping the
    // other's stages.
    ptx::setmaxnreg_inc_sync_aligned_u32<kCfg.consumer_registers()>();
    constexpr int kBlocks = kCfg.blocks_per_consumer();
    const int c = warpgroup - 1;
    const int first_block = kCfg.pingpong ? 0 : c;  // the first 64-column block of the tile it computes
    const int lane = threadIdx.x % 32, warp_in_group = (threadIdx.x % 128) / 32;
    const bool elected = threadIdx.x % 128 == 0;
    const unsigned my_staging = staging + unsigned(c * kCfg.staging_boxes * TilemmWgmmaConfig::kStagingBoxBytes);
    char* const my_staging_ptr = reinterpret_cast<char*>(wgmma_smem) + (my_staging - raw);
    int staging_box = 0;  // the next of its staging boxes to fill (two alternate across tiles)
    unsigned c_phase = 0;  // the parity each staging box's C barrier completes next (bit = box)
    RingPosition<S> pos;
    WgmmaWork w;
    for (std::int64_t i = 0; wgmma_work_item<kCfg>(p, cluster, clusters, sk_range, i, w); ++i) {
      if constexpr (kCfg.pingpong) {
        if (int(i % 2) != c) {
          pos.advance_by(w.kb_end - w.kb_begin);  // the other consumer's tile
          continue;
        }
        // A parity wait tells apart only a barrier's current and previous phase, and this
        // consumer has just skipped a whole tile of stages: it may wait on them only once
        // the other has waited on every stage before them, i.e. issued its k-loop. Tile j of
        // consumer 1 follows tile j of consumer 0; tile j of consumer 0 follows tile j - 1
        // of consumer 1 (for j = 0 the fresh barrier's "completed" parity 1 lets it pass).
        const unsigned j = unsigned(i / 2);
        ptx::mbarrier_wait_parity_shared_b64(turn_bar(c), (j & 1u) ^ (c == 0 ? 1u : 0u));
      }
      // The epilogue's coordinates, 32-bit (can_implement keeps them below 2^31) so that
      // fewer registers stay live beside the 128 accumulators.
      const WgmmaTile tile = wgmma_tile_coordinates(w.tile, cluster_rows, cluster_cols);
      const int tile_m0 = (int(tile.tm) * CM + int(m_rank)) * BM, tile_n0 = (int(tile.tn) * CN + int(rank)) * BN;
      const int batch = int(tile.batch);
      float acc[kBlocks][BM / 2];
#pragma unroll
      for (int b = 0; b < kBlocks; ++b)
#pragma unroll
        for (int j = 0; j < BM / 2; ++j) acc[b][j] = 0.0f;
      // beta != 0 through the TMA: the first block's first C boxes go out before the k-loop,
      // so that they have landed when its epilogue begins. Not from inside the loop: a test
      // there for its first k-block made the 64 x 64 ping-pong tile's k-loop 9-13% slower at
      // beta = 0 too (bf16 128 x 4096 x k, H200).
      const bool preload_c = wgmma_loads_c_by_tma<kCfg>(p);
      if (preload_c && elected)
        wgmma_load_first_c_boxes<kCfg>(&map_c, my_staging, c_load_bars(c), staging_box, p.c_is_fp32 ? 32 : 64,
                                       tile_m0, tile_n0 + 64 * first_block, batch);
      int previous = -1;
      for (int kb = w.kb_begin; kb < w.kb_end; ++kb) {
        ptx::mbarrier_wait_parity_shared_b64(full_bar(pos.stage), pos.phase);
        // The consumer's 64 rows (K-major) or MN block of wgmma's A, one per block.
        const unsigned a_base = a_tile(pos.stage) + unsigned(first_block) * kMnBlockBytes;
        const unsigned b_base = b_tile(pos.stage);
        ptx::wgmma_fence_sync_aligned();
#pragma unroll
        for (int s = 0; s < BK / kCfg.mma_k(); ++s) {
          std::uint64_t db;
          if constexpr (!kTransWgmmaB) {
            db = ptx::wgmma_descriptor_swizzle128(b_base + s * kSliceStepKMajor, 16, 1024);
          } else if constexpr (BM == 32) {  // one 64-byte-swizzled block, 64-byte k rows
            db = ptx::wgmma_descriptor_swizzle64(b_base + s * kSliceStepMnMajor32, kCfg.mn_box_bytes(), 512);
          } else {
            db = ptx::wgmma_descriptor_swizzle128(b_base + s * kSliceStepMnMajor, kMnBlockBytes, 1024);
          }
#pragma unroll
          for (int b = 0; b < kBlocks; ++b) {
            const unsigned a_block = a_base + unsigned(b) * kMnBlockBytes;
            const std::uint64_t da =
                kTransWgmmaA ? ptx::wgmma_descriptor_swizzle128(a_block + s * kSliceStepMnMajor, kMnBlockBytes, 1024)
                             : ptx::wgmma_descriptor_swizzle128(a_block + s * kSliceStepKMajor, 16, 1024);
            if constexpr (kTf32) {
              ptx::wgmma_mma_async_m64nNk8_f32_tf32<BM>(acc[b], da, db);
            } else {
              ptx::wgmma_mma_async_m64nNk16_f32<BM, kIn, kTransWgmmaA, kTransWgmmaB>(acc[b], da, db);
            }
          }
        }
        ptx::wgmma_commit_group_sync_aligned();
        // The previous k-block's wgmma are done: its stage may be refilled.
        ptx::wgmma_wait_group_sync_aligned<1>();
        if (previous >= 0 && lane == 0) release_stage(previous);
        previous = pos.stage;
        pos.advance();
      }
      if constexpr (kCfg.pingpong) {
        if (elected) ptx::mbarrier_arrive_shared_b64(turn_bar(1 - c));  // the other's turn
      }
      ptx::wgmma_wait_group_sync_aligned<0>();
      if (previous >= 0 && lane == 0) release_stage(previous);

      const std::int64_t m0 = tile_m0;
      // A cluster's last tile column may lie past n: its stores are all skipped.
      const auto block_n0 = [&](int b) { return std::int64_t(tile_n0) + 64 * (first_block + b); };
      if constexpr (kCfg.split_k) {
        // This slice's share, unscaled, into its fp32 partial; the reduction applies
        // alpha and beta once the slices are summed.
        static_assert(kBlocks == 1);
        WgmmaParams slice_out = p;
        slice_out.alpha = 1.0f;
        slice_out.beta = 0.0f;
        slice_out.ldc = p.m;
        slice_out.c_pairs_aligned = p.m % 2 == 0;
        float* const P = p.partial + w.slice * p.m * p.n;
        wgmma_store_accumulators<kCfg, kTransA, kTransB>(slice_out, P, m0, block_n0(0) + 16 * warp_in_group, lane,
                                                         acc[0]);
      } else {
        if constexpr (kCfg.stream_k) {
          static_assert(kBlocks == 1);
          int* const finisher = reinterpret_cast<int*>(stream_k_words) + c;
          if (w.tile >= p.dp_tiles &&
              !wgmma_stream_k_fixup<kCfg>(p, w, cluster, rank, c, threadIdx.x % 128, elected, finisher, acc[0])) {
            continue;
          }
        }
#pragma unroll
        for (int b = 0; b < kBlocks; ++b) {
          const std::int64_t n0 = block_n0(b);
          if constexpr (kCfg.tma_store) {
            const auto staged = [&]<bool kThroughTma>(auto* C) {
              wgmma_store_through_staging<kCfg, kThroughTma>(
                  p, &map_c, my_staging_ptr, my_staging, unsigned(1 + c), elected, C + batch * p.stride_c, m0, n0,
                  batch, warp_in_group, lane, staging_box, c_load_bars(c), c_phase, preload_c && b == 0, acc[b]);
            };
            if (p.c_is_fp32) {
              if (p.tma_store) {
                staged.template operator()<true>(static_cast<float*>(p.C));
              } else {
                staged.template operator()<false>(static_cast<float*>(p.C));
              }
            } else if (p.tma_store) {
              staged.template operator()<true>(static_cast<T*>(p.C));
            } else {
              staged.template operator()<false>(static_cast<T*>(p.C));
            }
          } else {
            const std::int64_t n_row0 = n0 + 16 * warp_in_group;
            if (p.c_is_fp32) {
              float* const C = static_cast<float*>(p.C) + batch * p.stride_c;
              wgmma_store_accumulators<kCfg, kTransA, kTransB>(p, C, m0, n_row0, lane, acc[b]);
            } else {
              T* const C = static_cast<T*>(p.C) + batch * p.stride_c;
              wgmma_store_accumulators<kCfg, kTransA, kTransB>(p, C, m0, n_row0, lane, acc[b]);
            }
          }
        }
      }
    }
    // The TMA's last stores must have read the staging before the CTA's shared memory
    // goes away (and written C before the kernel counts as done).
    if constexpr (kCfg.tma_store) {
      if (elected) ptx::cp_async_bulk_wait_group<0>();
    }
  }
#else
  (void)map_a;
  (void)map_b;
  (void)map_b_edge;
  (void)map_a_edge;
  (void)map_c;
  (void)p;
#endif
}

// ---- host side: tensor maps, launch, registry entries ----

// cuTensorMapEncodeTiled is a driver function; the runtime hands out its address, so
// libtilemm needs no link to libcuda.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &status) !=
            cudaSuccess ||
        status != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      f = nullptr;
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  return fn;
}

// wgmma_common.cuh says what the map holds.
bool encode_operand_map(CUtensorMap* map, DType type, const void* base, std::int64_t rows, std::int64_t cols,
                        std::int64_t ld, std::int64_t batch, std::int64_t stride, int box_cols,
                        bool tf32_elements, int box_row_bytes) {
  const auto encode = tensor_map_encoder();
  if (encode == nullptr) return false;
  const bool broadcast = batch <= 1 || stride == 0;
  const cuuint64_t dims[3] = {cuuint64_t(rows), cuuint64_t(cols), cuuint64_t(broadcast ? 1 : batch)};
  const cuuint64_t es = cuuint64_t(dtype_size(type));
  const cuuint64_t bytes_ld = cuuint64_t(ld) * es;
  const cuuint64_t strides[2] = {bytes_ld, broadcast ? bytes_ld * cuuint64_t(cols) : cuuint64_t(stride) * es};
  const cuuint32_t box[3] = {cuuint32_t(cuuint64_t(box_row_bytes) / es), cuuint32_t(box_cols), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUtensorMapDataType dt = type == DType::BF16  ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                 : type == DType::F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                 : tf32_elements      ? CU_TENSOR_MAP_DATA_TYPE_TFLOAT32
                                                      : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  // L2 promotion: the size of the block L2 fetches around each request of a copy. A box row
  // is 128 bytes of one column. Where columns start a whole number of 128-byte lines apart,
  // every row is one line, and 256 B (kept there) also fetches the line of the next
  // k-block. Elsewhere (bf16 ld = 1000: 2000 bytes) rows straddle lines, and 128 B measured
  // faster on an H100: the 16-bit and tf32 TN products with such operands 1.0-1.21x, bf16
  // 6000 x 1000 x 5000 NN 120.1 us against 101.0 (0.70x -> 0.83x cuBLAS), the same DRAM
  // bytes; tf32 NN and fp32 unchanged (docs/ladder.md, "L2 promotion for columns off
  // 128-byte lines").
  const CUtensorMapL2promotion promotion =
      bytes_ld % 128 == 0 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  return encode(map, dt, 3, const_cast<void*>(base), dims, strides, box, element_strides,
                CU_TENSOR_MAP_INTERLEAVE_NONE,
                box_row_bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B, promotion,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Both operands' maps for a configuration: K-major operands in one box per stage
// (64 k by the tile's rows), MN-major ones in 64 x 64 boxes (A with bm = 32: 32 x 64,
// 64-byte rows).
template <TilemmWgmmaConfig kCfg>
bool encode_wgmma_maps(const GemmProblem& p, CUtensorMap* map_a, CUtensorMap* map_b) {
  const int a_box = p.opa == Op::T ? kCfg.bm / kCfg.cluster_n : 64;  // a cluster splits the A tile
  const int b_box = p.opb == Op::N ? kCfg.bn / kCfg.cluster_m : 64;  // a cluster along m splits the B tile
  const int a_row_bytes = p.opa == Op::N && kCfg.bm == 32 ? 64 : 128;
  return encode_operand_map(map_a, p.a_type, p.A, p.a_rows(), p.a_cols(), p.lda, p.batch, p.stride_a, a_box, true,
                            a_row_bytes) &&
         encode_operand_map(map_b, p.b_type, p.B, p.b_rows(), p.b_cols(), p.ldb, p.batch, p.stride_b, b_box);
}

// tf32 wgmma reads both operands K-major: A stored k x m (op T), B stored k x n (op N).
inline bool k_major_layouts(const GemmProblem& p) { return p.opa == Op::T && p.opb == Op::N; }

// kRepack: operands the TMA cannot read in place are repacked first (see below), so
// only element alignment is required of them. kTransposeOnly (tf32): the operands are
// aligned as the TMA needs, and only the one that is not K-major is copied, transposed.
template <TilemmWgmmaConfig kCfg, bool kRepack, bool kTransposeOnly = false>
std::string wgmma_can_implement(const GemmProblem& p, const DeviceInfo& dev) {
  static_assert(!kTransposeOnly || (kRepack && kCfg.input == TilemmMmaInput::TF32));
  std::string r = require_tensor_core_types<kCfg.input>(p);
  if (r.empty()) {
    r = tma_requirements(p, dev, kCfg.smem_bytes(), kCfg.element_bytes(), kRepack && !kTransposeOnly);
  }
  if (!r.empty()) return r;
  if (kTransposeOnly && (p.opa == Op::N) == (p.opb == Op::T)) {
    return k_major_layouts(p) ? "both operands are K-major (op(A) = T, op(B) = N): the entry without .transpose "
                                "reads them in place"
                              : "neither operand is K-major (NT): two passes, the .repack entries";
  }
  if (kCfg.split_k && p.batch > 1) return "split-K computes one product per call (batchCount = 1)";
  if (!kRepack && kCfg.input == TilemmMmaInput::TF32 && !k_major_layouts(p)) {
    return "tf32 wgmma reads both operands K-major: needs op(A) = T and op(B) = N (other ops: the .repack entry)";
  }
  return {};
}

// ---- split-K for problems with few tiles ----
//
// A 16 x 4096 x 4096 product is 32 tiles of 64 x 128: a quarter of the SMs. Splitting k
// into slices gives every SM work; each slice writes its unscaled fp32 partial product to
// a stream-ordered workspace, and a second kernel sums the slices in a fixed order (so
// the result does not depend on timing) and applies alpha and beta.

// Slices for `tiles` tiles (one block per SM) and `k_blocks` k-blocks: enough to fill the
// GPU once, at most 16, each at least 4 k-blocks long.
inline int wgmma_split_k_slices(std::int64_t tiles, std::int64_t k_blocks, std::int64_t sms) {
  return split_k_slices(tiles, sms, k_blocks, 4, 16);
}

// The tiles of a configuration counted in clusters (cluster_n tiles side by side along
// n), and the 128-byte k-blocks of k: what the host-side schedules count in.
template <TilemmWgmmaConfig kCfg>
std::int64_t wgmma_cluster_tiles(std::int64_t m, std::int64_t n, std::int64_t batch) {
  constexpr std::int64_t kClusterCols = std::int64_t(kCfg.cluster_n) * kCfg.bn;
  return kCfg.cluster_rows((m + kCfg.bm - 1) / kCfg.bm) * ((n + kClusterCols - 1) / kClusterCols) * batch;
}

template <TilemmWgmmaConfig kCfg>
std::int64_t wgmma_k_blocks(std::int64_t k) {
  return (k + kCfg.bk() - 1) / kCfg.bk();
}

// ---- stream-K for the last wave ----
//
// 512 tiles of 256 x 128 on 132 SMs (4096^3) are 3.88 waves: the fourth wave leaves 16
// SMs idle, 3% of the run. Stream-K keeps the whole waves as they are and cuts the
// k-blocks of the remaining tiles into one even range per cluster, so every SM finishes
// at about the same time; the tiles those ranges split are summed by the fixup in the
// kernel. A range is at least a quarter of a tile's k-blocks (and 4), so a tile collects
// at most about five shares; when that leaves no more ranges than tiles, stream-K would
// gain nothing and every tile runs whole.
// With fewer tiles than clusters the ranges are all the work, and each tile is cut into the
// same whole number of ranges (as many as fit in the clusters, at most four): ranges that
// straddle two tiles ran slower than whole ones (see stream_k_efficiency).

// The number of stream-K ranges for `tiles` tiles of `k_blocks` k-blocks on `clusters`
// clusters, 0 when every tile runs whole.
inline std::int64_t stream_k_ranges(std::int64_t tiles, std::int64_t clusters, std::int64_t k_blocks) {
  if (tiles <= 0 || clusters <= 0) return 0;
  const std::int64_t min_range = std::max<std::int64_t>(4, (k_blocks + 3) / 4);
  if (tiles < clusters) {
    const std::int64_t ranges_per_tile = std::min(clusters / tiles, k_blocks / min_range);
    return ranges_per_tile > 1 ? ranges_per_tile * tiles : 0;
  }
  const std::int64_t rest = tiles % clusters;
  const std::int64_t ranges = std::min(clusters, rest * k_blocks / min_range);
  return ranges > rest ? ranges : 0;
}

// The share of the clusters' time that tiles keep busy: wave_efficiency without stream-K;
// with it, the whole waves, then the rest spread evenly, plus a fixed cost per call.
// Measured on the H200 (bf16, 3072^3 to 8192^3, against the plain kernel in the same
// run): stream-K took 14-24 us longer than the ideal even split at every size; Nsight
// Compute put that inside the kernel (4096^3: 203 against 190 us, +36 MB read from and
// +32 MB written to DRAM), not in the workspace allocation. Over 15 bf16 and tf32 shapes
// with 0.5-6 waves of cluster tiles (docs/ladder.md, "Stream-K's cost grows with k") the
// excess was 13-28 us for tiles of up to 90 us and 21-66 us for tiles of 160-240 us (k =
// 11008 and 14336): it is charged as 10 us plus a fifth of a tile, a tile taking
// tile_seconds. Where the whole tiles already keep 90% of the
// clusters busy it measured from -7% (4096^3) to +2% (8192^3) against the plain kernel,
// no reliable gain: there it scores just below the plain entry, which auto then keeps.
// It won where the last wave was mostly empty (3072^3: 2.18 waves, +11%).
// The excess grows with the stream-K part itself: on an H100, over 14 bf16 and 6 tf32
// products with 1.2-5.2 waves of cluster tiles and k = 4096-14336 (docs/ladder.md,
// "Stream-K's ranges run slower than whole tiles"), it was 0.21-0.34 of a tile where the
// ranges make a fifth of a wave or less and 0.50-0.73 where they make 0.55-0.7 of one.
// A range's k-blocks arrive slower than a whole tile's (Nsight Compute on a 128 x 128 tile
// with stream-K: the SMs that share a panel no longer ask L2 for it at the same k, so their
// requests stop merging), so the ranges are charged as running at 0.65 of the whole tiles'
// rate, plus 10 us and 0.15 of a tile.
// Where there are fewer tiles than clusters the ranges are all the work, and every tile is cut
// into the same whole number of ranges (stream_k_ranges; none straddles two tiles). There none
// of that holds: on an H100 (bf16 and fp16, 8 and 16 cluster tiles in 4 ranges each, k = 1000-11008,
// operands of 4-44 MB; docs/ladder.md, "Few tiles with long k") stream-K took the even split
// at the whole tiles' rate plus 20-30 us at every k. About 8 us of that every entry pays (the
// 64 x 128 cluster-along-m tile's time over k starts there), so these ranges are charged 17 us
// over the even split, where that is at most a sixth of a tile (16-bit k >= 9200): below, the
// other tiles' scores are too far from their times for 17 us to decide (at k = 8192, NN 1000 x
// 1024 ran 1.07-1.19x faster than the 64 x 128 tile on both cards but NT 0.92x on an H200).
// How much of A and B fits in L2 does not matter there: with operands of 52-272 MiB (the
// H100's L2 holds 50, the H200's 60), stream-K ran 38 such products 1.04-1.61x faster than the
// 64 x 128 tiles on an H100 (1.31x in geometric mean) and 0.97-1.47x on an H200 (1.18x); bf16
// NN 1000 x 1000 x 16384 63.6 against 102.2 us, tf32 TN 4096 x 256 x 14336 112.6 against 154.8
// (H100; docs/ladder.md, "Whole ranges, not the L2, decide"). Range j of every tile starts at
// the same k, so the SMs that share a panel still ask L2 for it together: presumably why.
// Until stop 68 such tiles were cut into one range per cluster, which straddled tiles where the
// counts did not divide, and lost whatever the operands' size: bf16 TT 1000 x 1280 x 11008 (20
// tiles in 66 ranges) 77.1 us against 60.0 for the staged 128 x 128 tile, 14336 x 256 x 11008
// (56 in 66) 148.6 against 129.9 whole, 512 x 3000 x 11008 (24 in 66) 72.8 against 61.9. Cut
// into whole ranges (20 tiles in 60; 56 tiles run whole; 24 in 48) the first ran 54.4 against
// 58.0 on an H100, and the score, unchanged, moved 221 choices of a CPU grid (16-bit k >= 11008,
// tf32 k >= 6000; 18-32 cluster tiles) from the 128 x 128 tile to stream-K: the 193 timed ran
// 1.18x faster (1.05-1.73x), 0.94x -> 1.11x cuBLAS (docs/ladder.md, "Two whole ranges a tile").
// Where tiles outnumber clusters the last wave's ranges may still straddle, and the charge above
// applies.
inline double stream_k_efficiency(std::int64_t tiles, std::int64_t clusters, std::int64_t k_blocks,
                                  double tile_seconds) {
  const double whole = wave_efficiency(tiles, clusters);
  constexpr double kWorthIt = 0.9;
  const std::int64_t ranges = stream_k_ranges(tiles, clusters, k_blocks);
  if (ranges == 0 || whole >= kWorthIt) return 0.99 * whole;
  const double waves = double(tiles) / double(clusters);
  constexpr double kAllRangesSeconds = 17e-6;
  const bool whole_ranges_per_tile = tiles < clusters;  // stream_k_ranges cuts them so
  if (whole_ranges_per_tile && tile_seconds >= 6.0 * kAllRangesSeconds) {
    return waves / (double(tiles) / double(ranges) + kAllRangesSeconds / tile_seconds);
  }
  constexpr double kFixedSeconds = 10e-6, kFixedTiles = 0.15, kRangeRate = 0.65;
  const double range_waves = double(tiles % clusters) / double(clusters);
  return waves / (waves + range_waves * (1.0 / kRangeRate - 1.0) + kFixedSeconds / tile_seconds + kFixedTiles);
}

template <TilemmWgmmaConfig kCfg>
cudaError_t plan_stream_k(WgmmaParams& p, std::int64_t tiles, std::int64_t clusters, StreamWorkspace& workspace,
                          cudaStream_t stream, std::int64_t* grid_clusters) {
  p.dp_tiles = tiles;
  p.sk_tiles = 0;
  p.sk_clusters = 0;
  p.sk_partial = nullptr;
  p.sk_arrivals = nullptr;
  *grid_clusters = std::min(tiles, clusters);
  const std::int64_t sk_clusters = stream_k_ranges(tiles, clusters, p.k_blocks);
  if (sk_clusters == 0) return cudaSuccess;
  const std::int64_t rest = tiles % clusters;
  p.dp_tiles = tiles - rest;
  p.sk_tiles = rest;
  p.sk_clusters = int(sk_clusters);
  *grid_clusters = p.dp_tiles > 0 ? clusters : sk_clusters;
  // Two share slots per range (per CTA of its cluster and consumer warpgroup), then the
  // arrival counters, which start at zero.
  constexpr std::int64_t kPerRange = std::int64_t(kCfg.cluster_n) * kCfg.consumers() * kCfg.bm * 64;
  const std::size_t share_bytes = std::size_t(2 * sk_clusters * kPerRange) * sizeof(float);
  const std::size_t counter_bytes = std::size_t(rest * kCfg.cluster_n * kCfg.consumers()) * sizeof(unsigned);
  const cudaError_t err = workspace.allocate(share_bytes + counter_bytes);
  if (err != cudaSuccess) return err;
  p.sk_partial = workspace.at<float>();
  p.sk_arrivals = workspace.at<unsigned>(share_bytes);
  return cudaMemsetAsync(p.sk_arrivals, 0, counter_bytes, stream);
}

// after_copies: the kernel before this one in the stream is this call's own copy of the
// operands (launch_wgmma_repacked), so the product launches as its programmatic dependent
// whatever its grid (see the launch below).
template <TilemmWgmmaConfig kCfg>
cudaError_t launch_wgmma_product(const GemmProblem& prob, cudaStream_t stream, bool after_copies) {
  CUtensorMap map_a, map_b, map_c;
  if (!encode_wgmma_maps<kCfg>(prob, &map_a, &map_b)) return cudaErrorInvalidValue;
  // The staged epilogue needs a C the TMA can write, with columns a whole number of 16-byte
  // units long: measured on the H200, a TMA store clips at the end of a column only to
  // 16 bytes, so with m = 7 (bf16) it also wrote rows 7 and up of the caller's padding.
  // Otherwise the consumers copy the staged boxes out themselves (wgmma_copy_box_out).
  const std::int64_t c_bytes = dtype_size(prob.c_type);
  bool tma_store = false;
  if constexpr (kCfg.tma_store) {
    tma_store = columns_aligned16(prob.C, prob.ldc, prob.stride_c, prob.batch, c_bytes) && prob.m * c_bytes % 16 == 0 &&
                encode_operand_map(&map_c, prob.c_type, prob.C, prob.m, prob.n, prob.ldc, prob.batch, prob.stride_c,
                                   64, false);
  }
  if (!tma_store) map_c = map_b;  // unused
  WgmmaParams params{};
  // The last column of tiles' B map (see WgmmaParams::b_edge); clusters along m split the B
  // box between their CTAs and keep the one map, as does stream-K (see the producer).
  CUtensorMap map_b_edge = map_b;
  if (prob.opb == Op::N && kCfg.cluster_m == 1 && !kCfg.stream_k && prob.n % kCfg.bn != 0) {
    const int edge_cols = edge_box_columns(prob.n % kCfg.bn, kCfg.bn);
    if (edge_cols < kCfg.bn &&
        encode_operand_map(&map_b_edge, prob.b_type, prob.B, prob.b_rows(), prob.b_cols(), prob.ldb, prob.batch,
                           prob.stride_b, edge_cols)) {
      params.b_edge = true;
      params.edge_stage_bytes = unsigned(kCfg.stage_bytes() - (kCfg.bn - edge_cols) * 128);
    }
  }
  // A row of tiles past m, A stored k x m (see WgmmaParams::a_edge): the box that straddles m,
  // when one does, gets a map of its live rows. Stream-K keeps the one map, as for B.
  CUtensorMap map_a_edge = map_a;
  const std::int64_t tiles_m = (prob.m + kCfg.bm - 1) / kCfg.bm;
  if (prob.opa == Op::T && !kCfg.stream_k && kCfg.cluster_rows(tiles_m) * kCfg.cluster_m * kCfg.bm > prob.m) {
    constexpr int kARows = kCfg.bm / kCfg.cluster_n;
    const int straddling = int(prob.m % kCfg.bm % kARows);
    params.a_edge_rows = straddling == 0 ? kARows : edge_box_columns(straddling, kARows);
    params.a_edge = straddling == 0 ||
                    encode_operand_map(&map_a_edge, prob.a_type, prob.A, prob.a_rows(), prob.a_cols(), prob.lda,
                                       prob.batch, prob.stride_a, params.a_edge_rows);
  }
  params.m = prob.m;
  params.n = prob.n;
  params.k = prob.k;
  params.alpha = static_cast<float>(prob.alpha);
  params.beta = static_cast<float>(prob.beta);
  params.C = prob.C;
  params.ldc = prob.ldc;
  params.stride_c = prob.stride_c;
  params.batch = prob.batch;
  params.tiles_m = (prob.m + kCfg.bm - 1) / kCfg.bm;
  params.tiles_n = (prob.n + kCfg.bn - 1) / kCfg.bn;
  params.k_blocks = int(wgmma_k_blocks<kCfg>(prob.k));
  params.c_is_fp32 = prob.c_type == DType::F32;
  params.tma_store = tma_store;
  params.c_pairs_aligned = aligned_to(prob.C, 2 * c_bytes) && prob.ldc % 2 == 0 &&
                           (prob.batch <= 1 || prob.stride_c % 2 == 0);
  params.a_broadcast = prob.batch <= 1 || prob.stride_a == 0;
  params.b_broadcast = prob.batch <= 1 || prob.stride_b == 0;
  constexpr int CN = kCfg.cluster_n, CS = kCfg.cluster_size();
  const std::int64_t cluster_tiles = wgmma_cluster_tiles<kCfg>(prob.m, prob.n, prob.batch);
  std::int64_t work = cluster_tiles;
  StreamWorkspace workspace(stream);  // split-K's partial products or stream-K's shares
  if constexpr (kCfg.split_k) {
    const std::int64_t k_blocks = params.k_blocks;
    const int wanted = wgmma_split_k_slices(cluster_tiles * CN, k_blocks, device_sm_count());
    params.k_blocks_per_slice = int(std::max<std::int64_t>(1, (k_blocks + wanted - 1) / wanted));
    params.slices = int(std::max<std::int64_t>(1, (k_blocks + params.k_blocks_per_slice - 1) / params.k_blocks_per_slice));
    work = cluster_tiles * params.slices;
    const cudaError_t err = workspace.allocate(std::size_t(params.slices) * std::size_t(prob.m * prob.n) * 4);
    if (err != cudaSuccess) return err;
    params.partial = workspace.at<float>();
  }
  const auto launch = [&]<bool kTA, bool kTB>() {
    const auto kernel = wgmma_gemm<kCfg, kTA, kTB>;
    constexpr std::int64_t smem = kCfg.smem_bytes();
    cudaLaunchConfig_t config{};
    // Programmatic dependent launch (set below), then the cluster shape.
    cudaLaunchAttribute attrs[2]{};
    attrs[0] = programmatic_launch_attribute(false);
    attrs[1].id = cudaLaunchAttributeClusterDimension;
    attrs[1].val.clusterDim.x = CS;
    attrs[1].val.clusterDim.y = 1;
    attrs[1].val.clusterDim.z = 1;
    config.blockDim = dim3(kCfg.threads());
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = attrs;
    config.numAttrs = CS > 1 ? 2 : 1;
    // Once per kernel: the opt-in to its shared memory (above 48 KB), and how many of
    // its clusters fit on the GPU at once (the persistent grid's size).
    static std::once_flag prepared;
    static cudaError_t prepare_error = cudaSuccess;
    static int resident_clusters = 0;
    std::call_once(prepared, [&] {
      prepare_error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
      if (prepare_error != cudaSuccess) return;
      if constexpr (CS > 1) {
        config.gridDim = dim3(CS);
        prepare_error = cudaOccupancyMaxActiveClusters(&resident_clusters, kernel, &config);
      } else {
        resident_clusters = device_sm_count();
      }
    });
    if (prepare_error != cudaSuccess) return prepare_error;
    std::int64_t clusters = kCfg.persistent ? persistent_grid_size(work, resident_clusters)
                                            : std::min<std::int64_t>(work, 2147483647LL / CS);
    // Stream-K sizes its own grid: its ranges spread the last round over every slot.
    if constexpr (kCfg.stream_k) {
      const cudaError_t planned =
          plan_stream_k<kCfg>(params, work, std::max(resident_clusters, 1), workspace, stream, &clusters);
      if (planned != cudaSuccess) return planned;
    }
    config.gridDim = dim3(static_cast<unsigned>(clusters * CS));
    // A programmatic dependent launch (the kernel waits with griddepcontrol.wait) lets this
    // launch and the kernel's prologue overlap the previous kernel's tail. Measured on the
    // H200, bf16 products timed 10 back to back (docs/results/h200_programmatic_launch.txt):
    // 1024^3 6.9 us a product against 8.1-8.2 without, 1000^3 9.8 against 11.1-11.5, 2048^3
    // 25.8 against 27.3-27.6, 128 x 4096 x 4096 14.3 against 15.3. But with a grid that
    // leaves many SMs idle the next kernel's CTAs start early on exactly those SMs, and
    // 128 x 11008 x 4096 (86 CTAs on 132 SMs) ran 33.0 against 29.3; 112 CTAs neither
    // gained nor lost. So only grids that cover nearly every SM launch this way, and any
    // grid after this call's own operand copies (`.repack`, `.transpose`): bf16 150^3-511^3
    // with both operands copied 9.7-11.5 us against 10.8-12.7 (1.09-1.14x), 33-63 x 1024-3072
    // x 512 NN 1.07-1.09x, 4093^3 unchanged (docs/results/h200_copy_then_product.txt). The
    // copy kernels leave the trigger implicit (their exit): a griddepcontrol.launch_dependents
    // on entry gained 2-3% more under ~12 us but lost 1-3% at 1001^3 and on split-K rows.
    const std::int64_t sms = device_sm_count();
    attrs[0] = programmatic_launch_attribute(after_copies || clusters * CS >= sms - sms / 16);
    return cudaLaunchKernelEx(&config, kernel, map_a, map_b, map_b_edge, map_a_edge, map_c, params);
  };
  cudaError_t launched = cudaErrorInvalidValue;
  if constexpr (kCfg.input == TilemmMmaInput::TF32) {
    // Only TN exists for tf32 (can_implement and the repacking path see to it).
    if (k_major_layouts(prob)) launched = launch.template operator()<true, false>();
  } else {
    launched = dispatch_ops(prob, launch);
  }
  if constexpr (kCfg.split_k) {
    if (launched == cudaSuccess) launched = launch_split_k_reduce(prob, params.partial, params.slices, stream);
  }
  return workspace.finish(launched);
}

template <TilemmWgmmaConfig kCfg>
cudaError_t launch_wgmma(const GemmProblem& prob, cudaStream_t stream) {
  return launch_wgmma_product<kCfg>(prob, stream, false);
}

// ---- any leading dimension and any op: repacking into an aligned workspace ----
//
// The TMA needs 16-byte-aligned bases and strides; lda = 4093 gives neither. Rather than
// leave the tensor cores for scalar loads (mma_sync's .ldg2 runs at a fifth of wgmma's
// speed), such an operand is first copied into an aligned workspace (repack.hpp): one
// pass over the operand (4 bytes per 16-bit element moved, about 40 us for both 4093^2
// operands) buys the wgmma kernel (about 230 us at 4093^3). tf32 wgmma also needs both
// operands K-major: an operand stored the other way (A for op N, B for op T) is
// transposed into the workspace instead, and the product runs as TN.
template <TilemmWgmmaConfig kCfg>
AlignedOperandsPlan wgmma_repack_plan(const GemmProblem& prob) {
  constexpr bool kTf32 = kCfg.input == TilemmMmaInput::TF32;
  return plan_aligned_operands(prob, kCfg.element_bytes(), kTf32 && prob.opa == Op::N, kTf32 && prob.opb == Op::T);
}

template <TilemmWgmmaConfig kCfg>
cudaError_t launch_wgmma_repacked(const GemmProblem& prob, cudaStream_t stream) {
  const AlignedOperandsPlan plan = wgmma_repack_plan<kCfg>(prob);
  const bool copies = plan.repack_a || plan.repack_b;
  return launch_with_aligned_operands(
      prob, kCfg.element_bytes(), plan.a.transpose, plan.b.transpose, stream,
      [stream, copies](const GemmProblem& q) { return launch_wgmma_product<kCfg>(q, stream, copies); });
}

// ---- 17-32 rows: the 32-row tile ----
//
// wgmma's N runs along m (C^T is computed), so a tile of 32 rows is m64n32: a 64 x 64 tile's
// stage holds 64 rows of A for 24 live ones at m = 24, this one 32. Its stages are 12 KB
// (16-bit: 8 KB of B, 4 KB of A), 18 of them; it stores C directly (the staging boxes hold 64
// 16-bit rows), and A stored m x k arrives in 32-row boxes of 64-byte rows (64-byte swizzle).
// `.c4`: clusters of four along n, one CTA loading the A box for all four (multicast), as
// cuBLAS runs these products (nvjet_sm90_tst_32x64_64x16_1x4).
// Measured on the H200 (docs/ladder.md, "Thirty-two rows on wgmma"; bf16, fp16 and tf32, m =
// 17-32, n = 1024-14336, k = 1024-8192, all ops, in interleaved runs):
// - against the 64 x 64 ping-pong tile the tile alone was as fast or faster on all 368 shapes
//   both ran (run 1), up to 1.46x, 1.03-1.28x at m = 24 in NN and NT (A's columns 48 bytes
//   apart); the cluster of four too wherever its clusters fit on the GPU at once (the H200 holds
//   30 clusters of four: at n = 8192 its 32 ran 53 us against 39.5 for the 64 x 128 cluster
//   tile, bf16 24 x 8192 x 8192 NN).
//   Up to one wave of tiles they replace that tile: scored as it on half its rows, at 1.036x its
//   rate per tile slot (the relative speed 0.285), the tile alone where A's columns lie on
//   32-byte sectors, the cluster where they do not (16-bit, at most 0.75 of the SMs in clusters);
// - "takes" (above split-K and skinny_mma's rules): where the tiles keep about half the SMs or
//   more (n >= 4096) and k is moderate (16-bit up to 4096, tf32 up to 2048; any k from one wave
//   of tiles on) the tile alone beat them too: bf16 24 x 4096 x 2048 TN 11.5 us against 13.1,
//   20 x 8192 x 8192 TN 39.3 against 49.5, tf32 24 x 8192 x 4096 TN 39.0 against 47.5 (cuBLAS
//   46.2); but at k = 8192 with n = 4096 split-K stayed ahead (bf16 24 x 4096 x 8192 TN 25.8
//   against 24.7), in 16-bit TT from k = 4096 on skinny_mma's two row tiles tied or stayed 1-7%
//   ahead, and tf32 lost from k = 4096 at n = 4096 (25.7 against 25.0). The cluster of four
//   took NN and NT with A off sectors from n = 4096 up to 0.75 of the SMs (n = 6144), k up to
//   4096: 24 x 4096 x 2048 NN 12.9 us against 16.5, 24 x 6144 x 4096 NN 23.8 against 32.5
//   (cuBLAS 20.0); at n = 4096 with k = 8192 split-K stayed ahead (27.1 against 29.8).
// - more than one wave (n = 11008, 14336: 172 and 224 tiles) they lost to the 64 x 128 tiles,
//   alone or in clusters of four (bf16 32 x 11008 x 4096 NN 31.9 against 28.5; tf32 24 x 11008 x
//   2048 TN 30.6 against 28.9), so they stop at one wave.
enum class WgmmaThirtyTwoRows { NotChosen, Alone, ClusterOfFour };

// Whether A's columns start a whole number of 32-byte sectors apart.
inline bool a_columns_on_sectors(const GemmProblem& p) { return p.lda * dtype_size(p.a_type) % 32 == 0; }

// Which 32-row tile (if any) a product may run on, and in `takes` whether it beats every
// other entry there (else it only replaces the 64 x 64 ping-pong tile). `swapped`: p is the
// few-row transpose of a product with 17-32 columns (`.swapab`); see below.
inline WgmmaThirtyTwoRows wgmma_thirty_two_rows(const GemmProblem& p, const DeviceInfo& dev, bool swapped,
                                                bool* takes) {
  constexpr std::int64_t kFewestRows = 17, kMostRows = 32, kTileColumns = 64, kClusterCtas = 4;
  constexpr double kFewestTilesPerSm = 0.48, kOneWave = 0.96, kMostCtasPerSmInClusters = 0.75;
  constexpr double kMostTilesPerSmSwapped = 1.7;
  constexpr std::int64_t kLongestK16Bit = 4096, kLongestKTf32 = 2048;
  *takes = false;
  if (p.batch != 1 || p.m < kFewestRows || p.m > kMostRows) return WgmmaThirtyTwoRows::NotChosen;
  const std::int64_t tiles = (p.n + kTileColumns - 1) / kTileColumns;
  const double tiles_per_sm = double(tiles) / double(dev.sm_count);
  const bool tf32 = p.a_type == DType::F32;
  const std::int64_t longest_k = tf32 ? kLongestKTf32 : kLongestK16Bit;
  const bool half_the_sms = tiles_per_sm >= kFewestTilesPerSm;
  const std::int64_t ctas = (tiles + kClusterCtas - 1) / kClusterCtas * kClusterCtas;
  const bool clusters_fit = double(ctas) <= kMostCtasPerSmInClusters * double(dev.sm_count);
  if (swapped) {
    // Only where the short operand (the caller's B, op T) has its columns off sectors, 16-bit:
    // elsewhere the 64 x 64 ping-pong tile on the caller's product, whose box rows along n hold
    // only the live columns, ran as fast or faster (run 7: 0.90-0.99x on NN and TN, within 3%
    // at 32 columns, tf32 TN 0.95-1.05x). No 64 x 128 cluster tile competes there, so past the
    // clusters' one round the tile alone up to one wave, then the cluster again, where two
    // rounds of clusters ran 1.5x faster than the ping-pong tile ran the caller's product (the
    // few-row 24 x 11008 x 4096 NN 31.7 us, the caller's 11008 x 24 x 4096 NT 48.5). With that
    // rule (run 8) the 30 bf16 choices that moved ran 1.377x faster (1.19-1.66x).
    if (tf32 || a_columns_on_sectors(p) || tiles_per_sm > kMostTilesPerSmSwapped) {
      return WgmmaThirtyTwoRows::NotChosen;
    }
    *takes = clusters_fit && half_the_sms && p.k <= longest_k;
    const bool past_one_wave = tiles > dev.sm_count;
    return clusters_fit || past_one_wave ? WgmmaThirtyTwoRows::ClusterOfFour : WgmmaThirtyTwoRows::Alone;
  }
  if (tiles > dev.sm_count) return WgmmaThirtyTwoRows::NotChosen;
  if (!a_columns_on_sectors(p)) {
    if (tf32 || !clusters_fit) return WgmmaThirtyTwoRows::NotChosen;
    *takes = half_the_sms && p.k <= longest_k;
    return WgmmaThirtyTwoRows::ClusterOfFour;
  }
  const bool tt_long_k = !tf32 && p.opa == Op::T && p.opb == Op::T && p.k >= kLongestK16Bit;
  *takes = half_the_sms && !tt_long_k && (tiles_per_sm >= kOneWave || p.k <= longest_k);
  return WgmmaThirtyTwoRows::Alone;
}

// ---- 129-192 rows: a short second row of 128-row tiles ----
//
// With 129-176 rows the 128-row tiles make two rows, the second holding 1-48 live rows: both rows
// read all of B, and the second row's CTAs compute whole tiles for those few rows. For 16-bit
// products of one batch with 129-192 rows and k = 2048-11008, wgmma_short_second_row_of_tiles names
// a tile that avoids that second row; the first that applies wins:
//  1. k = 4096-8192, n >= 5633, and the n / 64 CTAs of 192 x 64 tiles fit one round of clusters
//     of four (DeviceInfo::clusters_of_four: 30 clusters, 120 CTAs, on an H100 and an H200; 0.85
//     of the SMs where the count is unknown): one row of 192 x 64 ping-pong tiles in clusters of
//     four. Twice the CTAs of a row of 192 x 128 tiles stream B once, and the clusters share the
//     A tile by multicast.
//  2. The same in clusters of two where n / 64 CTAs fit the SMs: below k = 6144, and for up to
//     176 rows up to k = 8192 with A stored k x m (whose boxes end at m), or with A stored m x k
//     at k = 6144, or up to k = 8192 where A's columns lie on 32-byte sectors.
//  3. k >= 6144, or >= 5120 where 4 does not apply, where the row of 192 x 256 cluster tiles is cut
//     into exactly two stream-K ranges a tile (n = 5633-8448 on 132 SMs): the 192 x 128 cluster
//     tile with stream-K, twice the SMs with B still read once.
// For 129-176 rows and n = 5633-11008 only:
//  4. The 128 x 128 tiles in clusters of four where they take at most 0.75 of the SMs.
//  5. Where A's columns lie on 32-byte sectors and the 64 x 128 tiles make at most 1.5 waves: those.
//  6. From k = 4096, the 192 x 128 cluster tile: one row of tiles, and a cluster tile keeps its
//     speed off sectors.
// Measured in docs/ladder.md, each bound where the measurements stopped (m = 136-192, n =
// 4096-14336, k = 2048-11008; the dtypes and layouts each section names): 4-6 in "A short second
// row of tiles" (stop 67, H100: the moved choices 1.17x faster, 0.96-1.56x; 184 rows lost in TT,
// 192 ran even; fp16 TN and TT, not measured there, run the kernels bf16 TN and TT run), 3 in
// "Two whole ranges a tile" and its "from k = 6144" (stops 68-69: 1.20x and 1.19x on an H100,
// 1.19x on an H200), 1-2 in "One row of 192 x 64 tiles" (stop 70, H100: 1.13-1.14x, 0.80x ->
// 0.91x cuBLAS; stop 71, H200: 1.097x over the fastest other tile, and at n = 7680, 120 CTAs, the
// clusters of four 1.09x faster than the tile chosen under the 0.85-of-the-SMs bound; stop 72,
// H100, "A's boxes end at m": those moved choices 1.13x, the pair for A stored k x m 1.05-1.24x;
// stop 73, H100, "The pair rule through auto, and A stored m x k": through auto 1.21x, NN and NT
// by named rows 1.01-1.10x). cuBLAS runs these products on 160 x 64 tiles in clusters of four
// (nvjet ..._160x64_64x6_1x4) and stays about 1.1x ahead.
enum class WgmmaShortSecondRow {
  NotChosen,
  ClusterOfFour128,
  SixtyFourRows,
  OneRowOf192,
  OneRowOf192StreamK,
  OneRowOf192x64InFours,
  OneRowOf192x64InPairs
};

inline WgmmaShortSecondRow wgmma_short_second_row_of_tiles(const GemmProblem& p, const DeviceInfo& dev) {
  constexpr std::int64_t kFewestRows = 129, kMostRows = 176, kMostRowsStreamK = 192;
  constexpr std::int64_t kShortestK = 2048, kShortestKOneRow = 4096, kShortestKStreamK = 6144, kLongestK = 11008;
  // From k = 5120 where the clusters of four below do not take the product (H200, stop 69, call
  // 2: bf16, all layouts, m = 136-184, n = 6144-8192, k = 5120: those 28 choices 1.16x faster by the
  // stream-K tile's named rows, 1.03-1.32x; the clusters of four's 8 about even, 0.91-1.16x).
  constexpr std::int64_t kShortestKStreamKBesideClusters = 5120;
  // From 5633 columns since stop 68 (the stream-K branch's bound, below), where the 64 x 128 tiles
  // pass one wave and auto took the 128 x 128 tile: on an H100 the clusters of four it then names
  // ran the 216 moved choices of bf16 and fp16, all layouts, m = 136-176, n = 5700-6100, k =
  // 2048-6144 1.22x faster (1.01-1.53x; k = 2048 1.12x), 0.65x -> 0.79x cuBLAS.
  constexpr std::int64_t kFewestColumns = 5633, kMostColumns = 11008;
  constexpr double kMostCtasPerSmInClusters = 0.75, kMostWavesOf64RowTiles = 1.5;
  const bool sixteen_bit = p.a_type == DType::BF16 || p.a_type == DType::F16;
  if (p.batch != 1 || !sixteen_bit || p.m < kFewestRows || p.m > kMostRowsStreamK || p.k < kShortestK ||
      p.k > kLongestK) {
    return WgmmaShortSecondRow::NotChosen;
  }
  const auto tiles = [&](std::int64_t rows, std::int64_t columns) {
    return ((p.m + rows - 1) / rows) * ((p.n + columns - 1) / columns);
  };
  // The stream-K plan of the 192 x 128 entry (stream_k_ranges, as its launch asks): each 192 x 256
  // cluster tile cut into exactly two ranges. 16-bit k-blocks: one 128-byte row of 64 elements.
  constexpr std::int64_t kClusterOfTwo = 2, kRangesPerTile = 2, kKBlock = TilemmWgmmaConfig::kRowBytes / 2;
  const std::int64_t cluster_tiles = tiles(192, kClusterOfTwo * 128);
  const std::int64_t ranges =
      stream_k_ranges(cluster_tiles, dev.sm_count / kClusterOfTwo, (p.k + kKBlock - 1) / kKBlock);
  // The other tiles' branches hold for 129-176 rows and 5633-11008 columns.
  const bool in_rows_and_columns = p.m <= kMostRows && p.n >= kFewestColumns && p.n <= kMostColumns;
  const double sms = double(dev.sm_count);
  const std::int64_t ctas_in_clusters_of_four = 4 * tiles(128, 4 * 128);  // tiles(...) counts the clusters
  const bool clusters_of_four_take =
      in_rows_and_columns && double(ctas_in_clusters_of_four) <= kMostCtasPerSmInClusters * sms;
  // The clusters of four take one round of tiles: as many CTAs as the GPU holds in clusters of four
  // (30 clusters, 120 CTAs, on the H100 and the H200), or 0.85 of the SMs where that is unknown.
  constexpr double kMostCtasPerSmInFoursOf192x64 = 0.85;
  const double ctas_in_one_round_of_fours =
      dev.clusters_of_four > 0 ? 4.0 * dev.clusters_of_four : kMostCtasPerSmInFoursOf192x64 * sms;
  constexpr std::int64_t kLongestKInFours = 8192;
  const std::int64_t ping_pong_ctas = tiles(192, 64);
  // Up to 176 rows the pair also takes k from 6144: with A stored k x m (op(A) = T), whose boxes
  // end at m, up to k = 8192; with A stored m x k (op(A) = N), k = 6144, and up to k = 8192 where
  // A's columns lie on 32-byte sectors. On an H100, against the stream-K tile chosen before:
  // - stop 72 (bf16 TN and TT, m = 136-167, n = 8192, k = 4096-8192): 1.05-1.24x faster, and
  //   through auto (stop 73) the 16 moved choices 1.21x (1.14-1.47x);
  // - stop 73 (bf16 NN and NT, m = 136-176, n = 8192): at k = 6144 1.02-1.10x (stop 72, NN:
  //   0.99-1.08x); at k = 8192 1.01-1.07x where A's columns lie on sectors (m = 144, 160, 176),
  //   0.99-1.02x off them (136, 152; stop 72: 0.96-0.97x).
  const bool a_stored_m_by_k_for_pairs = p.k <= kShortestKStreamK || a_columns_on_sectors(p);
  const bool k_for_pairs =
      p.k < kShortestKStreamK ||
      (p.m <= kMostRows && p.k <= kLongestKInFours && (p.opa == Op::T || a_stored_m_by_k_for_pairs));
  if (p.k >= kShortestKOneRow && p.n >= kFewestColumns) {
    if (p.k <= kLongestKInFours && double(ping_pong_ctas) <= ctas_in_one_round_of_fours) {
      return WgmmaShortSecondRow::OneRowOf192x64InFours;
    }
    if (k_for_pairs && ping_pong_ctas <= dev.sm_count) {
      return WgmmaShortSecondRow::OneRowOf192x64InPairs;
    }
  }
  const bool k_for_stream_k =
      p.k >= kShortestKStreamK || (p.k >= kShortestKStreamKBesideClusters && !clusters_of_four_take);
  if (k_for_stream_k && ranges == kRangesPerTile * cluster_tiles) return WgmmaShortSecondRow::OneRowOf192StreamK;
  if (!in_rows_and_columns) return WgmmaShortSecondRow::NotChosen;
  if (clusters_of_four_take) return WgmmaShortSecondRow::ClusterOfFour128;
  if (a_columns_on_sectors(p) && double(tiles(64, 128)) <= kMostWavesOf64RowTiles * sms) {
    return WgmmaShortSecondRow::SixtyFourRows;
  }
  return p.k >= kShortestKOneRow ? WgmmaShortSecondRow::OneRowOf192 : WgmmaShortSecondRow::NotChosen;
}

template <TilemmWgmmaConfig kCfg, bool kRepack, bool kTransposeOnly>
std::string wgmma_name() {
  return std::string("wgmma.") + MmaInputTraits<kCfg.input>::kName + "." + std::to_string(kCfg.bm) + "x" +
         std::to_string(kCfg.bn) + "x" + std::to_string(kCfg.bk()) + ".s" +
         std::to_string(kCfg.stages) + (kCfg.persistent ? ".persistent" : "") +
         (kCfg.cluster_n > 1 ? ".c" + std::to_string(kCfg.cluster_n) : "") +
         (kCfg.cluster_m > 1 ? ".c" + std::to_string(kCfg.cluster_m) + "m" : "") + (kCfg.tma_store ? ".tmastore" : "") +
         (kCfg.pingpong ? ".pingpong" : "") + (kCfg.split_k ? ".splitk" : "") +
         (kCfg.stream_k ? ".streamk" : "") + (kCfg.swap_ab ? ".swapab" : "") +
         (kTransposeOnly ? ".transpose" : kRepack ? ".repack" : "");
}

// The registered configurations of one input type (defined below, after the entries).
template <TilemmMmaInput kIn>
struct WgmmaConfigTable;

// relative_speed: the configuration's speed on problems that fill the GPU, relative to
// the best of its input type (a prior until `tilemm-bench --tune` measures it).
// kTransposeOnly: see wgmma_can_implement.
template <TilemmWgmmaConfig kCfg, bool kRepack, bool kTransposeOnly = false>
KernelEntry make_wgmma_entry(double relative_speed) {
  KernelEntry e;
  e.name = wgmma_name<kCfg, kRepack, kTransposeOnly>();
  e.family = "wgmma";
  e.ladder_step = kCfg.stream_k     ? 27
                  : kRepack          ? 26
                  : kCfg.split_k || kCfg.bm == 32 || (kCfg.bm == 192 && kCfg.pingpong) ? 25  // few tiles or rows
                  : kCfg.tma_store   ? 24
                  : kCfg.cluster_n > 1 ? 23
                  : kCfg.persistent  ? 22
                                     : 21;
  e.summary = std::string("Hopper wgmma (") + MmaInputTraits<kCfg.input>::kName +
              ") from a TMA-filled mbarrier ring, producer/consumer warpgroups with setmaxnreg" +
              (kCfg.persistent ? ", persistent grid in L2-grouped tile order" : "") +
              (kCfg.cluster_n > 1 ? ", clusters of " + std::to_string(kCfg.cluster_n) + " sharing A by TMA multicast"
                                  : std::string()) +
              (kCfg.cluster_m > 1 ? ", clusters of " + std::to_string(kCfg.cluster_m) +
                                        " along m sharing B by TMA multicast"
                                  : std::string()) +
              (kCfg.tma_store ? ", epilogue through swizzled shared memory and TMA stores" : "") +
              (kCfg.pingpong ? ", the two consumer warpgroups take alternate tiles (one's epilogue beside the other's "
                               "k-loop)"
                             : "") +
              (kCfg.bm == 32 ? ", 32-row tiles (wgmma m64n32) for 17-32 rows, C stored from the accumulators" : "") +
              (kCfg.swap_ab ? "; A and B swapped for 17-32 columns (C^T computed as a few-row product, stored "
                              "transposed)"
                            : "") +
              (kCfg.split_k ? ", k split over the SMs when tiles are few (fp32 workspace, ordered sum)" : "") +
              (kCfg.stream_k ? ", stream-K: the last partial wave's k-blocks shared evenly by all clusters "
                              "(fewer tiles than clusters: each tile cut into the same number of ranges)"
                            : "") +
              (kTransposeOnly ? "; the operand that is not K-major is first transposed into an aligned workspace"
               : kRepack      ? "; operands the TMA cannot read are first repacked into an aligned workspace"
                              : "");
  e.dtypes = MmaInputTraits<kCfg.input>::kName;
  e.min_compute_capability = 90;
  constexpr bool kTf32 = kCfg.input == TilemmMmaInput::TF32;
  e.requirements =
      kTransposeOnly
          ? std::string("compute capability 9.0 (sm_90a); A and B 16-byte aligned, lda/ldb multiples of 16 bytes; "
                        "NN or TT (one operand not K-major); a stream-ordered workspace for the transposed operand")
      : kRepack ? std::string("compute capability 9.0 (sm_90a); A, B, C aligned to their element size; a "
                            "stream-ordered workspace for operands the TMA cannot read") +
                    (kTf32 ? " or that are not K-major (tf32 op(A) = N, op(B) = T: transposed)" : "")
              : std::string("compute capability 9.0 (sm_90a); A and B 16-byte aligned, lda/ldb (and batch "
                            "strides) multiples of 16 bytes") +
                    (kTf32 ? "; op(A) = T and op(B) = N (tf32 operands are read K-major)" : "") +
                    (kCfg.swap_ab ? "; fewer columns than rows (n < m)" : "");
  e.arithmetic_intensity =
      double(kCfg.bm) * kCfg.bn / (double(kCfg.bm + kCfg.bn) * kCfg.element_bytes() / 2.0);
  e.auto_eligible = true;
  // Above every mma_sync entry (2000-2200) where the TMA reads the operands in place:
  // wgmma is the faster instruction. The repacking entries score 2150-2250, above
  // mma_sync's scalar-load variants (the only other choice for such operands), except for
  // the small products with short k that those run faster (repacking_stands_aside). The
  // `.transpose` entries (tf32 NN and TT, operands the TMA reads in place except that one
  // is not K-major) score on the in-place scale, against wgmma_rs, which reads NN and TT
  // without a pass; their pass is charged by its time against the product's
  // (product_share_after_copies): for few-row products their tiles beat wgmma_rs's by more
  // than the pass costs (H200, tf32 128 x 11008 x 4096: TN 54.2 us against NN 69.9;
  // docs/results/h200_tf32_few_rows.txt), while a pass over a large operand costs more than
  // the product saves.
  const double base = kRepack && !kTransposeOnly ? 2150.0 : 2300.0;
  e.auto_priority = int(base);
  // Shape-aware: relative speed x the share of the SMs the tiles (or split-K work items)
  // keep busy x the share of the tile that lies inside m and n (a 256-row tile computes 16
  // useful rows when m = 16; a cluster of two 128-column tiles has one CTA idle when
  // n <= 128, as in a decode step's TN form, 11008 x 16 x 4096). Split-K pays a
  // partial-sum pass (by its time; see there).
  // One SM's measured rate on the H200: ~5.9 TFLOP/s for 16-bit inputs (780 / 132), ~3.0
  // for tf32 (400 / 132).
  constexpr double kSmFlopsPerSecond = kCfg.input == TilemmMmaInput::TF32 ? 3.0e12 : 5.9e12;
  e.auto_score = [relative_speed, base](const GemmProblem& caller, const DeviceInfo& dev) {
    // Below every entry that reads its operands in place: where an entry is not to be chosen.
    constexpr double kNotChosen = 1990.0;
    // `.swapab` computes a product with fewer columns than rows (its can_implement) as the
    // few-row product of its transpose, and is scored on that.
    const GemmProblem p = kCfg.swap_ab ? skinny_orientation(caller) : caller;
    if (kRepack && repacking_stands_aside(p, kCfg.element_bytes(), dev)) return kNotChosen;
    // 129-176 rows (wgmma_short_second_row_of_tiles): the tile it names takes the product, above
    // every other entry's score there (at most ~2400).
    {
      constexpr double kTakes = 2465.0;
      constexpr bool kAlone = kCfg.cluster_size() == 1 && !kCfg.pingpong && !kCfg.split_k && !kCfg.stream_k;
      constexpr WgmmaShortSecondRow mine =
          kRepack                                                   ? WgmmaShortSecondRow::NotChosen
          : kCfg.bm == 128 && kCfg.cluster_n == 4                   ? WgmmaShortSecondRow::ClusterOfFour128
          : kCfg.bm == 64 && kCfg.bn == 128 && kCfg.tma_store && kAlone ? WgmmaShortSecondRow::SixtyFourRows
          : kCfg.bm == 192 && kCfg.pingpong && kCfg.cluster_n == 4  ? WgmmaShortSecondRow::OneRowOf192x64InFours
          : kCfg.bm == 192 && kCfg.pingpong && kCfg.cluster_n == 2  ? WgmmaShortSecondRow::OneRowOf192x64InPairs
          : kCfg.bm == 192 && !kCfg.stream_k && !kCfg.split_k       ? WgmmaShortSecondRow::OneRowOf192
          : kCfg.bm == 192 && kCfg.stream_k                          ? WgmmaShortSecondRow::OneRowOf192StreamK
                                                                    : WgmmaShortSecondRow::NotChosen;
      if constexpr (mine != WgmmaShortSecondRow::NotChosen) {
        if (wgmma_short_second_row_of_tiles(p, dev) == mine) return kTakes;
        // The 192-row stream-K and ping-pong tiles serve only the products this rule gives them.
        if constexpr (mine == WgmmaShortSecondRow::OneRowOf192StreamK ||
                      mine == WgmmaShortSecondRow::OneRowOf192x64InFours ||
                      mine == WgmmaShortSecondRow::OneRowOf192x64InPairs) {
          return kNotChosen;
        }
      }
    }
    // The 32-row tiles (wgmma_thirty_two_rows): where they take the product, above skinny_mma's
    // rules (2450-2460); where they only replace the 64 x 64 ping-pong tile, scored below as it.
    if constexpr (kCfg.bm == 32) {
      constexpr double kTakes = 2465.0;
      bool thirty_two_rows_take = false;
      const WgmmaThirtyTwoRows mine =
          kCfg.cluster_n == 4 ? WgmmaThirtyTwoRows::ClusterOfFour : WgmmaThirtyTwoRows::Alone;
      if (wgmma_thirty_two_rows(p, dev, kCfg.swap_ab, &thirty_two_rows_take) != mine) return kNotChosen;
      if (thirty_two_rows_take) return kTakes;
    }
    // The 64-row tiles' copying entries (add_wgmma_few_row_repacking) stand aside for the
    // 256 x 128 cluster tile's past 1024^3 FLOP and 64 rows and columns where that tile's CTAs
    // keep at least half the SMs busy: measured on the H200, 1001^3 bf16 ran 19.3 us on the
    // 64 x 128 tile against 29.6 on the 256 x 128 one, but 2049^3 (128 CTAs) 90.6 against 78.3.
    // With fewer such CTAs the cluster tile's few SMs walk all of k (its time grew with k alone:
    // fp16 65-321 rows x 1024-2752 x 8192 ran 91-94 us), and the 64-row tiles, which make four
    // times the tiles, run faster: on an H100 (fp16 and bf16 NN and NT, 65-321 rows, n =
    // 1024-6000, k = 2048-8192) the 60 choices this moved ran 1.60x faster (0.97-3.30x), 0.88x
    // -> 1.40x cuBLAS (100 x 2752 x 4032 NT 53.4 -> 32.1 us, cuBLAS 24.7); at 321 x 6000 (96
    // CTAs) the cluster tile ran 1.11-1.24x faster from k = 4032 (docs/ladder.md, "Few rows
    // copied: the cluster tile's CTAs counted"). Since stop 63 tf32 counts them too: there the
    // bound gave such products to wgmma_rs's 128 x 256 copying tile (NN, NT, TT) or the cluster
    // tile (TN), which walked all of k on few CTAs as well (tf32 161 x 1024 x 8191 NN 191.5 us
    // against 61.4 on the 64 x 128 split-K tile); on an H100 the 44 tf32 choices timed that the
    // count moved ran 1.71x faster (0.82-4.42x), 0.54x -> 0.93x cuBLAS, the losses at 500 rows
    // with k = 2049 (500 x 2752 x 2049 NN 84.2 against 69.1 on wgmma_rs, whose 44 CTAs there
    // are not few: its 128-row tiles make four rows of them).
    if constexpr (kRepack && !kTransposeOnly && kCfg.bm == 64) {
      using Table = WgmmaConfigTable<kCfg.input>;
      constexpr TilemmWgmmaConfig kWide = Table::configs[Table::kRepacked];
      const std::int64_t wide_ctas = kWide.cluster_size() * wgmma_cluster_tiles<kWide>(p.m, p.n, p.batch);
      const bool wide_fills_half = 2 * wide_ctas >= dev.sm_count;
      if (std::min(p.m, p.n) > 64 && double(p.m) * double(p.n) * double(p.k) > 1024.0 * 1024.0 * 1024.0 &&
          wide_fills_half) {
        return kNotChosen;
      }
    }
    // tf32's copying 64-row tiles serve operands the TMA cannot read (odd leading dimensions).
    // Where it can, the only copy would be the transpose that tf32 wgmma's K-major reads need,
    // and wgmma_rs (in place) or the `.transpose` entries take those products, as measured.
    if constexpr (kRepack && !kTransposeOnly && kCfg.bm == 64 && kCfg.input == TilemmMmaInput::TF32) {
      if (tma_reads_operands_in_place(p, 4)) return kNotChosen;
    }
    // `.transpose` in TT puts n across the tile's 128 columns (64 per consumer warpgroup).
    // With fewer, a consumer idles and the few tiles leave SMs idle: measured on the H200,
    // 11008 and 14336 x 16 or 64 x 4096 ran 1.2-1.7x slower than wgmma_rs's split-K (98.7
    // against 59.6 us at 11008 x 16 x 4096), which the score below does not foresee.
    if (kTransposeOnly && p.opb == Op::T && p.n < kCfg.bn) return kNotChosen;
    const std::int64_t tiles_m = (p.m + kCfg.bm - 1) / kCfg.bm;
    const std::int64_t tiles = tiles_m * ((p.n + kCfg.bn - 1) / kCfg.bn) * p.batch;
    const std::int64_t cluster_tiles = wgmma_cluster_tiles<kCfg>(p.m, p.n, p.batch);
    // B shared along m (`.c2m`) pays where B's columns are not a whole number of 128-byte
    // lines apart (the TMA then cuts every box row into more L2 requests, and the multicast
    // issues half of B's) and the 64 x 128 tiles make at most one wave; measured on the
    // H200, 1000^3 13.2 us against 14.6 for the 64 x 128 tile alone, but 3000^3 152 against
    // 113 for the 256 x 128 cluster entry, and tf32 TN 1000^3 17.2 against 15.9. On an H100,
    // with the 128-byte L2 promotion such B now gets, bf16 1000 x 1000 x {1000, 3000, 5000}
    // (128 tiles) ran 1.01-1.26x faster than any other tile, but 2000 x 1000 x k (256 tiles,
    // two waves) 1.01-1.16x slower than the staged 128 x 128 tile (k = 1000) and the 192 x
    // 128 cluster tile (k = 3000, 5000) in all four layouts. Stopping at one wave moved 192
    // choices to the staged 128 x 128 tile; 24 of them ran 1.054x faster on an H100 and 1.081x
    // on an H200, five or six TN/TT ones 1-6% slower (docs/ladder.md, "Clusters along m for
    // one wave only"). Elsewhere the pairing costs more than it saves.
    // Where B's columns are off 32-byte sectors too, its k-loop is slower than that 0.85 says,
    // which long k shows: on an H100 (docs/ladder.md, "Few tiles with long k") its time over k
    // at 1000 x 1000 NT grew 5.7 ns per k (24.9 us at k = 3000, 70.9 at 11008), a rate of 0.45
    // where the score said 0.79, and stream-K's even split of k ran 1.37x faster at k = 11008.
    // Less the ~8 us its time starts at, it ran at 0.61 per tile slot where A's columns lie on
    // sectors (1024 x 1000 x 11008 NT) and 0.48-0.52 where they are off them too (1000 x 1000 x
    // {5000, 11008}): 0.62, and x0.8 for A off sectors, where m and n exceed 128 as there (the
    // 64-row tiles' charge below has the same bounds). Where B's columns lie on sectors (ldb =
    // 6000) it ran 1.03-1.13x faster than the 64 x 128 tile alone (1000 x 1000 x 6000 NN,
    // 1024 x 1024 x 6000 NN, 128 x 6000 x 4096 NT, 6000 x 128 x 6000 TN): 0.85 stays there.
    double speed = relative_speed;
    // A rows x cols tile's time at this k at one SM's rate, and the stop between one
    // cooperative tile and the next (its staged epilogue and the next tile's first stage).
    const auto tile_seconds = [&](double rows, double cols) {
      return 2.0 * rows * cols * double(p.k) / kSmFlopsPerSecond;
    };
    constexpr double kCooperativeTileStopSeconds = 1.5e-6;
    // Whether an operand's columns start a whole number of `bytes` apart (128: lines; 32: sectors).
    const auto columns_apart = [](std::int64_t ld, DType type, int bytes) {
      return ld * dtype_size(type) % bytes == 0;
    };
    const auto on_whole_lines = [&](std::int64_t ld, DType type) { return columns_apart(ld, type, 128); };
    // `per_operand` for each operand whose columns are not even 32 bytes apart (off sectors).
    const auto off_sectors_factor = [&](double per_operand) {
      return (columns_apart(p.lda, p.a_type, 32) ? 1.0 : per_operand) *
             (columns_apart(p.ldb, p.b_type, 32) ? 1.0 : per_operand);
    };
    const bool operands_on_whole_lines = on_whole_lines(p.lda, p.a_type) && on_whole_lines(p.ldb, p.b_type);
    // The 64-row tiles' charges for columns off sectors (below) hold where they were measured,
    // on products with more than 128 rows and columns.
    const bool rows_and_columns_above_128 = p.m > 128 && p.n > 128;
    if constexpr (kCfg.cluster_m > 1 && kCfg.input != TilemmMmaInput::TF32) {
      constexpr double kSpeedWhereBIsOffLines = 0.85, kSpeedWhereBIsOffSectors = 0.62, kWhereAIsOffSectors = 0.8;
      if (!on_whole_lines(p.ldb, p.b_type) && tiles <= dev.sm_count) {
        const bool b_off_sectors = !columns_apart(p.ldb, p.b_type, 32);
        speed = b_off_sectors && rows_and_columns_above_128
                    ? kSpeedWhereBIsOffSectors * (columns_apart(p.lda, p.a_type, 32) ? 1.0 : kWhereAIsOffSectors)
                    : kSpeedWhereBIsOffLines;
      }
    }
    // The staged 128 x 128 tile where A's and B's columns lie on whole 128-byte lines:
    // per tile slot 0.93-0.99 of the 256 x 128 cluster entry on the LLM-layer shapes with
    // m = 1024-3072 (H200; docs/ladder.md, "The 128 x 128 tile on whole lines"), e.g.
    // bf16 1024 x 14336 x 4096 160.7 us against 172.4 for stream-K; off whole lines it
    // keeps its 0.83 (bf16 6000^3: 797 us against 657 for the cluster entry).
    constexpr double kSpeedOnWholeLines = 0.95;
    if constexpr (kCfg.bm == 128 && kCfg.bn == 128 && kCfg.tma_store && !kCfg.pingpong) {
      if (operands_on_whole_lines) speed = kSpeedOnWholeLines;
    }
    // The 64 x 128 and 128 x 128 tiles in clusters of four along n (A multicast to four CTAs),
    // as cuBLAS runs few-row products (nvjet ..._32x128_64x10_1x4, _96x128_64x6_1x4): with one
    // row of tiles every CTA reads all of A, and the cluster reads it once for four. Measured
    // against the same tile alone (docs/ladder.md, "Few rows in clusters of four"; bf16 and fp16,
    // n = 8192-14336, k = 4096 and 11008, H100 and H200), where m leaves part of the tile's rows
    // empty (17-63 rows of 64, 65-127 of 128) and the clusters fill one wave:
    // - the 64 x 128 tile where A's columns are off 32-byte sectors (NN with m = 24, 40 or 56:
    //   48, 80 or 112 bytes apart) ran 1.03-1.58x faster at n = 8192-14336 (24 x 11008 x 4096 NN
    //   28.8 against 36.4 us on the H200, cuBLAS 28.2): x1.43, the 1 / 0.7 the 64-row tiles are
    //   charged elsewhere per operand off sectors, which also puts it above the 64 x 64 ping-pong
    //   tile's full wave at n = 8192 (1.09-1.58x faster there);
    // - the 64 x 128 tile where they are on sectors but off whole 128-byte lines (NN with m = 32
    //   or 48), and the 128 x 128 tile in every layout, ran 1.00-1.23x faster where the clusters
    //   hold at most 3/4 of the SMs (n = 11008: 88 CTAs), but 0.96-1.05x at n = 14336 (112 CTAs)
    //   and slower than the 64-row tiles' fuller waves at n = 8192: x1.05 up to 3/4 of the SMs;
    // - the 64 x 128 tile where A's columns lie on whole lines (TN, TT) ran 0.94-1.07x: not taken.
    // Batched products (stop 49, H100, bf16 NN and TT, m = 24, 40 and 48, n = 2048-8192, k = 4096,
    // 2, 4 or 8 products): the 64 x 128 tile with A off sectors (NN, m = 24 and 40) ran 1.18-1.28x
    // faster than auto's 64 x 64 ping-pong tile where all the products' tiles come to 32-64
    // (0.24-0.48 of the SMs; two 24 x 4096 x 4096 NN 30.0 against 38.4 us, cuBLAS 29.4), but
    // 0.96-1.04x from 128 tiles on; with A on sectors (m = 48, TT) it tied or lost: x1.43 for A
    // off sectors where the clusters hold 0.24-0.5 of the SMs.
    // Not measured with fewer tiles than 0.48 of the SMs (n < 8192) in one product. tf32 ran at
    // most 1.02x faster than the tiles alone (stop 49, H100); at m = 16 skinny_mma, and at m = 64
    // or 128 the tile alone, were as fast or faster. Everywhere else the cluster is not chosen.
    if constexpr (kCfg.cluster_n == 4 && kCfg.bm != 32) {
      constexpr double kFewRowsShareA = 1.05, kWhereAIsOffSectors = 1.43;
      constexpr double kMinTilesPerSm = 0.48, kMaxCtasPerSm = 0.75, kMaxCtasPerSmWhereAIsOffSectors = 0.85;
      constexpr double kBatchedMinTilesPerSm = 0.24, kBatchedMaxCtasPerSm = 0.5;
      const double ctas = double(kCfg.cluster_size() * cluster_tiles);
      const bool few_rows = kCfg.input != TilemmMmaInput::TF32 && p.m > 16 && p.m < kCfg.bm;
      const bool one_product = p.batch == 1 && double(tiles) >= kMinTilesPerSm * dev.sm_count;
      const bool few_batched_tiles = p.batch > 1 && double(tiles) >= kBatchedMinTilesPerSm * dev.sm_count &&
                                     ctas <= kBatchedMaxCtasPerSm * dev.sm_count;
      const bool a_off_sectors = kCfg.bm == 64 && !columns_apart(p.lda, p.a_type, 32);
      const bool a_reads_pay = kCfg.bm == 128 || !on_whole_lines(p.lda, p.a_type);
      if (few_rows && a_off_sectors &&
          ((one_product && ctas <= kMaxCtasPerSmWhereAIsOffSectors * dev.sm_count) || few_batched_tiles)) {
        speed *= kWhereAIsOffSectors;
      } else if (few_rows && one_product && a_reads_pay && ctas <= kMaxCtasPerSm * dev.sm_count) {
        speed *= kFewRowsShareA;
      } else {
        return kNotChosen;
      }
    }
    // The 128 x 128 ping-pong tile: its k-loop runs at ~0.965 of the 256 x 128 cluster
    // entry's rate (H200, 4096^3: 3% fewer cycles at a fixed clock, but its SMs receive
    // 1.33x the bytes, which the power cap takes back as a ~7% lower clock), and no epilogue
    // stops the tensor cores, where the cooperative tile stops them ~1.5 us a tile (the
    // staged epilogue and the next tile's first stage). So it wins bursts where a 256 x 128
    // tile is short: k = 1024 9% faster, 2048^3 12%, 2560^3 5%; ties at k = 4096; loses at
    // k = 6144-11008. Under sustained load at the power cap it ties with the cluster entry
    // on the shapes this picks (docs/ladder.md, "A whole tile per consumer" and "Tile
    // groups, the L2 slices and the power cap").
    // Off whole 128-byte lines it reads like the cooperative 128 x 128 tile (above), which
    // runs there at 0.83 where it runs at 0.95 on them. With at most one tile per CTA there
    // is nothing to alternate with: one warpgroup computes the tile while the other idles,
    // 1-5% slower than the cooperative 128 x 128 tile (128 x 11008 x 4096, 512 x 4096 x
    // 3072, 2048 x 1024 x 3072: 86-128 tiles).
    // Columns not even 32 bytes apart (bf16 ld = 1000: 2000 bytes) cost it far more: each
    // 128-byte box row then spans five sectors, and this tile's SMs already receive 1.33x
    // the cluster entry's bytes. On an H100, bf16 14336 x 1000 x 1000 ran 1.34x (NN, B off
    // sectors) and 1.65x (TN, both) slower than the cluster entry, where at k = 1024 it ran
    // 1.2x faster (docs/ladder.md, step 29, "Columns off 32-byte sectors"): x0.7 per such
    // operand.
    if constexpr (kCfg.pingpong && kCfg.bn == 128) {
      constexpr double kCooperativeOffLines = 0.83;  // the cooperative 128 x 128 entry's table speed
      constexpr double kAlone = 0.96, kPerOperandOffSectors = 0.7;
      const double alternation =
          tiles > dev.sm_count ? 1.0 + kCooperativeTileStopSeconds / tile_seconds(256, 128) : kAlone;
      const double lines = operands_on_whole_lines ? 1.0 : kCooperativeOffLines / kSpeedOnWholeLines;
      speed = relative_speed * lines * alternation * off_sectors_factor(kPerOperandOffSectors);
      // B's columns off whole lines cost it more, at any k: on an H100, bf16 NT 14336 x 6000 x
      // {1024, 2048, 4096} and 4096 x 6000 x 2048 and fp16 TT 14336 x 6000 x 1024 ran at 0.74-0.86
      // of the cluster tile's speed per tile slot, fp16 TN 2000 x 5000 x 6000 1.25x slower than
      // it (H200 at k = 1024: 0.92-1.0), where A's off lines cost nothing (bf16 NN 2000 x 5000 x
      // 4096: 1.12x faster than the cluster tile; docs/ladder.md, "Stream-K's ranges run slower
      // than whole tiles").
      constexpr double kWhereBIsOffLines = 0.75;
      if (!on_whole_lines(p.ldb, p.b_type)) {
        speed = std::min(speed, kWhereBIsOffLines * off_sectors_factor(kPerOperandOffSectors));
      }
    }
    // The 64 x 64 ping-pong tile on one row of tiles (m <= 64) that leaves at least half the SMs
    // idle: the busy SMs share L2 with fewer others, and each runs its k-loop faster (H100, bf16
    // NN with m = 64: 0.35 us per 64-k block with 128 tiles, 0.20 with 64, 0.15 with 32). Against
    // split-K, which keeps every SM busy, it then won where k is moderate (us, ping-pong against
    // split-K, bf16): on the H200 64 x 4096 x 4096 NN 17.3 / 19.3, TT 17.3 / 18.1; on the H100 NN
    // at k = 4096, 6144, 8192 19.4 / 22.4, 25.5 / 28.4, 30.7 / 32.3, TT 18.8 / 22.2, 24.2 / 27.7,
    // 29.4 / 31.9. At k = 11008 split-K caught up (H100 41.0 / 41.2) or won (H200 34.0 / 32.0),
    // and with 32 tiles (n = 2048) it won from k = 6144 on (H100 21.4 / 19.7). Only where A's and
    // B's columns lie on whole 128-byte lines: NN with m = 48 or 56 (A's columns 96 or 112 bytes
    // apart) kept split-K 2-4% ahead (split-K against ping-pong: H200 18.9 / 19.7, H100 22.1 /
    // 22.6 and 22.6 / 23.5), where TT, on lines, ran 5-15% faster on the ping-pong tile. x1.44
    // puts the ping-pong tile above split-K at n = 4096 up to k = 8192, below it at k = 11008 and
    // at n = 2048 from k = 4096 on (docs/ladder.md, "One row of 64 x 64 tiles"). Measured for
    // 16-bit inputs with m = 48-64. With fewer rows it did not pay (stop 48; both tiles in one
    // interleaved run, TN and TT, n = 3072 and 4096, k = 4096, bf16 and fp16): split-K ran m = 24
    // 1.01-1.09x faster (H200 24 x 4096 x 4096 TT 18.2 against 19.4 us) and m = 32 0.97-1.03x, while
    // at m = 40 the ping-pong tile stayed 8-12% ahead at n = 4096: from m = 33 on.
    if constexpr (kCfg.pingpong && kCfg.bn == 64 && kCfg.input != TilemmMmaInput::TF32) {
      constexpr double kOneRowOfTilesHalfTheSms = 1.44;
      constexpr std::int64_t kFewestRows = 33;
      if (tiles_m == 1 && p.m >= kFewestRows && 2 * tiles <= dev.sm_count && operands_on_whole_lines) {
        speed *= kOneRowOfTilesHalfTheSms;
      }
    }
    // The same tile alone on more than half the SMs (one tile a CTA), where A's columns are off
    // 128-byte lines as the kernel reads them (the caller's lda in place, the copy's for
    // `.repack`, whose ld is rounded up to 16 bytes only): each 64-row box row of A then spans
    // two lines, and this tile reads A once per 64 columns where the 64 x 128 tile reads it once
    // per 128; with most SMs reading, L2 does not hide it. On an H100 (docs/ladder.md, "The 64 x
    // 64 ping-pong tile alone on most SMs"; 16-bit, 72-129 of its tiles) the 20 timed products
    // with A off lines (NN and NT with m = 40-200 in place, m = 44-321 copied) ran 1.058x faster
    // on the tile the score now takes (0.95-1.24x, 16 of them faster: 64 x 128, its split-K or
    // its cluster of four; bf16 100 x 3072 x 4096 NT copied 33.8 -> 27.2 us), while with A on
    // lines (TN and TT; NN and NT with m = 128, 192 or 256; copies of 250 rows, ld 256) the
    // ping-pong tile stayed ahead on 17 of 20 (the other tiles 0.89-1.05x its speed). With 8
    // more A-off products timed as `auto` (m = 48 and 160), 28 in all: 1.040x (0.90-1.24x), the
    // losses where split-K takes k = 8192 (bf16 160 x 2752 x 8192 NT 33.2 -> 36.8 us, the 64 x
    // 128 tile 33.2). x0.7 puts the 64 x 128 tile (0.8 on half the tiles) just above it there.
    if constexpr (kCfg.pingpong && kCfg.bm == 64 && kCfg.bn == 64 && kCfg.input != TilemmMmaInput::TF32) {
      constexpr double kAloneOnMostSmsWhereAIsOffLines = 0.7;
      std::int64_t a_ld_as_read = p.lda;
      if constexpr (kRepack) {
        const AlignedOperandsPlan plan = wgmma_repack_plan<kCfg>(p);
        if (plan.repack_a) a_ld_as_read = plan.a.ld;
      }
      if (2 * tiles > dev.sm_count && tiles <= dev.sm_count && !on_whole_lines(a_ld_as_read, p.a_type)) {
        speed *= kAloneOnMostSmsWhereAIsOffLines;
      }
    }
    // The cooperative tiles of 128 columns without a cluster (128 x 128) where
    // columns are off 32-byte sectors, as the ping-pong tile (above) but measured with the
    // 128-byte L2 promotion such operands now get: on an H100, bf16 6000 x 1000 x 1000 and
    // 6000 x 1024 x 1000 (2.85 waves of 128 x 128 tiles) ran 1.17x (NN, NT: one operand off)
    // and 1.34x (TN: both) faster on the 192 x 128 cluster tile than on the staged 128 x 128
    // tile (docs/ladder.md, "L2 promotion for columns off 128-byte lines"): x0.8 per such
    // operand where the tiles fill more than one wave. With fewer, the SMs' requests leave L2
    // room: 512 x 4096 x 3000 TT (A off, 128 tiles) ran 1.10x faster on the 128 x 128 tile
    // than on the 192-row one, 128 x 11008 x 5000 TT (86 tiles) 1.07x. The 128 x 192 tile
    // (three consumers) pays the same: bf16 3000^3 (both operands off) ran 124.8 us against
    // 103.6 for the 256 x 128 cluster tile on an H100, 0.62 of its speed per tile slot.
    // With long k and most SMs reading the room is gone too: on an H100 (stop 68, docs/ladder.md,
    // "Two whole ranges a tile"; 16-bit, k = 11008 and 14336, 96-128 tiles of 128 x 128) each
    // operand off sectors left the staged tile 0.53-0.80 of its speed in the same product's layout
    // with that operand on them (bf16 2000 x 1000 x 14336: NT, B off, 145.1 us against 98.3 in NN;
    // 1000 x 2048 x 14336 NN, A off, 132.9 against 79.2 in TN), where the 256 x 128 stream-K entry,
    // two whole ranges a tile, ran 91-94 us in every layout. Charged x0.8 there too, the 118
    // choices this moved on CPU grids (k = 11008-16384, 88-128 tiles) ran 1.31x faster (1.00-1.66x).
    // With 72 tiles (384 x 3000, 3000 x 384) the 16 moved ran 0.87x (0.70-1.05x): from two thirds
    // of the SMs, and 16-bit k = 11008 (tf32, whose k-blocks are half as long, was not measured).
    if constexpr (kCfg.cluster_size() == 1 && kCfg.bm == 128 && (kCfg.bn == 128 || kCfg.bn == 192) &&
                  !kCfg.pingpong && !kCfg.split_k && !kRepack) {
      constexpr double kPerOperandOffSectors = 0.8;
      constexpr std::int64_t kLongK16Bit = 11008;
      const bool long_k_on_most_sms =
          kCfg.input != TilemmMmaInput::TF32 && p.k >= kLongK16Bit && 3 * tiles >= 2 * dev.sm_count;
      if (tiles > dev.sm_count || long_k_on_most_sms) speed *= off_sectors_factor(kPerOperandOffSectors);
    }
    // The 64-row tiles without a cluster (64 x 128 with and without split-K, and 64 x 64
    // ping-pong) pay more, however few their tiles: a 64-row box row of A is a single 128-byte
    // line, five sectors where its column starts off them. On an H100 (docs/ladder.md, "Few
    // tiles with long k"; bf16, one wave of 64 x 128 tiles, k = 11008) the 64 x 128 tile ran
    // 1024 x 1024 NN in 51.0 us, but 1000 x 1000 NN (A off) in 74.4, 1024 x 1000 NT (B off) in
    // 85.0 and 1000 x 1000 NT (both) in 102.8: 0.6-0.7 per operand. Against the score's other
    // tiles the 64 x 64 ping-pong tile and split-K lost the same: x0.7 per such operand.
    // Only where m and n both exceed 128, as in those products: the few-row and few-column
    // products behave otherwise (bf16 16 x 11008 x 1000 TN, both off: 15.6 us on the 64 x 128
    // tile against 18.8 on the staged 128 x 128 tile; 3000 x 128 x 6000 NN, A off: 25.8 us on
    // the 64 x 64 ping-pong tile against 30.1 for the 64 x 128 cluster tile on an H200).
    double off_sectors_charge_64_rows = 1.0;
    if constexpr (kCfg.cluster_size() == 1 && kCfg.bm == 64 && !kRepack) {
      constexpr double kPerOperandOffSectors = 0.7;
      if (rows_and_columns_above_128) off_sectors_charge_64_rows = off_sectors_factor(kPerOperandOffSectors);
    }
    speed *= off_sectors_charge_64_rows;
    // The 192 x 128 cluster tile pays the cooperative tile's stop (above) on a tile a quarter
    // shorter than the 256 x 128 one, and where k is short, one that nothing hides: measured
    // on the H200 (docs/ladder.md, "the 192-row cluster tile"), bf16 3072 x 1024 x 1024 (one
    // tile per CTA) 22.0 us against 18.4 for the ping-pong tile, 14336 x 1000 x 1000 61.1
    // against 53.6 for the 256 x 128 cluster entry, while from k = 3000 on it beat both.
    if constexpr (kCfg.bm == 192) {
      const double own = tile_seconds(kCfg.bm, kCfg.bn);
      speed *= own / (own + kCooperativeTileStopSeconds);
    }
    constexpr std::int64_t kClusterCols = std::int64_t(kCfg.cluster_n) * kCfg.bn;
    const std::int64_t cluster_cols = (p.n + kClusterCols - 1) / kClusterCols;
    const double fill = double(p.m) / double(kCfg.cluster_rows(tiles_m) * kCfg.cluster_m * kCfg.bm) * double(p.n) /
                        double(cluster_cols * kClusterCols);
    // The share of the GPU's peak the product runs at, and for `.repack` and `.transpose`
    // the share of the call left to it once its copies are paid (product_share_after_copies).
    // `.transpose` is further charged 0.83: measured on the H200 over 16 NN and TT shapes
    // with m or n of 16-512 (docs/ladder.md, step 28, "The few-row products transposed"),
    // these entries against wgmma_rs ran at about 0.83 of what the two scores predict.
    // Without it they took 128 x 4096 x 4096, 256 x 11008 x 4096 and 128 x 4096 x 11008 NN
    // and the TT products with n = 16-128 and m = 4096, where wgmma_rs ran 6-114% faster.
    const auto with_pass = [&](double share) {
      if constexpr (kRepack) {
        constexpr double kMeasuredAgainstWgmmaRs = kTransposeOnly ? 0.83 : 1.0;
        const double product_seconds = p.flops() / (share * kSmFlopsPerSecond * dev.sm_count);
        return kMeasuredAgainstWgmmaRs * share *
               product_share_after_copies(p, kCfg.element_bytes(), wgmma_repack_plan<kCfg>(p), product_seconds);
      }
      return share;
    };
    // Split-K is scored by time: its k-loop over tiles x slices work items, and the partial-sum
    // pass, whose time does not grow with k: ~3 us plus the slices' fp32 partials written and
    // read back at L2 speed (~6 TB/s). A flat 0.4 x 0.9 had it win where that pass is most of
    // the call. Measured (docs/ladder.md, "Split-K's pass is a fixed cost"):
    // - with one slice, split-K took 3.8-6.4 us longer than the 64 x 128 tile at every k from
    //   1000 to 11008 (H100; bf16 1000 x 1000, 1024 x 1024, 512 x 2000);
    // - its k-loop runs at the 64 x 64 ping-pong tile's 0.55, not the 64 x 128 tile's 0.8: with
    //   as many work items on whole lines, the ping-pong tile ran long k as fast or faster (H100,
    //   bf16 NT 128 x 4096 x 8192 30.7 against 34.5 us; NN 1024 x 512 x 8192 27.7 against 29.5);
    // - so at k <= 1024 (and 2000 x 128 x 3000) the ping-pong tile wins: 19 shapes that moved
    //   ran 1.00-1.39x faster on an H100 and 1.01-1.34x on an H200 (bf16 NN 2048 x 128 x 1024
    //   12.2 -> 9.0 us).
    // The copying split-K tiles (`.repack`) are scored the same way since stop 63, their copies
    // charged as every `.repack` entry's (with_pass): under the flat score the 64 x 64 ping-pong
    // copying tile outscored them where its tiles fill most of a wave and k is long (bf16 100 x
    // 2752 x 8192 NN 55.6 us against 38.2 on split-K). On an H100 the 21 timed choices that moved
    // between the two (bf16 and tf32) ran 1.13x faster (0.95-1.46x), 0.85x -> 0.96x cuBLAS
    // (docs/ladder.md, "Copying split-K by its time, and tf32's copies counted too").
    // tf32's `.transpose` split-K keeps the flat score that its 0.83 against wgmma_rs was
    // measured with.
    if constexpr (kCfg.split_k) {
      const std::int64_t slices = wgmma_split_k_slices(tiles, wgmma_k_blocks<kCfg>(p.k), dev.sm_count);
      const double work_items_busy = wave_efficiency(tiles * slices, dev.sm_count);
      if constexpr (kRepack && kTransposeOnly) {
        return base + 100.0 * with_pass(speed * work_items_busy * fill * 0.9);
      }
      constexpr double kLoopSpeed = 0.55, kPassSeconds = 3e-6, kPassBytesPerSecond = 6e12;
      const double gpu_flops_per_second = kSmFlopsPerSecond * dev.sm_count;
      const double loop_seconds =
          p.flops() / (kLoopSpeed * off_sectors_charge_64_rows * work_items_busy * fill * gpu_flops_per_second);
      const double partial_bytes = double(slices) * double(p.m) * double(p.n) * double(p.batch) * 4.0;
      const double pass_seconds = kPassSeconds + 2.0 * partial_bytes / kPassBytesPerSecond;
      return base + 100.0 * with_pass(p.flops() / ((loop_seconds + pass_seconds) * gpu_flops_per_second));
    }
    // Waves are counted in clusters: a cluster whose second tile lies past n still holds its
    // two SMs, and fill already charges that tile's empty columns (counted per CTA tile, the
    // idle CTA was charged twice).
    const std::int64_t clusters = dev.sm_count / kCfg.cluster_size();
    if constexpr (kCfg.stream_k) {
      return base + 100.0 * relative_speed *
                        stream_k_efficiency(cluster_tiles, clusters, wgmma_k_blocks<kCfg>(p.k),
                                            tile_seconds(kCfg.bm, kCfg.bn)) *
                        fill;
    }
    return base + 100.0 * with_pass(speed * wave_efficiency(cluster_tiles, clusters) * fill);
  };
  if constexpr (kCfg.swap_ab) {
    static_assert(!kRepack);
    e.can_implement = [](const GemmProblem& p, const DeviceInfo& dev) {
      if (p.n >= p.m) return std::string("the .swapab entries compute products with fewer columns than rows (n < m)");
      return wgmma_can_implement<kCfg, false>(p, dev);
    };
    e.launch = [](const GemmProblem& p, cudaStream_t stream) {
      return launch_wgmma<kCfg>(skinny_orientation(p), stream);
    };
  } else {
    e.can_implement = wgmma_can_implement<kCfg, kRepack, kTransposeOnly>;
    e.launch = kRepack ? launch_wgmma_repacked<kCfg> : launch_wgmma<kCfg>;
  }
  e.resources = [] {
    // NN, except tf32, which has only TN.
    constexpr bool kTA = kCfg.input == TilemmMmaInput::TF32;
    return KernelResources{reinterpret_cast<const void*>(&wgmma_gemm<kCfg, kTA, false>), kCfg.threads(),
                           kCfg.smem_bytes()};
  };
  return e;
}

// {input, bm, bn, stages, persistent, cluster_n, tma_store, split_k, stream_k} with their speeds relative
// to the fastest, measured on an H200 (bf16 NN, TFLOP/s at 4096^3 in one run: one block
// per tile 689, persistent 697, 128 x 128 626, cluster 705, staged epilogue 772; 8192^3
// in another: 751, 753, 643, 760, 808). They set the order auto tries them in.
template <TilemmMmaInput kIn>
struct WgmmaConfigTable {
  static constexpr TilemmWgmmaConfig configs[] = {
      {kIn, 256, 128, 4, false, 1, false, false, false},
      {kIn, 256, 128, 4, true, 1, false, false, false},
      {kIn, 128, 128, 6, true, 1, false, false, false},
      {kIn, 256, 128, 4, true, 2, false, false, false},
      {kIn, 256, 128, 4, true, 2, true, false, false},
      {kIn, 128, 128, 6, true, 1, true, false, false},
      {kIn, 64, 128, 8, true, 1, true, false, false},
      {kIn, 64, 128, 8, true, 1, true, false, false, false, 2},
      {kIn, 64, 64, 12, true, 1, true, false, false, true},
      {kIn, 128, 192, 4, true, 1, true, false, false},
      {kIn, 128, 128, 6, true, 1, true, false, false, true},
      {kIn, 192, 128, 5, true, 2, true, false, false, false, 1, 1},
      {kIn, 64, 128, 8, true, 4, true, false, false},
      {kIn, 128, 128, 6, true, 4, true, false, false},
      {kIn, 64, 128, 8, true, 1, false, true, false},
      {kIn, 32, 64, 18, true, 1, false, false, false, true},
      {kIn, 32, 64, 18, true, 4, false, false, false, true},
      {kIn, 32, 64, 18, true, 1, false, false, false, true, 1, 2, true},
      {kIn, 32, 64, 18, true, 4, false, false, false, true, 1, 2, true},
  };
  // The split-K entry's 0.4 is calibrated on the H200's standard suite: its 64-row tiles
  // ran 1000^3 at 95 TFLOP/s against 134 for the 128 x 128 entry (and 1024^3 134 against
  // 141), so it must lose there, while it must win the m = 16 and m = 128 shapes (where
  // it lifted bf16 from 0.28-0.48x cuBLAS to 0.64-0.91x); 0.4 does both. Only tf32's
  // `.transpose` split-K still scores with it; the others are scored by time (see the score).
  // The staged 128 x 128 entry serves the shapes the 128 x 128 tile wins (few tiles:
  // 1000^3, m = 16 or 128 with n >= 11008); 0.83 puts it just above the direct one. Where
  // A's and B's columns lie on whole 128-byte lines the score raises it to 0.95 (measured on
  // LLM-layer shapes; see kSpeedOnWholeLines).
  // The staged 64 x 128 entry (no split-K) doubles the tiles where 128 x 128 fills half
  // the SMs: 1024^3 bf16 10.1 us against 13.0 (cuBLAS 9.6), 128 x 4096 x 4096 19.1 against
  // 21.8 for split-K, 256 x 11008 x 4096 45.7 against 50.0 (H200; docs/ladder.md, "The
  // 64-row tile without split-K"); at 4096^3 it runs at 0.80 of the 256 x 128 cluster
  // entry, its speed here.
  // The 64 x 64 tile with its 12-stage ring wins where its tiles fill about one wave and the
  // 64 x 128 tiles half of one: 128 x 4096 x 4096 17.2 us against 19.9, tf32 TN 27.0
  // against 31.2; 0.55 keeps it off shapes with more tiles (m = 256: 27.4 against 19.7)
  // and under split-K at m <= 64 (docs/ladder.md, "64 x 64 tiles with a 12-stage ring").
  // The 64 x 128 tile in clusters along m (B multicast) scores 0.3 except where B's
  // columns are off 128-byte lines (see the score).
  // The 128 x 192 tile (three consumer warpgroups) serves the shapes whose 128-row tiles
  // leave the last wave mostly empty: 3072^3 bf16 78.6 us against 86.1 for 128 x 128 and
  // 91.5 for stream-K, 256 x 11008 x 4096 37.9 against 46.7, 1536^3 16.9 against 19.1
  // (H200, 10 back to back). Per tile slot it is as fast as the 256 x 128 cluster entry
  // (4096^3: 0.887 of its speed with 0.89 of its wave efficiency); 0.97 keeps that one
  // where both fill their waves.
  // The ping-pong 128 x 128 tile: 0.965, raised by the score where tiles are short (see
  // there).
  // The 192 x 128 tile in clusters of two (A multicast, as the 256 x 128 entry), cuBLAS's
  // tile for bf16 6000 x 1000 x 5000 (nvjet ..._192x128_64x5_1x2_...): where 256-row tiles
  // leave the last wave a quarter empty (192 of them on 132 SMs) its 256 tiles fill two
  // waves, and like the cluster entry it keeps its speed where columns are off 128-byte
  // lines, which the 128-row tiles do not. Per tile slot its k-loop ran as fast as the
  // 256 x 128 entry's at long k (H200, 6000 x 1024 x 11008 NT: 6.5 TFLOP/s per SM). With
  // 0.95 and its stop between tiles charged by k in the score, the 38 changed choices timed
  // ran 1.32x faster than before in geometric mean (docs/ladder.md, "the 192-row cluster tile").
  // Its ring has cuBLAS's 5 stages of 40 KB: they fit beside one staging box per consumer (218
  // KB), not two (234). Against 4 stages and two boxes, 5 and one ran 14 of 16 shapes 0-13%
  // faster (H200; bf16 3000 x 1000 x 4096 38.8 against 44.7 us), one 24% faster, one 0.3% slower.
  // The 64 x 128 and 128 x 128 tiles in clusters of four along n (A multicast) serve
  // few-row products only: their tiles' speeds, raised by the score where they were measured
  // faster and never chosen elsewhere (see the score).
  // The 32 x 64 tiles (wgmma m64n32; alone and in clusters of four) serve 17-32 rows, where
  // wgmma_thirty_two_rows says: 0.285 = 0.55 x 1.036 / 2, the 64 x 64 ping-pong tile's rate on
  // half its rows and a little more, so that they replace that tile there (see the score).
  static constexpr double relative_speed[] = {0.89, 0.9,  0.81, 0.92, 1.0, 0.83, 0.8, 0.3,
                                              0.55, 0.97, 0.965, 0.95, 0.8, 0.83, 0.4, 0.285, 0.285, 0.285, 0.285};
  static constexpr std::size_t kCount = std::size(configs);
  static constexpr std::size_t kRepacked = 4;  // configs[4] also registered with repacking
  // The tiles tf32 also registers with a transposing pass (add_wgmma_tf32_transposing).
  static constexpr std::size_t kStaged128 = 5, kStaged64 = 6, kSplitK64 = 14;
  // The 64 x 64 ping-pong tile, which 16-bit inputs also register with repacking
  // (add_wgmma_few_row_repacking), beside the 64 x 128 staged and split-K tiles.
  static constexpr std::size_t kPingPong64 = 8;
  static_assert(configs[kStaged128].bm == 128 && configs[kStaged128].tma_store && !configs[kStaged128].pingpong &&
                configs[kStaged64].bm == 64 && configs[kStaged64].tma_store && configs[kStaged64].cluster_m == 1 &&
                configs[kSplitK64].bm == 64 && configs[kSplitK64].split_k && configs[kPingPong64].bm == 64 &&
                configs[kPingPong64].bn == 64 && configs[kPingPong64].pingpong);
  // The last step: configs[4] with stream-K for the last wave.
  static constexpr TilemmWgmmaConfig stream_k = {kIn, 256, 128, 4, true, 2, true, false, true};
  static constexpr double stream_k_relative_speed = 1.0;
  // The 192 x 128 cluster tile (configs[11]) with stream-K, for 16-bit products of 129-192 rows
  // whose one row of cluster tiles is cut into two whole ranges a tile (wgmma_short_second_row_of_tiles
  // gives it those products and no others; its speed is configs[11]'s).
  static constexpr TilemmWgmmaConfig one_row_stream_k = {kIn, 192, 128, 5, true, 2, true, false, true, false, 1, 1};
  static constexpr double one_row_stream_k_relative_speed = 0.95;
  // One row of 192 x 64 tiles for 16-bit products of 129-192 rows: twice the CTAs of the 192 x
  // 128 tile on the same row (n / 64), so that B is still read once and more SMs stream it; the
  // two consumer warpgroups take alternate tiles (ping-pong), and clusters of four or two along n
  // share the A tile by multicast. cuBLAS runs such products on 160 x 64 tiles in clusters of
  // four (nvjet ..._160x64_64x6_1x4). Only wgmma_short_second_row_of_tiles gives them products:
  // the score returns before it reads their speed (0.55, the 64 x 64 ping-pong tile's).
  static constexpr TilemmWgmmaConfig one_row_ping_pong[] = {{kIn, 192, 64, 6, true, 4, true, false, false, true},
                                                            {kIn, 192, 64, 6, true, 2, true, false, false, true}};
  static constexpr double one_row_ping_pong_relative_speed = 0.55;
};

// Registers every configuration for bf16, fp16 and tf32 in ladder order: the one-block-
// per-tile grid, the persistent ones, the cluster, split-K and the few-row tiles (the 192 x 64
// ones after the table), the repacking entries, then stream-K.
template <std::size_t I, TilemmMmaInput... kIns>
void add_wgmma_config(Registry& r) {
  (r.add(make_wgmma_entry<WgmmaConfigTable<kIns>::configs[I], false>(WgmmaConfigTable<kIns>::relative_speed[I])),
   ...);
}

template <TilemmMmaInput... kIns>
void add_wgmma_repacking(Registry& r) {
  (r.add(make_wgmma_entry<WgmmaConfigTable<kIns>::configs[WgmmaConfigTable<kIns>::kRepacked], true>(
       WgmmaConfigTable<kIns>::relative_speed[WgmmaConfigTable<kIns>::kRepacked])),
   ...);
}

// The 192 x 128 stream-K entry: 16-bit inputs only (the rule that gives it products measured 16-bit ones).
template <TilemmMmaInput kIn>
void add_wgmma_one_row_stream_k(Registry& r) {
  if constexpr (kIn != TilemmMmaInput::TF32) {
    r.add(make_wgmma_entry<WgmmaConfigTable<kIn>::one_row_stream_k, false>(
        WgmmaConfigTable<kIn>::one_row_stream_k_relative_speed));
  }
}

// The 256 x 128 stream-K entry for every input, then the 192 x 128 one.
template <TilemmMmaInput... kIns>
void add_wgmma_stream_k(Registry& r) {
  (r.add(make_wgmma_entry<WgmmaConfigTable<kIns>::stream_k, false>(WgmmaConfigTable<kIns>::stream_k_relative_speed)),
   ...);
  (add_wgmma_one_row_stream_k<kIns>(r), ...);
}

// The 192 x 64 ping-pong entries in clusters of four and two: 16-bit inputs only, as the rule
// that gives them products.
template <TilemmMmaInput kIn>
void add_wgmma_one_row_ping_pong(Registry& r) {
  if constexpr (kIn != TilemmMmaInput::TF32) {
    using Table = WgmmaConfigTable<kIn>;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (r.add(make_wgmma_entry<Table::one_row_ping_pong[I], false>(Table::one_row_ping_pong_relative_speed)), ...);
    }(std::make_index_sequence<std::size(Table::one_row_ping_pong)>{});
  }
}

// The 64-row tiles auto runs few-row products on (64 x 128 staged and split-K, 64 x 64
// ping-pong), also with repacking. With only the 256 x 128 cluster tile copying, 33-64 rows
// with an unreadable lda (NN, lda = m = 36, 44, 60) ran n / 128 tiles on 132 SMs at
// 0.41-0.54x cuBLAS (H200, bf16 36 x 4096 x 4096 NN 54.7 us against 25.1), where the aligned
// neighbours (m = 40, 48, 64) ran these tiles at 0.87-1.06x; the score, which charges every
// repacking entry the same copy, then picks among them as it does in place, for at most 64
// rows or columns, products up to 1024^3, and (16-bit) products whose 256 x 128 cluster
// tiles would leave half the SMs idle (see there). tf32 too (A transposed in NN): with
// only the 256 x 128 tile and wgmma_rs's copying, tf32 33 x 1024 x 1024 NN ran 33.7 us
// against cuBLAS's 11.8 (docs/ladder.md, "Small products with an odd leading dimension").
template <TilemmMmaInput kIn, std::size_t... I>
void add_wgmma_repacking_of(Registry& r, std::index_sequence<I...>) {
  using Table = WgmmaConfigTable<kIn>;
  (r.add(make_wgmma_entry<Table::configs[I], true>(Table::relative_speed[I])), ...);
}

template <TilemmMmaInput kIn>
void add_wgmma_few_row_repacking(Registry& r) {
  using Table = WgmmaConfigTable<kIn>;
  add_wgmma_repacking_of<kIn>(r, std::index_sequence<Table::kStaged64, Table::kPingPong64, Table::kSplitK64>{});
}

// tf32 only: the staged 128 x 128 and 64 x 128 tiles and the 64 x 128 split-K tile, with
// the operand that is not K-major transposed first (`.transpose`), for NN and TT products
// with few rows or columns, where wgmma_rs's 128-row tiles run the k-loop slower than these
// tiles run TN.
void add_wgmma_tf32_transposing(Registry& r) {
  using Table = WgmmaConfigTable<TilemmMmaInput::TF32>;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (r.add(make_wgmma_entry<Table::configs[I], true, true>(Table::relative_speed[I])), ...);
  }(std::index_sequence<Table::kStaged128, Table::kStaged64, Table::kSplitK64>{});
}

void add_wgmma_configs(Registry& r) {
  constexpr auto kBf16 = TilemmMmaInput::BF16, kF16 = TilemmMmaInput::F16, kTf32 = TilemmMmaInput::TF32;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (add_wgmma_config<I, kBf16, kF16, kTf32>(r), ...);
  }(std::make_index_sequence<WgmmaConfigTable<kBf16>::kCount>{});
  add_wgmma_one_row_ping_pong<kBf16>(r);
  add_wgmma_one_row_ping_pong<kF16>(r);
  add_wgmma_repacking<kBf16, kF16, kTf32>(r);
  add_wgmma_few_row_repacking<kBf16>(r);
  add_wgmma_few_row_repacking<kF16>(r);
  add_wgmma_few_row_repacking<kTf32>(r);
  add_wgmma_tf32_transposing(r);
  add_wgmma_stream_k<kBf16, kF16, kTf32>(r);
}

}  // namespace tilemm::kernels

namespace tilemm {

void register_wgmma(Registry& r) { kernels::add_wgmma_configs(r); }

}  // namespace tilemm
