// tilemm-probe-stage-fill: how fast can an SM fill the shared-memory stages of the tf32
// wgmma_rs kernel (128 x 256 x 32 tile) when the TMA cannot read the operands (odd lda /
// ldb), and how does that compare with the TMA that fills them today (aligned only)?
//
// The question it settles (docs/ladder.md, step 28, "Threads instead of the TMA,
// measured"): tf32 4093^3 reaches 3x cuBLAS only if the kernel reads odd leading
// dimensions in place at the aligned kernel's pace. With 4-byte elements no realignment is
// needed (each thread loads whole elements), so the one question is the copy rate: one
// stage (X: 128 rows x 32 k, Y: 256 columns x 32 k, 48 KB, 128-byte swizzle) must land
// every ~0.67 us per SM, the in-place kernel's pace at 4096^3 on the H200.
//
// Each block (at most one per SM, as many as the kernel launches: persistent_grid_size) walks
// the GEMM's work items in the kernel's order (wgmma_tile_coordinates, odd rounds backwards
// in k: k_block_in_round_order) and fills its 4-stage ring for every k-block, with no consumer:
//   tma       one thread issues the TMA boxes, 4 stages in flight (aligned ld only);
//   loads     W warps load 4-byte elements into registers (one 128-byte line per warp
//             instruction), then store them into the swizzled slots, one stage at a time;
//   cp.async  W warps issue 4-byte cp.async straight into the slots, 3 stages in flight.
// The thread variants take their interior stages on a path without predicates (X's
// addresses are immediate offsets from per-stage pointers, Y's one IMAD.WIDE per line);
// an earlier version that recomputed each line's address from scratch was
// instruction-bound at 3-5 us per stage.
//
// Usage: tilemm-probe-stage-fill (no arguments; about one second on an H200).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/wgmma_common.cuh"
#include "probe_check.hpp"
#include "ptx/cp_async.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/tma.cuh"

namespace {

constexpr int kRows = 128, kCols = 256, kBk = 32, kStages = 4;
constexpr int kLineBytes = 128;                                // 32 floats of one column
constexpr int kStageBytes = (kRows + kCols) * kLineBytes;      // 48 KB
constexpr int kRingBytes = kStages * kStageBytes + 1024;       // + slack to align the ring

struct Operands {
  const float* x;  // rows x k, rows contiguous (A of NN)
  const float* y;  // k x cols, k contiguous (B of NN)
  int ldx, ldy, rows, cols, k;
  std::int64_t tiles_r, tiles_c;
  int k_blocks;
};

struct TileOrigin {
  int r0, c0;
};

__device__ TileOrigin tile_origin(const Operands& p, std::int64_t item) {
  const tilemm::kernels::WgmmaTile t = tilemm::kernels::wgmma_tile_coordinates(item, p.tiles_r, p.tiles_c);
  return {int(t.tm) * kRows, int(t.tn) * kCols};
}

__device__ char* aligned_ring(uint4* raw) {
  const unsigned offset = (1024u - (tilemm::ptx::shared_address(raw) & 1023u)) & 1023u;
  return reinterpret_cast<char*>(raw) + offset;
}

__global__ void __launch_bounds__(32, 1) fill_by_tma(const __grid_constant__ CUtensorMap map_x,
                                                     const __grid_constant__ CUtensorMap map_y, Operands p) {
  using namespace tilemm::ptx;
  extern __shared__ uint4 fill_smem[];
  __shared__ alignas(8) unsigned long long full[kStages];
  if (threadIdx.x != 0) return;
  const unsigned ring = shared_address(aligned_ring(fill_smem));
  const auto bar = [&](std::int64_t n) { return shared_address(&full[n % kStages]); };
  for (int s = 0; s < kStages; ++s) mbarrier_init_shared_b64(shared_address(&full[s]), 1);
  fence_mbarrier_init_release_cluster();
  std::int64_t n = 0;  // stages filled so far
  for (std::int64_t item = blockIdx.x; item < p.tiles_r * p.tiles_c; item += gridDim.x) {
    const TileOrigin o = tile_origin(p, item);
    for (int step = 0; step < p.k_blocks; ++step, ++n) {
      const int kb = tilemm::kernels::k_block_in_round_order(step, 0, p.k_blocks, item / gridDim.x);
      if (n >= kStages) mbarrier_wait_parity_shared_b64(bar(n), unsigned((n / kStages - 1) & 1));
      mbarrier_arrive_expect_tx_shared_b64(bar(n), kStageBytes);
      const unsigned stage = ring + unsigned(n % kStages) * kStageBytes;
      for (int b = 0; b < kRows / 32; ++b)
        cp_async_bulk_tensor_3d_global_to_shared(stage + b * 32 * kLineBytes, &map_x, o.r0 + 32 * b, kb * kBk, 0,
                                                 bar(n));
      cp_async_bulk_tensor_3d_global_to_shared(stage + kRows * kLineBytes, &map_y, kb * kBk, o.c0, 0, bar(n));
    }
  }
  for (std::int64_t m = n > kStages ? n - kStages : 0; m < n; ++m)
    mbarrier_wait_parity_shared_b64(bar(m), unsigned((m / kStages) & 1));
}

// Warp w of kWarps owns the stage's lines w, w + kWarps, ... (X lines 0..127: box b = L / 32,
// k row L % 32; Y lines 128..383: column L - 128), lane = element within the line. Calls
// put(i, slot, src, in_bounds) for each of its lines; slot is the byte offset of the lane's
// element in the stage (128-byte swizzle: 16-byte chunk q of line L at q ^ (L % 8)).
template <int kWarps>
struct LineWalk {
  static_assert(kWarps == 4 || kWarps == 8, "X's 32 k rows per box split evenly over the warps");
  static constexpr int kXLines = kRows / kWarps, kYLines = kCols / kWarps, kXRowsPerBox = 32 / kWarps;
  int slot_base[2];  // by (kWarps i / 4) % 2: line L % 8 = w ^ (kWarps i % 8)

