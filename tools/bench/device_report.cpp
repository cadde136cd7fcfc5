#include "device_report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "timing.hpp"

namespace tilemm::bench {
namespace {

int attribute(cudaDeviceAttr attr, int device, const char* what) {
  int value = 0;
  check_cuda(cudaDeviceGetAttribute(&value, attr, device), what);
  return value;
}

// A copy far larger than any L2, so it measures DRAM: 8x L2, at least 256 MiB, and
// at most a quarter of the free memory.
std::int64_t copy_size_for(std::int64_t l2_bytes) {
  std::size_t free_bytes = 0, total_bytes = 0;
  check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const std::int64_t wanted = std::max<std::int64_t>(8 * l2_bytes, std::int64_t(256) << 20);
  return std::min<std::int64_t>(wanted, std::int64_t(free_bytes / 4)) / 4096 * 4096;
}

double measure_copy_bandwidth(std::int64_t bytes) {
  if (bytes <= 0) return 0.0;
  DeviceBuffer source{std::size_t(bytes)}, destination{std::size_t(bytes)};
  cudaStream_t stream = nullptr;
  check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const LaunchOnSet copy = [&](int) {
    const cudaError_t e = cudaMemcpyAsync(destination.data(), source.data(), std::size_t(bytes),
                                          cudaMemcpyDeviceToDevice, stream);
    return e == cudaSuccess ? std::string() : std::string("cudaMemcpyAsync: ") + cudaGetErrorString(e);
  };
  constexpr int kWarmup = 2, kTimed = 10;
  TimedRuns runs = time_launches(copy, kWarmup, 0, stream);
  if (runs.failure.empty()) runs = time_launches(copy, kTimed, 0, stream);
  check_cuda(cudaStreamDestroy(stream), "cudaStreamDestroy");
  if (!runs.failure.empty()) throw BenchError("copy bandwidth measurement: " + runs.failure);
  const double ms = median(runs.milliseconds);
  // A copy reads every byte once and writes it once.
  return ms > 0.0 ? 2.0 * double(bytes) / (ms * 1e-3) : 0.0;
}

// The kernel module's release, which the CUDA runtime does not report (it gives the
// CUDA version the driver supports). Linux only; "" elsewhere.
std::string read_driver_release() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  std::getline(in, line);
  std::smatch match;
  if (std::regex_search(line, match, std::regex(R"(Kernel Module\s+(?:for \S+\s+)?([0-9]+(?:\.[0-9]+)+))"))) {
    return match[1];
  }
  return {};
}

}  // namespace

std::string why_device_unusable(int device) {
  int driver = 0;
  // Without a driver the runtime reports "insufficient driver", which would mislead.
  if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0) {
    return "no NVIDIA driver is loaded on this machine (no CUDA GPU to measure)";
  }
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    static_cast<void>(cudaGetLastError());
    return std::string("no CUDA device is visible (cudaGetDeviceCount: ") +
           (e != cudaSuccess ? cudaGetErrorString(e) : "0 devices") + ")";
  }
  if (device < 0 || device >= count) {
    return "--device " + std::to_string(device) + " does not exist: " + std::to_string(count) +
           " CUDA device(s) visible, numbered from 0";
  }
  return {};
}

int flops_per_sm_per_clock(int cc_major, int cc_minor, DTypeId dtype) {
  // FP32: an FFMA is 2 FLOP per lane. 64 FP32 lanes per SM on Volta/Turing and GA100
  // (8.0); 128 on GA10x (8.6/8.7), Ada (8.9), Hopper (9.x) and Blackwell (10.x, 12.x).
  if (dtype == DTypeId::Fp32) {
    if (cc_major == 7 || (cc_major == 8 && cc_minor == 0)) return 64 * 2;
    if (cc_major >= 8) return 128 * 2;
    return 0;
  }
  // Dense tensor-core FLOP per SM per clock with fp32 accumulation, as the datasheets'
  // peaks divided by SMs x boost clock: A100 (8.0) 1024 TF32 / 2048 FP16-BF16; H100 and
  // H200 (9.0) 2048 / 4096. Other parts differ by product line, so they stay unknown.
  const bool tf32 = dtype == DTypeId::Tf32;
  if (cc_major == 8 && cc_minor == 0) return tf32 ? 1024 : 2048;
  if (cc_major == 9 && cc_minor == 0) return tf32 ? 2048 : 4096;
  return 0;
}

std::string cuda_version_string(int version) {
  if (version <= 0) return "unknown";
  char text[32];
  std::snprintf(text, sizeof text, "%d.%d", version / 1000, (version % 1000) / 10);
  return text;
}

DeviceReport describe_device(int device, const BenchDType& dtype) {
  DeviceReport r;
  r.index = device;
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  r.name = prop.name;
  r.cc_major = prop.major;
  r.cc_minor = prop.minor;
  r.sm_count = attribute(cudaDevAttrMultiProcessorCount, device, "cudaDevAttrMultiProcessorCount");
  r.max_sm_clock_khz = attribute(cudaDevAttrClockRate, device, "cudaDevAttrClockRate");
  r.max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device,
                                   "cudaDevAttrMaxThreadsPerMultiProcessor");
  r.l2_bytes = attribute(cudaDevAttrL2CacheSize, device, "cudaDevAttrL2CacheSize");
  r.global_memory_bytes = std::int64_t(prop.totalGlobalMem);

  r.flops_per_sm_per_clock = flops_per_sm_per_clock(r.cc_major, r.cc_minor, dtype.id);
  r.peak_flops = double(r.sm_count) * r.flops_per_sm_per_clock * double(r.max_sm_clock_khz) * 1e3;
  char basis[160];
  if (r.flops_per_sm_per_clock > 0) {
    std::snprintf(basis, sizeof basis, "%d SMs x %d %s FLOP/clk/SM x %.0f MHz (max SM clock)",
                  r.sm_count, r.flops_per_sm_per_clock, dtype.name, r.max_sm_clock_khz / 1e3);
  } else {
    std::snprintf(basis, sizeof basis, "unknown: no %s rate on record for compute capability %d.%d",
                  dtype.name, r.cc_major, r.cc_minor);
  }
  r.peak_basis = basis;

  check_cuda(cudaRuntimeGetVersion(&r.runtime_version), "cudaRuntimeGetVersion");
  check_cuda(cudaDriverGetVersion(&r.driver_version), "cudaDriverGetVersion");
  r.toolkit_version = CUDART_VERSION;
  r.driver_release = read_driver_release();

  r.copy_bytes = copy_size_for(r.l2_bytes);
  r.copy_bandwidth_bytes_per_s = measure_copy_bandwidth(r.copy_bytes);
  return r;
}

}  // namespace tilemm::bench
