// Building blocks of the register-blocked FP32 kernels (blocktile1d ... cp_async):
// tile copies from op(A) / op(B) into shared memory, and the alpha/beta epilogue of a
// thread's register tile.
//
// Both operands are seen the same way: an operand is a matrix with an "x" extent (m for
// op(A), n for op(B)) and a k extent. In column-major storage it is contiguous along x
// (op(A) = A, op(B) = B^T as stored) or along k (op(A) = A^T, op(B) = B):
//
//   operand  op  contiguous along   element (x, kk) at
//   A        N   x (= m)            x + kk * lda
//   A        T   k                  kk + x * lda
//   B        N   k                  kk + x * ldb
//   B        T   x (= n)            x + kk * ldb
//
// so kXContig = !transA for A and transB for B, and the copies below serve both.
#pragma once

#include <cstdint>
#include <string>

#include <cuda_runtime.h>

#include "kernels/gemm_common.cuh"
#include "registry/registry.hpp"

namespace tilemm::kernels {

// One operand of one batch item, as the copies see it.
struct OperandView {
  const float* ptr;
  std::int64_t ld;
  std::int64_t extent_x;  // m for op(A), n for op(B)
  std::int64_t extent_k;
};

template <bool kXContig>
__device__ __forceinline__ std::int64_t operand_offset(std::int64_t x, std::int64_t kk, std::int64_t ld) {
  return kXContig ? x + kk * ld : kk + x * ld;
}

// Item `pass * kThreads + tid` of a tile walked kLead items at a time along its
// contiguous direction, as (lead, other) coordinates. When the thread count is a
// multiple of kLead (or kLead a multiple of the thread count) every pass is the
// thread's first item plus a compile-time constant, so the copies keep one base index
// per thread instead of one per pass alive across the k-loop.
template <int kLead, int kThreads>
__device__ __forceinline__ void tile_item_coords(int tid, int pass, int& lead, int& other) {
  const unsigned t = unsigned(tid);  // unsigned: power-of-two divisions become shifts
  if constexpr (kThreads % kLead == 0) {
    lead = int(t % kLead);
    other = int(t / kLead) + pass * (kThreads / kLead);
  } else if constexpr (kLead % kThreads == 0) {
    lead = tid + pass % (kLead / kThreads) * kThreads;
    other = pass / (kLead / kThreads);
  } else {
    const unsigned e = t + unsigned(pass * kThreads);
    lead = int(e % kLead);
    other = int(e / kLead);
  }
}

// Copies the X x K tile of the operand at (x0, k0) into smem laid out [k][x] with row
// pitch P floats, one element per thread per pass, zeros outside the matrix. Threads
// walk the contiguous direction of the storage so each warp's loads coalesce.
// The pass count is a compile-time constant (tid < kThreads): a loop from tid to X * K
// has a trip count the compiler cannot know, and its generic unrolling with remainder
// handling costs dozens of registers.
template <int X, int K, int P, int kThreads, bool kXContig>
__device__ __forceinline__ void copy_tile_scalar(float* __restrict__ smem, const OperandView& g,
                                                 std::int64_t x0, std::int64_t k0, int tid) {
  constexpr int kPasses = (X * K + kThreads - 1) / kThreads;
#pragma unroll
  for (int pass = 0; pass < kPasses; ++pass) {
    if ((X * K) % kThreads != 0 && tid + pass * kThreads >= X * K) break;
    int lead, other;
    tile_item_coords<kXContig ? X : K, kThreads>(tid, pass, lead, other);
    const int x = kXContig ? lead : other;
    const int kk = kXContig ? other : lead;
    const std::int64_t gx = x0 + x, gk = k0 + kk;
    smem[kk * P + x] = (gx < g.extent_x && gk < g.extent_k) ? g.ptr[operand_offset<kXContig>(gx, gk, g.ld)] : 0.0f;
  }
}

// Reads 4 consecutive elements along the storage's contiguous direction starting at
// (x, kk): one 16-byte load when all 4 are inside the matrix (the caller guarantees
// 16-byte alignment of such groups), element by element with zeros otherwise.
template <bool kXContig>
__device__ __forceinline__ float4 load_quad(const OperandView& g, std::int64_t x, std::int64_t kk) {
  const std::int64_t lead = kXContig ? x : kk;     // along the contiguous direction
  const std::int64_t other = kXContig ? kk : x;
  const std::int64_t lead_extent = kXContig ? g.extent_x : g.extent_k;
  const std::int64_t other_extent = kXContig ? g.extent_k : g.extent_x;
  if (other >= other_extent) return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  const float* p = g.ptr + lead + other * g.ld;
  if (lead + 3 < lead_extent) return *reinterpret_cast<const float4*>(p);
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (lead + 0 < lead_extent) v.x = p[0];
  if (lead + 1 < lead_extent) v.y = p[1];
  if (lead + 2 < lead_extent) v.z = p[2];
  return v;
}

// Copies the X x K tile of the operand at (x0, k0) into smem laid out [k][x] with row
// pitch P floats, one load_quad per thread per pass; x0 and k0 must be multiples of 4 so
// that every quad starts on a 16-byte boundary of an aligned operand. Consecutive
// threads take consecutive quads along the storage's contiguous direction (coalesced).
// An x-contiguous quad is 4 neighbours in one smem row: one 16-byte store (P % 4 == 0
// keeps the rows aligned). A k-contiguous quad is transposed on the way in: 4 scalar
// stores, one per row kk..kk+3, so the compute loop always reads [k][x].
template <int X, int K, int P, int kThreads, bool kXContig>
__device__ __forceinline__ void copy_tile_quad(float* __restrict__ smem, const OperandView& g,
                                               std::int64_t x0, std::int64_t k0, int tid) {
  static_assert(X % 4 == 0 && K % 4 == 0 && P % 4 == 0 && P >= X);
  constexpr int kQuads = X * K / 4;
  static_assert(kQuads % kThreads == 0, "every thread copies the same number of quads");
  constexpr int kQuadsLead = kXContig ? X / 4 : K / 4;  // quads along the contiguous direction
#pragma unroll
  for (int pass = 0; pass < kQuads / kThreads; ++pass) {
    int quad, other;
    tile_item_coords<kQuadsLead, kThreads>(tid, pass, quad, other);
    const int lead = 4 * quad;
    if constexpr (kXContig) {
      *reinterpret_cast<float4*>(&smem[other * P + lead]) = load_quad<true>(g, x0 + lead, k0 + other);
    } else {
      const float4 v = load_quad<false>(g, x0 + other, k0 + lead);
      smem[(lead + 0) * P + other] = v.x;
      smem[(lead + 1) * P + other] = v.y;
      smem[(lead + 2) * P + other] = v.z;
      smem[(lead + 3) * P + other] = v.w;
    }
  }
}

// The alignment requirement of the vectorized kernels, as a can_implement reason: every
// 4-float group that starts at a multiple of 4 along a column is 16-byte aligned.
inline std::string require_quad_alignment(const GemmProblem& p) {
  if (!columns_aligned16(p.A, p.lda, p.stride_a, p.batch, 4)) return "A must be 16-byte aligned with lda (and strideA) a multiple of 4";
  if (!columns_aligned16(p.B, p.ldb, p.stride_b, p.batch, 4)) return "B must be 16-byte aligned with ldb (and strideB) a multiple of 4";
  return {};
}

// Returns v unchanged, opaque to the optimizer, so that everything derived from it is
// computed after this point. The epilogue's 64-bit row and column coordinates are
// invariant across the batch and column-tile loops; without the barrier the compiler
// computes them (and the per-column offsets times ldc) before those loops and keeps them
// live across the k-loop, where the 64 accumulators of an 8 x 8 thread tile leave no
// room under a 128-register cap: they spill to local memory. Pass the thread's row and
// column bases through it right before store_tile, and the tile origins through it
// before the copies of each k-step (the same happens to the copies' per-pass rows).
__device__ __forceinline__ std::int64_t hoist_barrier(std::int64_t v) {
  asm volatile("" : "+l"(v));
  return v;
}

// The interleaved thread tile of the conflict-free kernels: element i of a thread's
// fragment sits in group i / 4 of 4 consecutive rows (or columns), groups 4 * kThreads
// apart, so the kThreads threads along that axis read kThreads consecutive 16-byte
// chunks with each LDS.128 (one wavefront per quarter-warp phase).
template <int kThreads>
__device__ __forceinline__ constexpr int interleaved_offset(int t, int i) {
  return (i / 4) * (4 * kThreads) + 4 * t + i % 4;
}

// A thread's kN fragment values from one shared-memory row of its tile (row points at
// the tile's first element in that row): one LDS.128 per group of 4.
template <int kThreads, int kN>
__device__ __forceinline__ void read_interleaved_fragment(const float* row, int t, float (&dst)[kN]) {
#pragma unroll
  for (int g = 0; g < kN / 4; ++g) {
    const float4 v = *reinterpret_cast<const float4*>(&row[interleaved_offset<kThreads>(t, 4 * g)]);
    dst[4 * g + 0] = v.x;
    dst[4 * g + 1] = v.y;
    dst[4 * g + 2] = v.z;
    dst[4 * g + 3] = v.w;
  }
}

// Writes a thread's TM x TN register tile: C(row(i), col(j)) = alpha*acc + beta*C, with
// rows and columns outside the matrix skipped. row/col map fragment indices to global
// coordinates.
template <int TM, int TN, class RowOf, class ColOf>
__device__ __forceinline__ void store_tile(const GemmParams& p, float* C, const float (&acc)[TM][TN],
                                           RowOf row_of, ColOf col_of) {
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const std::int64_t gj = col_of(j);
    if (gj >= p.n) continue;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const std::int64_t gi = row_of(i);
      if (gi < p.m) store_alpha_beta(&C[gi + gj * p.ldc], acc[i][j], p.alpha, p.beta);
    }
  }
}

