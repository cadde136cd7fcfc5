// Family "mma_sync": the portable tensor-core kernel (sm_80 and newer): warp-level
// mma.sync on bf16, fp16 or tf32 operands, fed from a swizzled shared-memory ring by
// ldmatrix, with fp32 accumulation.
//
// Idea: a tensor core multiplies a 16 x 16 (16-bit) or 16 x 8 (tf32) tile of A by a
// 16 x 8 or 8 x 8 tile of B in one warp instruction (mma.sync.m16n8k16 / m16n8k8):
// 4096 or 2048 FLOP where an FFMA does 64 per warp. The FP32 ladder's problem, feeding
// the arithmetic, becomes the whole problem: a warp's 64 x 64 tile needs, per 16-wide
// k-step, 4 A fragments and 8 B fragments (8 ldmatrix.x4, 4 KB) for 32 mma.sync.
//   - Global -> shared: a `stages`-deep ring of cp.async 16-byte copies (as in
//     cp_async.cu), borders zero-filled by the copies' src-size.
//   - Shared -> registers: ldmatrix.x4 gives each lane its fragment of four 8 x 8
//     matrices in one instruction. Shared memory keeps each operand in its storage
//     order (cp.async cannot transpose), as rows of 16-byte chunks:
//       k-contiguous (op(A) = A^T, op(B) = B):   rows = x (m or n), chunks along k;
//                                                 ldmatrix reads the fragments as is.
//       x-contiguous (op(A) = A,   op(B) = B^T): rows = k, chunks along x; 16-bit
//                                                 operands use ldmatrix.trans. tf32
//                                                 cannot be transposed by a 16-bit
//                                                 ldmatrix, so it uses 4-byte LDS.
//     Rows are 64 (k-contiguous) or 128-512 bytes (x-contiguous) long, so the 8 rows of
//     one 8 x 8 matrix would sit in the same banks; chunk c of row r is stored at chunk
//     c ^ f(r) of its row (an XOR swizzle, no padding), with f chosen so the 8 rows
//     that one ldmatrix phase reads hit 8 different 16-byte bank groups:
//       rows of >= 8 chunks: f(r) = r mod 8; rows of 4 chunks: f(r) = (r / 2) mod 4.
//     tf32 x-contiguous rows, read by 4-byte LDS at rows t and columns g (lane =
//     4g + t), are padded by 32 bytes instead, which puts the 4 rows' 8-column runs in
//     4 disjoint 8-bank groups and keeps every read address a constant offset from the
//     lane's first one (an XOR there would cost a register per fragment).
//   - Epilogue: each lane's accumulators are pairs of columns of 8-row runs; they are
//     stored directly, predicated, with alpha/beta in fp32 (beta == 0 never reads C) and
//     round-to-nearest into 16-bit C.
// tf32: the fp32 data are rounded to tf32 (cvt.rna) as the fragments are read.
//
// Data per block and k-tile: (BM + BN) * BK elements for 2 * BM * BN * BK FLOP:
// intensity BM * BN / ((BM + BN) * element bytes / 2) FLOP/B = 64 for 128 x 128 with
// 2-byte elements (85 for 128 x 256), half that for tf32.
//
// Two ways in from global memory:
//   `.cp16`  cp.async 16-byte copies; A and B 16-byte aligned with lda, ldb (and batch
//            strides) multiples of 8 elements (4 for tf32).
//   `.ldg2` / `.ldg4`  any leading dimension (lda = 4093): a 16-bit row that starts at
//            an odd element cannot be copied in 4-byte pieces, so each thread loads its
//            chunks element by element (predicated scalar loads, zeros outside) into
//            registers, packs them and stores one 16-byte chunk into the same swizzled
//            layout. The loads of tile k+1 are issued before the tensor cores work on
//            tile k and stored after, so two shared buffers suffice and the load latency
//            hides behind one k-tile of mma.sync. Chosen over repacking the operands
//            into an aligned workspace because it needs no workspace (the handle owns
//            none) and no extra pass over A and B; it costs 8 (4) load instructions
//            per 16 bytes, which the L1 coalesces. tf32 rows could be copied by 4-byte
//            cp.async; they take the same path so that one technique covers both.
//   `.ahead` the same element loads for small products (100^3, k < 256), whose time is the
//            loads' latency, not the tensor cores': one tile ahead, 128 x 128 walks k one
//            DRAM round trip (~0.9 us) per 32-element k-tile on one block. This 64 x 64 tile
//            holds 4 k-tiles' loads in registers ahead (mma_ring_main_loop_by_elements), so
//            k <= 128 is in flight at once, and makes 4x the blocks. Where both operands'
//            pieces of 4 (2) elements are aligned and whole (lda = 100), the launcher runs it
//            with 8-byte (4-byte) loads: 2 (4) instructions per chunk instead of 8.
//   `.ahead.clusterk` (sm_90) the same tile for k past a round trip and a half on few
//            tiles (bf16 127^2 x 1023, tf32 383^3): k is cut into one slice per 128 (one
//            round trip each, at most 8; fewer, each walking several trips, where one wave
//            holds fewer CTAs per tile), the slices of a tile are the CTAs of one cluster
//            along grid z, and each CTA's share of the tile's fp32 sums reaches it from its
//            peers by bulk copies between their shared memories (mma_sum_cluster_slices,
//            shared with skinny_mma): one launch, no workspace. With the sums pulled by
//            loads of the peers' shared memory the cluster cost ~1 us over `.ahead` (bf16
//            255^3 10.7 against 10.0 us); pushed by the copy engine it runs tf32 255^3 in
//            9.9-10.1 against `.ahead`'s 10.9-11.0, so auto takes it from k = 193
//            (ahead_cluster_k_from; 16-bit operands on 8-byte loads from 257), also where
//            a slice walks up to 3-4 trips (ahead_cluster_most_trips_per_slice).
// Requirements: compute capability 8.0 (cp.async, ldmatrix, bf16/tf32 mma); A, B, C
// aligned to their element size; shared memory per block as the configuration needs.
// Any m, n, k, op, batch.
// Next step: Hopper's wgmma with TMA-loaded operands, which reads B (and A) straight
// from shared memory and doubles the tensor-core rate mma.sync can reach on sm_90.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "kernels/ahead_policy.hpp"
#include "kernels/gemm_common.cuh"
#include "kernels/mma_sync_layout.cuh"
#include "kernels/mma_sync_tiles.cuh"
#include "kernels/repack.hpp"
#include "kernels/split_k_reduce.hpp"
#include "registry/families.hpp"
#include "registry/registry.hpp"

