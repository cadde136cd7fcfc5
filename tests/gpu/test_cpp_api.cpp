// The C++ API on a device: pitched matrices, views of both layouts, sub-matrix blocks,
// transposed views, matmul() on host matrices, errors as exceptions.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "reference/reference_gemm.hpp"
#include "tilemm/tilemm.hpp"

namespace {

using tilemm::DeviceMatrix;
using tilemm::HostMatrix;
using tilemm::Layout;
using tilemm::MatrixView;

HostMatrix<float> random_matrix(std::int64_t r, std::int64_t c, unsigned seed) {
  HostMatrix<float> m(r, c);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto& x : m.values) x = u(rng);
  return m;
}

// fp64 product of two host views (any layout) for checking.
std::vector<double> product(MatrixView<const float> A, MatrixView<const float> B) {
  std::vector<double> c(static_cast<size_t>(A.rows * B.cols), 0.0);
  for (std::int64_t j = 0; j < B.cols; ++j)
    for (std::int64_t i = 0; i < A.rows; ++i) {
      double s = 0;
      for (std::int64_t p = 0; p < A.cols; ++p) s += double(A(i, p)) * B(p, j);
      c[static_cast<size_t>(i + j * A.rows)] = s;
    }
  return c;
}

TEST(CppApi, PitchedMatrixRoundTrip) {
  const auto h = random_matrix(37, 11, 1);
  DeviceMatrix<float> d(37, 11);
  EXPECT_GE(d.ld(), 37);
  EXPECT_EQ(d.ld() * 4 % 256, 0) << "cudaMallocPitch aligns each column";
  d.copy_from(h.view());
  HostMatrix<float> back(37, 11);
  d.copy_to(back.view());
  EXPECT_EQ(back.values, h.values);
}

TEST(CppApi, GemmOnEveryLayoutCombination) {
  tilemm::Handle handle;
  const std::int64_t m = 45, n = 29, k = 63;
  for (Layout la : {Layout::ColMajor, Layout::RowMajor})
    for (Layout lb : {Layout::ColMajor, Layout::RowMajor})
      for (Layout lc : {Layout::ColMajor, Layout::RowMajor}) {
        // Host data in the requested layouts, dense.
        const auto src_a = random_matrix(m, k, 2), src_b = random_matrix(k, n, 3);
        std::vector<float> ha(m * k), hb(k * n), hc(m * n);
        MatrixView<float> va(ha.data(), m, k, la == Layout::ColMajor ? m : k, la);
        MatrixView<float> vb(hb.data(), k, n, lb == Layout::ColMajor ? k : n, lb);
        MatrixView<float> vc(hc.data(), m, n, lc == Layout::ColMajor ? m : n, lc);
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t p = 0; p < k; ++p) va(i, p) = src_a(i, p);
        for (std::int64_t p = 0; p < k; ++p)
          for (std::int64_t j = 0; j < n; ++j) vb(p, j) = src_b(p, j);
        DeviceMatrix<float> dA(m, k, la), dB(k, n, lb), dC(m, n, lc);
        dA.copy_from(va);
        dB.copy_from(vb);
        tilemm::gemm(handle, 1.0f, dA.view(), dB.view(), 0.0f, dC.view());
        dC.copy_to(vc);
        const auto want = product(src_a.view(), src_b.view());
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t i = 0; i < m; ++i)
            ASSERT_NEAR(vc(i, j), want[i + j * m], 1e-4)
                << "layouts A " << int(la) << " B " << int(lb) << " C " << int(lc);
      }
}

TEST(CppApi, BlocksAndTransposedViews) {
  tilemm::Handle handle;
  // C(block) = A(block)^T * B(block), blocks at odd offsets inside larger matrices.
  const auto big_a = random_matrix(50, 40, 4), big_b = random_matrix(60, 30, 5);
  DeviceMatrix<float> dA(50, 40), dB(60, 30), dC(33, 21);
  dA.copy_from(big_a.view());
  dB.copy_from(big_b.view());
  HostMatrix<float> hc(33, 21);
  for (auto& x : hc.values) x = 3.0f;
  dC.copy_from(hc.view());
  const auto a_blk = dA.view().block(3, 5, 17, 31);  // 17 x 31; its transpose is 31 x 17
  const auto b_blk = dB.view().block(1, 7, 17, 19);  // 17 x 19
  const auto c_blk = dC.view().block(1, 1, 31, 19);
  tilemm::gemm(handle, 2.0f, a_blk.t(), b_blk, 0.5f, c_blk);
  dC.copy_to(hc.view());
  const auto hv = big_a.view().block(3, 5, 17, 31).t();
  const auto want = product(hv, big_b.view().block(1, 7, 17, 19));
  for (std::int64_t j = 0; j < 21; ++j)
    for (std::int64_t i = 0; i < 33; ++i) {
      const bool inside = i >= 1 && i < 32 && j >= 1 && j < 20;
      const double expect = inside ? 2.0 * want[(i - 1) + (j - 1) * 31] + 1.5 : 3.0;
      ASSERT_NEAR(hc(i, j), expect, 1e-4) << i << ", " << j;
    }
}

