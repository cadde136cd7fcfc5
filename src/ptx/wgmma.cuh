// Wrappers for Hopper's warpgroup-level tensor-core instructions (sm_90a only).
// PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions":
// wgmma.mma_async, wgmma.fence, wgmma.commit_group, wgmma.wait_group, the matrix
// descriptor ("Matrix Descriptor Format"), and setmaxnreg.
//
// One wgmma.mma_async.m64nNk16 is issued by a warpgroup (4 consecutive warps, the first
// a multiple of 4): D (64 x N, fp32, in registers) += A (64 x 16) * B (16 x N), with A
// and B read by the tensor cores straight from shared memory through 64-bit matrix
// descriptors. It is asynchronous: it returns before the product is done, a group of
// them is closed by commit_group and waited for by wait_group, and the accumulator
// registers may not be touched in between.
//
// Accumulator layout (m64nNk16, fp32): with w = warp in the warpgroup, g = lane / 4,
// t = lane % 4, thread register d[4j + 2h + e] holds D(16w + g + 8h, 8j + 2t + e),
// j in [0, N/8), h and e in {0, 1}: the mma.sync m16n8 layout, 4 warps tall, N/8 wide.
//
// Shared-memory layouts used here, 128-byte swizzle (a tile written by TMA with
// CU_TENSOR_MAP_SWIZZLE_128B, 1024-byte aligned): rows of 128 bytes (64 16-bit
// elements), 16-byte chunk c of row r stored at chunk c ^ (r mod 8).
//   K-major (k contiguous; rows are m or n):       SBO = 1024 (8 rows to the next 8),
//       LBO unused; the k16 slice s of a 64-wide tile starts 32 * s bytes in.
//   MN-major (m or n contiguous; rows are k):       64-element column blocks of 64 rows
//       (8 KB each), LBO = 8192 (one block to the next along m or n), SBO = 1024 (8
//       k rows to the next 8); the k16 slice s starts 2048 * s bytes in.
// And one 64-byte swizzle layout (CU_TENSOR_MAP_SWIZZLE_64B, 512-byte aligned): rows of 64
// bytes, 16-byte chunk c of row r stored at chunk c ^ ((r / 2) mod 4), a 512-byte period.
//   MN-major, 32 wide (a tile of 32 rows along wgmma's N): one 32-element column block of
//       64 k rows (4 KB), SBO = 512 (8 k rows to the next 8), LBO unused (no second
//       block along N); the k16 slice s starts 1024 * s bytes in.
// 16-bit inputs may be either major (imm-trans 0 = K-major, 1 = MN-major); tf32 inputs
// (m64nNk8, 32 fp32 per 128-byte row, the k8 slice s 32 * s bytes in) only K-major.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace tilemm::ptx {

// The accumulator operands of m64n{32,64,128,192,256}: the PTX register list ("%0, ..., %15")
// and the matching "+f" constraints for d[0..15], each longer list extending the shorter.
#define TILEMM_WGMMA_D_REGS_16 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"

#define TILEMM_WGMMA_D_REGS_32 \
  TILEMM_WGMMA_D_REGS_16 \
  ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"

#define TILEMM_WGMMA_D_REGS_64 \
  TILEMM_WGMMA_D_REGS_32 \
  ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47" \
  ", %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"

#define TILEMM_WGMMA_D_REGS_96 \
  TILEMM_WGMMA_D_REGS_64 \
  ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79" \
  ", %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"

#define TILEMM_WGMMA_D_REGS_128 \
  TILEMM_WGMMA_D_REGS_96 \
  ", %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111" \
  ", %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

#define TILEMM_WGMMA_D_OPERANDS_16(d) \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])

#define TILEMM_WGMMA_D_OPERANDS_32(d) \
  TILEMM_WGMMA_D_OPERANDS_16(d), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])

#define TILEMM_WGMMA_D_OPERANDS_64(d) \
  TILEMM_WGMMA_D_OPERANDS_32(d), \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])

#define TILEMM_WGMMA_D_OPERANDS_96(d) \
  TILEMM_WGMMA_D_OPERANDS_64(d), \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])

