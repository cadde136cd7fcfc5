// Every CUDA runtime call of the bench goes through check_cuda: a failure the bench
// cannot go on from becomes a BenchError naming the call and where it was made, which
// main() prints before exiting with status 1.
#pragma once

#include <source_location>
#include <stdexcept>

#include <cuda_runtime_api.h>

namespace tilemm::bench {

class BenchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void check_cuda(cudaError_t status, const char* call,
                std::source_location where = std::source_location::current());

}  // namespace tilemm::bench
