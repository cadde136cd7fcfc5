// The copies of repack.hpp: an aligned copy of an operand as stored, or (4-byte elements)
// its transpose.
#include "kernels/repack.hpp"

#include <algorithm>

#include "kernels/ahead_policy.hpp"
#include "kernels/gemm_common.cuh"

namespace tilemm::kernels {
namespace {

constexpr int kRepackThreads = 256;

// One thread per 16 destination bytes (8 halves or 4 floats) in each of kRepackColumns
// columns, read one element at a time (the source column may start at any element), all
// its loads before its stores; rows past the operand are zero. Four columns a thread rather
// than one took a 4093^2 fp32 copy from 38.4-38.9 to 34.8-35.0 us on the H200 (Nsight Compute;
// tf32 4093^3 1.3% faster, 16-bit copies unchanged; docs/ladder.md, step 28, "Four columns a
// thread").
constexpr int kRepackColumns = 4;

// One operand's aligned copy: the source as stored (rows x cols, ld, batch stride), the
// destination's layout (RepackedOperand), and the x-blocks that cover its rows.
template <class E>
struct AlignedCopy {
  const E* src = nullptr;
  std::int64_t rows = 0, cols = 0, ld = 0, stride = 0, batches = 0;
  E* dst = nullptr;
  std::int64_t dst_ld = 0, dst_stride = 0;
  unsigned blocks_x = 0;
};

// Two operands' copies in one launch (the second may be empty: blocks_x = 0): blocks
// [0, first.blocks_x) along x copy the first, the rest the second. Every copy is a kernel
// boundary on the stream before the product can start; for small products with both
// operands unreadable by the TMA (255^3 bf16: two 130 KB copies) the launches, not the bytes,
// were the copies' cost (docs/ladder.md, "Both copies in one launch").
template <class E>
__global__ void __launch_bounds__(kRepackThreads) repack_rows_aligned16(AlignedCopy<E> first, AlignedCopy<E> second) {
  constexpr int kPer = 16 / sizeof(E);
  const bool in_first = blockIdx.x < first.blocks_x;
  const AlignedCopy<E> c = in_first ? first : second;
  const unsigned block_x = in_first ? blockIdx.x : blockIdx.x - first.blocks_x;
  const std::int64_t r0 = (std::int64_t(block_x) * kRepackThreads + threadIdx.x) * kPer;
  if (r0 >= c.dst_ld) return;
  for (std::int64_t b = blockIdx.z; b < c.batches; b += gridDim.z)
    for (std::int64_t c0 = std::int64_t(blockIdx.y) * kRepackColumns; c0 < c.cols;
         c0 += std::int64_t(gridDim.y) * kRepackColumns) {
      union {
        uint4 chunk;
        E e[kPer];
      } v[kRepackColumns];
#pragma unroll
      for (int j = 0; j < kRepackColumns; ++j) {
        const E* in = c.src + b * c.stride + (c0 + j) * c.ld;
#pragma unroll
        for (int i = 0; i < kPer; ++i) v[j].e[i] = c0 + j < c.cols && r0 + i < c.rows ? in[r0 + i] : E(0);
      }
#pragma unroll
      for (int j = 0; j < kRepackColumns; ++j)
        if (c0 + j < c.cols) {
          *reinterpret_cast<uint4*>(c.dst + b * c.dst_stride + (c0 + j) * c.dst_ld + r0) = v[j].chunk;
        }
    }
}

// dst(c, r) = src(r, c) for 4-byte elements (fp32 and tf32 operands), through registers: each
// thread moves kTransposeBlocks 4 x 4 blocks, each read from 4 columns of src 4 rows deep (one
// 16-byte load each when src is 16-byte aligned with ld a multiple of 4, else 4 scalar loads)
// and written to 4 columns of dst 4 deep (always one 16-byte store: the workspace is aligned).
// A warp is 8 lanes along c by 4 along r, so each load instruction reads 8 runs of 64
// contiguous bytes and each store writes 4 runs of 128: every sector fully used, no
// shared memory. Measured on the H200 at 8192^2, a 32 x 32 shared-memory tile with 4 loads
// per thread moved ~2 TB/s (261 us), a 64 x 64 one with 16 ~1.7 TB/s (310 us); with one block
// per thread (64 bytes in flight) this kernel took 149 us, with two (the second 32 columns
// further along c) 143 us (Nsight Compute). dst rows run along src columns up to dst_ld
// (padding written as zeros).
constexpr int kTransposeThreads = 256;
constexpr int kTransposeRowsPerBlock = 128;  // 8 warps of 16 rows
constexpr int kTransposeColsPerBlock = 32;
constexpr int kTransposeBlocks = 2;  // 4 x 4 blocks per thread, kTransposeColsPerBlock apart

template <bool kVectorLoads>
__global__ void __launch_bounds__(kTransposeThreads)
    transpose_4x4_blocks(const unsigned* src, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                         std::int64_t stride, std::int64_t batches, unsigned* dst, std::int64_t dst_ld,
                         std::int64_t dst_stride) {
  constexpr int kStep = kTransposeColsPerBlock * kTransposeBlocks;  // dst columns per block and pass
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::int64_t r = std::int64_t(blockIdx.x) * kTransposeRowsPerBlock + warp * 16 + (lane / 8) * 4;
  for (std::int64_t b = blockIdx.z; b < batches; b += gridDim.z)
    for (std::int64_t c0 = std::int64_t(blockIdx.y) * kStep + (lane % 8) * 4; c0 < dst_ld;
         c0 += std::int64_t(gridDim.y) * kStep) {
      const unsigned* in = src + b * stride;
      unsigned v[kTransposeBlocks][4][4];  // v[q][e][i] = src(r + i, c + e), c = c0 + q * kTransposeColsPerBlock
#pragma unroll
      for (int q = 0; q < kTransposeBlocks; ++q) {
        const std::int64_t c = c0 + q * kTransposeColsPerBlock;
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const unsigned* column = in + (c + e) * ld + r;
          if (kVectorLoads && c + e < cols && r + 3 < rows) {
            const uint4 x = *reinterpret_cast<const uint4*>(column);
            v[q][e][0] = x.x;
            v[q][e][1] = x.y;
            v[q][e][2] = x.z;
            v[q][e][3] = x.w;
          } else {
#pragma unroll
            for (int i = 0; i < 4; ++i) v[q][e][i] = c + e < cols && r + i < rows ? column[i] : 0u;
          }
        }
      }
      unsigned* out = dst + b * dst_stride;
#pragma unroll
      for (int q = 0; q < kTransposeBlocks; ++q) {
        const std::int64_t c = c0 + q * kTransposeColsPerBlock;
        if (c >= dst_ld) continue;
#pragma unroll
        for (int i = 0; i < 4; ++i)
          if (r + i < rows) {
            *reinterpret_cast<uint4*>(out + (r + i) * dst_ld + c) =
                make_uint4(v[q][0][i], v[q][1][i], v[q][2][i], v[q][3][i]);
          }
      }
    }
}

inline RepackedOperand plan_repack(std::int64_t rows, std::int64_t cols, std::int64_t stride, std::int64_t batch,
                                   std::int64_t element_bytes, bool transpose) {
  RepackedOperand r{};
  r.transpose = transpose;
  r.rows = transpose ? cols : rows;
  r.cols = transpose ? rows : cols;
  const std::int64_t per16 = 16 / element_bytes;
  r.ld = (std::max<std::int64_t>(r.rows, 1) + per16 - 1) / per16 * per16;
  r.batches = batch <= 1 || stride == 0 ? 1 : batch;
  r.stride = r.batches == 1 ? 0 : r.ld * r.cols;
  r.bytes = r.ld * r.cols * r.batches * element_bytes;
  return r;
}

// One operand's plain aligned copy as AlignedCopy describes it.
template <class E>
AlignedCopy<E> aligned_copy(const void* src, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                            std::int64_t stride, const RepackedOperand& r, void* dst) {
  constexpr std::int64_t kPer = 16 / sizeof(E);
  AlignedCopy<E> c;
  c.src = static_cast<const E*>(src);
  c.rows = rows;
  c.cols = cols;
  c.ld = ld;
  c.stride = stride;
  c.batches = r.batches;
  c.dst = static_cast<E*>(dst);
  c.dst_ld = r.ld;
  c.dst_stride = r.stride;
  c.blocks_x = ceil_div_u(r.ld / kPer, kRepackThreads);
  return c;
}

// One launch of repack_rows_aligned16 for one copy, or two: y and z cover the larger of the
// two, whose loops skip what lies past their own copy (an empty second copy needs none).
template <class E>
cudaError_t enqueue_aligned_copies(const AlignedCopy<E>& first, const AlignedCopy<E>& second, cudaStream_t stream) {
  const auto blocks_y = [](const AlignedCopy<E>& c) {
    return static_cast<unsigned>(std::min<std::int64_t>((c.cols + kRepackColumns - 1) / kRepackColumns, 65535));
  };
  const dim3 grid(first.blocks_x + second.blocks_x, std::max(blocks_y(first), blocks_y(second)),
                  std::max(grid_z_for(first.batches), grid_z_for(second.batches)));
  repack_rows_aligned16<E><<<grid, kRepackThreads, 0, stream>>>(first, second);
  return cudaGetLastError();
}

template <class E>
cudaError_t enqueue_repack(const void* src, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                           std::int64_t stride, const RepackedOperand& r, void* dst, cudaStream_t stream) {
  if constexpr (sizeof(E) == 4) {  // only 4-byte operands are transposed (plan_aligned_operands)
    if (r.transpose) {
      constexpr std::int64_t kStep = kTransposeColsPerBlock * kTransposeBlocks;
      const dim3 grid(ceil_div_u(rows, kTransposeRowsPerBlock),
                      static_cast<unsigned>(std::min<std::int64_t>((r.ld + kStep - 1) / kStep, 65535)),
                      grid_z_for(r.batches));
      const auto kernel = columns_aligned16(src, ld, stride, r.batches, 4) ? transpose_4x4_blocks<true>
                                                                           : transpose_4x4_blocks<false>;
      kernel<<<grid, kTransposeThreads, 0, stream>>>(static_cast<const E*>(src), rows, cols, ld, stride, r.batches,
                                                     static_cast<E*>(dst), r.ld, r.stride);
      return cudaGetLastError();
    }
  }
  return enqueue_aligned_copies<E>(aligned_copy<E>(src, rows, cols, ld, stride, r, dst), AlignedCopy<E>{}, stream);
}

}  // namespace

