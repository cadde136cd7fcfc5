// Registry consistency: unique names, every family file registered, every kernel
// documented in docs/ladder.md, sane metadata.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/ahead_policy.hpp"
#include "kernels/skinny_orientation.hpp"
#include "kernels/split_k_reduce.hpp"
#include "registry/registry.hpp"
#include "tilemm/tilemm.h"

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Registry, NamesAreUniqueAndStable) {
  std::set<std::string> names;
  for (const auto& e : tilemm::registry().entries()) {
    EXPECT_TRUE(names.insert(e.name).second) << "duplicate " << e.name;
    EXPECT_TRUE(std::regex_match(e.name, std::regex("[a-z0-9_]+(\\.[a-z0-9_x]+)*"))) << e.name;
    EXPECT_EQ(e.name.find("fast"), std::string::npos) << "names say the technique: " << e.name;
    EXPECT_EQ(e.name.find("v2"), std::string::npos) << e.name;
  }
  EXPECT_GE(names.size(), 5u);
}

TEST(Registry, EntriesAreComplete) {
  int last_step = 0;
  for (const auto& e : tilemm::registry().entries()) {
    EXPECT_FALSE(e.family.empty()) << e.name;
    EXPECT_FALSE(e.summary.empty()) << e.name;
    EXPECT_FALSE(e.dtypes.empty()) << e.name;
    EXPECT_FALSE(e.requirements.empty()) << e.name;
    EXPECT_GT(e.arithmetic_intensity, 0.0) << e.name;
    EXPECT_GE(e.min_compute_capability, 75) << e.name;
    EXPECT_TRUE(e.can_implement && e.launch && e.resources) << e.name;
    EXPECT_GE(e.ladder_step, last_step) << e.name << ": registration order is ladder order";
    last_step = e.ladder_step;
  }
}

TEST(Registry, TheClassicKernelsAreThere) {
  for (const char* name : {"naive", "coalesced", "smem_tiled.16", "smem_tiled.32",
                           "smem_tiled.32.bank_conflict"}) {
    const auto* e = tilemm::registry().find(name);
    ASSERT_NE(e, nullptr) << name;
  }
  EXPECT_FALSE(tilemm::registry().find("naive")->auto_eligible);
  EXPECT_FALSE(tilemm::registry().find("smem_tiled.32.bank_conflict")->auto_eligible);
}

TEST(Registry, EveryFamilyFileIsRegistered) {
  std::set<std::string> families;
  for (const auto& e : tilemm::registry().entries()) families.insert(e.family);
  const std::filesystem::path dir = std::filesystem::path(TILEMM_SOURCE_DIR) / "src" / "kernels";
  const std::regex reg_fn("void register_([a-z0-9_]+)\\(Registry& r\\)");
  int files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    if (f.path().extension() != ".cu") continue;
    const std::string text = read_file(f.path());
    std::smatch m;
    if (!std::regex_search(text, m, reg_fn)) continue;
    ++files;
    EXPECT_EQ(m[1].str(), f.path().stem().string()) << "one family per file, named after it";
    EXPECT_TRUE(families.count(m[1].str())) << "family " << m[1] << " defines register_"
                                            << m[1] << " but registers no kernel under that family";
  }
  EXPECT_EQ(static_cast<size_t>(files), families.size());
}

TEST(Registry, LadderDocMentionsEveryKernel) {
  const std::string doc =
      read_file(std::filesystem::path(TILEMM_SOURCE_DIR) / "docs" / "ladder.md");
  ASSERT_FALSE(doc.empty());
  for (const auto& e : tilemm::registry().entries()) {
    EXPECT_NE(doc.find("`" + e.name + "`"), std::string::npos)
        << "docs/ladder.md does not mention `" << e.name << "`";
  }
}

TEST(Registry, CApiListsTheSameKernels) {
  const auto& entries = tilemm::registry().entries();
  ASSERT_EQ(tilemmGetAlgorithmCount(), static_cast<int64_t>(entries.size()));
  for (size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i].name, tilemmGetAlgorithmName(static_cast<int64_t>(i)));
  }
  EXPECT_EQ(tilemmGetAlgorithmName(-1), nullptr);
  EXPECT_EQ(tilemmGetAlgorithmName(static_cast<int64_t>(entries.size())), nullptr);
}

// An H100/H200 as can_implement sees it (no GPU needed).
tilemm::DeviceInfo hopper_device() {
  tilemm::DeviceInfo d;
  d.cc_major = 9;
  d.sm_count = 132;
  d.smem_per_block_optin = 227 * 1024;
  return d;
}

// The problem types a `dtypes` name stands for (A/B type, C type, arithmetic).
tilemm::GemmProblem problem_of_dtype(const std::string& dtype) {
  tilemm::GemmProblem p;
  p.m = p.n = p.k = 64;
  p.lda = p.ldb = p.ldc = 64;
  if (dtype == "tf32") p.compute = tilemm::Compute::F32_FAST_TF32;
  if (dtype == "fp16") p.a_type = p.b_type = p.c_type = tilemm::DType::F16;
  if (dtype == "bf16") p.a_type = p.b_type = p.c_type = tilemm::DType::BF16;
  return p;
}

// A small product of the dtype that the entry's shape rules accept: square, or with fewer
// columns than rows for the `.swapab` entries (which refuse the square one).
tilemm::GemmProblem problem_for(const tilemm::KernelEntry& e, const std::string& dtype) {
  tilemm::GemmProblem p = problem_of_dtype(dtype);
  if (e.name.find(".swapab") != std::string::npos) p.n = 32;
  return p;
}

TEST(Registry, CanImplementRefusesOtherTypesAndOldDevices) {
  const tilemm::DeviceInfo hopper = hopper_device();
  tilemm::DeviceInfo old;
  old.cc_major = 5;
  const std::vector<std::string> all = {"fp32", "tf32", "fp16", "bf16"};
  for (const auto& e : tilemm::registry().entries()) {
    const auto mine = e.dtype_list();
    ASSERT_FALSE(mine.empty()) << e.name;
    for (const auto& d : all) {
      const bool claimed = std::find(mine.begin(), mine.end(), d) != mine.end();
      const tilemm::GemmProblem p = problem_for(e, d);
      if (claimed && p.n != p.m) {
        EXPECT_NE(e.can_implement(problem_of_dtype(d), hopper), "") << e.name << " on a square product";
      }
      if (claimed) {
        // Every kernel takes TN (the tf32 wgmma entries only that: K-major operands) and NN
        // (but the in-place tf32 wgmma_rs entries refuse TN: one operand from registers, NT's
        // other transposed in shared memory; the `.transpose` entries take only NN and TT,
        // transposed first); the plain tma_ffma entry takes NT alone (both operands
        // x-contiguous).
        const bool repacks = e.name.find(".repack") != std::string::npos;
        const bool transposes = e.name.find(".transpose") != std::string::npos;
        const bool rs_in_place = e.family == "wgmma_rs" && !repacks;
        const bool nt_only = e.family == "tma_ffma" && !repacks;
        tilemm::GemmProblem tn = p;
        tn.opa = tilemm::Op::T;
        if (rs_in_place || transposes || nt_only) {
          EXPECT_NE(e.can_implement(tn, hopper), "") << e.name << " on " << d;
        } else {
          EXPECT_EQ(e.can_implement(tn, hopper), "") << e.name << " on " << d;
        }
        if (rs_in_place) {
          tilemm::GemmProblem nt = p;
          nt.opb = tilemm::Op::T;
          EXPECT_EQ(e.can_implement(nt, hopper), "") << e.name << " on " << d;
        }
        if (nt_only) {
          EXPECT_NE(e.can_implement(p, hopper), "") << e.name << " on " << d;
          tilemm::GemmProblem nt = p;
          nt.opb = tilemm::Op::T;
          EXPECT_EQ(e.can_implement(nt, hopper), "") << e.name << " on " << d;
        } else if (e.name.rfind("wgmma.tf32.", 0) != 0 || repacks || transposes) {
          EXPECT_EQ(e.can_implement(p, hopper), "") << e.name << " on " << d;
        }
        EXPECT_NE(e.can_implement(p, old), "") << e.name << " on " << d;
      } else {
        EXPECT_NE(e.can_implement(p, hopper), "") << e.name << " accepts " << d << " but its dtypes are '"
                                                  << e.dtypes << "'";
      }
    }
    // A 16-bit C for fp32 data is never computed, whatever the kernel.
    tilemm::GemmProblem narrow_c = problem_of_dtype("fp32");
    narrow_c.c_type = tilemm::DType::BF16;
    EXPECT_NE(e.can_implement(narrow_c, hopper), "") << e.name;
  }
}

TEST(Registry, SixteenBitKernelsAcceptAnFp32Output) {
  const tilemm::DeviceInfo hopper = hopper_device();
  for (const auto& e : tilemm::registry().entries())
    for (const auto& d : e.dtype_list()) {
      if (d != "fp16" && d != "bf16") continue;
      tilemm::GemmProblem p = problem_for(e, d);
      p.c_type = tilemm::DType::F32;
      EXPECT_EQ(e.can_implement(p, hopper), "") << e.name;
    }
}

TEST(Registry, AutoChoiceCacheRemembersProblemsNotPointers) {
  const tilemm::DeviceInfo hopper = hopper_device();
  tilemm::AutoChoiceCache cache;
  // Addresses only: the cache reads their alignment, never memory.
  const auto at = [](std::uintptr_t address) { return reinterpret_cast<void*>(address); };
  tilemm::GemmProblem p = problem_of_dtype("bf16");
  p.A = at(0x100000);
  p.B = at(0x200000);
  p.C = at(0x300000);
  const tilemm::KernelEntry* chosen = tilemm::registry().choose(p, hopper, nullptr);
  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(cache.find(p), nullptr);
  cache.remember(p, chosen);
  EXPECT_EQ(cache.find(p), chosen);
  // Other buffers with the same alignment: the same choice.
  tilemm::GemmProblem moved = p;
  moved.A = at(0x100000 + 4096);
  moved.C = at(0x300000 + 256);
  EXPECT_EQ(cache.find(moved), chosen);
  // Anything can_implement or a score reads makes it another problem.
  const auto differs = [&](auto&& change) {
    tilemm::GemmProblem q = p;
    change(q);
    return cache.find(q) == nullptr;
  };
  EXPECT_TRUE(differs([&](tilemm::GemmProblem& q) { q.A = at(0x100000 + 2); }));
  EXPECT_TRUE(differs([](tilemm::GemmProblem& q) { q.m += 1; }));
  EXPECT_TRUE(differs([](tilemm::GemmProblem& q) { q.ldb += 8; }));
  EXPECT_TRUE(differs([](tilemm::GemmProblem& q) { q.opa = tilemm::Op::T; }));
  EXPECT_TRUE(differs([](tilemm::GemmProblem& q) { q.c_type = tilemm::DType::F32; }));
  EXPECT_TRUE(differs([](tilemm::GemmProblem& q) { q.beta = 1.0; }));
  EXPECT_TRUE(differs([](tilemm::GemmProblem& q) { q.batch = 2; }));
  // Eight problems are kept; the ninth new one replaces the oldest.
  for (int i = 1; i <= 7; ++i) {
    tilemm::GemmProblem q = p;
    q.n = p.n + i;
    cache.remember(q, chosen);
  }
  EXPECT_EQ(cache.find(p), chosen);
  tilemm::GemmProblem ninth = p;
  ninth.n = p.n + 8;
  cache.remember(ninth, chosen);
  EXPECT_EQ(cache.find(p), nullptr);
  EXPECT_EQ(cache.find(ninth), chosen);
}

TEST(Registry, AutoUsesTensorCoresForTheirTypes) {
  const tilemm::DeviceInfo hopper = hopper_device();
  tilemm::DeviceInfo ampere = hopper;
  ampere.cc_major = 8;
  ampere.sm_count = 108;
  ampere.smem_per_block_optin = 163 * 1024;
  for (const std::string d : {"tf32", "fp16", "bf16"}) {
    // Hopper runs every tensor-core type on wgmma, repacking operands the TMA cannot
    // read (odd ld); tf32 NN reads its M-major A through registers (wgmma_rs), TN reads
    // both operands K-major from shared memory (wgmma); older GPUs run mma_sync (.cp16
    // when aligned).
    const bool tf32 = d == "tf32";
    tilemm::GemmProblem p = problem_of_dtype(d);
    p.m = p.n = p.k = 4096;
    p.lda = p.ldb = p.ldc = 4096;
    std::string why;
    const tilemm::KernelEntry* aligned = tilemm::registry().choose(p, hopper, &why);
    ASSERT_NE(aligned, nullptr) << why;
    EXPECT_EQ(aligned->family, tf32 ? "wgmma_rs" : "wgmma") << aligned->name;
    EXPECT_EQ(aligned->dtypes, d) << aligned->name;
    EXPECT_EQ(aligned->name.find(".repack"), std::string::npos) << aligned->name;
    p.opa = tilemm::Op::T;  // TN: K-major operands, read in place by every type
    const tilemm::KernelEntry* tn = tilemm::registry().choose(p, hopper, &why);
    ASSERT_NE(tn, nullptr) << why;
    EXPECT_EQ(tn->family, "wgmma") << tn->name;
    EXPECT_EQ(tn->name.find(".repack"), std::string::npos) << tn->name;
    p.opa = tilemm::Op::N;
    const tilemm::KernelEntry* on_ampere = tilemm::registry().choose(p, ampere, &why);
    ASSERT_NE(on_ampere, nullptr) << why;
    EXPECT_EQ(on_ampere->family, "mma_sync") << on_ampere->name;
    EXPECT_NE(on_ampere->name.find(".cp16"), std::string::npos) << on_ampere->name;
    p.m = p.n = p.k = 4093;
    p.lda = p.ldb = p.ldc = 4093;
    const tilemm::KernelEntry* any_ld = tilemm::registry().choose(p, hopper, &why);
    ASSERT_NE(any_ld, nullptr) << why;
    EXPECT_EQ(any_ld->family, tf32 ? "wgmma_rs" : "wgmma") << any_ld->name;
    EXPECT_NE(any_ld->name.find(".repack"), std::string::npos) << any_ld->name;
  }
  // fp32 with fp32 arithmetic never goes through TF32.
  tilemm::GemmProblem p = problem_of_dtype("fp32");
  const tilemm::KernelEntry* fp32 = tilemm::registry().choose(p, hopper, nullptr);
  ASSERT_NE(fp32, nullptr);
  EXPECT_NE(fp32->family, "mma_sync") << fp32->name;
}

TEST(Registry, EveryDtypeHasAnAutoKernelForAnyLeadingDimension) {
  const tilemm::DeviceInfo hopper = hopper_device();
  for (const std::string d : {"fp32", "tf32", "fp16", "bf16"}) {
    tilemm::GemmProblem p = problem_of_dtype(d);
    p.m = p.n = p.k = 4093;
    p.lda = p.ldb = p.ldc = 4093;
    bool found = false;
    for (const auto& e : tilemm::registry().entries()) {
      if (e.auto_eligible && e.can_implement(p, hopper).empty()) found = true;
    }
    EXPECT_TRUE(found) << "no auto-eligible kernel runs " << d << " with lda = 4093";
  }
}

// auto's fp32 policy where the measured H200 results made it (docs/ladder.md steps 13
// and 14): each pair below differs only in the speed estimates these tests pin down.
// A problem of dtype d with the smallest leading dimensions its ops allow.
tilemm::GemmProblem typed_problem(const std::string& d, std::int64_t m, std::int64_t n, std::int64_t k,
                                  tilemm::Op opa = tilemm::Op::N, tilemm::Op opb = tilemm::Op::N) {
  tilemm::GemmProblem p = problem_of_dtype(d);
  p.m = m;
  p.n = n;
  p.k = k;
  p.opa = opa;
  p.opb = opb;
  p.lda = opa == tilemm::Op::N ? m : k;
  p.ldb = opb == tilemm::Op::N ? k : n;
  p.ldc = m;
  return p;
}

// `count` products of typed_problem's shape, stored back to back (the strided-batched form).
tilemm::GemmProblem batched_problem(const std::string& d, std::int64_t count, std::int64_t m, std::int64_t n,
                                    std::int64_t k, tilemm::Op opa, tilemm::Op opb) {
  tilemm::GemmProblem p = typed_problem(d, m, n, k, opa, opb);
  p.batch = count;
  p.stride_a = m * k;
  p.stride_b = k * n;
  p.stride_c = m * n;
  return p;
}

tilemm::GemmProblem fp32_problem(std::int64_t m, std::int64_t n, std::int64_t k, tilemm::Op opa, tilemm::Op opb) {
  return typed_problem("fp32", m, n, k, opa, opb);
}

std::string auto_choice(const tilemm::GemmProblem& p, const tilemm::DeviceInfo& dev = hopper_device()) {
  std::string why;
  const tilemm::KernelEntry* e = tilemm::registry().choose(p, dev, &why);
  return e != nullptr ? e->name : "none: " + why;
}

// auto's choice (Hopper) for a problem of dtype d with the tightest leading dimensions.
std::string typed_auto_choice(const std::string& d, std::int64_t m, std::int64_t n, std::int64_t k, tilemm::Op opa,
                              tilemm::Op opb) {
  return auto_choice(typed_problem(d, m, n, k, opa, opb));
}

// The tiles wgmma_short_second_row_of_tiles chooses among for 129-192 rows: the 128 x 128 tile in
// clusters of four, the 64 x 128 staged tile, the 192 x 128 tile in pairs and its stream-K form,
// and (since stop 70) one row of 192 x 64 ping-pong tiles in clusters of four or of two along n.
std::string c4_128(const std::string& d) { return "wgmma." + d + ".128x128x64.s6.persistent.c4.tmastore"; }
std::string tile64(const std::string& d) { return "wgmma." + d + ".64x128x64.s8.persistent.tmastore"; }
std::string one_row_192(const std::string& d) { return "wgmma." + d + ".192x128x64.s5.persistent.c2.tmastore"; }
std::string streamk(const std::string& d) { return "wgmma." + d + ".192x128x64.s5.persistent.c2.tmastore.streamk"; }
std::string fours(const std::string& d) { return "wgmma." + d + ".192x64x64.s6.persistent.c4.tmastore.pingpong"; }
std::string pairs(const std::string& d) { return "wgmma." + d + ".192x64x64.s6.persistent.c2.tmastore.pingpong"; }

// Compute capability 8.0 with the H200's SMs: the TMA-fed entries refuse it.
tilemm::DeviceInfo ampere_device() {
  tilemm::DeviceInfo d = hopper_device();
  d.cc_major = 8;
  return d;
}

TEST(Registry, AutoCopiesOddLeadingDimensionsAndRunsAlignedLayoutsInPlaceWithoutTheTma) {
  using tilemm::Op;
  const std::string repack = "double_buffer.128x128x8.w64x32.t8x8.ldg128.repack";
  const std::string plain = "double_buffer.128x128x8.w64x32.t8x8.ldg128";
  const std::string two_groups = "double_buffer.128x128x16.w64x32.t8x8.ldg128.g2";
  const std::string async_a = "double_buffer.128x128x16.w64x32.t8x8.ldg128.cp_async_a";
  const tilemm::DeviceInfo ampere = ampere_device();
  for (Op opa : {Op::N, Op::T})
    for (Op opb : {Op::N, Op::T}) {
      // Aligned NN with BK = 16 and A copied by cp.async (0.5-1.2% faster than BK = 8
      // there); TT with BK = 8; NT and TN with BK = 16 in two copy groups (6% and 2-4.5%
      // faster there, 0-2% slower in NN and TT). Measured on the H200, where tma_ffma now
      // runs these (the next test); the policy holds where it cannot.
      const bool same = opa == opb;
      const std::string kernel = same && opa == Op::N ? async_a : same ? plain : two_groups;
      // 4093^3: every layout copies (0.91-0.995x cuBLAS against .ldg32's 0.85-0.93x), and
      // runs the BK = 8 or two-group kernel on the copies (`.cp_async_a` has no `.repack`
      // twin).
      EXPECT_EQ(auto_choice(fp32_problem(4093, 4093, 4093, opa, opb), ampere), same ? repack : two_groups + ".repack");
      // Aligned: no copy (in place, the BK = 16 kernel beat the transposing copy into NN
      // by 1.4-3.6%).
      for (std::int64_t s : {2048, 4096, 8192}) {
        EXPECT_EQ(auto_choice(fp32_problem(s, s, s, opa, opb), ampere), kernel) << s;
      }
      EXPECT_EQ(auto_choice(fp32_problem(1000, 1000, 1000, opa, opb), ampere),
                same ? plain + ".splitk" : two_groups + ".splitk");
    }
}

TEST(Registry, AutoRunsLargeFp32ProductsOnTheTmaFedKernelAndCopiesOddLeadingDimensions) {
  using tilemm::Op;
  const std::string tma = "tma_ffma.256x128x32.w64x64.t16x8.s4";
  const std::string tma_repack = tma + ".repack";
  const std::string plain = "double_buffer.128x128x8.w64x32.t8x8.ldg128";
  const std::string two_groups = "double_buffer.128x128x16.w64x32.t8x8.ldg128.g2";
  for (Op opa : {Op::N, Op::T})
    for (Op opb : {Op::N, Op::T}) {
      const bool same = opa == opb, nt = opa == Op::N && opb == Op::T;
      // Measured on the H200 (docs/ladder.md step 15, interleaved runs, ms, 4096^3 / 8192^3):
      // NT runs the TMA-fed kernel in place (2.576 / 20.46 against `.g2`'s 2.735 / 21.65);
      // NN and TT transpose one operand into NT first (NN 2.619 / 20.62 against
      // `.cp_async_a`'s 2.774 / 21.85; TT 2.620 / 20.63 against `.g2`'s 2.805 / 22.03); TN
      // transposes both (2.661 / 20.90 against `.g2`'s 2.765 / 21.81). At 2048^3 the two
      // copies' charge keeps TN on `.g2` (measured a tie: `.g2` 0.359 ms, the two-copy path
      // 0.358).
      for (std::int64_t s : {2048, 4096, 8192}) {
        const std::string kernel = nt ? tma : (same || s > 2048) ? tma_repack : two_groups;
        EXPECT_EQ(auto_choice(fp32_problem(s, s, s, opa, opb)), kernel) << s;
      }
      // 4093^3: the operands are copied (the TMA needs 16-byte strides) and, but for NT,
      // transposed into NT on the way (before the serpentine order: NN 2.860 ms, 1.01x
      // cuBLAS, against double_buffer's `.repack` 2.902; NT 2.839 against 2.923).
      EXPECT_EQ(auto_choice(fp32_problem(4093, 4093, 4093, opa, opb)), tma_repack);
      // Few tiles: split-K, with the BK = 8 or two-group kernel (nor a split-K twin).
      EXPECT_EQ(auto_choice(fp32_problem(1000, 1000, 1000, opa, opb)),
                same ? plain + ".splitk" : two_groups + ".splitk");
      // k <= 128, hardly a k-loop: the TMA-fed tile steps aside (H100: 4096^2 x 16 NN 54.4 ->
      // 36.0 us, 3000^2 x 100 NT 82.9 -> 59.5, 4093^2 x 64 NN 181 -> 103); from k = 129 it runs.
      for (std::int64_t k : {16, 64, 128}) {
        EXPECT_EQ(auto_choice(fp32_problem(4096, 4096, k, opa, opb)).rfind("tma_ffma", 0), std::string::npos) << k;
        EXPECT_EQ(auto_choice(fp32_problem(4093, 4093, k, opa, opb)).rfind("tma_ffma", 0), std::string::npos) << k;
      }
      EXPECT_EQ(auto_choice(fp32_problem(4096, 4096, 129, opa, opb)), nt ? tma : tma_repack);
    }
}