#define TILEMM_WGMMA_D_OPERANDS_128(d) \
  TILEMM_WGMMA_D_OPERANDS_96(d), \
  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

// wgmma.fence.sync.aligned: orders this warpgroup's register accesses (the zeroed or
// read accumulators) before the wgmma.mma_async that follow.
__device__ __forceinline__ void wgmma_fence_sync_aligned() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

// wgmma.commit_group.sync.aligned: closes the group of wgmma.mma_async issued so far.
__device__ __forceinline__ void wgmma_commit_group_sync_aligned() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

// wgmma.wait_group.sync.aligned N: waits until at most N groups are pending; the
// accumulators of the completed groups may then be read and their operands reused.
template <int N>
__device__ __forceinline__ void wgmma_wait_group_sync_aligned() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// The 64-bit shared-memory matrix descriptor: start address, leading and stride byte
// offsets, each encoded as (bytes & 0x3FFFF) >> 4; base offset 0 (the swizzle pattern
// starts at a boundary of its period); bits 62-63 the swizzle mode (1 = 128-byte,
// 2 = 64-byte).
__device__ __forceinline__ std::uint64_t wgmma_descriptor(unsigned smem_address, unsigned leading_byte_offset,
                                                          unsigned stride_byte_offset, unsigned swizzle_mode) {
  const auto encode = [](unsigned bytes) { return std::uint64_t((bytes & 0x3FFFFu) >> 4); };
  return encode(smem_address) | (encode(leading_byte_offset) << 16) | (encode(stride_byte_offset) << 32) |
         (std::uint64_t(swizzle_mode) << 62);
}

// 128-byte swizzle (tiles 1024-byte aligned).
__device__ __forceinline__ std::uint64_t wgmma_descriptor_swizzle128(unsigned smem_address,
                                                                     unsigned leading_byte_offset,
                                                                     unsigned stride_byte_offset) {
  return wgmma_descriptor(smem_address, leading_byte_offset, stride_byte_offset, 1u);
}

// 64-byte swizzle (tiles 512-byte aligned): the MN-major tile of 32 rows or columns.
__device__ __forceinline__ std::uint64_t wgmma_descriptor_swizzle64(unsigned smem_address,
                                                                    unsigned leading_byte_offset,
                                                                    unsigned stride_byte_offset) {
  return wgmma_descriptor(smem_address, leading_byte_offset, stride_byte_offset, 2u);
}

enum class WgmmaInput { BF16, F16, TF32 };

