// Wrappers for the shared-memory barrier object (sm_90 forms).
// PTX ISA, "Parallel Synchronization and Communication Instructions: mbarrier".
//
// An mbarrier is a 64-bit word in shared memory that counts arrivals and, separately,
// bytes of asynchronous copies still expected (the transaction count). A phase
// completes when both reach zero; the barrier then re-arms for the next phase, and the
// phase's parity (0, 1, 0, ...) is what waiters name. A pipeline uses two per stage:
// "full" (the copy engine's bytes have landed) and "empty" (the consumers are done).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace tilemm::ptx {

// mbarrier.init.shared::cta.b64 [bar], count: `count` arrivals complete a phase.
__device__ __forceinline__ void mbarrier_init_shared_b64(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

// fence.mbarrier_init.release.cluster: makes the initializations visible to the copy
// engine (the async proxy) and to other threads before anyone uses the barriers.
__device__ __forceinline__ void fence_mbarrier_init_release_cluster() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], bytes: one arrival, and `bytes`
// more to come from asynchronous copies that complete_tx on this barrier.
__device__ __forceinline__ void mbarrier_arrive_expect_tx_shared_b64(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

// mbarrier.arrive.shared::cta.b64 _, [bar]: one arrival (release semantics: this
// thread's earlier shared-memory reads are ordered before the phase completes).
__device__ __forceinline__ void mbarrier_arrive_shared_b64(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// mapa.shared::cluster.u32 + mbarrier.arrive.shared::cluster.b64: one arrival on the
// barrier at the same offset in CTA `cta_rank` of the cluster (a consumer telling a
// peer's producer that it is done with a stage the peer multicasts into). Default
// semantics on purpose: the .release.cluster form compiles to a cluster-wide MEMBAR
// that waits for the warp's outstanding memory traffic, and measured 35% slower; the
// stage's reads were already completed by wgmma.wait_group.
__device__ __forceinline__ void mbarrier_arrive_cluster_b64(unsigned bar, unsigned cta_rank) {
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
      "r"(cta_rank)
      : "memory");
}

// Spins on mbarrier.try_wait.parity.shared::cta.b64 until the phase of the given
// parity has completed (try_wait suspends the thread for a while before it fails, so
// the loop does not hammer shared memory). A fresh barrier counts as having completed
// the phase of parity 1, so a producer's first wait on an "empty" barrier passes.
__device__ __forceinline__ void mbarrier_wait_parity_shared_b64(unsigned bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (done == 0);
}

}  // namespace tilemm::ptx