  __device__ explicit LineWalk(int w, int lane) {
    for (int par = 0; par < 2; ++par)
      slot_base[par] = w * kLineBytes + (((lane / 4) ^ ((w + 4 * par) % 8)) * 16) + (lane % 4) * 4;
  }
  __device__ int x_slot(int i) const {
    const int r = i % kXRowsPerBox, b = i / kXRowsPerBox;
    return slot_base[(kWarps * r / 4) % 2] + (32 * b + kWarps * r) * kLineBytes;
  }
  __device__ int y_slot(int i) const { return slot_base[(kWarps * i / 4) % 2] + (kRows + kWarps * i) * kLineBytes; }

  template <typename Put>
  __device__ void walk(const Operands& p, TileOrigin o, int k0, int w, int lane, Put&& put) const {
    const bool interior = o.r0 + kRows <= p.rows && o.c0 + kCols <= p.cols && k0 + kBk <= p.k;
    const float* const x_first = p.x + std::int64_t(k0 + w) * p.ldx + o.r0 + lane;
    const float* const y_first = p.y + std::int64_t(o.c0 + w) * p.ldy + k0 + lane;
    const int x_step = kWarps * p.ldx, y_step = kWarps * p.ldy;
    if (interior) {
#pragma unroll
      for (int r = 0; r < kXRowsPerBox; ++r) {
        const float* const xr = x_first + r * x_step;
#pragma unroll
        for (int b = 0; b < 4; ++b) put(b * kXRowsPerBox + r, x_slot(b * kXRowsPerBox + r), xr + 32 * b, true);
      }
#pragma unroll
      for (int i = 0; i < kYLines; ++i) put(kXLines + i, y_slot(i), y_first + i * y_step, true);
      return;
    }
#pragma unroll
    for (int i = 0; i < kXLines; ++i) {
      const int r = i % kXRowsPerBox, b = i / kXRowsPerBox;
      const bool in = k0 + w + kWarps * r < p.k && o.r0 + 32 * b + lane < p.rows;
      put(i, x_slot(i), in ? x_first + std::int64_t(r) * x_step + 32 * b : p.x, in);
    }
#pragma unroll
    for (int i = 0; i < kYLines; ++i) {
      const bool in = o.c0 + w + kWarps * i < p.cols && k0 + lane < p.k;
      put(kXLines + i, y_slot(i), in ? y_first + std::int64_t(i) * y_step : p.y, in);
    }
  }
};

template <int kWarps, bool kCpAsync>
__global__ void __launch_bounds__(32 * kWarps, 1) fill_by_threads(Operands p, float* keep) {
  using Walk = LineWalk<kWarps>;
  extern __shared__ uint4 fill_smem[];
  char* const ring = aligned_ring(fill_smem);
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  const Walk walk(w, lane);
  int stage = 0;
  for (std::int64_t item = blockIdx.x; item < p.tiles_r * p.tiles_c; item += gridDim.x) {
    const TileOrigin o = tile_origin(p, item);
    for (int step = 0; step < p.k_blocks; ++step) {
      const int kb = tilemm::kernels::k_block_in_round_order(step, 0, p.k_blocks, item / gridDim.x);
      char* const st = ring + stage * kStageBytes;
      if constexpr (kCpAsync) {
        walk.walk(p, o, kb * kBk, w, lane, [&](int, int slot, const float* src, bool in) {
          tilemm::ptx::cp_async_ca_4(st + slot, src, in ? 4 : 0);
        });
        tilemm::ptx::cp_async_commit_group();
        tilemm::ptx::cp_async_wait_group<kStages - 2>();
      } else {
        float v[Walk::kXLines + Walk::kYLines];
        walk.walk(p, o, kb * kBk, w, lane,
                  [&](int i, int, const float* src, bool in) { v[i] = in ? *src : 0.0f; });
        walk.walk(p, o, kb * kBk, w, lane,
                  [&](int i, int slot, const float*, bool) { *reinterpret_cast<float*>(st + slot) = v[i]; });
      }
      stage = (stage + 1) % kStages;
    }
  }
  if constexpr (kCpAsync) tilemm::ptx::cp_async_wait_group<0>();
  __syncthreads();
  // One word per thread leaves the block, so the fills cannot be dropped as dead stores.
  keep[blockIdx.x * blockDim.x + threadIdx.x] = reinterpret_cast<const float*>(ring)[threadIdx.x * 97];
}

using tilemm::probes::check;

// Best of 10 timed launches after 2 warm-ups, in microseconds.
template <typename Launch>
float best_time_us(Launch&& launch) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  float best = 1e30f;
  for (int rep = 0; rep < 12; ++rep) {
    check(cudaEventRecord(start), "cudaEventRecord");
    launch();
    check(cudaGetLastError(), "launch");
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    if (rep >= 2 && ms < best) best = ms;
  }
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  return best * 1000.0f;
}

