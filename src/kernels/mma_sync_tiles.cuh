// The warp-level mma.sync building blocks shared by the kernels that feed tensor cores
// from swizzled shared-memory stages (mma_sync.cu explains the design; skinny_mma.cu reuses
// it for products with few rows): the kernel arguments, the fragment reads, one stage's
// mma.sync, the main loops (the cp.async ring, the register-staged double buffer and the
// loads held ahead), the predicated epilogue, and the sum of k-slices across a cluster.
#pragma once

#include <cstdint>

#include "kernels/gemm_common.cuh"
#include "kernels/mma_sync_layout.cuh"
#include "ptx/cluster.cuh"
#include "ptx/cp_async.cuh"
#include "ptx/cvt.cuh"
#include "ptx/ldmatrix.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/mma.cuh"
#include "ptx/tma.cuh"

namespace tilemm::kernels {

// The kernel's arguments (by value, in the parameter constant bank). C is either fp32
// or the 16-bit input type, a run-time choice: it only changes the epilogue.
struct MmaSyncParams {
  std::int64_t m, n, k;
  float alpha, beta;
  const void* A;
  std::int64_t lda, stride_a;
  const void* B;
  std::int64_t ldb, stride_b;
  void* C;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
  bool c_is_fp32;
};

inline MmaSyncParams make_mma_sync_params(const GemmProblem& p) {
  MmaSyncParams q{};
  q.m = p.m;
  q.n = p.n;
  q.k = p.k;
  q.alpha = static_cast<float>(p.alpha);
  q.beta = static_cast<float>(p.beta);
  q.A = p.A;
  q.lda = p.lda;
  q.stride_a = p.stride_a;
  q.B = p.B;
  q.ldb = p.ldb;
  q.stride_b = p.stride_b;
  q.C = p.C;
  q.ldc = p.ldc;
  q.stride_c = p.stride_c;
  q.batch = p.batch;
  q.c_is_fp32 = p.c_type == DType::F32;
  return q;
}

__device__ __forceinline__ unsigned mma_tf32_operand(const char* stage, int offset) {
  return ptx::cvt_rna_tf32_f32(*reinterpret_cast<const float*>(stage + offset));
}

__device__ __forceinline__ void mma_round_to_tf32(unsigned& r) { r = ptx::cvt_rna_tf32_f32(__uint_as_float(r)); }

// The A fragment of the 16 x mma_k tile at warp rows xo, k-step ks of a stage.
template <TilemmMmaSyncConfig kCfg, bool kKContig>
__device__ __forceinline__ void mma_load_a_fragment(const char* stage, unsigned stage_address, int lane_off, int xo,
                                                    int ks, unsigned (&a)[4]) {
  using F = MmaFragmentAddress<kCfg, true, kKContig>;
  if constexpr (F::kScalar) {
    a[0] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo, 8 * ks));
    a[1] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo + 8, 8 * ks));
    a[2] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo, 8 * ks + 4));
    a[3] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo + 8, 8 * ks + 4));
  } else {
    const unsigned address = stage_address + unsigned(F::ldmatrix_offset(lane_off, xo, ks));
    if constexpr (kKContig) {
      ptx::ldmatrix_sync_aligned_m8n8_x4_b16(a[0], a[1], a[2], a[3], address);
    } else {
      ptx::ldmatrix_sync_aligned_m8n8_x4_trans_b16(a[0], a[1], a[2], a[3], address);
    }
    if constexpr (kCfg.input == TilemmMmaInput::TF32) {
#pragma unroll
      for (int i = 0; i < 4; ++i) mma_round_to_tf32(a[i]);
    }
  }
}

