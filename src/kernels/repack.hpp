// Operands copied into an aligned workspace, for kernels whose loads need what the
// caller's matrices do not give: the TMA (wgmma) and the 16-byte loads of the fp32
// kernels need 16-byte-aligned bases and leading dimensions; lda = 4093 gives neither.
// Such an operand is first copied, as stored, into a stream-ordered workspace whose
// leading dimension is rounded up to 16 bytes and whose batch stride is ld' x columns:
// one pass over the operand for a kernel that then runs at its aligned speed. An operand
// can also be transposed on the way (tf32 wgmma reads both operands K-major; wgmma_rs and
// double_buffer turn NT and TN into NN). An operand the kernel can read as it is is used
// in place.
// Not a ladder step: the `.repack` entries of wgmma, wgmma_rs and double_buffer call it.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/problem.hpp"
#include "kernels/workspace.hpp"
#include "registry/registry.hpp"

namespace tilemm::kernels {

// The aligned (and possibly transposed) copy of one operand: its shape as stored in the
// workspace, leading dimension, batch stride and size.
struct RepackedOperand {
  bool transpose = false;
  std::int64_t rows = 0, cols = 0, ld = 0, stride = 0, batches = 0, bytes = 0;
};

// Whether auto leaves a product to the other entries rather than give it to the tensor-core
// `.repack` and `.transpose` entries (wgmma, wgmma_rs): products under 2 * 512^3 FLOP whose
// operands the TMA reads in place (then the copies would only transpose tf32 operands, not
// measured below that size); or whose k is under 64 (under 128 for tf32 outside TN, whose
// copies transpose an operand first: 64 <= k < 128 ran 0.75-1.18x of the 128 x 128 scalar-load
// tile in NN and NT, and in TT 0.69-0.91x where the score took wgmma_rs's 128 x 256 copying
// tile); or, 16-bit operands with k <= 128, two waves of mma_sync's `.ahead` tile where both
// operands take 8-byte loads or the copies would move 2 MiB or more (docs/ladder.md, "Two
// waves of the tile held ahead"). At any size (since stop 59): products whose k is at most
// 256 (tf32 NT: 128; 16-bit operands on 8-byte loads: 384; ahead_longest_k) with at most
// sm_count tiles of 64 x 64, one wave of the `.ahead` tile (one block per SM); or, on Hopper,
// those `.ahead.clusterk` takes (ahead_cluster_k_takes, from k = 193; ahead_policy.hpp).
// Measured on the H200 (docs/ladder.md, "Small products with an odd leading dimension", "The
// product as the copy's programmatic dependent", "Small products by element loads held
// ahead"; past 2 * 512^3 FLOP on an H100, "Slices that walk several round trips"): with an
// operand the TMA cannot read, a `.repack` call costs its copies and one launch more, ~9-10 us
// in all for such products, while the `.ahead` tile holds 128 k of element loads in flight: bf16 100^3 6.6
// against 9.6 us, 127 x 127 to 703 x 703 x 127 7.7-8.4 against 9.7-10.7, k = 255 1.02-1.09x
// faster, 511^3 14.8 against 11.5 (the copies win); tf32 NN 255^3 11.0 against 15.1 (TN at k =
// 150-255 0.91-1.16x, NT at k = 255 0.92-1.10x). The 128 x 128 scalar-load tile (`.ldg2`,
// `.ldg4`) walks k one round trip per k-tile on one block per 128 x 128 (bf16 33 x 1024 x 2048
// 113.6 us against 18.7 copied), which is why larger products with an unreadable operand are
// copied from k = 64.
bool repacking_stands_aside(const GemmProblem& p, std::int64_t element_bytes, const DeviceInfo& dev);

// Whether the TMA reads both operands in place: 16-byte aligned, with leading dimensions
// and batch strides of whole 16 bytes (the `.repack` entries copy the others).
bool tma_reads_operands_in_place(const GemmProblem& p, std::int64_t element_bytes);

// Which operands of a problem get an aligned (or transposed) copy, the copies' layouts,
// and the workspace bytes for them.
struct AlignedOperandsPlan {
  bool repack_a = false, repack_b = false;
  RepackedOperand a, b;      // the copies (used where repack_x)
  std::int64_t a_bytes = 0;  // B's copy starts here (256-byte aligned)
  std::int64_t bytes = 0;
};

// The share of an fp32 call's time that the product keeps when `plan`'s copies run first:
// 2mnk / (2mnk + copy cost), the copy cost counting the bytes each copy reads and writes
// at 16 FLOP per byte (the FFMA machine balance of an H100/H200: ~67 TFLOP/s against ~4
// TB/s), 28 for a transposing copy (it moved ~2.4 TB/s). The fp32 `.repack` entries'
// auto scores (double_buffer, tma_ffma) are built on it.
inline double fp32_product_share(const GemmProblem& p, const AlignedOperandsPlan& plan) {
  constexpr double kCopyFlopPerByte = 16.0, kTransposeFlopPerByte = 28.0;
  const double b_bytes = double(plan.bytes - plan.a_bytes);
  const double copy_flops =
      2.0 * (double(plan.a_bytes) * (plan.a.transpose ? kTransposeFlopPerByte : kCopyFlopPerByte) +
             b_bytes * (plan.b.transpose ? kTransposeFlopPerByte : kCopyFlopPerByte));
  return p.flops() / (p.flops() + copy_flops);
}

// The tensor-core `.repack` entries' charge for `plan`'s copies: each copied operand is read
// and written once at DRAM speed (3.0 TB/s, what the H100's copy reaches; the H200's 4.2
// makes them cheaper) after a launch, and a transpose whose source columns are not 16-byte
// aligned (read element by element) at 0.6 of that (H200, tf32 4093^3 TN: ~60 us against ~40
// for a copy of the same operand, before both were sped up; the order it gives measured
// 22-28% faster on TN 14336 x 16 or 128 x 4093; docs/ladder.md, step 28). What the auto
// scores count is the share of the call's time left to the product, which alone would take
// product_seconds, so a copy costs most beside a short product: tf32 NT with 512 rows spends
// ~45 us of ~135 on its pass over B, 4096^3 ~45 of ~390 (H100).
double product_share_after_copies(const GemmProblem& p, std::int64_t element_bytes, const AlignedOperandsPlan& plan,
                                  double product_seconds);

// element_bytes: 2 (fp16/bf16) or 4 (fp32, tf32); transposing is for 4-byte elements.
AlignedOperandsPlan plan_aligned_operands(const GemmProblem& p, std::int64_t element_bytes, bool transpose_a,
                                          bool transpose_b);

// Enqueues the copies of `plan` into `workspace` and returns the problem that reads them
// (transposed operands have their op flipped). cudaErrorInvalidValue, with nothing
// enqueued, for an element size other than 2 or 4 or a transpose of 2-byte elements.
cudaError_t enqueue_aligned_operands(const GemmProblem& p, std::int64_t element_bytes,
                                     const AlignedOperandsPlan& plan, void* workspace, cudaStream_t stream,
                                     GemmProblem* aligned);

// Runs launch(q), where q is p with every operand that is not 16-byte aligned (or that
// transpose_x asks to be transposed) replaced by its copy in a stream-ordered workspace.
template <class Launch>
cudaError_t launch_with_aligned_operands(const GemmProblem& p, std::int64_t element_bytes, bool transpose_a,
                                         bool transpose_b, cudaStream_t stream, Launch&& launch) {
  const AlignedOperandsPlan plan = plan_aligned_operands(p, element_bytes, transpose_a, transpose_b);
  if (!plan.repack_a && !plan.repack_b) return launch(p);
  StreamWorkspace workspace(stream);
  cudaError_t err = workspace.allocate(std::size_t(plan.bytes));
  if (err != cudaSuccess) return err;
  GemmProblem q = p;
  err = enqueue_aligned_operands(p, element_bytes, plan, workspace.at(), stream, &q);
  if (err == cudaSuccess) err = launch(q);
  return workspace.finish(err);
}

}  // namespace tilemm::kernels
