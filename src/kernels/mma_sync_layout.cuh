// The index math of the mma_sync kernels (src/kernels/mma_sync.cu, where the design is
// explained): the configuration, the shared-memory layouts with their swizzles, where
// each lane's fragment reads land, and which chunks each thread copies. Kept apart from
// the kernels so that a CPU test can run the very same code through a model of
// ldmatrix and mma.sync (tests/cpu/test_mma_sync_layout.cu).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "core/problem.hpp"
#include "kernels/element_loads.hpp"
#include "ptx/cp_async.cuh"

// See naive.cu: kernel configurations are global-namespace types for nvcc 13.
enum class TilemmMmaInput { BF16, F16, TF32 };
// AsyncCopy16: 16-byte cp.async ring. ScalarRegisters: element loads staged in registers one
// k-tile ahead, two shared buffers. RegistersAhead: element loads (elements_per_load at a
// time) held in registers stages - 1 k-tiles ahead, a ring of `stages` shared buffers.
enum class TilemmMmaOperandLoad { AsyncCopy16, ScalarRegisters, RegistersAhead };

struct TilemmMmaSyncConfig {
  TilemmMmaInput input;
  int bm, bn, bk;  // block tile; bk in elements
  int warps_m, warps_n;
  int stages;  // shared-memory buffers: the cp.async ring depth (ScalarRegisters: 2)
  TilemmMmaOperandLoad load;
  int min_blocks_per_sm;  // __launch_bounds__ occupancy target
  // RegistersAhead: elements per load of both operands, 1 (any address) or, 16-bit only, 2
  // or 4 (the launcher's choice where the operands allow it); 0 for the other loads, but for
  // `.smemstore`'s ScalarRegisters, whose launcher also picks 2 or 4 where it may (0: one).
  int elements_per_load = 0;
  // RegistersAhead on sm_90 (`.clusterk`): a tile's k cut into slices, one CTA of a cluster
  // each, summed through distributed shared memory (mma_sum_cluster_slices); the launcher
  // picks the slice count.
  bool cluster_k = false;
  // `.smemstore`: the accumulators leave through shared memory (mma_store_accumulators_through_smem),
  // so that each warp store writes whole columns of C: for products with short k, whose
  // time is C's stores.
  bool smem_store = false;

  consteval int element_bytes() const { return input == TilemmMmaInput::TF32 ? 4 : 2; }
  consteval int chunk_elements() const { return 16 / element_bytes(); }  // one 16-byte chunk
  consteval int mma_k() const { return input == TilemmMmaInput::TF32 ? 8 : 16; }
  consteval int warp_tile_m() const { return bm / warps_m; }
  consteval int warp_tile_n() const { return bn / warps_n; }
  consteval int m_tiles() const { return warp_tile_m() / 16; }  // mma tiles per warp along m
  consteval int n_tiles() const { return warp_tile_n() / 8; }   // and along n
  consteval int threads() const { return 32 * warps_m * warps_n; }
  // The ring: the largest stage over the four ops (tf32 rows read by 4-byte loads carry 32
  // bytes of padding, see MmaTileLayout), for every op.
  consteval std::int64_t ring_bytes() const {
    const int padding = input == TilemmMmaInput::TF32 ? 2 * bk * 32 : 0;
    return std::int64_t(stages) * ((bm + bn) * bk * element_bytes() + padding);
  }
  // A block's shared memory: the ring and, for `.clusterk`, past it, where its tile's k-slices
  // meet (cluster_sum_bytes).
  consteval std::int64_t smem_bytes() const;
  // `.smemstore`: the fp32 tile, column by column, each column padded by 4 floats (so that
  // the fragments' writes and the columns' 16-byte reads are free of bank conflicts).
  consteval int staged_column_floats() const { return bm + 4; }
  consteval std::int64_t staged_c_bytes() const { return std::int64_t(4) * bn * staged_column_floats(); }
  static consteval bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }
  consteval bool valid() const {
    const int ce = chunk_elements();
    // Chunks per shared row: bk / ce (k-contiguous) and bm / ce, bn / ce (x-contiguous),
    // powers of two for the XOR swizzle; x-contiguous rows of at least 8 chunks.
    return warps_m * warp_tile_m() == bm && warps_n * warp_tile_n() == bn && warp_tile_m() % 16 == 0 &&
           warp_tile_n() % 16 == 0 && bk % mma_k() == 0 && power_of_two(bk / ce) && bk / ce >= 2 &&
           bk / ce <= 8 && power_of_two(bm / ce) && power_of_two(bn / ce) && bm / ce >= 8 && bn / ce >= 8 &&
           stages >= 2 && stages <= 8 && (load != TilemmMmaOperandLoad::ScalarRegisters || stages == 2) &&
           (load == TilemmMmaOperandLoad::RegistersAhead
                ? stages >= 3 && (elements_per_load == 1 || (element_bytes() == 2 && (elements_per_load == 2 ||
                                                                                      elements_per_load == 4)))
                : elements_per_load == 0 || (load == TilemmMmaOperandLoad::ScalarRegisters && smem_store &&
                                             element_bytes() == 2 &&
                                             (elements_per_load == 2 || elements_per_load == 4))) &&
           (!cluster_k || load == TilemmMmaOperandLoad::RegistersAhead) && !(cluster_k && smem_store) &&
           threads() <= 1024 && bm * bk / ce % threads() == 0 && bn * bk / ce % threads() == 0 &&
           min_blocks_per_sm >= 1;
  }
};

