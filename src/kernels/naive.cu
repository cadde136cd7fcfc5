// Family "naive": one thread per element of C, the first kernel of the ladder.
//
// Idea: thread (i, j) walks the k dimension, reading row i of op(A) and column j of
// op(B) straight from global memory, and writes C(i, j). No reuse is designed in: every
// multiply-add needs two 4-byte loads, so the design's intensity is 2 FLOP / 8 B =
// 0.25 FLOP/B (CGMA 1.0); whatever speed it reaches comes from the L1/L2 caches.
//
// Two entries share this file because they differ only in how threads map to outputs:
//   naive      threadIdx.x runs along the columns j of C. In column-major storage a
//              warp's 32 threads then touch 32 different columns, ldc elements apart:
//              every C store and every B load of a warp is 32 separate transactions.
//   coalesced  threadIdx.x runs along the rows i. A warp's C stores and (for op(A) = A)
//              A loads are 32 consecutive floats, one 128-byte transaction, and its B
//              load is one address broadcast to the warp.
// Requirements: none (any shape, op, leading dimension, batch).
// Next step (smem_tiled): stage tiles of A and B in shared memory so each global load
// feeds TILE multiply-adds instead of one.
#include <utility>

#include "kernels/gemm_common.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// nvcc 13 cannot name a class-type template argument of a __global__ template whose
// type lives in a namespace (the host-side launch code it generates spells the type by
// its mangled name), so kernel configurations are global-namespace structs with a
// Tilemm prefix.
enum class TilemmWarpAxis { Columns, Rows };

struct TilemmOutputMappingConfig {
  TilemmWarpAxis warp_axis;
  int block_x;  // threads along the warp axis
  int block_y;  // threads along the other axis
  consteval bool valid() const { return block_x == 32 && block_y > 0 && block_x * block_y <= 1024; }
};


namespace tilemm::kernels {

constexpr TilemmOutputMappingConfig kNaive{TilemmWarpAxis::Columns, 32, 8};
constexpr TilemmOutputMappingConfig kCoalesced{TilemmWarpAxis::Rows, 32, 8};

template <TilemmOutputMappingConfig kCfg, bool kTransA, bool kTransB>
__global__ void __launch_bounds__(kCfg.block_x * kCfg.block_y)
    one_thread_per_output(GemmParams p) {
  static_assert(kCfg.valid());
  constexpr bool kRowsAcrossWarp = kCfg.warp_axis == TilemmWarpAxis::Rows;
  const std::int64_t fast_extent = kRowsAcrossWarp ? p.m : p.n;
  const std::int64_t slow_extent = kRowsAcrossWarp ? p.n : p.m;
  const std::int64_t fast = std::int64_t(blockIdx.x) * kCfg.block_x + threadIdx.x;
  if (fast >= fast_extent) return;
  for (std::int64_t b = blockIdx.z; b < p.batch; b += gridDim.z) {
    const float* A = p.A + b * p.stride_a;
    const float* B = p.B + b * p.stride_b;
    float* C = p.C + b * p.stride_c;
    for (std::int64_t slow = std::int64_t(blockIdx.y) * kCfg.block_y + threadIdx.y;
         slow < slow_extent; slow += std::int64_t(gridDim.y) * kCfg.block_y) {
      const std::int64_t i = kRowsAcrossWarp ? fast : slow;
      const std::int64_t j = kRowsAcrossWarp ? slow : fast;
      float acc = 0.0f;
      for (std::int64_t q = 0; q < p.k; ++q) {
        acc += A[op_index<kTransA>(i, q, p.lda)] * B[op_index<kTransB>(q, j, p.ldb)];
      }
      store_alpha_beta(&C[i + j * p.ldc], acc, p.alpha, p.beta);
    }
  }
}

template <TilemmOutputMappingConfig kCfg>
cudaError_t launch_one_thread_per_output(const GemmProblem& prob, cudaStream_t stream) {
  const GemmParams params = make_params(prob);
  constexpr bool kRowsAcrossWarp = kCfg.warp_axis == TilemmWarpAxis::Rows;
  const std::int64_t fast_extent = kRowsAcrossWarp ? prob.m : prob.n;
  const std::int64_t slow_extent = kRowsAcrossWarp ? prob.n : prob.m;
  const std::int64_t blocks_y = std::min<std::int64_t>((slow_extent + kCfg.block_y - 1) / kCfg.block_y, 65535);
  const dim3 grid(ceil_div_u(fast_extent, kCfg.block_x), static_cast<unsigned>(blocks_y),
                  grid_z_for(prob.batch));
  const dim3 block(kCfg.block_x, kCfg.block_y);
  return dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    one_thread_per_output<kCfg, kTA, kTB><<<grid, block, 0, stream>>>(params);
    return cudaGetLastError();
  });
}

