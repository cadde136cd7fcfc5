// Wrappers for global-memory atomics with explicit memory-model semantics, used when
// CTAs of one grid hand each other data through global memory (stream-K's partial tiles).
// PTX ISA, "Parallel Synchronization and Communication Instructions: atom" and
// "Memory Consistency Model".
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

// atom.acq_rel.gpu.global.add.u32: adds v to *counter and returns the old value. Release:
// every write this thread's CTA made before it (ordered by a bar.sync in front) is
// visible to a thread that later acquires the counter; acquire: this thread sees the
// writes released by the threads that added before it.
__device__ __forceinline__ unsigned atomic_add_acq_rel_gpu(unsigned* counter, unsigned v) {
  unsigned old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;\n" : "=r"(old) : "l"(counter), "r"(v) : "memory");
  return old;
}

}  // namespace tilemm::ptx
