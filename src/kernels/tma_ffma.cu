// Family "tma_ffma": FP32 on the CUDA cores (FFMA, no tensor cores) fed by the TMA, with
// the copies taken out of the computing warps altogether. Hopper only (compute capability
// 9.0: cp.async.bulk.tensor, mbarrier transaction counts, setmaxnreg).
//
// Idea: double_buffer.cu (step 13) runs at 0.96-0.98x cuBLAS SGEMM on the large NN squares
// and the gap is issue efficiency (85% of cycles issue an instruction against cuBLAS's
// 90%): every warp there also loads the next k-tile, stores it to shared memory and waits
// at a __syncthreads per k-tile, and at the 128-register cap that two blocks per SM need,
// ptxas's schedule leaves dispatch stalls around those instructions. cuBLAS's own SIMT
// kernel (a 16 x 8 thread tile, one 8-warp block per SM at 254 registers) is the shape
// the ladder could not match with copying warps (step 11, "cuBLAS's SIMT structure").
// Here one producer thread issues every copy as TMA boxes into a ring of four shared
// stages, each completed on a "full" mbarrier by the copy engine's byte count and handed
// back on an "empty" mbarrier by the consumers. The eight consumer warps issue only LDS
// and FFMA: no global loads, no address arithmetic for copies, no block-wide barrier (each
// warp waits for its stage alone, so warps drift instead of meeting). With the registers
// the copies no longer need, each thread keeps a 16 x 8 tile (128 accumulators) and per k
// reads 6 LDS.128 for 128 FFMA (the 8 x 8 tile: 4 for 64).
//
// Tiles: block 256 x 128 x 32, 384 threads = a producer warpgroup (40 registers) + 8
// consumer warps (232 registers) as 4 (m) x 2 (n) warp tiles of 64 x 64; lanes 4 (m) x 8
// (n), thread tile 16 x 8. The kernel reads both operands x-contiguous, op(A) = A and
// op(B) = B^T (NT), as 32 x 32 TMA boxes that land [k][32 x] with a 128-byte swizzle (the
// 16-byte chunk c of 128-byte row r sits at chunk c ^ (r % 8)):
//   A: 8 boxes of (32 m, 32 k), 32 KB   // (BK, 32) m-major
//   B: 4 boxes of (32 n, 32 k), 16 KB   // (BK, 32) n-major
// A thread's m are 16 q + 4 lane_m + (0..3) in its warp tile (q = 0..3), its n 32 h +
// 4 lane_n + (0..3) (h = 0, 1): each LDS.128 reads 4 (A) or 8 (B) distinct chunks of one
// row, without conflicts and without padding.
// Other layouts: the `.repack` entry transposes op(A) = A^T or op(B) = B into NT in a
// stream-ordered workspace first (repack.hpp; NN: B, TT: A, TN: both), and copies operands
// the TMA cannot read (odd leading dimensions). Read in place, a k-contiguous operand
// would be [x][k] rows, and the 8 values a k-step needs the same word of 8 LDS.128 runs,
// 4 registers apart, in one register bank: NN ran at 0.77x cuBLAS that way (docs/ladder.md,
// step 15), and at 0.93x with the producer warps transposing each stage in shared memory.
// Data per block and k-block: (BM + BN) * BK floats by the TMA for 2 * BM * BN * BK FLOP.
// Intensity (CGMA): 2 * 256 * 128 / (4 * 384) = 42.7 FLOP/B.
// Requirements: compute capability 9.0; the plain entry NT with A and B 16-byte aligned,
// lda, ldb and batch strides multiples of 4 floats (the TMA's strides); n below 65535
// tiles. Tails need no code: the TMA fills elements past m, n and k with zeros, and the
// epilogue skips rows and columns past C.
// Next step: tensor cores (a different ladder).
#include <cuda.h>

#include <cstdint>
#include <string>

