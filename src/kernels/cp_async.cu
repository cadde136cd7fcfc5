// Family "cp_async": the warp-tiled FP32 kernel fed by a multi-stage cp.async pipeline.
//
// Idea: the steps below this one load a tile, wait for it, compute on it, and only then
// load the next: the FFMA stream stops at every k-step while global loads are in flight.
// Here `stages` shared-memory buffers form a ring. While the warps compute on buffer s,
// cp.async copies for the next stages - 1 tiles are already travelling, straight from
// global to shared memory without occupying registers, so the load latency (~600 ns from
// DRAM) hides behind the FFMAs of the tiles before it. One __syncthreads per k-step
// remains: it tells every warp that the buffer about to be refilled is no longer read.
//
// Shared memory keeps each operand in its storage order, because cp.async cannot
// transpose:
//   - contiguous along x (op(A) = A, op(B) = B^T): (BK, BM) k-major rows; a thread
//     reads its 8 x-values of one k as two 16-byte LDS (x = 4*lane + {0..3} and +half
//     the warp tile);
//   - contiguous along k (op(A) = A^T, op(B) = B): (BM, BK + 4) x-major rows; a thread
//     reads 4 consecutive k of one x as one 16-byte LDS and uses them over 4 k-steps,
//     with x = lane + lanes * i so that neighbouring lanes read neighbouring rows; the
//     pitch BK + 4 puts those rows in different 4-bank groups (20 words apart for
//     BK = 16: 0, 20, 8, 28, 16, 4, 24, 12 mod 32).
// Either way a thread issues 2 LDS.128 per operand per k-step for 64 FFMAs.
//
// Data per block and k-step: (BM + BN) * BK floats from global memory for
// 2 * BM * BN * BK FLOP: intensity BM*BN / (2 * (BM + BN)) FLOP/B = 32 for 128 x 128.
// Per thread: an 8 x 8 register tile (2 x 2 sub-tiles of 4 x 4), warp tile
// (8 * lanes_m) x (8 * lanes_n).
//
// Two copy widths: 16-byte copies (`.cp16`) need 16-byte aligned operands with lda, ldb
// (and batch strides) multiples of 4; 4-byte copies (`.cp4`) take any leading dimension
// (lda = 4093) at the cost of 4x the copy instructions, which the pipeline hides: a
// 128 x 128 x 16 stage is 16 copies per thread against 1024 FFMAs.
// Borders: copies past the matrix read 0 bytes and zero-fill (src-size < cp-size). Tiles
// inside the matrix copy their whole k-tiles without those bounds (InteriorTileCopy; not
// in TN, where the pointers it keeps live cost more than it saves).
// Requirements: compute capability 8.0 (cp.async); shared memory stages*(...) bytes.
// Next step (double_buffer): at ~220 registers one block of 8 warps runs per SM, too few to
// hide the barrier and the shared loads; the same tiles fed through registers and double-
// buffered at both levels fit in 128 registers, two blocks per SM.
#include <mutex>

#include "kernels/cp_async_tiles.cuh"
#include "kernels/fp32_tile_common.cuh"
#include "kernels/split_k_reduce.hpp"
#include "kernels/workspace.hpp"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmCpAsyncConfig {
  int bm, bn, bk;  // block tile
  int lanes_m;     // lanes of a warp along m (8 or 4); lanes along n = 32 / lanes_m
  int warps_m, warps_n;
  int stages;
  bool quad_copies;  // 16-byte copies (aligned operands) or 4-byte copies (any ld)
  int min_blocks_per_sm;  // __launch_bounds__ occupancy target: caps registers at 64K / (threads * this)
  bool split_k = false;   // slices of k in grid z, partial sums reduced by a second kernel

  consteval int lanes_n() const { return 32 / lanes_m; }
  consteval int warp_tile_m() const { return 8 * lanes_m; }
  consteval int warp_tile_n() const { return 8 * lanes_n(); }
  consteval int threads() const { return 32 * warps_m * warps_n; }
  consteval bool valid() const {
    return (lanes_m == 8 || lanes_m == 4) && bm == warps_m * warp_tile_m() &&
           bn == warps_n * warp_tile_n() && bk % 4 == 0 && bk >= 8 && stages >= 2 &&
           stages <= 6 && threads() <= 1024 && min_blocks_per_sm >= 1;
  }
};

