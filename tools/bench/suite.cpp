#include "suite.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace tilemm::bench {

std::vector<Shape> standard_suite_shapes(Op opa, Op opb) {
  std::vector<Shape> shapes;
  const auto add = [&](std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch) {
    shapes.push_back(Shape{m, n, k, batch, opa, opb});
  };
  for (std::int64_t s : {1024, 2048, 4096, 8192}) add(s, s, s, 1);
  for (std::int64_t s : {1000, 4093}) add(s, s, s, 1);
  const std::pair<std::int64_t, std::int64_t> projections[] = {
      {4096, 4096}, {11008, 4096}, {4096, 11008}, {14336, 4096}};
  for (std::int64_t m : {16, 128, 4096}) {
    for (const auto& [n, k] : projections) add(m, n, k, 1);
  }
  add(512, 512, 512, 64);
  return shapes;
}

std::string standard_suite_description() {
  return "squares 1024^3, 2048^3, 4096^3, 8192^3; odd sizes 1000^3 and 4093^3; LLM shapes "
         "M in {16, 128, 4096} x (N, K) in {(4096, 4096), (11008, 4096), (4096, 11008), "
         "(14336, 4096)}; a strided batch of 64 products of 512^3. Runs 'auto' and cuBLAS "
         "(or the --kernel selection) for the chosen --dtype and --trans, and ends with the "
         "geometric-mean ratio to cuBLAS and the worst shape.";
}

std::vector<CublasComparison> compare_with_cublas(const std::vector<RunResult>& rows) {
  // cuBLAS's rate per shape, keyed by the shape's label (unique within a run).
  std::map<std::string, double> cublas_tflops;
  for (const auto& r : rows) {
    if (r.is_cublas && r.status == RowStatus::Ok && r.tflops && *r.tflops > 0.0) {
      cublas_tflops[r.shape.label()] = *r.tflops;
    }
  }
  std::vector<CublasComparison> comparisons;
  std::map<std::string, double> log_sums;
  for (const auto& r : rows) {
    if (r.is_cublas || r.status != RowStatus::Ok || !r.tflops || *r.tflops <= 0.0) continue;
    const auto base = cublas_tflops.find(r.shape.label());
    if (base == cublas_tflops.end()) continue;
    const double ratio = *r.tflops / base->second;
    auto it = std::find_if(comparisons.begin(), comparisons.end(),
                           [&](const CublasComparison& c) { return c.requested == r.requested; });
    if (it == comparisons.end()) {
      comparisons.push_back(CublasComparison{r.requested, 0, 0.0, r.shape, r.kernel, ratio});
      it = comparisons.end() - 1;
    }
    ++it->shapes;
    log_sums[r.requested] += std::log(ratio);
    if (ratio < it->worst_ratio) {
      it->worst_ratio = ratio;
      it->worst_shape = r.shape;
      it->worst_kernel = r.kernel;
    }
  }
  for (auto& c : comparisons) c.geomean_ratio = std::exp(log_sums[c.requested] / c.shapes);
  return comparisons;
}

}  // namespace tilemm::bench
