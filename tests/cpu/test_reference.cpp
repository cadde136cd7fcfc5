// The CPU reference against a plain triple loop. Inputs are small integers, so every
// product and partial sum is exact in fp64 and the comparison is exact.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "reference/reference_gemm.hpp"

namespace {

using tilemm::Op;

struct Shape {
  std::int64_t m, n, k;
};

class ReferenceVsTripleLoop
    : public ::testing::TestWithParam<std::tuple<Shape, Op, Op, double, double, int>> {};

TEST_P(ReferenceVsTripleLoop, ExactOnSmallIntegers) {
  const auto [shape, opa, opb, alpha, beta, pad] = GetParam();
  const auto [m, n, k] = shape;
  const std::int64_t a_rows = opa == Op::N ? m : k, a_cols = opa == Op::N ? k : m;
  const std::int64_t b_rows = opb == Op::N ? k : n, b_cols = opb == Op::N ? n : k;
  const std::int64_t lda = std::max<std::int64_t>(1, a_rows) + pad;
  const std::int64_t ldb = std::max<std::int64_t>(1, b_rows) + pad;
  const std::int64_t ldc = std::max<std::int64_t>(1, m) + pad;
  std::mt19937 rng(static_cast<unsigned>(m * 131 + n * 17 + k));
  std::uniform_int_distribution<int> small(-8, 8);
  std::vector<float> A(static_cast<size_t>(lda * std::max<std::int64_t>(a_cols, 1)));
  std::vector<float> B(static_cast<size_t>(ldb * std::max<std::int64_t>(b_cols, 1)));
  std::vector<double> C(static_cast<size_t>(ldc * n));
  for (auto& x : A) x = static_cast<float>(small(rng));
  for (auto& x : B) x = static_cast<float>(small(rng));
  for (auto& x : C) x = small(rng);
  std::vector<double> expect = C;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        const double a = opa == Op::N ? A[i + p * lda] : A[p + i * lda];
        const double b = opb == Op::N ? B[p + j * ldb] : B[j + p * ldb];
        s += a * b;
      }
      double& e = expect[i + j * ldc];
      e = beta == 0.0 ? alpha * s : alpha * s + beta * e;
    }
  tilemm::reference::gemm(opa, opb, m, n, k, alpha, A.data(), lda, B.data(), ldb, beta, C.data(), ldc, 3);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < ldc; ++i)
      ASSERT_EQ(C[i + j * ldc], expect[i + j * ldc]) << "at (" << i << ", " << j << ")";
}

INSTANTIATE_TEST_SUITE_P(
    Reference, ReferenceVsTripleLoop,
    ::testing::Combine(::testing::Values(Shape{1, 1, 1}, Shape{7, 5, 3}, Shape{65, 130, 33},
                                         Shape{129, 64, 600}, Shape{3, 2, 0}),
                       ::testing::Values(Op::N, Op::T), ::testing::Values(Op::N, Op::T),
                       ::testing::Values(1.0, -0.5), ::testing::Values(0.0, 2.0),
                       ::testing::Values(0, 3)));

TEST(Reference, BetaZeroNeverReadsC) {
  const float A[1] = {2.0f}, B[1] = {3.0f};
  double C[1] = {std::numeric_limits<double>::quiet_NaN()};
  tilemm::reference::gemm(Op::N, Op::N, 1, 1, 1, 1.0, A, 1, B, 1, 0.0, C, 1);
  EXPECT_EQ(C[0], 6.0);
}

}  // namespace
