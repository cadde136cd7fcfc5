// Pieces every kernel family shares: addressing op(X) in column-major storage, batch
// offsets, the alpha/beta epilogue, and the launcher's dispatch on the four op
// combinations. All index arithmetic is 64-bit: row * ld passes 2^31 on real problems.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "core/problem.hpp"

namespace tilemm::kernels {

// Element (r, c) of op(X), X column-major with leading dimension ld.
template <bool kTrans>
__device__ __forceinline__ std::int64_t op_index(std::int64_t r, std::int64_t c, std::int64_t ld) {
  return kTrans ? c + r * ld : r + c * ld;
}

// The arguments every kernel receives, by value (it lives in the parameter constant bank).
struct GemmParams {
  std::int64_t m, n, k;
  float alpha, beta;
  const float* A;
  std::int64_t lda, stride_a;
  const float* B;
  std::int64_t ldb, stride_b;
  float* C;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
};

inline GemmParams make_params(const GemmProblem& p) {
  return GemmParams{p.m,
                    p.n,
                    p.k,
                    static_cast<float>(p.alpha),
                    static_cast<float>(p.beta),
                    static_cast<const float*>(p.A),
                    p.lda,
                    p.stride_a,
                    static_cast<const float*>(p.B),
                    p.ldb,
                    p.stride_b,
                    static_cast<float*>(p.C),
                    p.ldc,
                    p.stride_c,
                    p.batch};
}

// C is stored in fp32 or in the 16-bit input type; the epilogue works in fp32 and rounds
// to nearest once, when it stores.
__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
template <class T>
__device__ __forceinline__ T from_float(float x) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(x);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(x);
  } else {
    return x;
  }
}

// Two neighbouring 16-bit results as one 4-byte word, the first in the low half.
template <class T>
__device__ __forceinline__ unsigned pack_pair(float first, float second) {
  static_assert(sizeof(T) == 2, "16-bit C only");
  const auto bits = [](T x) {
    if constexpr (std::is_same_v<T, __half>) {
      return unsigned(__half_as_ushort(x));
    } else {
      return unsigned(__bfloat16_as_ushort(x));
    }
  };
  return bits(from_float<T>(first)) | (bits(from_float<T>(second)) << 16);
}

// The reverse of pack_pair: a 4-byte word of two 16-bit values, the low half first.
template <class T>
__device__ __forceinline__ float2 unpack_pair(unsigned word) {
  static_assert(sizeof(T) == 2, "16-bit C only");
  const auto value = [](unsigned short bits) {
    if constexpr (std::is_same_v<T, __half>) {
      return __half2float(__ushort_as_half(bits));
    } else {
      return __bfloat162float(__ushort_as_bfloat16(bits));
    }
  };
  return make_float2(value((unsigned short)(word & 0xffffu)), value((unsigned short)(word >> 16)));
}

// beta == 0 must not read C: NaN or garbage there may not leak into the result.
template <class T>
__device__ __forceinline__ void store_alpha_beta(T* c, float acc, float alpha, float beta) {
  *c = from_float<T>(beta == 0.0f ? alpha * acc : alpha * acc + beta * to_float(*c));
}

// store_alpha_beta for four consecutive elements of a column, c aligned to four of them:
// one 16-byte (fp32) or 8-byte (16-bit) load and store.
template <class T>
__device__ __forceinline__ void store_four_alpha_beta(T* c, float4 acc, float alpha, float beta) {
  float4 r = make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w);
  if constexpr (std::is_same_v<T, float>) {
    if (beta != 0.0f) {
      const float4 old = *reinterpret_cast<const float4*>(c);
      r = make_float4(r.x + beta * old.x, r.y + beta * old.y, r.z + beta * old.z, r.w + beta * old.w);
    }
    *reinterpret_cast<float4*>(c) = r;
  } else {
    if (beta != 0.0f) {
      const uint2 old = *reinterpret_cast<const uint2*>(c);
      const float2 lo = unpack_pair<T>(old.x), hi = unpack_pair<T>(old.y);
      r = make_float4(r.x + beta * lo.x, r.y + beta * lo.y, r.z + beta * hi.x, r.w + beta * hi.y);
    }
    *reinterpret_cast<uint2*>(c) = make_uint2(pack_pair<T>(r.x, r.y), pack_pair<T>(r.z, r.w));
  }
}

// Grid z walks the batch; a batch larger than the grid's z limit is strided over.
constexpr std::int64_t kMaxGridZ = 65535;
inline unsigned grid_z_for(std::int64_t batch) {
  return static_cast<unsigned>(batch < kMaxGridZ ? batch : kMaxGridZ);
}

inline unsigned ceil_div_u(std::int64_t a, std::int64_t b) {
  return static_cast<unsigned>((a + b - 1) / b);
}

// Calls f.template operator()<TA, TB>() for the problem's ops, so each combination gets
// its own instantiation with the addressing folded in at compile time.
template <class F>
cudaError_t dispatch_ops(const GemmProblem& p, F&& f) {
  const bool ta = p.opa == Op::T;
  const bool tb = p.opb == Op::T;
  if (!ta && !tb) return f.template operator()<false, false>();
  if (!ta && tb) return f.template operator()<false, true>();
  if (ta && !tb) return f.template operator()<true, false>();
  return f.template operator()<true, true>();
}

// An attribute of the current device, or `fallback` when it cannot be read.
inline int current_device_attribute(cudaDeviceAttr attribute, int fallback) {
  int device = 0, value = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&value, attribute, device) != cudaSuccess) {
    cudaGetLastError();
    return fallback;
  }
  return value;
}

