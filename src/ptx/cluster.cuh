// Wrappers for thread-block clusters (sm_90: CTAs launched together on neighbouring SMs
// of one GPC, which can read, write and signal each other's shared memory: their
// barriers and distributed shared memory) and for named barriers within a CTA.
// PTX ISA, "Special Registers: %cluster_ctarank", "barrier.cluster", "mapa", "cp.async.bulk"
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

// cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes: the copy engine
// moves `bytes` (a multiple of 16, both addresses 16-byte aligned) from this CTA's shared
// memory to a CTA of the cluster (destination and mbarrier: addresses from
// cluster_map_shared) and counts them on that CTA's mbarrier once they have landed, whose
// waiters then see them. The source is read asynchronously: write it, then
// fence.proxy.async, before the copy; wait for cp.async.bulk.wait_group.read before
// overwriting it or leaving (the bulk groups of tma.cuh).
__device__ __forceinline__ void cp_async_bulk_shared_to_cluster(unsigned cluster_dst, unsigned src, unsigned bytes,
                                                                unsigned cluster_barrier) {
  asm volatile(
      "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          cluster_dst),
      "r"(src), "r"(bytes), "r"(cluster_barrier)
      : "memory");
}

// bar.sync id, threads: a barrier for a subset of the CTA (whole warps), here one
// warpgroup; id 0 is __syncthreads()'s.
__device__ __forceinline__ void named_barrier_sync(unsigned id, unsigned threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace tilemm::ptx