namespace tilemm::kernels {

// k-contiguous operands: a thread's 8 rows, kW consecutive k each (one LDS.64 or
// LDS.128 per row), kept in registers for kW k-steps: frag[i][c] = operand(x(i), k + c).
template <int X, int BK, int kLanes, int kW>
__device__ __forceinline__ void read_k_run_fragment(const float* smem, int warp_x0, int lane_x, int k,
                                                    float (&frag)[8][kW]) {
  using L = CpAsyncTileLayout<X, BK, false>;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const float* src = smem + L::offset(warp_x0 + fragment_x<false, kLanes>(lane_x, i), k);
    if constexpr (kW == 4) {
      const float4 v = *reinterpret_cast<const float4*>(src);
      frag[i][0] = v.x;
      frag[i][1] = v.y;
      frag[i][2] = v.z;
      frag[i][3] = v.w;
    } else {
      const float2 v = *reinterpret_cast<const float2*>(src);
      frag[i][0] = v.x;
      frag[i][1] = v.y;
    }
  }
}

// The occupancy target applies where the live set fits under its register cap: with
// 16-byte copies and at most one k-contiguous operand. TN (both operands k-contiguous)
// and the 4-byte copies (more copy state) would spill there, so they take one block.
template <TilemmCpAsyncConfig kCfg, bool kTransA, bool kTransB>
constexpr int cp_async_min_blocks() {
  return (kCfg.quad_copies && !(kTransA && !kTransB)) ? kCfg.min_blocks_per_sm : 1;
}

