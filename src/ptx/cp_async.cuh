// Wrappers for the asynchronous global-to-shared copy instructions (sm_80 and newer).
// PTX ISA, "Data Movement and Conversion Instructions: cp.async",
// "cp.async.commit_group" and "cp.async.wait_group".
//
// A cp.async copies cp-size bytes from global to shared memory without passing through
// registers, and without blocking the thread: the copy completes in the background and
// the thread later waits for a whole group of copies. When src-size < cp-size the
// remaining bytes of the destination are filled with zeros, which is how the kernels
// zero-fill tiles at the matrix border without a separate store.
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

__device__ __forceinline__ unsigned shared_address(const void* smem) {
  return static_cast<unsigned>(__cvta_generic_to_shared(smem));
}

// cp.async.cg.shared.global [dst], [src], 16, src_bytes: 16 bytes, cached in L2 only
// (.cg: the tile is reused from shared memory, not from L1). dst and src 16-byte aligned.
__device__ __forceinline__ void cp_async_cg_16(void* smem_dst, const void* global_src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(smem_dst)),
               "l"(global_src), "r"(src_bytes)
               : "memory");
}

// cp.async.ca.shared.global [dst], [src], 4, src_bytes: one 4-byte element (.cg allows
// only 16-byte copies), for operands whose rows are not 16-byte aligned.
__device__ __forceinline__ void cp_async_ca_4(void* smem_dst, const void* global_src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address(smem_dst)),
               "l"(global_src), "r"(src_bytes)
               : "memory");
}

// cp.async.commit_group: closes the group of copies issued since the last commit.
__device__ __forceinline__ void cp_async_commit_group() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// cp.async.wait_group N: waits until at most N committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait_group() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

}  // namespace tilemm::ptx
