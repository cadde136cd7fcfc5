// Family "skinny_splitk": products with few rows or few columns (16, as in one decoding
// step through a language model's projection, 16 x 11008 x 4096) whose time is reading
// the long operand once.
//
// Why the square-tile kernels lose here: m = 16, n = 11008, k = 4096 is 1.44 GFLOP on
// 180 MB of B. Its floors on an H200: 1.44 GFLOP / 66.9 TFLOP/s = 22 us of FFMA, and
// 180 MB / 4.2 TB/s (measured copy bandwidth) = 43 us of DRAM: 8 FLOP per byte of B, half
// the machine's 16, so the product is bound by B's bytes. A 64 x 64 tile computes 64 rows
// for the 16 that exist, 4x the FLOPs (5.8 GFLOP, 86 us at peak): cp_async's split-K entry
// measured 168 us, cuBLAS 94 us.
//
// Idea: give each block every row. Tile BM x BN = 16 x (32 * TN); every thread keeps all
// BM rows of its TN columns in registers (16 x 4 = 64 accumulators), so each value of B
// read from shared memory feeds BM FFMAs, and the values of op(A) it meets are the same in
// every lane (one broadcast LDS.128 serves the warp).
//   - B streams through a `stages`-deep cp.async ring (cp_async_tiles.cuh), stored in its
//     own order; BK = 32 gives each column of a k-contiguous B (op N, the usual case) a
//     whole 128-byte line per stage.
//   - The warps of a block split each stage along k (warp w takes k-steps [w, w + 1) *
//     BK / warps), not along n: the block's columns stay few (BN = 128), so n = 4096
//     still gives 32 column tiles, and k is cut into slices across grid z
//     (split_k_reduce.hpp) until about one wave of blocks fills the GPU (one 32-k stage
//     a slice where the tiles are few: skinny_splitk_slices).
//   - At the end the warps' partial tiles are added in warp order through shared memory,
//     and the block writes its slice's raw partial product; the split-K pass adds the
//     slices in order and applies alpha and beta. The result does not depend on timing.
//     A product in one slice is written to C by the block itself, with alpha and beta:
//     one kernel, no workspace.
// Per thread and run of 4 k-steps: 16 LDS.128 of op(A) (broadcast), TN LDS.128 of op(B),
// 64 * TN FFMA. Per block and stage: (BM + BN) * BK * 4 bytes from global memory (18 KB
// for 16 x 128 x 32) for 2 * BM * BN * BK FLOP: intensity BM * BN / (2 * (BM + BN)) =
// 7.1 FLOP/B, CGMA 28 (op(A), 256 KB for k = 4096, is re-read from L2 by every column tile).
// Predicted for 16 x 11008 x 4096 NN on an H200: B at ~90% of copy bandwidth, ~52 us with
// the partial sums, 1.8x cuBLAS. Measured: 65.6 us, 1.43x (B read at 3.1 TB/s; 1.4-1.8x
// over the decode shapes, docs/ladder.md step 14). A 16-row tile re-reads B once per 16
// rows: the square tiles' split-K takes over between m = 32 and 48 (measured).
// Few columns (n < m) run as the transposed product with the partial sums stored
// transposed (skinny_orientation), so 11008 x 16 x 4096 TN, a decode step as PyTorch
// calls a column-major BLAS, takes the same path.
// Copy widths: `.cp16` needs 16-byte aligned A and B with lda, ldb multiples of 4; `.cp4`
// takes any leading dimension. Borders: copies past the matrix zero-fill (cp.async with
// src-size 0), so no thread tests a border inside the k-loop.
// Requirements: compute capability 8.0 (cp.async); batchCount = 1; with two or more
// slices, a workspace of slices * m * n floats.
#include <algorithm>

