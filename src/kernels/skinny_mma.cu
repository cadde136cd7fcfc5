// Family "skinny_mma": tensor-core products with at most 16 rows or 16 columns (32 with an
// odd leading dimension, below), as in one decoding step through a language model's
// projection (16 x 11008 x 4096), whose time is reading the long operand once.
//
// Why the square-tile kernels lose here: 16 x 11008 x 4096 in bf16 is 1.44 GFLOP on 90 MB
// of B. The tensor cores need ~2 us for the FLOPs, DRAM ~22 us for the bytes (at ~4 TB/s):
// 16 FLOP per byte of B against the H200's ~200, so the product is bound by B's bytes. The
// wgmma tiles have 64 to 256 rows (16 useful); the 128 x 128 tile auto took left the 86
// column tiles of n = 11008 on 86 of 132 SMs, and the split-K entry streamed B at ~2.9 TB/s
// (docs/ladder.md, step 25): 0.68-0.76x cuBLAS.
//
// Idea: the fp32 skinny_splitk kernel's shape on mma.sync. Every block takes all 16 rows of
// the oriented product (skinny_orientation.hpp: the short side along the rows, so the TN
// decode step 11008 x 16 x 4096 runs as 16 x 11008 x 4096) and a narrow column tile (64):
// each of 4 warps computes 16 x 16 with m16n8k16 mma.sync, reading its fragments by
// ldmatrix from the swizzled cp.async ring of the mma_sync family (mma_sync_tiles.cuh: the
// same layouts, copies and main loop). A stage holds 128 k (256 bytes of every column of a
// k-contiguous operand), 4 stages of 20 KB, and 2 blocks per SM keep up to 6 stages in
// flight. When the column tiles cannot fill the block slots once (n = 4096: 64 tiles), k is
// cut into slices across grid z and the slices' fp32 partial products are summed in order
// by split_k_reduce (deterministic); otherwise the block stores C directly (n = 11008: 172
// tiles on 264 slots; cutting it into 3 slices to fill the slots measured 10% slower, the
// partial sums' pass costing more than the extra copies in flight bring).
// Data per block and stage: (16 + 64) x 128 elements for 2 x 16 x 64 x 128 FLOP.
// Measured (H200, bf16, docs/ladder.md step 29): B streamed at 3.0-3.5 TB/s, 0.87-1.1x
// cuBLAS over the decode shapes, 1.0-1.6x the wgmma entries auto chose before.
// Any leading dimension (`.ldg2`, `.ldg4`; bf16, fp16 and tf32): where lda or ldb is odd
// (4093) the 16-byte copies, and the TMA, cannot read an operand. The other entries then
// either read it without split-K (mma_sync's 128 x 128 `.ldg` tile: 16 x 16 x 4093 is one
// block walking k alone, 0.18-0.20 ms on an H200 against cuBLAS's 11-27 us) or copy it into
// an aligned workspace first (16 x 4093 x 4093 tf32 copies a 67 MB operand to use it once:
// 0.12 ms, 0.29-0.33x cuBLAS). The `.ldg` entries load each chunk element by element into
// registers, as mma_sync's `.ldg` tile does (mma_register_main_loop: the loads of stage
// k + 1 travel while the tensor cores work on stage k), with the same split-K. One stage is
// in flight per block, so four blocks share an SM (tf32, 64 floats per stage: three).
// `.clusterk` (Hopper): the k-slices of a tile are the CTAs of one cluster, which sum them
// through distributed shared memory (mma_sum_cluster_slices) instead of writing
// partials for split_k_reduce: no workspace and one launch, 1.00-1.28x faster on an H200
// where one row tile's k is split (docs/ladder.md, "Slices summed inside a cluster"). A
// 32-row `.clusterk` tile takes 17-32 rows with 2049-3584 columns, where two 16-row tiles
// read the long operand twice (1.10x on an H200; "Thirty-two rows in one tile").
// `.repack` (the `.clusterk` kernels, 16 and 32 rows): an unreadable short operand (NN with
// lda = 20) is copied into an aligned workspace first, so the long one is streamed by 16-byte
// copies instead of element loads (1.9x faster over 91 shapes; "The short operand copied").
// `.ldgshort` (the `.clusterk` tiles, 16 and 32 rows): the same short operand read element by
// element inside the kernel, held in registers as many k-tiles ahead as the ring's copies of the
// long one (mma_ring_main_loop_by_elements): no copy launch, 1.21x faster than the choices
// before over 264 shapes ("The short operand by element loads"); 2 or 4 elements per load where
// the operand allows (lda = 20: 8-byte loads), 1.08-1.16x faster again ("Wider loads").
// Requirements: compute capability 8.0; `.cp16`: A and B 16-byte aligned with lda, ldb
// multiples of 8 elements; `.ldg`: A, B, C aligned to their element size; batchCount = 1;
// a workspace of slices x m x n floats when k is split (`.clusterk`: compute capability 9.0,
// at most 8 slices, no workspace).
#include <algorithm>
#include <array>
#include <string>
#include <type_traits>

#include "kernels/gemm_common.cuh"
#include "kernels/mma_sync_layout.cuh"
#include "kernels/mma_sync_tiles.cuh"
#include "kernels/repack.hpp"
#include "kernels/skinny_orientation.hpp"
#include "kernels/split_k_reduce.hpp"
#include "kernels/workspace.hpp"
#include "ptx/cluster.cuh"
#include "ptx/cp_async.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmSkinnyMmaConfig {
  TilemmMmaInput input;
  int bm;     // rows of the oriented product per block, all of them in every warp's tile
  int bn;     // columns per block, split evenly among the warps
  int bk;     // k per pipeline stage, in elements
  int warps;  // warps per block, side by side along n
  int stages;
  TilemmMmaOperandLoad load;  // 16-byte cp.async ring, or element loads staged in registers (2 stages)
  int min_blocks_per_sm;      // __launch_bounds__ occupancy target
  // `.clusterk` (sm_90): a tile's k-slices are the CTAs of one cluster, summed through
  // distributed shared memory, instead of fp32 partials in a workspace and split_k_reduce.
  bool cluster_k = false;
  // `.ldgshort` (> 0): the short operand (A, oriented) by element loads staged in registers as
  // many k-tiles ahead as the ring's copies of the long one (mma_ring_main_loop_by_elements),
  // for a short operand the 16-byte copies cannot read beside a long one they can; this many
  // elements per load. Entries have 1; their launcher runs the same tile with 2 or 4 where A's
  // pieces of that many elements are aligned and whole (short_operand_elements_per_load).
  int short_elements_per_load = 0;
  consteval bool short_by_elements() const { return short_elements_per_load > 0; }
  consteval TilemmSkinnyMmaConfig with_short_elements_per_load(int elements) const {
    TilemmSkinnyMmaConfig c = *this;
    c.short_elements_per_load = elements;
    return c;
  }
  // A cluster of more than 8 CTAs is not portable (it needs an opt-in and may not fit).
  static constexpr int kMostClusterSlices = 8;

  // The block tile as the mma_sync layouts describe it: one warp along m, `warps` along n.
  consteval TilemmMmaSyncConfig tile() const {
    return {input, bm, bn, bk, 1, warps, stages, load, min_blocks_per_sm};
  }
  consteval bool async_copies() const { return load == TilemmMmaOperandLoad::AsyncCopy16; }
  consteval int threads() const { return 32 * warps; }
  consteval bool valid() const {
    const TilemmMmaSyncConfig t = tile();
    const int ce = t.chunk_elements();
    // Rows of a stage: bk / ce chunks along k, bm / ce or bn / ce along x; powers of two for
    // the XOR swizzle (MmaTileLayout), whose copy and fragment checks run in the kernel.
    return bm % 16 == 0 && t.warp_tile_n() % 16 == 0 && warps * t.warp_tile_n() == bn && bk % t.mma_k() == 0 &&
           TilemmMmaSyncConfig::power_of_two(bk / ce) && bk / ce >= 2 && bk / ce <= 32 &&
           TilemmMmaSyncConfig::power_of_two(bm / ce) && bm / ce >= 2 && TilemmMmaSyncConfig::power_of_two(bn / ce) &&
           bn / ce >= 8 && stages >= 2 && stages <= 8 && (async_copies() || stages == 2) && min_blocks_per_sm >= 1 &&
           short_loads_valid();
  }
  // `.ldgshort`: the long operand through the ring; 2 or 4 elements per load of 16-bit ones.
  consteval bool short_loads_valid() const {
    const int e = short_elements_per_load;
    return e == 0 || (async_copies() && (e == 1 || (tile().element_bytes() == 2 && (e == 2 || e == 4))));
  }
};

