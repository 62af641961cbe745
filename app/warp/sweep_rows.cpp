#include "app/warp/sweep_rows.hpp"

#include <algorithm>
#include <stdexcept>

#include "app/distributed/process_share.hpp"

namespace gpuwcrt::app {
namespace {

// Rows travel between processes as text: fields separated by 0x1f, rows ended by 0x1e (neither
// occurs in a cell: numbers and verdict sentences).
constexpr char field_end = '\x1f', row_end = '\x1e';

std::string rows_text(const std::vector<SweepRow>& rows) {
    std::string out;
    for (const SweepRow& r : rows) {
        out += std::to_string(r.index) + field_end;
        for (const std::string& cell : r.cells) out += cell + field_end;
        out += std::string{r.disagree ? '1' : '0', r.refuted ? '1' : '0', r.unknown ? '1' : '0'} + row_end;
    }
    return out;
}

std::vector<SweepRow> rows_from(const std::string& text) {
    std::vector<SweepRow> rows;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = text.find(row_end, at);
        std::vector<std::string> fields;
        for (std::size_t f = at; f < end;) {
            const std::size_t e = std::min(text.find(field_end, f), end);
            fields.push_back(text.substr(f, e - f));
            f = e + (e < end ? 1 : 0);
        }
        if (end == std::string::npos || fields.size() != 9 || fields.back().size() != 3)
            throw std::logic_error("warp-sweep: a malformed row from another process");
        const std::string flags = fields.back();
        rows.push_back({std::stoull(fields[0]),
                        {fields.begin() + 1, fields.end() - 1},
                        flags[0] == '1',
                        flags[1] == '1',
                        flags[2] == '1'});
        at = end + 1;
    }
    return rows;
}

}  // namespace

std::vector<SweepRow> gathered_rows(const std::vector<SweepRow>& mine) {
    std::vector<SweepRow> all;
    for (const std::string& text : gather_shares(rows_text(mine)))
        for (SweepRow& r : rows_from(text)) all.push_back(std::move(r));
    std::sort(all.begin(), all.end(), [](const SweepRow& a, const SweepRow& b) { return a.index < b.index; });
    return all;
}

}  // namespace gpuwcrt::app
