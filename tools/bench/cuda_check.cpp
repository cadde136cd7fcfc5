#include "cuda_check.hpp"

#include <filesystem>
#include <string>

namespace tilemm::bench {

void check_cuda(cudaError_t status, const char* call, std::source_location where) {
  if (status == cudaSuccess) return;
  throw BenchError(std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                   cudaGetErrorString(status) + ") at " +
                   std::filesystem::path(where.file_name()).filename().string() + ":" +
                   std::to_string(where.line()));
}

}  // namespace tilemm::bench