AlignedOperandsPlan plan_aligned_operands(const GemmProblem& p, std::int64_t element_bytes, bool transpose_a,
                                          bool transpose_b) {
  AlignedOperandsPlan plan;
  plan.repack_a = transpose_a || !columns_aligned16(p.A, p.lda, p.stride_a, p.batch, element_bytes);
  plan.repack_b = transpose_b || !columns_aligned16(p.B, p.ldb, p.stride_b, p.batch, element_bytes);
  plan.a = plan_repack(p.a_rows(), p.a_cols(), p.stride_a, p.batch, element_bytes, transpose_a);
  plan.b = plan_repack(p.b_rows(), p.b_cols(), p.stride_b, p.batch, element_bytes, transpose_b);
  plan.a_bytes = plan.repack_a ? (plan.a.bytes + 255) / 256 * 256 : 0;
  plan.bytes = plan.a_bytes + (plan.repack_b ? plan.b.bytes : 0);
  return plan;
}

bool tma_reads_operands_in_place(const GemmProblem& p, std::int64_t element_bytes) {
  return columns_aligned16(p.A, p.lda, p.stride_a, p.batch, element_bytes) &&
         columns_aligned16(p.B, p.ldb, p.stride_b, p.batch, element_bytes);
}

bool repacking_stands_aside(const GemmProblem& p, std::int64_t element_bytes, const DeviceInfo& dev) {
  constexpr double kSmallestRepackedFlops = 2.0 * 512.0 * 512.0 * 512.0;
  // tf32 keeps k = 128 outside TN, as measured (repack.hpp): there wgmma's copies transpose
  // an operand in a launch of its own, and wgmma_rs's copying tile, which copies TT plainly,
  // still ran slower than the scalar loads.
  const bool tf32_outside_tn = element_bytes == 4 && !(p.opa == Op::T && p.opb == Op::N);
  const std::int64_t shortest_repacked_k = tf32_outside_tn ? 128 : 64;
  // One wave of mma_sync's `.ahead` tile (64 x 64, one block per SM: sm_count tiles), whose
  // 4 k-tiles of 32 in flight cover k <= 128 in one round trip, up to two (tf32 NT: one;
  // 16-bit operands on 8-byte loads: three; ahead_longest_k).
  const std::int64_t ahead_wave_tiles = dev.sm_count;
  const std::int64_t tiles = ahead_tiles(p.m, p.n, p.batch);
  const bool ahead_wave = tiles <= ahead_wave_tiles && p.k <= ahead_longest_k(p, element_bytes);
  // Two waves of it for 16-bit operands with k <= 128 (one round trip of loads per tile),
  // where its second wave costs less than the copies: both operands on 8-byte loads, or
  // copies of 2 MiB and more (H200, docs/ladder.md, "Two waves of the tile held ahead":
  // the second wave cost 2-4 us, the copies 2 us and a launch plus their bytes; bf16 TN
  // 1004^2 x 100, 8-byte loads, 9.3 against 11.3 us copied; 127^3 x 40, 2.6 MB of copies,
  // 12.4 against 13.7; 1001^2 x 127, 0.5 MB, 12.4 against 10.9: copied).
  constexpr std::int64_t kAheadOutrunsCopiesBytes = 2 * 1024 * 1024;
  const bool ahead_two_waves =
      element_bytes == 2 && tiles <= 2 * ahead_wave_tiles && p.k <= kAheadKPerTrip &&
      (ahead_loads_eight_bytes(p, element_bytes) ||
       plan_aligned_operands(p, element_bytes, false, false).bytes >= kAheadOutrunsCopiesBytes);
  // On Hopper, from k = 193 (ahead_cluster_k_from), the same tile with k cut into slices summed
  // across a cluster (`.ahead.clusterk`), where all slices fit in one wave and none walks more
  // than 3-4 round trips (H200, docs/ladder.md, "k cut across a cluster" and "The slices' sums
  // by bulk copies": bf16 127^2 x 1023 9.5 against 12.7 us copied, tf32 383^3 NN 10.5 against
  // 16.1; H100, "Slices that walk several round trips": tf32 255 x 383 x 1023 12.8 against 22.7).
  const bool ahead_cluster_k = dev.compute_capability() == 90 && ahead_cluster_k_takes(p, element_bytes, dev.sm_count);
  // ahead_wave and ahead_cluster_k bound the product themselves (one wave of tiles, a few round
  // trips a slice) and hold past 2 * 512^3 FLOP (H100, stop 59: bf16 500 x 1000 x 300-384 on
  // 8-byte loads 10.0-10.9 us on `.ahead` against 11.6-12.4 copied; tf32 383 x 511 x 1023 NN
  // 19.3 on the cluster against 24.6, 255 x 511 x 1535 19.5 against 26.2); the other rules
  // apply below it.
  return (p.flops() < kSmallestRepackedFlops &&
          (tma_reads_operands_in_place(p, element_bytes) || p.k < shortest_repacked_k || ahead_two_waves)) ||
         ahead_wave || ahead_cluster_k;
}

