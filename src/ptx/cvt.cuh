// Wrapper for the fp32 -> tf32 conversion (sm_80 and newer).
// PTX ISA, "Data Movement and Conversion Instructions: cvt".
//
// A tf32 tensor-core operand is an fp32 bit pattern whose 13 low significand bits are
// ignored: fed raw fp32 data, the tensor core truncates toward zero, a biased error of up
// to 2^-10 relative. cvt.rna rounds to the nearest tf32 value instead (ties away from
// zero), the rounding cuBLAS applies for CUBLAS_COMPUTE_32F_FAST_TF32.
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

// cvt.rna.tf32.f32 d, x: the tf32 nearest to x, as a .b32 register for mma's operands.
__device__ __forceinline__ unsigned cvt_rna_tf32_f32(float x) {
  unsigned d;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(d) : "f"(x));
  return d;
}

}  // namespace tilemm::ptx