TEST(Registry, AutoTakesTheSkinnyKernelForSixteenRowsOrColumns) {
  using tilemm::Op;
  const std::string skinny = "skinny_splitk.16x128x32.w4.s3.cp16";
  EXPECT_EQ(auto_choice(fp32_problem(16, 11008, 4096, Op::N, Op::N)), skinny);
  EXPECT_EQ(auto_choice(fp32_problem(11008, 16, 4096, Op::T, Op::N)), skinny);  // PyTorch's decode step
  EXPECT_EQ(auto_choice(fp32_problem(16, 11007, 4093, Op::N, Op::N)), "skinny_splitk.16x128x32.w4.s4.cp4");
  EXPECT_EQ(auto_choice(fp32_problem(64, 11008, 4096, Op::N, Op::N)).rfind("skinny_splitk", 0), std::string::npos);
  // 224 tiles, one slice: scored as no split (it was halved, and cp_async's split-K won).
  EXPECT_EQ(auto_choice(fp32_problem(32, 14336, 4096, Op::N, Op::N)), skinny);
  EXPECT_EQ(auto_choice(fp32_problem(24, 14336, 4096, Op::N, Op::N)), skinny);
  // The 4-byte entry runs only what the 16-byte one cannot: on aligned operands it scores
  // below every fp32 tile kernel (on the H200 its residency otherwise won it 32 x 14336).
  int found = 0;
  for (const auto& e : tilemm::registry().entries())
    if (e.name == "skinny_splitk.16x128x32.w4.s4.cp4") {
      ++found;
      EXPECT_LT(e.auto_score(fp32_problem(32, 14336, 4096, Op::N, Op::N), hopper_device()), 1000.0);
      EXPECT_GT(e.auto_score(fp32_problem(32, 14336, 4093, Op::N, Op::N), hopper_device()), 1000.0);
    }
  EXPECT_EQ(found, 1);
}

TEST(Registry, AutoRunsShortOuterProductsOneThreadPerOutput) {
  // k <= 16 and m * n <= 2^17: a launch, one round trip and C's stores, which one thread per
  // output does without a ring or shared-memory sums (H100: 2 x 64 x 1 NT 4.4 us against 7.4
  // on skinny_splitk, cuBLAS 5.5).
  using tilemm::Op;
  EXPECT_EQ(auto_choice(fp32_problem(2, 64, 1, Op::N, Op::T)), "coalesced");
  EXPECT_EQ(auto_choice(fp32_problem(5611, 12, 7, Op::T, Op::N)), "coalesced");
  EXPECT_EQ(auto_choice(fp32_problem(256, 512, 16, Op::N, Op::N)), "coalesced");
  // Past either bound the tiled kernels (64 x 3 x 72 TN 9.6 us against 7.4; 512 x 512 x 16
  // NN 9.8 against 7.8).
  EXPECT_NE(auto_choice(fp32_problem(64, 3, 72, Op::T, Op::N)), "coalesced");
  EXPECT_NE(auto_choice(fp32_problem(256, 512, 17, Op::N, Op::N)), "coalesced");
  EXPECT_NE(auto_choice(fp32_problem(257, 512, 16, Op::N, Op::N)), "coalesced");
  EXPECT_NE(auto_choice(fp32_problem(512, 512, 16, Op::N, Op::N)), "coalesced");
  // tf32 arithmetic stays on the tensor cores.
  EXPECT_NE(typed_auto_choice("tf32", 2, 64, 1, Op::N, Op::T), "coalesced");
}

