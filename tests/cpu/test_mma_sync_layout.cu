// The mma_sync kernels' index math without a GPU: the kernels' own copy geometry,
// shared-memory layouts and fragment addresses (kernels/mma_sync_layout.cuh) are driven
// through a model of cp.async's zero-fill, ldmatrix (.trans) and mma.sync written from
// the PTX ISA's fragment tables ("Warp-level matrix load instruction: ldmatrix",
// "Matrix Fragments for mma.m16n8k16 with floating point type", "Matrix Fragments for
// mma.m16n8k8"), block by block and warp by warp, and the products are compared exactly
// (small-integer inputs) for every registered configuration, all four ops, borders and
// padded leading dimensions. Also checked: every chunk is written exactly once per
// stage, and no copy reads outside the matrix.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernels/mma_sync_layout.cuh"

namespace {

using namespace tilemm::kernels;

int failures = 0;

template <TilemmMmaSyncConfig kCfg>
std::string config_name() {
  const char* in = kCfg.input == TilemmMmaInput::BF16 ? "bf16" : kCfg.input == TilemmMmaInput::F16 ? "fp16" : "tf32";
  return std::string(in) + " " + std::to_string(kCfg.bm) + "x" + std::to_string(kCfg.bn) + "x" +
         std::to_string(kCfg.bk) + " s" + std::to_string(kCfg.stages) +
         (kCfg.load == TilemmMmaOperandLoad::AsyncCopy16 ? " cp16" : " scalar loads");
}

template <class T>
float to_f(T x) {
  if constexpr (std::is_same_v<T, float>) return x;
  else if constexpr (std::is_same_v<T, __half>) return __half2float(x);
  else return __bfloat162float(x);
}
template <class T>
T from_f(float x) {
  if constexpr (std::is_same_v<T, float>) return x;
  else if constexpr (std::is_same_v<T, __half>) return __float2half_rn(x);
  else return __float2bfloat16_rn(x);
}

template <TilemmMmaSyncConfig kCfg, bool kTA, bool kTB>
void run_case(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t pad) {
  using T = typename MmaInputTraits<kCfg.input>::Element;
  constexpr int BM = kCfg.bm, BN = kCfg.bn, BK = kCfg.bk;
  constexpr bool kAK = kTA, kBK = !kTB;
  using LA = MmaTileLayout<kCfg, BM, kAK>;
  using LB = MmaTileLayout<kCfg, BN, kBK>;
  using FA = MmaFragmentAddress<kCfg, true, kAK>;
  using FB = MmaFragmentAddress<kCfg, false, kBK>;
  using CA = MmaOperandCopier<kCfg, BM, kAK, T>;
  using CB = MmaOperandCopier<kCfg, BN, kBK, T>;
  constexpr bool kTf32 = kCfg.input == TilemmMmaInput::TF32;
  constexpr int eb = sizeof(T);

  const std::int64_t a_rows = kTA ? k : m, a_cols = kTA ? m : k;
  const std::int64_t b_rows = kTB ? n : k, b_cols = kTB ? k : n;
  const std::int64_t lda = std::max<std::int64_t>(a_rows, 1) + pad, ldb = std::max<std::int64_t>(b_rows, 1) + pad;
  std::mt19937 rng(unsigned(m * 131 + n * 7 + k));
  std::uniform_int_distribution<int> u(-3, 3);
  std::vector<T> A(lda * a_cols), B(ldb * b_cols);
  for (auto& x : A) x = from_f<T>(float(u(rng)));
  for (auto& x : B) x = from_f<T>(float(u(rng)));
  const auto a_at = [&](std::int64_t i, std::int64_t p) { return to_f(A[kTA ? p + i * lda : i + p * lda]); };
  const auto b_at = [&](std::int64_t p, std::int64_t j) { return to_f(B[kTB ? j + p * ldb : p + j * ldb]); };
  std::vector<float> C(m * n, std::nanf("")), ref(m * n, 0.0f);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (std::int64_t p = 0; p < k; ++p) s += double(a_at(i, p)) * b_at(p, j);
      ref[i + j * m] = float(s);
    }