#include "kernels/fp32_tile_common.cuh"
#include "kernels/repack.hpp"
#include "kernels/wgmma_common.cuh"
#include "ptx/cp_async.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace structs for nvcc 13.
struct TilemmTmaFfmaConfig {
  int bm, bn;            // block tile (bk is one 128-byte swizzled row: 32 floats)
  int tm;                // thread tile rows (4 per quad); the thread tile has 8 columns
  int warps_m, warps_n;  // consumer warps
  int stages;

  static constexpr int kBk = 32;
  static constexpr int kTn = 8;
  static constexpr int kLanesM = 4, kLanesN = 8;
  static constexpr int kBoxBytes = 32 * 128;  // one (32 x, 32 k) box

  consteval int warp_tile_m() const { return tm * kLanesM; }
  consteval int warp_tile_n() const { return kTn * kLanesN; }
  consteval int consumer_warps() const { return warps_m * warps_n; }
  // A producer warpgroup (one thread issues the copies) and the consumer warpgroups.
  consteval int threads() const { return 128 + 32 * consumer_warps(); }
  static constexpr int kProducerRegisters = 40;
  // What setmaxnreg gives each consumer thread: what the producer warpgroup hands back
  // (consumer_registers_after_producer; asking for more hangs the block: seen with
  // producer 48 and consumers 232).
  consteval int consumer_registers() const {
    return tilemm::kernels::consumer_registers_after_producer(threads(), kProducerRegisters, 32 * consumer_warps());
  }
  consteval int a_bytes() const { return bm * kBk * 4; }
  consteval int stage_bytes() const { return (bm + bn) * kBk * 4; }
  // The ring (1024-aligned for the swizzle, so up to 1 KB is lost aligning it), then a
  // full and an empty barrier per stage.
  consteval int smem_bytes() const { return 1024 + stages * stage_bytes() + 16 * stages; }
  consteval bool valid() const {
    return tm % 4 == 0 && consumer_warps() % 4 == 0 &&
           consumer_registers() >= tilemm::kernels::launch_registers_per_thread(threads()) &&
           consumer_registers() <= 256 && bm == warps_m * warp_tile_m() &&
           bn == warps_n * warp_tile_n() && bm % 32 == 0 && bn % 32 == 0 && stages >= 2 &&
           smem_bytes() <= 227 * 1024;
  }
};

namespace tilemm::kernels {

struct TmaFfmaParams {
  std::int64_t m, n;
  float alpha, beta;
  float* C;
  std::int64_t ldc, stride_c, batch;
  int k_blocks;
  bool a_broadcast, b_broadcast;  // the operand's tensor map has one batch item (stride 0 or batch 1)
  bool c_quads;  // C 16-byte aligned with ldc (and strideC) multiples of 4: 4 rows per store
};

// C = alpha * A * B^T + beta * C: A stored m x k, B stored n x k (op(B) = T).
template <TilemmTmaFfmaConfig kCfg>
__global__ void __launch_bounds__(kCfg.threads(), 1)
    tma_ffma_gemm(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                  TmaFfmaParams p) {
  static_assert(kCfg.valid());
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int S = kCfg.stages, BM = kCfg.bm, BN = kCfg.bn, BK = TilemmTmaFfmaConfig::kBk;
  constexpr int TM = kCfg.tm, TN = TilemmTmaFfmaConfig::kTn, kBox = TilemmTmaFfmaConfig::kBoxBytes;
  extern __shared__ float4 tma_ffma_smem[];
  const unsigned raw = ptx::shared_address(tma_ffma_smem);
  const unsigned ring = (raw + 1023u) & ~1023u;
  const unsigned barriers = ring + unsigned(S * kCfg.stage_bytes());
  const auto full_bar = [&](int s) { return barriers + 8u * unsigned(s); };
  const auto empty_bar = [&](int s) { return barriers + 8u * unsigned(S + s); };
  // The consumers read the ring through the array (so the compiler emits LDS with 32-bit
  // addresses); ring_offset is where the ring starts in it.
  const int ring_offset = int(ring - raw);
  const auto lds128 = [&](int byte_offset) {
    return *reinterpret_cast<const float4*>(reinterpret_cast<const char*>(tma_ffma_smem) + byte_offset);
  };

  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  if (threadIdx.x == 0) {
    ptx::prefetch_tensormap(&map_a);
    ptx::prefetch_tensormap(&map_b);
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init_shared_b64(full_bar(s), 1);  // the producer's expect_tx arrival
      ptx::mbarrier_init_shared_b64(empty_bar(s), 32 * kCfg.consumer_warps());
    }
    ptx::fence_mbarrier_init_release_cluster();
  }
  __syncthreads();