// wgmma.mma_async.sync.aligned.m64n{32,64,128,192,256}k16.f32.{bf16,f16}.{bf16,f16}
//   d, a-desc, b-desc, scale-d = 1, imm-scale-a = 1, imm-scale-b = 1, imm-trans-a, imm-trans-b
// d += A * B with fp32 accumulation; kTransA / kTransB = 1 for MN-major operands.
template <int kN, WgmmaInput kIn, int kTransA, int kTransB>
__device__ __forceinline__ void wgmma_mma_async_m64nNk16_f32(float (&d)[kN / 2], std::uint64_t desc_a,
                                                             std::uint64_t desc_b) {
  static_assert(kN == 32 || kN == 64 || kN == 128 || kN == 192 || kN == 256,
                "instantiated for N = 32, 64, 128, 192 and 256");
// ops: the operand numbers of a-desc, b-desc, scale-d, imm-trans-a, imm-trans-b.
#define TILEMM_WGMMA_ASM(shape, type, regs, operands, a, b, scale, ta, tb)                                 \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" scale ", 0;\n"                                         \
               "wgmma.mma_async.sync.aligned." shape ".f32." type "." type " {" regs "}, %" a ", %" b       \
               ", p, 1, 1, %" ta ", %" tb ";\n}\n"                                                         \
               : operands(d)                                                                               \
               : "l"(desc_a), "l"(desc_b), "r"(1), "n"(kTransA), "n"(kTransB)                              \
               : "memory")
  if constexpr (kN == 32 && kIn == WgmmaInput::BF16) {
    TILEMM_WGMMA_ASM("m64n32k16", "bf16", TILEMM_WGMMA_D_REGS_16, TILEMM_WGMMA_D_OPERANDS_16, "16", "17", "18", "19",
                     "20");
  } else if constexpr (kN == 32) {
    TILEMM_WGMMA_ASM("m64n32k16", "f16", TILEMM_WGMMA_D_REGS_16, TILEMM_WGMMA_D_OPERANDS_16, "16", "17", "18", "19",
                     "20");
  } else if constexpr (kN == 64 && kIn == WgmmaInput::BF16) {
    TILEMM_WGMMA_ASM("m64n64k16", "bf16", TILEMM_WGMMA_D_REGS_32, TILEMM_WGMMA_D_OPERANDS_32, "32", "33", "34", "35",
                     "36");
  } else if constexpr (kN == 64) {
    TILEMM_WGMMA_ASM("m64n64k16", "f16", TILEMM_WGMMA_D_REGS_32, TILEMM_WGMMA_D_OPERANDS_32, "32", "33", "34", "35",
                     "36");
  } else if constexpr (kN == 128 && kIn == WgmmaInput::BF16) {
    TILEMM_WGMMA_ASM("m64n128k16", "bf16", TILEMM_WGMMA_D_REGS_64, TILEMM_WGMMA_D_OPERANDS_64, "64", "65", "66",
                     "67", "68");
  } else if constexpr (kN == 128) {
    TILEMM_WGMMA_ASM("m64n128k16", "f16", TILEMM_WGMMA_D_REGS_64, TILEMM_WGMMA_D_OPERANDS_64, "64", "65", "66",
                     "67", "68");
  } else if constexpr (kN == 192 && kIn == WgmmaInput::BF16) {
    TILEMM_WGMMA_ASM("m64n192k16", "bf16", TILEMM_WGMMA_D_REGS_96, TILEMM_WGMMA_D_OPERANDS_96, "96", "97", "98",
                     "99", "100");
  } else if constexpr (kN == 192) {
    TILEMM_WGMMA_ASM("m64n192k16", "f16", TILEMM_WGMMA_D_REGS_96, TILEMM_WGMMA_D_OPERANDS_96, "96", "97", "98",
                     "99", "100");
  } else if constexpr (kIn == WgmmaInput::BF16) {
    TILEMM_WGMMA_ASM("m64n256k16", "bf16", TILEMM_WGMMA_D_REGS_128, TILEMM_WGMMA_D_OPERANDS_128, "128", "129",
                     "130", "131", "132");
  } else {
    TILEMM_WGMMA_ASM("m64n256k16", "f16", TILEMM_WGMMA_D_REGS_128, TILEMM_WGMMA_D_OPERANDS_128, "128", "129",
                     "130", "131", "132");
  }
#undef TILEMM_WGMMA_ASM
}

// wgmma.mma_async.sync.aligned.m64n{32,64,128,192,256}k8.f32.tf32.tf32
//   d, a-desc, b-desc, scale-d = 1, imm-scale-a = 1, imm-scale-b = 1
// d += A * B on the tf32 parts of fp32 operands (both K-major), fp32 accumulation.
template <int kN>
__device__ __forceinline__ void wgmma_mma_async_m64nNk8_f32_tf32(float (&d)[kN / 2], std::uint64_t desc_a,
                                                                 std::uint64_t desc_b) {
  static_assert(kN == 32 || kN == 64 || kN == 128 || kN == 192 || kN == 256,
                "instantiated for N = 32, 64, 128, 192 and 256");
#define TILEMM_WGMMA_TF32_ASM(shape, regs, operands, a, b, scale)                                      \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" scale ", 0;\n"                                   \
               "wgmma.mma_async.sync.aligned." shape ".f32.tf32.tf32 {" regs "}, %" a ", %" b ", p, 1, 1;\n}\n" \
               : operands(d)                                                                        \
               : "l"(desc_a), "l"(desc_b), "r"(1)                                                   \
               : "memory")
  if constexpr (kN == 32) {
    TILEMM_WGMMA_TF32_ASM("m64n32k8", TILEMM_WGMMA_D_REGS_16, TILEMM_WGMMA_D_OPERANDS_16, "16", "17", "18");
  } else if constexpr (kN == 64) {
    TILEMM_WGMMA_TF32_ASM("m64n64k8", TILEMM_WGMMA_D_REGS_32, TILEMM_WGMMA_D_OPERANDS_32, "32", "33", "34");
  } else if constexpr (kN == 128) {
    TILEMM_WGMMA_TF32_ASM("m64n128k8", TILEMM_WGMMA_D_REGS_64, TILEMM_WGMMA_D_OPERANDS_64, "64", "65", "66");
  } else if constexpr (kN == 192) {
    TILEMM_WGMMA_TF32_ASM("m64n192k8", TILEMM_WGMMA_D_REGS_96, TILEMM_WGMMA_D_OPERANDS_96, "96", "97", "98");
  } else {
    TILEMM_WGMMA_TF32_ASM("m64n256k8", TILEMM_WGMMA_D_REGS_128, TILEMM_WGMMA_D_OPERANDS_128, "128", "129", "130");
  }