double product_share_after_copies(const GemmProblem& p, std::int64_t element_bytes, const AlignedOperandsPlan& plan,
                                  double product_seconds) {
  constexpr double kBytesPerSecond = 3.0e12, kLaunchSeconds = 2e-6, kScalarTransposeRate = 0.6;
  const auto copy_seconds = [&](bool repacked, const RepackedOperand& r, const void* src, std::int64_t ld,
                                std::int64_t stride) {
    if (!repacked) return 0.0;
    const bool scalar_transpose = r.transpose && !columns_aligned16(src, ld, stride, p.batch, element_bytes);
    return 2.0 * double(r.bytes) / (kBytesPerSecond * (scalar_transpose ? kScalarTransposeRate : 1.0)) +
           kLaunchSeconds;
  };
  const double copies = copy_seconds(plan.repack_a, plan.a, p.A, p.lda, p.stride_a) +
                        copy_seconds(plan.repack_b, plan.b, p.B, p.ldb, p.stride_b);
  return product_seconds / (product_seconds + copies);
}

cudaError_t enqueue_aligned_operands(const GemmProblem& p, std::int64_t element_bytes,
                                     const AlignedOperandsPlan& plan, void* workspace, cudaStream_t stream,
                                     GemmProblem* aligned) {
  // 2- or 4-byte elements; only 4-byte ones are transposed (the kernel moves 32-bit words).
  if ((element_bytes != 2 && element_bytes != 4) ||
      ((plan.a.transpose || plan.b.transpose) && element_bytes != 4)) {
    return cudaErrorInvalidValue;
  }
  // The fields of `aligned` that describe an operand pointed at its copy.
  const auto point_at_copy = [](const RepackedOperand& r, void* dst, const void** data, std::int64_t* dst_ld,
                                std::int64_t* dst_stride, Op* op) {
    *data = dst;
    *dst_ld = r.ld;
    *dst_stride = r.stride;
    if (r.transpose) *op = flipped(*op);
  };
  void* const a_copy = workspace;
  void* const b_copy = static_cast<char*>(workspace) + plan.a_bytes;
  if (plan.repack_a) point_at_copy(plan.a, a_copy, &aligned->A, &aligned->lda, &aligned->stride_a, &aligned->opa);
  if (plan.repack_b) point_at_copy(plan.b, b_copy, &aligned->B, &aligned->ldb, &aligned->stride_b, &aligned->opb);
  const auto enqueue = [&]<class E>() {
    // Two plain copies in one launch; a transpose has its own kernel.
    if (plan.repack_a && plan.repack_b && !plan.a.transpose && !plan.b.transpose) {
      return enqueue_aligned_copies<E>(aligned_copy<E>(p.A, p.a_rows(), p.a_cols(), p.lda, p.stride_a, plan.a, a_copy),
                                       aligned_copy<E>(p.B, p.b_rows(), p.b_cols(), p.ldb, p.stride_b, plan.b, b_copy),
                                       stream);
    }
    cudaError_t err = cudaSuccess;
    if (plan.repack_a) err = enqueue_repack<E>(p.A, p.a_rows(), p.a_cols(), p.lda, p.stride_a, plan.a, a_copy, stream);
    if (err == cudaSuccess && plan.repack_b) {
      err = enqueue_repack<E>(p.B, p.b_rows(), p.b_cols(), p.ldb, p.stride_b, plan.b, b_copy, stream);
    }
    return err;
  };
  return element_bytes == 2 ? enqueue.template operator()<unsigned short>() : enqueue.template operator()<unsigned>();
}

}  // namespace tilemm::kernels
