#pragma once

#include <cuda_runtime_api.h>

#include "core/problem.hpp"

namespace tilemm::kernels {

// C = beta * C over the problem's m x n x batch outputs, in C's type (fp32, fp16, bf16).
cudaError_t launch_beta_scale(const GemmProblem& p, cudaStream_t stream);

}  // namespace tilemm::kernels
