#include "operands.hpp"

#include <algorithm>

#include "cuda_check.hpp"
#include "device_kernels.hpp"

namespace tilemm::bench {
namespace {

constexpr std::size_t kSetAlignment = 256;

std::size_t aligned(std::size_t bytes) {
  return (bytes + kSetAlignment - 1) / kSetAlignment * kSetAlignment;
}

const char* byte_offset(const void* base, std::size_t bytes) {
  return static_cast<const char*>(base) + bytes;
}

}  // namespace

OperandLayout layout_for(const Shape& s) {
  GemmProblem p;
  p.opa = s.opa;
  p.opb = s.opb;
  p.m = s.m;
  p.n = s.n;
  p.k = s.k;
  OperandLayout l;
  l.lda = std::max<std::int64_t>(1, p.a_rows());
  l.ldb = std::max<std::int64_t>(1, p.b_rows());
  l.ldc = std::max<std::int64_t>(1, s.m);
  l.stride_a = l.lda * p.a_cols();
  l.stride_b = l.ldb * p.b_cols();
  l.stride_c = l.ldc * s.n;
  l.a_elements = std::size_t(l.stride_a * s.batch);
  l.b_elements = std::size_t(l.stride_b * s.batch);
  l.c_elements = std::size_t(l.stride_c * s.batch);
  return l;
}

int operand_set_count(std::size_t set_bytes, std::int64_t l2_bytes) {
  if (set_bytes == 0 || l2_bytes <= 0 || set_bytes >= std::size_t(l2_bytes)) return 1;
  const std::size_t wanted = 2 * std::size_t(l2_bytes);
  return static_cast<int>((wanted + set_bytes - 1) / set_bytes);
}

Operands::Operands(const Shape& shape, const BenchDType& dtype, std::int64_t l2_bytes,
                   std::uint64_t seed, bool beta_is_zero, cudaStream_t stream)
    : dtype_(&dtype), layout_(layout_for(shape)) {
  const std::size_t e = dtype.element_bytes;
  a_pitch_ = aligned(layout_.a_elements * e);
  b_pitch_ = aligned(layout_.b_elements * e);
  c_pitch_ = aligned(layout_.c_elements * e);
  set_count_ = operand_set_count(set_bytes(), l2_bytes);
  const auto sets = std::size_t(set_count_);
  a_ = DeviceBuffer(a_pitch_ * sets);
  b_ = DeviceBuffer(b_pitch_ * sets);
  c_ = DeviceBuffer(c_pitch_ * sets);
  initial_c_ = DeviceBuffer(c_pitch_);

  // Distinct seeds per operand, so A and B never hold the same numbers.
  check_cuda(fill_uniform(a_.data(), dtype.storage, a_pitch_ * sets / e, seed * 4 + 1, stream), "fill A");
  check_cuda(fill_uniform(b_.data(), dtype.storage, b_pitch_ * sets / e, seed * 4 + 2, stream), "fill B");
  check_cuda(fill_uniform(c_.data(), dtype.storage, c_pitch_ * sets / e, seed * 4 + 3, stream), "fill C");
  if (beta_is_zero) {
    check_cuda(fill_nan(initial_c_.data(), dtype.storage, c_pitch_ / e, stream), "poison C");
  } else {
    check_cuda(cudaMemcpyAsync(initial_c_.data(), c_.data(), c_pitch_, cudaMemcpyDeviceToDevice, stream),
               "cudaMemcpyAsync (initial C)");
  }
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (operands)");
}

std::size_t Operands::set_bytes() const { return a_pitch_ + b_pitch_ + c_pitch_; }

OperandSet Operands::set(int index) const {
  const auto i = std::size_t(index % set_count_);
  return OperandSet{byte_offset(a_.data(), i * a_pitch_), byte_offset(b_.data(), i * b_pitch_),
                    static_cast<char*>(c_.data()) + i * c_pitch_};
}

void Operands::restore_initial_c(cudaStream_t stream) const {
  check_cuda(cudaMemcpyAsync(c_.data(), initial_c_.data(), c_pitch_, cudaMemcpyDeviceToDevice, stream),
             "cudaMemcpyAsync (restore C)");
}

}  // namespace tilemm::bench
