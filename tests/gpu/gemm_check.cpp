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

#include <cuda_bf16.h>
#include <cuda_fp16.h>
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
// and after, the rows between m and ldc, the gaps between batch items. (A 16-bit C gets
// a value those types represent exactly.)
constexpr float kSentinel = -777.25f;
constexpr float kSentinel16 = -12288.0f;
constexpr std::int64_t kGuard = 64;

// Host-side conversions between the stored types and float. The values the tests store
// are always representable, so to_bits(from_bits(x)) round-trips.
std::uint32_t float_bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
float bits_float(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// Nearest (ties to even) value with a 10-bit stored significand: what a tf32 operand
// can hold; finite inputs of the tests' range only.
float round_to_tf32(float x) {
  std::uint32_t u = float_bits(x);
  u += 0xFFFu + ((u >> 13) & 1u);
  return bits_float(u & ~0x1FFFu);
}

float round_to(DType t, float x) {
  switch (t) {
    case DType::F16: return __half2float(__float2half_rn(x));
    case DType::BF16: return __bfloat162float(__float2bfloat16_rn(x));
    case DType::F32: break;
  }
  return x;
}

// Stores v as an element of type t at p.
void store_as(DType t, float v, unsigned char* p) {
  if (t == DType::F16) {
    const __half h = __float2half_rn(v);
    std::memcpy(p, &h, 2);
  } else if (t == DType::BF16) {
    const __nv_bfloat16 b = __float2bfloat16_rn(v);
    std::memcpy(p, &b, 2);
  } else {
    std::memcpy(p, &v, 4);
  }
}

float load_as(DType t, const unsigned char* p) {
  if (t == DType::F16) {
    __half h;
    std::memcpy(&h, p, 2);
    return __half2float(h);
  }
  if (t == DType::BF16) {
    __nv_bfloat16 b;
    std::memcpy(&b, p, 2);
    return __bfloat162float(b);
  }
  float v;
  std::memcpy(&v, p, 4);
  return v;
}

std::vector<unsigned char> to_bytes(DType t, const std::vector<float>& v) {
  const std::size_t eb = static_cast<std::size_t>(dtype_size(t));
  std::vector<unsigned char> out(v.size() * eb);
  for (std::size_t i = 0; i < v.size(); ++i) store_as(t, v[i], out.data() + i * eb);
  return out;
}

cudaDataType_t cuda_type_of(DType t) {
  switch (t) {
    case DType::F16: return CUDA_R_16F;
    case DType::BF16: return CUDA_R_16BF;
    case DType::F32: break;
  }
  return CUDA_R_32F;
}

// Products up to this many multiply-adds use the CPU reference; larger ones the GPU one.
constexpr double kCpuReferenceLimit = double(1 << 22);

}  // namespace

std::string GemmCase::describe() const {
  std::ostringstream os;
  os << m << "x" << n << "x" << k << " " << op_code(opa, opb) << " alpha=" << alpha
     << " beta=" << beta << " ld+" << ld_pad << " offset=" << offset;
  if (ld_align > 1) os << " ld%" << ld_align;
  if (batch != 1) os << " batch=" << batch << (broadcast_a ? " A-broadcast" : "") << (broadcast_b ? " B-broadcast" : "");
  if (nan_padding) os << " NaN-padding";
  // fp32 cases keep their historical description (it also seeds their inputs).
  if (ab_type != DType::F32 || c_type != DType::F32 || compute != Compute::F32) {
    os << " " << (compute == Compute::F32_FAST_TF32 ? "tf32" : dtype_name(ab_type)) << "->" << dtype_name(c_type);
  }
  return os.str();
}

bool case_types_of(const std::string& dtype, CaseTypes* out) {
  CaseTypes t;
  if (dtype == "fp32") {
  } else if (dtype == "tf32") {
    t.compute = Compute::F32_FAST_TF32;
  } else if (dtype == "fp16" || dtype == "bf16") {
    t.ab_type = dtype == "fp16" ? DType::F16 : DType::BF16;
    t.c_types[0] = t.ab_type;
    t.c_types[1] = DType::F32;
    t.c_type_count = 2;
  } else {
    return false;
  }
  *out = t;
  return true;
}

double case_tolerance(const GemmCase& c) {
  double output_rounding = 0.0;
  if (c.c_type == DType::F16) output_rounding = 1.0 / (1 << 11);
  if (c.c_type == DType::BF16) output_rounding = 1.0 / (1 << 8);
  return fp32_tolerance(c.k) + output_rounding;
}

double fp32_tolerance(std::int64_t k) {
  constexpr double kUnitRoundoff = 1.0 / (1 << 24);
  constexpr double kSafety = 8.0;
  return kSafety * kUnitRoundoff * std::sqrt(double(std::max<std::int64_t>(k, 1)));
}

namespace {
bool environment_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, "0") != 0;
}
}  // namespace

bool small_subset() { return environment_flag("TILEMM_TEST_SMALL"); }

bool trace_cases() { return environment_flag("TILEMM_TEST_TRACE"); }