template <TilemmCpAsyncConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), (cp_async_min_blocks<kCfg, kTransA, kTransB>()))
    cp_async_gemm(GemmParams p, SplitKSlices split) {
  static_assert(kCfg.valid());
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk, S = kCfg.stages;
  constexpr bool kAXContig = !kTransA;
  constexpr bool kBXContig = kTransB;
  using LA = CpAsyncTileLayout<BM, BK, kAXContig>;
  using LB = CpAsyncTileLayout<BN, BK, kBXContig>;
  extern __shared__ float4 smem_raw[];  // float4: 16-byte alignment for the copies
  float* const smem = reinterpret_cast<float*>(smem_raw);
  const auto stage_a = [&](int s) { return smem + s * (LA::kFloats + LB::kFloats); };
  const auto stage_b = [&](int s) { return smem + s * (LA::kFloats + LB::kFloats) + LA::kFloats; };

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int lane_m = lane % kCfg.lanes_m, lane_n = lane / kCfg.lanes_m;
  const int warp_m0 = (warp % kCfg.warps_m) * kCfg.warp_tile_m();
  const int warp_n0 = (warp / kCfg.warps_m) * kCfg.warp_tile_n();
  const std::int64_t m0 = std::int64_t(blockIdx.x) * BM;
  const std::int64_t col_tiles = (p.n + BN - 1) / BN;
  constexpr bool kSplit = kCfg.split_k;
  // This block's k range: everything, or its slice. Recomputed from the parameters
  // where needed rather than kept in registers.
  const auto k_begin = [&] { return kSplit ? std::int64_t(blockIdx.z) * split.k_per_slice : std::int64_t(0); };
  const auto k_end = [&] { return kSplit ? std::min(p.k, k_begin() + split.k_per_slice) : p.k; };
  const auto view_a = [&](std::int64_t bb) {
    OperandView v = operand_a(p, bb);
    v.extent_k = k_end();  // copies past the slice zero-fill like copies past k
    return v;
  };
  const auto view_b = [&](std::int64_t bb) {
    OperandView v = operand_b(p, bb);
    v.extent_k = k_end();
    return v;
  };
  const std::int64_t k_tiles = (k_end() - k_begin() + BK - 1) / BK;
  const std::int64_t batch_first = kSplit ? 0 : blockIdx.z;
  const std::int64_t batch_end = kSplit ? 1 : p.batch;
  const std::int64_t batch_step = kSplit ? 1 : gridDim.z;

  // Whole k-tiles of the block's range; an operand tile whose x-range lies inside the
  // matrix takes the copies without bounds for those (InteriorTileCopy: one address add
  // per copy, where issue_tile_copies spends ~35 instructions on coordinates, bounds and
  // byte counts). Not in TN: with both operands k-contiguous, the source pointers those
  // copies keep live cost more than the instructions they save (measured on an H200:
  // 11008 x 48 x 4096 TN split-K 3% slower with op(B)'s alone, 9% with both; docs/ladder.md,
  // step 11).
  constexpr bool kInterior = kCfg.quad_copies && !(kTransA && !kTransB);
  const std::int64_t whole_tiles = (k_end() - k_begin()) / BK;
  const std::int64_t a_inside_tiles = kInterior && m0 + BM <= p.m ? whole_tiles : 0;

  for (std::int64_t b = batch_first; b < batch_end; b += batch_step) {
    for (std::int64_t ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const std::int64_t n0 = ct * BN;
      const std::int64_t b_inside_tiles = kInterior && n0 + BN <= p.n ? whole_tiles : 0;
      InteriorTileCopy<BM, BK, kCfg.threads(), kAXContig> a_inside;
      InteriorTileCopy<BN, BK, kCfg.threads(), kBXContig> b_inside;
      a_inside.init(view_a(b), m0, k_begin(), tid);
      b_inside.init(view_b(b), n0, k_begin(), tid);
      // Tile t of the range into ring buffer s. The bounded copies rebuild the operand
      // views from the kernel parameters (constant bank) at each k-tile: no 64-bit
      // pointers held in registers across the FFMA loop for them.
      const auto issue_stage = [&](std::int64_t t, int s) {
        const std::int64_t bb = hoist_barrier(b);
        const std::int64_t k0 = k_begin() + t * BK;
        issue_streamed_tile<BM, BK, kCfg.threads(), kAXContig, kCfg.quad_copies>(stage_a(s), a_inside, a_inside_tiles,
                                                                                 t, view_a(bb), m0, k0, tid);
        issue_streamed_tile<BN, BK, kCfg.threads(), kBXContig, kCfg.quad_copies>(stage_b(s), b_inside, b_inside_tiles,
                                                                                 t, view_b(bb), n0, k0, tid);
      };
      float acc[8][8] = {};

      // Prologue: the first S - 1 tiles in flight, one commit group each (empty groups
      // past the last tile keep the group count uniform for wait_group).
#pragma unroll
      for (int s = 0; s < S - 1; ++s) {
        if (s < k_tiles) issue_stage(s, s);
        ptx::cp_async_commit_group();
      }

      for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
        // Tile kt has landed (at most S - 2 younger groups still travel), and every warp
        // has finished reading the buffer that the next copies overwrite.
        ptx::cp_async_wait_group<S - 2>();
        __syncthreads();
        const std::int64_t next = kt + S - 1;
        if (next < k_tiles) issue_stage(next, int(next % S));
        ptx::cp_async_commit_group();

        const float* As = stage_a(int(kt % S));
        const float* Bs = stage_b(int(kt % S));
        // k-contiguous fragments cover kW k-steps per read (one LDS per row): 4 with one
        // k-contiguous operand (32 registers), 2 when both are, to bound the live set.
        constexpr int kW = (kAXContig || kBXContig) ? 4 : 2;
#pragma unroll
        for (int k_run = 0; k_run < BK; k_run += kW) {
          float ka[8][kW], kb[8][kW];
          if constexpr (!kAXContig) read_k_run_fragment<BM, BK, kCfg.lanes_m, kW>(As, warp_m0, lane_m, k_run, ka);
          if constexpr (!kBXContig) read_k_run_fragment<BN, BK, kCfg.lanes_n(), kW>(Bs, warp_n0, lane_n, k_run, kb);
#pragma unroll
          for (int c = 0; c < kW; ++c) {
            float fa[8], fb[8];
            if constexpr (kAXContig) {
              read_interleaved_fragment<kCfg.lanes_m, 8>(As + LA::offset(warp_m0, k_run + c), lane_m, fa);
            } else {
#pragma unroll
              for (int i = 0; i < 8; ++i) fa[i] = ka[i][c];
            }
            if constexpr (kBXContig) {
              read_interleaved_fragment<kCfg.lanes_n(), 8>(Bs + LB::offset(warp_n0, k_run + c), lane_n, fb);
            } else {
#pragma unroll
              for (int j = 0; j < 8; ++j) fb[j] = kb[j][c];
            }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
              for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(fa[i], fb[j], acc[i][j]);
          }
        }
      }
      // Drain (only empty groups remain) and let every warp finish reading before the
      // next column tile's prologue refills the buffers.
      ptx::cp_async_wait_group<0>();
      __syncthreads();

      const std::int64_t row0 = hoist_barrier(m0 + warp_m0);
      const std::int64_t col0 = hoist_barrier(n0 + warp_n0);
      const auto row_of = [&](int i) { return row0 + fragment_x<kAXContig, kCfg.lanes_m>(lane_m, i); };
      const auto col_of = [&](int j) { return col0 + fragment_x<kBXContig, kCfg.lanes_n()>(lane_n, j); };
      if constexpr (kSplit) {
        // The raw partial sum: alpha, beta and C belong to the reduction.
        GemmParams raw = p;
        raw.ldc = p.m;
        raw.alpha = 1.0f;
        raw.beta = 0.0f;
        store_tile<8, 8>(raw, split.partial + std::int64_t(blockIdx.z) * p.m * p.n, acc, row_of, col_of);
      } else {
        store_tile<8, 8>(p, p.C + b * p.stride_c, acc, row_of, col_of);
      }
    }
  }
}