namespace tilemm::kernels {

template <TilemmMmaSyncConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.threads(), kCfg.min_blocks_per_sm) mma_sync_gemm(MmaSyncParams p) {
  static_assert(kCfg.valid());
  using Traits = MmaInputTraits<kCfg.input>;
  using T = typename Traits::Element;
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk, S = kCfg.stages;
  constexpr bool kAKContig = kTransA;   // A^T: element (m, k) at k + m * lda
  constexpr bool kBKContig = !kTransB;  // B:   element (k, n) at k + n * ldb
  using LA = MmaTileLayout<kCfg, BM, kAKContig>;
  using LB = MmaTileLayout<kCfg, BN, kBKContig>;
  using FA = MmaFragmentAddress<kCfg, true, kAKContig>;
  using FB = MmaFragmentAddress<kCfg, false, kBKContig>;
  static_assert(FA::consistent() && FB::consistent(), "fragment address shortcut disagrees with the layout");
  static_assert(FA::conflict_free() && FB::conflict_free(), "fragment reads would conflict in shared-memory banks");
  constexpr int kStageBytes = LA::kBytes + LB::kBytes;
  static_assert(LA::kBytes % 128 == 0 && LB::kBytes % 128 == 0);
  static_assert(S * std::int64_t(kStageBytes) <= kCfg.ring_bytes());
  extern __shared__ uint4 mma_sync_smem[];  // uint4: 16-byte alignment for the chunks
  char* const smem = reinterpret_cast<char*>(mma_sync_smem);
  const auto stage_a = [&](int s) { return smem + s * kStageBytes; };
  const auto stage_b = [&](int s) { return smem + s * kStageBytes + LA::kBytes; };

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_m0 = (warp % kCfg.warps_m) * kCfg.warp_tile_m();
  const int warp_n0 = (warp / kCfg.warps_m) * kCfg.warp_tile_n();
  const int a_off = FA::lane_offset(lane, warp_m0);
  const int b_off = FB::lane_offset(lane, warp_n0);
  const std::int64_t m0 = std::int64_t(blockIdx.x) * BM;
  const std::int64_t col_tiles = (p.n + BN - 1) / BN;
  // `.clusterk`: the CTAs of a cluster along z are one tile's k-slices (rank = slice), each
  // ceil(k-tiles / slices) k-tiles long (split_k_slice_length, as the launcher counts them)
  // and read through operands that start at the slice's first k, a multiple of BK, so that
  // wider element loads stay aligned. Grid z is the batch times the slices. Without clusters
  // (the sm_80 build, which can_implement never lets run) the whole k is one slice.
  std::int64_t k0 = 0, k_len = p.k;
  int slices = 1;
  if constexpr (kCfg.cluster_k) {
#if __CUDA_ARCH__ >= 900
    slices = int(ptx::cluster_nctarank());
    const std::int64_t slice_length = ((p.k + BK - 1) / BK + slices - 1) / slices * BK;
    k0 = std::int64_t(ptx::cluster_ctarank()) * slice_length;
    k_len = std::max<std::int64_t>(0, std::min(slice_length, p.k - k0));
#endif
  }
  // `.clusterk`: the slices meet past the ring (mma_sum_cluster_slices); how many sums this
  // CTA has done gives its mbarrier's phase.
  [[maybe_unused]] unsigned sums_done = 0;
  if constexpr (kCfg.cluster_k) {
    if (slices > 1) mma_cluster_sum_init<kCfg, kAheadMostSlices>(smem + kCfg.ring_bytes());
  }
  const std::int64_t k_tiles = (k_len + BK - 1) / BK;

  for (std::int64_t b = blockIdx.z / slices; b < p.batch; b += gridDim.z / slices) {
    const T* const A = static_cast<const T*>(p.A) + b * p.stride_a + (kAKContig ? k0 : k0 * p.lda);
    const T* const B = static_cast<const T*>(p.B) + b * p.stride_b + (kBKContig ? k0 : k0 * p.ldb);
    const MmaOperandCopier<kCfg, BM, kAKContig, T> copy_a(p.lda, p.m, k_len, m0, tid);
    for (std::int64_t ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const std::int64_t n0 = ct * BN;
      const MmaOperandCopier<kCfg, BN, kBKContig, T> copy_b(p.ldb, p.n, k_len, n0, tid);
      float acc[kCfg.m_tiles()][kCfg.n_tiles()][4] = {};

      if constexpr (kCfg.load == TilemmMmaOperandLoad::AsyncCopy16) {
        // Drained at the end, so the next column tile's prologue may refill the buffers.
        mma_ring_main_loop<kCfg, kAKContig, kBKContig>(copy_a, copy_b, A, p.lda, B, p.ldb, k_tiles, stage_a, stage_b,
                                                       a_off, b_off, acc);
      } else if constexpr (kCfg.load == TilemmMmaOperandLoad::RegistersAhead) {
        mma_ring_main_loop_by_elements<kCfg, kAKContig, kBKContig, kCfg.elements_per_load, kCfg.elements_per_load>(
            copy_a, copy_b, A, p.lda, B, p.ldb, k_tiles, stage_a, stage_b, a_off, b_off, acc);
      } else {
        mma_register_main_loop<kCfg, kAKContig, kBKContig>(copy_a, copy_b, A, p.lda, B, p.ldb, k_tiles, stage_a,
                                                           stage_b, a_off, b_off, acc);
      }

      if constexpr (kCfg.cluster_k) {
        if (slices > 1) {
          const unsigned parity = sums_done++ % 2;
          if (p.c_is_fp32) {
            mma_sum_cluster_slices<kCfg, kAheadMostSlices>(p, static_cast<float*>(p.C) + b * p.stride_c, smem,
                                                           smem + kCfg.ring_bytes(), parity, acc, m0, n0, warp_m0,
                                                           warp_n0, lane, slices, false);
          } else if constexpr (!std::is_same_v<T, float>) {
            mma_sum_cluster_slices<kCfg, kAheadMostSlices>(p, static_cast<T*>(p.C) + b * p.stride_c, smem,
                                                           smem + kCfg.ring_bytes(), parity, acc, m0, n0, warp_m0,
                                                           warp_n0, lane, slices, false);
          }
          continue;
        }
      }
      if constexpr (kCfg.smem_store) {
        float* const staged = reinterpret_cast<float*>(smem);
        if (p.c_is_fp32) {
          mma_store_accumulators_through_smem<kCfg>(p, static_cast<float*>(p.C) + b * p.stride_c, m0, n0, warp_m0,
                                                    warp_n0, tid, staged, acc);
        } else if constexpr (!std::is_same_v<T, float>) {
          mma_store_accumulators_through_smem<kCfg>(p, static_cast<T*>(p.C) + b * p.stride_c, m0, n0, warp_m0,
                                                    warp_n0, tid, staged, acc);
        }
        continue;
      }
      const std::int64_t row0 = m0 + warp_m0, col0 = n0 + warp_n0;
      if (p.c_is_fp32) {
        mma_store_accumulators<kCfg>(p, static_cast<float*>(p.C) + b * p.stride_c, row0, col0, lane, acc, 1,
                                     p.ldc);
      } else if constexpr (!std::is_same_v<T, float>) {
        mma_store_accumulators<kCfg>(p, static_cast<T*>(p.C) + b * p.stride_c, row0, col0, lane, acc, 1,
                                     p.ldc);
      }
    }
  }
}