#undef TILEMM_WGMMA_TF32_ASM
}

// wgmma.mma_async.sync.aligned.m64n{64,128,256}k8.f32.tf32.tf32, A from registers
//   d, {a0, a1, a2, a3}, b-desc, scale-d = 1, imm-scale-a = 1, imm-scale-b = 1
// d += A * B as above, with the 64 x 8 A slice in the warpgroup's registers instead of
// shared memory (fp32 bits; the tensor cores read their tf32 part). Thread (warp w, lane
// 4g + t) holds a[0] = A(16w + g, t), a[1] = A(16w + g + 8, t), a[2] = A(16w + g, t + 4),
// a[3] = A(16w + g + 8, t + 4). The registers, like the accumulators, must stay unchanged
// until a wgmma.wait_group has seen the instruction complete. This is how an operand that
// is not K-major reaches tf32 wgmma: threads can load it from shared memory in any layout.
template <int kN>
__device__ __forceinline__ void wgmma_mma_async_m64nNk8_f32_tf32_rs(float (&d)[kN / 2], const unsigned (&a)[4],
                                                                    std::uint64_t desc_b) {
  static_assert(kN == 64 || kN == 128 || kN == 256, "instantiated for N = 64, 128 and 256");
// a0..a3, b-desc, scale-d: the operand numbers after the accumulators.
#define TILEMM_WGMMA_TF32_RS_ASM(shape, regs, operands, a0, a1, a2, a3, b, scale)                          \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" scale ", 0;\n"                                        \
               "wgmma.mma_async.sync.aligned." shape ".f32.tf32.tf32 {" regs "}, {%" a0 ", %" a1 ", %" a2 \
               ", %" a3 "}, %" b ", p, 1, 1;\n}\n"                                                         \
               : operands(d)                                                                              \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1)                          \
               : "memory")
  if constexpr (kN == 64) {
    TILEMM_WGMMA_TF32_RS_ASM("m64n64k8", TILEMM_WGMMA_D_REGS_32, TILEMM_WGMMA_D_OPERANDS_32, "32", "33", "34", "35",
                             "36", "37");
  } else if constexpr (kN == 128) {
    TILEMM_WGMMA_TF32_RS_ASM("m64n128k8", TILEMM_WGMMA_D_REGS_64, TILEMM_WGMMA_D_OPERANDS_64, "64", "65", "66", "67",
                             "68", "69");
  } else {
    TILEMM_WGMMA_TF32_RS_ASM("m64n256k8", TILEMM_WGMMA_D_REGS_128, TILEMM_WGMMA_D_OPERANDS_128, "128", "129", "130",
                             "131", "132", "133");
  }
#undef TILEMM_WGMMA_TF32_RS_ASM
}

// setmaxnreg.{inc,dec}.sync.aligned.u32 N: the warpgroup's per-thread register budget
// moves to N (a multiple of 8 in [24, 256]); a producer warpgroup that only issues
// copies gives registers back so the consumer warpgroups can hold larger accumulators.
template <int N>
__device__ __forceinline__ void setmaxnreg_inc_sync_aligned_u32() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
}
template <int N>
__device__ __forceinline__ void setmaxnreg_dec_sync_aligned_u32() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
}

}  // namespace tilemm::ptx
