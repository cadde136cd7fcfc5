#include "gemm_check.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <cuda_runtime_api.h>

#include "reference/reference_gemm.hpp"

namespace tilemm::test {
namespace {

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Owns a device allocation.
template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  explicit DeviceBuffer(std::size_t n) : count(n) {
    check_cuda(cudaMalloc(reinterpret_cast<void**>(&ptr), std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc");
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void upload(const std::vector<T>& h) {
    check_cuda(cudaMemcpy(ptr, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy H2D");
  }
  void download(std::vector<T>& h) const {
    h.resize(count);
    check_cuda(cudaMemcpy(h.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
  }
};

// Written into every element of C's buffer that is not an output: guard bands before
// and after, the rows between m and ldc, the gaps between batch items.
constexpr float kSentinel = -777.25f;
constexpr std::int64_t kGuard = 64;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Products up to this many multiply-adds use the CPU reference; larger ones the GPU one.
constexpr double kCpuReferenceLimit = double(1 << 22);

}  // namespace

std::string GemmCase::describe() const {
  std::ostringstream os;
  os << m << "x" << n << "x" << k << " " << op_code(opa, opb) << " alpha=" << alpha
     << " beta=" << beta << " ld+" << ld_pad << " offset=" << offset;
  if (batch != 1) os << " batch=" << batch << (broadcast_a ? " A-broadcast" : "") << (broadcast_b ? " B-broadcast" : "");
  return os.str();
}

double fp32_tolerance(std::int64_t k) {
  constexpr double kUnitRoundoff = 1.0 / (1 << 24);
  constexpr double kSafety = 8.0;
  return kSafety * kUnitRoundoff * std::sqrt(double(std::max<std::int64_t>(k, 1)));
}

bool small_subset() {
  const char* v = std::getenv("TILEMM_TEST_SMALL");
  return v != nullptr && std::strcmp(v, "0") != 0;
}

CaseResult run_case(tilemmHandle_t handle, const GemmCase& c, bool check_determinism) {
  CaseResult result;
  const std::int64_t a_rows = c.opa == Op::N ? c.m : c.k, a_cols = c.opa == Op::N ? c.k : c.m;
  const std::int64_t b_rows = c.opb == Op::N ? c.k : c.n, b_cols = c.opb == Op::N ? c.n : c.k;
  const std::int64_t lda = std::max<std::int64_t>(1, a_rows) + c.ld_pad;
  const std::int64_t ldb = std::max<std::int64_t>(1, b_rows) + c.ld_pad;
  const std::int64_t ldc = std::max<std::int64_t>(1, c.m) + c.ld_pad;
  // Batch items sit a few elements apart beyond their footprint, so gaps are checked too.
  const std::int64_t stride_a = c.broadcast_a ? 0 : lda * a_cols + 3;
  const std::int64_t stride_b = c.broadcast_b ? 0 : ldb * b_cols + 5;
  const std::int64_t stride_c = ldc * c.n + 7;
  const std::int64_t a_count = stride_a * (c.batch - 1) + lda * a_cols;
  const std::int64_t b_count = stride_b * (c.batch - 1) + ldb * b_cols;
  const std::int64_t c_count = stride_c * (c.batch - 1) + ldc * c.n;

  std::mt19937_64 rng(std::hash<std::string>{}(c.describe()));
  std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
  const auto random_nonzero = [&] {
    float x = 0.0f;
    while (x == 0.0f) x = uni(rng);
    return x;
  };
  std::vector<float> hA(static_cast<size_t>(c.offset + a_count)), hB(static_cast<size_t>(c.offset + b_count));
  for (auto& x : hA) x = random_nonzero();
  for (auto& x : hB) x = random_nonzero();
  const std::int64_t c_total = kGuard + c.offset + c_count + kGuard;
  std::vector<float> hC0(static_cast<size_t>(c_total), kSentinel);
  std::vector<char> is_output(static_cast<size_t>(c_total), 0);
  const std::int64_t c_base = kGuard + c.offset;
  const float poison = std::numeric_limits<float>::quiet_NaN();
  for (std::int64_t b = 0; b < c.batch; ++b)
    for (std::int64_t j = 0; j < c.n; ++j)
      for (std::int64_t i = 0; i < c.m; ++i) {
        const auto idx = static_cast<size_t>(c_base + b * stride_c + i + j * ldc);
        hC0[idx] = c.beta == 0.0f ? poison : random_nonzero();
        is_output[idx] = 1;
      }

  DeviceBuffer<float> dA(hA.size()), dB(hB.size()), dC(hC0.size());
  dA.upload(hA);
  dB.upload(hB);
  dC.upload(hC0);
  const float* A = dA.ptr + c.offset;
  const float* B = dB.ptr + c.offset;
  float* C = dC.ptr + c_base;

  const auto ta = c.opa == Op::N ? TILEMM_OP_N : TILEMM_OP_T;
  const auto tb = c.opb == Op::N ? TILEMM_OP_N : TILEMM_OP_T;
  const auto multiply = [&]() {
    if (c.batch == 1) {
      return tilemmSgemm(handle, ta, tb, c.m, c.n, c.k, &c.alpha, A, lda, B, ldb, &c.beta, C, ldc);
    }
    return tilemmGemmStridedBatchedEx(handle, ta, tb, c.m, c.n, c.k, &c.alpha, A, CUDA_R_32F, lda,
                                      stride_a, B, CUDA_R_32F, ldb, stride_b, &c.beta, C,
                                      CUDA_R_32F, ldc, stride_c, c.batch, TILEMM_COMPUTE_32F);
  };
  tilemmStatus_t s = multiply();
  if (s != TILEMM_STATUS_SUCCESS) {
    result.message = std::string(tilemmGetStatusString(s)) + ": " + tilemmGetErrorDetail(handle);
    result.refused = s == TILEMM_STATUS_NOT_SUPPORTED || s == TILEMM_STATUS_ARCH_MISMATCH;
    if (result.refused) {
      std::vector<float> after;
      dC.download(after);
      result.passed = std::memcmp(after.data(), hC0.data(), after.size() * sizeof(float)) == 0;
      if (!result.passed) result.message += " (and C was modified)";
    }
    return result;
  }
  check_cuda(cudaDeviceSynchronize(), "synchronize after the product");
  std::vector<float> hC;
  dC.download(hC);

  for (std::int64_t idx = 0; idx < c_total; ++idx) {
    if (!is_output[static_cast<size_t>(idx)] && !same_bits(hC[static_cast<size_t>(idx)], kSentinel)) {
      std::ostringstream os;
      os << "wrote outside C: buffer element " << idx - c_base << " (relative to C) changed from the sentinel to "
         << hC[static_cast<size_t>(idx)];
      result.message = os.str();
      return result;
    }
  }

  // Reference in fp64, item by item; the error is the worst item's.
  std::vector<double> ref(static_cast<size_t>(ldc * c.n));
  const bool on_cpu = double(c.m) * double(c.n) * double(c.k) <= kCpuReferenceLimit;
  std::unique_ptr<DeviceBuffer<double>> dRef;
  if (!on_cpu) dRef = std::make_unique<DeviceBuffer<double>>(ref.size());
  double worst = 0.0;
  for (std::int64_t b = 0; b < c.batch; ++b) {
    const float* hAb = hA.data() + c.offset + b * stride_a;
    const float* hBb = hB.data() + c.offset + b * stride_b;
    double c0_norm2 = 0.0;
    for (std::int64_t j = 0; j < c.n; ++j)
      for (std::int64_t i = 0; i < c.m; ++i) {
        const float v = hC0[static_cast<size_t>(c_base + b * stride_c + i + j * ldc)];
        ref[static_cast<size_t>(i + j * ldc)] = c.beta == 0.0f ? 0.0 : double(v);
        if (c.beta != 0.0f) c0_norm2 += double(v) * double(v);
      }
    if (on_cpu) {
      reference::gemm(c.opa, c.opb, c.m, c.n, c.k, c.alpha, hAb, lda, hBb, ldb, c.beta, ref.data(), ldc);
    } else {
      dRef->upload(ref);
      fp64_reference_gemm(c.opa, c.opb, c.m, c.n, c.k, c.alpha, A + b * stride_a, lda,
                          B + b * stride_b, ldb, c.beta, dRef->ptr, ldc);
      check_cuda(cudaDeviceSynchronize(), "fp64 reference");
      dRef->download(ref);
    }
    double a_norm2 = 0.0, b_norm2 = 0.0;
    for (std::int64_t q = 0; q < a_cols; ++q)
      for (std::int64_t r = 0; r < a_rows; ++r) a_norm2 += double(hAb[r + q * lda]) * hAb[r + q * lda];
    for (std::int64_t q = 0; q < b_cols; ++q)
      for (std::int64_t r = 0; r < b_rows; ++r) b_norm2 += double(hBb[r + q * ldb]) * hBb[r + q * ldb];
    double diff2 = 0.0;
    for (std::int64_t j = 0; j < c.n; ++j)
      for (std::int64_t i = 0; i < c.m; ++i) {
        const double got = hC[static_cast<size_t>(c_base + b * stride_c + i + j * ldc)];
        const double want = ref[static_cast<size_t>(i + j * ldc)];
        if (!std::isfinite(got)) {
          std::ostringstream os;
          os << "non-finite output " << got << " at (" << i << ", " << j << ") of item " << b
             << "; expected " << want;
          result.message = os.str();
          return result;
        }
        diff2 += (got - want) * (got - want);
      }
    const double scale = std::abs(double(c.alpha)) * std::sqrt(a_norm2) * std::sqrt(b_norm2) +
                         std::abs(double(c.beta)) * std::sqrt(c0_norm2);
    const double err = scale > 0.0 ? std::sqrt(diff2) / scale : std::sqrt(diff2);
    worst = std::max(worst, err);
  }
  result.error = worst;
  result.tolerance = fp32_tolerance(c.k);
  if (!(worst <= result.tolerance)) {
    std::ostringstream os;
    os << "relative error " << worst << " exceeds the tolerance " << result.tolerance;
    result.message = os.str();
    return result;
  }

  if (check_determinism) {
    dC.upload(hC0);
    s = multiply();
    if (s != TILEMM_STATUS_SUCCESS) {
      result.message = std::string("second run: ") + tilemmGetStatusString(s);
      return result;
    }
    check_cuda(cudaDeviceSynchronize(), "synchronize after the second product");
    std::vector<float> hC2;
    dC.download(hC2);
    if (std::memcmp(hC.data(), hC2.data(), hC.size() * sizeof(float)) != 0) {
      result.message = "two runs on the same inputs differ bitwise";
      return result;
    }
  }
  result.passed = true;
  return result;
}

}  // namespace tilemm::test
