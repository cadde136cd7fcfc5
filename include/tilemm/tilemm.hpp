// tilemm C++ API: matrix views of either layout, pitched device matrices, RAII handles,
// gemm() on views and matmul() on host matrices. Header-only, on top of the C API, so
// the library's binary interface stays C.
//
//   tilemm::Handle h;
//   tilemm::DeviceMatrix<float> A(m, k), B(k, n), C(m, n);
//   A.copy_from(host_a);  B.copy_from(host_b);
//   tilemm::gemm(h, 1.0f, A.view(), B.view(), 0.0f, C.view());
//   C.copy_to(host_c);
//
// Row-major views are served by the identity C^T = B^T * A^T: a row-major matrix is the
// column-major storage of its transpose, so no data is ever copied or transposed.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "tilemm/tilemm.h"

namespace tilemm {

class Error : public std::runtime_error {
 public:
  Error(tilemmStatus_t status, const std::string& detail)
      : std::runtime_error(std::string(tilemmGetStatusString(status)) +
                           (detail.empty() ? "" : ": " + detail)),
        status_(status),
        detail_(detail) {}
  tilemmStatus_t status() const noexcept { return status_; }
  const std::string& detail() const noexcept { return detail_; }

 private:
  tilemmStatus_t status_;
  std::string detail_;
};

namespace detail {
inline void check(tilemmStatus_t s, tilemmHandle_t h) {
  if (s != TILEMM_STATUS_SUCCESS) throw Error(s, tilemmGetErrorDetail(h));
}
inline void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw Error(e == cudaErrorMemoryAllocation ? TILEMM_STATUS_ALLOC_FAILED
                                               : TILEMM_STATUS_EXECUTION_FAILED,
                std::string(what) + ": " + cudaGetErrorString(e));
  }
}
template <class T>
constexpr cudaDataType_t cuda_type();
template <>
constexpr cudaDataType_t cuda_type<float>() {
  return CUDA_R_32F;
}
template <>
constexpr cudaDataType_t cuda_type<__half>() {
  return CUDA_R_16F;
}
template <>
constexpr cudaDataType_t cuda_type<__nv_bfloat16>() {
  return CUDA_R_16BF;
}
// The element types gemm() multiplies: A and B of one of these, C of the same type or
// float (16-bit inputs accumulate in fp32 either way).
template <class T>
inline constexpr bool is_gemm_input = std::is_same_v<T, float> || std::is_same_v<T, __half> ||
                                      std::is_same_v<T, __nv_bfloat16>;
template <class TAB, class TC>
inline constexpr bool is_gemm_output_for = std::is_same_v<TC, TAB> || std::is_same_v<TC, float>;
}  // namespace detail

enum class Layout { ColMajor, RowMajor };

// A rows x cols matrix in memory (host or device) with leading dimension ld: the
// distance in elements between consecutive columns (ColMajor) or rows (RowMajor).
template <class T>
struct MatrixView {
  T* data = nullptr;
  std::int64_t rows = 0, cols = 0, ld = 0;
  Layout layout = Layout::ColMajor;

  MatrixView() = default;
  MatrixView(T* d, std::int64_t r, std::int64_t c, std::int64_t ld_, Layout l = Layout::ColMajor)
      : data(d), rows(r), cols(c), ld(ld_), layout(l) {}
  // A view of const elements from a view of mutable ones.
  template <class U>
    requires std::is_same_v<const U, T> && (!std::is_same_v<U, T>)
  MatrixView(const MatrixView<U>& v) : data(v.data), rows(v.rows), cols(v.cols), ld(v.ld), layout(v.layout) {}

  // Offset of element (r, c) from data.
  std::int64_t offset(std::int64_t r, std::int64_t c) const {
    return layout == Layout::ColMajor ? r + c * ld : c + r * ld;
  }
  // Only for views of host memory.
  T& operator()(std::int64_t r, std::int64_t c) const { return data[offset(r, c)]; }