#include "kernels/cp_async_tiles.cuh"
#include "kernels/fp32_tile_common.cuh"
#include "kernels/skinny_orientation.hpp"
#include "kernels/split_k_reduce.hpp"
#include "kernels/workspace.hpp"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmSkinnySplitKConfig {
  int bm;      // rows per block, all of them in every thread's tile
  int tn;      // columns per thread; the block's columns: bn = 32 * tn
  int bk;      // k per pipeline stage
  int warps;   // warps per block, each taking bk / warps k-steps of every stage
  int stages;  // depth of the cp.async ring
  bool quad_copies;       // 16-byte copies (aligned operands) or 4-byte copies (any ld)
  int min_blocks_per_sm;  // __launch_bounds__ target: 64K / (threads * this) registers

  consteval int bn() const { return 32 * tn; }
  consteval int threads() const { return 32 * warps; }
  consteval int warp_k() const { return bk / warps; }
  consteval bool valid() const {
    return bm % 4 == 0 && tn % 4 == 0 && bk % warps == 0 && warp_k() % 4 == 0 && stages >= 2 && stages <= 8 &&
           (bm * bk / 4) % threads() == 0 && (bn() * bk / 4) % threads() == 0 && (bm * bn()) % threads() == 0 &&
           min_blocks_per_sm >= 1;
  }
};

namespace tilemm::kernels {

// Row pitch of the warps' partial tiles in the final sum, laid out [warp][column][row]:
// BM + 4 floats, so that the 8 lanes of a quarter-warp storing 16-byte row groups of
// neighbouring columns (k-contiguous B) hit 8 distinct 4-bank groups.
template <TilemmSkinnySplitKConfig kCfg>
constexpr int skinny_splitk_sum_pitch() {
  return kCfg.bm + 4;
}

// Dynamic shared memory for the ops: the ring, or the warps' partial tiles if larger.
template <TilemmSkinnySplitKConfig kCfg, bool kTransA, bool kTransB>
constexpr std::int64_t skinny_splitk_smem_bytes() {
  constexpr std::int64_t stage = CpAsyncTileLayout<kCfg.bm, kCfg.bk, !kTransA>::kFloats +
                                 CpAsyncTileLayout<kCfg.bn(), kCfg.bk, kTransB>::kFloats;
  constexpr std::int64_t sums = std::int64_t(kCfg.warps) * kCfg.bn() * skinny_splitk_sum_pitch<kCfg>();
  return 4 * std::max(kCfg.stages * stage, sums);
}

// f[i][c] = X(x_of(i), kk + c) for a run of 4 k from a CpAsyncTileLayout tile L, in
// 16-byte reads: of four neighbouring x when the tile is x-contiguous (x_of(4g + r) must
// be x_of(4g) + r), else of the four k of one x.
template <class L, bool kXContig, int N, class XOf>
__device__ __forceinline__ void load_k_run(float (&f)[N][4], const float* tile, int kk, XOf x_of) {
  if constexpr (kXContig) {
#pragma unroll
    for (int c = 0; c < 4; ++c)
#pragma unroll
      for (int g = 0; g < N / 4; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(tile + L::offset(x_of(4 * g), kk + c));
        f[4 * g + 0][c] = v.x;
        f[4 * g + 1][c] = v.y;
        f[4 * g + 2][c] = v.z;
        f[4 * g + 3][c] = v.w;
      }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const float4 v = *reinterpret_cast<const float4*>(tile + L::offset(x_of(i), kk));
      f[i][0] = v.x;
      f[i][1] = v.y;
      f[i][2] = v.z;
      f[i][3] = v.w;
    }
  }
}

