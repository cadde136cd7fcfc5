// Turns the --kernel words into the rows to run, reading the registry (never a list of
// names kept here): "all" is every registered kernel in ladder order, "auto" is the
// library's own choice, a kernel name selects that kernel, a family name (or
// "family:NAME" where a kernel has the family's name) every kernel of the family, and
// "cublas" the cuBLAS row alone.
#pragma once

#include <string>
#include <vector>

#include "registry/registry.hpp"

namespace tilemm::bench {

struct KernelChoice {
  std::string requested;                // the registry name, or "auto"
  const KernelEntry* entry = nullptr;   // nullptr for "auto"
};

struct KernelSelection {
  std::vector<KernelChoice> kernels;  // in the order asked, each once
  bool cublas = false;
};

// Throws std::invalid_argument naming an unknown word and what is known. "all" is every
// registered kernel that computes `dtype` (named kernels and families are taken as
// asked, so a kernel of another type shows its refusal).
KernelSelection select_kernels(const std::vector<std::string>& words, const Registry& registry,
                               bool include_cublas, const std::string& dtype);

// --tune: the auto-eligible kernels of `family` that compute `dtype` (the registry's
// dtypes field), in registry order, then 'auto', so that its choice is measured next to
// them. Whether each can implement a shape is the library's answer at run time (the row
// is n/s otherwise). Throws std::invalid_argument when the family has none.
KernelSelection select_tuning_kernels(const std::string& family, const std::string& dtype,
                                      const Registry& registry, bool include_cublas);

}  // namespace tilemm::bench
