#include "report/text_table.hpp"

#include <algorithm>
#include <string_view>

#include "common/utf8.hpp"
#include "report/display_width.hpp"
#include "report/time_notation.hpp"

namespace gpuwcrt {
namespace {

struct Column {
    bool times = false;  // right-aligned, one notation, never wrapped
    TimeNotation notation;
    std::size_t width = 0;
    std::size_t narrowest = 0;  // the width with its header wrapped: its body or longest word
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
    for (const std::size_t end : utf8_ends(word)) {
        if (cut > 0 && display_width(std::string_view(word).substr(0, end)) > width) break;
        cut = end;
    }
    return cut;
}

// The display width of the widest blank-separated word of `text`.
std::size_t longest_word(const std::string& text) {
    std::size_t widest = 0, start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        widest = std::max(widest, display_width(std::string_view(text).substr(start, end - start)));
        start = end + 1;
    }
    return widest;
}

std::size_t table_width(const std::vector<Column>& cols) {
    std::size_t t = cols.empty() ? 0 : 2 * (cols.size() - 1);
    for (const Column& c : cols) t += c.width;
    return t;
}

// Fits the table in max_table_width where it can: first headers wider than their values wrap
// ("rta(max, approximation)" over "8.53": the cheapest lines to add, one per table), the
// largest saving first; then the widest long text columns wrap, never the first (the
// operation's name).
void fit_columns(std::vector<Column>& cols) {
    std::vector<std::size_t> by_saving;
    for (std::size_t c = 1; c < cols.size(); ++c)
        if (cols[c].narrowest < cols[c].width) by_saving.push_back(c);
    std::stable_sort(by_saving.begin(), by_saving.end(), [&](std::size_t a, std::size_t b) {
        return cols[a].width - cols[a].narrowest > cols[b].width - cols[b].narrowest;
    });
    for (const std::size_t c : by_saving) {
        if (table_width(cols) <= max_table_width) return;
        const std::size_t excess = table_width(cols) - max_table_width;
        cols[c].width = std::max(cols[c].narrowest, cols[c].width - std::min(cols[c].width, excess));
    }
    while (table_width(cols) > max_table_width) {
        Column* widest = nullptr;
        for (std::size_t c = 1; c < cols.size(); ++c)
            if (!cols[c].times && cols[c].width > min_wrap_width && (!widest || cols[c].width > widest->width))
                widest = &cols[c];
        if (!widest) return;
        widest->width =
            std::max(min_wrap_width, widest->width - std::min(widest->width, table_width(cols) - max_table_width));
    }
}

// Whether wrap_text(text, width) is the text itself: it fits, and no blank at either end that
// wrapping would drop. Nearly every cell of a large table, which then needs no copy.
bool stays_whole(const std::string& text, std::size_t text_width, std::size_t width) {
    return text_width <= width && (text.empty() || (text.front() != ' ' && text.back() != ' '));
}

void print_line(std::ostream& out, std::string& line) {
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
}

// `header`: every cell may wrap (a time column's header too). `widths`: each cell's display width.
void print_row(std::ostream& out, const std::vector<std::string>& row, const std::vector<std::size_t>& widths,
               const std::vector<Column>& cols, bool header) {
    bool one_line = true;
    for (std::size_t c = 0; c < row.size() && one_line; ++c)
        one_line = (cols[c].times && !header) || stays_whole(row[c], widths[c], cols[c].width);
    if (one_line) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::size_t pad = cols[c].width - std::min(cols[c].width, widths[c]);
            if (c > 0) line += "  ";
            if (cols[c].times) line.append(pad, ' ');
            line += row[c];
            if (!cols[c].times) line.append(pad, ' ');
        }
        print_line(out, line);
        return;
    }
    std::vector<std::vector<std::string>> pieces;
    std::size_t height = 1;
    for (std::size_t c = 0; c < row.size(); ++c) {
        const bool whole = cols[c].times && !header;
        pieces.push_back(whole ? std::vector<std::string>{row[c]} : wrap_text(row[c], cols[c].width));
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
        print_line(out, line);
    }
}

}  // namespace

std::vector<std::string> wrap_text(const std::string& text, std::size_t width) {
    if (stays_whole(text, display_width(text), width)) return {text};
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

TextWithTimes& TextWithTimes::add(const Time& t, Rounding rounding) {
    TimeText time = time_text(t, rounding);
    text_ += time.text;
    rounded_ = rounded_ || time.rounded;
    return *this;
}

TableCell TableCell::of(const std::optional<Time>& t, Rounding rounding) {
    return t ? TableCell(time_text(*t, rounding)) : TableCell("-");
}

std::string rounding_note() {
    return "times rounded to 0." + std::string(rounded_fraction_digits - 1, '0') +
           "1: upper bounds up, lower bounds down, the others to the nearest (--exact: exact values)";
}

TextTable::TextTable(const std::vector<std::string>& header) { rows_.emplace_back(header.begin(), header.end()); }

namespace {

// A cell's text in its column: a time in the column's notation.
std::string cell_text(const TableCell& cell, const Column& col) {
    return cell.is_time() ? format_time(cell.time(), col.notation) : cell.text();
}

}  // namespace

void TextTable::print(std::ostream& out) const {
    std::size_t n = 0;
    for (const auto& row : rows_) n = std::max(n, row.size());
    std::vector<Column> cols(n);
    for (std::size_t c = 0; c < n; ++c) {
        bool any_time = false, only_times = true;
        for (std::size_t r = 1; r < rows_.size(); ++r) {
            if (c >= rows_[r].size()) continue;
            const TableCell& cell = rows_[r][c];
            if (cell.is_time()) {
                any_time = true;
                widen_notation(cols[c].notation, cell.time().digits);
            } else {
                only_times = only_times && cell.text() == "-";
            }
        }
        cols[c].times = only_times && any_time;
    }
    // Each row's texts are made when they are needed, twice (widths, then lines), rather than
    // kept for the whole table.
    for (std::size_t r = 0; r < rows_.size(); ++r)
        for (std::size_t c = 0; c < rows_[r].size(); ++c) {
            const std::size_t width = display_width(cell_text(rows_[r][c], cols[c]));
            cols[c].width = std::max(cols[c].width, width);
            if (r > 0) cols[c].narrowest = std::max(cols[c].narrowest, width);
        }
    for (std::size_t c = 0; c < rows_[0].size(); ++c)
        cols[c].narrowest = std::max(cols[c].narrowest, longest_word(rows_[0][c].text()));
    fit_columns(cols);
    bool rounded = false;
    std::vector<std::string> text;
    std::vector<std::size_t> widths;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        text.clear();
        widths.clear();
        for (std::size_t c = 0; c < rows_[r].size(); ++c) {
            text.push_back(cell_text(rows_[r][c], cols[c]));
            rounded = rounded || rows_[r][c].rounded();
            widths.push_back(display_width(text.back()));
        }
        print_row(out, text, widths, cols, r == 0);
    }
    if (rounded) out << rounding_note() << '\n';
}

}  // namespace gpuwcrt
