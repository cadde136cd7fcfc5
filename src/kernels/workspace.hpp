// Scratch memory for one call (split-K partial products, stream-K shares, repacked
// operands): allocated on the caller's stream before the kernels that use it and freed on
// it after them, so the call needs no synchronization and the device's default memory
// pool reuses the memory. The one place that decides where workspaces come from.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace tilemm::kernels {

class StreamWorkspace {
 public:
  explicit StreamWorkspace(cudaStream_t stream) : stream_(stream) {}
  StreamWorkspace(const StreamWorkspace&) = delete;
  StreamWorkspace& operator=(const StreamWorkspace&) = delete;
  // An early return still frees the memory (after whatever was enqueued).
  ~StreamWorkspace() { finish(cudaSuccess); }

  // One allocation per workspace.
  cudaError_t allocate(std::size_t bytes) { return cudaMallocAsync(&base_, bytes, stream_); }

  template <class T = char>
  T* at(std::size_t byte_offset = 0) const {
    return reinterpret_cast<T*>(static_cast<char*>(base_) + byte_offset);
  }

  // Frees the memory once the work enqueued so far is done; returns `status` when it is
  // an error, else the free's own result.
  cudaError_t finish(cudaError_t status) {
    if (base_ == nullptr) return status;
    const cudaError_t freed = cudaFreeAsync(base_, stream_);
    base_ = nullptr;
    return status != cudaSuccess ? status : freed;
  }

 private:
  cudaStream_t stream_;
  void* base_ = nullptr;
};

}  // namespace tilemm::kernels
