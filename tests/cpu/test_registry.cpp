// Registry consistency: unique names, every family file registered, every kernel
// documented in docs/ladder.md, sane metadata.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

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

TEST(Registry, CanImplementRefusesOtherTypesAndOldDevices) {
  tilemm::GemmProblem p;
  p.m = p.n = p.k = 64;
  // A valid problem (ld >= rows), which the vectorized kernels' alignment check accepts.
  p.lda = p.ldb = p.ldc = 64;
  tilemm::DeviceInfo hopper;
  hopper.cc_major = 9;
  hopper.sm_count = 132;
  hopper.smem_per_block_optin = 227 * 1024;
  tilemm::DeviceInfo old;
  old.cc_major = 5;
  for (const auto& e : tilemm::registry().entries()) {
    EXPECT_EQ(e.can_implement(p, hopper), "") << e.name;
    EXPECT_NE(e.can_implement(p, old), "") << e.name;
    tilemm::GemmProblem half = p;
    half.a_type = half.b_type = tilemm::DType::F16;
    EXPECT_NE(e.can_implement(half, hopper), "") << e.name;
  }
}

}  // namespace