namespace tilemm::kernels {

// One block per (row tile, column tile, k-slice) = blockIdx (x, y, z) of the oriented
// product p. Without split.partial the block stores C = alpha * acc + beta * C itself;
// with it, its raw fp32 partial product into slice z of split.partial (the caller's m x n,
// column-major). store_transposed: p is the caller's product transposed
// (skinny_orientation), so element (i, j) of p belongs at (j, i) of the caller's C.
template <TilemmSkinnyMmaConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), kCfg.min_blocks_per_sm)
    skinny_mma_gemm(MmaSyncParams p, SplitKSlices split, bool store_transposed) {
  static_assert(kCfg.valid());
  constexpr TilemmMmaSyncConfig kTile = kCfg.tile();
  using T = typename MmaInputTraits<kCfg.input>::Element;
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk;
  constexpr bool kAKContig = kTransA;   // A^T: element (m, k) at k + m * lda
  constexpr bool kBKContig = !kTransB;  // B:   element (k, n) at k + n * ldb
  using LA = MmaTileLayout<kTile, BM, kAKContig>;
  using LB = MmaTileLayout<kTile, BN, kBKContig>;
  using FA = MmaFragmentAddress<kTile, true, kAKContig>;
  using FB = MmaFragmentAddress<kTile, false, kBKContig>;
  static_assert(FA::consistent() && FB::consistent(), "fragment address shortcut disagrees with the layout");
  static_assert(FA::conflict_free() && FB::conflict_free(), "fragment reads would conflict in shared-memory banks");
  constexpr int kStageBytes = LA::kBytes + LB::kBytes;
  static_assert(LA::kBytes % 128 == 0 && LB::kBytes % 128 == 0);
  extern __shared__ uint4 skinny_mma_smem[];  // uint4: 16-byte alignment for the chunks
  char* const smem = reinterpret_cast<char*>(skinny_mma_smem);
  const auto stage_a = [&](int s) { return smem + s * kStageBytes; };
  const auto stage_b = [&](int s) { return smem + s * kStageBytes + LA::kBytes; };

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_n0 = warp * kTile.warp_tile_n();
  const int a_off = FA::lane_offset(lane, 0);
  const int b_off = FB::lane_offset(lane, warp_n0);
  const std::int64_t m0 = std::int64_t(blockIdx.x) * BM;
  const std::int64_t n0 = std::int64_t(blockIdx.y) * BN;
  // `.clusterk`: the tile's k-slices meet past the ring (mma_sum_cluster_slices).
  if constexpr (kCfg.cluster_k) {
    if (gridDim.z > 1) mma_cluster_sum_init<kTile, kCfg.kMostClusterSlices>(smem + kTile.ring_bytes());
  }
  // The block's slice of k, read through operands that start at its first k (a multiple
  // of BK, so the 16-byte copies stay aligned).
  const std::int64_t k0 = std::int64_t(blockIdx.z) * split.k_per_slice;
  const std::int64_t k_len = std::min(split.k_per_slice, p.k - k0);
  const T* const A = static_cast<const T*>(p.A) + (kAKContig ? k0 : k0 * p.lda);
  const T* const B = static_cast<const T*>(p.B) + (kBKContig ? k0 : k0 * p.ldb);
  const MmaOperandCopier<kTile, BM, kAKContig, T> copy_a(p.lda, p.m, k_len, m0, tid);
  const MmaOperandCopier<kTile, BN, kBKContig, T> copy_b(p.ldb, p.n, k_len, n0, tid);
  float acc[kTile.m_tiles()][kTile.n_tiles()][4] = {};
  const std::int64_t k_tiles = (k_len + BK - 1) / BK;
  if constexpr (kCfg.short_by_elements()) {
    mma_ring_main_loop_by_elements<kTile, kAKContig, kBKContig, kCfg.short_elements_per_load>(
        copy_a, copy_b, A, p.lda, B, p.ldb, k_tiles, stage_a, stage_b, a_off, b_off, acc);
  } else if constexpr (kCfg.async_copies()) {
    mma_ring_main_loop<kTile, kAKContig, kBKContig>(copy_a, copy_b, A, p.lda, B, p.ldb, k_tiles, stage_a, stage_b,
                                                    a_off, b_off, acc);
  } else {
    mma_register_main_loop<kTile, kAKContig, kBKContig>(copy_a, copy_b, A, p.lda, B, p.ldb, k_tiles, stage_a, stage_b,
                                                        a_off, b_off, acc);
  }

  const std::int64_t col0 = n0 + warp_n0;
  if constexpr (kCfg.cluster_k) {
    if (gridDim.z > 1) {
      char* const sums = smem + kTile.ring_bytes();
      if (p.c_is_fp32) {
        mma_sum_cluster_slices<kTile, kCfg.kMostClusterSlices>(p, static_cast<float*>(p.C), smem, sums, 0, acc, m0, n0,
                                                               0, warp_n0, lane, int(gridDim.z), store_transposed);
      } else if constexpr (!std::is_same_v<T, float>) {
        mma_sum_cluster_slices<kTile, kCfg.kMostClusterSlices>(p, static_cast<T*>(p.C), smem, sums, 0, acc, m0, n0,
                                                               0, warp_n0, lane, int(gridDim.z), store_transposed);
      }
      return;
    }
  }
  if (split.partial != nullptr) {
    MmaSyncParams raw = p;
    raw.alpha = 1.0f;
    raw.beta = 0.0f;
    float* const out = split.partial + std::int64_t(blockIdx.z) * p.m * p.n;
    mma_store_accumulators<kTile>(raw, out, m0, col0, lane, acc, store_transposed ? p.n : 1,
                                  store_transposed ? 1 : p.m);
    return;
  }
  const std::int64_t row_stride = store_transposed ? p.ldc : 1, col_stride = store_transposed ? 1 : p.ldc;
  if (p.c_is_fp32) {
    mma_store_accumulators<kTile>(p, static_cast<float*>(p.C), m0, col0, lane, acc, row_stride, col_stride);
  } else if constexpr (!std::is_same_v<T, float>) {
    mma_store_accumulators<kTile>(p, static_cast<T*>(p.C), m0, col0, lane, acc, row_stride, col_stride);
  }
}

