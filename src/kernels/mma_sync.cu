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
// Requirements: compute capability 8.0 (cp.async, ldmatrix, bf16/tf32 mma); A, B, C
// aligned to their element size; shared memory per block as the configuration needs.
// Any m, n, k, op, batch.
// Next step: Hopper's wgmma with TMA-loaded operands, which reads B (and A) straight
// from shared memory and doubles the tensor-core rate mma.sync can reach on sm_90.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>

#include "kernels/gemm_common.cuh"
#include "ptx/cp_async.cuh"
#include "ptx/cvt.cuh"
#include "ptx/ldmatrix.cuh"
#include "ptx/mma.cuh"
#include "registry/families.hpp"
#include "registry/registry.hpp"

// See naive.cu: kernel configurations are global-namespace types for nvcc 13.
enum class TilemmMmaInput { BF16, F16, TF32 };
enum class TilemmMmaOperandLoad { AsyncCopy16, ScalarRegisters };

struct TilemmMmaSyncConfig {
  TilemmMmaInput input;
  int bm, bn, bk;  // block tile; bk in elements
  int warps_m, warps_n;
  int stages;  // shared-memory buffers: the cp.async ring depth (ScalarRegisters: 2)
  TilemmMmaOperandLoad load;
  int min_blocks_per_sm;  // __launch_bounds__ occupancy target

  consteval int element_bytes() const { return input == TilemmMmaInput::TF32 ? 4 : 2; }
  consteval int chunk_elements() const { return 16 / element_bytes(); }  // one 16-byte chunk
  consteval int mma_k() const { return input == TilemmMmaInput::TF32 ? 8 : 16; }
  consteval int warp_tile_m() const { return bm / warps_m; }
  consteval int warp_tile_n() const { return bn / warps_n; }
  consteval int m_tiles() const { return warp_tile_m() / 16; }  // mma tiles per warp along m
  consteval int n_tiles() const { return warp_tile_n() / 8; }   // and along n
  consteval int threads() const { return 32 * warps_m * warps_n; }
  // The largest stage over the four ops (tf32 rows read by 4-byte loads carry 32 bytes
  // of padding, see MmaTileLayout), for every op.
  consteval std::int64_t smem_bytes() const {
    const int padding = input == TilemmMmaInput::TF32 ? 2 * bk * 32 : 0;
    return std::int64_t(stages) * ((bm + bn) * bk * element_bytes() + padding);
  }
  static consteval bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }
  consteval bool valid() const {
    const int ce = chunk_elements();
    // Chunks per shared row: bk / ce (k-contiguous) and bm / ce, bn / ce (x-contiguous),
    // powers of two for the XOR swizzle; x-contiguous rows of at least 8 chunks.
    return warps_m * warp_tile_m() == bm && warps_n * warp_tile_n() == bn && warp_tile_m() % 16 == 0 &&
           warp_tile_n() % 16 == 0 && bk % mma_k() == 0 && power_of_two(bk / ce) && bk / ce >= 2 &&
           bk / ce <= 8 && power_of_two(bm / ce) && power_of_two(bn / ce) && bm / ce >= 8 && bn / ce >= 8 &&
           stages >= 2 && stages <= 8 && (load == TilemmMmaOperandLoad::AsyncCopy16 || stages == 2) &&
           threads() <= 1024 && bm * bk / ce % threads() == 0 && bn * bk / ce % threads() == 0 &&
           min_blocks_per_sm >= 1;
  }
};

