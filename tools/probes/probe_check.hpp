// The probes' error check: a CUDA call that fails ends the probe, naming the call and the
// error. (The probes are hand-run measurements; nothing is left to clean up.)
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace tilemm::probes {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

}  // namespace tilemm::probes