template <TilemmSkinnyMmaConfig kCfg>
constexpr std::int64_t skinny_mma_smem_bytes() {
  return kCfg.tile().ring_bytes() +
         (kCfg.cluster_k ? cluster_sum_bytes(kCfg.bm, kCfg.bn, TilemmSkinnyMmaConfig::kMostClusterSlices) : 0);
}

template <TilemmSkinnyMmaConfig kCfg>
int skinny_mma_blocks_per_sm() {
  static const int blocks = resident_blocks_per_sm(reinterpret_cast<const void*>(&skinny_mma_gemm<kCfg, false, false>),
                                                   kCfg.threads(), skinny_mma_smem_bytes<kCfg>());
  return blocks;
}

// k-slices of the oriented problem: enough blocks to fill the block slots about once
// (none when the column tiles already do), each slice at least 4 stages long, at most 16
// (for m = 16 the partial sums, written and read back in fp32, then add at most
// 2 x 4 x 16 / (2 x 4 x 128) = 12.5% to B's bytes). A `.ldg` block has one stage in
// flight, not three, so its time is about one load latency per stage: its slices may be
// 2 stages short and number 32, trading up to 25% more bytes for fewer stages per block
// (16 x 4093 x 1000 had 8 stages per block in one slice). The `.ldg` tile's `.clusterk` form
// sums its slices inside the cluster, with no pass to repay: slices of one stage (the last
// one partial), as many as fill the slots, at most 8.
template <TilemmSkinnyMmaConfig kCfg>
int skinny_mma_slices(const GemmProblem& p, int sm_count) {
  const std::int64_t tiles = ((p.m + kCfg.bm - 1) / kCfg.bm) * ((p.n + kCfg.bn - 1) / kCfg.bn);
  const std::int64_t slots = std::int64_t(sm_count) * skinny_mma_blocks_per_sm<kCfg>();
  if constexpr (kCfg.cluster_k && !kCfg.async_copies()) {
    return split_k_slices(tiles, slots, (p.k + kCfg.bk - 1) / kCfg.bk, 1, TilemmSkinnyMmaConfig::kMostClusterSlices);
  }
  return split_k_slices(tiles, slots, p.k / kCfg.bk, kCfg.async_copies() ? 4 : 2, kCfg.async_copies() ? 16 : 32);
}

template <TilemmSkinnyMmaConfig kCfg, bool kTA, bool kTB>
cudaError_t launch_skinny_mma_kernel(dim3 grid, int slices, const MmaSyncParams& params, const SplitKSlices& split,
                                     bool store_transposed, cudaStream_t stream) {
  constexpr auto kernel = skinny_mma_gemm<kCfg, kTA, kTB>;
  constexpr std::int64_t smem = skinny_mma_smem_bytes<kCfg>();
  const cudaError_t opted_in = opt_in_dynamic_smem<kernel>(smem);
  if (opted_in != cudaSuccess) return opted_in;
  // `.clusterk`: each tile's slices are one cluster along grid z.
  cudaLaunchAttribute cluster{};
  const cudaLaunchConfig_t config =
      launch_config_in_clusters_along_z(grid, kCfg.threads(), smem, kCfg.cluster_k ? slices : 1, &cluster, stream);
  return cudaLaunchKernelEx(&config, kernel, params, split, store_transposed);
}

template <TilemmSkinnyMmaConfig kCfg>
cudaError_t launch_skinny_mma(const GemmProblem& caller, cudaStream_t stream) {
  const GemmProblem prob = skinny_orientation(caller);
  const bool store_transposed = prob.m != caller.m;
  const MmaSyncParams params = make_mma_sync_params(prob);
  SplitKSlices split{prob.k, nullptr};
  int slices = 1;
  int wanted = skinny_mma_slices<kCfg>(prob, device_sm_count());
  if constexpr (kCfg.cluster_k) {
    // Every cluster resident at once, with fewer slices if need be: the first measurement,
    // with the plain entry's slices (at most 8), ran launches of 256 CTAs in clusters of 4
    // and 8 up to 1.35x slower than the same slices through split_k_reduce (H200, bf16, 24 x
    // 2048 x 2048 NN 13.9 against 11.5 us), where 264 block slots held them all, and
    // launches of 128 CTAs 1.05-1.14x faster.
    const std::int64_t tiles = std::int64_t(ceil_div_u(prob.m, kCfg.bm)) * ceil_div_u(prob.n, kCfg.bn);
    wanted = std::min(wanted, TilemmSkinnyMmaConfig::kMostClusterSlices);
    constexpr auto kKernel = skinny_mma_gemm<kCfg, false, false>;
    while (wanted > 1 && tiles > resident_clusters_along_z<kKernel, TilemmSkinnyMmaConfig::kMostClusterSlices>(
                                     wanted, kCfg.threads(), skinny_mma_smem_bytes<kCfg>())) {
      --wanted;
    }
  }
  if (wanted > 1) {
    split.k_per_slice = split_k_slice_length(prob.k, wanted, kCfg.bk);
    slices = int((prob.k + split.k_per_slice - 1) / split.k_per_slice);
  }
  StreamWorkspace workspace(stream);
  if (slices == 1) {
    split.k_per_slice = prob.k;
  } else if (!kCfg.cluster_k) {
    const cudaError_t allocated =
        workspace.allocate(std::size_t(slices) * std::size_t(prob.m) * std::size_t(prob.n) * sizeof(float));
    if (allocated != cudaSuccess) return allocated;
    split.partial = workspace.at<float>();
  }
  const dim3 grid(ceil_div_u(prob.m, kCfg.bm), ceil_div_u(prob.n, kCfg.bn), static_cast<unsigned>(slices));
  const cudaError_t launched = dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    if constexpr (kCfg.short_by_elements() && kCfg.tile().element_bytes() == 2) {
      const int elements = short_operand_elements_per_load(prob, kTA);
      if (elements == 4) {
        return launch_skinny_mma_kernel<kCfg.with_short_elements_per_load(4), kTA, kTB>(grid, slices, params, split,
                                                                                      store_transposed, stream);
      }
      if (elements == 2) {
        return launch_skinny_mma_kernel<kCfg.with_short_elements_per_load(2), kTA, kTB>(grid, slices, params, split,
                                                                                      store_transposed, stream);
      }
    }
    return launch_skinny_mma_kernel<kCfg, kTA, kTB>(grid, slices, params, split, store_transposed, stream);
  });
  if (slices == 1 || kCfg.cluster_k) return launched;
  return workspace.finish(launched == cudaSuccess ? launch_split_k_reduce(caller, split.partial, slices, stream)
                                                  : launched);
}

