#include "kernel_selection.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace tilemm::bench {
namespace {

constexpr std::string_view kFamilyPrefix = "family:";

std::string known_words(const Registry& registry) {
  std::string names, families;
  std::set<std::string> seen_families;
  for (const auto& e : registry.entries()) {
    names += (names.empty() ? "" : ", ") + e.name;
    if (seen_families.insert(e.family).second) families += (families.empty() ? "" : ", ") + e.family;
  }
  return "kernels: " + names + "; families: " + families + "; or all, auto, cublas";
}

}  // namespace

KernelSelection select_kernels(const std::vector<std::string>& words, const Registry& registry,
                               bool include_cublas) {
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
      for (const auto& e : registry.entries()) add(e.name, &e);
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

}  // namespace tilemm::bench