  const int m0 = int(blockIdx.x) * BM, n0 = int(blockIdx.y) * BN;
  RingPosition<S> pos;
  if (warp < 4) {
    // Producer: one thread issues every box; the rest of the warpgroup has nothing to do.
    ptx::setmaxnreg_dec_sync_aligned_u32<TilemmTmaFfmaConfig::kProducerRegisters>();
    if (threadIdx.x != 0) return;
    for (std::int64_t b = blockIdx.z; b < p.batch; b += gridDim.z) {
      const int za = p.a_broadcast ? 0 : int(b), zb = p.b_broadcast ? 0 : int(b);
      for (int kb = 0; kb < p.k_blocks; ++kb) {
        const int k0 = kb * BK;
        const unsigned a_dst = ring + unsigned(pos.stage * kCfg.stage_bytes());
        const unsigned b_dst = a_dst + unsigned(kCfg.a_bytes());
        const unsigned full = full_bar(pos.stage);
        ptx::mbarrier_wait_parity_shared_b64(empty_bar(pos.stage), pos.phase ^ 1u);
        ptx::mbarrier_arrive_expect_tx_shared_b64(full, unsigned(kCfg.stage_bytes()));
#pragma unroll
        for (int i = 0; i < BM / 32; ++i)
          ptx::cp_async_bulk_tensor_3d_global_to_shared(a_dst + i * kBox, &map_a, m0 + 32 * i, k0, za, full);
#pragma unroll
        for (int i = 0; i < BN / 32; ++i)
          ptx::cp_async_bulk_tensor_3d_global_to_shared(b_dst + i * kBox, &map_b, n0 + 32 * i, k0, zb, full);
        pos.advance();
      }
    }
    return;
  }