// One block per (m tile, n tile, k-slice) = blockIdx (x, y, z); writes its raw partial
// product to split.partial + z * m * n: column-major (ld m), or, with store_transposed
// (p is the transposed product, see skinny_orientation), row-major (ld n), which is the
// column-major layout of the caller's C.
template <TilemmSkinnySplitKConfig kCfg, bool kTransA, bool kTransB, bool kWholeProduct = false>
__global__ void __launch_bounds__(kCfg.threads(), kCfg.min_blocks_per_sm)
    skinny_splitk_gemm(GemmParams p, SplitKSlices split, bool store_transposed) {
  static_assert(kCfg.valid());
  constexpr int BM = kCfg.bm, BN = kCfg.bn(), BK = kCfg.bk, TN = kCfg.tn, S = kCfg.stages, KW = kCfg.warp_k();
  constexpr bool kAXContig = !kTransA;
  constexpr bool kBXContig = kTransB;
  using LA = CpAsyncTileLayout<BM, BK, kAXContig>;  // x-contiguous: (BK, BM) k-major; else (BM, BK + 4)
  using LB = CpAsyncTileLayout<BN, BK, kBXContig>;  // x-contiguous: (BK, BN) k-major; else (BN, BK + 4)
  constexpr int kStageFloats = LA::kFloats + LB::kFloats;
  extern __shared__ float4 smem_raw[];  // float4: 16-byte alignment for the copies and LDS.128
  float* const smem = reinterpret_cast<float*>(smem_raw);

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const std::int64_t m0 = std::int64_t(blockIdx.x) * BM;
  const std::int64_t n0 = std::int64_t(blockIdx.y) * BN;
  const std::int64_t k_begin = std::int64_t(blockIdx.z) * split.k_per_slice;
  OperandView a = operand_a(p, 0);
  OperandView b = operand_b(p, 0);
  a.extent_k = b.extent_k = std::min(p.k, k_begin + split.k_per_slice);  // copies past the slice zero-fill
  const std::int64_t k_tiles = (a.extent_k - k_begin + BK - 1) / BK;

  // The tiles of an operand whose x-range lies inside the matrix, up to the slice's last
  // whole k-tile, take the copies without bounds (InteriorTileCopy): with bounds, the 9
  // copies per thread and stage were ~300 of the k-loop's 854 instructions. The others
  // (the last column tile, m not a multiple of 16, a partial last k-tile, 4-byte copies)
  // check every copy. TN keeps op(A)'s bounded copy (one per stage): with both operands
  // k-contiguous, the extra live pointer spills at 168 registers.
  constexpr bool kAInside = kCfg.quad_copies && !(kTransA && !kTransB);
  const std::int64_t whole_tiles = (a.extent_k - k_begin) / BK;
  InteriorTileCopy<BM, BK, kCfg.threads(), kAXContig> a_inside;
  InteriorTileCopy<BN, BK, kCfg.threads(), kBXContig> b_inside;
  a_inside.init(a, m0, k_begin, tid);
  b_inside.init(b, n0, k_begin, tid);
  const std::int64_t a_inside_tiles = kAInside && m0 + BM <= p.m ? whole_tiles : 0;
  const std::int64_t b_inside_tiles = kCfg.quad_copies && n0 + BN <= p.n ? whole_tiles : 0;
  // Tile t of the slice into ring buffer s.
  const auto issue_stage = [&](std::int64_t t, int s) {
    float* const stage_a = smem + s * kStageFloats;
    float* const stage_b = stage_a + LA::kFloats;
    const std::int64_t k0 = k_begin + t * BK;
    issue_streamed_tile<BM, BK, kCfg.threads(), kAXContig, kCfg.quad_copies>(stage_a, a_inside, a_inside_tiles, t, a,
                                                                             m0, k0, tid);
    issue_streamed_tile<BN, BK, kCfg.threads(), kBXContig, kCfg.quad_copies>(stage_b, b_inside, b_inside_tiles, t, b,
                                                                             n0, k0, tid);
  };

  // Prologue: S - 1 stages in flight, one commit group each (empty groups past the last
  // tile keep the count uniform for wait_group).
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < k_tiles) issue_stage(s, s);
    ptx::cp_async_commit_group();
  }

  float acc[BM][TN] = {};
  int read_stage = 0, write_stage = S - 1;  // ring buffers of tiles kt and kt + S - 1
  for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
    // Stage kt has landed, and every warp is done with the buffer the next copies refill.
    ptx::cp_async_wait_group<S - 2>();
    __syncthreads();
    if (kt + S - 1 < k_tiles) issue_stage(kt + S - 1, write_stage);
    ptx::cp_async_commit_group();
    write_stage = write_stage == S - 1 ? 0 : write_stage + 1;

    const float* const As = smem + read_stage * kStageFloats;
    const float* const Bs = As + LA::kFloats;
    read_stage = read_stage == S - 1 ? 0 : read_stage + 1;