  // The sub-matrix of rows [r0, r0 + nr) and columns [c0, c0 + nc): same storage, same ld
  // (the CUDA programming guide's GetSubMatrix).
  MatrixView block(std::int64_t r0, std::int64_t c0, std::int64_t nr, std::int64_t nc) const {
    if (r0 < 0 || c0 < 0 || nr < 0 || nc < 0 || r0 + nr > rows || c0 + nc > cols) {
      throw Error(TILEMM_STATUS_INVALID_VALUE,
                  "block(" + std::to_string(r0) + ", " + std::to_string(c0) + ", " +
                      std::to_string(nr) + ", " + std::to_string(nc) + ") leaves the " +
                      std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    }
    return MatrixView(data + offset(r0, c0), nr, nc, ld, layout);
  }
  // The transpose, as a view of the same storage in the other layout.
  MatrixView t() const {
    return MatrixView(data, cols, rows, ld,
                      layout == Layout::ColMajor ? Layout::RowMajor : Layout::ColMajor);
  }
};

class Handle {
 public:
  Handle() { detail::check(tilemmCreate(&h_), nullptr); }
  explicit Handle(cudaStream_t stream) : Handle() { set_stream(stream); }
  ~Handle() {
    if (h_ != nullptr) tilemmDestroy(h_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      if (h_ != nullptr) tilemmDestroy(h_);
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }

  tilemmHandle_t get() const noexcept { return h_; }
  void set_stream(cudaStream_t s) { detail::check(tilemmSetStream(h_, s), h_); }
  cudaStream_t stream() const {
    cudaStream_t s = nullptr;
    detail::check(tilemmGetStream(h_, &s), h_);
    return s;
  }
  void set_algorithm(const std::string& name) { detail::check(tilemmSetAlgorithm(h_, name.c_str()), h_); }
  std::string algorithm() const { return tilemmGetAlgorithm(h_); }
  std::string last_kernel() const { return tilemmGetLastKernel(h_); }

 private:
  tilemmHandle_t h_ = nullptr;
};

// A matrix in device memory from cudaMallocPitch: each column (ColMajor) or row
// (RowMajor) starts on an aligned pitch, and ld() is that pitch in elements.
template <class T>
class DeviceMatrix {
 public:
  DeviceMatrix() = default;
  DeviceMatrix(std::int64_t rows, std::int64_t cols, Layout layout = Layout::ColMajor)
      : rows_(rows), cols_(cols), layout_(layout) {
    if (rows < 0 || cols < 0) throw Error(TILEMM_STATUS_INVALID_VALUE, "DeviceMatrix: negative size");
    const std::int64_t inner = layout == Layout::ColMajor ? rows : cols;
    const std::int64_t outer = layout == Layout::ColMajor ? cols : rows;
    if (inner > 0 && outer > 0) {
      size_t pitch = 0;
      void* p = nullptr;
      detail::check_cuda(cudaMallocPitch(&p, &pitch, static_cast<size_t>(inner) * sizeof(T),
                                         static_cast<size_t>(outer)),
                         "cudaMallocPitch");
      data_ = static_cast<T*>(p);
      ld_ = static_cast<std::int64_t>(pitch / sizeof(T));
      // Zeros, padding included. A column's last 16-byte cp.async copies only the bytes
      // inside the matrix (its source size) and zero-fills the rest, but compute-sanitizer's
      // initcheck counts all 16 bytes as read and reported the never-written padding past
      // them (skinny_splitk, 45-row columns).
      const cudaError_t zeroed = cudaMemset(p, 0, pitch * static_cast<size_t>(outer));
      if (zeroed != cudaSuccess) {
        cudaFree(p);
        data_ = nullptr;
        detail::check_cuda(zeroed, "cudaMemset");
      }
    } else {
      ld_ = inner > 0 ? inner : 1;
    }
  }
  ~DeviceMatrix() {
    if (data_ != nullptr) cudaFree(data_);
  }
  DeviceMatrix(const DeviceMatrix&) = delete;
  DeviceMatrix& operator=(const DeviceMatrix&) = delete;
  DeviceMatrix(DeviceMatrix&& o) noexcept { swap(o); }
  DeviceMatrix& operator=(DeviceMatrix&& o) noexcept {
    DeviceMatrix tmp(std::move(o));
    swap(tmp);
    return *this;
  }