  // Consumers. Row r of the thread tile is m = wm0 + 16 (r / 4) + 4 lane_m + r % 4, column
  // c is n = wn0 + 32 (c / 4) + 4 lane_n + c % 4.
  ptx::setmaxnreg_inc_sync_aligned_u32<kCfg.consumer_registers()>();
  const int cw = warp - 4;
  // Lane bits 1-2 are lane_m, bits 0, 3, 4 lane_n: lanes l and l ^ 1 read the same A
  // address and lanes l and l ^ 2 the same B address, the pairs for which shared memory
  // returns an LDS.128 in two passes instead of four (measured 0.5-0.9% faster in NN than
  // lane_m = lane % 4, where only B's reads pair; the same in NT).
  const int lane_m = (lane >> 1) & 3, lane_n = (lane & 1) | ((lane >> 3) << 1);
  const int wm0 = (cw % kCfg.warps_m) * kCfg.warp_tile_m(), wn0 = (cw / kCfg.warps_m) * kCfg.warp_tile_n();
  const auto row_of = [&](int r) { return wm0 + 16 * (r / 4) + 4 * lane_m + r % 4; };
  const auto col_of = [&](int c) { return wn0 + 32 * (c / 4) + 4 * lane_n + c % 4; };
  // The swizzled offsets, split into what varies per thread and compile-time constants.
  // A's quad q at row k sits in box wm0 / 32 + q / 2 at chunk (4 (q % 2) + lane_m) ^ (k % 8),
  // which is (lane_m ^ (k % 4)) + 4 ((q % 2) ^ (k % 8 / 4)) since lane_m < 4. B's quad h
  // at row k sits in box wn0 / 32 + h at chunk lane_n ^ (k % 8).
  const int a_thread = ring_offset + (wm0 / 32) * kBox;
  const int b_thread = ring_offset + kCfg.a_bytes() + (wn0 / 32) * kBox;
  int a_swizzle[4];
#pragma unroll
  for (int t = 0; t < 4; ++t) a_swizzle[t] = (lane_m ^ t) * 16;
  for (std::int64_t b = blockIdx.z; b < p.batch; b += gridDim.z) {
    float acc[TM][TN];
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
      for (int c = 0; c < TN; ++c) acc[r][c] = 0.0f;
    for (int kb = 0; kb < p.k_blocks; ++kb) {
      ptx::mbarrier_wait_parity_shared_b64(full_bar(pos.stage), pos.phase);
      const int a_stage = a_thread + pos.stage * kCfg.stage_bytes();
      const int b_stage = b_thread + pos.stage * kCfg.stage_bytes();
      // 8 k per iteration, so that k % 8 (the swizzle phase) is a constant; not unrolled
      // across the stage (4x the code measured 3% slower in NT).
#pragma unroll 1
      for (int k8_block = 0; k8_block < BK / 8; ++k8_block) {
#pragma unroll
        for (int k8 = 0; k8 < 8; ++k8) {
          const int a_row = a_stage + (8 * k8_block + k8) * 128;
          const int b_row = b_stage + (8 * k8_block + k8) * 128 + ((lane_n ^ k8) * 16);
          float a[TM], bk[TN];
#pragma unroll
          for (int q = 0; q < TM / 4; ++q) {
            const float4 v = lds128(a_row + (q / 2) * kBox + a_swizzle[k8 % 4] + 64 * ((q % 2) ^ (k8 / 4)));
            a[4 * q + 0] = v.x, a[4 * q + 1] = v.y, a[4 * q + 2] = v.z, a[4 * q + 3] = v.w;
          }
#pragma unroll
          for (int h = 0; h < TN / 4; ++h) {
            const float4 v = lds128(b_row + h * kBox);
            bk[4 * h + 0] = v.x, bk[4 * h + 1] = v.y, bk[4 * h + 2] = v.z, bk[4 * h + 3] = v.w;
          }
          // Serpentine: odd rows walk their columns backwards, so the first FFMA of a row
          // reads the column value the row before ended on, from the operand-reuse cache
          // (3.6% faster than every row forwards; docs/ladder.md step 15, "Register banks").
#pragma unroll
          for (int r = 0; r < TM; ++r)
#pragma unroll
            for (int j = 0; j < TN; ++j) {
              const int c = r % 2 == 1 ? TN - 1 - j : j;
              acc[r][c] = fmaf(a[r], bk[c], acc[r][c]);
            }
        }
      }
      // Every consumer thread arrives (release: its reads of the stage come first).
      ptx::mbarrier_arrive_shared_b64(empty_bar(pos.stage));
      pos.advance();
    }

    // Epilogue: 4 rows of a column per store where C allows 16-byte stores.
    float* const C = p.C + b * p.stride_c;
#pragma unroll
    for (int c = 0; c < TN; ++c) {
      const std::int64_t n = n0 + col_of(c);
      if (n >= p.n) continue;
#pragma unroll
      for (int q = 0; q < TM / 4; ++q) {
        const float quad[4] = {acc[4 * q][c], acc[4 * q + 1][c], acc[4 * q + 2][c], acc[4 * q + 3][c]};
        store_quad(C + n * p.ldc, m0 + row_of(4 * q), p.m, quad, p.alpha, p.beta, p.c_quads);
      }
    }
  }
#endif
}

