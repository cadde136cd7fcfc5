// Wrappers for the warp-level tensor-core multiply-accumulate (sm_80 and newer).
// PTX ISA, "Warp Level Matrix Multiply-Accumulate Instructions: mma", with the operand
// layouts of "Matrix Fragments for mma.m16n8k16 with floating point type" and
// "Matrix Fragments for mma.m16n8k8".
//
// D (16 x 8, fp32) = A (16 x K, row) * B (K x 8, col) + D, one instruction per warp.
// With g = lane / 4 and t = lane % 4, lane l holds:
//   D/C (both shapes): d0, d1 = (g, 2t), (g, 2t+1); d2, d3 = (g+8, 2t), (g+8, 2t+1).
//   m16n8k16, 16-bit A: a[0] = (g, 2t..2t+1), a[1] = (g+8, 2t..2t+1),
//                       a[2] = (g, 2t+8..2t+9), a[3] = (g+8, 2t+8..2t+9);
//            16-bit B: b[0] = (k 2t..2t+1, n g), b[1] = (k 2t+8..2t+9, n g);
//            (two elements per register, the lower k in the low half).
//   m16n8k8, tf32 A:   a[0] = (g, t), a[1] = (g+8, t), a[2] = (g, t+4), a[3] = (g+8, t+4);
//            tf32 B:   b[0] = (k t, n g), b[1] = (k t+4, n g).
// The products are exact in fp32 (8- or 11-bit significands) and accumulate in fp32.
// Not volatile: pure register operations that the compiler may schedule freely.
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 d, a, b, d
__device__ __forceinline__ void mma_sync_aligned_m16n8k16_row_col_f32_bf16_bf16_f32(float (&d)[4],
                                                                                     const unsigned (&a)[4],
                                                                                     const unsigned (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 d, a, b, d
__device__ __forceinline__ void mma_sync_aligned_m16n8k16_row_col_f32_f16_f16_f32(float (&d)[4],
                                                                                   const unsigned (&a)[4],
                                                                                   const unsigned (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 d, a, b, d
// The operands must already be tf32 values (see cvt_rna_tf32_f32 in ptx/cvt.cuh).
__device__ __forceinline__ void mma_sync_aligned_m16n8k8_row_col_f32_tf32_tf32_f32(float (&d)[4],
                                                                                   const unsigned (&a)[4],
                                                                                   const unsigned (&b)[2]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

}  // namespace tilemm::ptx
