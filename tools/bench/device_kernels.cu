#include "device_kernels.hpp"

#include <algorithm>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace tilemm::bench {
namespace {

constexpr int kThreads = 256;
// Enough blocks to fill any current GPU several times over; the loops are grid-strided.
constexpr std::size_t kMaxBlocks = 4096;

unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>(std::clamp<std::size_t>((count + kThreads - 1) / kThreads, 1, kMaxBlocks));
}

__device__ __forceinline__ std::size_t global_thread() {
  return std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_threads() { return std::size_t(gridDim.x) * blockDim.x; }

// SplitMix64's finalizer: a cheap bijective mix, so (seed, index) pairs never collide.
__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <class T> __device__ __forceinline__ T narrow(double v);
template <> __device__ __forceinline__ double narrow<double>(double v) { return v; }
template <> __device__ __forceinline__ float narrow<float>(double v) { return static_cast<float>(v); }
template <> __device__ __forceinline__ __half narrow<__half>(double v) { return __double2half(v); }
template <> __device__ __forceinline__ __nv_bfloat16 narrow<__nv_bfloat16>(double v) {
  return __double2bfloat16(v);
}

__device__ __forceinline__ double widen(float v) { return v; }
__device__ __forceinline__ double widen(double v) { return v; }
__device__ __forceinline__ double widen(__half v) { return __half2float(v); }
__device__ __forceinline__ double widen(__nv_bfloat16 v) { return __bfloat162float(v); }

template <class T>
__global__ void fill_uniform_kernel(T* data, std::size_t count, std::uint64_t seed) {
  const std::uint64_t stream_key = mix64(seed);
  for (std::size_t i = global_thread(); i < count; i += grid_threads()) {
    // 24 random bits r give (r + 0.5) / 2^23 - 1 in (-1, 1); it is never 0 because
    // r + 0.5 is never 2^23. Computed in double so the + 0.5 is exact.
    const std::uint64_t r = mix64(stream_key ^ (i * 0x9E3779B97F4A7C15ull)) >> 40;
    data[i] = narrow<T>((double(r) + 0.5) * (1.0 / (1 << 23)) - 1.0);
  }
}

template <class T>
__global__ void fill_nan_kernel(T* data, std::size_t count) {
  const double nan = __longlong_as_double(0x7FF8000000000000ll);
  for (std::size_t i = global_thread(); i < count; i += grid_threads()) data[i] = narrow<T>(nan);
}

template <class T>
__global__ void widen_kernel(const T* src, float* dst, std::size_t count) {
  for (std::size_t i = global_thread(); i < count; i += grid_threads()) {
    dst[i] = static_cast<float>(widen(src[i]));
  }
}

template <class T, class R>
__global__ void sum_squares_kernel(const T* x, const R* ref, std::size_t item_elements,
                                   std::int64_t items, double* out) {
  __shared__ double warp_sums[kThreads / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (std::int64_t item = blockIdx.y; item < items; item += gridDim.y) {
    const T* xi = x + std::size_t(item) * item_elements;
    const R* ri = ref != nullptr ? ref + std::size_t(item) * item_elements : nullptr;
    double sum = 0.0;
    for (std::size_t i = global_thread(); i < item_elements; i += grid_threads()) {
      const double d = widen(xi[i]) - (ri != nullptr ? widen(ri[i]) : 0.0);
      sum += d * d;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
      double block_sum = 0.0;
      for (int w = 0; w < kThreads / 32; ++w) block_sum += warp_sums[w];
      atomicAdd(&out[item], block_sum);
    }
    __syncthreads();  // warp_sums is rewritten for the next item
  }
}

// One thread waits until the host has counted the gate up to `ticket` (in mapped host
// memory, so it sees the host's write without a copy) or until `timeout_ns` have passed on
// the GPU's clock; a timeout is recorded in *timed_out for the host to read afterwards.
__global__ void hold_until_kernel(const volatile unsigned* opened, unsigned ticket, unsigned long long timeout_ns,
                                  unsigned* timed_out) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (*opened < ticket) {
    __nanosleep(2000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start > timeout_ns) {
      *timed_out = 1u;
      return;
    }
  }
}

// Calls f(T{}) with the element type named by `type`: the operand types, and fp64 for
// the CPU reference's result. False for any other type.
template <class F>
bool with_storage_type(cudaDataType_t type, F&& f) {
  switch (type) {
    case CUDA_R_64F: f(double{}); return true;
    case CUDA_R_32F: f(float{}); return true;
    case CUDA_R_16F: f(__half{}); return true;
    case CUDA_R_16BF: f(__nv_bfloat16{}); return true;
    default: return false;
  }
}

}  // namespace

cudaError_t fill_uniform(void* data, cudaDataType_t type, std::size_t count, std::uint64_t seed,
                         cudaStream_t stream) {
  const bool known = with_storage_type(type, [&]<class T>(T) {
    fill_uniform_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(data), count, seed);
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t fill_nan(void* data, cudaDataType_t type, std::size_t count, cudaStream_t stream) {
  const bool known = with_storage_type(type, [&]<class T>(T) {
    fill_nan_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(data), count);
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t widen_to_fp32(const void* src, cudaDataType_t type, float* dst, std::size_t count,
                          cudaStream_t stream) {
  const bool known = with_storage_type(type, [&]<class T>(T) {
    widen_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const T*>(src), dst, count);
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t sum_squares_per_item(const void* x, cudaDataType_t x_type, const void* ref,
                                 cudaDataType_t ref_type, std::size_t item_elements,
                                 std::int64_t items, double* out, cudaStream_t stream) {
  if (items <= 0) return cudaSuccess;
  const cudaError_t cleared = cudaMemsetAsync(out, 0, std::size_t(items) * sizeof(double), stream);
  if (cleared != cudaSuccess) return cleared;
  const dim3 grid(blocks_for(item_elements), static_cast<unsigned>(std::min<std::int64_t>(items, 65535)));
  bool known = false;
  with_storage_type(x_type, [&]<class T>(T) {
    const T* xt = static_cast<const T*>(x);
    if (ref == nullptr || ref_type == x_type) {
      sum_squares_kernel<T, T><<<grid, kThreads, 0, stream>>>(xt, static_cast<const T*>(ref), item_elements, items, out);
      known = true;
    } else if (ref_type == CUDA_R_64F) {
      sum_squares_kernel<T, double><<<grid, kThreads, 0, stream>>>(xt, static_cast<const double*>(ref), item_elements, items, out);
      known = true;
    }
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t hold_stream_until(const unsigned* opened, unsigned ticket, double timeout_seconds, unsigned* timed_out,
                              cudaStream_t stream) {
  hold_until_kernel<<<1, 1, 0, stream>>>(opened, ticket, static_cast<unsigned long long>(timeout_seconds * 1e9),
                                         timed_out);
  return cudaGetLastError();
}

}  // namespace tilemm::bench
