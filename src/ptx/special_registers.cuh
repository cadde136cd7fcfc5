// Reads of the thread and block indices that the compiler must perform where they are
// written, and of the SM a block runs on. PTX ISA, "Special Registers: %tid", "%ctaid",
// "%smid".
//
// threadIdx and blockIdx read through the built-ins are values the compiler may keep in a
// register from the kernel's first instruction to its last. Where every register counts
// across a long loop (an 8 x 8 accumulator tile under a 128-register cap), an epilogue
// that needs them again is better served by reading them afresh (one S2R each): a
// volatile asm is neither merged with the reads at the kernel's start nor moved before
// the loop.
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

// mov.u32 d, %tid.x
__device__ __forceinline__ unsigned tid_x() {
  unsigned d;
  asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(d));
  return d;
}

// mov.u32 d, %ctaid.{x,y,z}: one function per register, so that each is read right where
// it is used (reading the three together keeps two of them live longer).
__device__ __forceinline__ unsigned ctaid_x() {
  unsigned d;
  asm volatile("mov.u32 %0, %%ctaid.x;\n" : "=r"(d));
  return d;
}
__device__ __forceinline__ unsigned ctaid_y() {
  unsigned d;
  asm volatile("mov.u32 %0, %%ctaid.y;\n" : "=r"(d));
  return d;
}
__device__ __forceinline__ unsigned ctaid_z() {
  unsigned d;
  asm volatile("mov.u32 %0, %%ctaid.z;\n" : "=r"(d));
  return d;
}

// mov.u32 d, %smid: the SM this thread runs on (a hint for placement studies: a block
// may in principle move, and the numbering need not be contiguous).
__device__ __forceinline__ unsigned sm_id() {
  unsigned d;
  asm volatile("mov.u32 %0, %%smid;\n" : "=r"(d));
  return d;
}

}  // namespace tilemm::ptx