#pragma unroll
    for (int run = 0; run < KW; run += 4) {
      const int kk = warp * KW + run;
      // fa[i][c] = op(A)(m0 + i, kk + c): the same addresses in every lane (broadcast).
      float fa[BM][4];
      load_k_run<LA, kAXContig>(fa, As, kk, [](int i) { return i; });
      // fb[j][c] = op(B)(n0 + column j of the lane, kk + c): four neighbouring columns
      // per 16-byte read when B is x-contiguous (the warp reads 512 contiguous bytes),
      // else columns 32 apart, each read as a run of 4 k (rows 36 floats apart: 8
      // distinct 4-bank groups per quarter-warp).
      float fb[TN][4];
      load_k_run<LB, kBXContig>(fb, Bs, kk, [lane](int j) { return fragment_x<kBXContig, 32>(lane, j); });
#pragma unroll
      for (int c = 0; c < 4; ++c)
#pragma unroll
        for (int i = 0; i < BM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(fa[i][c], fb[j][c], acc[i][j]);
    }
  }
  // Only empty groups can remain; every warp leaves the ring before it becomes the sums.
  ptx::cp_async_wait_group<0>();
  __syncthreads();

  // The warps' tiles cover the same outputs over different k: [warp][column][row].
  constexpr int RP = skinny_splitk_sum_pitch<kCfg>();
  float* const sums = smem;
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    float* const dst = sums + (warp * BN + fragment_x<kBXContig, 32>(lane, j)) * RP;
#pragma unroll
    for (int q = 0; q < BM / 4; ++q) {
      *reinterpret_cast<float4*>(dst + 4 * q) =
          make_float4(acc[4 * q + 0][j], acc[4 * q + 1][j], acc[4 * q + 2][j], acc[4 * q + 3][j]);
    }
  }
  __syncthreads();

  // Consecutive threads write consecutive addresses of the output: element e = (row e % BM,
  // column e / BM) of the tile down a column, or, stored transposed, e = (row e / BN,
  // column e % BN) along a row. Several slices write their raw partial products (ld m, or
  // n transposed) for the split-K pass; a single slice (kWholeProduct) is the whole product
  // and writes C with alpha and beta itself, so that one kernel is the whole call.
  float* const out = split.partial + std::int64_t(blockIdx.z) * p.m * p.n;
#pragma unroll
  for (int pass = 0; pass < BM * BN / kCfg.threads(); ++pass) {
    const int e = tid + pass * kCfg.threads();
    const int i = store_transposed ? e / BN : e % BM;
    const int c = store_transposed ? e % BN : e / BM;
    float sum = sums[c * RP + i];
#pragma unroll
    for (int w = 1; w < kCfg.warps; ++w) sum += sums[(w * BN + c) * RP + i];
    const std::int64_t gi = m0 + i, gj = n0 + c;
    if (gi < p.m && gj < p.n) {
      if constexpr (kWholeProduct) {
        store_alpha_beta(p.C + (store_transposed ? gj + gi * p.ldc : gi + gj * p.ldc), sum, p.alpha, p.beta);
      } else {
        out[store_transposed ? gj + gi * p.n : gi + gj * p.m] = sum;
      }
    }
  }
}

template <TilemmSkinnySplitKConfig kCfg>
int skinny_splitk_blocks_per_sm() {
  static const int blocks =
      resident_blocks_per_sm(reinterpret_cast<const void*>(&skinny_splitk_gemm<kCfg, true, false>), kCfg.threads(),
                             skinny_splitk_smem_bytes<kCfg, true, false>());
  return blocks;
}

// k-slices: about one wave of blocks, at most 64. A block that walks its slice alone on an
// SM is bound by latency, not bandwidth: ~1.1 us per 32-k stage on an H100 (15 x 121 x 454
// NN took 25 us in one slice). So the slices are one stage long wherever that makes at
// least 4 of them (15 x 121 x 454 NN 10.9 us, cuBLAS 10.5); with fewer, the split-K pass
// costs more than the stages it takes off a block (64 x 3 x 72 TN: 8.6 us in two slices,
// 7.4 in one), and the slices are at least 8 stages long, which also keeps the partial
// sums of products with many tiles at most 2 * 16 / 256 = 12.5% of B's bytes for m = 16
// (docs/ladder.md, step 14, "One stage a slice").
template <TilemmSkinnySplitKConfig kCfg>
int skinny_splitk_slices(const GemmProblem& p, int sm_count) {
  const std::int64_t tiles = ((p.m + kCfg.bm - 1) / kCfg.bm) * ((p.n + kCfg.bn() - 1) / kCfg.bn());
  return split_k_slices_one_k_tile_each(tiles, std::int64_t(sm_count) * skinny_splitk_blocks_per_sm<kCfg>(),
                                        p.k / kCfg.bk, 8, 4, 64);
}