namespace tilemm::kernels {

template <TilemmMmaInput kInput>
struct MmaInputTraits;
template <>
struct MmaInputTraits<TilemmMmaInput::BF16> {
  using Element = __nv_bfloat16;
  static constexpr DType kDType = DType::BF16;
  static constexpr const char* kName = "bf16";
  __device__ static unsigned bits(Element x) { return __bfloat16_as_ushort(x); }
  __device__ static float to_float(Element x) { return __bfloat162float(x); }
  __device__ static Element from_float(float x) { return __float2bfloat16_rn(x); }
};
template <>
struct MmaInputTraits<TilemmMmaInput::F16> {
  using Element = __half;
  static constexpr DType kDType = DType::F16;
  static constexpr const char* kName = "fp16";
  __device__ static unsigned bits(Element x) { return __half_as_ushort(x); }
  __device__ static float to_float(Element x) { return __half2float(x); }
  __device__ static Element from_float(float x) { return __float2half_rn(x); }
};
template <>
struct MmaInputTraits<TilemmMmaInput::TF32> {
  using Element = float;
  static constexpr DType kDType = DType::F32;
  static constexpr const char* kName = "tf32";
  __device__ static unsigned bits(Element x) { return __float_as_uint(x); }
  __device__ static float to_float(Element x) { return x; }
  __device__ static Element from_float(float x) { return x; }
};

// The kernel's arguments (by value, in the parameter constant bank). C is either fp32
// or the 16-bit input type, a run-time choice: it only changes the epilogue.
struct MmaSyncParams {
  std::int64_t m, n, k;
  float alpha, beta;
  const void* A;
  std::int64_t lda, stride_a;
  const void* B;
  std::int64_t ldb, stride_b;
  void* C;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
  bool c_is_fp32;
};

inline MmaSyncParams make_mma_sync_params(const GemmProblem& p) {
  MmaSyncParams q{};
  q.m = p.m;
  q.n = p.n;
  q.k = p.k;
  q.alpha = static_cast<float>(p.alpha);
  q.beta = static_cast<float>(p.beta);
  q.A = p.A;
  q.lda = p.lda;
  q.stride_a = p.stride_a;
  q.B = p.B;
  q.ldb = p.ldb;
  q.stride_b = p.stride_b;
  q.C = p.C;
  q.ldc = p.ldc;
  q.stride_c = p.stride_c;
  q.batch = p.batch;
  q.c_is_fp32 = p.c_type == DType::F32;
  return q;
}

// Shared-memory geometry of one stage of one operand: kRows rows of kRowChunks 16-byte
// chunks, XOR-swizzled (see the header comment); the swizzle repeats after 8 rows and
// only permutes the chunks within a row. The tf32 rows read by 4-byte loads are padded
// instead (32 bytes, so rows t = 0..3 start 8 banks apart): the same conflict-free reads
// with addresses that differ by constants only.
template <TilemmMmaSyncConfig kCfg, int X, bool kKContig>
struct MmaTileLayout {
  static constexpr int kChunkElements = kCfg.chunk_elements();
  static constexpr int kRows = kKContig ? X : kCfg.bk;
  static constexpr int kRowChunks = kKContig ? kCfg.bk / kChunkElements : X / kChunkElements;
  // tf32 stored x-contiguous is read by 4-byte loads, everything else by ldmatrix.
  static constexpr bool kScalarReads = kCfg.input == TilemmMmaInput::TF32 && !kKContig;
  static constexpr int kPitch = kRowChunks * 16 + (kScalarReads ? 32 : 0);  // bytes per row
  static constexpr int kBytes = kRows * kPitch;
  static constexpr int kSwizzleWidth = kRowChunks < 8 ? kRowChunks : 8;

  __host__ __device__ static constexpr int swizzle(int row, int chunk) {
    if constexpr (kScalarReads) {
      return chunk;
    } else {
      return chunk ^ ((row / (8 / kSwizzleWidth)) & (kSwizzleWidth - 1));
    }
  }
  __host__ __device__ static constexpr int byte_offset(int row, int chunk) {
    return row * kPitch + 16 * swizzle(row, chunk);
  }
};

// Where a lane's fragment reads of one operand land in a stage. The lane's first
// address (with its warp's offset folded in) is computed once; every other fragment of
// the stage is that offset XOR a constant chunk step (the XOR swizzle commutes with a
// chunk step whose bits the lane's own chunk index does not use) plus a constant whole
// number of swizzle periods of rows. So a k-step costs a few XORs, not a register per
// fragment. consistent() checks the shortcut against byte_offset() for every lane,
// warp and fragment at compile time, conflict_free() the bank claim of the header.
//
// Fragment reads (x = m for A, n for B; xo = offset within the warp tile):
//   k-contiguous (ldmatrix): rows x, chunk 2 ks + (second k half);
//   x-contiguous 16-bit (ldmatrix.trans): rows 16 ks + (second k half) 8 + r,
//     chunk (warp x0 + xo) / 8 + (second x half);
//   x-contiguous tf32 (4-byte loads): element (row 8 ks + 4 h + t, x = warp x0 + xo + g).
// The ldmatrix matrices of A are (x 0-7, k 0-7), (x 8-15, k 0-7), (x 0-7, k 8-15),
// (x 8-15, k 8-15) in the order of a[0..3]; those of a B pair are (x 0-7, k 0-7),
// (x 0-7, k 8-15), (x 8-15, k 0-7), (x 8-15, k 8-15) in the order b0[0], b0[1], b1[0],
// b1[1] (k counted in 16-bit elements; tf32 chunks hold 4 k instead of 8).
template <TilemmMmaSyncConfig kCfg, bool kIsA, bool kKContig>
struct MmaFragmentAddress {
  static constexpr int X = kIsA ? kCfg.bm : kCfg.bn;
  static constexpr int kWarps = kIsA ? kCfg.warps_m : kCfg.warps_n;
  static constexpr int kWarpTile = kIsA ? kCfg.warp_tile_m() : kCfg.warp_tile_n();
  static constexpr int kKSteps = kCfg.bk / kCfg.mma_k();
  using L = MmaTileLayout<kCfg, X, kKContig>;
  static constexpr bool kScalar = L::kScalarReads;

  // ldmatrix: which 8-row half along x and which chunk (k half) lane's matrix covers.
  __host__ __device__ static constexpr int x_half(int lane) { return kIsA ? (lane / 8) % 2 : (lane / 8) / 2; }
  __host__ __device__ static constexpr int k_half(int lane) { return kIsA ? (lane / 8) / 2 : (lane / 8) % 2; }