template <TilemmCpAsyncConfig kCfg>
constexpr std::int64_t cp_async_smem_bytes(bool trans_a, bool trans_b) {
  const std::int64_t a = trans_a ? kCfg.bm * (kCfg.bk + 4) : kCfg.bk * kCfg.bm;
  const std::int64_t b = trans_b ? kCfg.bk * kCfg.bn : kCfg.bn * (kCfg.bk + 4);
  return kCfg.stages * (a + b) * 4;
}

template <TilemmCpAsyncConfig kCfg>
constexpr std::int64_t cp_async_max_smem_bytes() {
  return cp_async_smem_bytes<kCfg>(true, false);  // both operands k-contiguous: the largest
}

// The number of k-slices: enough to give the GPU about one full wave of blocks, each
// slice at least 8 k-tiles long so the pipeline still has work to overlap, at most 64.
inline int cp_async_split_k_slices(std::int64_t tiles, std::int64_t resident_blocks, std::int64_t k, int bk) {
  return split_k_slices(tiles, resident_blocks, k / bk, 8, 64);
}

template <TilemmCpAsyncConfig kCfg>
int cp_async_blocks_per_sm();

template <TilemmCpAsyncConfig kCfg>
cudaError_t launch_cp_async(const GemmProblem& prob, cudaStream_t stream) {
  const GemmParams params = make_params(prob);
  const std::int64_t blocks_y = std::min<std::int64_t>((prob.n + kCfg.bn - 1) / kCfg.bn, 65535);
  SplitKSlices split{prob.k, nullptr};
  int slices = 1;
  StreamWorkspace workspace(stream);
  if constexpr (kCfg.split_k) {
    const std::int64_t tiles = ((prob.m + kCfg.bm - 1) / kCfg.bm) * ((prob.n + kCfg.bn - 1) / kCfg.bn);
    slices = cp_async_split_k_slices(tiles, std::int64_t(device_sm_count()) * cp_async_blocks_per_sm<kCfg>(),
                                     prob.k, kCfg.bk);
    split.k_per_slice = split_k_slice_length(prob.k, slices, kCfg.bk);
    slices = int((prob.k + split.k_per_slice - 1) / split.k_per_slice);
    const cudaError_t err = workspace.allocate(std::size_t(slices) * std::size_t(prob.m) * std::size_t(prob.n) * 4);
    if (err != cudaSuccess) return err;
    split.partial = workspace.at<float>();
  }
  const dim3 grid(ceil_div_u(prob.m, kCfg.bm), static_cast<unsigned>(blocks_y),
                  kCfg.split_k ? static_cast<unsigned>(slices) : grid_z_for(prob.batch));
  const cudaError_t launched = dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    const auto kernel = cp_async_gemm<kCfg, kTA, kTB>;
    constexpr std::int64_t smem = cp_async_smem_bytes<kCfg>(kTA, kTB);
    // Above 48 KB a kernel must opt in to its dynamic shared memory, once per kernel.
    static std::once_flag opted_in;
    static cudaError_t opt_in_error = cudaSuccess;
    std::call_once(opted_in, [&] {
      opt_in_error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    });
    if (opt_in_error != cudaSuccess) return opt_in_error;
    kernel<<<grid, kCfg.threads(), smem, stream>>>(params, split);
    return cudaGetLastError();
  });
  if constexpr (kCfg.split_k) {
    return workspace.finish(launched == cudaSuccess ? launch_split_k_reduce(prob, split.partial, slices, stream)
                                                    : launched);
  }
  return launched;
}


