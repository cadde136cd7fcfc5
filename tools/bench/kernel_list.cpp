#include "kernel_list.hpp"

#include <string>

#include "format.hpp"
#include "table.hpp"

namespace tilemm::bench {

void print_kernel_list(std::ostream& out, const Registry& registry, bool markdown) {
  Table table;
  table.add_column("step", Align::Right);
  table.add_column("kernel", Align::Left);
  table.add_column("family", Align::Left);
  table.add_column("dtypes", Align::Left);
  table.add_column("min cc", Align::Left);
  table.add_column("FLOP/B", Align::Right);
  table.add_column("auto", Align::Left);
  table.add_column("requirements", Align::Left);
  table.add_column("technique", Align::Left);
  for (const auto& e : registry.entries()) {
    table.add_row({std::to_string(e.ladder_step), e.name, e.family, e.dtypes,
                   std::to_string(e.min_compute_capability / 10) + "." + std::to_string(e.min_compute_capability % 10),
                   fixed(e.arithmetic_intensity, 2), e.auto_eligible ? "yes" : "no", e.requirements, e.summary});
  }
  if (markdown) {
    table.print_markdown(out);
  } else {
    table.print_text(out);
  }
  out << registry.entries().size()
      << " kernels registered. FLOP/B is the design's global-memory arithmetic intensity (CGMA x 4 for fp32); "
         "'auto' says whether the library's automatic choice considers the kernel.\n";
}

}  // namespace tilemm::bench