// slices > 1 (`.clusterk`): grid z holds each tile's k-slices as one cluster.
template <TilemmMmaSyncConfig kCfg, bool kTA, bool kTB>
cudaError_t launch_mma_sync_kernel(const dim3& grid, int slices, const MmaSyncParams& params, cudaStream_t stream) {
  const auto kernel = mma_sync_gemm<kCfg, kTA, kTB>;
  constexpr std::int64_t smem = kCfg.smem_bytes();
  // Above 48 KB a kernel must opt in to its dynamic shared memory, once per kernel.
  static std::once_flag opted_in;
  static cudaError_t opt_in_error = cudaSuccess;
  std::call_once(opted_in, [&] {
    opt_in_error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  });
  if (opt_in_error != cudaSuccess) return opt_in_error;
  if constexpr (kCfg.cluster_k) {
    cudaLaunchAttribute cluster{};
    const cudaLaunchConfig_t config =
        launch_config_in_clusters_along_z(grid, kCfg.threads(), smem, slices, &cluster, stream);
    return cudaLaunchKernelEx(&config, kernel, params);
  } else {
    kernel<<<grid, kCfg.threads(), smem, stream>>>(params);
    return cudaGetLastError();
  }
}

template <TilemmMmaSyncConfig kCfg>
int mma_sync_blocks_per_sm();