template <TilemmSkinnyMmaConfig kCfg>
std::string skinny_mma_name() {
  return std::string("skinny_mma.") + MmaInputTraits<kCfg.input>::kName + "." + std::to_string(kCfg.bm) + "x" +
         std::to_string(kCfg.bn) + "x" + std::to_string(kCfg.bk) + ".w" + std::to_string(kCfg.warps) + ".s" +
         std::to_string(kCfg.stages) +
         (kCfg.async_copies() ? "" : kCfg.tile().element_bytes() == 2 ? ".ldg2" : ".ldg4") +
         (kCfg.cluster_k ? ".clusterk" : "") + (kCfg.short_by_elements() ? ".ldgshort" : "");
}

// Whether auto gives the caller's product (oriented: short side m) to a skinny_mma entry: one
// pass over the long operand for m up to the entry's rows, where that operand is at least
// 4096 x 4096 elements (step 29's measured range; the two rules after it add more). On the
// H200 the 16-row tile ran every measured m = 16 shape (NN, NT, TT; TN with n = 16) 1.0 to
// 1.6x faster than the wgmma entries auto took before; 32 and 64-row tiles of the same
// design lost to wgmma's split-K at m = 32 and 64 (docs/ladder.md, step 29).
inline bool long_operand_of_4096_squared(const GemmProblem& p) {
  return double(p.n) * double(p.k) >= 4096.0 * 4096.0;
}
// Two row tiles in TT (17-32 rows, the long operand read once per tile) still beat wgmma:
// on an H100 (docs/ladder.md, "Two row tiles in TT, and short products"; bf16, m = 17, 24 and
// 32, n = 2048-8192, k = 4096 and 8192) every one of 30 shapes ran 1.03-1.19x faster than
// auto's split-K or 64 x 64 ping-pong tile (24 x 4096 x 4096 18.9 against 21.1 us, cuBLAS
// 16.9), as stop 47 had seen on the H200 at n = 4096 (16.4 against 18.0 us); at n = 11008 the
// 64 x 128 tile won (H200, 24 x 11008 x 4096 31.3 against 37.7). Taken as measured: the
// caller's TT with the rows as the short side, 2048 <= n <= 8192 and k >= 4096. In TN it lost
// at n = 3072 with k = 8192 and from n = 6144 on, and in NN with 17-32 columns (its transposed
// form is this TT) at 4096 rows; at n <= 2048 the short products' rule below takes every layout.
inline bool skinny_mma_takes_two_row_tiles_tt(const GemmProblem& caller, int bm) {
  constexpr std::int64_t kFewestColumns = 2048, kMostColumns = 8192, kShortestK = 4096;
  return caller.opa == Op::T && caller.opb == Op::T && caller.m > bm && caller.m <= 2 * bm &&
         caller.n >= kFewestColumns && caller.n <= kMostColumns && caller.k >= kShortestK;
}
// Short products, every layout: with at most two row tiles, 1024-2048 columns and k =
// 2048-8192 (oriented), the 16-row tiles ran all 72 measured shapes that auto gave to wgmma's
// split-K 1.02-1.31x faster (H100, stop 49; bf16 NN, NT, TN and TT, m = 16, 24 and 32, n = 1024
// and 2048, k = 2048, 4096 and 8192, and m = 1024 and 2048 with n = 24; 24 x 2048 x 4096 TN 13.9
// against 16.0 us, cuBLAS 13.8). At n = 3072 the layouts differed (0.84-1.14x). Fewer than 16
// rows were not measured: both entries compute whole tiles (16 and 64 rows) whatever m is.
inline bool skinny_mma_takes_short_products(const GemmProblem& p, int bm) {
  constexpr std::int64_t kFewestColumns = 1024, kMostColumns = 2048, kShortestK = 2048, kLongestK = 8192;
  return p.m <= 2 * bm && p.n >= kFewestColumns && p.n <= kMostColumns && p.k >= kShortestK && p.k <= kLongestK;
}
// Narrow vectors with long k, since stop 66: one row tile, 128-511 columns and k = 4097-8192
// (oriented). On an H100 (docs/ladder.md, "Every readable vector to the 16-row tiles"; bf16 and
// fp16, NN, NT, TN and TT, m = 1, 8 and 16, n = 128 and 256, k = 8192) this entry ran 1.16-1.25x
// faster than wgmma's 64 x 128 split-K tile auto took, and 1.05x faster than `.clusterk`
// (0.95-1.15x; inferred: a cluster holds at most 8 slices, so 2-4 column tiles make at most 32
// blocks, where this entry's slices, summed through its workspace, are not bounded by it). At k =
// 4096 `.clusterk` won (1.30-1.34x against 1.14-1.15x), so the rule starts above it.
inline bool skinny_mma_takes_narrow_long_k(const GemmProblem& p, int bm) {
  constexpr std::int64_t kFewestColumns = 128, kMostColumns = 511, kShortestK = 4097, kLongestK = 8192;
  return p.m <= bm && p.n >= kFewestColumns && p.n <= kMostColumns && p.k >= kShortestK && p.k <= kLongestK;
}
inline bool skinny_mma_takes(const GemmProblem& caller, int bm) {
  const GemmProblem p = skinny_orientation(caller);
  return (p.m <= bm && long_operand_of_4096_squared(p)) || skinny_mma_takes_short_products(p, bm) ||
         skinny_mma_takes_narrow_long_k(p, bm) || skinny_mma_takes_two_row_tiles_tt(caller, bm);
}

