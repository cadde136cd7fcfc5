// The standard suite (--suite standard): a fixed shape list that covers what GEMM users
// meet, and its summary, the geometric-mean ratio to cuBLAS and the worst shape.
//
//   squares         1024^3, 2048^3, 4096^3, 8192^3
//   odd sizes       1000^3, 4093^3 (no tile divides them: tails and alignment)
//   LLM shapes      M in {16, 128, 4096} x (N, K) in {(4096, 4096), (11008, 4096),
//                   (4096, 11008), (14336, 4096)}: decode (16), small-batch (128) and
//                   prefill (4096) token counts against the projections of 7B-class models
//   strided batch   64 products of 512^3 (tilemmGemmStridedBatchedEx against
//                   cublasGemmStridedBatchedEx)
#pragma once

#include <string>
#include <vector>

#include "options.hpp"
#include "results.hpp"

namespace tilemm::bench {

// The suite's shapes, all with the given ops; every other setting comes from the options.
std::vector<Shape> standard_suite_shapes(Op opa, Op opb);

// One paragraph for --help and the README.
std::string standard_suite_description();

// For every non-cuBLAS selection that ran next to a cuBLAS row on the same shape:
// geometric mean of the TFLOP/s ratios and the worst shape. Pure.
std::vector<CublasComparison> compare_with_cublas(const std::vector<RunResult>& rows);

}  // namespace tilemm::bench
