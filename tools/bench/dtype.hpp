// The data types the bench can ask for, and how each maps onto the tilemm C API and
// cuBLAS: fp32 on CUDA cores, tf32 (fp32 data, TF32 tensor cores), fp16 and bf16 (fp32
// accumulation, C in the input type). A kernel that does not compute a type reports the
// library's NOT_SUPPORTED cleanly.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include <library_types.h>

#include "tilemm/tilemm.h"

namespace tilemm::bench {

enum class DTypeId { Fp32, Tf32, Fp16, Bf16 };

struct BenchDType {
  DTypeId id;
  const char* name;         // as on the command line: "fp32"
  const char* description;  // one line for --help and the reports
  // A, B and C are all stored in this type; alpha and beta are float (the 32F scale type).
  cudaDataType_t storage;
  std::size_t element_bytes;
  tilemmComputeType_t library_compute;
  // Unit roundoff of the arithmetic, for the tolerance c * u * sqrt(k).
  double unit_roundoff;
};

std::span<const BenchDType> all_dtypes();
// nullptr when the name is not one of all_dtypes().
const BenchDType* find_dtype(std::string_view name);
// "fp32, tf32, fp16, bf16"
std::string dtype_names();

}  // namespace tilemm::bench