// Whether auto gives the caller's product to a `.clusterk` entry (sm_90) rather than the plain one
// or wgmma: one row tile (at most bm rows, oriented), 128-6144 columns and k = 128-11008, with k at
// most 4096 below 512 columns, and not 3073-4096 columns with k above 4096. The rule grew in three
// measured steps. Stop 50, 1024-6144 columns and k = 1024-11008: on an H200 (docs/ladder.md,
// "Slices summed inside a cluster"; bf16 NN, NT, TN and TT with m = 16, n = 1024-4096, k =
// 2048-8192, NN and TN with m = 1, 8 and 16 at k = 1024, and larger ones), summing the slices
// inside their cluster ran 1.00-1.28x faster than auto's previous choice: the split_k_reduce launch
// and the partials' round trip through memory are gone. Except with 3073-4096 columns and k above
// 4096: the plain entry runs 4 slices of its 64 tiles there, and this one fewer (inferred: with 4
// it ran as if in two waves, 31.4 against 23.6 us at 16 x 4096 x 8192 NN, so fewer than 64 clusters
// of 4 fit at once), which at k = 8192-11008 lost 4-9% (23.8 against 21.8 us). With two row tiles
// (17-32 rows) it won or lost by layout (0.92-1.17x at k = 2048, slower at longer k), and past 6144
// columns k is not split, so the two entries run the same loop.
// Stop 65, from 512 columns and k = 512 (k <= 2048 below 1024 columns): on an H100 (docs/ladder.md,
// "Readable vectors from 512 columns and from k = 512"; bf16, NN, TN, NT and TT, m = 1, 8 and 16)
// all 60 measured shapes with 512 columns (k = 512-2048) or k = 512 (512-4096 columns) ran
// 1.07-1.38x faster (1.21x) than auto's wgmma choice (64 x 64 ping-pong, or split-K at 512 x 2048):
// at k = 512 the 16-row tile cuts no slices, at 512 columns its 8 tiles cut them where wgmma's few
// 64-row tiles compute 48-63 rows of zeros (8 x 4096 x 512 NN 11.2 -> 8.6 us, cuBLAS 7.7; 16 x 512
// x 2048 NT 10.2 -> 7.4, cuBLAS 9.2).
// Stop 66, from 128 columns and k = 128 (k <= 4096 below 512 columns): on an H100 (docs/ladder.md,
// "Every readable vector to the 16-row tiles"; bf16 and fp16, the four layouts, m = 1, 8 and 16, n
// = 128-4096, k = 128-8192, `auto` under stop 65's rule timed beside the tiles) this entry ran
// every cell where auto still took wgmma (k = 128 and 256 at every n; n = 128 and 256 at every k; n
// = 512 with k = 4096 and 8192) 1.16-1.34x faster by cell geometric mean (1.07x the slowest shape):
// wgmma's 64-row tiles compute 48-63 rows of zeros, and at these sizes its tiles are too few to
// fill the SMs. Below 512 columns k > 4096 goes to the plain entry
// (skinny_mma_takes_narrow_long_k). Timed under auto in both orientations (1-16 rows, or 1-16
// columns), the moved choices ran 1.23-1.25x faster than on the tile auto took before (1.07-1.59x,
// none slower).
inline bool skinny_mma_cluster_k_takes(const GemmProblem& caller, int bm) {
  constexpr std::int64_t kFewestColumns = 128, kMostColumns = 6144, kShortestK = 128, kLongestK = 11008;
  constexpr std::int64_t kNarrow = 512, kLongestKOfNarrow = 4096;
  const GemmProblem p = skinny_orientation(caller);
  const bool fewer_slices_than_plain = p.n > 3072 && p.n <= 4096 && p.k > 4096;
  const std::int64_t longest_k = p.n < kNarrow ? kLongestKOfNarrow : kLongestK;
  return p.m <= bm && p.n >= kFewestColumns && p.n <= kMostColumns && p.k >= kShortestK && p.k <= longest_k &&
         !fewer_slices_than_plain;
}

// Whether auto gives the caller's product to the 32-row `.clusterk` entry: 17-32 rows
// (oriented), 2049-3584 columns, k = 2048-8192. On an H200 (docs/ladder.md, "Thirty-two rows
// in one tile"; bf16 NN, NT, TN and TT, m = 17, 24 and 32, n = 2560, 3072 and 3584) it ran
// every shape there at least as fast as auto's previous choice (the 16-row tiles or wgmma's
// 64 x 64 ping-pong and split-K tiles), 1.12x at n = 3072 (0.98-1.34x over 30 shapes): one
// row tile reads the long operand once, where two 16-row tiles read it twice, and its few
// tiles leave room for k-slices in clusters. With 4096 columns and more the 32-row tile lost
// in some layouts (0.86-0.99x at k = 8192). With 2048 columns it wins from k = 4096 but in TT
// (oriented): over 22 shapes (NN, NT, TN; m = 17, 24 and 32; k = 4096 and 8192; stops 51 and 52,
// docs/ladder.md, "2048 columns") 1.084x faster than the plain 16-row tile auto took
// (1.03-1.18x; 32 x 2048 x 8192 NN 17.9 against 21.1 us, cuBLAS 16.5), where in TT it ran
// 0.95-0.98x and at k = 2048 0.97-1.05x.
inline bool skinny_mma_two_row_tiles_cluster_k_takes(const GemmProblem& caller) {
  constexpr std::int64_t kFewestRows = 17, kMostRows = 32, kFewestColumns = 2049, kMostColumns = 3584;
  constexpr std::int64_t kShortestK = 2048, kLongestK = 8192;
  constexpr std::int64_t kFewestColumnsLongK = 2048, kShortestKAtFewestColumns = 4096;
  const GemmProblem p = skinny_orientation(caller);
  const bool tt = p.opa == Op::T && p.opb == Op::T;
  const std::int64_t fewest_columns = p.k >= kShortestKAtFewestColumns && !tt ? kFewestColumnsLongK : kFewestColumns;
  return p.m >= kFewestRows && p.m <= kMostRows && p.n >= fewest_columns && p.n <= kMostColumns &&
         p.k >= kShortestK && p.k <= kLongestK;
}

// Whether auto gives the oriented product p to a `.ldg` entry: at most 2 bm rows, with an
// operand the 16-byte copies (the `.cp16` entries' and the TMA's) cannot read (lda =
// 4093). Every other tensor-core entry then either reads it without split-K (mma_sync's
// `.ldg` tiles of 128 x 128: one block for 16 x 16 x 4093, 0.18-0.20 ms on an H200 against
// cuBLAS's 11-27 us) or copies it first (the `.repack` entries: 16 x 4093 x 4093 tf32
// copies a 67 MB operand to multiply it once), so this entry takes such products whatever
// their size (docs/ladder.md, step 29), with one exception. Its tiles re-read the long
// operand once per bm rows, and it still won at 24 and 32 rows (H200, 32 x 4093 x 4093 NN:
// tf32 53.7 against 119.4 us, bf16 42.9 against 69.1; cuBLAS 40.7, 39.7); at 48, tf32 48 x
// 11008 x 4093 NN lost (246.8 against 178.5).
// Where only the short operand is unreadable, the `.ldgshort` entries below outrank it on
// Hopper (skinny_mma_short_by_elements_takes). Until stop 51 this entry stood aside
// there for wgmma's `.repack` entries (bf16 14336 x 16 x 4093 NN: 60 against 71 us), which
// also sent 2-16 rows in NN (m = 12: 32 tiles of 256 x 128, 55.3 against 22.8 us here) and,
// on Ampere, any such product to mma_sync's 128 x 128 `.ldg` tile; it no longer does.
// Which operands of an oriented product (A the short one, B the long one) the 16-byte copies
// and the TMA can read in place.
struct SkinnyOperandsReadable {
  bool short_operand, long_operand;
};
inline SkinnyOperandsReadable skinny_operands_readable(const GemmProblem& oriented, int element_bytes) {
  return {columns_aligned16(oriented.A, oriented.lda, oriented.stride_a, oriented.batch, element_bytes),
          columns_aligned16(oriented.B, oriented.ldb, oriented.stride_b, oriented.batch, element_bytes)};
}

inline bool skinny_mma_takes_any_ld(const GemmProblem& oriented, int bm, int element_bytes) {
  const SkinnyOperandsReadable readable = skinny_operands_readable(oriented, element_bytes);
  return oriented.m <= 2 * bm && !(readable.short_operand && readable.long_operand);
}