// The B fragments of the two mma_k x 8 tiles at warp columns xo and xo + 8.
template <TilemmMmaSyncConfig kCfg, bool kKContig>
__device__ __forceinline__ void mma_load_b_fragments(const char* stage, unsigned stage_address, int lane_off, int xo,
                                                     int ks, unsigned (&b0)[2], unsigned (&b1)[2]) {
  using F = MmaFragmentAddress<kCfg, false, kKContig>;
  if constexpr (F::kScalar) {
    b0[0] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo, 8 * ks));
    b0[1] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo, 8 * ks + 4));
    b1[0] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo + 8, 8 * ks));
    b1[1] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo + 8, 8 * ks + 4));
  } else {
    const unsigned address = stage_address + unsigned(F::ldmatrix_offset(lane_off, xo, ks));
    if constexpr (kKContig) {
      ptx::ldmatrix_sync_aligned_m8n8_x4_b16(b0[0], b0[1], b1[0], b1[1], address);
    } else {
      ptx::ldmatrix_sync_aligned_m8n8_x4_trans_b16(b0[0], b0[1], b1[0], b1[1], address);
    }
    if constexpr (kCfg.input == TilemmMmaInput::TF32) {
      mma_round_to_tf32(b0[0]);
      mma_round_to_tf32(b0[1]);
      mma_round_to_tf32(b1[0]);
      mma_round_to_tf32(b1[1]);
    }
  }
}

template <TilemmMmaInput kInput>
__device__ __forceinline__ void mma_tile(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  if constexpr (kInput == TilemmMmaInput::BF16) {
    ptx::mma_sync_aligned_m16n8k16_row_col_f32_bf16_bf16_f32(d, a, b);
  } else if constexpr (kInput == TilemmMmaInput::F16) {
    ptx::mma_sync_aligned_m16n8k16_row_col_f32_f16_f16_f32(d, a, b);
  } else {
    ptx::mma_sync_aligned_m16n8k8_row_col_f32_tf32_tf32_f32(d, a, b);
  }
}

// One warp's share of one BM x BN x BK stage: BK / mma_k k-steps of m_tiles x n_tiles
// mma.sync. a_off, b_off: the lane's offsets from MmaFragmentAddress::lane_offset.
template <TilemmMmaSyncConfig kCfg, bool kAKContig, bool kBKContig>
__device__ __forceinline__ void mma_compute_stage(const char* As, const char* Bs, int a_off, int b_off,
                                                  float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4]) {
  constexpr int MT = kCfg.m_tiles(), NT = kCfg.n_tiles();
  const unsigned a_address = ptx::shared_address(As), b_address = ptx::shared_address(Bs);
  // All B fragments of a k-step, then one A fragment at a time with its row of
  // mma.sync: fewer fragments live at once next to the 128 accumulators.
#pragma unroll
  for (int ks = 0; ks < kCfg.bk / kCfg.mma_k(); ++ks) {
    unsigned b[NT][2];
#pragma unroll
    for (int j = 0; j < NT; j += 2)
      mma_load_b_fragments<kCfg, kBKContig>(Bs, b_address, b_off, 8 * j, ks, b[j], b[j + 1]);
#pragma unroll
    for (int i = 0; i < MT; ++i) {
      unsigned a[4];
      mma_load_a_fragment<kCfg, kAKContig>(As, a_address, a_off, 16 * i, ks, a);
#pragma unroll
      for (int j = 0; j < NT; ++j) mma_tile<kCfg.input>(acc[i][j], a, b[j]);
    }
  }
}

// C = alpha * acc + beta * C for a lane's accumulators, predicated on the p.m x p.n
// matrix, element (row, col) at C + row * row_stride + col * col_stride (column-major C:
// 1 and ldc; a transposed product stored in the caller's layout: ldc and 1).
template <TilemmMmaSyncConfig kCfg, class CT>
__device__ __forceinline__ void mma_store_accumulators(const MmaSyncParams& p, CT* C, std::int64_t row0,
                                                       std::int64_t col0, int lane,
                                                       const float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4],
                                                       std::int64_t row_stride, std::int64_t col_stride) {
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < kCfg.m_tiles(); ++i)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const std::int64_t row = row0 + 16 * i + 8 * half + g;
      if (row >= p.m) continue;
