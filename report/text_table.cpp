#include "report/text_table.hpp"

#include <algorithm>
#include <string_view>

#include "report/display_width.hpp"
#include "report/time_notation.hpp"

namespace gpuwcrt {
namespace {

struct Column {
    bool times = false;  // right-aligned, one notation, never wrapped
    TimeNotation notation;
    std::size_t width = 0;
};

// Only a text column wider than this wraps, and keeps this many columns: the long ones
// (witness orders, verdicts with their bounds) give way, while short labels ("unknown (gap)",
// "bounds / interference bound") stay on one line even when that leaves a table a little
// wider than max_table_width.
constexpr std::size_t min_wrap_width = 30;

// The bytes of the longest prefix of `word` (whole UTF-8 characters, at least one) that fits
// in `width` display columns.
std::size_t fitting_prefix(const std::string& word, std::size_t width) {
    std::size_t cut = 0;
    for (std::size_t k = 1; k <= word.size(); ++k) {
        if (k < word.size() && (static_cast<unsigned char>(word[k]) & 0xC0) == 0x80) continue;  // inside a character
        if (cut > 0 && display_width(std::string_view(word).substr(0, k)) > width) break;
        cut = k;
    }
    return cut;
}

// `text` as lines of at most `width` display columns, broken at blanks where it can be.
std::vector<std::string> wrap_cell(const std::string& text, std::size_t width) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t end = text.find(' ', i);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(i, end - i);
        const std::string joined = line.empty() ? word : line + " " + word;
        if (display_width(joined) <= width) {
            line = joined;
            i = end + 1;
        } else if (!line.empty()) {
            lines.push_back(line);  // the word starts the next line
            line.clear();
        } else {
            const std::size_t cut = fitting_prefix(word, width);  // a word wider than the column
            lines.push_back(word.substr(0, cut));
            i += cut;
        }
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

// Narrows the widest text columns (never the first: the operation's name) until the table fits
// in max_table_width, or none can give more.
void fit_columns(std::vector<Column>& cols) {
    auto total = [&] {
        std::size_t t = cols.empty() ? 0 : 2 * (cols.size() - 1);
        for (const Column& c : cols) t += c.width;
        return t;
    };
    while (total() > max_table_width) {
        Column* widest = nullptr;
        for (std::size_t c = 1; c < cols.size(); ++c)
            if (!cols[c].times && cols[c].width > min_wrap_width && (!widest || cols[c].width > widest->width))
                widest = &cols[c];
        if (!widest) return;
        widest->width = std::max(min_wrap_width, widest->width - std::min(widest->width, total() - max_table_width));
    }
}

void print_row(std::ostream& out, const std::vector<std::string>& row, const std::vector<Column>& cols) {
    std::vector<std::vector<std::string>> pieces;
    std::size_t height = 1;
    for (std::size_t c = 0; c < row.size(); ++c) {
        pieces.push_back(cols[c].times ? std::vector<std::string>{row[c]} : wrap_cell(row[c], cols[c].width));
        height = std::max(height, pieces.back().size());
    }
    for (std::size_t k = 0; k < height; ++k) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string piece = k < pieces[c].size() ? pieces[c][k] : "";
            const std::string pad(cols[c].width - std::min(cols[c].width, display_width(piece)), ' ');
            if (c > 0) line += "  ";
            line += cols[c].times ? pad + piece : piece + pad;
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << '\n';
    }
}

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
    fit_columns(cols);
    for (const auto& row : text) print_row(out, row, cols);
}

}  // namespace gpuwcrt
