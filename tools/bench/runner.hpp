// Runs the selected kernels and cuBLAS over the shapes: for each shape, operands and a
// reference once; for each kernel, a verified first run, warm-ups, then the timed runs
// (see timing.hpp), and the explain columns.
#pragma once

#include <functional>
#include <vector>

#include <cuda_runtime_api.h>

#include "cublas_baseline.hpp"
#include "device_report.hpp"
#include "dtype.hpp"
#include "kernel_selection.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "results.hpp"
#include "tilemm/tilemm.h"

namespace tilemm::bench {

struct RunContext {
  const BenchOptions& options;
  const BenchDType& dtype;
  const DeviceReport& device;
  tilemmHandle_t handle;  // bound to `stream`
  const CublasBaseline& cublas;  // bound to `stream`
  cudaStream_t stream;
};

// Called after every finished row, e.g. to print it in the CUDA-samples format.
using RowCallback = std::function<void(const RunResult&)>;

std::vector<RunResult> run_benchmarks(const RunContext& context, const std::vector<Shape>& shapes,
                                      const KernelSelection& selection, ProgressBar& progress,
                                      const RowCallback& on_row);

}  // namespace tilemm::bench