#pragma unroll
      for (int j = 0; j < kCfg.n_tiles(); ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const std::int64_t col = col0 + 8 * j + 2 * t + e;
          if (col >= p.n) continue;
          store_alpha_beta(C + row * row_stride + col * col_stride, acc[i][j][2 * half + e], p.alpha, p.beta);
        }
    }
}

// Every accumulator of a lane's warp tile with its row and column in the block tile: a lane
// holds pairs of columns (2t, 2t + 1) of 8-row runs (rows g and g + 8) of each 16 x 8 piece.
template <TilemmMmaSyncConfig kCfg, class Visit>
__device__ __forceinline__ void mma_for_each_accumulator(int lane, int warp_m0, int warp_n0,
                                                         const float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4],
                                                         const Visit& visit) {
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < kCfg.m_tiles(); ++i)
#pragma unroll
    for (int half = 0; half < 2; ++half)
#pragma unroll
      for (int j = 0; j < kCfg.n_tiles(); ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          visit(warp_m0 + 16 * i + 8 * half + g, warp_n0 + 8 * j + 2 * t + e, acc[i][j][2 * half + e]);
        }
}

// `.smemstore`: what mma_store_accumulators stores, through shared memory. A lane's
// accumulators are pairs of columns of 8-row runs, so each warp store of them writes 8
// columns x 8 rows: 16 bytes of a column (half a 32-byte sector for 16-bit C) in 8 places.
// Here the warps first write the tile into shared memory, column-major in fp32 (columns
// bm + 4 floats apart: a store's 8 rows x 4 column pairs fall in 32 different banks), then
// every thread reads 4 rows of one column back (16 bytes; consecutive threads, consecutive
// rows) and stores them, so that a warp writes whole columns of C: 512 bytes of fp32 or 256
// of 16-bit C per store, by 16- or 8-byte stores where ldc and C's address allow it, by
// four element stores where they do not (odd ldc; each warp store then spreads over the
// lanes' 4-row pieces). alpha and beta are applied on the way out, in fp32 (beta == 0
// never reads C). `stage` aliases the ring: the first barrier waits for the tile's last
// fragment reads, the last one holds the next tile's loads until the columns are read.
template <TilemmMmaSyncConfig kCfg, class CT>
__device__ __forceinline__ void mma_store_accumulators_through_smem(
    const MmaSyncParams& p, CT* C, std::int64_t m0, std::int64_t n0, int warp_m0, int warp_n0, int tid, float* stage,
    const float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4]) {
  constexpr int kColumn = kCfg.staged_column_floats();
  constexpr int kRowsPerThread = 4;
  constexpr int kChunksPerColumn = kCfg.bm / kRowsPerThread;
  static_assert(kColumn % 32 == 4, "the column padding that spreads a fragment store over all banks");
  __syncthreads();
  mma_for_each_accumulator<kCfg>(tid % 32, warp_m0, warp_n0, acc,
                                 [&](int row, int col, float value) { stage[col * kColumn + row] = value; });
  __syncthreads();
  const bool whole_chunks = p.ldc % kRowsPerThread == 0 &&
                            reinterpret_cast<std::uintptr_t>(C) % (kRowsPerThread * sizeof(CT)) == 0;
  for (int q = tid; q < kChunksPerColumn * kCfg.bn; q += kCfg.threads()) {
    const int col = q / kChunksPerColumn, row = q % kChunksPerColumn * kRowsPerThread;
    const std::int64_t c = n0 + col, r = m0 + row;
    if (c >= p.n || r >= p.m) continue;
    const float4 v = *reinterpret_cast<const float4*>(stage + col * kColumn + row);
    CT* const out = C + r + c * p.ldc;
    if (whole_chunks && r + kRowsPerThread <= p.m) {
      store_four_alpha_beta(out, v, p.alpha, p.beta);
    } else {
      const float values[kRowsPerThread] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int e = 0; e < kRowsPerThread; ++e) {
        if (r + e < p.m) store_alpha_beta(out + e, values[e], p.alpha, p.beta);
      }
    }
  }
  __syncthreads();
}