// Readable tf32 vectors, since stop 66: tf32 has no 16-byte-copy skinny_mma tile, so auto gave a
// product of one row tile (oriented) whose operands the 16-byte copies read to wgmma's or
// wgmma_rs's tiles (64 x 64 ping-pong, 128 x 64, 64 x 128 split-K), which compute 64-128 rows of
// which 1-16 are real. On an H100 (docs/ladder.md, "Every readable vector to the 16-row tiles";
// tf32, NN, NT, TN and TT, m = 1, 8 and 16, n = 128-4096, k = 128-8192) the `.ldg4` tile's
// `.clusterk` entry, reading both by elements with one stage a slice, ran the 138 choices this
// rule moves there (128-1024 columns, k = 256-1024) 1.37x faster than auto's pick (1.11-1.75x,
// none slower; 1.26-1.51x by cell geometric mean; timed under auto, 1.36-1.39x in both
// orientations, none slower). Not taken where some layouts lost: k = 128
// (1.08-1.17x by cell, 0.88x the slowest shape), k >= 2048 (0.44-0.93x the slowest), and past 1024
// columns (1.08-1.20x at 2048 and 4096 columns, 0.87x the slowest).
inline bool skinny_mma_readable_tf32_vector_takes(const GemmProblem& caller, int bm, int element_bytes) {
  constexpr int kTf32Bytes = 4;
  constexpr std::int64_t kFewestColumns = 128, kMostColumns = 1024, kShortestK = 256, kLongestK = 1024;
  const GemmProblem p = skinny_orientation(caller);
  const SkinnyOperandsReadable readable = skinny_operands_readable(p, element_bytes);
  return element_bytes == kTf32Bytes && readable.short_operand && readable.long_operand && p.m <= bm &&
         p.n >= kFewestColumns && p.n <= kMostColumns && p.k >= kShortestK && p.k <= kLongestK;
}

// Whether auto gives the caller's product to the `.ldg` tile's `.clusterk` entry (sm_90) rather
// than the `.ldg` entry: where that takes it (skinny_mma_takes_any_ld: at most two row tiles of bm)
// with at least 2 stages of k, and few enough column tiles for the stages: at most 32 stages
// with one row tile and a quarter as many column tiles as SMs, at most 18 stages with a third as
// many (either row count), at most 6 stages with as many. A `.ldg` block keeps one stage in
// flight, so its time is about one load latency per stage of its slice; `.ldg` cuts k into
// slices of at least 2 stages, and pays split_k_reduce's launch and the partials' round trip for
// it. Its `.clusterk` form cuts k into slices of one stage summed inside their cluster (one
// launch, no workspace), at most 8 of them. On an H100 (docs/ladder.md, "Vectors: one stage a
// slice, summed in a cluster") it ran all 11 measured vectors and few-row products of stop 61
// faster than `.ldg`: 2 x 1 x 669 fp16 NN 6.6 us against 9.7 (cuBLAS 6.3), tf32 963 x 1 x 925 TN
// 8.5 against 10.6 (8.3), and past 16 stages, where its slices are the longer ones, bf16 1 x 967
// x 2211 TT 10.6 against 12.4 (10.0) and fp16 16 x 1024 x 4093 NN 14.6 against 15.1 (16.3).
// Stop 62's grid (fp16 NN, m = 1, 16, 24, 32, n = 1000-8448, k = 669, 2242, 4093) gave the
// wider bounds: at 6 stages it won at every column count (16-132 tiles, 1.01-1.63x; 16 x 4224 x
// 669 10.2 against 12.9 us), at 18 stages up to 35 column tiles (1.09-1.17x; 24 x 2200 x 2242
// 17.5 against 19.6) and lost from 66 (0.93-0.97x), and at 32 stages it gained only up to 16
// (0.99-1.04x); the two-row-tile products gained like the one-row ones. With more column tiles
// `.ldg`'s own split makes fewer, longer slices too (four blocks per SM, tf32 three: 528 slots
// on an H100), which the cluster's at most 8 slices do not beat.
inline bool skinny_mma_any_ld_cluster_k_takes(const GemmProblem& caller, int bm, int bn, int bk, int element_bytes,
                                              int sm_count) {
  constexpr std::int64_t kFewestStages = 2, kMostStagesOfFewTiles = 32, kMostStagesOfSomeTiles = 18,
                         kMostStagesOfManyTiles = 6;
  const GemmProblem p = skinny_orientation(caller);
  if (!skinny_mma_takes_any_ld(p, bm, element_bytes)) return false;
  const std::int64_t column_tiles = (p.n + bn - 1) / bn;
  if (p.k < kFewestStages * bk) return false;
  return (p.m <= bm && 4 * column_tiles <= sm_count && p.k <= kMostStagesOfFewTiles * bk) ||
         (3 * column_tiles <= sm_count && p.k <= kMostStagesOfSomeTiles * bk) ||
         (column_tiles <= sm_count && p.k <= kMostStagesOfManyTiles * bk);
}