  __host__ __device__ static constexpr int lane_offset(int lane, int warp_x0) {
    const int r = lane % 8;
    if constexpr (kScalar) {
      const int g = lane / 4, t = lane % 4;
      return t * L::kPitch + 4 * (warp_x0 + g);
    } else if constexpr (kKContig) {
      return L::byte_offset(warp_x0 + 8 * x_half(lane) + r, k_half(lane));
    } else {
      return L::byte_offset(8 * k_half(lane) + r, x_half(lane)) ^ (16 * (warp_x0 / 8));
    }
  }
  // ldmatrix address of the 16-wide block at xo (a multiple of 16), k-step ks.
  __host__ __device__ static constexpr int ldmatrix_offset(int lane_off, int xo, int ks) {
    if constexpr (kKContig) {
      return xo * L::kPitch + (lane_off ^ (16 * 2 * ks));
    } else {
      return 16 * ks * L::kPitch + (lane_off ^ (16 * (xo / 8)));
    }
  }
  // 4-byte load of the element at x offset xo (a multiple of 8), row 8 ks + 4 h + t.
  __host__ __device__ static constexpr int scalar_offset(int lane_off, int xo, int row_step) {
    return row_step * L::kPitch + lane_off + 4 * xo;
  }

  // The same addresses straight from the layout.
  static constexpr int direct_ldmatrix_offset(int lane, int warp_x0, int xo, int ks) {
    const int r = lane % 8;
    if constexpr (kKContig) {
      return L::byte_offset(warp_x0 + xo + 8 * x_half(lane) + r, 2 * ks + k_half(lane));
    } else {
      return L::byte_offset(16 * ks + 8 * k_half(lane) + r, (warp_x0 + xo) / 8 + x_half(lane));
    }
  }
  static constexpr int direct_scalar_offset(int lane, int warp_x0, int xo, int row_step) {
    const int x = warp_x0 + xo + lane / 4;
    return L::byte_offset(row_step + lane % 4, x / 4) + 4 * (x % 4);
  }

  static consteval bool consistent() {
    for (int w = 0; w < kWarps; ++w)
      for (int lane = 0; lane < 32; ++lane) {
        const int off = lane_offset(lane, w * kWarpTile);
        for (int ks = 0; ks < kKSteps; ++ks) {
          if constexpr (kScalar) {
            for (int xo = 0; xo < kWarpTile; xo += 8)
              for (int h = 0; h < 2; ++h)
                if (scalar_offset(off, xo, 8 * ks + 4 * h) != direct_scalar_offset(lane, w * kWarpTile, xo, 8 * ks + 4 * h))
                  return false;
          } else {
            for (int xo = 0; xo < kWarpTile; xo += 16)
              if (ldmatrix_offset(off, xo, ks) != direct_ldmatrix_offset(lane, w * kWarpTile, xo, ks)) return false;
          }
        }
      }
    return true;
  }
  // ldmatrix: the 8 rows of each matrix in 8 different 16-byte bank groups; 4-byte
  // loads: the 32 lanes in 32 different banks. (Stages start at multiples of 128 bytes.)
  static consteval bool conflict_free() {
    for (int w = 0; w < kWarps; ++w)
      for (int ks = 0; ks < kKSteps; ++ks)
        for (int xo = 0; xo < kWarpTile; xo += kScalar ? 8 : 16)
          for (int h = 0; h < (kScalar ? 2 : 1); ++h) {
            unsigned used[4] = {0u, 0u, 0u, 0u};  // per matrix (ldmatrix) or one warp-wide set
            for (int lane = 0; lane < 32; ++lane) {
              if constexpr (kScalar) {
                const int bank = (direct_scalar_offset(lane, w * kWarpTile, xo, 8 * ks + 4 * h) / 4) % 32;
                if (used[0] & (1u << bank)) return false;
                used[0] |= 1u << bank;
              } else {
                const int group = (direct_ldmatrix_offset(lane, w * kWarpTile, xo, ks) / 16) % 8;
                if (used[lane / 8] & (1u << group)) return false;
                used[lane / 8] |= 1u << group;
              }
            }
          }
    return true;
  }
};

// A thread's share of the copies of one operand tile, fixed for a whole column of
// k-tiles: computed once, so that a k-tile costs one 64-bit multiply-add and a compare
// or two per chunk. Thread tid copies chunk tid % R of rows tid / R + p * (threads / R)
// (R = chunks per row, a divisor of the thread count): consecutive threads take
// consecutive 16 bytes of a row of the storage (coalesced), and since threads / R is a
// whole number of swizzle periods every pass lands at the same swizzled chunk, at a
// constant row step. Outside the matrix the chunk is zero-filled: the count of its
// elements inside is what the copy (or the scalar loads) use.
template <TilemmMmaSyncConfig kCfg, int X, bool kKContig, class T>
struct MmaOperandCopier {
  using L = MmaTileLayout<kCfg, X, kKContig>;
  static constexpr int kCE = L::kChunkElements;
  static constexpr int kRowsPerPass = kCfg.threads() / L::kRowChunks;
  static constexpr int kPasses = L::kRows / kRowsPerPass;
  static constexpr int kSmemPassStep = kRowsPerPass * L::kPitch;
  static_assert(kCfg.threads() % L::kRowChunks == 0 && L::kRows % kRowsPerPass == 0);
  static_assert(!kKContig || kPasses <= 31, "one bit per pass in x_state");

