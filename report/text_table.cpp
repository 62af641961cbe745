#include "report/text_table.hpp"

#include <algorithm>

#include "report/display_width.hpp"
#include "report/time_notation.hpp"

namespace gpuwcrt {
namespace {

struct Column {
    bool times = false;  // right-aligned, one notation
    TimeNotation notation;
    std::size_t width = 0;
};

}  // namespace

TextTable::TextTable(const std::vector<std::string>& header) { rows_.emplace_back(header.begin(), header.end()); }

void TextTable::print(std::ostream& out) const {
    std::size_t n = 0;
    for (const auto& row : rows_) n = std::max(n, row.size());
    std::vector<Column> cols(n);
    for (std::size_t c = 0; c < n; ++c) {
        std::vector<Time> values;
        bool only_times = true;
        for (std::size_t r = 1; r < rows_.size(); ++r) {
            if (c >= rows_[r].size()) continue;
            const TableCell& cell = rows_[r][c];
            if (cell.time()) values.push_back(*cell.time());
            else only_times = only_times && cell.text() == "-";
        }
        cols[c].times = only_times && !values.empty();
        cols[c].notation = notation_for(values);
    }
    std::vector<std::vector<std::string>> text(rows_.size());
    for (std::size_t r = 0; r < rows_.size(); ++r)
        for (std::size_t c = 0; c < rows_[r].size(); ++c) {
            const TableCell& cell = rows_[r][c];
            text[r].push_back(cell.time() ? format_time(*cell.time(), cols[c].notation) : cell.text());
            cols[c].width = std::max(cols[c].width, display_width(text[r].back()));
        }
    for (const auto& row : text) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string pad(cols[c].width - display_width(row[c]), ' ');
            if (c > 0) line += "  ";
            if (cols[c].times) line += pad + row[c];
            else line += row[c] + (c + 1 < row.size() ? pad : "");
        }
        out << line << '\n';
    }
}

}  // namespace gpuwcrt