// Whether auto gives the caller's product to the `.ldgshort` entry of the bm-row tile (16-bit,
// sm_90): the short operand unreadable by 16-byte copies (lda = 20 in NN: 40 bytes between
// columns) and the long one readable, at most 32 rows (oriented). The long operand is streamed
// by the ring's 16-byte copies and the short one (1-4% of the bytes) read element by element as
// far ahead. On an H200 (docs/ladder.md, "The short operand by element loads"; bf16 NN and NT,
// m = 2-28, n = 1024-8192, k = 2048-8192, transposed forms, 1000 and 14336 x 16 x 4093) it ran
// 1.0-1.6x faster than the `.ldg2` entry and the `.repack` entries, which copied the short
// operand aligned first (a launch of ~5 us): 20 x 2048 x 4096 NN 14.8 us against 18.8 with the
// copy and 23.2 with `.ldg2` (cuBLAS 16.9). The 16-row tile takes 1-16 rows, and 17-32 rows
// (two row tiles) where k <= 2048 with at most 4096 columns: there its twice as many CTAs ran
// 5-10% faster than the 32-row tile (28 x 4096 x 2048 NN 15.6 against 16.7 us), except at 2048
// columns (3% slower); elsewhere the 32-row tile reads the long operand once, not twice (20 x
// 8192 x 4096 NN 29.4 against 33.2 us). 25-32 rows against the largest long operands, where the
// short operand allows only 2-byte loads, go to the copy instead (skinny_mma_repack_takes, next).
// Where it allows 4- or 8-byte loads (lda and m, or k, multiples of 2 or 4: decode batches of
// 12, 20, 28), those took the tiles 1.08-1.32x faster again ("Wider loads").
inline bool skinny_mma_short_by_elements_takes(const GemmProblem& caller, int bm, int element_bytes) {
  constexpr std::int64_t kMostRows = 32, kMostColumnsForTwoTiles = 4096, kLongestKForTwoTiles = 2048;
  const GemmProblem p = skinny_orientation(caller);
  const SkinnyOperandsReadable readable = skinny_operands_readable(p, element_bytes);
  // tf32 (one 16-row tile, two for 17-32 rows): only where the long operand is n-contiguous (its
  // op T, oriented: NT, and NN with few columns). There it ran all 18 measured shapes with an
  // unreadable short operand 1.16-1.56x faster than `.ldg4` (H200, m = 2 and 17, n = 2048-11008,
  // k = 4096 and 8192; 17 x 8192 x 8192 NT 115.6 against 180.6 us, cuBLAS 94.9; 14336 x 16 x 4093
  // NN 61.3 against 87.3, cuBLAS 109.4), and with a readable one, 4-16 rows, at least 1024 columns
  // and NT (oriented; TT and fewer columns were not measured) all 76 measured shapes 1.01-1.43x
  // faster than auto's `wgmma_rs` tiles (1.184x; m = 4, 8, 12, 16, n = 1024-14336,
  // k = 2048-8192, and 4096 and 11008 x 8 and 16 x 4096; 0.86x -> 1.01x cuBLAS; 12 x 8192 x 8192 NT
  // 68.2 against 82.4 us). With a k-contiguous long operand (NN) it won or lost by shape
  // (0.85-1.37x against `.ldg4`), and with 20 and 28 readable rows in NT it lost to `wgmma_rs`.
  if (element_bytes == 4) {
    constexpr std::int64_t kMostReadableRows = 16, kFewestReadableColumns = 1024;
    if (!readable.long_operand || p.opb != Op::T) return false;
    if (!readable.short_operand) return p.m <= kMostRows;
    return p.opa == Op::N && p.m <= kMostReadableRows && p.n >= kFewestReadableColumns;
  }
  if (readable.short_operand || !readable.long_operand || p.m > kMostRows) return false;
  const bool sixteen_row_tiles = p.m <= 16 || (p.n <= kMostColumnsForTwoTiles && p.k <= kLongestKForTwoTiles);
  return (bm == 16) == sixteen_row_tiles;
}
// Where the copy still pays: 25-32 rows (oriented) against a long operand of more than 4096 x
// 8192 elements, read by 2-byte loads (odd lda or m). There the 32-row `.repack` entry (short
// operand copied aligned, then the `.clusterk` tile on 16-byte copies alone) ran 19 of 20
// measured shapes 1-23% faster than `.ldgshort` with 2-byte loads and lost one by 0.7% (bf16
// and fp16 NN, NT and TT, m = 25, 28 and 30, n = 6144-11008, k = 3072-8192; 25 x 11008 x 8192 NT
// 62.2 against 72.1 us, cuBLAS 128.0): each thread loads 25-32 elements of the short operand per
// k-tile, and at these sizes those loads, not the copy's launch, set the pace. At exactly 4096 x
// 8192 elements the two split 5 to 5, below it `.ldgshort` won 65 of 70. With 4- and 8-byte
// loads (m = 30 and 28) `.ldgshort` won 18 of 20 of the large shapes (28 x 8192 x 8192 NN 45.3
// against 47.8 us) and lost two by at most 2.5%; with fewer rows it won at every size (20 x 8192
// x 8192 NN 48.2 against 56.7 with 2-byte loads).
inline bool skinny_mma_repack_takes(const GemmProblem& caller, int bm, int element_bytes) {
  constexpr std::int64_t kFewestRows = 25, kMostRows = 32;
  const GemmProblem p = skinny_orientation(caller);
  const SkinnyOperandsReadable readable = skinny_operands_readable(p, element_bytes);
  return bm == 32 && !readable.short_operand && readable.long_operand && p.m >= kFewestRows && p.m <= kMostRows &&
         double(p.n) * double(p.k) > 4096.0 * 8192.0 && short_operand_elements_per_load(p, p.opa == Op::T) == 1;
}

// An entry of configuration kCfg; with repack_unaligned, operands the 16-byte copies cannot
// read are first copied into an aligned workspace (the `.repack` entries, same kernels).
template <TilemmSkinnyMmaConfig kCfg>
KernelEntry make_skinny_mma_entry(bool repack_unaligned = false) {
  KernelEntry e;
  e.name = skinny_mma_name<kCfg>() + (repack_unaligned ? ".repack" : "");
  e.family = "skinny_mma";
  e.ladder_step = 29;
  e.summary = std::string("mma.sync tensor cores (") + MmaInputTraits<kCfg.input>::kName + ") on all " +
              std::to_string(kCfg.bm) + " rows of a narrow column tile, the long operand streamed once " +
              (kCfg.async_copies() ? "through a " + std::to_string(kCfg.stages) + "-stage cp.async ring"
                                   : std::string("by element loads staged in registers (any leading dimension)")) +
              (kCfg.short_by_elements() ? ", the short operand by element loads held in registers as far ahead "
                                        "(any leading dimension)"
                                      : "") +
              (kCfg.cluster_k ? ", k split across the CTAs of a cluster and summed through distributed shared memory"
                              : ", k split across blocks") +
              " (few rows or, transposed, few columns)" +
              (repack_unaligned ? "; operands the 16-byte copies cannot read are first copied aligned" : "");
  e.dtypes = MmaInputTraits<kCfg.input>::kName;
  constexpr int kComputeCapability = kCfg.cluster_k ? 90 : 80;
  e.min_compute_capability = kComputeCapability;
  const bool reads_16_bytes = kCfg.async_copies() && !repack_unaligned && !kCfg.short_by_elements();
  const std::string chunk_rule = "16-byte aligned, its ld a multiple of " +
                                 std::to_string(kCfg.tile().chunk_elements()) + " elements";
  const std::string operands =
      reads_16_bytes ? "A and B " + chunk_rule
                     : std::string("A, B, C aligned to their element size") +
                           (repack_unaligned ? " (copied into a stream-ordered workspace where not 16-byte aligned)"
                            : kCfg.short_by_elements()
                                ? "; the long operand (B, or A when n < m) " + chunk_rule
                                : "");
  e.requirements = std::string(kCfg.cluster_k ? "compute capability 9.0 (clusters); " : "compute capability 8.0; ") +
                   operands + "; batchCount = 1; " +
                   (kCfg.cluster_k ? "at most 8 k-slices, one cluster per tile, summed without a workspace"
                                   : "a workspace of slices * m * n floats when k is split (stream-ordered)");
  e.arithmetic_intensity =
      double(kCfg.bm) * kCfg.bn / (double(kCfg.bm + kCfg.bn) * kCfg.tile().element_bytes() / 2.0);
  e.auto_eligible = true;
  // Above every wgmma entry (at most 2400) where it takes the product, else never chosen;
  // `.clusterk` above the plain entry, `.ldgshort` (unreadable short operand) above `.ldg`,
  // and `.repack` above `.ldgshort` where the copy still pays.
  e.auto_priority = 0;
  e.auto_score = [repack_unaligned](const GemmProblem& caller, const DeviceInfo& dev) {
    if (repack_unaligned) return skinny_mma_repack_takes(caller, kCfg.bm, kCfg.tile().element_bytes()) ? 2456.0 : 0.0;
    if constexpr (kCfg.short_by_elements()) {
      return skinny_mma_short_by_elements_takes(caller, kCfg.bm, kCfg.tile().element_bytes()) ? 2455.0 : 0.0;
    }
    if constexpr (kCfg.cluster_k && !kCfg.async_copies()) {
      const int eb = kCfg.tile().element_bytes();
      const bool takes = skinny_mma_any_ld_cluster_k_takes(caller, kCfg.bm, kCfg.bn, kCfg.bk, eb, dev.sm_count) ||
                         skinny_mma_readable_tf32_vector_takes(caller, kCfg.bm, eb);
      return takes ? 2451.0 : 0.0;
    }
    if constexpr (kCfg.cluster_k) {
      const bool takes = kCfg.bm == 32 ? skinny_mma_two_row_tiles_cluster_k_takes(caller)
                                       : skinny_mma_cluster_k_takes(caller, kCfg.bm);
      return takes ? 2460.0 : 0.0;
    }
    const bool takes = kCfg.async_copies() ? skinny_mma_takes(caller, kCfg.bm)
                                           : skinny_mma_takes_any_ld(skinny_orientation(caller), kCfg.bm,
                                                                     kCfg.tile().element_bytes());
    return takes ? 2450.0 : 0.0;
  };
  e.can_implement = [reads_16_bytes, chunk_rule](const GemmProblem& p, const DeviceInfo& dev) {
    std::string r = require_tensor_core_types<kCfg.input>(p);
    if (r.empty()) r = require_compute_capability(dev, kComputeCapability);
    constexpr std::int64_t smem = skinny_mma_smem_bytes<kCfg>();
    if (r.empty() && smem > dev.smem_per_block_optin) {
      r = "needs " + std::to_string(smem) + " bytes of shared memory per block, device allows " +
          std::to_string(dev.smem_per_block_optin);
    }
    const int eb = kCfg.tile().element_bytes();
    const std::string rule = " a multiple of " + std::to_string(kCfg.tile().chunk_elements()) + " elements";
    if (reads_16_bytes) {
      if (r.empty() && !columns_aligned16(p.A, p.lda, p.stride_a, p.batch, eb)) {
        r = "A must be 16-byte aligned with lda" + rule;
      }
      if (r.empty() && !columns_aligned16(p.B, p.ldb, p.stride_b, p.batch, eb)) {
        r = "B must be 16-byte aligned with ldb" + rule;
      }
    } else if (r.empty() && (!aligned_to(p.A, eb) || !aligned_to(p.B, eb))) {
      r = "A and B must be aligned to their element size";
    }
    if (kCfg.short_by_elements() && r.empty() &&
        !skinny_operands_readable(skinny_orientation(p), eb).long_operand) {
      r = std::string("the long operand (") + (p.n < p.m ? "A" : "B") + ") must be " + chunk_rule;
    }
    if (r.empty() && !aligned_to(p.C, dtype_size(p.c_type))) r = "C must be aligned to its element size";
    if (r.empty() && p.batch != 1) r = "split-K runs one product at a time (batchCount = 1)";
    const GemmProblem t = skinny_orientation(p);
    if (r.empty() && (t.m + kCfg.bm - 1) / kCfg.bm > 2147483647LL) r = "grid x dimension exceeded";
    if (r.empty() && (t.n + kCfg.bn - 1) / kCfg.bn > 65535) {
      r = "at most 65535 column tiles (" + std::to_string(kCfg.bn) + " columns of the longer of m and n each)";
    }
    return r;
  };
  if (repack_unaligned) {
    e.launch = [](const GemmProblem& p, cudaStream_t stream) {
      return launch_with_aligned_operands(p, kCfg.tile().element_bytes(), false, false, stream,
                                          [&](const GemmProblem& q) { return launch_skinny_mma<kCfg>(q, stream); });
    };
  } else {
    e.launch = launch_skinny_mma<kCfg>;
  }
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&skinny_mma_gemm<kCfg, false, false>), kCfg.threads(),
                           skinny_mma_smem_bytes<kCfg>()};
  };
  return e;
}