  // Only what the k-loop needs is kept (registers are scarce next to the accumulators);
  // the operand's base and ld are passed in again, ld straight from the kernel's
  // parameters (constant memory).
  std::int64_t offset0;        // element offset of pass 0's chunk in k-tile 0
  std::int64_t k_extent_left;  // k-contiguous: extent_k - the chunk's k; x-contiguous: extent_k - row
  int x_state;                 // k-contiguous: bit p = pass p's row inside; x-contiguous: elements inside along x
  int smem_offset;             // byte offset of pass 0's chunk in a stage

  // The swizzled position of pass p is pass 0's plus p whole row steps (compile-time check).
  static consteval bool passes_share_swizzle() {
    for (int tid = 0; tid < kCfg.threads(); ++tid)
      for (int p = 0; p < kPasses; ++p) {
        const int row = tid / L::kRowChunks + p * kRowsPerPass, chunk = tid % L::kRowChunks;
        if (L::byte_offset(row, chunk) != L::byte_offset(tid / L::kRowChunks, chunk) + p * kSmemPassStep) return false;
      }
    return true;
  }
  static_assert(passes_share_swizzle());

  __device__ MmaOperandCopier(std::int64_t ld, std::int64_t extent_x, std::int64_t extent_k, std::int64_t x0,
                              int tid) {
    const int row = tid / L::kRowChunks, chunk = tid % L::kRowChunks;
    smem_offset = L::byte_offset(row, chunk);
    if constexpr (kKContig) {
      // Rows are x, chunks run along k.
      offset0 = (x0 + row) * ld + chunk * kCE;
      k_extent_left = extent_k - chunk * kCE;
      x_state = 0;
#pragma unroll
      for (int p = 0; p < kPasses; ++p) x_state |= (x0 + row + p * kRowsPerPass < extent_x ? 1 : 0) << p;
    } else {
      // Rows are k, chunks run along x.
      offset0 = x0 + chunk * kCE + row * ld;
      k_extent_left = extent_k - row;
      const std::int64_t left = extent_x - x0 - chunk * kCE;
      x_state = int(left <= 0 ? 0 : (left >= kCE ? kCE : left));
    }
  }

  // Elements inside the matrix of pass p's chunk in k-tile kt.
  __device__ __forceinline__ int elements(int p, std::int64_t kt) const {
    const std::int64_t k_left = k_extent_left - kt * kCfg.bk;
    if constexpr (kKContig) {
      const int along = int(k_left <= 0 ? 0 : (k_left >= kCE ? kCE : k_left));
      return (x_state >> p) & 1 ? along : 0;
    } else {
      return k_left > std::int64_t(p) * kRowsPerPass ? x_state : 0;
    }
  }
  // Pass p's chunk in k-tile kt; the operand's base (never read) when the chunk is empty.
  __device__ __forceinline__ const T* source(const T* base, std::int64_t ld, int p, std::int64_t kt,
                                             int elements_inside) const {
    const std::int64_t k_step = kKContig ? std::int64_t(kCfg.bk) : kCfg.bk * ld;
    return elements_inside > 0 ? base + (offset0 + kt * k_step + p * (kRowsPerPass * ld)) : base;
  }

  // cp.async path: the 16-byte copies of k-tile kt into a stage.
  __device__ __forceinline__ void issue(char* stage, const T* base, std::int64_t ld, std::int64_t kt) const {
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      const int n = elements(p, kt);
      ptx::cp_async_cg_16(stage + smem_offset + p * kSmemPassStep, source(base, ld, p, kt, n), n * int(sizeof(T)));
    }
  }

  // Scalar-load path: k-tile kt element by element into registers, packed as chunks...
  __device__ __forceinline__ void load(uint4 (&staged)[kPasses], const T* base, std::int64_t ld,
                                       std::int64_t kt) const {
    using Traits = MmaInputTraits<kCfg.input>;
    constexpr int kBitsPerElement = 8 * int(sizeof(T));
    constexpr int kPerWord = 32 / kBitsPerElement;
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      const int n = elements(p, kt);
      const T* src = source(base, ld, p, kt, n);
      unsigned words[4] = {0u, 0u, 0u, 0u};
#pragma unroll
      for (int e = 0; e < kCE; ++e) {
        if (e < n) words[e / kPerWord] |= Traits::bits(src[e]) << (kBitsPerElement * (e % kPerWord));
      }
      staged[p] = make_uint4(words[0], words[1], words[2], words[3]);
    }
  }
  // ... and from there into a stage.
  __device__ __forceinline__ void store(char* stage, const uint4 (&staged)[kPasses]) const {
#pragma unroll
    for (int p = 0; p < kPasses; ++p) *reinterpret_cast<uint4*>(stage + smem_offset + p * kSmemPassStep) = staged[p];
  }
};