  constexpr int MT = kCfg.m_tiles(), NT = kCfg.n_tiles(), W = kCfg.warps_m * kCfg.warps_n;
  const std::int64_t k_tiles = (k + BK - 1) / BK;
  for (std::int64_t m0 = 0; m0 < m; m0 += BM)
    for (std::int64_t n0 = 0; n0 < n; n0 += BN) {
      std::vector<float> acc(std::size_t(W) * 32 * MT * NT * 4, 0.0f);
      auto accr = [&](int w, int l, int i, int j, int c) -> float& {
        return acc[((((std::size_t(w) * 32 + l) * MT + i) * NT + j) * 4) + c];
      };
      for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
        std::vector<unsigned char> sa(LA::kBytes, 0xAB), sb(LB::kBytes, 0xAB);
        std::vector<int> wa(LA::kBytes, 0), wb(LB::kBytes, 0);
        // Copies, thread by thread, with every read checked to be inside the matrix.
        const auto copy = [&](auto copier, const std::vector<T>& M, std::int64_t ld, std::int64_t ext_x,
                              std::int64_t ext_k, bool kcontig, std::vector<unsigned char>& st,
                              std::vector<int>& written, int passes, int pass_step) {
          for (int p = 0; p < passes; ++p) {
            const int ne = copier.elements(p, kt);
            const T* src = copier.source(M.data(), ld, p, kt, ne);
            const int dst = copier.smem_offset + p * pass_step;
            for (int b = 0; b < 16; ++b) {
              if (written[dst + b]++ != 0) {
                ADD_FAILURE() << config_name<kCfg>() << ": shared byte " << dst + b << " written twice";
                ++failures;
              }
            }
            std::memset(&st[dst], 0, 16);
            for (int e = 0; e < ne; ++e) {
              const std::int64_t idx = (src - M.data()) + e;
              const std::int64_t x = kcontig ? idx / ld : idx % ld, kk = kcontig ? idx % ld : idx / ld;
              if (x >= ext_x || kk >= ext_k || idx < 0) {
                ADD_FAILURE() << config_name<kCfg>() << ": a copy reads (x " << x << ", k " << kk
                              << ") outside the " << ext_x << " x " << ext_k << " operand";
                ++failures;
              }
              std::memcpy(&st[dst + e * eb], &M[idx], eb);
            }
          }
        };
        for (int tid = 0; tid < kCfg.threads(); ++tid) {
          CA ca(lda, m, k, m0, tid);
          CB cb(ldb, n, k, n0, tid);
          copy(ca, A, lda, m, k, kAK, sa, wa, CA::kPasses, CA::kSmemPassStep);
          copy(cb, B, ldb, n, k, kBK, sb, wb, CB::kPasses, CB::kSmemPassStep);
        }
        // Every data byte of the stage is written exactly once (padding bytes never).
        const auto covered = [&](const std::vector<int>& written, int rows, int row_bytes, int pitch) {
          for (int r = 0; r < rows; ++r)
            for (int c = 0; c < row_bytes; ++c)
              if (written[std::size_t(r * pitch + c)] != 1) return false;
          return true;
        };
        if (!covered(wa, LA::kRows, LA::kRowChunks * 16, LA::kPitch) ||
            !covered(wb, LB::kRows, LB::kRowChunks * 16, LB::kPitch)) {
          ADD_FAILURE() << config_name<kCfg>() << ": a stage is not covered exactly once by the copies";
          ++failures;
          return;
        }

        // ldmatrix.x4 model: lanes 8i..8i+7 give matrix i's row addresses.
        const auto ldmatrix = [&](const std::vector<unsigned char>& st, const int (&addr)[32], bool trans,
                                  unsigned (&out)[32][4]) {
          for (int l = 0; l < 32; ++l)
            for (int i = 0; i < 4; ++i) {
              if (!trans) {
                std::memcpy(&out[l][i], &st[addr[8 * i + l / 4] + 4 * (l % 4)], 4);
              } else {
                std::uint16_t lo, hi;
                std::memcpy(&lo, &st[addr[8 * i + 2 * (l % 4)] + 2 * (l / 4)], 2);
                std::memcpy(&hi, &st[addr[8 * i + 2 * (l % 4) + 1] + 2 * (l / 4)], 2);
                out[l][i] = lo | (unsigned(hi) << 16);
              }
            }
        };
        const auto half_of = [&](unsigned reg, int h) {
          const auto bits = static_cast<unsigned short>(h ? reg >> 16 : reg & 0xFFFFu);
          if constexpr (std::is_same_v<T, __half>) {
            __half_raw raw;
            raw.x = bits;
            return __half2float(__half(raw));
          } else {
            __nv_bfloat16_raw raw;
            raw.x = bits;
            return __bfloat162float(__nv_bfloat16(raw));
          }
        };
        const auto f32_of = [&](unsigned reg) {
          float x;
          std::memcpy(&x, &reg, 4);
          return x;
        };

        for (int w = 0; w < W; ++w) {
          const int warp_m0 = (w % kCfg.warps_m) * kCfg.warp_tile_m();
          const int warp_n0 = (w / kCfg.warps_m) * kCfg.warp_tile_n();
          for (int ks = 0; ks < BK / kCfg.mma_k(); ++ks) {
            unsigned a[MT][32][4], b[NT][32][2];
            for (int i = 0; i < MT; ++i) {
              if constexpr (FA::kScalar) {
                for (int l = 0; l < 32; ++l) {
                  const int off = FA::lane_offset(l, warp_m0);
                  const int offs[4] = {FA::scalar_offset(off, 16 * i, 8 * ks), FA::scalar_offset(off, 16 * i + 8, 8 * ks),
                                       FA::scalar_offset(off, 16 * i, 8 * ks + 4), FA::scalar_offset(off, 16 * i + 8, 8 * ks + 4)};
                  for (int q = 0; q < 4; ++q) std::memcpy(&a[i][l][q], &sa[offs[q]], 4);
                }
              } else {
                int addr[32];
                for (int l = 0; l < 32; ++l) addr[l] = FA::ldmatrix_offset(FA::lane_offset(l, warp_m0), 16 * i, ks);
                unsigned out[32][4];
                ldmatrix(sa, addr, !kAK, out);
                for (int l = 0; l < 32; ++l)
                  for (int q = 0; q < 4; ++q) a[i][l][q] = out[l][q];
              }
            }
            for (int j = 0; j < NT; j += 2) {
              if constexpr (FB::kScalar) {
                for (int l = 0; l < 32; ++l) {
                  const int off = FB::lane_offset(l, warp_n0);
                  std::memcpy(&b[j][l][0], &sb[FB::scalar_offset(off, 8 * j, 8 * ks)], 4);
                  std::memcpy(&b[j][l][1], &sb[FB::scalar_offset(off, 8 * j, 8 * ks + 4)], 4);
                  std::memcpy(&b[j + 1][l][0], &sb[FB::scalar_offset(off, 8 * j + 8, 8 * ks)], 4);
                  std::memcpy(&b[j + 1][l][1], &sb[FB::scalar_offset(off, 8 * j + 8, 8 * ks + 4)], 4);
                }
              } else {
                int addr[32];
                for (int l = 0; l < 32; ++l) addr[l] = FB::ldmatrix_offset(FB::lane_offset(l, warp_n0), 8 * j, ks);
                unsigned out[32][4];
                ldmatrix(sb, addr, !kBK, out);
                for (int l = 0; l < 32; ++l) {
                  b[j][l][0] = out[l][0];
                  b[j][l][1] = out[l][1];
                  b[j + 1][l][0] = out[l][2];
                  b[j + 1][l][1] = out[l][3];
                }
              }
            }
            // mma.sync model: gather the operand tiles from the lanes per the PTX tables.
            constexpr int K = kCfg.mma_k();
            for (int i = 0; i < MT; ++i)
              for (int j = 0; j < NT; ++j) {
                float At[16][16] = {}, Bt[16][8] = {};
                for (int l = 0; l < 32; ++l) {
                  const int g = l / 4, t = l % 4;
                  if constexpr (kTf32) {
                    At[g][t] = f32_of(a[i][l][0]);
                    At[g + 8][t] = f32_of(a[i][l][1]);
                    At[g][t + 4] = f32_of(a[i][l][2]);
                    At[g + 8][t + 4] = f32_of(a[i][l][3]);
                    Bt[t][g] = f32_of(b[j][l][0]);
                    Bt[t + 4][g] = f32_of(b[j][l][1]);
                  } else {
                    for (int h = 0; h < 2; ++h) {
                      At[g][2 * t + h] = half_of(a[i][l][0], h);
                      At[g + 8][2 * t + h] = half_of(a[i][l][1], h);
                      At[g][2 * t + 8 + h] = half_of(a[i][l][2], h);
                      At[g + 8][2 * t + 8 + h] = half_of(a[i][l][3], h);
                      Bt[2 * t + h][g] = half_of(b[j][l][0], h);
                      Bt[2 * t + 8 + h][g] = half_of(b[j][l][1], h);
                    }
                  }
                }
                for (int l = 0; l < 32; ++l) {
                  const int g = l / 4, t = l % 4;
                  for (int c = 0; c < 4; ++c) {
                    const int row = g + 8 * (c / 2), col = 2 * t + c % 2;
                    float s = 0;
                    for (int q = 0; q < K; ++q) s += At[row][q] * Bt[q][col];
                    accr(w, l, i, j, c) += s;
                  }
                }
              }
          }
        }
      }
      // Epilogue mapping as mma_store_accumulators (alpha = 1, beta = 0).
      for (int w = 0; w < W; ++w) {
        const int warp_m0 = (w % kCfg.warps_m) * kCfg.warp_tile_m();
        const int warp_n0 = (w / kCfg.warps_m) * kCfg.warp_tile_n();
        for (int l = 0; l < 32; ++l) {
          const int g = l / 4, t = l % 4;
          for (int i = 0; i < MT; ++i)
            for (int half = 0; half < 2; ++half) {
              const std::int64_t row = m0 + warp_m0 + 16 * i + 8 * half + g;
              if (row >= m) continue;
              for (int j = 0; j < NT; ++j)
                for (int e = 0; e < 2; ++e) {
                  const std::int64_t col = n0 + warp_n0 + 8 * j + 2 * t + e;
                  if (col >= n) continue;
                  C[row + col * m] = accr(w, l, i, j, 2 * half + e);
                }
            }
        }
      }
    }
  int bad = 0;
  for (std::size_t i = 0; i < C.size(); ++i)
    if (!(C[i] == ref[i])) ++bad;
  if (bad) {
    ++failures;
    ADD_FAILURE() << config_name<kCfg>() << " " << (kTA ? 'T' : 'N') << (kTB ? 'T' : 'N') << " " << m << "x" << n
                  << "x" << k << " ld+" << pad << ": " << bad << " wrong outputs";
  }
}

