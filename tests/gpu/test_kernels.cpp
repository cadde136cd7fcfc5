// Every registered kernel on the design's GPU test plan: shapes {1, 2, 7, 31, 127, 128,
// 129, 1000, 4097, tile +- 1, primes, k = 1} x ops {NN, NT, TN, TT} x (alpha, beta) in
// {(1,0), (0.5,2), (0,1), (1,1)} x leading dimensions above the minimum x unaligned
// sub-matrix offsets x leading dimensions and batch strides rounded up to 16 elements
// (what the TMA-fed wgmma kernels accept, with every odd m, n, k), plus strided batches
// with broadcast inputs, and a batch of more tiles than a persistent grid has clusters with
// a short k. TILEMM_TEST_SMALL=1 runs the small subset used under compute-sanitizer.
//
// Each kernel runs on every dtype its registry entry names (and `auto` on every dtype):
// the whole plan with C in the input type, and for 16-bit inputs a smaller plan with C
// in fp32 as well.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "gemm_check.hpp"
#include "registry/registry.hpp"

namespace {

using tilemm::Op;
using tilemm::test::GemmCase;

struct Shape {
  std::int64_t m, n, k;
};
struct Layout {
  std::int64_t ld_pad, offset, ld_align;
};

constexpr Op kOps[2] = {Op::N, Op::T};
constexpr float kAlphaBeta[4][2] = {{1.0f, 0.0f}, {0.5f, 2.0f}, {0.0f, 1.0f}, {1.0f, 1.0f}};

void add_product(std::vector<GemmCase>& out, const std::vector<Shape>& shapes, int alpha_betas,
                 const std::vector<Layout>& layouts, const GemmCase& types) {
  for (const Shape& s : shapes)
    for (Op oa : kOps)
      for (Op ob : kOps)
        for (int ab = 0; ab < alpha_betas; ++ab)
          for (const Layout& l : layouts) {
            GemmCase c = types;
            c.m = s.m;
            c.n = s.n;
            c.k = s.k;
            c.opa = oa;
            c.opb = ob;
            c.alpha = kAlphaBeta[ab][0];
            c.beta = kAlphaBeta[ab][1];
            c.ld_pad = l.ld_pad;
            c.offset = l.offset;
            c.ld_align = l.ld_align;
            out.push_back(c);
          }
}

// full: the whole plan; otherwise the smaller one used for a second C type.
std::vector<GemmCase> plan_cases(const GemmCase& types, bool full) {
  std::vector<GemmCase> cases;
  const std::vector<Layout> all_layouts = {{0, 0, 1}, {7, 0, 1}, {3, 1, 1}, {0, 0, 16}};
  if (tilemm::test::small_subset()) {
    // {33, 17, 1031}: a long k, so the split-K and stream-K kernels split a tile even here.
    add_product(cases, {{1, 1, 1}, {7, 7, 7}, {33, 17, 65}, {65, 65, 65}, {31, 129, 1}, {64, 32, 64}, {33, 17, 1031}},
                2, {{0, 0, 1}, {3, 1, 1}, {0, 0, 16}}, types);
  } else if (full) {
    // Cubes: the design's sizes, tile +- 1 for tiles 16/32/64/128/256, and primes.
    std::vector<Shape> cubes;
    for (std::int64_t s : {1, 2, 7, 13, 15, 16, 17, 31, 33, 63, 64, 65, 97, 127, 128, 129, 251,
                           255, 256, 257, 509, 1000})
      cubes.push_back({s, s, s});
    add_product(cases, cubes, 4, all_layouts, types);
    // Rectangles, skinny and k = 1 shapes. 144 rows: a 192-row tile's A (stored k x m) in
    // clusters of four is three whole 48-row boxes and one wholly past m, in pairs a whole box
    // and one cut at 48 rows (the boxes the TMA loads for a row of tiles past m).
    add_product(cases,
                {{129, 65, 1}, {1000, 7, 1}, {4097, 31, 129}, {7, 4097, 257}, {1, 1, 4097},
                 {1000, 1, 257}, {1, 1000, 31}, {2, 1000, 3}, {257, 127, 1031}, {144, 129, 257}},
                2, {{0, 0, 1}, {3, 1, 1}, {0, 0, 16}}, types);
    // The largest shape: each op once, alternating (alpha, beta) and layout, since each
    // case costs a 4097^3 product and its fp64 reference (about 33 kernel/dtype pairs).
    for (int op = 0; op < 4; ++op) {
      GemmCase c = types;
      c.m = c.n = c.k = 4097;
      c.opa = kOps[op / 2];
      c.opb = kOps[op % 2];
      c.alpha = kAlphaBeta[op % 2][0];
      c.beta = kAlphaBeta[op % 2][1];
      c.ld_pad = op % 2 == 0 ? 0 : 5;
      c.offset = op == 3 ? 1 : 0;
      c.ld_align = op < 2 ? 16 : 1;  // NN and NT in layouts the TMA accepts
      cases.push_back(c);
    }
  } else {
    add_product(cases, {{1, 1, 1}, {7, 7, 7}, {17, 17, 17}, {65, 65, 65}, {129, 129, 129}, {257, 257, 257},
                        {1000, 7, 1}, {257, 127, 1031}, {64, 32, 64}, {256, 128, 512}},
                2, {{0, 0, 1}, {3, 1, 1}, {0, 0, 16}}, types);
  }
  // NaN around the operands (in the ld padding, before the first element): every op, a
  // k that ends inside a 16-byte unit, odd and 16-aligned leading dimensions.
  for (const Shape& s : std::vector<Shape>{{37, 19, 67}, {129, 65, 131}})
    for (int op = 0; op < 4; ++op)
      for (int aligned16 = 0; aligned16 < 2; ++aligned16) {
        GemmCase c = types;
        c.m = s.m;
        c.n = s.n;
        c.k = s.k;
        c.opa = kOps[op / 2];
        c.opb = kOps[op % 2];
        c.ld_pad = 3;
        c.offset = aligned16 ? 0 : 1;
        c.ld_align = aligned16 ? 16 : 1;
        c.nan_padding = true;
        cases.push_back(c);
      }
  // Strided batches, with broadcast A or B (stride 0), unaligned and 16-aligned. Variant 3
  // is NT with fewer rows than columns (wgmma_rs computes it as C^T) and a broadcast A.
  for (int variant = 0; variant < 4; ++variant)
    for (int ab = 0; ab < 4; ++ab) {
      GemmCase c = types;
      c.m = variant == 2 ? 129 : variant == 3 ? 32 : 33;
      c.n = variant == 2 ? 1 : variant == 3 ? 64 : 65;
      c.k = variant == 1 ? 1 : 17;
      c.opa = variant == 1 ? Op::T : Op::N;
      c.opb = variant >= 2 ? Op::T : Op::N;
      c.alpha = kAlphaBeta[ab % 2][0];
      c.beta = kAlphaBeta[ab % 2][1];
      c.ld_pad = 2;
      c.offset = ab < 2 ? 1 : 0;
      c.ld_align = ab < 2 ? 1 : 16;
      c.batch = variant == 0 || variant == 3 ? 3 : 5;
      c.broadcast_a = variant == 1 || variant == 3;
      c.broadcast_b = variant == 2;
      cases.push_back(c);
    }
  // More tiles than a persistent grid has clusters, and not a multiple of them, with one
  // k-block: 97 products of 129 x 129 x 17, in layouts the TMA accepts. Stream-K finds no
  // ranges worth cutting there, and the clusters' last, partial round of whole tiles must
  // still run (until stop 61 it did not: bf16 4096^2 x 16 left those tiles unwritten).
  if (!tilemm::test::small_subset()) {
    for (int op = 0; op < 4; ++op) {
      GemmCase c = types;
      c.m = c.n = 129;
      c.k = 17;
      c.opa = kOps[op / 2];
      c.opb = kOps[op % 2];
      c.alpha = kAlphaBeta[op % 2][0];
      c.beta = kAlphaBeta[op % 2][1];
      c.ld_align = 16;
      c.batch = 97;
      cases.push_back(c);
    }
  }
  return cases;
}

struct KernelAndDtype {
  std::string kernel;  // a registered name or "auto"
  std::string dtype;   // "fp32", "tf32", "fp16", "bf16"
};

std::vector<KernelAndDtype> kernel_params() {
  std::vector<KernelAndDtype> params;
  for (const auto& e : tilemm::registry().entries())
    for (const auto& d : e.dtype_list()) params.push_back({e.name, d});
  for (const char* d : {"fp32", "tf32", "fp16", "bf16"}) params.push_back({"auto", d});
  return params;
}

// Runs `cases(types, full)` for each C type of the kernel's dtype (full for C in the input
// type) and expects every case to pass or, for a forced kernel, be refused.
template <class Cases>
void expect_correct_on(const KernelAndDtype& param, Cases cases) {
  const std::string name = param.kernel;
  tilemm::test::CaseTypes types;
  ASSERT_TRUE(tilemm::test::case_types_of(param.dtype, &types))
      << name << " names dtype '" << param.dtype << "' that the tests do not know";
  tilemmHandle_t h = nullptr;
  ASSERT_EQ(tilemmCreate(&h), TILEMM_STATUS_SUCCESS);
  ASSERT_EQ(tilemmSetAlgorithm(h, name.c_str()), TILEMM_STATUS_SUCCESS) << tilemmGetErrorDetail(h);
  for (int ct = 0; ct < types.c_type_count; ++ct) {
    GemmCase typed;
    typed.ab_type = types.ab_type;
    typed.c_type = types.c_types[ct];
    typed.compute = types.compute;
    int passed = 0, refused = 0, failed = 0;
    double worst = 0.0;
    for (const GemmCase& c : cases(typed, ct == 0)) {
      const bool small = double(c.m) * double(c.n) * double(c.k) < 2e9;
      if (tilemm::test::trace_cases()) std::fprintf(stderr, "[ case ] %s %s\n", name.c_str(), c.describe().c_str());
      const auto r = tilemm::test::run_case(h, c, small);
      // A forced kernel may refuse a case it cannot implement (C untouched); auto never.
      if (r.refused && r.passed && name != "auto") {
        ++refused;
      } else if (r.passed && !r.refused) {
        ++passed;
        worst = std::max(worst, r.error);
      } else {
        ++failed;
        ADD_FAILURE() << name << " " << c.describe() << ": " << r.message;
      }
    }
    std::printf("[ kernel ] %-40s %s->%-4s passed %d, failed %d, refused %d, worst relative error %.3g\n",
                name.c_str(), param.dtype.c_str(), tilemm::dtype_name(typed.c_type), passed, failed, refused, worst);
    EXPECT_GT(passed, 0) << name << " on " << param.dtype;
  }
  tilemmDestroy(h);
}

std::string param_name(const ::testing::TestParamInfo<KernelAndDtype>& info) {
  std::string s = info.param.kernel + "_" + info.param.dtype;
  for (char& ch : s)
    if (ch == '.') ch = '_';
  return s;
}

class Kernels : public ::testing::TestWithParam<KernelAndDtype> {};

TEST_P(Kernels, CorrectOnTheTestPlan) { expect_correct_on(GetParam(), plan_cases); }

INSTANTIATE_TEST_SUITE_P(Registered, Kernels, ::testing::ValuesIn(kernel_params()), param_name);

// skinny_mma's `.ldgshort` entries load the short operand 2 or 4 elements at a time where its
// base, lda and extent along the loads allow (short_operand_elements_per_load). Shapes whose
// short operand ends inside a chunk of such loads, with a long operand the ring can read: m =
// 20 and 6 in NN and NT (8- and 4-byte loads along m; k = 72 and 40 keep ldb = k readable in
// NN), k = 68 and 42 in TT (along k; ldb = n readable). Every op and alpha/beta pair (ops whose
// long operand is unreadable are refused), unpadded, offset and 16-aligned leading dimensions;
// for those entries and auto.
std::vector<GemmCase> short_operand_load_cases(const GemmCase& types, bool full) {
  std::vector<GemmCase> cases;
  add_product(cases, {{20, 1000, 72}, {20, 1000, 68}, {6, 296, 40}, {6, 296, 42}}, full ? 4 : 2,
              {{0, 0, 1}, {3, 1, 1}, {0, 0, 16}}, types);
  return cases;
}

std::vector<KernelAndDtype> short_operand_load_params() {
  std::vector<KernelAndDtype> params;
  for (const auto& e : tilemm::registry().entries())
    if (e.name.find(".ldgshort") != std::string::npos)
      for (const auto& d : e.dtype_list()) params.push_back({e.name, d});
  for (const char* d : {"tf32", "fp16", "bf16"}) params.push_back({"auto", d});
  return params;
}

class ShortOperandLoads : public ::testing::TestWithParam<KernelAndDtype> {};

TEST_P(ShortOperandLoads, CorrectWhereTheShortOperandEndsInsideALoad) {
  expect_correct_on(GetParam(), short_operand_load_cases);
}

INSTANTIATE_TEST_SUITE_P(Registered, ShortOperandLoads, ::testing::ValuesIn(short_operand_load_params()), param_name);

}  // namespace
