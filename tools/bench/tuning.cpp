#include "tuning.hpp"

#include <cstdint>

namespace tilemm::bench {
namespace {

struct Extents {
  std::int64_t m, n, k;
};

struct TuneClass {
  std::string_view name;
  std::vector<Extents> extents;
  std::string_view why;  // what the class tells auto's choice, for --help
};

// The one table of tuning shapes: tune_shapes and the --help text both read it.
const std::vector<TuneClass>& tune_classes() {
  static const std::vector<TuneClass> classes{
      {"square",
       {{2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}},
       "large squares, where the relative speeds come from"},
      {"odd",
       {{1000, 1000, 1000}, {4093, 4093, 4093}},
       "no tile divides them; lda = 4093 is unaligned"},
      {"tall",
       {{8192, 512, 4096}, {16384, 256, 4096}},
       "few tile columns"},
      {"wide", {{512, 8192, 4096}}, "few tile rows"},
      {"small",
       {{256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024}},
       "too few tiles to fill the GPU with large tiles"},
  };
  return classes;
}

// "4096^3" for a cube, "8192x512x4096" otherwise.
std::string extents_text(const Extents& e) {
  if (e.m == e.n && e.n == e.k) return std::to_string(e.m) + "^3";
  return std::to_string(e.m) + "x" + std::to_string(e.n) + "x" + std::to_string(e.k);
}

}  // namespace

std::vector<std::string> tune_class_names() {
  std::vector<std::string> names;
  for (const TuneClass& c : tune_classes()) names.emplace_back(c.name);
  names.emplace_back(kAllTuneClasses);
  return names;
}

std::vector<Shape> tune_shapes(std::string_view tune_class, Op opa, Op opb) {
  std::vector<Shape> shapes;
  for (const TuneClass& c : tune_classes()) {
    if (tune_class != c.name && tune_class != kAllTuneClasses) continue;
    for (const Extents& e : c.extents) {
      Shape shape{e.m, e.n, e.k, 1, opa, opb};
      shape.tune_class = std::string(c.name);
      shapes.push_back(std::move(shape));
    }
  }
  return shapes;
}

std::string tune_classes_description() {
  std::string text;
  for (const TuneClass& c : tune_classes()) {
    std::string line = "  " + std::string(c.name);
    line.resize(10, ' ');
    for (std::size_t i = 0; i < c.extents.size(); ++i) line += (i == 0 ? "" : ", ") + extents_text(c.extents[i]);
    text += line + ": " + std::string(c.why) + "\n";
  }
  return text + "  " + std::string(kAllTuneClasses) + "     every class above, in this order";
}

}  // namespace tilemm::bench
