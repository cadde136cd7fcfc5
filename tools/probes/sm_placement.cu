// tilemm-probe-sm-placement: on which SM does each block of a persistent grid run, and
// which SMs share a GPC?
//
// The question behind it (docs/ladder.md, "Which requests merge, and what merging is
// worth"): the L2 request coalescer merges a request with another SM's identical one
// ("hardware" coalescing), and the ping-pong 128 x 128 tile gets a third of its requests
// merged without clusters but almost none in clusters of two. If merging happens among the
// SMs of one GPC, a tile order has to know which blocks share a GPC.
//
// Each launch is one block per SM (the blocks ask for most of the shared memory), and
// every block records %smid, its cluster (block / cluster size: the grid is 1-D) and
// %cluster_ctarank, then waits until all blocks of the grid have arrived (so all of them
// are resident at once). Launches:
//   plain      the grid the persistent kernels use (SM count blocks), three times;
//   cluster N  N = 2, 4, 8 and 16 (16 needs the non-portable size), as many clusters as
//              cudaOccupancyMaxActiveClusters allows: a cluster runs inside one GPC, so
//              the clusters of 16 name the GPCs.
//   after_busy the plain grid launched as a programmatic dependent (as tilemm launches its
//              persistent kernels) behind a grid that holds every SM, block b for about
//              b microseconds: its blocks take SMs as they free.
// Prints one line per block: launch, block, SM, cluster, rank.
//
// Usage: tilemm-probe-sm-placement (no arguments; well under a second).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "ptx/cluster.cuh"
#include "ptx/grid_dependency.cuh"
#include "ptx/special_registers.cuh"
#include "probe_check.hpp"

namespace {

constexpr int kSharedBytes = 200 * 1024;  // one block per SM

using tilemm::probes::check;

// out[3 b .. 3 b + 2] = SM, cluster, rank of block b; arrived counts the blocks in.
__global__ void record_placement(unsigned* out, unsigned* arrived, unsigned blocks, unsigned cluster_size) {
  extern __shared__ unsigned char unused_smem[];
  (void)unused_smem;
  if (threadIdx.x != 0) return;
  const unsigned b = blockIdx.x;
  out[3 * b] = tilemm::ptx::sm_id();
  out[3 * b + 1] = b / cluster_size;
  out[3 * b + 2] = tilemm::ptx::cluster_ctarank();
  atomicAdd(arrived, 1u);
  // Everyone stays until the whole grid is in (the grid fits, one block per SM), or gives
  // up after ~2^24 polls, so that a grid that does not fit ends instead of hanging.
  for (int polls = 0; polls < (1 << 24) && atomicAdd(arrived, 0u) < blocks; ++polls) {
  }
}

// Holds the SM for about blockIdx.x microseconds (one block per SM), letting a dependent
// grid launch at once.
__global__ void occupy_staggered() {
  extern __shared__ unsigned char unused_smem[];
  (void)unused_smem;
  tilemm::ptx::griddepcontrol_launch_dependents();
  const long long until = clock64() + 1500ll * (blockIdx.x + 1);
  while (clock64() < until) {
  }
}

// One block per SM in clusters of `cluster` along x (no cluster attribute for 1).
cudaLaunchConfig_t placement_config(int cluster, int blocks, cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(unsigned(blocks));
  cfg.blockDim = dim3(32);
  cfg.dynamicSmemBytes = kSharedBytes;
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = unsigned(cluster);
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = cluster > 1 ? 1 : 0;
  return cfg;
}

// behind_busy: launched as a programmatic dependent of occupy_staggered (plain grids only).
void run(const char* label, int cluster, int blocks, unsigned* d_out, unsigned* d_arrived, bool behind_busy = false) {
  check(cudaMemset(d_out, 0xff, sizeof(unsigned) * 3 * blocks), "cudaMemset");
  check(cudaMemset(d_arrived, 0, sizeof(unsigned)), "cudaMemset");
  cudaLaunchAttribute attr{};
  cudaLaunchConfig_t cfg = placement_config(cluster, blocks, &attr);
  if (behind_busy) {
    occupy_staggered<<<blocks, 32, kSharedBytes>>>();
    check(cudaGetLastError(), "cudaGetLastError");
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.numAttrs = 1;
  }
  check(cudaLaunchKernelEx(&cfg, record_placement, d_out, d_arrived, unsigned(blocks), unsigned(cluster)),
        "cudaLaunchKernelEx");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<unsigned> h(3 * std::size_t(blocks));
  check(cudaMemcpy(h.data(), d_out, sizeof(unsigned) * h.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (int b = 0; b < blocks; ++b) std::printf("%s %d %u %u %u\n", label, b, h[3 * b], h[3 * b + 1], h[3 * b + 2]);
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("# %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  check(cudaFuncSetAttribute(record_placement, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes),
        "cudaFuncSetAttribute");
  check(cudaFuncSetAttribute(record_placement, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
        "cudaFuncSetAttribute");
  const int sms = prop.multiProcessorCount;
  unsigned *d_out = nullptr, *d_arrived = nullptr;
  check(cudaMalloc(&d_out, sizeof(unsigned) * 3 * sms), "cudaMalloc");
  check(cudaMalloc(&d_arrived, sizeof(unsigned)), "cudaMalloc");
  for (int i = 0; i < 3; ++i) run("plain", 1, sms, d_out, d_arrived);
  for (int cluster : {2, 4, 8, 16}) {
    cudaLaunchAttribute attr{};
    const cudaLaunchConfig_t cfg = placement_config(cluster, sms / cluster * cluster, &attr);
    int active = 0;
    check(cudaOccupancyMaxActiveClusters(&active, record_placement, &cfg), "cudaOccupancyMaxActiveClusters");
    std::printf("# clusters of %d: at most %d active\n", cluster, active);
    char label[32];
    std::snprintf(label, sizeof(label), "cluster%d", cluster);
    run(label, cluster, active * cluster, d_out, d_arrived);
  }
  check(cudaFuncSetAttribute(occupy_staggered, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes),
        "cudaFuncSetAttribute");
  run("after_busy", 1, sms, d_out, d_arrived, true);
  check(cudaFree(d_out), "cudaFree");
  check(cudaFree(d_arrived), "cudaFree");
  return 0;
}