template <TilemmCpAsyncConfig kCfg>
int cp_async_blocks_per_sm() {
  static const int blocks = resident_blocks_per_sm(reinterpret_cast<const void*>(&cp_async_gemm<kCfg, false, false>),
                                                   kCfg.threads(), cp_async_max_smem_bytes<kCfg>());
  return blocks;
}

template <TilemmCpAsyncConfig kCfg>
std::string cp_async_name() {
  return "cp_async." + std::to_string(kCfg.bm) + "x" + std::to_string(kCfg.bn) + "x" +
         std::to_string(kCfg.bk) + ".w" + std::to_string(kCfg.warp_tile_m()) + "x" +
         std::to_string(kCfg.warp_tile_n()) + ".s" + std::to_string(kCfg.stages) +
         (kCfg.quad_copies ? ".cp16" : ".cp4") + (kCfg.split_k ? ".splitk" : "");
}

// relative_speed: the configuration's speed on problems large enough to fill the GPU,
// relative to the best configuration (from `tilemm-bench --tune`, docs/ladder.md).
template <TilemmCpAsyncConfig kCfg>
KernelEntry make_cp_async_entry(double relative_speed) {
  KernelEntry e;
  e.name = cp_async_name<kCfg>();
  e.family = "cp_async";
  e.ladder_step = 11;
  e.summary = std::string("warp tiles fed by a ") + std::to_string(kCfg.stages) + "-stage pipeline of " +
              (kCfg.quad_copies ? "16-byte cp.async copies" : "4-byte cp.async copies (any leading dimension)") +
              (kCfg.split_k ? ", k split across blocks and reduced in order (few-tile problems)" : "");
  e.dtypes = "fp32";
  e.min_compute_capability = 80;
  e.requirements = std::string(kCfg.quad_copies
                                   ? "compute capability 8.0; A and B 16-byte aligned, lda/ldb (and batch strides) multiples of 4"
                                   : "compute capability 8.0") +
                   (kCfg.split_k ? "; batchCount = 1; a workspace of slices * m * n floats (stream-ordered)" : "");
  e.arithmetic_intensity = double(kCfg.bm) * kCfg.bn / (2.0 * (kCfg.bm + kCfg.bn));
  e.auto_eligible = true;
  e.auto_priority = 1000;
  // fp32_tile_score (relative speed x wave efficiency x tile fill, split-K's slices as
  // tiles), with the 4-byte copies at the 0.8 of the 16-byte ones measured at 4096^3 (both
  // run only on aligned problems, where the 16-byte copies win).
  e.auto_score = [relative_speed](const GemmProblem& p, const DeviceInfo& dev) {
    const std::int64_t resident = std::int64_t(dev.sm_count) * cp_async_blocks_per_sm<kCfg>();
    int slices = 0;
    if constexpr (kCfg.split_k) {
      const std::int64_t tiles = ((p.m + kCfg.bm - 1) / kCfg.bm) * ((p.n + kCfg.bn - 1) / kCfg.bn) * p.batch;
      slices = cp_async_split_k_slices(tiles, resident, p.k, kCfg.bk);
    }
    return fp32_tile_score(p, kCfg.bm, kCfg.bn, resident, relative_speed * (kCfg.quad_copies ? 1.0 : 0.8), slices);
  };
  e.can_implement = [](const GemmProblem& p, const DeviceInfo& dev) {
    std::string r = require_fp32(p);
    if (r.empty()) r = require_compute_capability(dev, 80);
    if (r.empty() && cp_async_max_smem_bytes<kCfg>() > dev.smem_per_block_optin) {
      r = "needs " + std::to_string(cp_async_max_smem_bytes<kCfg>()) + " bytes of shared memory per block, device allows " +
          std::to_string(dev.smem_per_block_optin);
    }
    if (r.empty() && kCfg.quad_copies) r = require_quad_alignment(p);
    if (r.empty() && kCfg.split_k && p.batch != 1) r = "split-K runs one product at a time (batchCount = 1)";
    if (r.empty() && (p.m + kCfg.bm - 1) / kCfg.bm > 2147483647LL) r = "grid x dimension exceeded";
    return r;
  };
  e.launch = launch_cp_async<kCfg>;
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&cp_async_gemm<kCfg, false, false>),
                           kCfg.threads(), cp_async_smem_bytes<kCfg>(false, false)};
  };
  return e;
}