template <TilemmSkinnySplitKConfig kCfg>
cudaError_t launch_skinny_splitk(const GemmProblem& caller, cudaStream_t stream) {
  const GemmProblem prob = skinny_orientation(caller);
  const bool store_transposed = prob.m != caller.m;
  const GemmParams params = make_params(prob);
  SplitKSlices split{split_k_slice_length(prob.k, skinny_splitk_slices<kCfg>(prob, device_sm_count()), kCfg.bk),
                     nullptr};
  const int slices = int((prob.k + split.k_per_slice - 1) / split.k_per_slice);
  StreamWorkspace workspace(stream);
  if (slices > 1) {
    const cudaError_t allocated =
        workspace.allocate(std::size_t(slices) * std::size_t(prob.m) * std::size_t(prob.n) * sizeof(float));
    if (allocated != cudaSuccess) return allocated;
    split.partial = workspace.at<float>();
  }
  const dim3 grid(ceil_div_u(prob.m, kCfg.bm), ceil_div_u(prob.n, kCfg.bn()), static_cast<unsigned>(slices));
  const cudaError_t launched = dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    const auto launch = [&]<bool kWholeProduct>() {
      constexpr auto kernel = skinny_splitk_gemm<kCfg, kTA, kTB, kWholeProduct>;
      constexpr std::int64_t smem = skinny_splitk_smem_bytes<kCfg, kTA, kTB>();
      const cudaError_t opted_in = opt_in_dynamic_smem<kernel>(smem);
      if (opted_in != cudaSuccess) return opted_in;
      kernel<<<grid, kCfg.threads(), smem, stream>>>(params, split, store_transposed);
      return cudaGetLastError();
    };
    return slices == 1 ? launch.template operator()<true>() : launch.template operator()<false>();
  });
  if (slices == 1) return launched;
  return workspace.finish(launched == cudaSuccess ? launch_split_k_reduce(caller, split.partial, slices, stream)
                                                  : launched);
}

template <TilemmSkinnySplitKConfig kCfg>
std::string skinny_splitk_name() {
  return "skinny_splitk." + std::to_string(kCfg.bm) + "x" + std::to_string(kCfg.bn()) + "x" +
         std::to_string(kCfg.bk) + ".w" + std::to_string(kCfg.warps) + ".s" + std::to_string(kCfg.stages) +
         (kCfg.quad_copies ? ".cp16" : ".cp4");
}

