#include "kernel_selection.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace tilemm::bench {
namespace {

constexpr std::string_view kFamilyPrefix = "family:";

// "naive, smem_tiled, ...": the families, in registry order.
std::string family_list(const Registry& registry) {
  std::string families;
  std::set<std::string> seen;
  for (const auto& e : registry.entries()) {
    if (seen.insert(e.family).second) families += (families.empty() ? "" : ", ") + e.family;
  }
  return families;
}

std::string known_words(const Registry& registry) {
  std::string names;
  for (const auto& e : registry.entries()) names += (names.empty() ? "" : ", ") + e.name;
  return "kernels: " + names + "; families: " + family_list(registry) + "; or all, auto, cublas";
}

}  // namespace

KernelSelection select_kernels(const std::vector<std::string>& words, const Registry& registry,
                               bool include_cublas, const std::string& dtype) {
  KernelSelection selection;
  selection.cublas = include_cublas;
  const auto add = [&](const std::string& requested, const KernelEntry* entry) {
    const bool present = std::any_of(selection.kernels.begin(), selection.kernels.end(),
                                     [&](const KernelChoice& c) { return c.requested == requested; });
    if (!present) selection.kernels.push_back(KernelChoice{requested, entry});
  };
  const auto add_family = [&](const std::string& family) {
    bool any = false;
    for (const auto& e : registry.entries()) {
      if (e.family == family) {
        add(e.name, &e);
        any = true;
      }
    }
    return any;
  };

  for (const std::string& word : words) {
    if (word == "all") {
      for (const auto& e : registry.entries())
        if (e.computes(dtype)) add(e.name, &e);
    } else if (word == "auto") {
      add("auto", nullptr);
    } else if (word == "cublas") {
      selection.cublas = true;
    } else if (const KernelEntry* e = registry.find(word)) {
      add(e->name, e);
    } else if (word.starts_with(kFamilyPrefix)) {
      if (!add_family(word.substr(kFamilyPrefix.size()))) {
        throw std::invalid_argument("--kernel: no family '" + word.substr(kFamilyPrefix.size()) + "' (" +
                                    known_words(registry) + ")");
      }
    } else if (!add_family(word)) {
      throw std::invalid_argument("--kernel: '" + word + "' is neither a kernel nor a family (" +
                                  known_words(registry) + ")");
    }
  }
  return selection;
}

KernelSelection select_tuning_kernels(const std::string& family, const std::string& dtype,
                                      const Registry& registry, bool include_cublas) {
  KernelSelection selection;
  selection.cublas = include_cublas;
  bool family_known = false;
  std::set<std::string> eligible_dtypes;
  for (const auto& e : registry.entries()) {
    if (e.family != family) continue;
    family_known = true;
    if (!e.auto_eligible) continue;
    eligible_dtypes.insert(e.dtypes);
    if (e.computes(dtype)) selection.kernels.push_back(KernelChoice{e.name, &e});
  }
  if (!family_known) {
    throw std::invalid_argument("--tune-family: no family '" + family + "' (families: " + family_list(registry) +
                                ")");
  }
  if (selection.kernels.empty()) {
    std::string computed;
    for (const auto& d : eligible_dtypes) computed += (computed.empty() ? "" : "; ") + d;
    throw std::invalid_argument("--tune-family " + family + ": no auto-eligible kernel computes " + dtype +
                                (computed.empty() ? std::string(" (none is auto-eligible)")
                                                  : " (they compute: " + computed + ")"));
  }
  selection.kernels.push_back(KernelChoice{"auto", nullptr});
  return selection;
}

}  // namespace tilemm::bench
