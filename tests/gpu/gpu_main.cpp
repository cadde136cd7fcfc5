// GPU test entry point: without a CUDA device it says so and exits 77, which CTest
// reports as skipped (never as passed).
#include <cstdio>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device: %s (compute capability %d.%d, %d SMs)\n", prop.name, prop.major,
              prop.minor, prop.multiProcessorCount);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