// The plain entry's problems: NT with operands the TMA reads in place.
template <TilemmTmaFfmaConfig kCfg>
std::string tma_ffma_can_implement(const GemmProblem& p, const DeviceInfo& dev, bool repack) {
  std::string r = require_fp32(p);
  if (r.empty()) r = tma_requirements(p, dev, kCfg.smem_bytes(), 4, repack);
  if (!r.empty()) return r;
  if (!repack && (p.opa != Op::N || p.opb != Op::T)) {
    return "reads both operands x-contiguous: needs op(A) = N and op(B) = T (other layouts: the .repack entry)";
  }
  if ((p.n + kCfg.bn - 1) / kCfg.bn > 65535) return "n must stay below 65535 column tiles";
  return {};
}

template <TilemmTmaFfmaConfig kCfg>
cudaError_t launch_tma_ffma(const GemmProblem& prob, cudaStream_t stream) {
  constexpr int BK = TilemmTmaFfmaConfig::kBk;
  CUtensorMap map_a, map_b;
  if (!encode_operand_map(&map_a, DType::F32, prob.A, prob.m, prob.k, prob.lda, prob.batch, prob.stride_a, BK,
                          false) ||
      !encode_operand_map(&map_b, DType::F32, prob.B, prob.n, prob.k, prob.ldb, prob.batch, prob.stride_b, BK,
                          false)) {
    return cudaErrorInvalidValue;
  }
  const TmaFfmaParams params{.m = prob.m,
                             .n = prob.n,
                             .alpha = static_cast<float>(prob.alpha),
                             .beta = static_cast<float>(prob.beta),
                             .C = static_cast<float*>(prob.C),
                             .ldc = prob.ldc,
                             .stride_c = prob.stride_c,
                             .batch = prob.batch,
                             .k_blocks = int((prob.k + BK - 1) / BK),
                             .a_broadcast = prob.batch <= 1 || prob.stride_a == 0,
                             .b_broadcast = prob.batch <= 1 || prob.stride_b == 0,
                             .c_quads = columns_aligned16(prob.C, prob.ldc, prob.stride_c, prob.batch, 4)};
  const cudaError_t opted = opt_in_dynamic_smem<tma_ffma_gemm<kCfg>>(kCfg.smem_bytes());
  if (opted != cudaSuccess) return opted;
  const dim3 grid(ceil_div_u(prob.m, kCfg.bm), ceil_div_u(prob.n, kCfg.bn), grid_z_for(prob.batch));
  tma_ffma_gemm<kCfg><<<grid, kCfg.threads(), kCfg.smem_bytes(), stream>>>(map_a, map_b, params);
  return cudaGetLastError();
}

// What the `.repack` entry transposes so that the kernel reads NT: a k-contiguous op(A) = A^T
// and op(B) = B. It also copies the operands the TMA cannot read (not 16-byte aligned).
inline bool tma_ffma_transposes_a(const GemmProblem& p) { return p.opa == Op::T; }
inline bool tma_ffma_transposes_b(const GemmProblem& p) { return p.opb == Op::N; }

template <TilemmTmaFfmaConfig kCfg>
std::string tma_ffma_name(bool repack) {
  return "tma_ffma." + std::to_string(kCfg.bm) + "x" + std::to_string(kCfg.bn) + "x" +
         std::to_string(TilemmTmaFfmaConfig::kBk) + ".w" + std::to_string(kCfg.warp_tile_m()) + "x" +
         std::to_string(kCfg.warp_tile_n()) + ".t" + std::to_string(kCfg.tm) + "x" +
         std::to_string(TilemmTmaFfmaConfig::kTn) + ".s" + std::to_string(kCfg.stages) + (repack ? ".repack" : "");
}