__device__ __forceinline__ unsigned mma_tf32_operand(const char* stage, int offset) {
  return ptx::cvt_rna_tf32_f32(*reinterpret_cast<const float*>(stage + offset));
}

__device__ __forceinline__ void mma_round_to_tf32(unsigned& r) { r = ptx::cvt_rna_tf32_f32(__uint_as_float(r)); }

// The A fragment of the 16 x mma_k tile at warp rows xo, k-step ks of a stage.
template <TilemmMmaSyncConfig kCfg, bool kKContig>
__device__ __forceinline__ void mma_load_a_fragment(const char* stage, unsigned stage_address, int lane_off, int xo,
                                                    int ks, unsigned (&a)[4]) {
  using F = MmaFragmentAddress<kCfg, true, kKContig>;
  if constexpr (F::kScalar) {
    a[0] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo, 8 * ks));
    a[1] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo + 8, 8 * ks));
    a[2] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo, 8 * ks + 4));
    a[3] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo + 8, 8 * ks + 4));
  } else {
    const unsigned address = stage_address + unsigned(F::ldmatrix_offset(lane_off, xo, ks));
    if constexpr (kKContig) {
      ptx::ldmatrix_sync_aligned_m8n8_x4_b16(a[0], a[1], a[2], a[3], address);
    } else {
      ptx::ldmatrix_sync_aligned_m8n8_x4_trans_b16(a[0], a[1], a[2], a[3], address);
    }
    if constexpr (kCfg.input == TilemmMmaInput::TF32) {
#pragma unroll
      for (int i = 0; i < 4; ++i) mma_round_to_tf32(a[i]);
    }
  }
}

// The B fragments of the two mma_k x 8 tiles at warp columns xo and xo + 8.
template <TilemmMmaSyncConfig kCfg, bool kKContig>
__device__ __forceinline__ void mma_load_b_fragments(const char* stage, unsigned stage_address, int lane_off, int xo,
                                                     int ks, unsigned (&b0)[2], unsigned (&b1)[2]) {
  using F = MmaFragmentAddress<kCfg, false, kKContig>;
  if constexpr (F::kScalar) {
    b0[0] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo, 8 * ks));
    b0[1] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo, 8 * ks + 4));
    b1[0] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo + 8, 8 * ks));
    b1[1] = mma_tf32_operand(stage, F::scalar_offset(lane_off, xo + 8, 8 * ks + 4));
  } else {
    const unsigned address = stage_address + unsigned(F::ldmatrix_offset(lane_off, xo, ks));
    if constexpr (kKContig) {
      ptx::ldmatrix_sync_aligned_m8n8_x4_b16(b0[0], b0[1], b1[0], b1[1], address);
    } else {
      ptx::ldmatrix_sync_aligned_m8n8_x4_trans_b16(b0[0], b0[1], b1[0], b1[1], address);
    }
    if constexpr (kCfg.input == TilemmMmaInput::TF32) {
      mma_round_to_tf32(b0[0]);
      mma_round_to_tf32(b0[1]);
      mma_round_to_tf32(b1[0]);
      mma_round_to_tf32(b1[1]);
    }
  }
}

template <TilemmMmaInput kInput>
__device__ __forceinline__ void mma_tile(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  if constexpr (kInput == TilemmMmaInput::BF16) {
    ptx::mma_sync_aligned_m16n8k16_row_col_f32_bf16_bf16_f32(d, a, b);
  } else if constexpr (kInput == TilemmMmaInput::F16) {
    ptx::mma_sync_aligned_m16n8k16_row_col_f32_f16_f16_f32(d, a, b);
  } else {
    ptx::mma_sync_aligned_m16n8k8_row_col_f32_tf32_tf32_f32(d, a, b);
  }
}

// One warp's share of one BM x BN x BK stage: BK / mma_k k-steps of m_tiles x n_tiles
// mma.sync. a_off, b_off: the lane's offsets from MmaFragmentAddress::lane_offset.
template <TilemmMmaSyncConfig kCfg, bool kAKContig, bool kBKContig>
__device__ __forceinline__ void mma_compute_stage(const char* As, const char* Bs, int a_off, int b_off,
                                                  float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4]) {
  constexpr int MT = kCfg.m_tiles(), NT = kCfg.n_tiles();
  const unsigned a_address = ptx::shared_address(As), b_address = ptx::shared_address(Bs);
  // All B fragments of a k-step, then one A fragment at a time with its row of
  // mma.sync: fewer fragments live at once next to the 128 accumulators.
#pragma unroll
  for (int ks = 0; ks < kCfg.bk / kCfg.mma_k(); ++ks) {
    unsigned b[NT][2];
#pragma unroll
    for (int j = 0; j < NT; j += 2)
      mma_load_b_fragments<kCfg, kBKContig>(Bs, b_address, b_off, 8 * j, ks, b[j], b[j + 1]);
#pragma unroll
    for (int i = 0; i < MT; ++i) {
      unsigned a[4];
      mma_load_a_fragment<kCfg, kAKContig>(As, a_address, a_off, 16 * i, ks, a);
#pragma unroll
      for (int j = 0; j < NT; ++j) mma_tile<kCfg.input>(acc[i][j], a, b[j]);
    }
  }
}

