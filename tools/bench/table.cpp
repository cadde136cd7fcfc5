#include "table.hpp"

#include <algorithm>
#include <stdexcept>

namespace tilemm::bench {
namespace {

// Display width in characters: UTF-8 continuation bytes take no column.
std::size_t display_width(const std::string& s) {
  return std::size_t(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string padded(const std::string& s, std::size_t width, Align align) {
  const std::size_t pad = width > display_width(s) ? width - display_width(s) : 0;
  return align == Align::Left ? s + std::string(pad, ' ') : std::string(pad, ' ') + s;
}

// A '|' inside a Markdown cell would end the cell.
std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

void Table::add_column(std::string header, Align align) { columns_.push_back(Column{std::move(header), align}); }

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) throw std::logic_error("Table::add_row: cell count differs from columns");
  rows_.push_back(std::move(cells));
}

void Table::print_text(std::ostream& out) const {
  std::vector<std::size_t> widths;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    std::size_t w = display_width(columns_[c].header);
    for (const auto& row : rows_) w = std::max(w, display_width(row[c]));
    widths.push_back(w);
  }
  const auto print_line = [&](const auto& cell_of) {
    std::string line;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c > 0) line += "  ";
      line += padded(cell_of(c), widths[c], columns_[c].align);
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
  };
  print_line([&](std::size_t c) { return columns_[c].header; });
  // The rule stops at the last column's header: that column (notes) may be long.
  std::size_t rule = 0;
  for (std::size_t c = 0; c < widths.size(); ++c) {
    rule += (c + 1 == widths.size() ? display_width(columns_[c].header) : widths[c] + 2);
  }
  out << std::string(rule, '-') << '\n';
  for (const auto& row : rows_) print_line([&](std::size_t c) { return row[c]; });
}

void Table::print_markdown(std::ostream& out) const {
  out << '|';
  for (const auto& col : columns_) out << ' ' << markdown_cell(col.header) << " |";
  out << "\n|";
  for (const auto& col : columns_) out << (col.align == Align::Left ? "---|" : "---:|");
  out << '\n';
  for (const auto& row : rows_) {
    out << '|';
    for (const auto& cell : row) out << ' ' << markdown_cell(cell) << " |";
    out << '\n';
  }
}

}  // namespace tilemm::bench