// A `.clusterk` CTA's mbarrier, past its slots (cluster_sum_bytes; `sums` is their shared
// address): it counts the bytes its peers copy in (mma_sum_cluster_slices).
template <int kElements, int kMostSlices>
__device__ __forceinline__ unsigned cluster_sum_barrier(unsigned sums) {
  static_assert(cluster_sum_slot_bytes(kElements, 1, kMostSlices) % 16 == 0);
  return sums + unsigned(cluster_sum_slot_bytes(kElements, 1, kMostSlices));
}

// Before a `.clusterk` CTA's first sum: one thread initializes the mbarrier its peers' copies
// complete on and publishes it to the cluster; the cluster barrier in every sum makes it
// visible there before any peer copies.
template <TilemmMmaSyncConfig kCfg, int kMostSlices>
__device__ __forceinline__ void mma_cluster_sum_init(char* sums) {
#if __CUDA_ARCH__ >= 900
  if (threadIdx.x == 0) {
    ptx::mbarrier_init_shared_b64(cluster_sum_barrier<kCfg.bm * kCfg.bn, kMostSlices>(ptx::shared_address(sums)), 1);
    ptx::fence_mbarrier_init_release_cluster();
  }
#else
  (void)sums;
#endif
}

// `.clusterk`'s ending (skinny_mma, mma_sync's `.ahead.clusterk`): the k-slices of a tile
// are the `slices` CTAs of one cluster (cluster rank = slice), and CTA r stores the r-th share
// of the tile's elements (consecutive in C: down its columns, or along its rows when
// store_transposed, the tile being of the caller's product transposed, skinny_orientation).
// Each CTA writes its fp32 accumulators into its drained ring in that order; after a cluster
// barrier (every peer's slots free, its mbarrier ready) one thread hands each peer's share to
// the copy engine, which moves it into slot `rank` of that peer's `sums` (past its ring,
// cluster_sum_bytes) and counts its bytes on the peer's mbarrier. So no thread waits on a
// remote load, each CTA receives slices - 1 copies, and none needs a barrier to outlive its
// peers: a CTA leaves once its own slots are full and its copies have read its ring. It then
// adds its share over the slices in slice order (the order split_k_reduce adds the partials
// in, so the bits are the same) and stores alpha * sum + beta * C. m0, n0: the tile's first
// row and column; warp_m0, warp_n0: the warp's within it. parity: how many sums this CTA has
// done before, mod 2 (the mbarrier's phase); mma_cluster_sum_init prepares the barrier once.
template <TilemmMmaSyncConfig kCfg, int kMostSlices, class CT>
__device__ __forceinline__ void mma_sum_cluster_slices(const MmaSyncParams& p, CT* C, char* ring, char* sums,
                                                       unsigned parity,
                                                       const float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4],
                                                       std::int64_t m0, std::int64_t n0, int warp_m0, int warp_n0,
                                                       int lane, int slices, bool store_transposed) {
#if __CUDA_ARCH__ >= 900
  const std::int64_t row_stride = store_transposed ? p.ldc : 1, col_stride = store_transposed ? 1 : p.ldc;
  constexpr int BM = kCfg.bm, BN = kCfg.bn, kElements = BM * BN;
  static_assert(kCfg.ring_bytes() >= 4 * kElements, "the drained ring holds the tile's fp32 sums");
  // Consecutive elements are consecutive addresses of C: along the oriented tile's columns
  // (C's rows) when stored transposed, else down its columns.
  const auto index = [&](int row, int col) { return store_transposed ? row * BN + col : col * BM + row; };
  // Each CTA's share: a multiple of 4 elements (16-byte copies and reads); `slices` of them
  // fit the slots (cluster_sum_slot_bytes).
  const int share = ((kElements + slices - 1) / slices + 3) / 4 * 4;
  const auto share_end = [&](int r) { return std::min(kElements, (r + 1) * share); };
  const int rank = int(ptx::cluster_ctarank());
  const int begin = rank * share, end = share_end(rank);
  float* const tile = reinterpret_cast<float*>(ring);
  const float* const slots = reinterpret_cast<const float*>(sums);
  const unsigned barrier = cluster_sum_barrier<kElements, kMostSlices>(ptx::shared_address(sums));
  // Arrived before the tile is written, waited for after: every CTA of the cluster is done
  // with its previous sum (its slots are free) and has initialized its barrier. Relaxed:
  // nothing written before it is read by another CTA through it (the copies complete on the
  // barrier); what the slots held was read into stores to C before each thread arrived.
  ptx::cluster_arrive_relaxed();
  mma_for_each_accumulator<kCfg>(lane, warp_m0, warp_n0, acc,
                                 [&](int row, int col, float value) { tile[index(row, col)] = value; });
  ptx::fence_proxy_async_shared_cta();  // the copy engine reads what the threads wrote
  __syncthreads();
  ptx::cluster_wait();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx_shared_b64(barrier, unsigned(4 * (slices - 1) * std::max(0, end - begin)));
    const unsigned tile_address = ptx::shared_address(ring), sums_address = ptx::shared_address(sums);
    for (int r = 0; r < slices; ++r) {
      const int bytes = 4 * (share_end(r) - r * share);
      if (r == rank || bytes <= 0) continue;
      const unsigned slot = sums_address + 4u * unsigned(rank * share);  // this slice's slot, in every CTA
      ptx::cp_async_bulk_shared_to_cluster(ptx::cluster_map_shared(slot, unsigned(r)),
                                           tile_address + 4u * unsigned(r * share), unsigned(bytes),
                                           ptx::cluster_map_shared(barrier, unsigned(r)));
    }
    ptx::cp_async_bulk_commit_group();
  }
  ptx::mbarrier_wait_parity_shared_b64(barrier, parity);  // the peers' shares have landed
  for (int x = begin + 4 * int(threadIdx.x); x < end; x += 4 * kCfg.threads()) {
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int s = 0; s < slices; ++s) {
      const float4 part = *reinterpret_cast<const float4*>(s == rank ? tile + x : slots + s * share + (x - begin));
      sum.x += part.x;
      sum.y += part.y;
      sum.z += part.z;
      sum.w += part.w;
    }
    const float four[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int row = store_transposed ? (x + q) / BN : (x + q) % BM;
      const int col = store_transposed ? (x + q) % BN : (x + q) / BM;
      if (m0 + row < p.m && n0 + col < p.n)
        store_alpha_beta(C + (m0 + row) * row_stride + (n0 + col) * col_stride, four[q], p.alpha, p.beta);
    }
  }
  // The copies have read the ring before it is refilled or the CTA leaves.
  if (threadIdx.x == 0) ptx::cp_async_bulk_wait_group_read<0>();
  __syncthreads();
