// Wrappers for the warp-collective matrix load from shared memory (sm_75 and newer).
// PTX ISA, "Warp-level matrix load instruction: ldmatrix".
//
// ldmatrix.sync.aligned.m8n8.x4 loads four 8 x 8 matrices of 16-bit elements. Lanes
// 8i .. 8i+7 supply the shared-memory addresses of the 8 rows of matrix i (16 bytes
// each, 16-byte aligned; rows need not be contiguous, which is what lets a kernel
// swizzle them). Lane l receives, in register i, 32 bits of matrix i:
//   plain:  row l/4, elements 2(l%4) and 2(l%4)+1 (the lower index in the low half);
//   .trans: the same of the transposed matrix, i.e. elements (2(l%4), l/4) and
//           (2(l%4)+1, l/4) of the rows as stored.
// That is exactly the register layout the mma.sync operand fragments expect, so one
// instruction replaces eight 32-bit shared loads per lane and the transposed variant
// serves an operand stored in the other order at no extra cost.
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

// ldmatrix.sync.aligned.m8n8.x4.shared.b16 {r0, r1, r2, r3}, [smem_address]
// volatile: it reads shared memory, so it must stay between the barriers around it.
__device__ __forceinline__ void ldmatrix_sync_aligned_m8n8_x4_b16(unsigned& r0, unsigned& r1, unsigned& r2,
                                                                  unsigned& r3, unsigned smem_address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(smem_address));
}

// ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {r0, r1, r2, r3}, [smem_address]
__device__ __forceinline__ void ldmatrix_sync_aligned_m8n8_x4_trans_b16(unsigned& r0, unsigned& r1, unsigned& r2,
                                                                        unsigned& r3, unsigned smem_address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(smem_address));
}

}  // namespace tilemm::ptx
