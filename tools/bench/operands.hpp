// The inputs and outputs of one shape: several operand sets, so that timed runs can
// rotate through a footprint of at least twice the L2 cache when one set would fit in
// it (otherwise every run after the first would read A and B from L2 and the numbers
// would flatter small products), plus the pristine initial C that every verified run
// starts from.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "device_buffer.hpp"
#include "dtype.hpp"
#include "options.hpp"

namespace tilemm::bench {

// Device pointers of one operand set. Matrices are stored with their minimum leading
// dimensions and batch items back to back (the strides of OperandLayout).
struct OperandSet {
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
};

struct OperandLayout {
  std::int64_t lda = 1, ldb = 1, ldc = 1;
  std::int64_t stride_a = 0, stride_b = 0, stride_c = 0;  // elements between batch items
  std::size_t a_elements = 0, b_elements = 0, c_elements = 0;  // all items of one set
};

OperandLayout layout_for(const Shape& shape);

// How many sets make the rotation exceed 2x L2 when one set fits in it (pure).
int operand_set_count(std::size_t set_bytes, std::int64_t l2_bytes);

class Operands {
 public:
  // Fills A and B with random numbers, and C with random numbers when beta != 0, or
  // with NaN when beta == 0 (C must then never be read).
  Operands(const Shape& shape, const BenchDType& dtype, std::int64_t l2_bytes, std::uint64_t seed,
           bool beta_is_zero, cudaStream_t stream);

  const OperandLayout& layout() const { return layout_; }
  const BenchDType& dtype() const { return *dtype_; }
  int set_count() const { return set_count_; }
  OperandSet set(int index) const;
  std::size_t set_bytes() const;
  std::size_t footprint_bytes() const { return set_bytes() * std::size_t(set_count_); }
  const void* initial_c() const { return initial_c_.data(); }

  // Copies the initial C into set 0, so a verified run sees the C the reference saw.
  void restore_initial_c(cudaStream_t stream) const;

 private:
  const BenchDType* dtype_;
  OperandLayout layout_;
  int set_count_ = 1;
  // Each set's matrix starts on a 256-byte boundary within these buffers.
  std::size_t a_pitch_ = 0, b_pitch_ = 0, c_pitch_ = 0;
  DeviceBuffer a_, b_, c_, initial_c_;
};

}  // namespace tilemm::bench
