#include "device_buffer.hpp"

#include <utility>

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace tilemm::bench {

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  // cudaMalloc(0) returns no pointer; one byte keeps data() usable for empty operands.
  check_cuda(cudaMalloc(&data_, bytes == 0 ? 1 : bytes), "cudaMalloc");
}

DeviceBuffer::~DeviceBuffer() { release(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void DeviceBuffer::release() noexcept {
  // A destructor cannot report: a failing cudaFree here means the context is already
  // broken, and the call that broke it has been reported.
  if (data_ != nullptr) static_cast<void>(cudaFree(data_));
  data_ = nullptr;
}

}  // namespace tilemm::bench
