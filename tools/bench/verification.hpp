// Checks a product against a reference computed once per shape: the fp64 CPU reference
// (src/reference) for small and medium products, cuBLAS's result for large ones.
//
// The error is the design's normalized one, worst over batch items:
//   ||C - Cref||_F / (|alpha| ||A||_F ||B||_F + |beta| ||C0||_F)  <=  8 u sqrt(k)
// with u the dtype's unit roundoff: the bound that a correct summation order meets
// whatever its blocking, and that a wrong element of any size breaks. The plain relative
// error ||C - Cref||_F / ||Cref||_F is reported beside it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cublas_baseline.hpp"
#include "device_buffer.hpp"
#include "operands.hpp"
#include "options.hpp"

namespace tilemm::bench {

enum class VerifyMethod : std::uint8_t { None, CpuReference, Cublas };

const char* verify_method_name(VerifyMethod method);  // "none", "cpu-fp64", "cublas"

// The method `mode` means for `shape` (Auto: CpuReference up to kCpuReferenceLimit
// multiply-adds, Cublas above).
VerifyMethod resolve_verify_method(VerifyMode mode, const Shape& shape);

// The design's tolerance c * u * sqrt(k), c = 8 as in the GPU tests.
double verification_tolerance(double unit_roundoff, std::int64_t k);

struct VerifyOutcome {
  double error = 0.0;           // normalized, worst item
  double relative_error = 0.0;  // ||C - Cref|| / ||Cref||, worst item
  double tolerance = 0.0;
  bool passed = false;          // false for NaN
};

class Verifier {
 public:
  // Computes the reference from operand set 0 and the initial C. With Cublas, this
  // runs cuBLAS once; a failure there leaves the verifier unavailable().
  Verifier(VerifyMethod method, const Shape& shape, const Operands& operands, double alpha, double beta,
           const CublasBaseline& cublas, cudaStream_t stream);

  VerifyMethod method() const { return method_; }
  // Non-empty when no reference could be made; every check would then be meaningless.
  const std::string& unavailable() const { return unavailable_; }
  double tolerance() const { return tolerance_; }

  // `c` is operand set 0's output after a run that started from the initial C.
  VerifyOutcome check(const void* c, cudaStream_t stream) const;

 private:
  void compute_cpu_reference(const Operands& operands, double alpha, double beta, cudaStream_t stream);
  void compute_cublas_reference(const Operands& operands, double alpha, double beta,
                                const CublasBaseline& cublas, cudaStream_t stream);
  std::vector<double> squares_per_item(const void* x, cudaDataType_t x_type, const void* ref,
                                       cudaDataType_t ref_type, std::size_t item_elements,
                                       cudaStream_t stream) const;

  VerifyMethod method_;
  Shape shape_;
  cudaDataType_t storage_type_;
  std::int64_t c_item_elements_ = 0;
  double tolerance_ = 0.0;
  std::string unavailable_;
  DeviceBuffer reference_;
  cudaDataType_t reference_type_ = CUDA_R_64F;
  std::vector<double> denominators_;          // per item
  std::vector<double> reference_squares_;     // per item: ||Cref||^2
  DeviceBuffer per_item_sums_;                // items doubles, scratch for the reductions
};

}  // namespace tilemm::bench
