// A table of strings rendered as aligned text or as Markdown; the report and --list
// build their tables with it.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace tilemm::bench {

enum class Align : std::uint8_t { Left, Right };

class Table {
 public:
  void add_column(std::string header, Align align);
  // One cell per column.
  void add_row(std::vector<std::string> cells);

  void print_text(std::ostream& out) const;
  void print_markdown(std::ostream& out) const;

 private:
  struct Column {
    std::string header;
    Align align;
  };
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace tilemm::bench
