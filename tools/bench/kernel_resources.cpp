#include "kernel_resources.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace tilemm::bench {

ResourceUsage query_resources(const KernelEntry& entry, int max_threads_per_sm) {
  const KernelResources launch = entry.resources();
  ResourceUsage usage;
  cudaFuncAttributes attributes{};
  check_cuda(cudaFuncGetAttributes(&attributes, launch.function), "cudaFuncGetAttributes");
  usage.registers_per_thread = attributes.numRegs;
  usage.static_smem_bytes = std::int64_t(attributes.sharedSizeBytes);
  usage.dynamic_smem_bytes = launch.dynamic_smem_bytes;
  usage.threads_per_block = launch.threads_per_block;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&usage.active_blocks_per_sm, launch.function,
                                                           launch.threads_per_block,
                                                           std::size_t(launch.dynamic_smem_bytes)),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  // A partial warp still takes a whole warp slot.
  const int warps_per_block = (launch.threads_per_block + 31) / 32;
  if (max_threads_per_sm > 0) {
    usage.occupancy = double(usage.active_blocks_per_sm) * warps_per_block * 32 / max_threads_per_sm;
  }
  return usage;
}

}  // namespace tilemm::bench
