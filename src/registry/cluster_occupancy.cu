// DeviceInfo::clusters_of_four: how many clusters of four blocks, one block per SM, the GPU
// holds at once. The occupancy calculator answers for a kernel and its launch shape; a cluster's
// blocks must share one GPC, and the GPCs of one product do not all have the same number of
// SMs, so this is at most sm_count / 4 and can be less (30 clusters, 120 blocks, on the H100 and
// the H200s measured, whose 132 SMs would hold 33).
#include <cuda_runtime_api.h>

#include "registry/registry.hpp"

namespace tilemm {
namespace {

// Launched never: only its occupancy is asked, with the opt-in maximum of shared memory so that
// one block fills an SM as the persistent tiles do.
__global__ void one_block_per_sm_probe() {}

}  // namespace

int resident_clusters_of_four(const DeviceInfo& dev) {
  constexpr int kCluster = 4;
  if (dev.compute_capability() < 90) return 0;  // clusters came with sm_90
  const int smem = static_cast<int>(dev.smem_per_block_optin);
  if (cudaFuncSetAttribute(one_block_per_sm_probe, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) !=
      cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = kCluster;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(kCluster);
  config.blockDim = dim3(128);
  config.dynamicSmemBytes = static_cast<std::size_t>(smem);
  config.attrs = &cluster;
  config.numAttrs = 1;
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, one_block_per_sm_probe, &config) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return clusters;
}

}  // namespace tilemm