#else
  // The `.clusterk` entries require compute capability 9.0; this build never runs them.
  (void)p, (void)C, (void)ring, (void)sums, (void)parity, (void)acc, (void)m0, (void)n0, (void)warp_m0, (void)warp_n0,
      (void)lane, (void)slices, (void)store_transposed;
  __trap();
#endif
}

// The cp.async ring over k-tiles [0, k_tiles) of one block tile: S - 1 tiles in flight
// while the tensor cores work on the oldest, one commit group per tile. stage_a(s),
// stage_b(s): buffer s of each operand. On return every copy has landed and every warp
// has finished reading the ring, so the caller may refill it.
template <TilemmMmaSyncConfig kCfg, bool kAKContig, bool kBKContig, class CopyA, class CopyB, class T, class StageA,
          class StageB>
__device__ __forceinline__ void mma_ring_main_loop(const CopyA& copy_a, const CopyB& copy_b, const T* A,
                                                   std::int64_t lda, const T* B, std::int64_t ldb,
                                                   std::int64_t k_tiles, StageA stage_a, StageB stage_b, int a_off,
                                                   int b_off, float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4]) {
  constexpr int S = kCfg.stages;
  // Prologue: the first S - 1 tiles in flight, one commit group each (empty groups past
  // the last tile keep the group count uniform for wait_group).
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < k_tiles) {
      copy_a.issue(stage_a(s), A, lda, s);
      copy_b.issue(stage_b(s), B, ldb, s);
    }
    ptx::cp_async_commit_group();
  }
  for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
    // Tile kt has landed (at most S - 2 younger groups still travel), and every warp has
    // finished reading the buffer that the next copies overwrite.
    ptx::cp_async_wait_group<S - 2>();
    __syncthreads();
    const std::int64_t next = kt + S - 1;
    if (next < k_tiles) {
      const int s = int(next % S);
      copy_a.issue(stage_a(s), A, lda, next);
      copy_b.issue(stage_b(s), B, ldb, next);
    }
    ptx::cp_async_commit_group();
    const int s = int(kt % S);
    mma_compute_stage<kCfg, kAKContig, kBKContig>(stage_a(s), stage_b(s), a_off, b_off, acc);
  }
  // Drain (only empty groups remain) and let every warp finish reading.
  ptx::cp_async_wait_group<0>();
  __syncthreads();
}