// Registers a configuration with both copy widths (split-K: 16-byte copies only).
template <TilemmCpAsyncConfig kCfg>
void register_cp_async_config(Registry& r, double relative_speed) {
  constexpr TilemmCpAsyncConfig quad{kCfg.bm, kCfg.bn, kCfg.bk, kCfg.lanes_m, kCfg.warps_m, kCfg.warps_n,
                                     kCfg.stages, true, kCfg.min_blocks_per_sm, kCfg.split_k};
  constexpr TilemmCpAsyncConfig element{kCfg.bm, kCfg.bn, kCfg.bk, kCfg.lanes_m, kCfg.warps_m, kCfg.warps_n,
                                        kCfg.stages, false, kCfg.min_blocks_per_sm, kCfg.split_k};
  r.add(make_cp_async_entry<quad>(relative_speed));
  // Split-K keeps to 16-byte copies: with 4-byte copies its extra slice state does not
  // fit the registers without spilling.
  if constexpr (!kCfg.split_k) r.add(make_cp_async_entry<element>(relative_speed));
}

}  // namespace tilemm::kernels

namespace tilemm {

// The tuned configurations: {bm, bn, bk, lanes_m, warps_m, warps_n, stages, (copy
// width, set per entry), min blocks per SM}, with relative speeds from
// `tilemm-bench --tune` on large squares (docs/ladder.md, step 12).
void register_cp_async(Registry& r) {
  using namespace kernels;
  // Measured on an H200 at 4096^3 NN (16-byte copies): 39.7, 38.6 and 36.5 TFLOP/s.
  // (Capping 128 x 64 at 170 registers for three blocks per SM measured 34.3: the
  // extra warps cost more than the lost scheduling freedom gave.)
  register_cp_async_config<TilemmCpAsyncConfig{128, 128, 16, 8, 2, 4, 3, true, 1}>(r, 0.92);
  register_cp_async_config<TilemmCpAsyncConfig{128, 64, 16, 8, 2, 2, 3, true, 1}>(r, 1.00);
  register_cp_async_config<TilemmCpAsyncConfig{64, 64, 16, 8, 1, 2, 4, true, 4}>(r, 0.97);
  // Split-K for problems with too few output tiles to fill the GPU (m = 16 by
  // n = 4096, k = 4096: 64 tiles of 64 x 64 for 132 SMs).
  register_cp_async_config<TilemmCpAsyncConfig{64, 64, 16, 8, 1, 2, 4, true, 4, true}>(r, 0.97);
}

}  // namespace tilemm