// `.clusterk`'s k-slices per tile: one per round trip of the loads held ahead (stages - 1
// k-tiles), at most 8, no more than keep every CTA of the launch resident at once (one wave;
// ahead_cluster_slices, which auto's rule counts too), and fewer where the GPU cannot hold a
// cluster per tile at once; then as many as slices of split_k_slice_length's length make.
template <TilemmMmaSyncConfig kCfg>
int mma_sync_cluster_slices(const GemmProblem& p) {
  constexpr int kMostSlices = kAheadMostSlices;
  static_assert((kCfg.stages - 1) * kCfg.bk == kAheadKPerTrip, "auto's rule counts the trips this launch cuts k into");
  const std::int64_t tiles = std::int64_t(ceil_div_u(p.m, kCfg.bm)) * ceil_div_u(p.n, kCfg.bn) * p.batch;
  const std::int64_t wave = std::int64_t(device_sm_count()) * mma_sync_blocks_per_sm<kCfg>();
  int slices = int(ahead_cluster_slices(p.k, tiles, wave));
  constexpr auto kKernel = mma_sync_gemm<kCfg, false, false>;
  while (slices > 1 && tiles > resident_clusters_along_z<kKernel, kMostSlices>(slices, kCfg.threads(),
                                                                                kCfg.smem_bytes())) {
    --slices;
  }
  const std::int64_t length = split_k_slice_length(p.k, slices, kCfg.bk);
  return int((p.k + length - 1) / length);
}

template <TilemmMmaSyncConfig kCfg>
consteval TilemmMmaSyncConfig with_elements_per_load(int elements) {
  TilemmMmaSyncConfig c = kCfg;
  c.elements_per_load = elements;
  return c;
}