// What a CTA of a `.clusterk` launch (k-slices of one tile summed across a cluster,
// mma_sum_cluster_slices) holds past its ring for a bm x bn tile cut into at most
// most_slices slices: one slot per slice of the elements it stores (the tile's over the
// slices, rounded up to 4 floats for 16-byte reads), so at most the tile plus 4 floats a
// slice, then the 8-byte mbarrier that counts the bytes its peers push (16 for alignment).
consteval std::int64_t cluster_sum_slot_bytes(int bm, int bn, int most_slices) {
  return 4 * (std::int64_t(bm) * bn + 4 * most_slices);
}
consteval std::int64_t cluster_sum_bytes(int bm, int bn, int most_slices) {
  return cluster_sum_slot_bytes(bm, bn, most_slices) + 16;
}

consteval std::int64_t TilemmMmaSyncConfig::smem_bytes() const {
  if (smem_store) return ring_bytes() > staged_c_bytes() ? ring_bytes() : staged_c_bytes();
  return ring_bytes() + (cluster_k ? cluster_sum_bytes(bm, bn, tilemm::kernels::kAheadMostSlices) : 0);
}

namespace tilemm::kernels {

template <TilemmMmaInput kInput>
struct MmaInputTraits;
template <>
struct MmaInputTraits<TilemmMmaInput::BF16> {
  using Element = __nv_bfloat16;
  static constexpr DType kDType = DType::BF16;
  static constexpr const char* kName = "bf16";
  __device__ static unsigned bits(Element x) { return __bfloat16_as_ushort(x); }
};
template <>
struct MmaInputTraits<TilemmMmaInput::F16> {
  using Element = __half;
  static constexpr DType kDType = DType::F16;
  static constexpr const char* kName = "fp16";
  __device__ static unsigned bits(Element x) { return __half_as_ushort(x); }
};
template <>
struct MmaInputTraits<TilemmMmaInput::TF32> {
  using Element = float;
  static constexpr DType kDType = DType::F32;
  static constexpr const char* kName = "tf32";
  __device__ static unsigned bits(Element x) { return __float_as_uint(x); }
};

// The types a tensor-core configuration computes, as a can_implement reason (mma_sync
// and wgmma).
template <TilemmMmaInput kInput>
std::string require_tensor_core_types(const GemmProblem& p) {
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

// The registered configurations of one input type: {bm, bn, bk, warps_m, warps_n,
// stages, load, min blocks per SM}, bk 32 halves or 16 floats (64 bytes per shared row
// either way), with their speeds relative to the fastest, measured on an H200 at
// 4096^3 and 8192^3 NN (bf16: 271/287, 315/316, 230/184, 63/65 TFLOP/s; fp16 within 3%
// of bf16; tf32: 123/125, 136/128, 90/77, 65/68). The 64 x 64 entry keeps a prior
// between its two measurements: it is chosen for problems with few tiles, where its
// wave efficiency, not its large-square speed, decides. `.ahead` is scored by its own rules
// within two waves (make_mma_sync_entry); its prior puts it below the 128 x 128 scalar-load
// tile beyond, where that ran faster (H200, bf16 NN: 1449^2 x 16-63 13.5-16.2 us against
// 13.6-17.0, 2049 x 1024 x 16-63 12.4-15.2 against 13.1-16.2, 2049^2 18.6-25.2 against
// 22.5-28.3; within two waves, 1001^2 and 2049 x 512, `.ahead` ran 1.05-1.15x faster).
// `.smemstore` is scored by its own rule only (short k where an operand is unreadable).
template <TilemmMmaInput kIn>
struct MmaSyncConfigTable {
  static constexpr int kBK = kIn == TilemmMmaInput::TF32 ? 16 : 32;
  static constexpr auto kAsync = TilemmMmaOperandLoad::AsyncCopy16;
  static constexpr TilemmMmaSyncConfig configs[] = {
      // 8 warps of 64 x 64: the most reuse per ldmatrix; one block per SM.
      {kIn, 128, 256, kBK, 2, 4, 3, kAsync, 1},
      // 4 warps of 64 x 64: two blocks per SM, twice the tiles for mid-size problems.
      {kIn, 128, 128, kBK, 2, 2, 4, kAsync, 2},
      // 4 warps of 32 x 32: small and skinny problems, where tiles are few. (Three
      // blocks per SM: at four, 128 registers, the tf32 4-byte-read variants spill.)
      {kIn, 64, 64, kBK, 2, 2, 4, kAsync, 3},
      // Any leading dimension: 8 warps of 64 x 32 (the staged chunks need registers too).
      {kIn, 128, 128, kBK, 2, 4, 2, TilemmMmaOperandLoad::ScalarRegisters, 1},
      // Any leading dimension, for small products, whose time is load latency: 8 warps of
      // 32 x 16, 32-element k-tiles (tf32 too) held 4 ahead, so k <= 128 is in flight at once
      // (one block per SM: 128-179 registers a thread, most of them the held elements).
      {kIn, kAheadTile, kAheadTile, 32, 2, 4, 5, TilemmMmaOperandLoad::RegistersAhead, 1, 1},
      // The same with k cut into slices, one CTA of a cluster each (sm_90, `.clusterk`), for
      // small products whose k takes more than a round trip and a half of the loads held
      // ahead (ahead_cluster_k_from).
      {kIn, kAheadTile, kAheadTile, 32, 2, 4, 5, TilemmMmaOperandLoad::RegistersAhead, 1, 1, true},
      // Products with short k, whose time is C's stores: 4 warps of 32 x 64 on a 64 x 128 tile
      // (three blocks per SM: 152-168 registers), any leading dimension, C stored through
      // shared memory (`.smemstore`).
      {kIn, 64, 128, kBK, 2, 2, 2, TilemmMmaOperandLoad::ScalarRegisters, 3, 0, false, true},
  };
  static constexpr double relative_speed[] = {0.88, 1.00, 0.65, 0.20, 0.08, 0.08, 0.05};
  static constexpr int kCount = int(sizeof(configs) / sizeof(configs[0]));
};

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

  // (Host-callable too, like the layouts: the geometry can be checked without a GPU.)
  __host__ __device__ MmaOperandCopier(std::int64_t ld, std::int64_t extent_x, std::int64_t extent_k,
                                       std::int64_t x0, int tid) {
    const int row = tid / L::kRowChunks, chunk = tid % L::kRowChunks;
    smem_offset = L::byte_offset(row, chunk);
    if constexpr (kKContig) {
      // Rows are x, chunks run along k.
      offset0 = (x0 + row) * ld + chunk * kCE;
      k_extent_left = extent_k - chunk * kCE;
      x_state = 0;
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
  __host__ __device__ __forceinline__ int elements(int p, std::int64_t kt) const {
    const std::int64_t k_left = k_extent_left - kt * kCfg.bk;
    if constexpr (kKContig) {
      const int along = int(k_left <= 0 ? 0 : (k_left >= kCE ? kCE : k_left));
      return (x_state >> p) & 1 ? along : 0;
    } else {
      return k_left > std::int64_t(p) * kRowsPerPass ? x_state : 0;
    }
  }
  // Pass p's chunk in k-tile kt; the operand's base (never read) when the chunk is empty.
  __host__ __device__ __forceinline__ const T* source(const T* base, std::int64_t ld, int p, std::int64_t kt,
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

  // Scalar-load path: k-tile kt element by element into registers, one register per
  // element (load_held<1>), then packed as chunks (pack)...
  // Every load of the tile is issued before any is packed: a load's register is busy
  // until the load returns, and packing 16-bit elements as they were loaded made the
  // warps wait for each pass's loads before issuing the next pass's (docs/ladder.md,
  // step 29). A deeper pipeline keeps several tiles' loads in flight, Held<kVec> each, and
  // packs each tile just before storing it (store_held). kVec: elements per load, 1 (any
  // address) or, for 16-bit elements where every piece of kVec elements a chunk holds is
  // aligned and either whole or empty (the caller checks ld, the base and the operand's
  // extent along the chunks), 2 or 4: one 4- or 8-byte load per piece, which arrives packed.
  template <int kVec>
  using Held = std::conditional_t<kVec == 1, unsigned[kPasses][kCE], unsigned[kPasses][4]>;
  template <int kVec>
  __device__ __forceinline__ void load_held(Held<kVec>& held, const T* base, std::int64_t ld, std::int64_t kt) const {
    static_assert(kVec == 1 || ((kVec == 2 || kVec == 4) && sizeof(T) == 2));
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      const int n = elements(p, kt);
      const T* src = source(base, ld, p, kt, n);
      if constexpr (kVec == 1) {
#pragma unroll
        for (int e = 0; e < kCE; ++e) held[p][e] = e < n ? MmaInputTraits<kCfg.input>::bits(src[e]) : 0u;
      } else if constexpr (kVec == 2) {
#pragma unroll
        for (int w = 0; w < 4; ++w) held[p][w] = 2 * w < n ? *reinterpret_cast<const unsigned*>(src + 2 * w) : 0u;
      } else {
#pragma unroll
        for (int v = 0; v < 2; ++v) {
          const uint2 piece = 4 * v < n ? *reinterpret_cast<const uint2*>(src + 4 * v) : make_uint2(0u, 0u);
          held[p][2 * v] = piece.x;
          held[p][2 * v + 1] = piece.y;
        }
      }
    }
  }
  __device__ __forceinline__ static uint4 pack(const unsigned (&chunk)[kCE]) {
    constexpr int kBitsPerElement = 8 * int(sizeof(T));
    constexpr int kPerWord = 32 / kBitsPerElement;
    unsigned words[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int e = 0; e < kCE; ++e) words[e / kPerWord] |= chunk[e] << (kBitsPerElement * (e % kPerWord));
    return make_uint4(words[0], words[1], words[2], words[3]);
  }
  __device__ __forceinline__ void load(uint4 (&staged)[kPasses], const T* base, std::int64_t ld,
                                       std::int64_t kt) const {
    Held<1> loaded;
    load_held<1>(loaded, base, ld, kt);
#pragma unroll
    for (int p = 0; p < kPasses; ++p) staged[p] = pack(loaded[p]);
  }
  // ... and from there into a stage.
  __device__ __forceinline__ void store(char* stage, const uint4 (&staged)[kPasses]) const {
#pragma unroll
    for (int p = 0; p < kPasses; ++p) *reinterpret_cast<uint4*>(stage + smem_offset + p * kSmemPassStep) = staged[p];
  }
  template <int kVec>
  __device__ __forceinline__ void store_held(char* stage, const Held<kVec>& held) const {
    uint4 staged[kPasses];
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      if constexpr (kVec == 1) {
        staged[p] = pack(held[p]);
      } else {
        staged[p] = make_uint4(held[p][0], held[p][1], held[p][2], held[p][3]);
      }
    }
    store(stage, staged);
  }
  // The register-staged loop's two forms behind one pair of calls: Staged<0> is a tile
  // loaded element by element and packed as it arrives (load, store); Staged<2> and
  // Staged<4> hold the 4- or 8-byte loads of 16-bit pieces, packed when stored
  // (load_held, store_held).
  template <int kVec>
  using Staged = std::conditional_t<kVec == 0, uint4[kPasses], Held<kVec == 0 ? 2 : kVec>>;
  template <int kVec>
  __device__ __forceinline__ void load_staged(Staged<kVec>& staged, const T* base, std::int64_t ld,
                                              std::int64_t kt) const {
    if constexpr (kVec == 0) {
      load(staged, base, ld, kt);
    } else {
      load_held<kVec>(staged, base, ld, kt);
    }
  }
  template <int kVec>
  __device__ __forceinline__ void store_staged(char* stage, const Staged<kVec>& staged) const {
    if constexpr (kVec == 0) {
      store(stage, staged);
    } else {
      store_held<kVec>(stage, staged);
    }
  }
};

}  // namespace tilemm::kernels