template <TilemmMmaSyncConfig kCfg>
void run_config() {
  const std::int64_t shapes[][3] = {{1, 1, 1},
                                    {kCfg.bm, kCfg.bn, kCfg.bk},
                                    {kCfg.bm + 3, kCfg.bn - 5, 3 * kCfg.bk + 7},
                                    {2 * kCfg.bm - 1, 2 * kCfg.bn + 1, kCfg.bk - 1},
                                    {17, 9, 33}};
  for (const auto& s : shapes)
    for (std::int64_t pad : {0, 3}) {
      run_case<kCfg, false, false>(s[0], s[1], s[2], pad);
      run_case<kCfg, false, true>(s[0], s[1], s[2], pad);
      run_case<kCfg, true, false>(s[0], s[1], s[2], pad);
      run_case<kCfg, true, true>(s[0], s[1], s[2], pad);
    }
}

template <TilemmMmaInput kIn>
void run_input() {
  using Table = MmaSyncConfigTable<kIn>;
  [&]<std::size_t... I>(std::index_sequence<I...>) { (run_config<Table::configs[I]>(), ...); }(
      std::make_index_sequence<Table::kCount>{});
}

TEST(MmaSyncLayout, EmulatedBf16ProductsAreExact) {
  failures = 0;
  run_input<TilemmMmaInput::BF16>();
  EXPECT_EQ(failures, 0);
}

TEST(MmaSyncLayout, EmulatedFp16ProductsAreExact) {
  failures = 0;
  run_input<TilemmMmaInput::F16>();
  EXPECT_EQ(failures, 0);
}

TEST(MmaSyncLayout, EmulatedTf32ProductsAreExact) {
  failures = 0;
  run_input<TilemmMmaInput::TF32>();
  EXPECT_EQ(failures, 0);
}

}  // namespace
