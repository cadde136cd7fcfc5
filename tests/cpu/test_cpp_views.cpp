// The C++ API's views without a GPU: offsets, sub-matrices, transposes, bounds.
#include <gtest/gtest.h>

#include "tilemm/tilemm.hpp"

namespace {

using tilemm::Layout;
using tilemm::MatrixView;

TEST(MatrixView, ColumnAndRowMajorOffsets) {
  float storage[20] = {};
  MatrixView<float> col(storage, 3, 4, 5, Layout::ColMajor);
  EXPECT_EQ(col.offset(2, 3), 2 + 3 * 5);
  MatrixView<float> row(storage, 3, 4, 5, Layout::RowMajor);
  EXPECT_EQ(row.offset(2, 3), 3 + 2 * 5);
}

TEST(MatrixView, BlockKeepsLeadingDimension) {
  float storage[40] = {};
  MatrixView<float> v(storage, 6, 5, 8);
  const auto b = v.block(1, 2, 3, 2);
  EXPECT_EQ(b.data, storage + 1 + 2 * 8);
  EXPECT_EQ(b.rows, 3);
  EXPECT_EQ(b.cols, 2);
  EXPECT_EQ(b.ld, 8);
  b(2, 1) = 7.0f;
  EXPECT_EQ(v(3, 3), 7.0f);
}

TEST(MatrixView, BlockOutsideThrows) {
  float storage[40] = {};
  MatrixView<float> v(storage, 6, 5, 8);
  try {
    (void)v.block(4, 0, 3, 1);
    FAIL() << "expected tilemm::Error";
  } catch (const tilemm::Error& e) {
    EXPECT_EQ(e.status(), TILEMM_STATUS_INVALID_VALUE);
    EXPECT_NE(e.detail().find("block(4, 0, 3, 1)"), std::string::npos);
  }
}

TEST(MatrixView, TransposeIsTheSameStorage) {
  float storage[12];
  for (int i = 0; i < 12; ++i) storage[i] = float(i);
  MatrixView<float> v(storage, 3, 4, 3);
  const auto t = v.t();
  EXPECT_EQ(t.rows, 4);
  EXPECT_EQ(t.cols, 3);
  EXPECT_EQ(t.layout, Layout::RowMajor);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(t(c, r), v(r, c));
  EXPECT_EQ(t.t().layout, Layout::ColMajor);
}

TEST(MatrixView, ConstConversion) {
  float storage[4] = {1, 2, 3, 4};
  MatrixView<float> v(storage, 2, 2, 2);
  MatrixView<const float> cv = v;
  EXPECT_EQ(cv(1, 1), 4.0f);
}

// gemm() takes 16-bit views with float scalars and a C of the same type or float, and
// refuses (at compile time) mixed inputs and other outputs.
template <class TA, class TB, class TC>
constexpr bool gemm_accepts =
    requires(const tilemm::Handle& h, MatrixView<TA> a, MatrixView<TB> b, MatrixView<TC> c) {
      tilemm::gemm(h, 1.0f, a, b, 0.0f, c);
    };

TEST(CppGemmTypes, AcceptedAndRefusedCombinations) {
  static_assert(gemm_accepts<float, float, float>);
  static_assert(gemm_accepts<const float, float, float>);
  static_assert(gemm_accepts<const __half, const __half, __half>);
  static_assert(gemm_accepts<__half, __half, float>);
  static_assert(gemm_accepts<const __nv_bfloat16, __nv_bfloat16, __nv_bfloat16>);
  static_assert(gemm_accepts<__nv_bfloat16, const __nv_bfloat16, float>);
  static_assert(!gemm_accepts<__half, __nv_bfloat16, float>);
  static_assert(!gemm_accepts<__half, __half, __nv_bfloat16>);
  static_assert(!gemm_accepts<float, float, __half>);
  static_assert(!gemm_accepts<float, float, const float>);
  static_assert(!gemm_accepts<double, double, double>);
  EXPECT_EQ(tilemm::detail::cuda_type<__half>(), CUDA_R_16F);
  EXPECT_EQ(tilemm::detail::cuda_type<__nv_bfloat16>(), CUDA_R_16BF);
}

}  // namespace