// {input, bm, bn, bk, warps, stages, load, min blocks per SM}: 16 rows, 4 warps of
// 16 x 16, stages of 128 elements of k (256 bytes of each column of a k-contiguous
// operand), 4 stages of 20 KB, two blocks per SM. Measured against it on the H200 (bf16,
// m = 16, same runs): 5 stages, 128-column tiles of 8 warps and 512-byte stages all within
// +-4% or slower; tf32 (64 floats per stage) lost to wgmma_rs's split-K (77 against 64 us
// at 16 x 11008 x 4096), so tf32 has only the any-ld entry, for the leading dimensions
// wgmma_rs cannot read. The `.ldg` entries keep one stage in flight per block in
// registers, so they ask for four blocks per SM (two 20 KB buffers each); tf32, whose
// staged stage is 40 registers with more address state beside it, spilled at four
// (128 registers) and asks for three.
template <TilemmMmaInput kIn>
void add_skinny_mma_configs(Registry& r) {
  constexpr auto kRegisters = TilemmMmaOperandLoad::ScalarRegisters;
  if constexpr (kIn != TilemmMmaInput::TF32) {
    constexpr TilemmSkinnyMmaConfig kClusterK16{kIn, 16, 64, 128, 4, 4, TilemmMmaOperandLoad::AsyncCopy16, 2, true};
    constexpr TilemmSkinnyMmaConfig kClusterK32{kIn, 32, 64, 128, 4, 4, TilemmMmaOperandLoad::AsyncCopy16, 2, true};
    constexpr TilemmSkinnyMmaConfig kShortByElements16{kIn, 16, 64, 128, 4, 4, TilemmMmaOperandLoad::AsyncCopy16, 2,
                                                       true, 1};
    constexpr TilemmSkinnyMmaConfig kShortByElements32{kIn, 32, 64, 128, 4, 4, TilemmMmaOperandLoad::AsyncCopy16, 2,
                                                       true, 1};
    r.add(make_skinny_mma_entry<TilemmSkinnyMmaConfig{kIn, 16, 64, 128, 4, 4, TilemmMmaOperandLoad::AsyncCopy16, 2}>());
    r.add(make_skinny_mma_entry<kClusterK16>());
    r.add(make_skinny_mma_entry<TilemmSkinnyMmaConfig{kIn, 16, 64, 128, 4, 2, kRegisters, 4}>());
    r.add(make_skinny_mma_entry<kClusterK32>());
    r.add(make_skinny_mma_entry<kClusterK16>(true));
    r.add(make_skinny_mma_entry<kClusterK32>(true));
    r.add(make_skinny_mma_entry<kShortByElements16>());
    r.add(make_skinny_mma_entry<kShortByElements32>());
    r.add(make_skinny_mma_entry<TilemmSkinnyMmaConfig{kIn, 16, 64, 128, 4, 2, kRegisters, 4, true}>());
  } else {
    r.add(make_skinny_mma_entry<TilemmSkinnyMmaConfig{kIn, 16, 64, 64, 4, 2, kRegisters, 3}>());
    r.add(make_skinny_mma_entry<TilemmSkinnyMmaConfig{kIn, 16, 64, 64, 4, 2, kRegisters, 3, true}>());
    r.add(make_skinny_mma_entry<TilemmSkinnyMmaConfig{kIn, 16, 64, 64, 4, 4, TilemmMmaOperandLoad::AsyncCopy16, 2,
                                                      true, 1}>());
  }
}

}  // namespace tilemm::kernels

namespace tilemm {

void register_skinny_mma(Registry& r) {
  using namespace kernels;
  add_skinny_mma_configs<TilemmMmaInput::BF16>(r);
  add_skinny_mma_configs<TilemmMmaInput::F16>(r);
  add_skinny_mma_configs<TilemmMmaInput::TF32>(r);
}

}  // namespace tilemm