// C(row .. row + 3, col) = alpha * acc + beta * C for rows inside the matrix: one 16-byte
// access when the four rows are inside and the column is 16-byte aligned (double_buffer,
// tma_ffma).
__device__ __forceinline__ void store_quad(float* c_col, std::int64_t row, std::int64_t m, const float (&acc)[4],
                                           float alpha, float beta, bool quad_aligned) {
  float* dst = c_col + row;
  if (quad_aligned && row + 3 < m) {
    float4 v = make_float4(alpha * acc[0], alpha * acc[1], alpha * acc[2], alpha * acc[3]);
    if (beta != 0.0f) {
      const float4 c = *reinterpret_cast<const float4*>(dst);
      v.x = fmaf(beta, c.x, v.x), v.y = fmaf(beta, c.y, v.y);
      v.z = fmaf(beta, c.z, v.z), v.w = fmaf(beta, c.w, v.w);
    }
    *reinterpret_cast<float4*>(dst) = v;
    return;
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    if (row + r < m) store_alpha_beta(dst + r, acc[r], alpha, beta);
}

// The operands of batch item b.
__device__ __forceinline__ OperandView operand_a(const GemmParams& p, std::int64_t b) {
  return OperandView{p.A + b * p.stride_a, p.lda, p.m, p.k};
}
__device__ __forceinline__ OperandView operand_b(const GemmParams& p, std::int64_t b) {
  return OperandView{p.B + b * p.stride_b, p.ldb, p.n, p.k};
}

// ---- host side: the launch and registry entry every block-tiled fp32 kernel shares ----

// auto's score for the block-tiled fp32 kernels that compete on one scale (cp_async,
// double_buffer): above every earlier step's priority (< 1000), then relative speed x wave
// efficiency x tile fill, a relative throughput estimate. Tile fill is the share of each
// tile's FFMAs that lands inside the matrix (m = 16 in a 128-row tile computes 112 rows of
// zeros). Split-K (split_slices > 0) counts its slices as tiles and pays split_share for
// the partial sums' extra traffic and the second kernel (0.85 unless the family models
// it: double_buffer_split_k_share); with a single slice it is never the choice (0.5), which
// sends the problem to the same tiles' plain entry. An entry without a plain twin
// (skinny_splitk) passes 0 for a single slice instead.
inline double fp32_tile_score(const GemmProblem& p, int bm, int bn, std::int64_t resident_blocks,
                              double relative_speed, int split_slices, double split_share = 0.85) {
  const std::int64_t tiles_m = (p.m + bm - 1) / bm, tiles_n = (p.n + bn - 1) / bn;
  std::int64_t units = tiles_m * tiles_n * p.batch;
  double split_factor = 1.0;
  if (split_slices > 0) {
    units *= split_slices;
    split_factor = split_slices > 1 ? split_share : 0.5;
  }
  const double fill = double(p.m) / double(tiles_m * bm) * double(p.n) / double(tiles_n * bn);
  return 1000.0 + 100.0 * relative_speed * wave_efficiency(units, resident_blocks) * fill * split_factor;
}

// The problem's ops as a type, so that a generic lambda can name the kernel
// instantiation for them: [](auto ops) { return kernel<cfg, decltype(ops)::a, decltype(ops)::b>; }.
template <bool kTransA, bool kTransB>
struct OpsTag {
  static constexpr bool a = kTransA;
  static constexpr bool b = kTransB;
};

// Launches kernel_of(OpsTag<TA, TB>{}) (a __global__ function of the problem's ops)
// over the block-tile grid: x over m tiles, y over n tiles (capped at 65535; the
// kernels loop over the rest), z over the batch.
template <class KernelOf>
cudaError_t launch_block_tiles(const GemmProblem& prob, cudaStream_t stream, int bm, int bn, int threads,
                               KernelOf kernel_of) {
  const GemmParams params = make_params(prob);
  const std::int64_t blocks_y = std::min<std::int64_t>((prob.n + bn - 1) / bn, 65535);
  const dim3 grid(ceil_div_u(prob.m, bm), static_cast<unsigned>(blocks_y), grid_z_for(prob.batch));
  return dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    const auto kernel = kernel_of(OpsTag<kTA, kTB>{});
    kernel<<<grid, threads, 0, stream>>>(params);
    return cudaGetLastError();
  });
}

