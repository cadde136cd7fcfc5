// Wrappers for thread-block clusters (sm_90: CTAs launched together on neighbouring SMs
// of one GPC, which can read, write and signal each other's shared memory: their
// barriers and distributed shared memory) and for named barriers within a CTA.
// PTX ISA, "Special Registers: %cluster_ctarank", "barrier.cluster", "mapa", "ld" (.shared::cluster)
// and "bar.sync".
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

// The rank of this CTA in its thread-block cluster (%cluster_ctarank).
__device__ __forceinline__ unsigned cluster_ctarank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

// The number of CTAs in this CTA's cluster (%cluster_nctarank; 1 when launched without clusters).
__device__ __forceinline__ unsigned cluster_nctarank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r));
  return r;
}

// barrier.cluster.arrive.relaxed: this thread has arrived at the cluster barrier, with no
// ordering of its earlier memory accesses. Paired with fence.mbarrier_init.release.cluster
// it is how barrier initializations are published to the cluster; the default
// (.release) arrive compiles to a GPU-scope memory barrier that waits for every
// outstanding access of the warp (MEMBAR.ALL.GPU + ERRBAR), about a microsecond per
// kernel launch in Nsight Compute's samples (docs/ladder.md, "What a lone launch spends").
__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;\n" ::: "memory");
}

// barrier.cluster.arrive (.release by default): this thread has arrived, and its earlier
// writes to shared memory are visible to every thread of the cluster once the wait below
// returns there (a CTA publishing values its peers read over distributed shared memory).
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive;\n" ::: "memory"); }

// barrier.cluster.wait.acquire: waits until every thread of every CTA in the cluster has
// arrived.
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory"); }

// mapa.shared::cluster.u32: the address, in the cluster's shared window, of the byte at
// shared-memory address `address` of CTA `cta_rank` (the same offset in a peer).
__device__ __forceinline__ unsigned cluster_map_shared(unsigned address, unsigned cta_rank) {
  unsigned remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(address), "r"(cta_rank));
  return remote;
}

// ld.shared::cluster.f32: a float from the shared memory of any CTA of the cluster, at an
// address from cluster_map_shared (distributed shared memory).
__device__ __forceinline__ float ld_shared_cluster_f32(unsigned cluster_address) {
  float v;
  asm volatile("ld.shared::cluster.f32 %0, [%1];\n" : "=f"(v) : "r"(cluster_address) : "memory");
  return v;
}

// bar.sync id, threads: a barrier for a subset of the CTA (whole warps), here one
// warpgroup; id 0 is __syncthreads()'s.
__device__ __forceinline__ void named_barrier_sync(unsigned id, unsigned threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace tilemm::ptx