// The loop with A loaded element by element (any leading dimension), and B either through
// the cp.async ring above or element by element too (kVecB > 0).
//   - skinny_mma's `.ldgshort` (kVecB = 0): A is short and not 16-byte aligned (lda = 20 in
//     NN) while B, the long operand, is: B's k-tiles travel through the ring as above.
//   - mma_sync's `.ahead` tiles (kVecB > 0): neither operand need be aligned, and the
//     product is small, so its time is the loads' latency: both travel through registers.
// A's (and B's) k-tiles are held in registers S - 1 tiles ahead (held[t % (S - 1)] holds
// k-tile t: MmaOperandCopier::load_held, kVec elements per load). Each tile is packed and
// stored into its stage after the tensor cores' work on the previous tile and published by
// the next iteration's barrier; its loads had S - 2 iterations to return. The loop is
// unrolled by S - 1 so that every index into held is a compile-time constant (registers,
// not local memory).
template <TilemmMmaSyncConfig kCfg, bool kAKContig, bool kBKContig, int kVec, int kVecB = 0, class CopyA, class CopyB,
          class T, class StageA, class StageB>
__device__ __forceinline__ void mma_ring_main_loop_by_elements(const CopyA& copy_a, const CopyB& copy_b, const T* A,
                                                               std::int64_t lda, const T* B, std::int64_t ldb,
                                                               std::int64_t k_tiles, StageA stage_a, StageB stage_b,
                                                               int a_off, int b_off,
                                                               float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4]) {
  constexpr int S = kCfg.stages;
  constexpr int kAhead = S - 1;
  constexpr bool kBByElements = kVecB > 0;
  typename CopyA::template Held<kVec> held[kAhead];
  [[maybe_unused]] typename CopyB::template Held<kBByElements ? kVecB : 1> held_b[kBByElements ? kAhead : 1];
  const auto fetch = [&](int slot, std::int64_t kt) {
    if constexpr (kBByElements) {
      copy_b.template load_held<kVecB>(held_b[slot], B, ldb, kt);
    } else {
      copy_b.issue(stage_b(int(kt % S)), B, ldb, kt);
    }
    copy_a.template load_held<kVec>(held[slot], A, lda, kt);
  };
  const auto store_held = [&](int slot, std::int64_t kt) {
    copy_a.template store_held<kVec>(stage_a(int(kt % S)), held[slot]);
    if constexpr (kBByElements) copy_b.template store_held<kVecB>(stage_b(int(kt % S)), held_b[slot]);
  };
#pragma unroll
  for (int s = 0; s < kAhead; ++s) {
    if (s < k_tiles) fetch(s, s);
    if constexpr (!kBByElements) ptx::cp_async_commit_group();
  }
  if (k_tiles > 0) store_held(0, 0);
  for (std::int64_t kt0 = 0; kt0 < k_tiles; kt0 += kAhead) {
#pragma unroll
    for (int u = 0; u < kAhead; ++u) {
      const std::int64_t kt = kt0 + u;  // kt % kAhead == u
      if (kt >= k_tiles) break;
      // B's tile kt has landed, A's tile kt was stored last iteration, and every warp has
      // finished reading the stage that the next copies overwrite.
      if constexpr (!kBByElements) ptx::cp_async_wait_group<S - 2>();
      __syncthreads();
      const std::int64_t next = kt + kAhead;
      if (next < k_tiles) fetch(u, next);  // tile kt left held[u] last iteration
      if constexpr (!kBByElements) ptx::cp_async_commit_group();
      const int s = int(kt % S);
      mma_compute_stage<kCfg, kAKContig, kBKContig>(stage_a(s), stage_b(s), a_off, b_off, acc);
      // Stage (kt + 1) % S was last read in iteration kt + 1 - S, before this iteration's barrier.
      if (kt + 1 < k_tiles) store_held((u + 1) % kAhead, kt + 1);
    }
  }
  if constexpr (!kBByElements) ptx::cp_async_wait_group<0>();
  __syncthreads();
}

