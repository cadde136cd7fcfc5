// The bench's own small GPU kernels: filling operands with random numbers, poisoning
// outputs with NaN, widening 16-bit operands for the CPU reference, and the squared
// norms the verification is computed from. Host-callable; they enqueue on `stream`
// and return the launch error.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>
#include <library_types.h>

namespace tilemm::bench {

// Uniform in (-1, 1), never exactly zero (a zero input would hide a kernel that skips
// work), from a counter-based hash of (seed, index): reproducible and order-free.
cudaError_t fill_uniform(void* data, cudaDataType_t type, std::size_t count, std::uint64_t seed,
                         cudaStream_t stream);

// Quiet NaN everywhere: an output that a kernel forgets to write, or an input with
// beta = 0 that it reads anyway, turns the verification error into NaN.
cudaError_t fill_nan(void* data, cudaDataType_t type, std::size_t count, cudaStream_t stream);

// dst[i] = float(src[i]).
cudaError_t widen_to_fp32(const void* src, cudaDataType_t type, float* dst, std::size_t count,
                          cudaStream_t stream);

// For each of `items` consecutive blocks of `item_elements` elements of x:
//   out[item] = sum (x - ref)^2 in fp64, or sum x^2 when ref is null.
// ref_type is x_type or CUDA_R_64F; x may itself be CUDA_R_64F (the CPU reference). `out` is device memory of `items` doubles.
cudaError_t sum_squares_per_item(const void* x, cudaDataType_t x_type, const void* ref,
                                 cudaDataType_t ref_type, std::size_t item_elements,
                                 std::int64_t items, double* out, cudaStream_t stream);

// Holds `stream` until *opened >= ticket (host-mapped memory the host counts up) or for
// timeout_seconds at most, then sets *timed_out (host-mapped too) if the time ran out.
// Work enqueued behind it waits; see StreamGate in timing.cpp.
cudaError_t hold_stream_until(const unsigned* opened, unsigned ticket, double timeout_seconds, unsigned* timed_out,
                              cudaStream_t stream);

}  // namespace tilemm::bench