// relative_speed: on cp_async's scale (fp32_tile_score); see register_skinny_splitk.
template <TilemmSkinnySplitKConfig kCfg>
KernelEntry make_skinny_splitk_entry(double relative_speed) {
  KernelEntry e;
  e.name = skinny_splitk_name<kCfg>();
  e.family = "skinny_splitk";
  e.ladder_step = 14;
  e.summary = std::string("all ") + std::to_string(kCfg.bm) +
              " rows in every thread's tile, B streamed once through a " + std::to_string(kCfg.stages) +
              "-stage cp.async ring, k split across warps and blocks (few rows or, transposed, few columns" +
              (kCfg.quad_copies ? ")" : "; 4-byte copies: any leading dimension)");
  e.dtypes = "fp32";
  e.min_compute_capability = 80;
  e.requirements = std::string(kCfg.quad_copies
                                   ? "compute capability 8.0; A and B 16-byte aligned, lda/ldb multiples of 4"
                                   : "compute capability 8.0") +
                   "; batchCount = 1; a workspace of slices * m * n floats (stream-ordered) when k is split";
  e.arithmetic_intensity = double(kCfg.bm) * kCfg.bn() / (2.0 * (kCfg.bm + kCfg.bn()));
  e.auto_eligible = true;
  e.auto_priority = 1000;
  // Scored in the orientation it runs (skinny_orientation): the tile fill of
  // fp32_tile_score (full tiles only where the short side is a multiple of bm) is what
  // makes this entry the choice for a short side up to 32 and the square tiles beyond.
  // A single slice is scored as no split: the 0.5 fp32_tile_score charges a one-slice
  // split-K entry sends the square kernels to their plain twins, and this entry has none
  // (with it, auto ran 24 and 32 x 14336 x 4096 NN, 224 tiles and so one slice, on
  // cp_async's 64 x 64 split-K, 23-26% slower than here on an H200).
  e.auto_score = [relative_speed](const GemmProblem& caller, const DeviceInfo& dev) {
    // The 4-byte copies are for operands the 16-byte ones cannot read; where those can,
    // this entry stands aside (its other ring and residency made the wave term alone pick
    // it for aligned 24 and 32 x 14336 x 4096 NN at 1.5x the 16-byte entry's time).
    if (!kCfg.quad_copies && require_quad_alignment(caller).empty()) return 0.0;
    const GemmProblem p = skinny_orientation(caller);
    const std::int64_t resident = std::int64_t(dev.sm_count) * skinny_splitk_blocks_per_sm<kCfg>();
    const int slices = skinny_splitk_slices<kCfg>(p, dev.sm_count);
    return fp32_tile_score(p, kCfg.bm, kCfg.bn(), resident, relative_speed, slices > 1 ? slices : 0);
  };
  e.can_implement = [](const GemmProblem& p, const DeviceInfo& dev) {
    std::string r = require_fp32(p);
    if (r.empty()) r = require_compute_capability(dev, 80);
    constexpr std::int64_t smem = skinny_splitk_smem_bytes<kCfg, true, false>();
    if (r.empty() && smem > dev.smem_per_block_optin) {
      r = "needs " + std::to_string(smem) + " bytes of shared memory per block, device allows " +
          std::to_string(dev.smem_per_block_optin);
    }
    if (r.empty() && kCfg.quad_copies) r = require_quad_alignment(p);
    if (r.empty() && p.batch != 1) r = "split-K runs one product at a time (batchCount = 1)";
    const GemmProblem t = skinny_orientation(p);
    if (r.empty() && (t.m + kCfg.bm - 1) / kCfg.bm > 2147483647LL) r = "grid x dimension exceeded";
    if (r.empty() && (t.n + kCfg.bn() - 1) / kCfg.bn() > 65535) {
      r = "at most 65535 column tiles (" + std::to_string(kCfg.bn()) + " columns of the longer of m and n each)";
    }
    return r;
  };
  e.launch = launch_skinny_splitk<kCfg>;
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&skinny_splitk_gemm<kCfg, false, false>), kCfg.threads(),
                           skinny_splitk_smem_bytes<kCfg, false, false>()};
  };
  return e;
}

}  // namespace tilemm::kernels

namespace tilemm {

// {bm, tn, bk, warps, stages, copy width, min blocks per SM}. Three stages of 16 x 128 x 32
// (at most 62 KB with both operands k-contiguous) let three blocks, 12 warps, share an SM
// with 170 registers per thread.
// Relative speeds on cp_async's scale, from an H200 (docs/ladder.md, step 14): at
// 16 x 11008 x 4096 NN .cp16 took 0.066 ms, cp_async's split-K entry 0.162 (2.5x; the tile
// fills alone, 1 against 1/4, would make it 4x at equal speed); .cp16 stayed ahead up to
// m = 32 (1.45x), tied at m = 48 and lost at m = 64 (0.79x). 0.7 puts auto's switch
// between m = 32 and 48. .cp4 ran 16 x 11008 x 4096 at 0.095 ms, 0.69x of .cp16: 0.5.
void register_skinny_splitk(Registry& r) {
  using namespace kernels;
  r.add(make_skinny_splitk_entry<TilemmSkinnySplitKConfig{16, 4, 32, 4, 3, true, 3}>(0.7));
  r.add(make_skinny_splitk_entry<TilemmSkinnySplitKConfig{16, 4, 32, 4, 4, false, 2}>(0.5));
}

}  // namespace tilemm
