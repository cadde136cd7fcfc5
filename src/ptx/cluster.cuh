// Wrappers for the barriers among groups of threads: thread-block clusters (sm_90: CTAs
// launched together on neighbouring SMs of one GPC, which can read, write and signal
// each other's shared memory) and named barriers within a CTA.
// PTX ISA, "Special Registers: %cluster_ctarank", "barrier.cluster" and "bar.sync".
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

// The rank of this CTA in its thread-block cluster (%cluster_ctarank).
__device__ __forceinline__ unsigned cluster_ctarank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

// barrier.cluster.arrive.release + barrier.cluster.wait.acquire: every thread of every
// CTA in the cluster meets here (the peers' barriers are initialized; nobody exits while
// a peer may still write into its shared memory).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}

// bar.sync id, threads: a barrier for a subset of the CTA (whole warps), here one
// warpgroup; id 0 is __syncthreads()'s.
__device__ __forceinline__ void named_barrier_sync(unsigned id, unsigned threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace tilemm::ptx
