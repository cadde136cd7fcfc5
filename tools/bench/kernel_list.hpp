// --list: every registered kernel with its family, ladder step, dtypes, requirements and
// design intensity, straight from the registry. Host-only, so it works without a GPU.
#pragma once

#include <ostream>

#include "registry/registry.hpp"

namespace tilemm::bench {

void print_kernel_list(std::ostream& out, const Registry& registry, bool markdown);

}  // namespace tilemm::bench