// The register-staged loop over k-tiles [0, k_tiles) of one block tile, for operands
// the 16-byte copies cannot read (any leading dimension, `.ldg2` / `.ldg4`): each thread
// loads its chunks of tile kt + 1 element by element into registers (MmaOperandCopier::
// load) while the tensor cores work on tile kt, then stores them into the other of two
// shared buffers, so the loads' latency hides behind one k-tile of mma.sync. On return
// every warp has finished reading both buffers, so the caller may refill them.
// `.smemstore` (16-bit) may run it with kCfg.elements_per_load 2 or 4: one 4- or 8-byte
// load a piece of both operands (MmaOperandCopier::load_held), where the launcher found
// every piece aligned and whole; its short k makes those loads most of its instructions.
template <TilemmMmaSyncConfig kCfg, bool kAKContig, bool kBKContig, class CopyA, class CopyB, class T, class StageA,
          class StageB>
__device__ __forceinline__ void mma_register_main_loop(const CopyA& copy_a, const CopyB& copy_b, const T* A,
                                                       std::int64_t lda, const T* B, std::int64_t ldb,
                                                       std::int64_t k_tiles, StageA stage_a, StageB stage_b,
                                                       int a_off, int b_off,
                                                       float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4]) {
  constexpr int kVec = kCfg.elements_per_load;
  // One element a load (kVec 0): packed as chunks as they arrive (MmaOperandCopier::load);
  // 2 or 4: they arrive packed (MmaOperandCopier::load_held). Staged<kVec> holds either.
  typename CopyA::template Staged<kVec> staged_a;
  typename CopyB::template Staged<kVec> staged_b;
  if (k_tiles > 0) {
    copy_a.template load_staged<kVec>(staged_a, A, lda, 0);
    copy_b.template load_staged<kVec>(staged_b, B, ldb, 0);
    copy_a.template store_staged<kVec>(stage_a(0), staged_a);
    copy_b.template store_staged<kVec>(stage_b(0), staged_b);
  }
  __syncthreads();
  for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
    const bool more = kt + 1 < k_tiles;
    // Loads of tile kt + 1 travel while the tensor cores work on tile kt.
    if (more) {
      copy_a.template load_staged<kVec>(staged_a, A, lda, kt + 1);
      copy_b.template load_staged<kVec>(staged_b, B, ldb, kt + 1);
    }
    const int s = int(kt % 2);
    mma_compute_stage<kCfg, kAKContig, kBKContig>(stage_a(s), stage_b(s), a_off, b_off, acc);
    // The other buffer was last read in iteration kt - 1, before its closing barrier;
    // this iteration's barrier publishes tile kt + 1 and, after the last tile, lets every
    // warp finish reading.
    if (more) {
      copy_a.template store_staged<kVec>(stage_a(1 - s), staged_a);
      copy_b.template store_staged<kVec>(stage_b(1 - s), staged_b);
    }
    __syncthreads();
  }
}

}  // namespace tilemm::kernels