template <TilemmMmaSyncConfig kCfg>
cudaError_t launch_mma_sync(const GemmProblem& prob, cudaStream_t stream) {
  const MmaSyncParams params = make_mma_sync_params(prob);
  const std::int64_t blocks_y = std::min<std::int64_t>((prob.n + kCfg.bn - 1) / kCfg.bn, 65535);
  int slices = 1;
  if constexpr (kCfg.cluster_k) slices = mma_sync_cluster_slices<kCfg>(prob);
  const std::int64_t batch_z = std::min<std::int64_t>(prob.batch, kMaxGridZ / slices);
  const dim3 grid(ceil_div_u(prob.m, kCfg.bm), static_cast<unsigned>(blocks_y),
                  static_cast<unsigned>(batch_z * slices));
  return dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    if constexpr ((kCfg.load == TilemmMmaOperandLoad::RegistersAhead || kCfg.smem_store) &&
                  kCfg.element_bytes() == 2) {
      // The registered tile loads one element at a time; where every 4 (2) element piece of
      // both operands' chunks is aligned and whole, the same tile with 8-byte (4-byte) loads.
      const int elements = operands_elements_per_load(prob);
      if (elements == 4) {
        return launch_mma_sync_kernel<with_elements_per_load<kCfg>(4), kTA, kTB>(grid, slices, params, stream);
      }
      if (elements == 2) {
        return launch_mma_sync_kernel<with_elements_per_load<kCfg>(2), kTA, kTB>(grid, slices, params, stream);
      }
    }
    return launch_mma_sync_kernel<kCfg, kTA, kTB>(grid, slices, params, stream);
  });
}

// Without a device (auto's scores in the CPU tests), the occupancy __launch_bounds__ asks
// ptxas for, which the H100 and H200 give (tf32 128 x 128: 238 registers, two blocks).
template <TilemmMmaSyncConfig kCfg>
int mma_sync_blocks_per_sm() {
  static const int blocks = resident_blocks_per_sm(reinterpret_cast<const void*>(&mma_sync_gemm<kCfg, false, false>),
                                                   kCfg.threads(), kCfg.smem_bytes(), kCfg.min_blocks_per_sm);
  return blocks;
}

template <TilemmMmaSyncConfig kCfg>
std::string mma_sync_name() {
  const bool async = kCfg.load == TilemmMmaOperandLoad::AsyncCopy16;
  return std::string("mma_sync.") + MmaInputTraits<kCfg.input>::kName + "." + std::to_string(kCfg.bm) + "x" +
         std::to_string(kCfg.bn) + "x" + std::to_string(kCfg.bk) + ".w" + std::to_string(kCfg.warp_tile_m()) +
         "x" + std::to_string(kCfg.warp_tile_n()) + ".s" + std::to_string(kCfg.stages) +
         (async ? ".cp16" : (kCfg.element_bytes() == 2 ? ".ldg2" : ".ldg4")) +
         (kCfg.load == TilemmMmaOperandLoad::RegistersAhead ? ".ahead" : "") + (kCfg.cluster_k ? ".clusterk" : "") +
         (kCfg.smem_store ? ".smemstore" : "");
}

template <TilemmMmaSyncConfig kCfg>
std::string mma_sync_can_implement(const GemmProblem& p, const DeviceInfo& dev) {
  std::string r = require_tensor_core_types<kCfg.input>(p);
  if (r.empty()) r = require_compute_capability(dev, kCfg.cluster_k ? 90 : 80);
  if (!r.empty()) return r;
  if (kCfg.smem_bytes() > dev.smem_per_block_optin) {
    return "needs " + std::to_string(kCfg.smem_bytes()) + " bytes of shared memory per block, device allows " +
           std::to_string(dev.smem_per_block_optin);
  }
  const std::int64_t eb = kCfg.element_bytes();
  const std::int64_t c_bytes = dtype_size(p.c_type);
  if (!aligned_to(p.A, eb) || !aligned_to(p.B, eb) || !aligned_to(p.C, c_bytes)) {
    return "A, B and C must be aligned to their element size";
  }
  if constexpr (kCfg.load == TilemmMmaOperandLoad::AsyncCopy16) {
    // Every chunk starts at a multiple of chunk_elements along the contiguous direction
    // of its row, so it is 16-byte aligned when the base, ld and strides are.
    const std::string rule =
        " (and the batch stride) a multiple of " + std::to_string(kCfg.chunk_elements()) + " elements";
    if (!columns_aligned16(p.A, p.lda, p.stride_a, p.batch, eb)) return "A must be 16-byte aligned with lda" + rule;
    if (!columns_aligned16(p.B, p.ldb, p.stride_b, p.batch, eb)) return "B must be 16-byte aligned with ldb" + rule;
  }
  if ((p.m + kCfg.bm - 1) / kCfg.bm > 2147483647LL) return "grid x dimension exceeded";
  return {};
}