// Multiprocessors of the current device (1 when it cannot be read): persistent grids and
// split-K size themselves by it.
inline int device_sm_count() { return current_device_attribute(cudaDevAttrMultiProcessorCount, 1); }

// Whether the current device launches kernels as programmatic dependents (compute
// capability 9.0 and newer): the launch attribute is set only there.
inline bool device_has_programmatic_launch() {
  return current_device_attribute(cudaDevAttrComputeCapabilityMajor, 0) >= 9;
}

// The launch attribute that makes a kernel a programmatic dependent of the kernel before
// it in the stream (it may start while that one finishes, and orders itself after it with
// griddepcontrol.wait, ptx/grid_dependency.cuh), or with `allowed` false an ordinary launch.
inline cudaLaunchAttribute programmatic_launch_attribute(bool allowed) {
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a.val.programmaticStreamSerializationAllowed = allowed ? 1 : 0;
  return a;
}

// Blocks of `kernel` (a __global__ function) that fit on one SM with `threads` threads and
// `dynamic_smem` bytes of dynamic shared memory (`without_device` when it cannot be read,
// as on a machine without a GPU): the resident blocks that wave-efficiency scores and
// split-K slice counts are sized by.
inline int resident_blocks_per_sm(const void* kernel, int threads, std::int64_t dynamic_smem,
                                  int without_device = 1) {
  int n = 0;
  if (dynamic_smem > 0) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(dynamic_smem));
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, std::size_t(dynamic_smem)) != cudaSuccess) {
    cudaGetLastError();
    n = without_device;
  }
  return n > 0 ? n : 1;
}

// Above 48 KB a kernel must opt in to its dynamic shared memory: done once per kernel (a
// function-local static), returning that call's result every time.
template <auto kKernel>
cudaError_t opt_in_dynamic_smem(std::int64_t bytes) {
  static const cudaError_t result =
      cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  return result;
}

// A launch of `grid` whose CTAs along z form clusters of `cluster_z` (sm_90), or no
// clusters when cluster_z is 1. The config points at `cluster`, which must outlive it.
inline cudaLaunchConfig_t launch_config_in_clusters_along_z(dim3 grid, int threads, std::int64_t smem, int cluster_z,
                                                            cudaLaunchAttribute* cluster, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = std::size_t(smem);
  config.stream = stream;
  cluster->id = cudaLaunchAttributeClusterDimension;
  cluster->val.clusterDim.x = 1;
  cluster->val.clusterDim.y = 1;
  cluster->val.clusterDim.z = static_cast<unsigned>(cluster_z);
  config.attrs = cluster;
  config.numAttrs = cluster_z > 1 ? 1 : 0;
  return config;
}

// How many clusters of `size` CTAs along z of kKernel (`threads` and `smem` bytes of
// dynamic shared memory a CTA) the GPU holds at once (cudaOccupancyMaxActiveClusters; 0
// when the query fails), for sizes up to kMost, asked once per kernel. A cluster's CTAs
// must share one GPC, so clusters of 4 and 8 may fill fewer than the GPU's block slots.
template <auto kKernel, int kMost>
int resident_clusters_along_z(int size, int threads, std::int64_t smem) {
  static const std::array<int, kMost + 1> resident = [&] {
    std::array<int, kMost + 1> r{};
    if (opt_in_dynamic_smem<kKernel>(smem) != cudaSuccess) return r;
    for (int s = 2; s <= kMost; ++s) {
      cudaLaunchAttribute cluster{};
      const cudaLaunchConfig_t config =
          launch_config_in_clusters_along_z(dim3(1, 1, unsigned(s)), threads, smem, s, &cluster, nullptr);
      if (cudaOccupancyMaxActiveClusters(&r[s], kKernel, &config) != cudaSuccess) {
        cudaGetLastError();
        r[s] = 0;
      }
    }
    return r;
  }();
  return size >= 0 && size <= kMost ? resident[size] : 0;
}

// true when ptr is a multiple of `bytes` (the launchers' alignment rules).
inline bool aligned_to(const void* ptr, std::int64_t bytes) {
  return reinterpret_cast<std::uintptr_t>(ptr) % std::uintptr_t(bytes) == 0;
}

// true when every column (and batch item) of a column-major operand starts on a 16-byte
// boundary: base 16-byte aligned, ld and the batch stride multiples of 16 bytes. Then
// every 16-byte chunk that starts at a multiple of 16 bytes within a column is aligned:
// what 128-bit loads, 16-byte cp.async and the TMA need.
inline bool columns_aligned16(const void* base, std::int64_t ld, std::int64_t stride, std::int64_t batch,
                              std::int64_t element_bytes) {
  const std::int64_t per16 = 16 / element_bytes;
  return aligned_to(base, 16) && ld % per16 == 0 && (batch <= 1 || stride % per16 == 0);
}

// Calls f.template operator()<T>() with T the element type C is stored in.
template <class F>
cudaError_t dispatch_c_type(DType c_type, F&& f) {
  switch (c_type) {
    case DType::F16: return f.template operator()<__half>();
    case DType::BF16: return f.template operator()<__nv_bfloat16>();
    case DType::F32: break;
  }
  return f.template operator()<float>();
}

// Grid dimensions are 32-bit in x and 16-bit in y/z; a problem past them is refused.
inline bool grid_fits(std::int64_t blocks_x, std::int64_t blocks_y) {
  return blocks_x <= 2147483647LL && blocks_y <= 65535;
}

}  // namespace tilemm::kernels