template <int kWarps, bool kCpAsync>
float time_threads(const Operands& p, int blocks, float* keep) {
  const auto kernel = fill_by_threads<kWarps, kCpAsync>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kRingBytes), "smem opt-in");
  return best_time_us([&] { kernel<<<blocks, 32 * kWarps, kRingBytes>>>(p, keep); });
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const int sms = prop.multiProcessorCount;
  std::printf("device: %s, %d SMs; one block per SM, a 4 x 48 KB ring, no consumers\n", prop.name, sms);
  std::printf("%-6s %-9s %8s %10s %12s\n", "n", "fill", "threads", "time (us)", "us per stage");
  float* keep = nullptr;
  check(cudaMalloc(&keep, std::size_t(sms) * 256 * sizeof(float)), "cudaMalloc");
  for (const int n : {4093, 4096, 8191}) {
    const std::size_t elems = std::size_t(n) * std::size_t(n);
    float *x = nullptr, *y = nullptr;
    check(cudaMalloc(&x, elems * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&y, elems * sizeof(float)), "cudaMalloc");
    std::vector<float> host(elems);
    for (std::size_t i = 0; i < elems; ++i) host[i] = float(i % 1013) * 0.001f;
    check(cudaMemcpy(x, host.data(), elems * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(y, host.data(), elems * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    const Operands p{x, y, n, n, n, n, n, (n + kRows - 1) / kRows, (n + kCols - 1) / kCols, (n + kBk - 1) / kBk};
    const std::int64_t items = p.tiles_r * p.tiles_c;
    const int blocks = int(tilemm::kernels::persistent_grid_size(items, sms));
    const double stages_per_sm = double((items + sms - 1) / sms * p.k_blocks);
    const auto row = [&](const char* fill, int threads, float us) {
      std::printf("%-6d %-9s %8d %10.1f %12.3f\n", n, fill, threads, us, us / stages_per_sm);
    };
    CUtensorMap map_x, map_y;
    if (n % 4 == 0 && tilemm::kernels::encode_operand_map(&map_x, tilemm::DType::F32, x, n, n, n, 1, 0, 32) &&
        tilemm::kernels::encode_operand_map(&map_y, tilemm::DType::F32, y, n, n, n, 1, 0, kCols)) {
      check(cudaFuncSetAttribute(fill_by_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, kRingBytes),
            "smem opt-in");
      row("tma", 1, best_time_us([&] { fill_by_tma<<<blocks, 32, kRingBytes>>>(map_x, map_y, p); }));
    }
    row("loads", 128, time_threads<4, false>(p, blocks, keep));
    row("loads", 256, time_threads<8, false>(p, blocks, keep));
    row("cp.async", 128, time_threads<4, true>(p, blocks, keep));
    row("cp.async", 256, time_threads<8, true>(p, blocks, keep));
    check(cudaFree(x), "cudaFree");
    check(cudaFree(y), "cudaFree");
  }
  check(cudaFree(keep), "cudaFree");
  std::printf("pace to keep: ~0.67 us per stage (the in-place tf32 kernel at 4096^3 on an H200: 334 us, 496 stages "
              "per SM)\n");
  return 0;
}