// The registry entry of a block-tiled fp32 kernel with configuration kCfg (bm x bn
// tiles, threads(), compute capability 7.5, static shared memory only). kernel_of maps
// OpsTag<TA, TB> to the kernel instantiation for those ops.
template <auto kCfg, class KernelOf>
KernelEntry make_block_tile_entry(const char* name, const char* family, int step, const char* summary,
                                  int priority, bool needs_quad_alignment, KernelOf kernel_of) {
  KernelEntry e;
  e.name = name;
  e.family = family;
  e.ladder_step = step;
  e.summary = summary;
  e.dtypes = "fp32";
  e.min_compute_capability = 75;
  e.requirements = needs_quad_alignment ? "A and B 16-byte aligned, lda and ldb (and batch strides) multiples of 4"
                                        : "none";
  e.arithmetic_intensity = 2.0 * kCfg.bm * kCfg.bn / (4.0 * (kCfg.bm + kCfg.bn));
  e.auto_eligible = true;
  e.auto_priority = priority;
  e.can_implement = [needs_quad_alignment](const GemmProblem& p, const DeviceInfo& dev) {
    std::string r = require_fp32(p);
    if (r.empty()) r = require_compute_capability(dev, 75);
    if (r.empty() && needs_quad_alignment) r = require_quad_alignment(p);
    if (r.empty() && (p.m + kCfg.bm - 1) / kCfg.bm > 2147483647LL) r = "grid x dimension exceeded";
    return r;
  };
  e.launch = [kernel_of](const GemmProblem& prob, cudaStream_t stream) {
    return launch_block_tiles(prob, stream, kCfg.bm, kCfg.bn, kCfg.threads(), kernel_of);
  };
  e.resources = [kernel_of] {
    return KernelResources{reinterpret_cast<const void*>(kernel_of(OpsTag<false, false>{})), kCfg.threads(), 0};
  };
  return e;
}

}  // namespace tilemm::kernels