// relative_speed: the configuration's speed on problems that fill the GPU, relative to
// the best one of its input type (a prior until `tilemm-bench --tune` measures it).
template <TilemmMmaSyncConfig kCfg>
KernelEntry make_mma_sync_entry(double relative_speed) {
  constexpr bool kAsync = kCfg.load == TilemmMmaOperandLoad::AsyncCopy16;
  KernelEntry e;
  e.name = mma_sync_name<kCfg>();
  e.family = "mma_sync";
  e.ladder_step = 20;
  constexpr bool kAhead = kCfg.load == TilemmMmaOperandLoad::RegistersAhead;
  e.summary = std::string("mma.sync tensor cores (") + MmaInputTraits<kCfg.input>::kName + "), ldmatrix from " +
              (kAsync  ? std::to_string(kCfg.stages) + "-stage swizzled cp.async ring"
               : kAhead ? "swizzled buffers filled by element loads held " + std::to_string(kCfg.stages - 1) +
                             " k-tiles ahead (any leading dimension; small products)"
                        : std::string("swizzled buffers filled by scalar loads (any leading dimension)")) +
              (kCfg.cluster_k ? ", k split across the CTAs of a cluster and summed through distributed shared memory"
                              : "") +
              (kCfg.smem_store ? ", C stored through shared memory as whole columns (short k)" : "");
  e.dtypes = MmaInputTraits<kCfg.input>::kName;
  e.min_compute_capability = kCfg.cluster_k ? 90 : 80;
  const std::string ce = std::to_string(kCfg.chunk_elements());
  e.requirements = kAsync ? "compute capability 8.0; A and B 16-byte aligned, lda/ldb (and batch strides) "
                            "multiples of " + ce + " elements"
                   : kCfg.cluster_k ? std::string("compute capability 9.0 (clusters); A, B, C aligned to their element "
                                                  "size; at most 8 k-slices, one cluster per tile, summed without a "
                                                  "workspace")
                                    : std::string("compute capability 8.0; A, B, C aligned to their element size");
  e.arithmetic_intensity = double(kCfg.bm) * kCfg.bn / (double(kCfg.bm + kCfg.bn) * kCfg.element_bytes() / 2.0);
  e.auto_eligible = true;
  // Above every CUDA-core kernel (scores <= 1100); they never compete anyway, since only
  // tensor-core kernels compute these types. Among these: the prior speed times the
  // share of the GPU the problem's tiles keep busy, and every cp.async variant above
  // every scalar-load one (2100-2200 against 2000-2100), so the scalar loads run only
  // where the alignment rules out the copies.
  // On sm_90 the wgmma families compute the same products 2.5-3x faster (H200, 4096^3 NN:
  // tf32 136 against 400 TFLOP/s, bf16 315 against 780), and their scores (2150-2400) count
  // shares of wgmma's rate; there mma_sync's speed is counted on that scale too, so that a
  // repacking or NT entry at half of wgmma's rate still outscores it (tf32 NT 512 x 8192 x
  // 1024, H200: 85.3 us here against 52.8 for wgmma_rs in place).
  // `.ahead` (auto gives it products with an operand the TMA cannot read where the copies
  // stand aside: repacking_stands_aside) outscores the other scalar-load tile where its 64 x 64
  // tiles fit in two waves (it ran every such shape measured faster, by up to 2x at k = 255:
  // the other walks k one round trip per k-tile), below the cp.async tiles, and is scored on
  // the same scale beyond (mma_sync_layout.cuh has its prior).
  // On Hopper it takes any product with k <= 32 and more than 32 rows and columns whose
  // tiles fit in one wave (`.smemstore` outranks it where an operand is unreadable): there
  // the launch and the first loads are the product's time, and it ran 5.4-6.0 us where
  // wgmma's tiles ran 5.7-6.8 (H200, bf16 and tf32 128-704 x 128-704 x 32; docs/ladder.md,
  // "Small products by element loads held ahead"). Above every other rule (skinny_mma 2450-2460, wgmma's 32-row tiles 2465),
  // which take only products with at most 32 rows or columns.
  // `.smemstore` (64 x 128, C through shared memory, three blocks per SM) takes the products
  // with k of one k-tile (32; tf32 16) and more than 32 rows and columns where an operand is
  // one the TMA cannot read and the copies stand aside (repacking_stands_aside), past one wave
  // of `.ahead` tiles: their time is C's stores, which the other element-load tiles make 16
  // bytes of a column at a time from one block per SM (docs/ladder.md, "Short k: C through
  // shared memory"). It has no other score.
  const double base = kAsync ? 2100.0 : 2000.0;
  e.auto_priority = int(base);
  e.auto_score = [relative_speed, base](const GemmProblem& p, const DeviceInfo& dev) {
    const std::int64_t tiles = ((p.m + kCfg.bm - 1) / kCfg.bm) * ((p.n + kCfg.bn - 1) / kCfg.bn) * p.batch;
    const std::int64_t wave = std::int64_t(dev.sm_count) * mma_sync_blocks_per_sm<kCfg>();
    if constexpr (kCfg.smem_store) {
      // Above `.ahead`'s short-k rule (2470) and the copies (see above).
      constexpr double kTakesShortK = 2471.0;
      const int eb = kCfg.element_bytes();
      return dev.compute_capability() == 90 && p.k <= kCfg.bk && std::min(p.m, p.n) > 32 &&
                     !tma_reads_operands_in_place(p, eb) && repacking_stands_aside(p, eb, dev) &&
                     ahead_tiles(p.m, p.n, p.batch) > dev.sm_count
                 ? kTakesShortK
                 : 0.0;
    } else if constexpr (kCfg.cluster_k) {
      // k past a round trip and a half, at most 3-4 round trips a slice, all in one wave
      // (ahead_cluster_k_takes, where repacking_stands_aside leaves such products to it): just
      // above `.ahead`, which it outruns there.
      constexpr double kSplitsLongK = 2099.5;
      return dev.compute_capability() == 90 && ahead_cluster_k_takes(p, kCfg.element_bytes(), dev.sm_count)
                 ? kSplitsLongK
                 : 0.0;
    } else if constexpr (kCfg.load == TilemmMmaOperandLoad::RegistersAhead) {
      constexpr double kTakesShortK = 2470.0, kWithinTwoWaves = 2099.0;
      if (dev.compute_capability() == 90 && p.k <= 32 && std::min(p.m, p.n) > 32 && tiles <= wave) {
        return kTakesShortK;
      }
      if (tiles <= 2 * wave) return kWithinTwoWaves;
    }
    constexpr double kShareOfWgmmaRate = kCfg.input == TilemmMmaInput::TF32 ? 0.34 : 0.40;
    const double rate = dev.compute_capability() == 90 ? kShareOfWgmmaRate : 1.0;
    const double eff = wave_efficiency(tiles, wave);
    return base + 100.0 * rate * relative_speed * eff;
  };
  e.can_implement = mma_sync_can_implement<kCfg>;
  e.launch = launch_mma_sync<kCfg>;
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&mma_sync_gemm<kCfg, false, false>), kCfg.threads(),
                           kCfg.smem_bytes()};
  };
  return e;
}

// Registers the configurations of one input type (mma_sync_layout.cuh has the table).
template <TilemmMmaInput kIn>
void add_mma_sync_configs(Registry& r) {
  using Table = MmaSyncConfigTable<kIn>;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (r.add(make_mma_sync_entry<Table::configs[I]>(Table::relative_speed[I])), ...);
  }(std::make_index_sequence<Table::kCount>{});
}

}  // namespace tilemm::kernels

namespace tilemm {

void register_mma_sync(Registry& r) {
  using namespace kernels;
  add_mma_sync_configs<TilemmMmaInput::BF16>(r);
  add_mma_sync_configs<TilemmMmaInput::F16>(r);
  add_mma_sync_configs<TilemmMmaInput::TF32>(r);
}

}  // namespace tilemm