// C = alpha * acc + beta * C for a lane's accumulators, predicated on the matrix.
template <TilemmMmaSyncConfig kCfg, class CT>
__device__ __forceinline__ void mma_store_accumulators(const MmaSyncParams& p, CT* C, std::int64_t row0,
                                                       std::int64_t col0, int lane,
                                                       const float (&acc)[kCfg.m_tiles()][kCfg.n_tiles()][4]) {
  using Traits = MmaInputTraits<kCfg.input>;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < kCfg.m_tiles(); ++i)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const std::int64_t row = row0 + 16 * i + 8 * half + g;
      if (row >= p.m) continue;
#pragma unroll
      for (int j = 0; j < kCfg.n_tiles(); ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const std::int64_t col = col0 + 8 * j + 2 * t + e;
          if (col >= p.n) continue;
          CT* c = C + row + col * p.ldc;
          const float v = acc[i][j][2 * half + e];
          if constexpr (std::is_same_v<CT, float>) {
            *c = p.beta == 0.0f ? p.alpha * v : p.alpha * v + p.beta * *c;
          } else {
            const float out = p.beta == 0.0f ? p.alpha * v : p.alpha * v + p.beta * Traits::to_float(*c);
            *c = Traits::from_float(out);
          }
        }
    }
}

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
  static_assert(S * std::int64_t(kStageBytes) <= kCfg.smem_bytes());
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
  const std::int64_t k_tiles = (p.k + BK - 1) / BK;

  for (std::int64_t b = blockIdx.z; b < p.batch; b += gridDim.z) {
    const T* const A = static_cast<const T*>(p.A) + b * p.stride_a;
    const T* const B = static_cast<const T*>(p.B) + b * p.stride_b;
    const MmaOperandCopier<kCfg, BM, kAKContig, T> copy_a(p.lda, p.m, p.k, m0, tid);
    for (std::int64_t ct = blockIdx.y; ct < col_tiles; ct += gridDim.y) {
      const std::int64_t n0 = ct * BN;
      const MmaOperandCopier<kCfg, BN, kBKContig, T> copy_b(p.ldb, p.n, p.k, n0, tid);
      float acc[kCfg.m_tiles()][kCfg.n_tiles()][4] = {};

      if constexpr (kCfg.load == TilemmMmaOperandLoad::AsyncCopy16) {
        // Prologue: the first S - 1 tiles in flight, one commit group each (empty
        // groups past the last tile keep the group count uniform for wait_group).
#pragma unroll
        for (int s = 0; s < S - 1; ++s) {
          if (s < k_tiles) {
            copy_a.issue(stage_a(s), A, p.lda, s);
            copy_b.issue(stage_b(s), B, p.ldb, s);
          }
          ptx::cp_async_commit_group();
        }
        for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
          // Tile kt has landed (at most S - 2 younger groups still travel), and every
          // warp has finished reading the buffer that the next copies overwrite.
          ptx::cp_async_wait_group<S - 2>();
          __syncthreads();
          const std::int64_t next = kt + S - 1;
          if (next < k_tiles) {
            const int s = int(next % S);
            copy_a.issue(stage_a(s), A, p.lda, next);
            copy_b.issue(stage_b(s), B, p.ldb, next);
          }
          ptx::cp_async_commit_group();
          const int s = int(kt % S);
          mma_compute_stage<kCfg, kAKContig, kBKContig>(stage_a(s), stage_b(s), a_off, b_off, acc);
        }
        // Drain (only empty groups remain) and let every warp finish reading before the
        // next column tile's prologue refills the buffers.
        ptx::cp_async_wait_group<0>();
        __syncthreads();
      } else {
        uint4 staged_a[decltype(copy_a)::kPasses];
        uint4 staged_b[decltype(copy_b)::kPasses];
        if (k_tiles > 0) {
          copy_a.load(staged_a, A, p.lda, 0);
          copy_b.load(staged_b, B, p.ldb, 0);
          copy_a.store(stage_a(0), staged_a);
          copy_b.store(stage_b(0), staged_b);
        }
        __syncthreads();
        for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
          const bool more = kt + 1 < k_tiles;
          // Loads of tile kt + 1 travel while the tensor cores work on tile kt.
          if (more) {
            copy_a.load(staged_a, A, p.lda, kt + 1);
            copy_b.load(staged_b, B, p.ldb, kt + 1);
          }
          const int s = int(kt % 2);
          mma_compute_stage<kCfg, kAKContig, kBKContig>(stage_a(s), stage_b(s), a_off, b_off, acc);
          // The other buffer was last read in iteration kt - 1, before its closing
          // barrier; this iteration's barrier publishes tile kt + 1 and, after the
          // last tile, lets every warp finish reading before the next column tile.
          if (more) {
            copy_a.store(stage_a(1 - s), staged_a);
            copy_b.store(stage_b(1 - s), staged_b);
          }
          __syncthreads();
        }
      }

      const std::int64_t row0 = m0 + warp_m0, col0 = n0 + warp_n0;
      if (p.c_is_fp32) {
        mma_store_accumulators<kCfg>(p, static_cast<float*>(p.C) + b * p.stride_c, row0, col0, lane, acc);
      } else if constexpr (!std::is_same_v<T, float>) {
        mma_store_accumulators<kCfg>(p, static_cast<T*>(p.C) + b * p.stride_c, row0, col0, lane, acc);
      }
    }
  }
}

