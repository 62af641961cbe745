#pragma once
// Aligned plain-text tables for people; scripts use --json. Columns are aligned by display
// width (report/display_width.hpp), so names in any script line up. A column of times (every
// body cell a time or "-") is right-aligned and written in one notation
// (report/time_notation.hpp); other columns are left-aligned text. A table wider than
// max_table_width wraps its widest long text columns (never the first, never times) at blanks
// onto continuation lines: nothing is cut, and the lines stay within a terminal where they can.
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "model/time.hpp"
#include "report/time_notation.hpp"

namespace gpuwcrt {

// The width docs/guide/outputs-for-scripts.md promises for tables ("about 120 columns"), within which they wrap.
constexpr std::size_t max_table_width = 120;

// Words with times in them ("upper bound 0.333334 by exact"), each time rounded as a table cell
// is (report/time_notation.hpp), remembering whether one was, so that the table says how.
class TextWithTimes {
public:
    TextWithTimes() = default;
    TextWithTimes(std::string text) : text_{std::move(text)} {}
    TextWithTimes& operator+=(const std::string& text) {
        text_ += text;
        return *this;
    }
    TextWithTimes& add(const Time& t, Rounding rounding);
    const std::string& text() const { return text_; }
    bool rounded() const { return rounded_; }

private:
    std::string text_;
    bool rounded_ = false;
};

// A cell: text, or a time whose text its column's notation decides (kept as its TimeText, a
// few bytes, rather than the rational: tables of 10^5 rows). A time is rounded to the nearest
// unless it is an upper bound (upper: rounded up) or a lower bound (lower: rounded down).
class TableCell {
public:
    TableCell(std::string text) : text_{std::move(text)} {}
    TableCell(const char* text) : text_{text} {}
    TableCell(const TextWithTimes& text) : text_{text.text(), -1, text.rounded()} {}
    TableCell(const Time& t) : text_(time_text(t)), is_time_(true) {}
    TableCell(const std::optional<Time>& t) : TableCell(t ? TableCell(*t) : TableCell("-")) {}  // "-" when none
    static TableCell upper(const std::optional<Time>& t) { return of(t, Rounding::up); }
    static TableCell lower(const std::optional<Time>& t) { return of(t, Rounding::down); }

    bool is_time() const { return is_time_; }
    // A text cell's text; a time cell's text in its own digits (format_time gives the column's).
    const std::string& text() const { return text_.text; }
    const TimeText& time() const { return text_; }
    bool rounded() const { return text_.rounded; }

private:
    static TableCell of(const std::optional<Time>& t, Rounding rounding);
    TableCell(TimeText time) : text_(std::move(time)), is_time_(true) {}

    TimeText text_;  // digits unused for text
    bool is_time_ = false;
};

// The line a table with rounded times ends with: how they were rounded.
std::string rounding_note();

// `text` as lines of at most `width` display columns, broken at blanks where it can be (a
// longer word is split between characters): how tables wrap their cells.
std::vector<std::string> wrap_text(const std::string& text, std::size_t width);

class TextTable {
public:
    explicit TextTable(const std::vector<std::string>& header);
    void add(std::vector<TableCell> row) { rows_.push_back(std::move(row)); }
    // A row of plain text built elsewhere (a template, so that a braced list picks the above).
    template <class Text>
    requires std::is_same_v<Text, std::string>
    void add(const std::vector<Text>& row) { rows_.emplace_back(row.begin(), row.end()); }
    void print(std::ostream& out) const;

private:
    std::vector<std::vector<TableCell>> rows_;  // rows_[0] is the header
};

}  // namespace gpuwcrt
