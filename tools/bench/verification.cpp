#include "verification.hpp"

#include <algorithm>
#include <cmath>

#include "cuda_check.hpp"
#include "device_kernels.hpp"
#include "reference/reference_gemm.hpp"

namespace tilemm::bench {
namespace {

// Copies `count` elements of a device operand stored as `type` to the host as fp32.
std::vector<float> download_as_fp32(const void* data, cudaDataType_t type, std::size_t count,
                                    cudaStream_t stream) {
  std::vector<float> host(count);
  const void* source = data;
  DeviceBuffer widened;
  if (type != CUDA_R_32F) {
    widened = DeviceBuffer(count * sizeof(float));
    check_cuda(widen_to_fp32(data, type, static_cast<float*>(widened.data()), count, stream), "widen_to_fp32");
    source = widened.data();
  }
  check_cuda(cudaMemcpyAsync(host.data(), source, count * sizeof(float), cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync (operand to host)");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return host;
}

}  // namespace

const char* verify_method_name(VerifyMethod method) {
  switch (method) {
    case VerifyMethod::None: return "none";
    case VerifyMethod::CpuReference: return "cpu-fp64";
    case VerifyMethod::Cublas: return "cublas";
  }
  return "?";
}

VerifyMethod resolve_verify_method(VerifyMode mode, const Shape& shape) {
  switch (mode) {
    case VerifyMode::None: return VerifyMethod::None;
    case VerifyMode::Reference: return VerifyMethod::CpuReference;
    case VerifyMode::Cublas: return VerifyMethod::Cublas;
    case VerifyMode::Auto: break;
  }
  return shape.multiply_adds() <= kCpuReferenceLimit ? VerifyMethod::CpuReference : VerifyMethod::Cublas;
}

double verification_tolerance(double unit_roundoff, std::int64_t k) {
  constexpr double kSafety = 8.0;
  return kSafety * unit_roundoff * std::sqrt(double(std::max<std::int64_t>(k, 1)));
}

Verifier::Verifier(VerifyMethod method, const Shape& shape, const Operands& operands, double alpha,
                   double beta, const CublasBaseline& cublas, cudaStream_t stream)
    : method_(method), shape_(shape), storage_type_(operands.dtype().storage) {
  if (method_ == VerifyMethod::None) return;
  const OperandLayout& layout = operands.layout();
  c_item_elements_ = layout.stride_c;
  tolerance_ = verification_tolerance(operands.dtype().unit_roundoff, shape.k);
  per_item_sums_ = DeviceBuffer(std::size_t(shape.batch) * sizeof(double));

  // The normalization: |alpha| ||A_b|| ||B_b|| + |beta| ||C0_b|| per item.
  const OperandSet set0 = operands.set(0);
  const auto a_squares = squares_per_item(set0.a, storage_type_, nullptr, storage_type_, std::size_t(layout.stride_a), stream);
  const auto b_squares = squares_per_item(set0.b, storage_type_, nullptr, storage_type_, std::size_t(layout.stride_b), stream);
  std::vector<double> c0_squares(std::size_t(shape.batch), 0.0);
  if (beta != 0.0) {
    c0_squares = squares_per_item(operands.initial_c(), storage_type_, nullptr, storage_type_, std::size_t(layout.stride_c), stream);
  }
  denominators_.resize(std::size_t(shape.batch));
  for (std::size_t b = 0; b < denominators_.size(); ++b) {
    denominators_[b] = std::abs(alpha) * std::sqrt(a_squares[b]) * std::sqrt(b_squares[b]) +
                       std::abs(beta) * std::sqrt(c0_squares[b]);
  }

  if (method_ == VerifyMethod::CpuReference) {
    compute_cpu_reference(operands, alpha, beta, stream);
  } else {
    compute_cublas_reference(operands, alpha, beta, cublas, stream);
  }
  if (unavailable_.empty()) {
    reference_squares_ = squares_per_item(reference_.data(), reference_type_, nullptr, reference_type_,
                                          std::size_t(c_item_elements_), stream);
  }
}

void Verifier::compute_cpu_reference(const Operands& operands, double alpha, double beta, cudaStream_t stream) {
  const OperandLayout& l = operands.layout();
  const OperandSet set0 = operands.set(0);
  const std::vector<float> a = download_as_fp32(set0.a, storage_type_, l.a_elements, stream);
  const std::vector<float> b = download_as_fp32(set0.b, storage_type_, l.b_elements, stream);
  std::vector<double> c(l.c_elements, 0.0);
  if (beta != 0.0) {
    const std::vector<float> c0 = download_as_fp32(operands.initial_c(), storage_type_, l.c_elements, stream);
    std::copy(c0.begin(), c0.end(), c.begin());
  }
  for (std::int64_t item = 0; item < shape_.batch; ++item) {
    reference::gemm(shape_.opa, shape_.opb, shape_.m, shape_.n, shape_.k, alpha,
                    a.data() + item * l.stride_a, l.lda, b.data() + item * l.stride_b, l.ldb, beta,
                    c.data() + item * l.stride_c, l.ldc);
  }
  reference_ = DeviceBuffer(c.size() * sizeof(double));
  reference_type_ = CUDA_R_64F;
  check_cuda(cudaMemcpyAsync(reference_.data(), c.data(), c.size() * sizeof(double), cudaMemcpyHostToDevice, stream),
             "cudaMemcpyAsync (reference to device)");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

void Verifier::compute_cublas_reference(const Operands& operands, double alpha, double beta,
                                        const CublasBaseline& cublas, cudaStream_t stream) {
  operands.restore_initial_c(stream);
  const OperandSet set0 = operands.set(0);
  const std::string failure = cublas.gemm(shape_, operands.dtype(), operands.layout(), set0,
                                          static_cast<float>(alpha), static_cast<float>(beta));
  if (!failure.empty()) {
    unavailable_ = "no cuBLAS reference: " + failure;
    return;
  }
  const std::size_t bytes = operands.layout().c_elements * operands.dtype().element_bytes;
  reference_ = DeviceBuffer(bytes);
  reference_type_ = storage_type_;
  check_cuda(cudaMemcpyAsync(reference_.data(), set0.c, bytes, cudaMemcpyDeviceToDevice, stream),
             "cudaMemcpyAsync (cuBLAS reference)");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (cuBLAS reference)");
}

std::vector<double> Verifier::squares_per_item(const void* x, cudaDataType_t x_type, const void* ref,
                                               cudaDataType_t ref_type, std::size_t item_elements,
                                               cudaStream_t stream) const {
  auto* sums = static_cast<double*>(per_item_sums_.data());
  check_cuda(sum_squares_per_item(x, x_type, ref, ref_type, item_elements, shape_.batch, sums, stream),
             "sum_squares_per_item");
  std::vector<double> host(std::size_t(shape_.batch));
  check_cuda(cudaMemcpyAsync(host.data(), sums, host.size() * sizeof(double), cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync (norms)");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (norms)");
  return host;
}

VerifyOutcome Verifier::check(const void* c, cudaStream_t stream) const {
  VerifyOutcome out;
  out.tolerance = tolerance_;
  const auto differences = squares_per_item(c, storage_type_, reference_.data(), reference_type_,
                                            std::size_t(c_item_elements_), stream);
  bool all_finite = true;
  for (std::size_t b = 0; b < differences.size(); ++b) {
    const double difference = std::sqrt(differences[b]);
    // With alpha = beta = 0 the expected C is zero and only an absolute error is left.
    const double error = denominators_[b] > 0.0 ? difference / denominators_[b] : difference;
    const double reference_norm = std::sqrt(reference_squares_[b]);
    const double relative = reference_norm > 0.0 ? difference / reference_norm : difference;
    all_finite = all_finite && std::isfinite(error);
    out.error = std::isnan(error) ? error : std::max(out.error, error);
    out.relative_error = std::isnan(relative) ? relative : std::max(out.relative_error, relative);
    if (!all_finite) break;
  }
  out.passed = all_finite && out.error <= tolerance_;
  return out;
}

}  // namespace tilemm::bench
