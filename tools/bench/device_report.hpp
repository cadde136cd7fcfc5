// What the banner says about the machine: the device, its clocks and caches, the copy
// bandwidth measured now, the peak the "% of peak" column is taken against, and the
// toolkit and driver versions.
#pragma once

#include <cstdint>
#include <string>

#include "dtype.hpp"

namespace tilemm::bench {

struct DeviceReport {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_sm_clock_khz = 0;  // cudaDevAttrClockRate: the maximum (boost) SM clock
  int max_threads_per_sm = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t global_memory_bytes = 0;
  // Bytes read plus bytes written per second by a large device-to-device cudaMemcpy.
  double copy_bandwidth_bytes_per_s = 0.0;
  std::int64_t copy_bytes = 0;  // the size of that copy
  // FLOP per SM per clock for the run's dtype, 0 when the architecture is not known.
  int flops_per_sm_per_clock = 0;
  double peak_flops = 0.0;   // SMs x flops_per_sm_per_clock x max SM clock; 0 when unknown
  std::string peak_basis;    // how peak_flops was computed, in words
  int runtime_version = 0;   // cudaRuntimeGetVersion
  int toolkit_version = 0;   // CUDART_VERSION the bench was compiled with
  int driver_version = 0;    // cudaDriverGetVersion: the newest CUDA the driver supports
  std::string driver_release;  // "580.65.06" from /proc/driver/nvidia/version; "" if unreadable
};

// "" when `device` can run the bench, else one line saying why not (no driver, no
// device, ordinal out of range). Touches CUDA, but only to ask.
std::string why_device_unusable(int device);

// FLOP per SM per clock of the units that compute `dtype` on compute capability
// major.minor (dense, no sparsity), from the architecture whitepapers; 0 when unknown.
int flops_per_sm_per_clock(int cc_major, int cc_minor, DTypeId dtype);

// "13.0" from 13000.
std::string cuda_version_string(int version);

// Queries `device` (already current) and measures its copy bandwidth.
DeviceReport describe_device(int device, const BenchDType& dtype);

}  // namespace tilemm::bench