template <TilemmOutputMappingConfig kCfg>
KernelEntry make_one_thread_per_output_entry(const char* name, int step, const char* summary, bool auto_eligible) {
  KernelEntry e;
  e.name = name;
  e.family = "naive";
  e.ladder_step = step;
  e.summary = summary;
  e.dtypes = "fp32";
  e.min_compute_capability = 75;
  e.requirements = "none";
  e.arithmetic_intensity = 2.0 / 8.0;
  e.auto_eligible = auto_eligible;
  e.auto_priority = 0;
  e.can_implement = [](const GemmProblem& p, const DeviceInfo& dev) {
    std::string r = require_fp32(p);
    if (r.empty()) r = require_compute_capability(dev, 75);
    const std::int64_t fast = kCfg.warp_axis == TilemmWarpAxis::Rows ? p.m : p.n;
    if (r.empty() && (fast + kCfg.block_x - 1) / kCfg.block_x > 2147483647LL) r = "grid x dimension exceeded";
    return r;
  };
  e.launch = launch_one_thread_per_output<kCfg>;
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&one_thread_per_output<kCfg, false, false>),
                           kCfg.block_x * kCfg.block_y, 0};
  };
  return e;
}

}  // namespace tilemm::kernels

namespace tilemm {

// auto's last resort everywhere but on short outer products: k <= 16 and m * n <= 2^17. Such a
// product is a launch, one round trip to memory and C's stores, and one thread per output has
// no ring to fill and no shared-memory sums: on an H100 it ran them in 4.4-7.3 us, mostly well
// ahead of the tiled kernels (2 x 64 x 1 NT 4.4 against 9.1 for skinny_splitk before its single
// slices wrote C themselves and 7.4 after, cuBLAS 5.5; 5611 x 12 x 7 TN 5.6 against 7.0 for
// the best tile, cuBLAS 6.5; one loss measured, 64 x 64 x 16 NN 7.0 against 6.7). From ~2^17
// outputs the tiles catch up (256 x 1024 x 12 TN: 7.6 against 7.6, 512 x 512 x 16 NN 9.8
// against 7.8), and a longer k favours them (64 x 3 x 72 TN 9.6 against 7.4) (docs/ladder.md,
// step 14, "One stage a slice").
namespace {

// 1200 outscores every fp32 tile (fp32_tile_score stays below 1000 + 100 x 1.38, tma_ffma's
// speed) and stays below the tensor-core entries (from ~1990), so tf32 keeps them.
double coalesced_score(const GemmProblem& p, const DeviceInfo&) {
  constexpr std::int64_t kShortK = 16, kFewOutputs = std::int64_t(1) << 17;
  return p.k <= kShortK && p.m * p.n * p.batch <= kFewOutputs ? 1200.0 : 0.0;
}

}  // namespace

void register_naive(Registry& r) {
  using namespace kernels;
  r.add(make_one_thread_per_output_entry<kNaive>("naive", 1,
                           "one thread per output, warp along columns: uncoalesced stores and B loads",
                           false));
  KernelEntry coalesced = make_one_thread_per_output_entry<kCoalesced>(
      "coalesced", 2, "one thread per output, warp along rows: coalesced C/A, broadcast B", true);
  coalesced.auto_score = coalesced_score;
  r.add(std::move(coalesced));
}

}  // namespace tilemm