  std::int64_t rows() const noexcept { return rows_; }
  std::int64_t cols() const noexcept { return cols_; }
  std::int64_t ld() const noexcept { return ld_; }
  Layout layout() const noexcept { return layout_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  MatrixView<T> view() noexcept { return MatrixView<T>(data_, rows_, cols_, ld_, layout_); }
  MatrixView<const T> view() const noexcept { return MatrixView<const T>(data_, rows_, cols_, ld_, layout_); }

  // Host <-> device copies honour both leading dimensions (cudaMemcpy2D); the layouts
  // must match, since a copy never transposes.
  void copy_from(MatrixView<const T> host, cudaStream_t stream = nullptr) {
    check_same_shape(host);
    if (empty()) return;
    detail::check_cuda(cudaMemcpy2DAsync(data_, pitch_bytes(), host.data,
                                         static_cast<size_t>(host.ld) * sizeof(T), inner_bytes(),
                                         outer(), cudaMemcpyHostToDevice, stream),
                       "cudaMemcpy2DAsync to device");
    detail::check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  void copy_to(MatrixView<T> host, cudaStream_t stream = nullptr) const {
    check_same_shape(MatrixView<const T>(host));
    if (empty()) return;
    detail::check_cuda(cudaMemcpy2DAsync(host.data, static_cast<size_t>(host.ld) * sizeof(T), data_,
                                         pitch_bytes(), inner_bytes(), outer(),
                                         cudaMemcpyDeviceToHost, stream),
                       "cudaMemcpy2DAsync to host");
    detail::check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }

 private:
  bool empty() const { return rows_ == 0 || cols_ == 0; }
  size_t pitch_bytes() const { return static_cast<size_t>(ld_) * sizeof(T); }
  size_t inner_bytes() const {
    return static_cast<size_t>(layout_ == Layout::ColMajor ? rows_ : cols_) * sizeof(T);
  }
  size_t outer() const { return static_cast<size_t>(layout_ == Layout::ColMajor ? cols_ : rows_); }
  void check_same_shape(const MatrixView<const T>& v) const {
    if (v.rows != rows_ || v.cols != cols_ || v.layout != layout_) {
      throw Error(TILEMM_STATUS_INVALID_VALUE,
                  "copy between a " + std::to_string(v.rows) + " x " + std::to_string(v.cols) +
                      " host view and a " + std::to_string(rows_) + " x " + std::to_string(cols_) +
                      " device matrix of " + (v.layout == layout_ ? "the same" : "another") +
                      " layout: shapes and layouts must match");
    }
  }
  void swap(DeviceMatrix& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(rows_, o.rows_);
    std::swap(cols_, o.cols_);
    std::swap(ld_, o.ld_);
    std::swap(layout_, o.layout_);
  }

  T* data_ = nullptr;
  std::int64_t rows_ = 0, cols_ = 0, ld_ = 1;
  Layout layout_ = Layout::ColMajor;
};

// C = alpha * A * B + beta * C on device views of any layout, asynchronously on the
// handle's stream. Throws tilemm::Error with the library's detail on failure.
// A and B are float, __half or __nv_bfloat16 (both the same); C is the same type or
// float; alpha and beta are float for every type. compute = TILEMM_COMPUTE_32F_FAST_TF32
// lets float data go through the TF32 tensor cores.
template <class TA, class TB, class TC>
  requires std::is_same_v<std::remove_const_t<TA>, std::remove_const_t<TB>> &&
           detail::is_gemm_input<std::remove_const_t<TA>> &&
           detail::is_gemm_output_for<std::remove_const_t<TA>, TC>
void gemm(const Handle& handle, float alpha, MatrixView<TA> A, MatrixView<TB> B, float beta,
          MatrixView<TC> C, tilemmComputeType_t compute = TILEMM_COMPUTE_32F) {
  if (A.rows != C.rows || B.cols != C.cols || A.cols != B.rows) {
    throw Error(TILEMM_STATUS_INVALID_VALUE,
                "shapes do not chain: A is " + std::to_string(A.rows) + " x " +
                    std::to_string(A.cols) + ", B is " + std::to_string(B.rows) + " x " +
                    std::to_string(B.cols) + ", C is " + std::to_string(C.rows) + " x " +
                    std::to_string(C.cols));
  }
  // In column-major terms a view is its storage (op N) when ColMajor, and the transpose
  // of its storage (op T) when RowMajor.
  const auto op_of = [](Layout l) { return l == Layout::ColMajor ? TILEMM_OP_N : TILEMM_OP_T; };
  const auto flip = [](Layout l) { return l == Layout::ColMajor ? TILEMM_OP_T : TILEMM_OP_N; };
  const cudaDataType_t tab = detail::cuda_type<std::remove_const_t<TA>>();
  const cudaDataType_t tc = detail::cuda_type<TC>();
  tilemmStatus_t s;
  if (C.layout == Layout::ColMajor) {
    s = tilemmGemmEx(handle.get(), op_of(A.layout), op_of(B.layout), C.rows, C.cols, A.cols,
                     &alpha, A.data, tab, A.ld, B.data, tab, B.ld, &beta, C.data, tc, C.ld,
                     compute);
  } else {
    // C^T (column-major storage of C) = B^T * A^T.
    s = tilemmGemmEx(handle.get(), flip(B.layout), flip(A.layout), C.cols, C.rows, A.cols,
                     &alpha, B.data, tab, B.ld, A.data, tab, A.ld, &beta, C.data, tc, C.ld,
                     compute);
  }
  detail::check(s, handle.get());
}

// A matrix in host memory, column-major, dense (ld = rows).
template <class T>
struct HostMatrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<T> values;
  HostMatrix() = default;
  HostMatrix(std::int64_t r, std::int64_t c) : rows(r), cols(c), values(static_cast<size_t>(r * c)) {}
  T& operator()(std::int64_t r, std::int64_t c) { return values[static_cast<size_t>(r + c * rows)]; }
  const T& operator()(std::int64_t r, std::int64_t c) const { return values[static_cast<size_t>(r + c * rows)]; }
  MatrixView<T> view() { return MatrixView<T>(values.data(), rows, cols, rows > 0 ? rows : 1); }
  MatrixView<const T> view() const { return MatrixView<const T>(values.data(), rows, cols, rows > 0 ? rows : 1); }
};

// C = A * B for host matrices in one call, like the classic host wrapper Mul():
// allocate device memory, copy the inputs in, multiply, copy the result back, free.
template <class T>
void matmul(const Handle& handle, std::type_identity_t<MatrixView<const T>> A,
            std::type_identity_t<MatrixView<const T>> B, MatrixView<T> C) {
  DeviceMatrix<T> dA(A.rows, A.cols, A.layout), dB(B.rows, B.cols, B.layout),
      dC(C.rows, C.cols, C.layout);
  dA.copy_from(A, handle.stream());
  dB.copy_from(B, handle.stream());
  gemm(handle, 1.0f, dA.view(), dB.view(), 0.0f, dC.view());
  dC.copy_to(C, handle.stream());
}

template <class T>
HostMatrix<T> matmul(const HostMatrix<T>& A, const HostMatrix<T>& B) {
  Handle handle;
  HostMatrix<T> C(A.rows, B.cols);
  matmul<T>(handle, A.view(), B.view(), C.view());
  return C;
}

}  // namespace tilemm