TEST(CppApi, MatmulOnHostMatrices) {
  const auto a = random_matrix(70, 50, 6), b = random_matrix(50, 90, 7);
  const auto c = tilemm::matmul(a, b);
  const auto want = product(a.view(), b.view());
  ASSERT_EQ(c.rows, 70);
  ASSERT_EQ(c.cols, 90);
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(c.values[i], want[i], 1e-4);
}

// Small integers in [-2, 2]: exact in fp16 and bf16, and so are the products' sums
// (|C| <= 4 k = 128), in any summation order.
template <class T>
void fill_small_integers(HostMatrix<T>& m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(-2, 2);
  for (auto& x : m.values) x = T(float(u(rng)));
}

template <class TC>
void check_sixteen_bit_gemm(Layout lc) {
  tilemm::Handle handle;
  const std::int64_t m = 40, n = 24, k = 32;
  HostMatrix<__nv_bfloat16> a(m, k), b(k, n);
  fill_small_integers(a, 8);
  fill_small_integers(b, 9);
  DeviceMatrix<__nv_bfloat16> dA(m, k), dB(k, n);
  DeviceMatrix<TC> dC(m, n, lc);
  dA.copy_from(a.view());
  dB.copy_from(b.view());
  tilemm::gemm(handle, 1.0f, dA.view(), dB.view(), 0.0f, dC.view());
  std::vector<TC> hc(static_cast<size_t>(m * n));
  MatrixView<TC> vc(hc.data(), m, n, lc == Layout::ColMajor ? m : n, lc);
  dC.copy_to(vc);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      float want = 0.0f;
      for (std::int64_t p = 0; p < k; ++p) want += float(a(i, p)) * float(b(p, j));
      ASSERT_EQ(float(vc(i, j)), want) << i << ", " << j;
    }
}

TEST(CppApi, Bf16InputsWithFloatOrBf16Output) {
  check_sixteen_bit_gemm<float>(Layout::ColMajor);
  check_sixteen_bit_gemm<__nv_bfloat16>(Layout::ColMajor);
  check_sixteen_bit_gemm<__nv_bfloat16>(Layout::RowMajor);
}

TEST(CppApi, HalfInputsAndTf32Compute) {
  tilemm::Handle handle;
  const std::int64_t m = 33, n = 17, k = 24;
  HostMatrix<__half> a(m, k), b(k, n);
  fill_small_integers(a, 10);
  fill_small_integers(b, 11);
  DeviceMatrix<__half> dA(m, k), dB(k, n, Layout::RowMajor), dC(m, n);
  dA.copy_from(a.view());
  std::vector<__half> hb(static_cast<size_t>(k * n));
  MatrixView<__half> vb(hb.data(), k, n, n, Layout::RowMajor);
  for (std::int64_t p = 0; p < k; ++p)
    for (std::int64_t j = 0; j < n; ++j) vb(p, j) = b(p, j);
  dB.copy_from(vb);
  tilemm::gemm(handle, 2.0f, dA.view(), dB.view(), 0.0f, dC.view());
  HostMatrix<__half> c(m, n);
  dC.copy_to(c.view());
  // The same product of the same values as fp32 data through the TF32 tensor cores.
  HostMatrix<float> af(m, k), bf(k, n);
  for (size_t i = 0; i < a.values.size(); ++i) af.values[i] = float(a.values[i]);
  for (size_t i = 0; i < b.values.size(); ++i) bf.values[i] = float(b.values[i]);
  DeviceMatrix<float> dAf(m, k), dBf(k, n), dCf(m, n);
  dAf.copy_from(af.view());
  dBf.copy_from(bf.view());
  tilemm::gemm(handle, 2.0f, dAf.view(), dBf.view(), 0.0f, dCf.view(), TILEMM_COMPUTE_32F_FAST_TF32);
  HostMatrix<float> cf(m, n);
  dCf.copy_to(cf.view());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      float want = 0.0f;
      for (std::int64_t p = 0; p < k; ++p) want += af(i, p) * bf(p, j);
      ASSERT_EQ(float(c(i, j)), 2.0f * want) << i << ", " << j;
      ASSERT_EQ(cf(i, j), 2.0f * want) << i << ", " << j;
    }
}

TEST(CppApi, ErrorsAreExceptionsWithDetail) {
  tilemm::Handle handle;
  DeviceMatrix<float> A(4, 3), B(5, 2), C(4, 2);
  try {
    tilemm::gemm(handle, 1.0f, A.view(), B.view(), 0.0f, C.view());
    FAIL() << "expected tilemm::Error";
  } catch (const tilemm::Error& e) {
    EXPECT_EQ(e.status(), TILEMM_STATUS_INVALID_VALUE);
    EXPECT_NE(e.detail().find("do not chain"), std::string::npos);
  }
  try {
    handle.set_algorithm("no_such_kernel");
    FAIL() << "expected tilemm::Error";
  } catch (const tilemm::Error& e) {
    EXPECT_EQ(e.status(), TILEMM_STATUS_INVALID_VALUE);
    EXPECT_NE(std::string(e.what()).find("no_such_kernel"), std::string::npos);
  }
}

}  // namespace