template <TilemmMmaSyncConfig kCfg>
cudaError_t launch_mma_sync(const GemmProblem& prob, cudaStream_t stream) {
  const MmaSyncParams params = make_mma_sync_params(prob);
  const std::int64_t blocks_y = std::min<std::int64_t>((prob.n + kCfg.bn - 1) / kCfg.bn, 65535);
  const dim3 grid(ceil_div_u(prob.m, kCfg.bm), static_cast<unsigned>(blocks_y), grid_z_for(prob.batch));
  return dispatch_ops(prob, [&]<bool kTA, bool kTB>() {
    const auto kernel = mma_sync_gemm<kCfg, kTA, kTB>;
    constexpr std::int64_t smem = kCfg.smem_bytes();
    // Above 48 KB a kernel must opt in to its dynamic shared memory, once per kernel.
    static std::once_flag opted_in;
    static cudaError_t opt_in_error = cudaSuccess;
    std::call_once(opted_in, [&] {
      opt_in_error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    });
    if (opt_in_error != cudaSuccess) return opt_in_error;
    kernel<<<grid, kCfg.threads(), smem, stream>>>(params);
    return cudaGetLastError();
  });
}

// The share of the machine a grid of tiles keeps busy: the last wave is partial.
inline double mma_sync_wave_efficiency(std::int64_t tiles, std::int64_t resident_blocks) {
  if (tiles <= 0 || resident_blocks <= 0) return 0.0;
  const std::int64_t waves = (tiles + resident_blocks - 1) / resident_blocks;
  return double(tiles) / double(waves * resident_blocks);
}

template <TilemmMmaSyncConfig kCfg>
int mma_sync_blocks_per_sm() {
  static const int blocks = [] {
    int n = 0;
    const auto kernel = mma_sync_gemm<kCfg, false, false>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kCfg.smem_bytes()));
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, kCfg.threads(), kCfg.smem_bytes()) !=
        cudaSuccess) {
      cudaGetLastError();
      n = 1;
    }
    return n > 0 ? n : 1;
  }();
  return blocks;
}

template <TilemmMmaSyncConfig kCfg>
std::string mma_sync_name() {
  const bool async = kCfg.load == TilemmMmaOperandLoad::AsyncCopy16;
  return std::string("mma_sync.") + MmaInputTraits<kCfg.input>::kName + "." + std::to_string(kCfg.bm) + "x" +
         std::to_string(kCfg.bn) + "x" + std::to_string(kCfg.bk) + ".w" + std::to_string(kCfg.warp_tile_m()) +
         "x" + std::to_string(kCfg.warp_tile_n()) + ".s" + std::to_string(kCfg.stages) +
         (async ? ".cp16" : (kCfg.element_bytes() == 2 ? ".ldg2" : ".ldg4"));
}

// The types the configuration computes, as a can_implement reason.
template <TilemmMmaInput kInput>
std::string mma_sync_require_types(const GemmProblem& p) {
  if constexpr (kInput == TilemmMmaInput::TF32) {
    if (p.a_type != DType::F32 || p.b_type != DType::F32 || p.c_type != DType::F32 ||
        p.compute != Compute::F32_FAST_TF32) {
      return "supports only fp32 A, B, C with TILEMM_COMPUTE_32F_FAST_TF32 (tf32 tensor cores)";
    }
  } else {
    constexpr DType t = MmaInputTraits<kInput>::kDType;
    if (p.a_type != t || p.b_type != t || (p.c_type != t && p.c_type != DType::F32) || p.compute != Compute::F32) {
      return std::string("supports only ") + dtype_name(t) + " A and B, C in " + dtype_name(t) +
             " or fp32, with fp32 accumulation";
    }
  }
  return {};
}

inline bool mma_sync_aligned_to(const void* ptr, std::int64_t bytes) {
  return reinterpret_cast<std::uintptr_t>(ptr) % std::uintptr_t(bytes) == 0;
}