TEST(Registry, AutoStreamsSixteenRowTensorCoreProductsThroughSkinnyMma) {
  // 16-bit products with at most 16 rows (or, transposed, columns) and a long operand of at
  // least 4096 x 4096 elements: measured on the H200 (docs/ladder.md, step 29), the 16-row
  // mma.sync tile ran them 1.1-1.6x faster than the wgmma entries; m = 32 and 64 stayed
  // faster on wgmma's split-K, and tf32 on wgmma_rs's.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  for (const std::string d : {"bf16", "fp16"}) {
    const std::string skinny = "skinny_mma." + d + ".16x64x128.w4.s4";
    // On Hopper one row tile goes to the entry that sums its k-slices in a cluster: since stop 50
    // with 1024-6144 columns and k = 1024-11008 (H200: 1.00-1.28x faster), but not 3073-4096
    // columns with k > 4096, where it runs fewer slices than the plain entry; wider bounds below.
    const std::string cluster_k = skinny + ".clusterk";
    EXPECT_EQ(choice(d, 16, 11008, 4096, Op::N, Op::N), skinny);
    EXPECT_EQ(choice(d, 16, 4096, 4096, Op::N, Op::T), cluster_k);
    EXPECT_EQ(choice(d, 16, 4096, 8192, Op::T, Op::T), skinny);
    EXPECT_EQ(choice(d, 16, 6144, 11008, Op::T, Op::N), cluster_k);
    EXPECT_EQ(choice(d, 16, 3072, 16384, Op::T, Op::T), skinny);
    EXPECT_EQ(choice(d, 8, 2048, 1024, Op::N, Op::N), cluster_k);  // 64 x 64 ping-pong before: 10.5 against 9.0 us
    // From 512 columns and from k = 512 since stop 65, with k <= 2048 below 1024 columns (H100,
    // bf16, us against the 64 x 64 ping-pong or split-K tile auto took before; cuBLAS 7.7, 9.2, 6.4).
    EXPECT_EQ(choice(d, 8, 4096, 512, Op::N, Op::N), cluster_k);   // 8.6 against 11.2
    EXPECT_EQ(choice(d, 16, 512, 2048, Op::N, Op::T), cluster_k);  // 7.4 against 10.2
    EXPECT_EQ(auto_choice(tilemm::vectors_read_k_major(typed_problem(d, 1, 512, 512, Op::N, Op::N))),
              cluster_k);  // 6.7 against 8.5 (TN, the same product)
    // From 128 columns and k = 128 since stop 66, k > 4096 below 512 columns to the plain entry
    // (H100, bf16, us against the split-K or 64 x 64 ping-pong tile auto took before; cuBLAS 10.3,
    // 6.5, 7.3, 10.5, 5.6).
    EXPECT_EQ(choice(d, 16, 512, 4096, Op::N, Op::N), cluster_k);  // 8.3 against 11.3
    EXPECT_EQ(choice(d, 16, 4096, 256, Op::N, Op::N), cluster_k);  // 6.7 against 8.1
    EXPECT_EQ(choice(d, 16, 256, 1024, Op::N, Op::N), cluster_k);  // 7.7 against 8.7
    EXPECT_EQ(choice(d, 16, 256, 8192, Op::N, Op::N), skinny);     // 9.8 against 11.7 (.clusterk 10.6)
    EXPECT_EQ(choice(d, 16, 128, 128, Op::T, Op::N), cluster_k);   // 5.6 against 6.5
    EXPECT_EQ(choice(d, 16, 64, 4096, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);    // not measured
    EXPECT_EQ(choice(d, 16, 256, 16384, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);  // not measured
    EXPECT_EQ(choice(d, 16, 1024, 64, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);    // not measured
    EXPECT_EQ(choice(d, 11008, 16, 4096, Op::T, Op::N), skinny);  // PyTorch's decode step
    EXPECT_EQ(choice(d, 4096, 16, 4096, Op::T, Op::N), cluster_k);
    EXPECT_EQ(choice(d, 1, 14336, 4096, Op::T, Op::N), skinny);  // a vector (NN's lda = 1 is not 16-byte aligned)
    EXPECT_EQ(choice(d, 16, 3072, 2048, Op::N, Op::N), cluster_k);  // wgmma's before (13.1 against 10.4 us)
    EXPECT_EQ(choice(d, 32, 11008, 4096, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
    // Without clusters (Ampere), the plain entry.
    EXPECT_EQ(auto_choice(typed_problem(d, 16, 4096, 4096, Op::N, Op::T), ampere_device()), skinny);
    // Short products in every layout: at most 32 rows, 1024-2048 columns, k = 2048-8192 (H100,
    // stop 49: 1.02-1.31x faster than wgmma's split-K; 24 x 2048 x 4096 TN 13.9 against 16.0 us).
    EXPECT_EQ(choice(d, 16, 2048, 4096, Op::N, Op::N), cluster_k);
    EXPECT_EQ(choice(d, 24, 1024, 2048, Op::N, Op::T), skinny);
    EXPECT_EQ(choice(d, 32, 2048, 2048, Op::T, Op::N), skinny);  // k >= 4096: the 32-row tile since stop 52
    EXPECT_EQ(choice(d, 2048, 24, 4096, Op::N, Op::N), skinny);  // transposed: 24 columns
    EXPECT_EQ(choice(d, 24, 2048, 1024, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
    EXPECT_EQ(choice(d, 48, 2048, 4096, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
    // Two row tiles (17-32 rows) in TT with 2048-8192 columns and k >= 4096 (H100, stop 49:
    // 1.03-1.19x faster than wgmma; 24 x 4096 x 4096 18.9 against 21.1 us).
    EXPECT_EQ(choice(d, 24, 4096, 4096, Op::T, Op::T), skinny);
    EXPECT_EQ(choice(d, 17, 2048, 8192, Op::T, Op::T), skinny);
    EXPECT_EQ(choice(d, 32, 8192, 4096, Op::T, Op::T), skinny);
    // Not at n = 11008 (H200: 37.7 against 31.3 on the 64 x 128 tile), nor in TN (lost from
    // n = 6144 on), nor NN with 24 columns (its transposed form; lost at 4096 rows).
    EXPECT_EQ(choice(d, 24, 11008, 4096, Op::T, Op::T).rfind("skinny_mma", 0), std::string::npos);
    EXPECT_EQ(choice(d, 24, 6144, 4096, Op::T, Op::N).rfind("skinny_mma", 0), std::string::npos);
    EXPECT_EQ(choice(d, 4096, 24, 4096, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
    EXPECT_EQ(choice(d, 40, 4096, 4096, Op::T, Op::T).rfind("skinny_mma", 0), std::string::npos);
    // Odd leading dimensions go to its entry that reads them element by element.
    tilemm::GemmProblem odd = problem_of_dtype(d);
    odd.m = 16;
    odd.n = 11008;
    odd.k = odd.lda = odd.ldb = 4093;
    odd.ldc = 16;
    EXPECT_EQ(auto_choice(odd), "skinny_mma." + d + ".16x64x128.w4.s2.ldg2");
    // Two rows in NN (lda = 2, so A's columns are 4 bytes apart) go to an entry that reads A
    // element by element, never to mma_sync's 128 x 128 tile (which took the row vector 1 x
    // 2048 x 11008 in 598 us, cuBLAS 18.4): H200, 2 x 2048 x 4096 NN 12.4 us with B through
    // the ring (`.ldgshort`), 15.0 with both operands by element loads (`.ldg2`), cuBLAS 16.0.
    EXPECT_EQ(choice(d, 2, 2048, 4096, Op::N, Op::N), "skinny_mma." + d + ".16x64x128.w4.s4.clusterk.ldgshort");
    // A row vector in NN: the C API's auto reads it K-major (vectors_read_k_major), TN's choice.
    EXPECT_EQ(auto_choice(tilemm::vectors_read_k_major(typed_problem(d, 1, 2048, 11008, Op::N, Op::N))),
              skinny + ".clusterk");
  }
  EXPECT_EQ(choice("tf32", 16, 11008, 4096, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
}

TEST(Registry, AutoTakesSeventeenToThirtyTwoRowsInOneClusterTile) {
  // 17-32 rows (oriented), 2049-3584 columns, k = 2048-8192: the 32-row `.clusterk` tile reads
  // the long operand once where two 16-row tiles read it twice. H200, stop 51, bf16, us per
  // run against auto's previous choice (cuBLAS), docs/results/h200_skinny_32_rows.txt.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  for (const std::string d : {"bf16", "fp16"}) {
    const std::string tile32 = "skinny_mma." + d + ".32x64x128.w4.s4.clusterk";
    EXPECT_EQ(choice(d, 24, 3072, 2048, Op::N, Op::N), tile32);  // 12.5 against 15.2 (10.1)
    EXPECT_EQ(choice(d, 24, 3072, 4096, Op::N, Op::N), tile32);  // 17.2 against 18.3 (15.9)
    EXPECT_EQ(choice(d, 17, 3584, 2048, Op::T, Op::N), tile32);  // 11.6 against 14.1 (26.2)
    EXPECT_EQ(choice(d, 32, 2560, 8192, Op::T, Op::T), tile32);  // 18.9 against 19.5 (18.5)
    EXPECT_EQ(choice(d, 32, 3584, 4096, Op::N, Op::T), tile32);  // 15.1 against 17.5 (15.6)
    // 2048 columns from k = 4096, but in TT (stop 52).
    EXPECT_EQ(choice(d, 32, 2048, 8192, Op::N, Op::N), tile32);  // 17.9 against 21.1 (16.5)
    EXPECT_EQ(choice(d, 24, 2048, 4096, Op::T, Op::N), tile32);  // 13.1 against 13.5 (13.1)
    // Outside: 2048 columns in TT or with k = 2048 (the 16-row tiles did as well or better),
    // 4096 (lost at k = 8192), k = 1024, more than 32 rows, and Ampere (no clusters).
    EXPECT_NE(choice(d, 24, 2048, 4096, Op::T, Op::T), tile32);
    EXPECT_NE(choice(d, 24, 2048, 2048, Op::N, Op::N), tile32);
    EXPECT_NE(choice(d, 24, 4096, 8192, Op::N, Op::N), tile32);
    EXPECT_NE(choice(d, 24, 3072, 1024, Op::N, Op::N), tile32);
    EXPECT_NE(choice(d, 40, 3072, 4096, Op::N, Op::N), tile32);
    EXPECT_NE(auto_choice(typed_problem(d, 24, 3072, 4096, Op::N, Op::N), ampere_device()), tile32);
  }
}

TEST(Registry, AutoReadsTheUnreadableShortOperandOfFewRowProductsByElements) {
  // A short operand the 16-byte copies cannot read (NN with lda = m, m not a multiple of 8)
  // and a readable long one: a `.clusterk` tile streams the long one through its ring and
  // reads the short one element by element (`.ldgshort`). H200, stop 52, bf16, us per run
  // against auto's choice before, the `.repack` entries (the short operand copied first) or
  // the `.ldg2` one (cuBLAS), docs/results/h200_short_operand_by_elements.txt.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  for (const std::string d : {"bf16", "fp16"}) {
    const std::string rows16 = "skinny_mma." + d + ".16x64x128.w4.s4.clusterk.ldgshort";
    const std::string rows32 = "skinny_mma." + d + ".32x64x128.w4.s4.clusterk.ldgshort";
    const std::string ldg2 = "skinny_mma." + d + ".16x64x128.w4.s2.ldg2";
    EXPECT_EQ(choice(d, 20, 4096, 8192, Op::N, Op::N), rows32);  // 34.7 against the copy's 39.6 (34.3)
    EXPECT_EQ(choice(d, 20, 2048, 4096, Op::N, Op::N), rows32);  // 14.8 against the copy's 18.8 (16.9)
    EXPECT_EQ(choice(d, 28, 8192, 2048, Op::N, Op::T), rows32);  // 19.3 against the copy's 20.9 (22.4)
    EXPECT_EQ(choice(d, 8192, 20, 4096, Op::T, Op::T), rows32);  // 20 columns: 29.3 against the copy's 35.7 (33.1)
    EXPECT_EQ(choice(d, 12, 4096, 4096, Op::N, Op::N), rows16);  // 17.6 against the copy's 21.0 (23.0)
    EXPECT_EQ(choice(d, 2, 8192, 8192, Op::N, Op::T), rows16);   // 39.2 against the copy's 48.3 (50.6)
    EXPECT_EQ(choice(d, 12, 1024, 4096, Op::N, Op::N), rows16);  // 10.1 against `.ldg2` 12.2 (13.6)
    // 17-32 rows with k <= 2048 and at most 4096 columns: two 16-row tiles, more CTAs.
    EXPECT_EQ(choice(d, 28, 4096, 2048, Op::N, Op::N), rows16);  // 15.6 against the 32-row tile's 16.7 (17.3)
    EXPECT_EQ(choice(d, 20, 1024, 2048, Op::N, Op::T), rows16);  // 9.3 against `.ldg2` 11.8 (11.2)
    EXPECT_EQ(choice(d, 20, 8192, 2048, Op::N, Op::N), rows32);  // 19.7 against 20.2 for two tiles (23.9)
    // 25-32 rows against a long operand of more than 4096 x 8192 elements, read by 2-byte loads
    // (odd lda): the copy still pays. With lda = 28 the 8-byte loads win, and at 4096 x 8192
    // elements the element loads.
    const std::string copied32 = "skinny_mma." + d + ".32x64x128.w4.s4.clusterk.repack";
    EXPECT_EQ(choice(d, 25, 11008, 8192, Op::N, Op::T), copied32);  // 62.2 against `.ldgshort` 72.1 (128.0)
    EXPECT_EQ(choice(d, 25, 6144, 8192, Op::N, Op::N), copied32);   // 46.6 against 46.9 (107.1)
    EXPECT_EQ(choice(d, 28, 8192, 8192, Op::N, Op::N), rows32);     // 45.3 against the copy's 47.8 (57.5)
    EXPECT_EQ(choice(d, 8192, 25, 4096, Op::N, Op::T), rows32);     // 26.0 against the copy's 28.9 (59.4)
    EXPECT_EQ(choice(d, 19, 11008, 8192, Op::N, Op::N), rows32);    // 19 rows: 79.0 against the copy's 82.0 (172.6)
    EXPECT_EQ(choice(d, 25, 6144, 3072, Op::N, Op::T), rows32);     // below 4096 x 8192: 21.5 against 23.7 (38.8)
    // Both operands unreadable (the long one would be read element by element too), 33 rows,
    // and Ampere (the `.ldgshort` tiles sum their k-slices in clusters).
    tilemm::GemmProblem both = typed_problem(d, 20, 4096, 4093, Op::N, Op::N);
    EXPECT_EQ(auto_choice(both), ldg2);
    EXPECT_EQ(choice(d, 33, 4096, 8192, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
    EXPECT_EQ(auto_choice(typed_problem(d, 20, 4096, 8192, Op::N, Op::N), ampere_device()), ldg2);
  }
}

TEST(Registry, AutoCopiesUnreadableOperandsOfFewRowProductsOntoSixtyFourRowTiles) {
  // 33-64 rows (or columns) with an operand the TMA cannot read: wgmma's 64-row tiles with
  // repacking, as auto picks them in place, instead of the 256 x 128 tile with repacking; since
  // stop 62 also more rows where the 256 x 128 tile's CTAs leave half the SMs idle.
  // H200, stop 51, bf16, us per run against the 256 x 128 `.repack` entry (cuBLAS),
  // docs/results/h200_skinny_32_rows.txt, run 6.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  for (const std::string d : {"bf16", "fp16"}) {
    const std::string staged = "wgmma." + d + ".64x128x64.s8.persistent.tmastore.repack";
    const std::string pingpong = "wgmma." + d + ".64x64x64.s12.persistent.tmastore.pingpong.repack";
    const std::string split_k = "wgmma." + d + ".64x128x64.s8.persistent.splitk.repack";
    const std::string wide = "wgmma." + d + ".256x128x64.s4.persistent.c2.tmastore.repack";
    EXPECT_EQ(choice(d, 36, 4096, 4096, Op::N, Op::N), split_k);    // 23.0 against 56.4 (25.2)
    // 128 ping-pong tiles with A's copy off 128-byte lines (ld 48): the 64 x 128 tile since stop
    // 64 (H100, bf16 35.7 against 37.5 on the ping-pong tile, cuBLAS 38.6).
    EXPECT_EQ(choice(d, 44, 8192, 4096, Op::N, Op::N), staged);
    EXPECT_EQ(choice(d, 60, 11008, 4096, Op::N, Op::T), staged);    // 37.6 against 94.9 (43.6)
    EXPECT_EQ(choice(d, 4093, 36, 4096, Op::N, Op::N), pingpong);   // lda = 4093: 40.5 against 71.0 (43.8)
    EXPECT_EQ(choice(d, 1001, 1001, 1001, Op::N, Op::N), staged);   // 19.3 against 29.6 (30.8)
    // Larger products keep the 256 x 128 tile where its CTAs keep half the SMs busy: 2049^3 (128
    // CTAs) ran 90.6 us on the 64 x 128 one, 78.3 on it.
    EXPECT_EQ(choice(d, 2049, 2049, 2049, Op::N, Op::N), wide);
    EXPECT_EQ(choice(d, 4093, 4093, 4093, Op::N, Op::N), wide);
    // Fewer (stop 62, H100, us per run against the 256 x 128 tile's, cuBLAS;
    // docs/results/h100_short_k_smem_store_and_few_row_copies.txt, run 1): 22 CTAs at 100 x 2752,
    // 44 at 321 x 2752, 48 at 250 x 6000; 321 x 6000 (96 CTAs) keeps it (60.3 against 70.6).
    // Split-K since stop 64 (A's copy off lines): fp16 25.2 against 32.1 on the ping-pong tile.
    EXPECT_EQ(choice(d, 100, 2752, 4032, Op::N, Op::T), split_k);   // 53.4 on the 256 x 128 tile (24.7)
    EXPECT_EQ(choice(d, 321, 2752, 4032, Op::N, Op::N), staged);    // fp16 34.1 against 53.8 (86.2)
    EXPECT_EQ(choice(d, 250, 6000, 2048, Op::N, Op::N), staged);    // fp16 25.8 against 35.4 (46.0)
    EXPECT_EQ(choice(d, 161, 1024, 8192, Op::N, Op::T), split_k);   // fp16 30.2 against 93.3 (42.4)
    EXPECT_EQ(choice(d, 321, 6000, 4032, Op::N, Op::N), wide);
    // Since stop 63 the copying split-K tile is scored by its time, as split-K in place (H100, us
    // per run against the previous pick, cuBLAS; docs/results/h100_vector_bounds_and_few_row_copies.txt).
    EXPECT_EQ(choice(d, 100, 2752, 8192, Op::N, Op::N), split_k);   // bf16 38.2 against 55.6 (37.7)
    EXPECT_EQ(choice(d, 161, 1024, 1001, Op::T, Op::N), pingpong);  // bf16 14.1 against 19.4 (16.8)
  }
  // tf32 counts the 256 x 128 tile's CTAs too since stop 63 (it kept the bound, which gave these
  // to wgmma_rs's 128 x 256 copying tile or, in TN, the cluster tile): us per run against that
  // pick (cuBLAS), same results file, runs 1 and 2.
  const std::string tf32_split_k = "wgmma.tf32.64x128x32.s8.persistent.splitk.repack";
  const std::string tf32_staged = "wgmma.tf32.64x128x32.s8.persistent.tmastore.repack";
  const std::string tf32_pingpong = "wgmma.tf32.64x64x32.s12.persistent.tmastore.pingpong.repack";
  EXPECT_EQ(choice("tf32", 161, 1024, 8191, Op::N, Op::N), tf32_split_k);   // 61.4 against 191.5 (47.9)
  EXPECT_EQ(choice("tf32", 321, 2752, 2048, Op::N, Op::N), tf32_staged);    // 30.0 against 57.2 (48.8)
  EXPECT_EQ(choice("tf32", 500, 1000, 4093, Op::T, Op::N), tf32_pingpong);  // 44.9 against 101.3 (50.4)
  // Where the cluster tile's CTAs fill half the SMs, as before: 321 x 6000 (94 CTAs).
  EXPECT_EQ(choice("tf32", 321, 6000, 8191, Op::N, Op::N), "wgmma_rs.tf32.128x256x32.s4.persistent.tmastore.repack");
}

TEST(Registry, AutoCopiesUnreadableOperandsOfSmallProducts) {
  // Products under 2 * 512^3 FLOP with an operand the TMA cannot read: the tensor-core `.repack`
  // entries from k = 64 on, where mma_sync's scalar-load 128 x 128 tiles (the only other
  // choice) walk k at ~50 ns per element. H200, stop 54, us per run, auto's new pick against
  // its pick before (cuBLAS), docs/results/h200_small_odd_ld.txt, run 2.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  const std::string pingpong = ".64x64x64.s12.persistent.tmastore.pingpong.repack";
  // (bf16 33 x 1024 x 1024 NN and 1024 x 33 x 1024 NT: 16 tiles x 8 round trips cut across
  // clusters since stop 58; fp16 36 x 512 x 2048 and bf16 60 x 3072 x 512, whose operands take
  // 8-byte loads, since stop 59: AutoCutsLongKAcrossAClusterForFewTiles.)
  EXPECT_EQ(choice("bf16", 511, 511, 511, Op::T, Op::N), "wgmma.bf16" + pingpong);   // 11.4 against 15.8 on `.ahead`
  // tf32 on the same tiles with repacking (A transposed in NN), also above 2 * 512^3 FLOP.
  const std::string tf32_split_k = "wgmma.tf32.64x128x32.s8.persistent.splitk.repack";
  // (33 x 1024 x 1024 NN: 16 tiles of 64 x 64, its 8 round trips cut across clusters since stop 57,
  // 12.2 against 13.2 for this split-K tile, cuBLAS 11.8; AutoCutsLongKAcrossAClusterForFewTiles.)
  EXPECT_EQ(choice("tf32", 33, 1024, 1024, Op::N, Op::N), "mma_sync.tf32.64x64x32.w32x16.s5.ldg4.ahead.clusterk");
  EXPECT_EQ(choice("tf32", 33, 4096, 4096, Op::N, Op::N), tf32_split_k);  // 29.6 against 91.8 (38.5)
  EXPECT_EQ(choice("tf32", 4093, 33, 4096, Op::N, Op::N),
            "wgmma.tf32.64x64x32.s12.persistent.tmastore.pingpong.repack");  // 70.0 against 118.9 (39.6)
  // Where the TMA reads both operands, tf32 keeps wgmma_rs in place.
  EXPECT_EQ(choice("tf32", 44, 1024, 1024, Op::N, Op::N), "wgmma_rs.tf32.128x64x32.s8.persistent.tmastore.splitk");
  // Smaller products (k <= 256, at most one tile of 64 x 64 per SM; tf32 NT k <= 128) go to
  // mma_sync's `.ahead` tile (the next test), longer k on few tiles to `.ahead.clusterk`
  // (AutoCutsLongKAcrossAClusterForFewTiles); just past those bounds, the copies: 144 tiles,
  // and tf32 TN 511^2 x 1535, whose 64 tiles hold two slices of six round trips.
  EXPECT_EQ(choice("bf16", 513, 1024, 255, Op::N, Op::N), "wgmma.bf16.64x128x64.s8.persistent.tmastore.repack");
  EXPECT_EQ(choice("tf32", 511, 511, 1535, Op::T, Op::N).find("mma_sync"), std::string::npos);
}

TEST(Registry, AutoTakesTheAheadTileForSmallProducts) {
  // mma_sync's `.ahead` tile (64 x 64, 4 k-tiles of element loads in flight), H200, stop 56,
  // us per run against auto's pick before (cuBLAS), docs/results/h200_small_products_ahead.txt.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  const std::string ahead16 = ".64x64x32.w32x16.s5.ldg2.ahead";
  const std::string ahead32 = "mma_sync.tf32.64x64x32.w32x16.s5.ldg4.ahead";
  // An operand the TMA cannot read, k <= 256, one wave: in place of the copies.
  EXPECT_EQ(choice("bf16", 100, 100, 100, Op::N, Op::N), "mma_sync.bf16" + ahead16);   // 6.6 against 9.6 (6.1)
  EXPECT_EQ(choice("bf16", 511, 511, 127, Op::N, Op::N), "mma_sync.bf16" + ahead16);   // 8.0 against 10.3 (10.7)
  EXPECT_EQ(choice("fp16", 703, 511, 255, Op::N, Op::N), "mma_sync.fp16" + ahead16);   // 10.5 against 11.0 (11.8)
  EXPECT_EQ(choice("tf32", 255, 255, 127, Op::N, Op::T), ahead32);                     // 9.8 against 15.2 (7.5)
  EXPECT_EQ(choice("tf32", 1023, 511, 255, Op::T, Op::T), ahead32);  // 128 tiles: no room to cut k
  // The bounds: k = 256 (stop 57: bf16 100 x 511 x 256 NN 8.5 against 10.6 copied), one tile per
  // SM (bf16 512 x 1024 x 255, 128 tiles, 10.3 against 10.2, a tie; 4097 x 127 x 127, 130 tiles,
  // 8.6 against 11.2); tf32 NT to k = 128, TN to 256 (stop 57: 255 x 511 x 255 10.9 against 11.5;
  // since stop 58 cut across a cluster from k = 193 where the slices fit one wave); 16-bit
  // operands that both take 8-byte loads to k = 384 (stop 58: bf16 500^2 x 300 NN 9.2 against 10.6
  // copied; since stop 59 those 64 tiles are cut across clusters, two slices each, and `.ahead`
  // keeps the reach where two slices a tile do not fit one wave: 67-132 tiles); below k = 193,
  // `.ahead` rather than the cluster (stop 58: bf16 127 x 196 x 160 8.5 against 8.9, on 8-byte
  // loads below 257: 100 x 196 x 200 7.9 against 8.6).
  EXPECT_EQ(choice("bf16", 100, 511, 256, Op::N, Op::N), "mma_sync.bf16" + ahead16);
  EXPECT_EQ(choice("bf16", 4097, 127, 127, Op::N, Op::N), "mma_sync.bf16" + ahead16);
  EXPECT_EQ(choice("bf16", 512, 1024, 255, Op::N, Op::N), "mma_sync.bf16" + ahead16);
  EXPECT_EQ(choice("tf32", 255, 511, 127, Op::T, Op::N), ahead32);
  EXPECT_EQ(choice("tf32", 1023, 511, 255, Op::N, Op::N), ahead32);
  EXPECT_EQ(choice("bf16", 500, 600, 300, Op::N, Op::N), "mma_sync.bf16" + ahead16);
  EXPECT_EQ(choice("bf16", 508, 600, 384, Op::N, Op::N), "mma_sync.bf16" + ahead16);
  EXPECT_EQ(choice("bf16", 508, 600, 388, Op::N, Op::N).find(".ahead"), std::string::npos);
  // Past 2 * 512^3 FLOP too (stop 59, H100: bf16 500 x 1000 x 300 10.0 against 11.6 copied).
  EXPECT_EQ(choice("bf16", 500, 1000, 300, Op::N, Op::N), "mma_sync.bf16" + ahead16);
  EXPECT_EQ(choice("bf16", 501, 500, 300, Op::N, Op::N).find(".ahead"), std::string::npos);  // 2-byte loads
  EXPECT_EQ(choice("bf16", 127, 196, 160, Op::N, Op::N), "mma_sync.bf16" + ahead16);
  EXPECT_EQ(choice("bf16", 100, 196, 200, Op::N, Op::N), "mma_sync.bf16" + ahead16);
  // ... and in place of the 128 x 128 scalar-load tile, within two waves.
  EXPECT_EQ(choice("bf16", 33, 511, 16, Op::N, Op::N), "mma_sync.bf16" + ahead16);     // 5.7 against 7.7 (9.0)
  EXPECT_EQ(choice("tf32", 255, 33, 16, Op::N, Op::N), ahead32);                       // 5.8 against 7.7 (6.3)
  // (bf16 1001^2 x 16, 8.7 against 10.0, and 2049 x 1024 x 16, 4 waves, on the 128 x 128 tile:
  // since stop 62 `.smemstore`'s, AutoStoresShortKProductsThroughSharedMemory.)
  // Operands the TMA reads, k <= 32, more than 32 rows and columns, one wave: in place of
  // wgmma's tiles (bf16 128 x 256 x 16 TN 6.0 against 6.2, tf32 64 x 64 x 32 NN 6.0 against 6.6).
  EXPECT_EQ(choice("bf16", 128, 256, 16, Op::T, Op::N), "mma_sync.bf16" + ahead16);
  EXPECT_EQ(choice("tf32", 64, 64, 32, Op::N, Op::N), ahead32);
  EXPECT_EQ(choice("bf16", 128, 256, 64, Op::T, Op::N), "wgmma.bf16.64x64x64.s12.persistent.tmastore.pingpong");
  EXPECT_EQ(choice("bf16", 32, 4096, 32, Op::N, Op::N).find(".ahead"), std::string::npos);  // the few-row rules
  EXPECT_EQ(choice("bf16", 2048, 2048, 32, Op::N, Op::N).find(".ahead"), std::string::npos);  // 1024 tiles
}

TEST(Registry, AutoStoresShortKProductsThroughSharedMemory) {
  // k of one k-tile (32, tf32 16), more than 32 rows and columns, an operand the TMA cannot
  // read, the copies standing aside, past one wave of `.ahead` tiles: mma_sync's 64 x 128
  // `.smemstore` tile, which writes C through shared memory as whole columns from three blocks
  // per SM. H100, stop 62, us per run against auto's pick before (cuBLAS),
  // docs/results/h100_short_k_smem_store_and_few_row_copies.txt, run 1.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  const std::string stored16 = ".64x128x32.w32x64.s2.ldg2.smemstore";
  const std::string stored32 = "mma_sync.tf32.64x128x16.w32x64.s2.ldg4.smemstore";
  EXPECT_EQ(choice("fp16", 2560, 1665, 1, Op::N, Op::N), "mma_sync.fp16" + stored16);  // 11.8 against 18.8 (12.9)
  EXPECT_EQ(choice("fp16", 1024, 3382, 6, Op::T, Op::N), "mma_sync.fp16" + stored16);  // 11.4 against 16.6 (9.1)
  EXPECT_EQ(choice("tf32", 2951, 1541, 10, Op::N, Op::T), stored32);                   // 19.5 against 30.5 (14.6)
  EXPECT_EQ(choice("bf16", 4096, 4096, 1, Op::N, Op::N), "mma_sync.bf16" + stored16);  // 26.6 against 48.7 (31.5)
  EXPECT_EQ(choice("bf16", 5473, 1475, 16, Op::N, Op::N), "mma_sync.bf16" + stored16);  // odd ldc: 29.2 against 32.3 (19.4)
  EXPECT_EQ(choice("bf16", 1000, 1024, 1, Op::T, Op::N), "mma_sync.bf16" + stored16);  // 7.3 against 8.0 on `.ahead` (7.1)
  EXPECT_EQ(choice("tf32", 4096, 4096, 1, Op::N, Op::N), stored32);                    // 28.5 against 38.9 (30.7)
  // Not timed on this tile: bf16 1001^2 x 16 (two waves of `.ahead` tiles, 8.7 us there on an H200)
  // and 2049 x 1024 x 16 (the 128 x 128 element-load tile before, which every measured short-k
  // product ran 1.1-1.9x slower than this one).
  EXPECT_EQ(choice("bf16", 1001, 1001, 16, Op::N, Op::N), "mma_sync.bf16" + stored16);
  EXPECT_EQ(choice("bf16", 2049, 1024, 16, Op::N, Op::N), "mma_sync.bf16" + stored16);
  // The bounds. Operands the TMA reads: wgmma's tiles (bf16 4096^2 x 16 NN 20.0 on the staged
  // 128 x 128 tile against 28.5 here, cuBLAS 19.6).
  EXPECT_EQ(choice("bf16", 4096, 4096, 16, Op::N, Op::N).rfind("wgmma", 0), 0u);
  // k past one k-tile; the copies taking the product (5473 x 4096 x 16: 55.4 us copied against
  // 63.8 here); one wave of `.ahead` tiles (its short-k rule); 32 rows (the few-row rules); Ampere.
  EXPECT_EQ(choice("bf16", 1024, 4096, 33, Op::T, Op::N).find(".smemstore"), std::string::npos);
  EXPECT_EQ(choice("tf32", 2951, 1541, 17, Op::N, Op::T).find(".smemstore"), std::string::npos);
  EXPECT_EQ(choice("bf16", 5473, 4096, 16, Op::N, Op::N).find(".smemstore"), std::string::npos);
  EXPECT_EQ(choice("bf16", 33, 511, 16, Op::N, Op::N), "mma_sync.bf16.64x64x32.w32x16.s5.ldg2.ahead");
  EXPECT_EQ(choice("bf16", 32, 4096, 1, Op::N, Op::N).find(".smemstore"), std::string::npos);
  EXPECT_EQ(auto_choice(typed_problem("bf16", 4096, 4096, 1, Op::N, Op::N), ampere_device()).find(".smemstore"),
            std::string::npos);
}

TEST(Registry, AutoTakesTheAheadTileForTwoWavesWhereTheCopiesCostMore) {
  // Two waves of `.ahead` tiles (129-256 of 64 x 64), 16-bit operands the TMA cannot read,
  // k <= 128: in place of the copies where both operands take 8-byte loads or the copies
  // move 2 MiB and more. H200, stop 57, us per run against the copying tile's,
  // docs/results/h200_small_products_ahead.txt, run 7.
  using tilemm::Op;
  const std::string ahead = "mma_sync.bf16.64x64x32.w32x16.s5.ldg2.ahead";
  const std::string copied = "wgmma.bf16.64x128x64.s8.persistent.tmastore.repack";
  const auto batched = [](std::int64_t count, std::int64_t size) {
    return auto_choice(batched_problem("bf16", count, size, size, size, Op::N, Op::N));
  };
  EXPECT_EQ(typed_auto_choice("bf16", 1004, 1004, 100, Op::T, Op::N), ahead);  // 9.3 against 11.3
  EXPECT_EQ(typed_auto_choice("bf16", 1004, 1004, 124, Op::N, Op::N), ahead);  // 10.6 against 11.0
  EXPECT_EQ(typed_auto_choice("fp16", 2044, 508, 100, Op::T, Op::N), "mma_sync.fp16.64x64x32.w32x16.s5.ldg2.ahead");
  EXPECT_EQ(batched(40, 127), ahead);  // 2.6 MB of copies: 12.4 against 13.7
  EXPECT_EQ(batched(64, 100), ahead);  // 10.5 against 15.1
  // Copied: 2-byte loads and 0.5 MB (12.4 against 10.9); k past one round trip (8-byte
  // loads, 12.7 against 12.4; 255^3 x 9, 16.4 against 12.4); beyond two waves (2044 x 1004,
  // NN 16.1 against 14.3); tf32 (127^3 x 40 TN, 14.1 against 14.1).
  EXPECT_EQ(typed_auto_choice("bf16", 1001, 1001, 127, Op::N, Op::N), copied);
  EXPECT_EQ(typed_auto_choice("bf16", 1004, 1004, 196, Op::N, Op::N), copied);
  EXPECT_EQ(batched(9, 255), copied);
  EXPECT_EQ(typed_auto_choice("bf16", 2044, 1004, 100, Op::N, Op::N), copied);
  EXPECT_EQ(auto_choice(batched_problem("tf32", 40, 127, 127, 127, Op::T, Op::N)).find(".ahead"), std::string::npos);
}

TEST(Registry, AutoCutsLongKAcrossAClusterForFewTiles) {
  // `.ahead.clusterk`: k past 192 (tf32 NT 128, 16-bit operands on 8-byte loads 256), one slice
  // per 128 of k, at most 8, every slice of every tile in one wave (since stop 59 also fewer
  // slices, each of a few round trips), operands the TMA cannot read. us per run against auto's
  // pick before: H200, docs/results/h200_small_products_ahead.txt, runs 9 and 10 (stop 57) and
  // 14-16 (stop 58, the sums moved by bulk copies); H100, docs/results/h100_cluster_k_trips.txt
  // (stop 59).
  using tilemm::Op;
  struct Product {
    const char* dtype;
    std::int64_t m, n, k;
    Op opa, opb;
  };
  const auto cluster_entry = [](const std::string& dtype) {
    return "mma_sync." + dtype + ".64x64x32.w32x16.s5." + (dtype == "tf32" ? "ldg4" : "ldg2") + ".ahead.clusterk";
  };
  const auto describe = [](const Product& q) {
    return std::string(q.dtype) + " " + std::to_string(q.m) + " x " + std::to_string(q.n) + " x " +
           std::to_string(q.k) + " " + tilemm::op_code(q.opa, q.opb);
  };
  const auto expect_cut = [&](std::initializer_list<Product> products) {
    for (const Product& q : products)
      EXPECT_EQ(typed_auto_choice(q.dtype, q.m, q.n, q.k, q.opa, q.opb), cluster_entry(q.dtype)) << describe(q);
  };
  const auto expect_not_cut = [&](std::initializer_list<Product> products) {
    for (const Product& q : products)
      EXPECT_EQ(typed_auto_choice(q.dtype, q.m, q.n, q.k, q.opa, q.opb).find(".clusterk"), std::string::npos)
          << describe(q);
  };
  // Stop 57 (H200): bf16 127^2 x 1023 9.5 / 13.7, 255^2 x 511 TN 10.1 / 11.4, fp16 255^2 x 512
  // 10.3 / 11.8, tf32 383^3 10.5 / 16.1, 255^3 NT 11.4 / 16.2, 255^2 x 1023 TN 12.4 / 15.2.
  expect_cut({{"bf16", 127, 127, 1023, Op::N, Op::N},
              {"bf16", 255, 255, 511, Op::T, Op::N},
              {"fp16", 255, 255, 512, Op::N, Op::N},
              {"tf32", 383, 383, 383, Op::N, Op::N},
              {"tf32", 255, 255, 255, Op::N, Op::T},
              {"tf32", 255, 255, 1023, Op::T, Op::N}});
  // Stop 58: from k = 193 (tf32 255 x 511 x 200 NN 10.3 against `.ahead`'s 10.9, 255 x 511 x 255
  // TN 10.3 against 10.9; bf16 255^3 on 2-byte loads, like 255 x 196 x 256 9.8 against 10.8),
  // from k = 257 on 8-byte loads (bf16 100^2 x 260 8.1 against 8.5), and on a whole wave for
  // 16-bit operands too (196 x 500 x 512, 32 tiles x 4 slices, 9.5 against 11.2 copied; 300 x 500
  // x 380, 40 x 3, 9.5 against 10.8; 255^2 x 1023, 16 x 8, 11.4 against 14.4). What the wave
  // costs: 32 x 4 on 2-byte loads ran 11.6-11.8 against 11.4 copied (255 x 500-511 x 512). Off the
  // split-K copying tile (run 18): 33 x 1024 x 1024 NN 12.6 -> 11.6 us (cuBLAS 12.7-12.9), 1024 x
  // 33 x 1024 NT 11.9 -> 10.6 (cuBLAS 13.7).
  expect_cut({{"tf32", 255, 511, 200, Op::N, Op::N},
              {"tf32", 255, 511, 255, Op::T, Op::N},
              {"bf16", 255, 255, 255, Op::N, Op::N},
              {"bf16", 255, 255, 255, Op::T, Op::N},
              {"bf16", 100, 100, 260, Op::N, Op::N},
              {"bf16", 196, 500, 512, Op::N, Op::N},
              {"bf16", 300, 500, 380, Op::N, Op::N},
              {"bf16", 255, 255, 1023, Op::N, Op::N},
              {"bf16", 255, 511, 512, Op::N, Op::N},
              {"bf16", 33, 1024, 1024, Op::N, Op::N},
              {"bf16", 1024, 33, 1024, Op::N, Op::T}});
  // Stop 59 (H100): where one wave holds fewer slices than round trips, slices of several trips,
  // against the copying tiles auto took: tf32 to 4 trips a slice (255 x 383 x 1023 NN, 24 tiles x
  // 5 slices, 12.8 against 22.7; 127 x 255 x 3071, 8 x 8, 15.8 against 22.9), tf32 NT to 3 (255 x
  // 383 x 767 13.6 against 22.2); 16-bit operands on 8-byte loads to 3 (196 x 300 x 2044, 20 x 6,
  // 12.6 against 15.2), on 2-byte loads to 3 where a tile holds 5 slices or more (255 x 383 x 1023
  // 12.5 against 15.9; 127 x 255 x 2047 12.6 against 16.2). Also on 8-byte loads with 48-64
  // tiles, two slices each, against the copying tiles and `.ahead`: fp16 36 x 512 x 2048 10.3
  // against 12.4 us (cuBLAS 10.8-11.3), bf16 60 x 3072 x 512 10.7 against 11.8 (11.3), 508^2 x 384
  // 9.7 against 10.6, 508^2 x 388 10.1 against 11.2. And past 2 * 512^3 FLOP (tf32 383 x 511 x
  // 1023 NN 19.3 against 24.6, 255 x 511 x 1535 19.5 against 26.2; bf16 300 x 500 x 1020 on 8-byte
  // loads 14.1 against 14.6).
  expect_cut({{"tf32", 255, 383, 1023, Op::N, Op::N},
              {"tf32", 127, 255, 3071, Op::N, Op::N},
              {"tf32", 255, 383, 767, Op::N, Op::T},
              {"bf16", 196, 300, 2044, Op::N, Op::N},
              {"bf16", 255, 383, 1023, Op::N, Op::N},
              {"bf16", 127, 127, 2047, Op::N, Op::N},
              {"fp16", 36, 512, 2048, Op::N, Op::N},
              {"bf16", 60, 3072, 512, Op::N, Op::N},
              {"bf16", 508, 508, 384, Op::N, Op::N},
              {"bf16", 508, 508, 388, Op::N, Op::N},
              {"tf32", 383, 511, 1023, Op::N, Op::N},
              {"tf32", 255, 511, 1535, Op::N, Op::N},
              {"bf16", 300, 500, 1020, Op::N, Op::N}});
  // Not: 2-byte loads with 2-4 slices a tile and more trips than slices (511^3, 64 tiles x 2:
  // 14.3 against 11.4 copied; 383 x 511 x 511, 48 x 2, 13.0 against 11.6; 255 x 511 x 767, 32 x 4,
  // 13.3 against 12.3); more than 3 trips a slice on 2-byte loads (127^2 x 4095: 32 trips on 8
  // slices); operands the TMA reads (256^2 x 512: wgmma 7.3 against 9.2); nor without clusters
  // (sm_80).
  expect_not_cut({{"bf16", 511, 511, 511, Op::N, Op::N},
                  {"bf16", 383, 511, 511, Op::N, Op::N},
                  {"bf16", 255, 511, 767, Op::N, Op::N},
                  {"bf16", 127, 127, 4095, Op::N, Op::N},
                  {"bf16", 256, 256, 512, Op::N, Op::N}});
  EXPECT_EQ(auto_choice(typed_problem("bf16", 127, 127, 1023, Op::N, Op::N), ampere_device()).find(".clusterk"),
            std::string::npos);
  // An empty product has no tiles to share the SMs among: not taken, and no division by zero.
  EXPECT_FALSE(tilemm::kernels::ahead_cluster_k_takes(typed_problem("bf16", 0, 127, 1023, Op::N, Op::N), 2, 132));
}

TEST(Registry, HopperEntriesRefuseStridesTheTmaCannotEncode) {
  // A tensor map's strides must stay below 2^40 bytes: 2^39 elements of 2 bytes, 2^38 of
  // 4. The tf32 wgmma entries used the 2-byte limit for every type, so lda = 2^38 floats
  // passed can_implement and failed at launch.
  const tilemm::DeviceInfo hopper = hopper_device();
  int checked = 0;
  for (const auto& e : tilemm::registry().entries()) {
    if (e.family != "wgmma" && e.family != "wgmma_rs") continue;
    for (const auto& d : e.dtype_list())
      for (tilemm::Op opa : {tilemm::Op::N, tilemm::Op::T}) {
        tilemm::GemmProblem p = problem_of_dtype(d);
        p.opa = opa;
        if (!e.can_implement(p, hopper).empty()) continue;  // a layout the entry does not take
        const std::int64_t limit = (std::int64_t(1) << 40) / tilemm::dtype_size(p.a_type);
        p.lda = limit - 8;
        EXPECT_EQ(e.can_implement(p, hopper), "") << e.name << " " << d << " lda " << p.lda;
        p.lda = limit;
        EXPECT_NE(e.can_implement(p, hopper), "") << e.name << " " << d << " lda " << p.lda;
        ++checked;
      }
  }
  EXPECT_GT(checked, 0);
}

TEST(Registry, AutoKeepsClustersOfTwoOffProductsWithFewColumns) {
  // A cluster of two 128-column tiles leaves one CTA idle when n <= 128 (a decode step's TN
  // form): measured on the H200, 13 of the 14 bf16/fp16/tf32 shapes whose choice this
  // changed ran 1.06-1.72x faster (not tf32 4096 x 16 x 4096, docs/ladder.md step 25).
  using tilemm::Op;
  const auto tn = [](const std::string& d, std::int64_t m, std::int64_t n) {
    return auto_choice(typed_problem(d, m, n, 4096, Op::T, Op::N));
  };
  EXPECT_EQ(tn("bf16", 11008, 128), "wgmma.bf16.128x128x64.s6.persistent.tmastore");
  // 128 tiles of 64 x 64 with a 12-stage ring: 18.6 us against 19.4 for 64 tiles of 64 x 128
  // and 21.6 for split-K (H200).
  EXPECT_EQ(tn("bf16", 4096, 128), "wgmma.bf16.64x64x64.s12.persistent.tmastore.pingpong");
  // Half as many rows: split-K's 128 work items win (16.2 against 16.9 and 18.4 us).
  EXPECT_EQ(tn("bf16", 2048, 128), "wgmma.bf16.64x128x64.s8.persistent.splitk");
  EXPECT_EQ(tn("tf32", 11008, 128), "wgmma.tf32.128x128x32.s6.persistent.tmastore");
  // Products with many columns keep the cluster.
  EXPECT_EQ(tn("bf16", 4096, 4096), "wgmma.bf16.256x128x64.s4.persistent.c2.tmastore");
}

TEST(Registry, AutoDoublesTheTilesWhere128RowTilesFillHalfTheGpu) {
  // Measured on the H200 (docs/ladder.md, "The 64-row tile without split-K"): where
  // 128 x 128 tiles keep about half of the 132 SMs busy, the staged 64 x 128 entry runs
  // twice the tiles; where they fill the GPU, the larger tile stays.
  const auto nn = [](const std::string& d, std::int64_t m, std::int64_t n, std::int64_t k) {
    return auto_choice(typed_problem(d, m, n, k));
  };
  // us in one run, the new entry against auto's previous choice.
  const std::string narrow = ".64x128x64.s8.persistent.tmastore";
  EXPECT_EQ(nn("bf16", 1024, 1024, 1024), "wgmma.bf16" + narrow);  // 10.1 against 13.0 (cuBLAS 9.6)
  EXPECT_EQ(nn("fp16", 1024, 1024, 1024), "wgmma.fp16" + narrow);  // 10.2 against 12.8
  // 30.8 against 37.5 (split-K); since stop 48 the same tile in clusters of four along n
  // (AutoSharesAInClustersOfFourForFewRows).
  EXPECT_EQ(nn("bf16", 32, 11008, 4096), "wgmma.bf16.64x128x64.s8.persistent.c4.tmastore");
  EXPECT_EQ(nn("bf16", 64, 14336, 4096), "wgmma.bf16" + narrow);   // 35.9 against 42.0 (128 x 128)
  EXPECT_EQ(nn("bf16", 32, 4096, 11008), "wgmma.bf16.64x128x64.s8.persistent.splitk");  // 30.8 against 44.7
  // The larger tiles stay where they fill the GPU (64 x 128: 34.4, 32.2, 37.5 us).
  // 2048^3 takes the ping-pong 128 x 128 tile since it landed (28.8 against 32.7 for the cluster entry).
  EXPECT_EQ(nn("bf16", 2048, 2048, 2048), "wgmma.bf16.128x128x64.s6.persistent.tmastore.pingpong");
  EXPECT_EQ(nn("bf16", 512, 4096, 4096), "wgmma.bf16.128x128x64.s6.persistent.tmastore");      // 29.2
  EXPECT_EQ(nn("bf16", 128, 11008, 4096), "wgmma.bf16.128x128x64.s6.persistent.tmastore");     // 31.2
}

// auto's pick for a product in its type's native layout: tf32 TN (what tf32 wgmma reads in
// place), 16-bit NN; each case names the wgmma entry it expects after "wgmma.<dtype>.".
struct NativeCase {
  const char* dtype;
  std::int64_t m, n, k;
  const char* entry;
};

void expect_native_choices(std::initializer_list<NativeCase> cases) {
  for (const NativeCase& c : cases) {
    const tilemm::Op opa = std::string(c.dtype) == "tf32" ? tilemm::Op::T : tilemm::Op::N;
    EXPECT_EQ(auto_choice(typed_problem(c.dtype, c.m, c.n, c.k, opa, tilemm::Op::N)),
              "wgmma." + std::string(c.dtype) + "." + c.entry)
        << c.dtype << " " << c.m << " x " << c.n << " x " << c.k;
  }
}

// The same for a product in any layout (leading dimensions at their minimum).
struct LayoutCase {
  const char* dtype;
  std::int64_t m, n, k;
  tilemm::Op opa, opb;
  const char* entry;
};

void expect_layout_choices(std::initializer_list<LayoutCase> cases) {
  for (const LayoutCase& c : cases) {
    EXPECT_EQ(auto_choice(typed_problem(c.dtype, c.m, c.n, c.k, c.opa, c.opb)),
              "wgmma." + std::string(c.dtype) + "." + c.entry)
        << c.dtype << " " << c.m << " x " << c.n << " x " << c.k;
  }
}

TEST(Registry, AutoTakesThreeConsumersWhere128RowTilesLeaveTheLastWaveEmpty) {
  // Measured on the H200 (docs/ladder.md, "three consumers, the 128 x 192 tile"), bf16,
  // us a product, 10 back to back: the 128 x 192 tile against auto's previous choice.
  expect_native_choices({
      {"bf16", 1536, 1536, 1536, "128x192x64.s4.persistent.tmastore"},  // 16.9 against 19.1 (64 x 128)
      {"fp16", 1536, 1536, 1536, "128x192x64.s4.persistent.tmastore"},
      {"bf16", 3072, 3072, 3072, "128x192x64.s4.persistent.tmastore"},  // 78.6 against 91.5 (stream-K)
      {"bf16", 256, 11008, 4096, "128x192x64.s4.persistent.tmastore"},  // 37.9 against 46.7 (64 x 128)
      // The 128 x 192 tile ran this one in 72.9 against 91.9 for stream-K; since the ping-pong
      // 128 x 128 tile landed, that one takes it (69.1 against 70.2).
      {"bf16", 512, 11008, 4096, "128x128x64.s6.persistent.tmastore.pingpong"},
      // Where the 256 x 128 cluster tiles or the 128 x 128 tiles fill their waves, they stay.
      {"bf16", 4096, 4096, 4096, "256x128x64.s4.persistent.c2.tmastore"},  // 209.6 against 236.4
      // 8192^3: the new tile ran 0.979-1.035x cuBLAS per run in three processes, the cluster
      // entry 1.015-1.019x: not a reliable gain.
      {"bf16", 8192, 8192, 8192, "256x128x64.s4.persistent.c2.tmastore"},
      {"bf16", 4096, 14336, 4096, "256x128x64.s4.persistent.c2.tmastore"},  // 721.8 against 732.3
      {"bf16", 256, 14336, 4096, "256x128x64.s4.persistent.c2.tmastore"},   // 53.6 against 77.8
      // 49.7 against 67.4; the ping-pong 128 x 128 tile now 50.0 against 51.4 (cooperative)
      {"bf16", 384, 11008, 4096, "128x128x64.s6.persistent.tmastore.pingpong"},
      {"bf16", 1000, 1000, 1000, "64x128x64.s8.persistent.c2m.tmastore"},   // 10.0 against 14.3
  });
}

TEST(Registry, AutoLeavesTheLone64x64PingPongTileWhereAIsOffLinesOnMostSms) {
  // H100, stop 64 (docs/ladder.md, "The 64 x 64 ping-pong tile alone on most SMs";
  // docs/results/h100_smemstore_wide_loads_and_lone_pingpong.txt, call 1): us on the new choice
  // against the 64 x 64 ping-pong tile, one tile per CTA on more than half the SMs.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  const std::string w = "wgmma.bf16.", h = "wgmma.fp16.";
  // A's columns off 128-byte lines (as read: the caller's lda, or the copy's ld).
  EXPECT_EQ(choice("bf16", 96, 3072, 1024, Op::N, Op::N), w + "64x128x64.s8.persistent.tmastore");      // 10.0 / 10.3
  EXPECT_EQ(choice("fp16", 200, 2048, 8192, Op::N, Op::N), h + "64x128x64.s8.persistent.splitk");       // 34.8 / 40.7
  EXPECT_EQ(choice("bf16", 48, 8192, 2048, Op::N, Op::T), w + "64x128x64.s8.persistent.c4.tmastore");   // 18.0 / 19.4
  EXPECT_EQ(choice("bf16", 161, 2752, 1024, Op::N, Op::N), w + "64x128x64.s8.persistent.tmastore.repack");  // 14.4 / 16.2
  EXPECT_EQ(choice("bf16", 100, 3072, 4096, Op::N, Op::T), w + "64x128x64.s8.persistent.splitk.repack");    // 27.2 / 33.8
  // A on lines: the ping-pong tile stays (its time first, then the tile the rule would have taken).
  const std::string pingpong = "64x64x64.s12.persistent.tmastore.pingpong";
  EXPECT_EQ(choice("bf16", 192, 2752, 4096, Op::N, Op::N), w + pingpong);              // 17.0 / 18.7
  EXPECT_EQ(choice("bf16", 128, 4096, 4096, Op::N, Op::N), w + pingpong);              // 19.2 / 20.4
  EXPECT_EQ(choice("fp16", 96, 2752, 4096, Op::T, Op::N), h + pingpong);               // 17.3 / 19.5
  EXPECT_EQ(choice("fp16", 250, 1536, 2048, Op::N, Op::T), h + pingpong + ".repack");  // ld 256: 16.2 / 17.2
}

TEST(Registry, AutoTakesTheDeepRingWhere64x64TilesFillTheGpuOnce) {
  // Measured on the H200 (docs/ladder.md, "64 x 64 tiles with a 12-stage ring"), us in one
  // run: where 64 x 64 tiles number about one per SM, the 12-stage ring of 16 KB stages beats
  // half as many 64 x 128 tiles and split-K; with more tiles or a long k, not. With one row
  // of tiles that leaves half the SMs idle, it beats split-K up to k = 8192 (H100, H200).
  using tilemm::Op;
  const auto choice = [](const std::string& d, std::int64_t m, std::int64_t n, std::int64_t k, Op opa = Op::N) {
    return auto_choice(typed_problem(d, m, n, k, opa, Op::N));
  };
  const std::string deep = ".64x64x64.s12.persistent.tmastore.pingpong";
  EXPECT_EQ(choice("bf16", 128, 4096, 4096), "wgmma.bf16" + deep);   // 17.2 against 19.9 (cuBLAS 16.3)
  EXPECT_EQ(choice("fp16", 128, 4096, 4096), "wgmma.fp16" + deep);   // 17.1 against 20.0
  EXPECT_EQ(choice("bf16", 128, 4096, 11008), "wgmma.bf16" + deep);  // 34.2 against 39.3, split-K 36.0
  EXPECT_EQ(choice("tf32", 128, 4096, 4096, Op::T), "wgmma.tf32.64x64x32.s12.persistent.tmastore.pingpong");
  // 27.0 against 31.2 (cuBLAS 31.6)
  EXPECT_EQ(choice("bf16", 256, 4096, 4096), "wgmma.bf16.64x128x64.s8.persistent.tmastore");      // 19.7 against 27.4
  EXPECT_EQ(choice("bf16", 128, 11008, 4096), "wgmma.bf16.128x128x64.s6.persistent.tmastore");    // 31.4 against 38.8
  EXPECT_EQ(choice("bf16", 1024, 1024, 1024), "wgmma.bf16.64x128x64.s8.persistent.tmastore");     // 9.6 against 12.0
  const std::string split_k = "wgmma.bf16.64x128x64.s8.persistent.splitk";
  EXPECT_EQ(choice("bf16", 64, 4096, 11008), split_k);  // 31.9 against 33.9
  // One row of tiles (m <= 64) leaving half the SMs idle, with A's and B's columns on whole
  // 128-byte lines: the ping-pong tile up to k = 8192 (docs/ladder.md, "One row of 64 x 64
  // tiles"; us, ping-pong against split-K).
  EXPECT_EQ(choice("bf16", 64, 4096, 4096), "wgmma.bf16" + deep);  // H200 17.3 against 19.3, H100 19.4 against 22.4
  EXPECT_EQ(choice("fp16", 64, 4096, 4096), "wgmma.fp16" + deep);  // H200 17.2 against 19.1
  EXPECT_EQ(choice("bf16", 64, 4096, 8192), "wgmma.bf16" + deep);  // H100 30.7 against 32.3
  EXPECT_EQ(auto_choice(typed_problem("bf16", 56, 4096, 4096, Op::T, Op::T)), "wgmma.bf16" + deep);  // H100 18.8 / 21.6
  EXPECT_EQ(choice("bf16", 56, 4096, 4096), split_k);  // NN: A's columns 112 bytes apart; H100 22.6 against 23.5
  // Not with 32 rows or fewer (H200, split-K against ping-pong): TT 24 x 4096 x 4096 18.2 / 19.4, TN 18.2 / 19.9.
  // (TT with 17-32 rows goes to skinny_mma since stop 49: AutoStreamsSixteenRowTensorCoreProductsThroughSkinnyMma;
  // TN to the 32-row tile since stop 53: AutoRunsSeventeenToThirtyTwoRowsOnThe32RowTile.)
  EXPECT_NE(auto_choice(typed_problem("bf16", 24, 4096, 4096, Op::T, Op::T)), "wgmma.bf16" + deep);
  EXPECT_NE(auto_choice(typed_problem("fp16", 32, 4096, 4096, Op::T, Op::T)), "wgmma.fp16" + deep);
  EXPECT_NE(auto_choice(typed_problem("bf16", 24, 4096, 4096, Op::T, Op::N)), "wgmma.bf16" + deep);
  EXPECT_EQ(choice("bf16", 64, 2048, 6144), split_k);  // 32 tiles: H100 19.7 against 21.4
}

TEST(Registry, AutoSharesAInClustersOfFourForFewRows) {
  // Measured on an H100 and an H200 (docs/ladder.md, "Few rows in clusters of four"), us:
  // with one row of tiles every CTA reads all of A, and clusters of four along n read it once
  // for four, where the tiles fill one wave of clusters and m leaves rows of the tile empty.
  using tilemm::Op;
  const auto choice = [](std::int64_t m, std::int64_t n, Op opa, Op opb) {
    return auto_choice(typed_problem("bf16", m, n, 4096, opa, opb));
  };
  const std::string c4_64 = "wgmma.bf16.64x128x64.s8.persistent.c4.tmastore";
  EXPECT_EQ(choice(24, 11008, Op::N, Op::N), c4_64);  // A's columns 48 bytes apart: H200 29.5 against 35.8
  EXPECT_EQ(choice(24, 8192, Op::N, Op::N), c4_64);   // H100 29.7 against 41.2 for the 64 x 64 ping-pong tile
  EXPECT_EQ(choice(24, 14336, Op::N, Op::N), c4_64);  // H100 46.3 against 49.7
  EXPECT_EQ(choice(32, 11008, Op::N, Op::N), c4_64);  // off lines, on sectors: H100 37.9 against 39.5
  EXPECT_EQ(choice(96, 11008, Op::T, Op::T), c4_128("bf16"));  // H200 30.1 against 33.6
  EXPECT_EQ(choice(96, 11008, Op::N, Op::N), c4_128("bf16"));  // H100 38.5 against 41.4
  // Not where A's columns lie on whole lines on the 64-row tile (TT: 0.94-1.07x), where 112
  // CTAs hold most of the SMs (n = 14336), or where m fills the tile.
  EXPECT_EQ(choice(32, 11008, Op::T, Op::T), "wgmma.bf16.64x128x64.s8.persistent.tmastore");
  EXPECT_EQ(choice(96, 14336, Op::T, Op::T), "wgmma.bf16.128x128x64.s6.persistent.tmastore");
  EXPECT_EQ(choice(64, 11008, Op::N, Op::N), "wgmma.bf16.64x128x64.s8.persistent.tmastore");
  EXPECT_EQ(choice(128, 11008, Op::N, Op::N), "wgmma.bf16.128x128x64.s6.persistent.tmastore");
  // 32 tiles: not measured for this tile; since stop 53 the 32-row tile in clusters of four
  // (AutoRunsSeventeenToThirtyTwoRowsOnThe32RowTile).
  EXPECT_EQ(choice(24, 4096, Op::N, Op::N), "wgmma.bf16.32x64x64.s18.persistent.c4.pingpong");
  EXPECT_EQ(auto_choice(typed_problem("tf32", 24, 11008, 4096, Op::T, Op::N)).find(".c4."), std::string::npos);
  // Batched, with A's columns off sectors, where all the products' tiles hold 0.24-0.5 of the
  // SMs (H100, stop 49): two 24 x 4096 x 4096 NN 30.0 against 38.4 us on the 64 x 64 ping-pong
  // tile; four 40 x 2048 x 4096 NN 30.6 against 36.7. Not with 128 tiles (two 24 x 8192 x
  // 4096: 52.9 against 52.4 on the tile alone), nor where A lies on sectors (m = 48, TT).
  const auto batched = [](std::int64_t count, std::int64_t m, std::int64_t n, Op op) {
    return auto_choice(batched_problem("bf16", count, m, n, 4096, op, op));
  };
  EXPECT_EQ(batched(2, 24, 4096, Op::N), c4_64);
  EXPECT_EQ(batched(4, 40, 2048, Op::N), c4_64);
  EXPECT_EQ(batched(2, 24, 2048, Op::N), c4_64);
  EXPECT_EQ(batched(2, 24, 8192, Op::N).find(".c4."), std::string::npos);
  EXPECT_EQ(batched(8, 24, 2048, Op::N).find(".c4."), std::string::npos);
  EXPECT_EQ(batched(2, 48, 4096, Op::N).find(".c4."), std::string::npos);
  EXPECT_EQ(batched(2, 24, 4096, Op::T).find(".c4."), std::string::npos);
  EXPECT_EQ(batched(2, 24, 1024, Op::N).find(".c4."), std::string::npos);  // 16 tiles: not measured
}

TEST(Registry, AutoMovesProductsWithAShortSecondRowOfTilesOffThe128RowTiles) {
  // 129-176 rows: the 128-row tiles' second row holds 1-48 rows (wgmma_short_second_row_of_tiles).
  // H100, stop 67, us: auto's previous tile -> the one it takes now (cuBLAS), each pair in one
  // interleaved run (docs/results/h100_short_second_row.txt, tables `call1` and `call2_*`).
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  const std::string tile128 = "wgmma.bf16.128x128x64.s6.persistent.tmastore";
  // Since stop 68 products with k = 8192-11008 and 5633-8448 columns go to the 192-row stream-K
  // tile (AutoCutsOneRowOf192RowTilesIntoTwoWholeRanges); the stop-67 cases below have shorter k
  // or more columns. Since stop 70 those with k = 4096-8192 go to one row of 192 x 64 ping-pong
  // tiles where its CTAs fill one round (AutoRunsOneRowOf192x64PingPongTiles): the cases below that
  // it took expect it, with stop 70's time (H100, call 2) after stop 67's.
  // The 128 x 128 tiles in clusters of four where they fit in one round (n = 6144).
  EXPECT_EQ(choice("bf16", 176, 6144, 4096, Op::N, Op::N), fours("bf16"));    // 40.0 -> 31.8 (30.1); 30.3
  EXPECT_EQ(choice("bf16", 160, 6144, 2048, Op::N, Op::T), c4_128("bf16"));   // 22.4 -> 21.0 (16.6)
  EXPECT_EQ(choice("bf16", 136, 6144, 4096, Op::T, Op::T), fours("bf16"));    // 36.6 -> 29.5 (23.9)
  EXPECT_EQ(choice("fp16", 136, 6144, 4096, Op::N, Op::T), fours("fp16"));    // 35.6 -> 29.3 (26.9)
  EXPECT_EQ(choice("bf16", 136, 6144, 3072, Op::T, Op::T), c4_128("bf16"));
  // Since stop 68 from 5633 columns, where the 128 x 128 tile was auto's (H100, stop 68, calls 8 and 9).
  EXPECT_EQ(choice("bf16", 136, 6000, 4096, Op::N, Op::N), fours("bf16"));   // 41.0 -> 30.5 (27.8)
  EXPECT_EQ(choice("bf16", 152, 5888, 4096, Op::T, Op::T), fours("bf16"));   // 42.5 -> 35.6 (24.1)
  EXPECT_EQ(choice("bf16", 136, 6000, 2048, Op::N, Op::N), c4_128("bf16"));
  EXPECT_NE(choice("bf16", 136, 5632, 4096, Op::N, Op::N), c4_128("bf16"));
  // A's columns on sectors (m = 144-176 in NN and NT; TN, TT), 1.5 waves of 64 x 128 tiles.
  EXPECT_EQ(choice("bf16", 176, 8192, 4096, Op::N, Op::T), pairs("bf16"));    // 43.3 -> 37.3 (30.1); 35.4
  EXPECT_EQ(choice("bf16", 160, 8192, 2048, Op::N, Op::N), tile64("bf16"));   // 24.0 -> 22.9 (20.2)
  EXPECT_EQ(choice("bf16", 160, 8192, 4096, Op::T, Op::N), pairs("bf16"));    // 44.4 -> 35.7 (30.1); 31.4
  EXPECT_EQ(choice("fp16", 160, 8192, 4096, Op::N, Op::N), pairs("fp16"));    // 41.2 -> 36.4 (31.7); 33.2
  // A off sectors (m = 136 in NN and NT), or two waves of 64 x 128 tiles (n = 11008), k >= 4096.
  EXPECT_EQ(choice("bf16", 136, 8192, 4096, Op::N, Op::N), pairs("bf16"));     // 46.6 -> 42.6 (33.5); 36.1
  EXPECT_EQ(choice("bf16", 136, 8704, 4096, Op::N, Op::N), one_row_192("bf16"));
  EXPECT_EQ(choice("bf16", 136, 11008, 8192, Op::N, Op::T), one_row_192("bf16"));    // 103.2 -> 79.5 (66.9)
  EXPECT_EQ(choice("bf16", 136, 11008, 11008, Op::T, Op::T), one_row_192("bf16"));   // 160.1 -> 102.7 (84.8)
  EXPECT_EQ(choice("fp16", 160, 11008, 8192, Op::N, Op::T), one_row_192("fp16"));    // 94.4 -> 74.9 (65.8)
  EXPECT_EQ(choice("bf16", 160, 11008, 4096, Op::N, Op::N), one_row_192("bf16"));    // 42.0 -> 44.2 (38.7), a loss
  // Outside: k = 2048 where the 192-row tile would take it (it tied or lost), 184 and 192 rows,
  // 4096 columns (the clusters of four ran 1.3x slower than the 64 x 128 tile auto keeps there),
  // and what was not measured: more than 11008 columns, k past 11008, tf32, batches.
  EXPECT_EQ(choice("bf16", 136, 8192, 2048, Op::N, Op::N), tile128);
  EXPECT_EQ(choice("bf16", 184, 6144, 3072, Op::T, Op::T), tile128);  // at k = 4096 (32.9, c4 35.1) fours since stop 70
  EXPECT_EQ(choice("bf16", 192, 8192, 3072, Op::N, Op::N), tile128);
  EXPECT_EQ(choice("bf16", 160, 4096, 4096, Op::N, Op::N), tile64("bf16"));  // 21.5 (c4 28.3)
  EXPECT_EQ(choice("bf16", 160, 11008, 2048, Op::N, Op::T), tile64("bf16"));
  EXPECT_NE(choice("bf16", 160, 8192, 14336, Op::N, Op::N), tile64("bf16"));
  EXPECT_EQ(choice("tf32", 160, 6144, 4096, Op::T, Op::N).find(".c4."), std::string::npos);
  EXPECT_NE(auto_choice(batched_problem("bf16", 2, 160, 6144, 4096, Op::N, Op::N)), c4_128("bf16"));
}

TEST(Registry, AutoCutsOneRowOf192RowTilesIntoTwoWholeRanges) {
  // 129-192 rows with k = 6144-11008 (from 8192 before stop 69; from 5120 where the clusters of four
  // do not take the product), where the 192 x 256 cluster tiles (one row) are cut into exactly two
  // whole ranges a tile by stream-K (23-33 tiles on 66 clusters: 5633-8448 columns),
  // wgmma_short_second_row_of_tiles. H100, stop 68, us: auto's previous tile -> the 192-row stream-K
  // tile (cuBLAS), in one interleaved run (docs/results/h100_two_whole_ranges.txt).
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  // Since stop 70 one row of 192 x 64 ping-pong tiles in clusters of four takes k = 4096-8192 up
  // to 7168 columns, and in clusters of two k = 4096-6143 up to 8448 columns, since stops 72-73
  // further k up to 176 rows (AutoRunsOneRowOf192x64PingPongTiles): the cases below that it took
  // expect it, with stop 70's time (H100, call 2) after the earlier stops' where it was measured.
  EXPECT_EQ(choice("bf16", 136, 6144, 8192, Op::N, Op::N), fours("bf16"));      // c4: 55.0 -> 51.2 (47.7); 49.0
  EXPECT_EQ(choice("bf16", 136, 8192, 8192, Op::N, Op::N), streamk("bf16"));    // 192 x 128: 66.3 -> 60.7 (63.4)
  EXPECT_EQ(choice("bf16", 176, 8192, 8192, Op::N, Op::N), pairs("bf16"));      // 64 x 128: 64.2 -> 61.4 (55.7); 61.1
  EXPECT_EQ(choice("bf16", 160, 8192, 11008, Op::N, Op::N), streamk("bf16"));   // 64 x 128: 86.7 -> 75.7 (76.3)
  EXPECT_EQ(choice("bf16", 160, 7168, 11008, Op::T, Op::N), streamk("bf16"));   // 64 x 128: 80.8 -> 69.1 (66.0)
  EXPECT_EQ(choice("fp16", 136, 6144, 8192, Op::N, Op::T), fours("fp16"));      // c4: 57.1 -> 53.1 (46.2); 47.3
  // 64 x 128: 65.0 -> 61.2 (54.8); the pair: 61.8 in bf16 (stop 73), fp16 not timed.
  EXPECT_EQ(choice("fp16", 176, 8192, 8192, Op::N, Op::T), pairs("fp16"));
  // 184 and 192 rows, where the 128 x 128 tile stayed.
  EXPECT_EQ(choice("bf16", 184, 8192, 11008, Op::T, Op::T), streamk("bf16"));   // 106.4 -> 77.1 (68.0)
  EXPECT_EQ(choice("bf16", 192, 8192, 8192, Op::N, Op::N), streamk("bf16"));    // 67.2 -> 61.1 (54.9)
  EXPECT_EQ(choice("bf16", 192, 6144, 11008, Op::T, Op::N), streamk("bf16"));   // 88.4 -> 63.5 (62.0)
  // 6000 columns (24 tiles), below the stop-67 rule's 6144: 72.1 -> 51.9 (44.2), 103.9 -> 63.7 (83.0).
  EXPECT_EQ(choice("bf16", 160, 6000, 8192, Op::N, Op::N), fours("bf16"));
  EXPECT_EQ(choice("bf16", 136, 6000, 11008, Op::N, Op::N), streamk("bf16"));
  // Since stop 69 from k = 6144 (H100, stop 69, call 1: auto's previous tile -> auto).
  EXPECT_EQ(choice("bf16", 184, 6144, 7000, Op::N, Op::N), fours("bf16"));     // 128 x 128: 76.2 -> 53.3 (60.3)
  // 192 x 128: 60.1 -> 50.6 (47.3); stop 73: stream-K 52.4 -> the pair 50.7 (47.3).
  EXPECT_EQ(choice("bf16", 136, 8192, 6144, Op::N, Op::N), pairs("bf16"));
  EXPECT_EQ(choice("fp16", 152, 7168, 7000, Op::T, Op::N), fours("fp16"));     // 192 x 128: 65.4 -> 56.7 (43.9)
  EXPECT_EQ(choice("fp16", 152, 8192, 7000, Op::N, Op::N), streamk("fp16"));
  EXPECT_EQ(choice("fp16", 152, 8192, 7000, Op::T, Op::N), pairs("fp16"));  // A stored k x m: the pair since stop 72
  // and where the clusters of four took it (n <= 6144, m <= 176; the stream-K tile's named row).
  EXPECT_EQ(choice("bf16", 152, 6144, 7000, Op::N, Op::N), fours("bf16"));     // c4: 62.7 -> 53.3 (44.8)
  EXPECT_EQ(choice("fp16", 136, 6144, 6144, Op::T, Op::N), fours("fp16"));     // c4: 51.9 -> 43.2 (33.8)
  // From k = 5120 where the clusters of four do not take it (H200, stop 69, call 2, named rows).
  EXPECT_EQ(choice("bf16", 184, 6144, 5120, Op::N, Op::N), fours("bf16"));     // 128 x 128: 46.6 -> 35.4 (31.2)
  EXPECT_EQ(choice("bf16", 136, 8192, 5120, Op::N, Op::N), pairs("bf16"));     // 192 x 128: 45.7 -> 39.0 (35.8)
  EXPECT_EQ(choice("bf16", 160, 7168, 5120, Op::T, Op::T), fours("bf16"));     // 64 x 128: 41.1 -> 35.7 (25.1)
  EXPECT_EQ(choice("bf16", 136, 6144, 5120, Op::N, Op::N), fours("bf16"));     // c4 32.8 (stream-K 35.4)
  // Not with three ranges a tile (22 tiles: 5632 columns), where the 64 x 128 tile ran 44.0
  // against 49.7; one range a tile (11008 columns: no stream-K); k = 4096 (0.87-1.08x); nor
  // what was not measured: 200 rows, k past 11008, tf32, batches.
  EXPECT_EQ(choice("bf16", 160, 5632, 8192, Op::N, Op::N), tile64("bf16"));
  EXPECT_NE(choice("bf16", 160, 11008, 8192, Op::N, Op::N), streamk("bf16"));
  EXPECT_NE(choice("bf16", 160, 8192, 4096, Op::N, Op::N), streamk("bf16"));
  EXPECT_NE(choice("bf16", 160, 8192, 5119, Op::N, Op::N), streamk("bf16"));
  EXPECT_NE(choice("bf16", 200, 8192, 8192, Op::N, Op::N), streamk("bf16"));
  EXPECT_NE(choice("bf16", 160, 8192, 14336, Op::N, Op::N), streamk("bf16"));
  EXPECT_EQ(choice("tf32", 160, 8192, 8192, Op::T, Op::N).find(".streamk"), std::string::npos);
  EXPECT_NE(auto_choice(batched_problem("bf16", 2, 160, 8192, 8192, Op::N, Op::N)), streamk("bf16"));
}

TEST(Registry, AutoRunsOneRowOf192x64PingPongTiles) {
  // 129-192 rows from k = 4096 where the n / 64 CTAs of one row of 192 x 64 ping-pong tiles fill one
  // round: in clusters of four up to 112 CTAs (n <= 7168, the GPU's count unknown here) and k = 8192,
  // in clusters of two up to 132 (n <= 8448) below k = 6144, and up to 176 rows further: with A
  // stored k x m up to k = 8192, with A stored m x k at k = 6144 and, where its columns lie on 32-byte
  // sectors, up to k = 8192 (wgmma_short_second_row_of_tiles). H100, stop 70, call 2, us: auto's
  // previous tile -> the new tile (cuBLAS), named rows in one interleaved run
  // (docs/results/h100_one_row_of_192x64_tiles.txt).
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  EXPECT_EQ(choice("bf16", 136, 6144, 4096, Op::N, Op::N), fours("bf16"));  // 128 x 128 c4: 32.9 -> 29.7 (27.2)
  EXPECT_EQ(choice("bf16", 184, 6144, 4096, Op::T, Op::T), fours("bf16"));  // 128 x 128: 38.0 -> 29.6 (31.9)
  EXPECT_EQ(choice("bf16", 160, 7168, 4096, Op::N, Op::N), fours("bf16"));  // 64 x 128: 34.1 -> 31.9 (28.7)
  EXPECT_EQ(choice("fp16", 176, 7168, 4096, Op::T, Op::N), fours("fp16"));  // 64 x 128: 33.7 -> 31.8 (28.0)
  EXPECT_EQ(choice("bf16", 160, 7168, 8192, Op::N, Op::T), fours("bf16"));  // stream-K: 57.9 -> 50.8 (46.9)
  EXPECT_EQ(choice("fp16", 192, 6144, 8192, Op::T, Op::T), fours("fp16"));  // stream-K: 50.2 -> 46.8 (41.9)
  EXPECT_EQ(choice("bf16", 136, 8192, 4096, Op::N, Op::N), pairs("bf16"));  // 192 x 128: 43.3 -> 36.1 (33.7)
  EXPECT_EQ(choice("bf16", 184, 8192, 4096, Op::T, Op::N), pairs("bf16"));  // 128 x 128: 41.4 -> 33.2 (30.9)
  EXPECT_EQ(choice("bf16", 192, 8192, 4096, Op::N, Op::N), pairs("bf16"));  // 128 x 128: 36.2 -> 34.6 (31.7)
  EXPECT_EQ(choice("fp16", 160, 8192, 4096, Op::N, Op::N), pairs("fp16"));  // 64 x 128: 36.0 -> 33.2 (31.2)
  EXPECT_EQ(choice("bf16", 184, 8448, 5000, Op::N, Op::N), pairs("bf16"));  // 132 CTAs, k between the bounds
  // Through auto on another grid (call 3), auto's previous tile -> the new one (cuBLAS).
  EXPECT_EQ(choice("bf16", 168, 5760, 6000, Op::N, Op::T), fours("bf16"));  // 128 x 128 c4: 45.0 -> 36.7 (40.2)
  EXPECT_EQ(choice("fp16", 144, 6656, 7000, Op::T, Op::N), fours("fp16"));  // stream-K: 55.2 -> 50.0 (41.9)
  EXPECT_EQ(choice("bf16", 188, 8320, 4608, Op::T, Op::T), pairs("bf16"));  // 128 x 128: 49.5 -> 40.2 (77.4)
  EXPECT_EQ(choice("bf16", 144, 8320, 6000, Op::N, Op::T), pairs("bf16"));  // stream-K: 51.6 -> 47.6 (46.1)
  // A stored k x m, whose boxes end at m since stop 72: pairs below 168 rows too, and up to k = 8192
  // for up to 176 rows (H100, stop 72, bf16, named rows of the patched build: auto's tile -> the pair).
  EXPECT_EQ(choice("bf16", 160, 8192, 4096, Op::T, Op::N), pairs("bf16"));  // 64 x 128: 35.3 -> 31.4 (28.6)
  EXPECT_EQ(choice("bf16", 144, 8192, 6000, Op::T, Op::T), pairs("bf16"));  // stream-K: 52.5 -> 43.6 (41.6)
  EXPECT_EQ(choice("bf16", 136, 8192, 8192, Op::T, Op::T), pairs("bf16"));  // stream-K: 63.6 -> 53.4 (52.2)
  EXPECT_EQ(choice("bf16", 152, 8192, 6144, Op::T, Op::N), pairs("bf16"));  // stream-K: 52.1 -> 44.7 (42.2)
  // A stored m x k (NN, NT): the pair at k = 6144, and up to k = 8192 where A's columns lie on 32-byte
  // sectors (H100, stop 73, call 1, named rows: stream-K -> the pair (cuBLAS)).
  EXPECT_EQ(choice("bf16", 144, 8192, 6144, Op::N, Op::T), pairs("bf16"));  // 50.7 -> 47.2 (45.2)
  EXPECT_EQ(choice("bf16", 160, 8192, 8192, Op::N, Op::N), pairs("bf16"));  // 62.2 -> 58.1 (54.9)
  EXPECT_EQ(choice("bf16", 176, 8192, 8192, Op::N, Op::T), pairs("bf16"));  // 62.5 -> 61.8 (54.9)
  // Off sectors stream-K keeps k past 6144 (136 x 8192 x 8192 NN: 62.9 against the pair's 63.2; stop
  // 72: 62.2 against 66.1; 152 rows NT 62.5 against 62.4), and past 176 rows, not measured with A's
  // boxes ending at m. Nor with fewer CTAs (n = 4096: 64 x 128 21.3
  // against 27.2), more than one round (n = 11008: 192 x 128 41.8 against 46.8), k = 2048 (1.02x,
  // down to 0.89x), nor what was not measured: k past 8192, 128 or 200 rows, tf32, batches.
  EXPECT_EQ(choice("bf16", 136, 8192, 8192, Op::N, Op::N), streamk("bf16"));
  EXPECT_EQ(choice("bf16", 152, 8192, 8192, Op::N, Op::T), streamk("bf16"));
  EXPECT_EQ(choice("bf16", 152, 8192, 6400, Op::N, Op::N), streamk("bf16"));
  EXPECT_EQ(choice("bf16", 184, 8192, 8192, Op::T, Op::T), streamk("bf16"));
  EXPECT_EQ(choice("bf16", 160, 4096, 4096, Op::N, Op::N), tile64("bf16"));
  EXPECT_EQ(choice("bf16", 160, 11008, 4096, Op::N, Op::N), one_row_192("bf16"));
  EXPECT_EQ(choice("bf16", 136, 7168, 2048, Op::N, Op::N).find(".192x64x64."), std::string::npos);
  EXPECT_EQ(choice("bf16", 160, 6144, 8193, Op::N, Op::N).find(".192x64x64."), std::string::npos);
  EXPECT_EQ(choice("bf16", 128, 6144, 4096, Op::N, Op::N).find(".192x64x64."), std::string::npos);
  EXPECT_EQ(choice("bf16", 200, 6144, 4096, Op::N, Op::N).find(".192x64x64."), std::string::npos);
  EXPECT_EQ(choice("tf32", 160, 6144, 4096, Op::T, Op::N).find(".192x64x64."), std::string::npos);
  EXPECT_EQ(auto_choice(batched_problem("bf16", 2, 160, 6144, 4096, Op::N, Op::N)).find(".192x64x64."),
            std::string::npos);
}

TEST(Registry, AutoCountsTheClustersOfFourTheGpuHolds) {
  // One row of 192 x 64 tiles goes to clusters of four where its n / 64 CTAs fit in one round:
  // 4 x DeviceInfo::clusters_of_four CTAs, or 0.85 of the SMs (112 of 132) where the count is
  // unknown (wgmma_short_second_row_of_tiles). H200, which holds 30 as the H100 does (stop 71, call
  // 1, bf16, named rows, us): auto's tile at n = 7680 (120 CTAs) -> the clusters of four (cuBLAS).
  using tilemm::Op;
  tilemm::DeviceInfo h200 = hopper_device();
  h200.clusters_of_four = 30;
  tilemm::DeviceInfo fewer = hopper_device();
  fewer.clusters_of_four = 28;
  const tilemm::DeviceInfo unknown = hopper_device();
  const auto problem = [](std::int64_t m, std::int64_t n, std::int64_t k, Op opa, Op opb) {
    return typed_problem("bf16", m, n, k, opa, opb);
  };
  EXPECT_EQ(auto_choice(problem(136, 7680, 4096, Op::N, Op::N), h200), fours("bf16"));  // pairs: 32.7 -> 29.4 (26.8)
  EXPECT_EQ(auto_choice(problem(160, 7680, 8192, Op::N, Op::T), h200), fours("bf16"));  // stream-K: 50.0 -> 45.0 (39.8)
  EXPECT_EQ(auto_choice(problem(192, 7680, 6000, Op::T, Op::T), h200), fours("bf16"));  // pairs: 41.3 -> 36.5 (31.2)
  EXPECT_EQ(auto_choice(problem(136, 7680, 4096, Op::N, Op::N), unknown), pairs("bf16"));
  EXPECT_EQ(auto_choice(problem(136, 7680, 4096, Op::N, Op::N), fewer), pairs("bf16"));
  EXPECT_EQ(auto_choice(problem(136, 7168, 4096, Op::N, Op::N), fewer), fours("bf16"));
  EXPECT_EQ(auto_choice(problem(136, 7744, 4096, Op::N, Op::N), h200), pairs("bf16"));  // 121 CTAs
}

TEST(Registry, AutoRunsSeventeenToThirtyTwoRowsOnThe32RowTile) {
  // Measured on the H200 (docs/ladder.md, "Thirty-two rows on wgmma";
  // docs/results/h200_thirty_two_rows.txt, run 3: us, the new choice against main's in
  // alternating processes). wgmma m64n32 tiles of 32 rows: alone where A's columns lie on
  // 32-byte sectors, in clusters of four along n (A multicast) where they do not.
  using tilemm::Op;
  const auto choice = [](const std::string& d, std::int64_t m, std::int64_t n, std::int64_t k, Op opa, Op opb) {
    return auto_choice(typed_problem(d, m, n, k, opa, opb));
  };
  const std::string alone = ".32x64x64.s18.persistent.pingpong", cluster = ".32x64x64.s18.persistent.c4.pingpong";
  // Taken where the tiles keep half the SMs or more, above split-K and skinny_mma.
  EXPECT_EQ(choice("bf16", 24, 4096, 2048, Op::N, Op::N), "wgmma.bf16" + cluster);  // 12.6 against 16.6 (ping-pong)
  EXPECT_EQ(choice("bf16", 24, 6144, 4096, Op::N, Op::N), "wgmma.bf16" + cluster);  // 23.3 against 32.7
  EXPECT_EQ(choice("bf16", 24, 4096, 4096, Op::N, Op::T), "wgmma.bf16" + cluster);
  EXPECT_EQ(choice("bf16", 24, 4096, 2048, Op::T, Op::N), "wgmma.bf16" + alone);  // 11.4 against 13.0
  EXPECT_EQ(choice("bf16", 32, 4096, 4096, Op::T, Op::N), "wgmma.bf16" + alone);  // 16.5 against 18.3 (split-K)
  EXPECT_EQ(choice("fp16", 32, 4096, 4096, Op::T, Op::N), "wgmma.fp16" + alone);  // 16.5 against 18.3
  EXPECT_EQ(choice("bf16", 20, 8192, 8192, Op::T, Op::N), "wgmma.bf16" + alone);  // 39.0 against 49.2 (cuBLAS 55.6)
  const std::string tf32_alone = "wgmma.tf32.32x64x32.s18.persistent.pingpong";
  EXPECT_EQ(choice("tf32", 24, 8192, 4096, Op::T, Op::N), tf32_alone);  // 39.5 against 47.4
  // Elsewhere on one row of tiles, in place of the 64 x 64 ping-pong tile.
  EXPECT_EQ(choice("bf16", 32, 4096, 1024, Op::N, Op::N), "wgmma.bf16" + alone);  // 9.7 against 10.2
  EXPECT_EQ(choice("bf16", 17, 2048, 1024, Op::T, Op::N), "wgmma.bf16" + alone);  // 8.8 against 10.0
  EXPECT_EQ(choice("tf32", 17, 6144, 4096, Op::T, Op::N), tf32_alone);  // 35.6 against 48.0
  // Not at n = 4096 with k = 8192 (split-K), tf32 from k = 4096 at n = 4096 (split-K), 16-bit TT
  // from k = 4096 (skinny_mma), where skinny_mma's rules take fewer columns, past one wave of
  // tiles, nor with A off sectors where the clusters do not fit on the GPU (n = 8192).
  EXPECT_EQ(choice("bf16", 24, 4096, 8192, Op::T, Op::N), "wgmma.bf16.64x128x64.s8.persistent.splitk");  // 25.5
  EXPECT_EQ(choice("tf32", 24, 4096, 4096, Op::T, Op::N), "wgmma.tf32.64x128x32.s8.persistent.splitk");
  EXPECT_EQ(choice("bf16", 24, 4096, 4096, Op::T, Op::T).rfind("skinny_mma", 0), 0u);
  EXPECT_EQ(choice("bf16", 24, 3072, 2048, Op::N, Op::N).rfind("skinny_mma", 0), 0u);
  EXPECT_EQ(choice("bf16", 32, 11008, 4096, Op::N, Op::N), "wgmma.bf16.64x128x64.s8.persistent.c4.tmastore");
  EXPECT_EQ(choice("bf16", 24, 11008, 4096, Op::T, Op::N).find(".32x64x"), std::string::npos);
  EXPECT_EQ(choice("bf16", 24, 8192, 4096, Op::N, Op::N), "wgmma.bf16.64x128x64.s8.persistent.c4.tmastore");
  // 33 rows and more, and batched products, keep the 64-row tiles.
  EXPECT_EQ(choice("bf16", 40, 4096, 4096, Op::T, Op::T).find(".32x64x"), std::string::npos);
  EXPECT_EQ(auto_choice(batched_problem("bf16", 2, 24, 4096, 4096, Op::N, Op::N)),
            "wgmma.bf16.64x128x64.s8.persistent.c4.tmastore");
}

TEST(Registry, AutoSwapsTheOperandsOfProductsWith17To32Columns) {
  // Measured on the H200 (docs/ladder.md, "Thirty-two rows on wgmma", `.swapab`;
  // docs/results/h200_thirty_two_rows.txt, run 7: us, the new choice against the 64 x 64
  // ping-pong tile on the caller's product). Only where B (op T) has its columns off 32-byte
  // sectors (ldb = 24: 48 bytes apart).
  using tilemm::Op;
  const auto choice = [](const std::string& d, std::int64_t m, std::int64_t n, std::int64_t k, Op opa, Op opb) {
    return auto_choice(typed_problem(d, m, n, k, opa, opb));
  };
  const std::string alone = "wgmma.bf16.32x64x64.s18.persistent.pingpong.swapab";
  const std::string cluster = "wgmma.bf16.32x64x64.s18.persistent.c4.pingpong.swapab";
  EXPECT_EQ(choice("bf16", 4096, 24, 4096, Op::N, Op::T), cluster);  // 18.8 against 25.0 (cuBLAS 16.7)
  EXPECT_EQ(choice("bf16", 4096, 24, 4096, Op::T, Op::T), cluster);  // 18.8 against 25.0
  EXPECT_EQ(choice("bf16", 6144, 24, 8192, Op::T, Op::T), cluster);  // 37.0 against 53.9
  EXPECT_EQ(choice("bf16", 8192, 24, 4096, Op::T, Op::T), alone);    // 29.4 against 37.3: 32 clusters do not fit
  EXPECT_EQ(choice("bf16", 11008, 24, 4096, Op::N, Op::T), cluster);  // two rounds of clusters
  EXPECT_EQ(choice("fp16", 4096, 24, 4096, Op::N, Op::T), "wgmma.fp16.32x64x64.s18.persistent.c4.pingpong.swapab");
  // Not with B's columns on sectors (n = 32, or op N), nor tf32: the ping-pong tile was as fast.
  EXPECT_EQ(choice("bf16", 4096, 32, 4096, Op::N, Op::T).find(".swapab"), std::string::npos);
  EXPECT_EQ(choice("bf16", 4096, 24, 4096, Op::T, Op::N).find(".swapab"), std::string::npos);
  EXPECT_EQ(choice("bf16", 8192, 24, 4096, Op::N, Op::N).find(".swapab"), std::string::npos);
  EXPECT_EQ(choice("tf32", 4096, 24, 4096, Op::T, Op::N).find(".swapab"), std::string::npos);
}

TEST(Registry, AutoSharesBAlongMWhereItsColumnsAreOffCacheLines) {
  // Measured on the H200 (docs/ladder.md, "Clusters along m"), us in one run: with B's
  // columns 2000 bytes apart the TMA issues several L2 requests per box row, and clusters of
  // two along m that multicast B win while the 64 x 128 tiles make at most one wave. With
  // two (2000 x 1000 x k: 256 tiles) the staged 128 x 128 tile was the faster, measured
  // with the 128-byte L2 promotion on an H100 and an H200 (docs/ladder.md, "Clusters along
  // m for one wave only").
  const auto nn = [](std::int64_t m, std::int64_t n, std::int64_t k) {
    return auto_choice(typed_problem("bf16", m, n, k));
  };
  const std::string shared_b = "wgmma.bf16.64x128x64.s8.persistent.c2m.tmastore";
  EXPECT_EQ(nn(1000, 1000, 1000), shared_b);  // 12.7-13.2 against 14.5-15.0
  EXPECT_EQ(nn(2000, 1000, 1000), "wgmma.bf16.128x128x64.s6.persistent.tmastore");  // H100 16.7 against 18.6
  EXPECT_EQ(nn(1024, 1024, 1024), "wgmma.bf16.64x128x64.s8.persistent.tmastore");  // aligned: 9.6 against 10.9
  EXPECT_NE(nn(3000, 3000, 3000), shared_b);  // 152 against 113 for the 256 x 128 cluster entry
  EXPECT_EQ(nn(2000, 2000, 2000), "wgmma.bf16.256x128x64.s4.persistent.c2.tmastore");  // 28.6 against 43.5
  // tf32 TN 1000^3: 17.2 against 15.9 for the 64 x 128 tile alone.
  EXPECT_EQ(auto_choice(typed_problem("tf32", 1000, 1000, 1000, tilemm::Op::T, tilemm::Op::N)),
            "wgmma.tf32.64x128x32.s8.persistent.tmastore");
}

TEST(Registry, AutoRunsTf32WithTheFewestTransposingPasses) {
  // tf32 wgmma reads shared memory K-major only. Measured on the H200 (docs/ladder.md,
  // step 28): wgmma_rs (the M- or N-major operand through registers) ran NN and TT with no
  // pass at 1.01x cuBLAS at 4096^3 where wgmma .repack's transposing pass gave 0.91x, and
  // NT with one pass instead of two; TN stays on wgmma, which reads it in place, and at
  // 4093^3 TN copies its operands (wgmma .repack) rather than transposing one.
  using tilemm::Op;
  const std::string rs = "wgmma_rs.tf32.128x256x32.s4.persistent.tmastore";
  const auto tf32 = [](std::int64_t s, Op opa, Op opb) {
    tilemm::GemmProblem p = problem_of_dtype("tf32");
    p.m = p.n = p.k = s;
    p.lda = p.ldb = p.ldc = s;
    p.opa = opa;
    p.opb = opb;
    return auto_choice(p);
  };
  EXPECT_EQ(tf32(4096, Op::N, Op::N), rs);
  EXPECT_EQ(tf32(4096, Op::T, Op::T), rs);
  EXPECT_EQ(tf32(4096, Op::N, Op::T), rs + ".repack");
  EXPECT_EQ(tf32(4096, Op::T, Op::N), "wgmma.tf32.256x128x32.s4.persistent.c2.tmastore");
  EXPECT_EQ(tf32(4093, Op::N, Op::N), rs + ".repack");
  EXPECT_EQ(tf32(4093, Op::T, Op::T), rs + ".repack");
  EXPECT_EQ(tf32(4093, Op::N, Op::T), rs + ".repack");
  EXPECT_EQ(tf32(4093, Op::T, Op::N), "wgmma.tf32.256x128x32.s4.persistent.c2.tmastore.repack");
}

TEST(Registry, AutoPicksTheWgmmaRsTileAndSplitByItsTimeModel) {
  // Measured on the H200 (docs/ladder.md, step 28), each the fastest of the four in-place
  // wgmma_rs entries: the 64-column tile where D has few columns or the product few tiles,
  // split-K where k is long beside few tiles, the 256-column tile for large products.
  using tilemm::Op;
  const std::string wide = "wgmma_rs.tf32.128x256x32.s4.persistent.tmastore";
  const std::string narrow = "wgmma_rs.tf32.128x64x32.s8.persistent.tmastore";
  const auto tf32 = [](std::int64_t m, std::int64_t n, std::int64_t k, Op op) {
    tilemm::GemmProblem p = problem_of_dtype("tf32");
    p.m = m;
    p.n = n;
    p.k = k;
    p.opa = p.opb = op;
    p.lda = op == Op::N ? m : k;
    p.ldb = op == Op::N ? k : n;
    p.ldc = m;
    return auto_choice(p);
  };
  EXPECT_EQ(tf32(4096, 4096, 4096, Op::N), wide);             // 0.334 ms (64 columns: 0.716)
  EXPECT_EQ(tf32(2048, 2048, 2048, Op::T), wide);             // 47.6 us (64 columns: 77.7)
  EXPECT_EQ(tf32(1024, 1024, 1024, Op::N), narrow);           // 17.9 us (256, split: 23.6)
  EXPECT_EQ(tf32(16, 11008, 4096, Op::T), narrow);            // 55.9 us (256: 141.6)
  EXPECT_EQ(tf32(11008, 16, 4096, Op::N), narrow);            // 57.5 us (256: 138.7)
  EXPECT_EQ(tf32(16, 4096, 4096, Op::T), narrow + ".splitk");  // 29.2 us (256, split: 56.7)
  // These two NN products now transpose A first (AutoTransposesTheFewRowOperand below):
  // 26.4 us against 33.4 for the 256-column split-K entry, and 63.1 against its 61.4 (the
  // one measured shape where the rule costs time, 3%).
  EXPECT_EQ(tf32(16, 4096, 4096, Op::N), "wgmma.tf32.64x128x32.s8.persistent.splitk.transpose");
  EXPECT_EQ(tf32(16, 11008, 4096, Op::N), "wgmma.tf32.64x128x32.s8.persistent.tmastore.transpose");
}

TEST(Registry, AutoLeavesStreamKWhereItsRangesSpanLongTiles) {
  // Measured on the H200 (docs/ladder.md, "Stream-K's cost grows with k"), us per run,
  // auto's pick against stream-K in the same process: with few waves of long-k tiles the
  // stream-K entry ran 46-62% above its ideal split, so the tile that fills the SMs wins.
  expect_native_choices({
      {"bf16", 384, 4096, 14336, "128x128x64.s6.persistent.tmastore"},   // 77.5 against 124.6
      {"bf16", 512, 4096, 14336, "128x128x64.s6.persistent.tmastore"},   // 81.3 against 98.1
      {"bf16", 768, 8192, 28672, "128x192x64.s4.persistent.tmastore"},   // 453.6 against 514.6
      {"tf32", 512, 4096, 11008, "128x128x32.s6.persistent.tmastore"},   // 119.6 against 169.5
      // 130.3 and 343.1 for the 128 x 192 tile against 144.4 and 400.3; the ping-pong 128 x 128
      // tile now: 131.2 against 129.7 (1% slower) and 345.5 against 350.0.
      {"tf32", 512, 11008, 4096, "128x128x32.s6.persistent.tmastore.pingpong"},
      {"tf32", 1536, 4096, 11008, "128x128x32.s6.persistent.tmastore.pingpong"},
      // Where the tiles are short or many, stream-K's even split still wins and stays.
      {"bf16", 5120, 5120, 5120, "256x128x64.s4.persistent.c2.tmastore.streamk"},   // 366.2 against 377.1
      {"tf32", 2048, 11008, 4096, "256x128x32.s4.persistent.c2.tmastore.streamk"},  // 476.2 against 500.1
      // 109.6 against 113.1 on the H200 then; since its ranges are charged by their rate
      // (AutoChargesStreamKRangesAndCountsClusterWaves) the whole cluster tiles: 110.6 against
      // 121.3 on an H100, 107.5 against 104.0 on an H200.
      {"tf32", 2560, 2560, 2560, "256x128x32.s4.persistent.c2.tmastore"},
  });
}

TEST(Registry, AutoChargesStreamKRangesAndCountsClusterWaves) {
  // Measured on an H100 and an H200 (docs/ladder.md, "Stream-K's ranges run slower than whole
  // tiles"), us per run, the new pick against stream-K in the same process (H100 / H200).
  // Stream-K's ranges are charged as running at 0.65 of the whole tiles' rate, and a cluster
  // entry's waves are counted in clusters (its idle second CTA was charged twice).
  expect_native_choices({
      {"bf16", 4096, 832, 11008, "256x128x64.s4.persistent.c2.tmastore"},    // 117.8 / 115.6 against 150.9 / 131.2
      {"bf16", 11008, 640, 11008, "256x128x64.s4.persistent.c2.tmastore"},   // 232.5 / 221.2 against 273.3 / 241.0
      {"bf16", 14336, 704, 4096, "256x128x64.s4.persistent.c2.tmastore"},    // 132.4 / 129.1 against 146.0 / 132.9
      {"bf16", 1024, 14336, 6000, "128x192x64.s4.persistent.tmastore"},      // 242.0 / 235.9 against 256.8 / 238.8
      {"tf32", 1024, 11008, 4096, "256x128x32.s4.persistent.c2.tmastore"},   // 249.1 / 241.8 against 281.9 / 246.4
      // Where the ranges make a small part of a wave after few whole ones it still wins: H100,
      // 212.3 against 273.1 for the whole tiles, 688.0 against 761.2.
      {"bf16", 4096, 1280, 14336, "256x128x64.s4.persistent.c2.tmastore.streamk"},
      {"bf16", 11008, 2048, 11008, "256x128x64.s4.persistent.c2.tmastore.streamk"},
  });
  // The ping-pong 128 x 128 tile took these after the two changes above (its score had been
  // just below), and it is slow where B's columns are off whole lines (ldb = 6000 elements).
  // Against it: bf16 NT 14336 x 6000 x 1024 258.8 / 257.0 against 337.5 / 282.3, fp16 TN
  // 2000 x 5000 x 6000 192.2 / 187.0 against 256.8 / 198.2 (docs/results/h100_h200_stream_k_ranges.txt,
  // runs 9-10).
  using tilemm::Op;
  expect_layout_choices({
      {"bf16", 14336, 6000, 1024, Op::N, Op::T, "256x128x64.s4.persistent.c2.tmastore"},
      {"fp16", 2000, 5000, 6000, Op::T, Op::N, "256x128x64.s4.persistent.c2.tmastore.streamk"},
  });
}

TEST(Registry, AutoSplitsKOverFewTilesCutIntoWholeRanges) {
  // Measured on an H100 and an H200 (docs/ladder.md, "Few tiles with long k" and "Whole
  // ranges, not the L2, decide"), us per run, stream-K against auto's previous pick in the
  // same process (H100 / H200): where fewer cluster tiles than clusters are each cut into
  // whole ranges and k is long, stream-K's ranges cost the even split plus 17 us over what
  // every entry pays, however large A and B are.
  using tilemm::Op;
  const char* streamk = "256x128x64.s4.persistent.c2.tmastore.streamk";
  expect_layout_choices({
      // 51.1 / 49.2 against 74.0 / 60.2 for the 64 x 128 tile.
      {"bf16", 1000, 1000, 11008, Op::N, Op::N, streamk},
      // 52.0 / 49.6 against 70.6 / 60.5 for the 64 x 128 tile in clusters along m.
      {"bf16", 1000, 1000, 11008, Op::N, Op::T, streamk},
      // 51.8 / 50.2 against 61.5 / 52.6 for the same.
      {"fp16", 1000, 1000, 11008, Op::T, Op::T, streamk},
      // Operands larger than the H100's 50 MiB L2: 54.7 MiB, 59.0 / 56.8 against 88.6 / 75.6 for
      // the 64 x 128 tile; 62.5 MiB, 63.6 against 102.2 on an H100.
      {"bf16", 1000, 1000, 14336, Op::N, Op::N, streamk},
      {"bf16", 1000, 1000, 16384, Op::N, Op::N, streamk},
      // tf32, 238 MiB: 112.6 against 154.8 for the 64 x 128 tile on an H100.
      {"tf32", 4096, 256, 14336, Op::T, Op::N, "256x128x32.s4.persistent.c2.tmastore.streamk"},
      // Until stop 68 these 20 tiles were cut into 66 ranges, which straddled them: 77.1 against
      // 60.0 for the staged 128 x 128 tile on an H100. Cut into 60 whole ranges: 54.4 against 58.0.
      {"bf16", 1000, 1280, 11008, Op::T, Op::T, streamk},
      // Not at shorter k, where the 17 us decides less than the other scores' errors: NT 1000
      // x 1024 x 8192 ran 42.6 against 39.5 for the 64 x 128 tile on an H200 (1.15x faster on
      // an H100), and 1000 x 1000 x 3000 24.9 against 37.7 in clusters along m (H100).
      {"bf16", 1000, 1024, 8192, Op::N, Op::T, "64x128x64.s8.persistent.tmastore"},
      {"bf16", 1000, 1000, 3000, Op::N, Op::T, "64x128x64.s8.persistent.c2m.tmastore"},
  });
  // Nor where 56 tiles make one range each (stream-K then runs whole tiles; cut into 66 ranges
  // that straddled them until stop 68: 148.6 against 129.9).
  EXPECT_NE(auto_choice(typed_problem("bf16", 14336, 256, 11008)), "wgmma.bf16." + std::string(streamk));
  // Stop 68 (docs/results/h100_two_whole_ranges.txt, H100, us): 18-32 cluster tiles cut into 2-3
  // whole ranges each, where the staged 128 x 128 tile was auto's.
  expect_layout_choices({
      {"bf16", 1280, 1000, 14336, Op::N, Op::T, streamk},  // 98.5 -> 66.1 (cuBLAS 68.6)
      {"bf16", 1024, 1280, 16384, Op::N, Op::N, streamk},  // 83.0 -> 71.5 (61.8)
      {"fp16", 768, 1500, 14336, Op::T, Op::N, streamk},   // 73.6 -> 64.2 (76.8)
      {"tf32", 1536, 768, 11008, Op::T, Op::N, "256x128x32.s4.persistent.c2.tmastore.streamk"},  // 108.1 -> 87.8 (92.8)
      {"tf32", 1280, 1024, 6000, Op::T, Op::N, "256x128x32.s4.persistent.c2.tmastore.streamk"},  // 63.3 -> 59.7 (82.5)
      // Where whole ranges still lost, the 128 x 128 tile stays: 59.3 (stream-K 69.2, cuBLAS 50.2).
      {"bf16", 512, 3000, 11008, Op::N, Op::N, "128x128x64.s6.persistent.tmastore"},
      {"bf16", 2000, 1000, 14336, Op::T, Op::N, "128x128x64.s6.persistent.tmastore"},  // 79.1 (stream-K 89.2)
  });
}

TEST(Registry, AutoChargesOperandsOffSectorsOnThe128ColumnTilesAtLongK) {
  // 16-bit, k >= 11008, 88-128 tiles of 128 x 128: each operand whose columns are off 32-byte
  // sectors costs the staged 128 x 128 (and 128 x 192) tile x0.8, as past one wave. H100, stop 68,
  // us, the tile auto took before -> the one it takes now (cuBLAS), in one interleaved run
  // (docs/results/h100_two_whole_ranges.txt, call 6).
  using tilemm::Op;
  const char* streamk = "256x128x64.s4.persistent.c2.tmastore.streamk";
  expect_layout_choices({
      {"bf16", 2000, 1000, 14336, Op::N, Op::T, streamk},  // 148.0 -> 91.1 (101.1): A on sectors, B off
      {"bf16", 1000, 2048, 11008, Op::N, Op::N, streamk},  // 107.5 -> 74.0 (76.6): A off
      {"bf16", 512, 3000, 14336, Op::T, Op::T, streamk},   // 109.2 -> 84.7 (99.8): B off, 96 tiles
      {"bf16", 1300, 1000, 11008, Op::T, Op::T, streamk},  // 89.9 -> 72.3 (137.5): 88 tiles
      {"fp16", 2048, 1000, 14336, Op::T, Op::T, streamk},  // 144.6 -> 93.8 (95.8)
      // From the 128 x 192 tile: 154.9 -> 115.5 (113.3), 86.2 -> 86.1 (84.3).
      {"bf16", 1000, 3000, 11008, Op::N, Op::T, "256x128x64.s4.persistent.c2.tmastore"},
      {"bf16", 3000, 768, 11008, Op::N, Op::N, "192x128x64.s5.persistent.c2.tmastore"},
      // Not with 72 tiles, where the 16 such moves ran 0.87x: 59.2 against 84.5 on stream-K.
      {"bf16", 384, 3000, 11008, Op::N, Op::T, "128x128x64.s6.persistent.tmastore"},
      // Nor with both operands on sectors, nor below k = 11008 (not measured).
      {"bf16", 1000, 2048, 14336, Op::T, Op::T, "128x128x64.s6.persistent.tmastore"},  // 80.3 (cuBLAS 77.5)
  });
  EXPECT_EQ(auto_choice(typed_problem("bf16", 2000, 1000, 8192, Op::N, Op::T)).find(".streamk"), std::string::npos);
}

TEST(Registry, AutoChargesSplitKsPassByItsTime) {
  // Split-K is scored by time: its k-loop at the 64 x 64 ping-pong tile's rate plus a
  // partial-sum pass that does not grow with k (docs/ladder.md, "Split-K's pass is a fixed
  // cost"). Measured, us per run on an H100 / H200, auto's pick against the other in one process.
  using tilemm::Op;
  expect_layout_choices({
      // Short k: the pass is most of the call. 9.0 / 8.9 against 12.2 / 11.6 for split-K.
      {"bf16", 2048, 128, 1024, Op::N, Op::N, "64x64x64.s12.persistent.tmastore.pingpong"},
      // 8.7 / 8.6 against 12.1 / 11.2.
      {"fp16", 256, 1024, 1024, Op::N, Op::T, "64x64x64.s12.persistent.tmastore.pingpong"},
      // Long k: split-K's slices fill the GPU where the ping-pong tiles leave a third of it
      // idle. 38.5 / 32.5 against 47.2 / 47.0, and 30.5 / 25.8 against 34.7 / 34.7.
      {"bf16", 896, 384, 16384, Op::N, Op::T, "64x128x64.s8.persistent.splitk"},
      {"fp16", 384, 896, 11008, Op::T, Op::T, "64x128x64.s8.persistent.splitk"},
  });
}

TEST(Registry, AutoTakesThe128x128TileOnWholeLines) {
  // Measured on the H200 (docs/ladder.md, "The 128 x 128 tile on whole lines"), us per run,
  // auto's new pick against its previous one in the same process. The ping-pong 128 x 128
  // tile (same tiles, one consumer warpgroup a tile) has taken them over since: 159.1 against
  // 162.6, 785.2 against 786.1, 336.9 against 337.7, 1629 against 1635.
  expect_native_choices({
      {"bf16", 1024, 14336, 4096, "128x128x64.s6.persistent.tmastore.pingpong"},  // 160.7 against 172.4
      {"bf16", 1280, 8192, 28672, "128x128x64.s6.persistent.tmastore.pingpong"},  // 811.1 against 861.3
      {"fp16", 512, 28672, 8192, "128x128x64.s6.persistent.tmastore.pingpong"},   // 333.4 against 345.8
      {"tf32", 1280, 8192, 28672, "128x128x32.s6.persistent.tmastore.pingpong"},  // 1578 against 1665
      // Columns off whole 128-byte lines (6000 bf16 = 12000 bytes): 797.3 against 654.7 for
      // the cluster entry with stream-K, which the whole cluster tiles have replaced (580.8 / 561.6
      // against 606.9 / 575.6 on an H100 / H200, AutoChargesStreamKRangesAndCountsClusterWaves).
      {"bf16", 6000, 6000, 6000, "256x128x64.s4.persistent.c2.tmastore"},
      // Where the cluster tiles fill their waves they stay (4096^3: 3.88 waves).
      {"bf16", 4096, 4096, 4096, "256x128x64.s4.persistent.c2.tmastore"},
  });
}

TEST(Registry, AutoChargesWgmmaRsSlicesAtL2Speed) {
  // Measured on the H200 (docs/ladder.md, step 28, "The slices stay in L2"), tf32 NN, us per
  // run: with the slices' round trip charged at L2 rather than DRAM speed, the 256-column
  // split-K entry took these from the 64-column tile (42.9 against 49.6, 85.3 against 109.7,
  // 85.2 against 94.0, 66.9 against 71.0). The first three now transpose A first
  // (AutoTransposesTheFewRowOperand): 38.2 against 43.5, 77.1 against 85.3, 72.3 against
  // 85.5 for split-K in one process.
  using tilemm::Op;
  const std::string wide_split = "wgmma_rs.tf32.128x256x32.s4.persistent.tmastore.splitk";
  EXPECT_EQ(auto_choice(typed_problem("tf32", 256, 4096, 4096, Op::N, Op::N)),
            "wgmma.tf32.64x128x32.s8.persistent.tmastore.transpose");
  EXPECT_EQ(auto_choice(typed_problem("tf32", 64, 8192, 8192, Op::N, Op::N)),
            "wgmma.tf32.64x128x32.s8.persistent.tmastore.transpose");
  EXPECT_EQ(auto_choice(typed_problem("tf32", 128, 14336, 4096, Op::N, Op::N)),
            "wgmma.tf32.128x128x32.s6.persistent.tmastore.transpose");
  // 67.1 against 81.0 for the 64-row `.transpose` entry the scores rank next (its split-K
  // twin, ranked below both, ran 64.6).
  EXPECT_EQ(auto_choice(typed_problem("tf32", 128, 4096, 11008, Op::N, Op::N)), wide_split);
}

TEST(Registry, AutoTransposesTheFewRowOperand) {
  // tf32 NN and TT where the operand that is not K-major is small: transposed into the
  // workspace, the product runs on the TN tiles, which beat wgmma_rs's register-fed k-loop
  // there. Measured on the H200 (docs/ladder.md, step 28, "The few-row products
  // transposed"), us per run in one process, auto's pick against the best entry of the other kind.
  using tilemm::Op;
  const std::string t128 = "wgmma.tf32.128x128x32.s6.persistent.tmastore.transpose";
  const std::string rs = "wgmma_rs.tf32.128x256x32.s4.persistent.tmastore";
  const std::string rs_narrow_split = "wgmma_rs.tf32.128x64x32.s8.persistent.tmastore.splitk";
  EXPECT_EQ(auto_choice(typed_problem("tf32", 128, 11008, 4096, Op::N, Op::N)), t128);  // 60.1 against 69.4
  EXPECT_EQ(auto_choice(typed_problem("tf32", 11008, 128, 4096, Op::T, Op::T)), t128);  // 59.6 against 70.2
  EXPECT_EQ(auto_choice(typed_problem("tf32", 16, 14336, 4096, Op::N, Op::N)),
            "wgmma.tf32.64x128x32.s8.persistent.tmastore.transpose");  // 71.9 against 76.1
  // The pass stays off where wgmma_rs is faster: the transposed operand is large (16-row TT
  // transposes 4096 x 4096), or its TN form puts few columns across the 128-column tile.
  EXPECT_EQ(auto_choice(typed_problem("tf32", 16, 4096, 4096, Op::T, Op::T)), rs_narrow_split);  // 27.5 against 65.4
  EXPECT_EQ(auto_choice(typed_problem("tf32", 4096, 16, 4096, Op::T, Op::T)), rs + ".splitk");    // 31.4 against 50.4
  EXPECT_EQ(auto_choice(typed_problem("tf32", 4096, 128, 4096, Op::T, Op::T)), rs_narrow_split);  // 32.2 against 33.2
  // TT with n below the tile's 128 columns never transposes (one consumer would idle).
  EXPECT_EQ(auto_choice(typed_problem("tf32", 11008, 16, 4096, Op::T, Op::T)), rs + ".splitk");  // 59.6 against 98.7
  EXPECT_EQ(auto_choice(typed_problem("tf32", 14336, 64, 4096, Op::T, Op::T)), rs + ".splitk");  // 79.6 against 94.2
  EXPECT_EQ(auto_choice(typed_problem("tf32", 256, 11008, 4096, Op::N, Op::N)), rs);               // 85.6 against 93.3
  EXPECT_EQ(auto_choice(typed_problem("tf32", 1024, 4096, 4096, Op::N, Op::N)), rs);               // 87.3 against 103.5
}

TEST(Registry, AutoTakesTheWideRegisterFedTileForOneColumnOfTilesAndLongK) {
  // tf32 NN with n in (64, 256] and TT with m there: D has one column of 256-column tiles.
  // Once the tile's B box stopped crossing B's edge, it overlapped its loads with its
  // arithmetic and beat the 64-column tile at k >= 4096 (H100, docs/ladder.md, step 28,
  // "Boxes across the edge"; us per run, one process per shape, interleaved).
  using tilemm::Op;
  const std::string wide = "wgmma_rs.tf32.128x256x32.s4.persistent.tmastore";
  const std::string narrow = "wgmma_rs.tf32.128x64x32.s8.persistent.tmastore";
  EXPECT_EQ(auto_choice(typed_problem("tf32", 14336, 128, 4096, Op::N, Op::N)), wide);  // 90.0 against 107.6
  EXPECT_EQ(auto_choice(typed_problem("tf32", 14336, 128, 8192, Op::N, Op::N)), wide);  // 169.4 against 221.3
  EXPECT_EQ(auto_choice(typed_problem("tf32", 128, 14336, 4096, Op::T, Op::T)), wide);  // 91.2 against 110.4
  // The 64-column tile stays where it was as fast or faster: D's columns within its 64, or
  // a short k.
  EXPECT_EQ(auto_choice(typed_problem("tf32", 14336, 16, 1024, Op::N, Op::N)), narrow);  // 28.0 against 29.6
  EXPECT_EQ(auto_choice(typed_problem("tf32", 64, 14336, 4096, Op::T, Op::T)), narrow);  // 87.7 against 90.7
  EXPECT_EQ(auto_choice(typed_problem("tf32", 128, 11008, 1024, Op::T, Op::T)), narrow);  // 29.4 against 31.2
}

TEST(Registry, AutoTransposesNtInSharedMemoryWhereThePassCostsMore) {
  // tf32 NT: wgmma_rs's in-place entries transpose Y in shared memory, at about half of NN's
  // main-loop rate; the `.repack` entry transposes B in a pass first and runs NN. Measured on
  // an H100 (docs/ladder.md, step 28, "NT transposed in shared memory"), us per run in one
  // process, auto's pick against the best of the other kind.
  using tilemm::Op;
  const std::string rs = "wgmma_rs.tf32.128x256x32.s4.persistent.tmastore";
  const std::string rs_narrow = "wgmma_rs.tf32.128x64x32.s8.persistent.tmastore";
  const std::string rs_narrow_split = rs_narrow + ".splitk";
  const auto nt = [](std::int64_t m, std::int64_t n) {
    return auto_choice(typed_problem("tf32", m, n, 4096, Op::N, Op::T));
  };
  EXPECT_EQ(nt(4096, 4096), rs + ".repack");           // 387 against 637
  EXPECT_EQ(nt(4096, 11008), rs + ".repack");          // 1055 against 1778
  EXPECT_EQ(nt(512, 11008), rs + ".repack");           // 293 against 320
  EXPECT_EQ(nt(128, 11008), rs + ".splitk");           // 92.9 against 222.1
  // The pass is charged by its time against the product's, so where the product is short
  // beside it (a few hundred rows), Y is transposed in shared memory instead. H100 and
  // H200 (docs/results/h200_repack_time_model.txt):
  EXPECT_EQ(nt(512, 4096), rs + ".splitk");            // 106.6 against 132.8 (H100), 109.7 against 123.7 (H200)
  EXPECT_EQ(nt(256, 8192), rs + ".splitk");            // 109.8 against 159.2 (H200)
  EXPECT_EQ(nt(256, 11008), rs);                       // 173.5 against 185.8
  EXPECT_EQ(nt(128, 14336), rs + ".splitk");           // 110.4 against 215.4
  EXPECT_EQ(nt(8192, 128), rs_narrow);                 // 75.7 against 88.0
  // and where it is long, the pass stays: 223.4 against 246.2 for the split in place.
  EXPECT_EQ(auto_choice(typed_problem("tf32", 3072, 512, 11008, Op::N, Op::T)), rs + ".repack");
  // With at most 64 rows in A, C^T: A is the operand transposed, the 16 rows across the
  // 64-column tile.
  EXPECT_EQ(nt(16, 4096), "skinny_mma.tf32.16x64x64.w4.s4.clusterk.ldgshort");  // since stop 52: 26.6 against 29.0
  EXPECT_EQ(nt(16, 128), rs_narrow_split);             // 14.4 against 87.3
  EXPECT_EQ(nt(4096, 128), rs_narrow_split);           // 47.6 against 87.5
}

TEST(Registry, AutoChargesRepackingByTheTimeOfItsCopies) {
  // A `.repack` entry's copies are charged by their time against the product's, a transpose
  // of a source the 16-byte loads cannot read at 0.6 of a copy's rate. So at odd leading
  // dimensions the entry that copies beats the one that transposes the same operand: a TN
  // product with few columns copies A for wgmma rather than transposing it for wgmma_rs.
  // H200, us per run in one process (docs/results/h200_repack_time_model.txt); at 4093^3
  // the two entries now run within 1.3% of each other.
  using tilemm::Op;
  const std::string rs_repack = "wgmma_rs.tf32.128x256x32.s4.persistent.tmastore.repack";
  const std::string wgmma_repack = "wgmma.tf32.256x128x32.s4.persistent.c2.tmastore.repack";
  const auto tf32 = [](std::int64_t m, std::int64_t n, std::int64_t k, Op opa, Op opb) {
    return auto_choice(typed_problem("tf32", m, n, k, opa, opb));
  };
  EXPECT_EQ(tf32(4093, 4093, 4093, Op::N, Op::N), rs_repack);      // 436.8 against 437.6
  EXPECT_EQ(tf32(4093, 4093, 4093, Op::T, Op::N), wgmma_repack);   // 435.7 against 441.3
  EXPECT_EQ(tf32(4093, 4093, 4093, Op::N, Op::T), rs_repack);      // 442.8 against 443.9
  EXPECT_EQ(tf32(14336, 128, 4093, Op::T, Op::N), wgmma_repack);   // 215.9 against 276.7
  // With 16 columns neither copies: skinny_mma's `.ldg4` reads A in place, 88.6 us against
  // 235.5 for wgmma's `.repack` (cuBLAS 100.8).
  EXPECT_EQ(tf32(14336, 16, 4093, Op::T, Op::N), "skinny_mma.tf32.16x64x64.w4.s2.ldg4");
}

TEST(Registry, AutoChargesThePingPongTileForColumnsOffSectors) {
  // Columns not 32 bytes apart (bf16 ld = 1000) cost the 128 x 128 ping-pong tile far more
  // than the cluster entry. H100, us per run, interleaved in one process
  // (docs/results/h200_skinny_any_ld.txt, part 8): the new choice against the ping-pong tile.
  using tilemm::Op;
  const auto choice = [](std::int64_t m, std::int64_t n, std::int64_t k, Op opa) {
    return auto_choice(typed_problem("bf16", m, n, k, opa, Op::N));
  };
  const std::string c2 = "wgmma.bf16.256x128x64.s4.persistent.c2.tmastore";
  const std::string pingpong = "wgmma.bf16.128x128x64.s6.persistent.tmastore.pingpong";
  EXPECT_EQ(choice(14336, 1000, 1000, Op::N), c2);                     // 61.4 against 78.6
  EXPECT_EQ(choice(14336, 1000, 1000, Op::T), c2);                     // 64.4 against 104.7
  EXPECT_EQ(choice(4096, 11008, 1000, Op::T), c2);                     // 164.9 against 301.5
  // 5000 x 5000 x 1000 NN went to the 128 x 192 tile (156.5 against 179.4), and since that tile
  // pays for the off-sector operands too, to the cluster entry: 98.3 / 94.8 against 134.2 /
  // 120.4 on an H100 / H200 (docs/results/h100_h200_stream_k_ranges.txt, runs 9-10).
  EXPECT_EQ(choice(5000, 5000, 1000, Op::N), c2);
  // 3000^3 (both operands off) likewise left the 128 x 192 tile: 99.0 / 85.3 against 130.1 / 108.4.
  EXPECT_EQ(choice(3000, 3000, 3000, Op::N), "wgmma.bf16.192x128x64.s5.persistent.c2.tmastore");
  // On whole lines it keeps them: 14336 x 1024 x 1024 NN 51.1 against the cluster entry's 58.9.
  EXPECT_EQ(choice(14336, 1024, 1024, Op::N), pingpong);
  EXPECT_EQ(choice(1000, 14336, 1024, Op::T), pingpong);               // 46.4 (cuBLAS 50.9)
}

TEST(Registry, AutoTakesThe192RowClusterTileWhereItFillsTheWaves) {
  // 192 x 128 tiles in clusters of two fill two waves where 256 x 128 ones leave a quarter of
  // the SMs idle, and keep their speed off 128-byte lines, where the 128-row tiles lose it.
  // H200, us per run, interleaved with the previous choice and cuBLAS
  // (docs/results/h200_192x128_cluster_tile.txt: part 4, the first build with 4 stages, and
  // parts 7-8, the 5 stages kept).
  using tilemm::Op;
  const auto choice = [](const char* dtype, std::int64_t m, std::int64_t n, std::int64_t k, Op opa, Op opb) {
    return auto_choice(typed_problem(dtype, m, n, k, opa, opb));
  };
  EXPECT_EQ(choice("bf16", 6000, 1000, 5000, Op::N, Op::N),
            "wgmma.bf16.192x128x64.s5.persistent.c2.tmastore");  // 109.6 (4 stages: 113.2) against 152.8
  EXPECT_EQ(choice("bf16", 3000, 1000, 4096, Op::N, Op::N),
            "wgmma.bf16.192x128x64.s5.persistent.c2.tmastore");  // 38.8 (4 stages: 42.6) against 69.6
  EXPECT_EQ(choice("fp16", 3000, 1000, 5000, Op::T, Op::T),
            "wgmma.fp16.192x128x64.s5.persistent.c2.tmastore");  // 4 stages: 59.5 against 139.4
  EXPECT_EQ(choice("tf32", 3072, 1024, 11008, Op::T, Op::N),
            "wgmma.tf32.192x128x32.s5.persistent.c2.tmastore");  // 172.5 (4 stages: 172.3) against 275.0
  // Where k is about 1000 its stop between tiles is charged: the previous choices ran faster.
  EXPECT_EQ(choice("bf16", 3072, 1024, 1024, Op::N, Op::N),
            "wgmma.bf16.128x128x64.s6.persistent.tmastore.pingpong");  // 18.4 against 22.0
  EXPECT_EQ(choice("bf16", 14336, 1000, 1000, Op::N, Op::N),
            "wgmma.bf16.256x128x64.s4.persistent.c2.tmastore");  // 53.6 against 61.1
  // Where the 256 x 128 tiles fill their waves they stay: 4096^3 0.1864 ms against 0.1984.
  EXPECT_EQ(choice("bf16", 4096, 4096, 4096, Op::N, Op::N), "wgmma.bf16.256x128x64.s4.persistent.c2.tmastore");
}

TEST(Registry, AutoChargesTheClusterlessTilesForColumnsOffSectorsWhereTheyFillWaves) {
  // bf16 ld = 1000 puts an operand's columns off 32-byte sectors. Where the 128 x 128 tiles
  // fill more than a wave (376 of them at m = 6000), the 192 x 128 cluster tile beats them in
  // every layout; with one wave or less the 128 x 128 tile keeps them. H100, us per run
  // interleaved with the previous choice and cuBLAS (docs/results/h100_l2_promotion.txt,
  // parts 5-7).
  using tilemm::Op;
  const std::string t192 = "wgmma.bf16.192x128x64.s5.persistent.c2.tmastore";
  const std::string t128 = "wgmma.bf16.128x128x64.s6.persistent.tmastore";
  EXPECT_EQ(auto_choice(typed_problem("bf16", 6000, 1000, 1000, Op::N, Op::N)), t192);  // 30.8 against 36.1
  EXPECT_EQ(auto_choice(typed_problem("bf16", 6000, 1000, 1000, Op::N, Op::T)), t192);  // 31.2 against 36.7
  EXPECT_EQ(auto_choice(typed_problem("bf16", 6000, 1000, 1000, Op::T, Op::N)), t192);  // 31.5 against 42.0
  EXPECT_EQ(auto_choice(typed_problem("bf16", 6000, 1000, 1000, Op::T, Op::T)), t192);  // 31.5 against 43.2
  // 128 tiles: 32.0 against 35.4; 86 tiles: 54.8 against 58.8.
  EXPECT_EQ(auto_choice(typed_problem("bf16", 512, 4096, 3000, Op::T, Op::T)), t128);
  EXPECT_EQ(auto_choice(typed_problem("bf16", 128, 11008, 5000, Op::T, Op::T)), t128);
}

TEST(Registry, AutoReadsOddLeadingDimensionsOfSixteenRowProductsInPlace) {
  // At most 16 rows (or columns) and an operand the 16-byte copies cannot read: skinny_mma's
  // `.ldg` entries load it element by element, k split across blocks. Before them auto took
  // mma_sync's 128 x 128 `.ldg` tile (no split-K) or a `.repack` entry that copies the long
  // operand first. H200, us per run, entries interleaved in one process
  // (docs/results/h200_skinny_any_ld.txt): the `.ldg` entry against the previous choice
  // (cuBLAS).
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  const std::string tf32 = "skinny_mma.tf32.16x64x64.w4.s2.ldg4";
  EXPECT_EQ(choice("tf32", 16, 16, 4093, Op::N, Op::N), tf32);         // 11.3 against 194 (15.0)
  EXPECT_EQ(choice("tf32", 16, 4093, 4093, Op::N, Op::N), tf32);       // 32.0 against 119.4 (38.0)
  // The long operand n-contiguous (A here, read as B^T): the tf32 `.ldgshort` tile streams it
  // through its ring (stop 52: 61.3 against 87.3 for `.ldg4`, cuBLAS 109.4).
  EXPECT_EQ(choice("tf32", 14336, 16, 4093, Op::N, Op::N), "skinny_mma.tf32.16x64x64.w4.s4.clusterk.ldgshort");
  EXPECT_EQ(choice("tf32", 17, 8192, 8192, Op::N, Op::T), "skinny_mma.tf32.16x64x64.w4.s4.clusterk.ldgshort");
  // And with a readable lda, at most 16 rows in NT (stop 52: 12 x 8192 x 8192 NT 68.2 against
  // 82.4 us for wgmma_rs, cuBLAS 73.4); 20 rows stay on wgmma_rs.
  EXPECT_EQ(choice("tf32", 12, 8192, 8192, Op::N, Op::T), "skinny_mma.tf32.16x64x64.w4.s4.clusterk.ldgshort");
  EXPECT_EQ(choice("tf32", 11008, 16, 4096, Op::N, Op::T), "skinny_mma.tf32.16x64x64.w4.s4.clusterk.ldgshort");
  EXPECT_EQ(choice("tf32", 20, 8192, 8192, Op::N, Op::T).rfind("skinny_mma", 0), std::string::npos);
  // B k-contiguous (NN): `.ldg4` kept, the two traded wins by shape (17 x 11008 x 8192 NN 266.7
  // against 313.2 us for `.ldgshort`, 17 x 8192 x 8192 NN 221.8 against 160.8).
  EXPECT_EQ(choice("tf32", 17, 11008, 8192, Op::N, Op::N), tf32);
  for (const std::string d : {"bf16", "fp16"}) {
    const std::string ldg2 = "skinny_mma." + d + ".16x64x128.w4.s2.ldg2";
    // 16 tiles: since stop 61 the same tile's `.clusterk` form (fp16 16 x 1024 x 4093 14.6 against
    // 15.1 us; AutoSumsTheElementLoadTilesSlicesInsideAClusterWhereTheyAreFew).
    EXPECT_EQ(choice(d, 16, 1000, 4093, Op::N, Op::N), ldg2 + ".clusterk");  // `.ldg`: bf16 14.3 against 263 (18.0)
    EXPECT_EQ(choice(d, 4093, 16, 4093, Op::T, Op::N), ldg2);          // 24.9 against 74.3 (44.7)
    EXPECT_EQ(choice(d, 14336, 16, 4093, Op::T, Op::N), ldg2);         // 68.0 against 129.9 (102.3)
    // Only the short operand unreadable (B = 4093 x 16 with ldb = 4093): the 16-row tile streams
    // the long one and reads the short one element by element (stop 52, bf16: 33.7 us against
    // 38.4 for the copy first, auto's choice before, and 71.8 for the `.ldg` entry; cuBLAS
    // 102.7; at 1000 rows 11.5 against 15.6 for the `.ldg` entry, auto's choice before, cuBLAS
    // 18.4).
    const std::string short_by_elements = "skinny_mma." + d + ".16x64x128.w4.s4.clusterk.ldgshort";
    EXPECT_EQ(choice(d, 14336, 16, 4093, Op::N, Op::N), short_by_elements);
    EXPECT_EQ(choice(d, 1000, 16, 4093, Op::N, Op::N), short_by_elements);
    // Both readable: the 16-byte copies' entries keep them.
    EXPECT_EQ(choice(d, 16, 4096, 4096, Op::N, Op::N), "skinny_mma." + d + ".16x64x128.w4.s4.clusterk");
  }
  // Up to 32 rows, though the tile re-reads the long operand once per 16 rows (H200,
  // docs/results/h200_skinny_any_ld.txt part 11): the `.ldg` entry against the previous
  // choice (cuBLAS).
  EXPECT_EQ(choice("tf32", 32, 4093, 4093, Op::N, Op::N), tf32);       // 53.7 against 119.4 (40.7)
  EXPECT_EQ(choice("tf32", 24, 11008, 4093, Op::T, Op::N), tf32);      // 115.4 against 241.2 (103.6)
  const std::string bf16 = "skinny_mma.bf16.16x64x128.w4.s2.ldg2";
  EXPECT_EQ(choice("bf16", 32, 1000, 4093, Op::N, Op::N), bf16);       // 17.7 against 190
  EXPECT_EQ(choice("bf16", 32, 11008, 4093, Op::N, Op::N), bf16);      // 107.0 against 138.5
  // More rows keep their entries (tf32 48 x 11008 x 4093 NN: 246.8 against 178.5).
  EXPECT_EQ(choice("tf32", 48, 11008, 4093, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
}

TEST(Registry, AutoSumsTheElementLoadTilesSlicesInsideAClusterWhereTheyAreFew) {
  // Products the `.ldg` entries take (an operand the 16-byte copies cannot read) with one row
  // tile, at most a quarter as many column tiles as SMs and 2-32 stages of k: their `.clusterk`
  // form, k cut into slices of one stage summed inside the cluster. H100, stop 61, us per run
  // against the `.ldg` entry (cuBLAS), docs/results/h100_vectors_cluster_k_and_stream_k.txt.
  using tilemm::Op;
  const auto choice = typed_auto_choice;
  const std::string fp16 = "skinny_mma.fp16.16x64x128.w4.s2.ldg2";
  EXPECT_EQ(choice("fp16", 2, 1, 669, Op::N, Op::N), fp16 + ".clusterk");     // 6.6 against 9.7 (6.3)
  EXPECT_EQ(choice("fp16", 385, 1, 448, Op::N, Op::N), fp16 + ".clusterk");   // 6.8 against 10.3 (7.3)
  const std::string bf16 = "skinny_mma.bf16.16x64x128.w4.s2.ldg2", tf32 = "skinny_mma.tf32.16x64x64.w4.s2.ldg4";
  EXPECT_EQ(choice("bf16", 43, 1, 1024, Op::N, Op::T), bf16 + ".clusterk");   // 7.1 against 9.0 (5.8)
  EXPECT_EQ(choice("tf32", 963, 1, 925, Op::T, Op::N), tf32 + ".clusterk");   // 8.5 against 10.6 (8.3)
  // Past 16 stages, where the cluster's (at most 8) slices are the longer ones.
  EXPECT_EQ(choice("fp16", 1, 127, 2242, Op::N, Op::T), fp16 + ".clusterk");  // 10.0 against 11.6 (8.1)
  EXPECT_EQ(choice("fp16", 16, 1024, 4093, Op::N, Op::N), fp16 + ".clusterk");  // 14.6 against 15.1 (16.3)
  // Outside: one stage of k, and (not measured) more than 32 stages, more than 33 tiles (16 x 2112,
  // 33 tiles, takes it) or two row tiles past 18 stages; and Ampere (no clusters).
  EXPECT_EQ(choice("fp16", 2, 1, 100, Op::N, Op::N), fp16);
  EXPECT_EQ(choice("fp16", 16, 1000, 8191, Op::N, Op::N), fp16);
  EXPECT_EQ(choice("fp16", 16, 2112, 4093, Op::N, Op::N), fp16 + ".clusterk");
  EXPECT_EQ(choice("fp16", 16, 2113, 4093, Op::N, Op::N), fp16);
  EXPECT_EQ(choice("fp16", 24, 1000, 4093, Op::N, Op::N), fp16);  // 16.6 against 16.1 (15.7)
  EXPECT_EQ(auto_choice(typed_problem("fp16", 2, 1, 669, Op::N, Op::N), ampere_device()), fp16);
  // Since stop 63, more column tiles where k is shorter (H100, stop 62's grid, the chosen entry
  // against the other, docs/results/h100_short_k_smem_store_and_few_row_copies.txt): up to 18
  // stages with a third as many column tiles as SMs, up to 6 stages with as many, either row count.
  EXPECT_EQ(choice("fp16", 20, 1024, 669, Op::N, Op::N), fp16 + ".clusterk");   // 24 rows: 8.0 against 11.8 (10.3)
  EXPECT_EQ(choice("fp16", 16, 4224, 669, Op::N, Op::N), fp16 + ".clusterk");   // 10.2 against 12.9 (12.7)
  EXPECT_EQ(choice("fp16", 1, 8448, 669, Op::N, Op::N), fp16 + ".clusterk");    // 13.4 against 14.3 (12.7)
  EXPECT_EQ(choice("fp16", 24, 2200, 2242, Op::N, Op::N), fp16 + ".clusterk");  // 17.5 against 19.6 (15.6)
  EXPECT_EQ(choice("fp16", 1, 2816, 2242, Op::N, Op::N), fp16 + ".clusterk");   // 44 column tiles
  EXPECT_EQ(choice("fp16", 1, 2817, 2242, Op::N, Op::N), fp16);
  EXPECT_EQ(choice("fp16", 16, 4224, 2242, Op::N, Op::N), fp16);                // 18.5 against 19.0 (20.1)
  EXPECT_EQ(choice("fp16", 16, 8448, 1001, Op::N, Op::N), fp16);                // 8 stages, 132 column tiles
  EXPECT_EQ(choice("fp16", 1, 8449, 669, Op::N, Op::N), fp16);                  // 133 column tiles
  EXPECT_EQ(choice("fp16", 32, 2200, 4093, Op::N, Op::N), fp16);                // 29.3 against 31.3 (25.7)
  // Since stop 66, readable tf32 vectors of one row tile with 128-1024 columns and k = 256-1024
  // (tf32 has no 16-byte-copy skinny_mma tile; H100, stop 66's grid, against wgmma's or
  // wgmma_rs's tile auto took, docs/results/h100_every_readable_vector.txt).
  EXPECT_EQ(choice("tf32", 16, 512, 512, Op::N, Op::N), tf32 + ".clusterk");    // 7.7 against 11.1 (9.8)
  EXPECT_EQ(choice("tf32", 8, 128, 1024, Op::T, Op::T), tf32 + ".clusterk");    // 7.8 against 10.8 (9.9)
  EXPECT_EQ(choice("tf32", 16, 1024, 256, Op::T, Op::N), tf32 + ".clusterk");   // 6.8 against 7.7 (8.3)
  // Outside, where some layouts lost: past 1024 columns, from k = 2048, at k = 128.
  EXPECT_EQ(choice("tf32", 16, 2048, 512, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
  EXPECT_EQ(choice("tf32", 16, 512, 2048, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
  EXPECT_EQ(choice("tf32", 16, 512, 128, Op::N, Op::N).rfind("skinny_mma", 0), std::string::npos);
  EXPECT_EQ(choice("bf16", 16, 512, 512, Op::N, Op::N).find(".ldg"), std::string::npos);  // 16-bit: 16-byte copies
}

TEST(Registry, AutoCountsMmaSyncAtItsShareOfWgmmasRateOnHopper) {
  // On sm_90 mma_sync runs tf32 at about a third of wgmma's rate; scored at that share, it
  // no longer outscores wgmma_rs's NT or repacking entries (H200, tf32 NT 11008 x 16 x
  // 4096: the 128 x 256 mma_sync tile 279.3 us, wgmma_rs's 64-column tile in place 74.1;
  // since stop 52 skinny_mma's tf32 16-row tile, 62.4 against 68.8 for wgmma_rs).
  // Without wgmma (compute capability 8.0) it is the tensor-core path.
  using tilemm::Op;
  const tilemm::GemmProblem p = typed_problem("tf32", 11008, 16, 4096, Op::N, Op::T);
  EXPECT_EQ(auto_choice(p), "skinny_mma.tf32.16x64x64.w4.s4.clusterk.ldgshort");
  EXPECT_EQ(auto_choice(p, ampere_device()).rfind("mma_sync.tf32.", 0), 0u) << auto_choice(p, ampere_device());
}

TEST(SplitK, FewLatencyBoundBlocksTakeOneKTileASlice) {
  using tilemm::kernels::split_k_slices_one_k_tile_each;
  // skinny_splitk on an H100: 132 SMs x 2 blocks (4-byte copies) or 3 (16-byte), k-tiles of
  // 32, at least 4 slices of one k-tile, else slices of at least 8, at most 64.
  // 15 x 121 x 454 NN: one tile, 14 k-tiles: 14 slices (it walked 25 us in one).
  EXPECT_EQ(split_k_slices_one_k_tile_each(1, 264, 14, 8, 4, 64), 14);
  // 64 x 3 x 72 TN: 2 k-tiles, too few slices to repay the split-K pass: one slice.
  EXPECT_EQ(split_k_slices_one_k_tile_each(1, 264, 2, 8, 4, 64), 1);
  EXPECT_EQ(split_k_slices_one_k_tile_each(1, 264, 3, 8, 4, 64), 1);
  EXPECT_EQ(split_k_slices_one_k_tile_each(1, 264, 4, 8, 4, 64), 4);
  // 260 x 714 x 225 NN: 102 tiles leave room for 2 slices only: one slice, as before.
  EXPECT_EQ(split_k_slices_one_k_tile_each(102, 264, 7, 8, 4, 64), 1);
  // 16 x 4096 x 512 NN: 32 tiles, 16 k-tiles: 12 slices (2 of at least 8 k-tiles before).
  EXPECT_EQ(split_k_slices_one_k_tile_each(32, 396, 16, 8, 4, 64), 12);
  // The decode shapes keep their count, bounded by the wave: 16 x 11008 x 4096 (86 tiles) 4,
  // 32 x 4096 x 4096 (64 tiles) 6; a long k with few tiles stops at 64.
  EXPECT_EQ(split_k_slices_one_k_tile_each(86, 396, 128, 8, 4, 64), 4);
  EXPECT_EQ(split_k_slices_one_k_tile_each(64, 396, 128, 8, 4, 64), 6);
  EXPECT_EQ(split_k_slices_one_k_tile_each(1, 396, 128, 8, 4, 64), 64);
}

TEST(SplitK, ShortBlocksTakeTheSlicesThatFillTheirLastWave) {
  using tilemm::kernels::split_k_slices_filling_waves;
  // The fp32 tiles on an H200: 132 SMs x 2 blocks of 128 x 128, k-tiles of 8, slices of at
  // least 16 k-tiles, at most 32. 128 x 14336 x 4096 has 112 tiles: 2 slices (224 blocks)
  // fill 85% of one wave, 7 slices (784 blocks) 99% of three.
  EXPECT_EQ(split_k_slices_filling_waves(112, 264, 4096, 8, 16, 32, 0.9), 7);
  // 1000^3: 64 tiles in 4 slices already fill 97%.
  EXPECT_EQ(split_k_slices_filling_waves(64, 264, 1000, 8, 16, 32, 0.9), 4);
  // Tiles for half the slots or more, in one wave that is less than 90% full: 224 tiles
  // (256 x 14336) fill 85%, 7 slices 99% of six waves; 200 fill 76%, 5 slices 95%.
  EXPECT_EQ(split_k_slices_filling_waves(224, 264, 4096, 8, 16, 32, 0.9), 7);
  EXPECT_EQ(split_k_slices_filling_waves(200, 264, 4096, 8, 16, 32, 0.9), 5);
  // One wave 97% full (2048^3: 256 tiles), or more tiles than slots: whole.
  EXPECT_EQ(split_k_slices_filling_waves(256, 264, 2048, 8, 16, 32, 0.9), 1);
  EXPECT_EQ(split_k_slices_filling_waves(300, 264, 4096, 8, 16, 32, 0.9), 1);
  // A short k caps the count: k = 256 allows two slices of 16 k-tiles.
  EXPECT_EQ(split_k_slices_filling_waves(112, 264, 256, 8, 16, 32, 0.9), 2);
}

TEST(SplitK, SliceLengthsCoverKWithoutAnEmptySlice) {
  // Every launcher cuts k into ceil(k / length) slices of split_k_slice_length: each a whole
  // number of k-tiles but the last, none empty, no more than asked for, together exactly k.
  // A wasted split gives correct results, so the GPU tests cannot see it. This pins the
  // helper only: stop 50's bug (every slice but the first empty) was in a launcher's own
  // arithmetic, which only the bench's times showed.
  using tilemm::kernels::split_k_slice_length;
  std::vector<std::int64_t> ks;
  for (std::int64_t k = 1; k <= 3 * 1024 + 7; k += 13) ks.push_back(k);  // odd lengths
  for (std::int64_t k = 128; k <= 16 * 1024; k += 128) ks.push_back(k);  // whole tiles of every bk
  for (const int bk : {8, 32, 64, 128}) {
    for (const std::int64_t k : ks) {
      for (int slices = 1; slices <= 16; ++slices) {
        const std::int64_t length = split_k_slice_length(k, slices, bk);
        ASSERT_GT(length, 0);
        ASSERT_EQ(length % bk, 0) << "k " << k << ", " << slices << " slices";
        const std::int64_t launched = (k + length - 1) / length;
        ASSERT_LE(launched, slices) << "k " << k << ", bk " << bk;
        ASSERT_GT(k - (launched - 1) * length, 0) << "k " << k << ", bk " << bk << ": an empty last slice";
        // As many slices as asked where the k-tiles allow it (k of at least slices tiles of
        // bk, cut evenly).
        if (k % (std::int64_t(slices) * bk) == 0) {
          ASSERT_EQ(launched, slices) << "k " << k << ", bk " << bk;
        }
      }
    }
  }
}

TEST(SkinnyMma, ShortOperandLoadsAreAsWideAsEveryPieceAllows) {
  // `.ldgshort` loads 4 or 2 elements of the short operand at once only where every piece is
  // aligned and whole or outside the matrix; a wrong answer reads across the matrix's edge
  // (or traps on a misaligned load), which only some shapes of the GPU plan would show.
  using tilemm::kernels::short_operand_elements_per_load;
  alignas(16) static std::uint16_t storage[64];
  const auto problem = [](std::int64_t m, std::int64_t k, std::int64_t lda, int offset) {
    tilemm::GemmProblem p = typed_problem("bf16", m, 4096, k);
    p.lda = lda;
    p.A = storage + offset;
    return p;
  };
  // NN decode batches (A m-contiguous, the pieces run along m).
  EXPECT_EQ(short_operand_elements_per_load(problem(20, 4096, 20, 0), false), 4);
  EXPECT_EQ(short_operand_elements_per_load(problem(12, 4096, 12, 0), false), 4);
  EXPECT_EQ(short_operand_elements_per_load(problem(22, 4096, 22, 0), false), 2);
  EXPECT_EQ(short_operand_elements_per_load(problem(17, 4096, 17, 0), false), 1);
  EXPECT_EQ(short_operand_elements_per_load(problem(18, 4096, 20, 0), false), 2);  // a piece would cross m
  EXPECT_EQ(short_operand_elements_per_load(problem(20, 4096, 20, 2), false), 2);  // base 4 bytes off
  EXPECT_EQ(short_operand_elements_per_load(problem(20, 4096, 20, 1), false), 1);  // base 2 bytes off
  // k-contiguous A (TN): the pieces run along k, so k and lda decide.
  EXPECT_EQ(short_operand_elements_per_load(problem(20, 4096, 4096, 0), true), 4);
  EXPECT_EQ(short_operand_elements_per_load(problem(20, 4094, 4096, 0), true), 2);
  EXPECT_EQ(short_operand_elements_per_load(problem(20, 4093, 4093, 0), true), 1);
}

TEST(Registry, AutoAlternatesWholeTilesWhereCooperativeTilesAreShort) {
  // Measured on the H200 (docs/ladder.md, "A whole tile per consumer"), us per run, the
  // ping-pong 128 x 128 tile against auto's previous pick in the same process: where a
  // 256 x 128 tile is short (k up to ~3000) or the cooperative tiles fill their waves worse,
  // hiding each tile's epilogue behind the other consumer's k-loop wins; from k = 4096 with
  // full waves, one tile per CTA, or columns off whole 128-byte lines, it does not.
  const std::string pp = "128x128x64.s6.persistent.tmastore.pingpong";
  expect_native_choices({
      {"bf16", 2048, 2048, 2048, pp.c_str()},    // 28.8 against 32.7 (256 x 128 cluster entry)
      {"fp16", 2048, 2048, 2048, pp.c_str()},    // 29.4 against 33.1
      {"bf16", 4096, 4096, 1024, pp.c_str()},    // 53.5 against 58.6
      {"bf16", 1536, 8192, 1024, pp.c_str()},    // 41.9 against 46.8
      {"bf16", 2048, 11008, 1024, pp.c_str()},   // 70.2 against 74.8 (cooperative 128 x 128)
      {"fp16", 768, 14336, 512, pp.c_str()},     // 28.0 against 32.4
      {"bf16", 4096, 11008, 4096, pp.c_str()},   // 483.2 against 495.3 (its last wave is fuller)
      {"tf32", 3072, 4096, 512, "128x128x32.s6.persistent.tmastore.pingpong"},  // 43.7 against 49.8
      {"bf16", 4096, 4096, 4096, "256x128x64.s4.persistent.c2.tmastore"},   // 180.4 against 181.2
      {"bf16", 4096, 4096, 11008, "256x128x64.s4.persistent.c2.tmastore"},  // 465.7 against 487.6
      {"bf16", 6144, 6144, 6144, "256x128x64.s4.persistent.c2.tmastore"},   // 620.0 against 626.6
      {"bf16", 3072, 3072, 3072, "128x192x64.s4.persistent.tmastore"},      // 80.8 against 87.6
      {"bf16", 128, 11008, 4096, "128x128x64.s6.persistent.tmastore"},      // 32.2 against 33.5
      {"bf16", 512, 4096, 3072, "128x128x64.s6.persistent.tmastore"},       // 24.4 against 25.3
  });
  // bf16 2000^3: columns 4000 bytes apart.
  EXPECT_EQ(auto_choice(typed_problem("bf16", 2000, 2000, 2000)), "wgmma.bf16.256x128x64.s4.persistent.c2.tmastore");
}

}  // namespace