// relative_speed: the NT kernel's, on the cp_async scale of the fp32 block-tiled kernels
// (fp32_tile_score). The `.repack` entry pays for its copies (fp32_product_share) and
// leaves the problems it would not copy to the plain entry (a 0.99 tie-break).
template <TilemmTmaFfmaConfig kCfg, bool kRepack>
KernelEntry make_tma_ffma_entry(double relative_speed) {
  KernelEntry e;
  e.name = tma_ffma_name<kCfg>(kRepack);
  e.family = "tma_ffma";
  e.ladder_step = 15;
  e.summary = std::string("FFMA consumer warps fed through an mbarrier ring by a TMA producer thread, ") +
              std::to_string(kCfg.tm) + " x 8 thread tile, one block per SM" +
              (kRepack ? ", other layouts transposed into NT and operands the TMA cannot read copied first" : "");
  e.dtypes = "fp32";
  e.min_compute_capability = 90;
  e.requirements =
      kRepack ? "compute capability 9.0; a workspace for each operand copied or transposed (stream-ordered)"
              : "compute capability 9.0; op(A) = N, op(B) = T; A and B 16-byte aligned, lda and ldb (and batch "
                "strides) multiples of 4 (TMA)";
  e.arithmetic_intensity = 2.0 * kCfg.bm * kCfg.bn / (4.0 * (kCfg.bm + kCfg.bn));
  e.auto_eligible = true;
  e.can_implement = [](const GemmProblem& p, const DeviceInfo& dev) {
    return tma_ffma_can_implement<kCfg>(p, dev, kRepack);
  };
  if constexpr (kRepack) {
    e.launch = [](const GemmProblem& p, cudaStream_t stream) {
      return launch_with_aligned_operands(p, 4, tma_ffma_transposes_a(p), tma_ffma_transposes_b(p), stream,
                                          [stream](const GemmProblem& q) { return launch_tma_ffma<kCfg>(q, stream); });
    };
  } else {
    e.launch = launch_tma_ffma<kCfg>;
  }
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&tma_ffma_gemm<kCfg>), kCfg.threads(), kCfg.smem_bytes()};
  };
  e.auto_score = [relative_speed](const GemmProblem& p, const DeviceInfo& dev) {
    // What this tile buys is a k-loop whose copies leave the computing warps. With k <= 128
    // (at most four 32-k stages) there is hardly a k-loop, and on an H100 the entry ran such
    // products 1.2-2.5x slower than the best other fp32 tile (4093^2 x 16 NN 164 us against
    // 112 for double_buffer's .ldg32, 5611 x 1408 x 7 TN 90 against 36 for cp_async's
    // 128 x 128 tile, 3682 x 4736 x 128 TT 222 against 145; docs/ladder.md, step 15): it steps
    // aside there.
    constexpr std::int64_t kShortK = 4 * TilemmTmaFfmaConfig::kBk;
    if (p.k <= kShortK) return 0.0;
    double speed = relative_speed;
    if constexpr (kRepack) {
      const AlignedOperandsPlan plan = plan_aligned_operands(p, 4, tma_ffma_transposes_a(p), tma_ffma_transposes_b(p));
      speed *= plan.repack_a || plan.repack_b ? fp32_product_share(p, plan) : 0.99;
    }
    return fp32_tile_score(p, kCfg.bm, kCfg.bn, dev.sm_count, speed, 0);
  };
  return e;
}

}  // namespace tilemm::kernels

namespace tilemm {

// {bm, bn, tm, warps_m, warps_n, stages}
void register_tma_ffma(Registry& r) {
  using namespace kernels;
  // NT ran 5.8-6.2% faster than double_buffer's `.g2` NT at 4096^3 and 8192^3 (H200,
  // docs/ladder.md step 15), whose NT scores 1.23 x 1.06.
  constexpr TilemmTmaFfmaConfig kSquare{256, 128, 16, 4, 2, 4};
  r.add(make_tma_ffma_entry<kSquare, false>(1.38));
  r.add(make_tma_ffma_entry<kSquare, true>(1.38));
}

}  // namespace tilemm
