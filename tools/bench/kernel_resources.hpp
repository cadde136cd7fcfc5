// The "explain" columns of a kernel: registers per thread, shared memory per block and
// theoretical occupancy, read from the compiled kernel (cudaFuncGetAttributes) and the
// occupancy calculator for the launch shape the registry reports.
#pragma once

#include <cstdint>

#include "registry/registry.hpp"

namespace tilemm::bench {

struct ResourceUsage {
  int registers_per_thread = 0;
  std::int64_t static_smem_bytes = 0;
  std::int64_t dynamic_smem_bytes = 0;
  int threads_per_block = 0;
  int active_blocks_per_sm = 0;
  double occupancy = 0.0;  // resident warps / the SM's maximum, 0..1
  std::int64_t smem_per_block() const { return static_smem_bytes + dynamic_smem_bytes; }
};

// Asks after the kernel has run, when its launcher has set any attributes (such as a
// large dynamic shared memory carve-out) that the occupancy calculator must see.
ResourceUsage query_resources(const KernelEntry& entry, int max_threads_per_sm);

}  // namespace tilemm::bench
