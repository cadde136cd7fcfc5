#include "reference/reference_gemm.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace tilemm::reference {
namespace {

// op(A) is packed row by row and op(B) column by column, both k-contiguous in fp64, so
// every output is a dot product of two contiguous vectors; blocks of kBlockRows x
// kBlockCols outputs over kBlockK of k keep both panels in cache.
constexpr std::int64_t kBlockRows = 64;
constexpr std::int64_t kBlockCols = 64;
constexpr std::int64_t kBlockK = 512;

std::vector<double> pack_k_contiguous(bool trans, std::int64_t outer, std::int64_t k,
                                      const float* X, std::int64_t ld, bool x_is_a) {
  // For A: row i of op(A) -> packed[i*k + p]. For B: column j of op(B) -> packed[j*k + p].
  std::vector<double> packed(static_cast<size_t>(outer * k));
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t p = 0; p < k; ++p) {
      // op(A)(o, p) is A[o + p*ld] (N) or A[p + o*ld] (T); op(B)(p, o) is B[p + o*ld] (N)
      // or B[o + p*ld] (T).
      const bool contiguous_p = x_is_a ? trans : !trans;
      const std::int64_t idx = contiguous_p ? p + o * ld : o + p * ld;
      packed[static_cast<size_t>(o * k + p)] = static_cast<double>(X[idx]);
    }
  }
  return packed;
}

}  // namespace

void gemm(Op opa, Op opb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          const float* A, std::int64_t lda, const float* B, std::int64_t ldb, double beta,
          double* C, std::int64_t ldc, int threads) {
  if (m <= 0 || n <= 0) return;
  std::vector<double> ap, bp;
  if (k > 0 && alpha != 0.0) {
    ap = pack_k_contiguous(opa == Op::T, m, k, A, lda, true);
    bp = pack_k_contiguous(opb == Op::T, n, k, B, ldb, false);
  }
  const std::int64_t row_blocks = (m + kBlockRows - 1) / kBlockRows;
  const std::int64_t col_blocks = (n + kBlockCols - 1) / kBlockCols;
  const std::int64_t blocks = row_blocks * col_blocks;
  std::atomic<std::int64_t> next{0};

  const auto worker = [&] {
    std::vector<double> acc(static_cast<size_t>(kBlockRows * kBlockCols));
    for (std::int64_t blk = next++; blk < blocks; blk = next++) {
      const std::int64_t i0 = (blk % row_blocks) * kBlockRows;
      const std::int64_t j0 = (blk / row_blocks) * kBlockCols;
      const std::int64_t ni = std::min(kBlockRows, m - i0);
      const std::int64_t nj = std::min(kBlockCols, n - j0);
      std::fill(acc.begin(), acc.end(), 0.0);
      if (!ap.empty()) {
        for (std::int64_t p0 = 0; p0 < k; p0 += kBlockK) {
          const std::int64_t np = std::min(kBlockK, k - p0);
          for (std::int64_t jj = 0; jj < nj; ++jj) {
            const double* bcol = &bp[static_cast<size_t>((j0 + jj) * k + p0)];
            for (std::int64_t ii = 0; ii < ni; ++ii) {
              const double* arow = &ap[static_cast<size_t>((i0 + ii) * k + p0)];
              double s = 0.0;
              for (std::int64_t p = 0; p < np; ++p) s += arow[p] * bcol[p];
              acc[static_cast<size_t>(jj * kBlockRows + ii)] += s;
            }
          }
        }
      }
      for (std::int64_t jj = 0; jj < nj; ++jj) {
        for (std::int64_t ii = 0; ii < ni; ++ii) {
          double& c = C[(i0 + ii) + (j0 + jj) * ldc];
          const double prod = alpha * acc[static_cast<size_t>(jj * kBlockRows + ii)];
          c = beta == 0.0 ? prod : prod + beta * c;
        }
      }
    }
  };

  int nthreads = threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency());
  nthreads = static_cast<int>(std::clamp<std::int64_t>(nthreads, 1, blocks));
  std::vector<std::thread> pool;
  for (int t = 1; t < nthreads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
}

}  // namespace tilemm::reference