template <TilemmMmaSyncConfig kCfg>
std::string mma_sync_can_implement(const GemmProblem& p, const DeviceInfo& dev) {
  std::string r = mma_sync_require_types<kCfg.input>(p);
  if (r.empty()) r = require_compute_capability(dev, 80);
  if (!r.empty()) return r;
  if (kCfg.smem_bytes() > dev.smem_per_block_optin) {
    return "needs " + std::to_string(kCfg.smem_bytes()) + " bytes of shared memory per block, device allows " +
           std::to_string(dev.smem_per_block_optin);
  }
  const std::int64_t eb = kCfg.element_bytes();
  const std::int64_t c_bytes = dtype_size(p.c_type);
  if (!mma_sync_aligned_to(p.A, eb) || !mma_sync_aligned_to(p.B, eb) || !mma_sync_aligned_to(p.C, c_bytes)) {
    return "A, B and C must be aligned to their element size";
  }
  if constexpr (kCfg.load == TilemmMmaOperandLoad::AsyncCopy16) {
    // Every chunk starts at a multiple of chunk_elements along the contiguous direction
    // of its row, so it is 16-byte aligned when the base, ld and strides are.
    const std::int64_t ce = kCfg.chunk_elements();
    const auto chunks_aligned = [&](const void* base, std::int64_t ld, std::int64_t stride) {
      return mma_sync_aligned_to(base, 16) && ld % ce == 0 && (p.batch <= 1 || stride % ce == 0);
    };
    const std::string rule = " (and the batch stride) a multiple of " + std::to_string(ce) + " elements";
    if (!chunks_aligned(p.A, p.lda, p.stride_a)) return "A must be 16-byte aligned with lda" + rule;
    if (!chunks_aligned(p.B, p.ldb, p.stride_b)) return "B must be 16-byte aligned with ldb" + rule;
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
  e.summary = std::string("mma.sync tensor cores (") + MmaInputTraits<kCfg.input>::kName + "), ldmatrix from " +
              (kAsync ? std::to_string(kCfg.stages) + "-stage swizzled cp.async ring"
                      : std::string("swizzled buffers filled by scalar loads (any leading dimension)"));
  e.dtypes = MmaInputTraits<kCfg.input>::kName;
  e.min_compute_capability = 80;
  const std::string ce = std::to_string(kCfg.chunk_elements());
  e.requirements = kAsync ? "compute capability 8.0; A and B 16-byte aligned, lda/ldb (and batch strides) "
                            "multiples of " + ce + " elements"
                          : std::string("compute capability 8.0; A, B, C aligned to their element size");
  e.arithmetic_intensity = double(kCfg.bm) * kCfg.bn / (double(kCfg.bm + kCfg.bn) * kCfg.element_bytes() / 2.0);
  e.auto_eligible = true;
  // Above every CUDA-core kernel (scores <= 1100); they never compete anyway, since only
  // tensor-core kernels compute these types. Among these: the prior speed times the
  // share of the GPU the problem's tiles keep busy, and every cp.async variant above
  // every scalar-load one (2100-2200 against 2000-2100), so the scalar loads run only
  // where the alignment rules out the copies.
  const double base = kAsync ? 2100.0 : 2000.0;
  e.auto_priority = int(base);
  e.auto_score = [relative_speed, base](const GemmProblem& p, const DeviceInfo& dev) {
    const std::int64_t tiles = ((p.m + kCfg.bm - 1) / kCfg.bm) * ((p.n + kCfg.bn - 1) / kCfg.bn) * p.batch;
    const double eff = mma_sync_wave_efficiency(tiles, std::int64_t(dev.sm_count) * mma_sync_blocks_per_sm<kCfg>());
    return base + 100.0 * relative_speed * eff;
  };
  e.can_implement = mma_sync_can_implement<kCfg>;
  e.launch = launch_mma_sync<kCfg>;
  e.resources = [] {
    return KernelResources{reinterpret_cast<const void*>(&mma_sync_gemm<kCfg, false, false>), kCfg.threads(),
                           kCfg.smem_bytes()};
  };
  return e;
}

// The configurations of one input type: {bm, bn, bk, warps_m, warps_n, stages, load,
// min blocks per SM}; bk is 32 halves or 16 floats, 64 bytes per shared row either way.
template <TilemmMmaInput kIn>
void add_mma_sync_configs(Registry& r) {
  constexpr int kBK = kIn == TilemmMmaInput::TF32 ? 16 : 32;
  constexpr auto kAsync = TilemmMmaOperandLoad::AsyncCopy16;
  // 8 warps of 64 x 64: the most reuse per ldmatrix; one block per SM.
  r.add(make_mma_sync_entry<TilemmMmaSyncConfig{kIn, 128, 256, kBK, 2, 4, 3, kAsync, 1}>(1.00));
  // 4 warps of 64 x 64: two blocks per SM, twice the tiles for mid-size problems.
  r.add(make_mma_sync_entry<TilemmMmaSyncConfig{kIn, 128, 128, kBK, 2, 2, 4, kAsync, 2}>(0.95));
  // 4 warps of 32 x 32: small and skinny problems, where tiles are few. (Three blocks
  // per SM: at four, 128 registers, the tf32 4-byte-read variants spill.)
  r.add(make_mma_sync_entry<TilemmMmaSyncConfig{kIn, 64, 64, kBK, 2, 2, 4, kAsync, 3}>(0.60));
  // Any leading dimension: 8 warps of 64 x 32 (the staged chunks need registers too).
  r.add(make_mma_sync_entry<TilemmMmaSyncConfig{kIn, 128, 128, kBK, 2, 4, 2, TilemmMmaOperandLoad::ScalarRegisters,
                                                1}>(0.50));
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