CaseResult run_case(tilemmHandle_t handle, const GemmCase& c, bool check_determinism) {
  CaseResult result;
  const std::int64_t a_rows = c.opa == Op::N ? c.m : c.k, a_cols = c.opa == Op::N ? c.k : c.m;
  const std::int64_t b_rows = c.opb == Op::N ? c.k : c.n, b_cols = c.opb == Op::N ? c.n : c.k;
  const std::int64_t align = std::max<std::int64_t>(1, c.ld_align);
  const auto aligned = [align](std::int64_t v) { return (v + align - 1) / align * align; };
  const std::int64_t lda = aligned(std::max<std::int64_t>(1, a_rows) + c.ld_pad);
  const std::int64_t ldb = aligned(std::max<std::int64_t>(1, b_rows) + c.ld_pad);
  const std::int64_t ldc = aligned(std::max<std::int64_t>(1, c.m) + c.ld_pad);
  // Batch items sit a few elements apart beyond their footprint, so gaps are checked too.
  const std::int64_t stride_a = c.broadcast_a ? 0 : aligned(lda * a_cols + 3);
  const std::int64_t stride_b = c.broadcast_b ? 0 : aligned(ldb * b_cols + 5);
  const std::int64_t stride_c = aligned(ldc * c.n + 7);
  const std::int64_t a_count = stride_a * (c.batch - 1) + lda * a_cols;
  const std::int64_t b_count = stride_b * (c.batch - 1) + ldb * b_cols;
  const std::int64_t c_count = stride_c * (c.batch - 1) + ldc * c.n;
  const std::size_t c_elem = static_cast<std::size_t>(dtype_size(c.c_type));

  // Inputs exactly representable in what the kernel multiplies (identity for fp32).
  const bool tf32 = c.compute == Compute::F32_FAST_TF32;
  const auto input_value = [&](float x) { return tf32 ? round_to_tf32(x) : round_to(c.ab_type, x); };
  std::mt19937_64 rng(std::hash<std::string>{}(c.describe()));
  std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
  const auto random_nonzero = [&](auto&& rounded) {
    float x = 0.0f;
    while (x == 0.0f) x = rounded(uni(rng));
    return x;
  };
  std::vector<float> hA(static_cast<size_t>(c.offset + a_count)), hB(static_cast<size_t>(c.offset + b_count));
  for (auto& x : hA) x = random_nonzero(input_value);
  for (auto& x : hB) x = random_nonzero(input_value);
  if (c.nan_padding) {
    const auto poison_outside = [&](std::vector<float>& h, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                    std::int64_t stride) {
      std::vector<char> inside(h.size(), 0);
      for (std::int64_t b = 0; b < (stride == 0 ? 1 : c.batch); ++b)
        for (std::int64_t j = 0; j < cols; ++j)
          for (std::int64_t i = 0; i < rows; ++i) inside[static_cast<size_t>(c.offset + b * stride + i + j * ld)] = 1;
      for (size_t i = 0; i < h.size(); ++i)
        if (!inside[i]) h[i] = std::numeric_limits<float>::quiet_NaN();
    };
    poison_outside(hA, a_rows, a_cols, lda, stride_a);
    poison_outside(hB, b_rows, b_cols, ldb, stride_b);
  }
  const std::int64_t c_total = kGuard + c.offset + c_count + kGuard;
  const float sentinel = c.c_type == DType::F32 ? kSentinel : kSentinel16;
  std::vector<float> hC0(static_cast<size_t>(c_total), sentinel);
  std::vector<char> is_output(static_cast<size_t>(c_total), 0);
  const std::int64_t c_base = kGuard + c.offset;
  const float poison = std::numeric_limits<float>::quiet_NaN();
  const auto c_value = [&](float x) { return round_to(c.c_type, x); };
  for (std::int64_t b = 0; b < c.batch; ++b)
    for (std::int64_t j = 0; j < c.n; ++j)
      for (std::int64_t i = 0; i < c.m; ++i) {
        const auto idx = static_cast<size_t>(c_base + b * stride_c + i + j * ldc);
        hC0[idx] = c.beta == 0.0f ? poison : random_nonzero(c_value);
        is_output[idx] = 1;
      }
  const std::vector<unsigned char> c0_bytes = to_bytes(c.c_type, hC0);

  DeviceBuffer<unsigned char> dA(hA.size() * static_cast<size_t>(dtype_size(c.ab_type)));
  DeviceBuffer<unsigned char> dB(hB.size() * static_cast<size_t>(dtype_size(c.ab_type)));
  DeviceBuffer<unsigned char> dC(c0_bytes.size());
  dA.upload(to_bytes(c.ab_type, hA));
  dB.upload(to_bytes(c.ab_type, hB));
  dC.upload(c0_bytes);
  const std::size_t ab_elem = static_cast<std::size_t>(dtype_size(c.ab_type));
  const void* A = dA.ptr + static_cast<std::size_t>(c.offset) * ab_elem;
  const void* B = dB.ptr + static_cast<std::size_t>(c.offset) * ab_elem;
  void* C = dC.ptr + static_cast<std::size_t>(c_base) * c_elem;

  const auto ta = c.opa == Op::N ? TILEMM_OP_N : TILEMM_OP_T;
  const auto tb = c.opb == Op::N ? TILEMM_OP_N : TILEMM_OP_T;
  const bool plain_fp32 = c.ab_type == DType::F32 && c.c_type == DType::F32 && c.compute == Compute::F32;
  const cudaDataType_t tab = cuda_type_of(c.ab_type), tc = cuda_type_of(c.c_type);
  const tilemmComputeType_t compute = tf32 ? TILEMM_COMPUTE_32F_FAST_TF32 : TILEMM_COMPUTE_32F;
  const auto multiply = [&]() {
    if (c.batch == 1 && plain_fp32) {
      return tilemmSgemm(handle, ta, tb, c.m, c.n, c.k, &c.alpha, static_cast<const float*>(A), lda,
                         static_cast<const float*>(B), ldb, &c.beta, static_cast<float*>(C), ldc);
    }
    if (c.batch == 1) {
      return tilemmGemmEx(handle, ta, tb, c.m, c.n, c.k, &c.alpha, A, tab, lda, B, tab, ldb, &c.beta, C, tc,
                          ldc, compute);
    }
    return tilemmGemmStridedBatchedEx(handle, ta, tb, c.m, c.n, c.k, &c.alpha, A, tab, lda, stride_a, B, tab,
                                      ldb, stride_b, &c.beta, C, tc, ldc, stride_c, c.batch, compute);
  };
  tilemmStatus_t s = multiply();
  if (s != TILEMM_STATUS_SUCCESS) {
    result.message = std::string(tilemmGetStatusString(s)) + ": " + tilemmGetErrorDetail(handle);
    result.refused = s == TILEMM_STATUS_NOT_SUPPORTED || s == TILEMM_STATUS_ARCH_MISMATCH;
    if (result.refused) {
      std::vector<unsigned char> after;
      dC.download(after);
      result.passed = std::memcmp(after.data(), c0_bytes.data(), after.size()) == 0;
      if (!result.passed) result.message += " (and C was modified)";
    }
    return result;
  }
  check_cuda(cudaDeviceSynchronize(), "synchronize after the product");
  std::vector<unsigned char> c_bytes;
  dC.download(c_bytes);

  for (std::int64_t idx = 0; idx < c_total; ++idx) {
    const std::size_t at = static_cast<std::size_t>(idx) * c_elem;
    if (!is_output[static_cast<size_t>(idx)] && std::memcmp(c_bytes.data() + at, c0_bytes.data() + at, c_elem) != 0) {
      std::ostringstream os;
      os << "wrote outside C: buffer element " << idx - c_base << " (relative to C) changed from the sentinel to "
         << load_as(c.c_type, c_bytes.data() + at);
      result.message = os.str();
      return result;
    }
  }

  // Reference in fp64, item by item, on the same (rounded) inputs; the error is the
  // worst item's.
  std::vector<double> ref(static_cast<size_t>(ldc * c.n));
  const bool on_cpu = double(c.m) * double(c.n) * double(c.k) <= kCpuReferenceLimit;
  std::unique_ptr<DeviceBuffer<double>> dRef;
  // The GPU reference reads fp32 copies of the inputs (the fp32 buffers themselves
  // when the case is fp32 or tf32).
  std::unique_ptr<DeviceBuffer<float>> dA32, dB32;
  const float* A32 = static_cast<const float*>(A);
  const float* B32 = static_cast<const float*>(B);
  if (!on_cpu) {
    dRef = std::make_unique<DeviceBuffer<double>>(ref.size());
    if (c.ab_type != DType::F32) {
      dA32 = std::make_unique<DeviceBuffer<float>>(hA.size());
      dB32 = std::make_unique<DeviceBuffer<float>>(hB.size());
      dA32->upload(hA);
      dB32->upload(hB);
      A32 = dA32->ptr + c.offset;
      B32 = dB32->ptr + c.offset;
    }
  }
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
      fp64_reference_gemm(c.opa, c.opb, c.m, c.n, c.k, c.alpha, A32 + b * stride_a, lda,
                          B32 + b * stride_b, ldb, c.beta, dRef->ptr, ldc);
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
        const auto at = static_cast<size_t>(c_base + b * stride_c + i + j * ldc) * c_elem;
        const double got = load_as(c.c_type, c_bytes.data() + at);
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
  result.tolerance = case_tolerance(c);
  if (!(worst <= result.tolerance)) {
    std::ostringstream os;
    os << "relative error " << worst << " exceeds the tolerance " << result.tolerance;
    result.message = os.str();
    return result;
  }

  if (check_determinism) {
    dC.upload(c0_bytes);
    s = multiply();
    if (s != TILEMM_STATUS_SUCCESS) {
      result.message = std::string("second run: ") + tilemmGetStatusString(s);
      return result;
    }
    check_cuda(cudaDeviceSynchronize(), "synchronize after the second product");
    std::vector<unsigned char> c_bytes2;
    dC.download(c_bytes2);
    if (c_bytes != c_bytes2) {
      result.message = "two runs on the same inputs differ bitwise";
      return result;
    }
  }
  result.passed = true;
  return result;
}

}  // namespace tilemm::test
